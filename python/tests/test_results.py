"""read_results on the reports the repository commits (docs/results)."""

import numpy as np
import pytest

import tilespace
from conftest import REPO, reference

pd = pytest.importorskip("pandas")


def test_committed_results_as_frames():
    r = tilespace.read_results(REPO / "docs" / "results")
    row = r.summary[(r.summary.run == "3x3")].iloc[0]
    assert (row.board, row.metric, row.states, row.eccentricity) == ("3x3", "single", 181440, 31)
    assert row.mean_depth_exact == "249167/11340"
    # Every summary row names a directory the reports are in.
    assert set(r.depths.run) == set(r.summary.run)
    for run, published in [
        ("3x3", "stm_3x3_corner"),
        ("3x3-blank-2-2", "stm_3x3_centre_r1c1"),
        ("2x4-multi", "mtm_2x4_corner"),
        ("2x5-blank-1-2-multi", "mtm_2x5_edge_r0c1"),
    ]:
        depths = r.depths[r.depths.run == run]
        np.testing.assert_array_equal(depths.states.to_numpy(np.uint64), reference(published))
    three = r.antipodes[r.antipodes.run == "3x3"]
    assert set(three.configuration) == {"6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"}
    assert set(three.board) == {"3x3"} and set(three.metric) == {"single"}
    # The reference README: 3x3's eccentricities are 31 (diameter) and 30 (radius).
    atlas = r.atlas_summary
    three = atlas[(atlas.board == "3x3") & (atlas.metric == "single")].iloc[0]
    assert (three.diameter, three.radius) == (31, 30)
    assert len(r.atlas) > 0


def test_graph_runs_as_frames(tmp_path):
    r = tilespace.read_results(REPO / "docs" / "results")
    cycle = r.graph_summary[r.graph_summary.graph == "cycle:5"].iloc[0]
    # On a cycle no tile passes another: the tiles keep their cyclic order, so 5 places of the
    # blank times 4 rotations are reachable (Wilson 1974, the cycle's exception).
    assert cycle.states == 20 and cycle.run == "graphs/cycle-5"
    depths = r.graph_depths[r.graph_depths.run == cycle.run]
    assert depths.states.sum() == 20 and set(depths.graph) == {"cycle:5"}
    assert set(r.graph_depths.run) == set(r.graph_summary.run)
    assert set(r.graph_antipodes.run) <= set(r.graph_summary.run)
    # A folder of graph runs alone is a results directory too.
    graphs = tmp_path / "graphs-only"
    graphs.mkdir()
    (graphs / "graph-summary.csv").write_text(
        (REPO / "docs" / "results" / "graph-summary.csv").read_text()
    )
    only = tilespace.read_results(graphs)
    assert len(only.summary) == 0 and len(only.graph_summary) == len(r.graph_summary)
