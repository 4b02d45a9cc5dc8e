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
    assert set(r.antipodes[r.antipodes.run == "3x3"].board) == {"6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"}
    # The reference README: 3x3's eccentricities are 31 (diameter) and 30 (radius).
    atlas = r.atlas_summary
    three = atlas[(atlas.board == "3x3") & (atlas.metric == "single")].iloc[0]
    assert (three.diameter, three.radius) == (31, 30)
    assert len(r.atlas) > 0
