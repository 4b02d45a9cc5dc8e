"""Table: distances against the command line and the plain search's layers, solutions
replayed, samples checked against the table."""

import subprocess

import numpy as np
import pytest

import tilespace
from conftest import reference


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("t") / "3x3.tst"
    tilespace.analyze("3x3", save_table=path)
    return tilespace.Table.open(path)


def replay(board, moves, cols):
    """The board after the blank moves (U/D/L/R, a count after a slide) from `board`."""
    b = list(board)
    moves = moves.replace(" ", "")
    steps = {"U": -cols, "D": cols, "L": -1, "R": 1}
    i = 0
    while i < len(moves):
        d, i = moves[i], i + 1
        k = ""
        while i < len(moves) and moves[i].isdigit():
            k, i = k + moves[i], i + 1
        for _ in range(int(k or 1)):
            z = b.index(0)
            b[z], b[z + steps[d]] = b[z + steps[d]], b[z]
    return b


def test_table_facts(table):
    assert (table.shape, table.metric, table.blank, table.eccentricity) == ("3x3", "single", 8, 31)
    np.testing.assert_array_equal(table.depths, reference("stm_3x3_corner"))
    assert table.in_memory
    # One convention shown: the repr's blank is the attribute's, 0-based.
    assert "blank=8" in repr(table) and "shape='3x3'" in repr(table)


def test_distances_equal_the_commands(table, cli, tmp_path):
    boards = tilespace.random_boards("3x3", 2000, seed=5)
    found = table.distance(boards)
    assert found.shape == (2000,) and found.dtype == np.uint8
    lines = "\n".join(
        "/".join(" ".join(str(t) for t in b[r * 3:(r + 1) * 3]) for r in range(3)) for b in boards
    )
    (tmp_path / "b.txt").write_text(lines + "\n")
    out = subprocess.run(
        [cli, "distance", "--table", table.path, "--input", str(tmp_path / "b.txt")],
        check=True, capture_output=True, text=True,
    ).stdout
    want = [int(line.rsplit(":", 1)[1]) for line in out.splitlines()]
    np.testing.assert_array_equal(found, want)
    # Any integer dtype, and one board alone.
    np.testing.assert_array_equal(table.distance(boards.astype(np.int64)), found)
    np.testing.assert_array_equal(table.distance(boards.astype(np.uint16)), found)
    assert table.distance(boards[7]) == found[7]


def test_sampled_depths_follow_the_layers(table):
    boards, d = table.sample(20000, seed=1)
    assert len(np.unique(boards, axis=0)) > 18000
    seen = np.bincount(d, minlength=32)
    expected = 20000 * table.depths / table.depths.sum()
    wide = expected >= 50
    assert (np.abs(seen - expected)[wide] < 5 * np.sqrt(expected[wide])).all()
    assert table.distance(np.array([1, 2, 3, 4, 5, 6, 7, 8, 0])) == 0


def test_solutions_are_optimal_and_replay(table):
    for board in tilespace.random_boards("3x3", 50, seed=11):
        s = table.solve(board)
        assert len(s) == table.distance(board) == len(s.moves)
        assert s.boards.shape == (len(s) + 1, 9)
        np.testing.assert_array_equal(s.boards[0], board)
        assert replay(board, s.moves, 3) == [1, 2, 3, 4, 5, 6, 7, 8, 0]


def test_multi_tile_solutions_replay(tmp_path):
    path = tmp_path / "m.tst"
    tilespace.analyze("2x4", metric="multi", save_table=path)
    t = tilespace.Table.open(path)
    np.testing.assert_array_equal(t.depths, reference("mtm_2x4_corner"))
    for board in tilespace.random_boards("2x4", 30, seed=2):
        s = t.solve(board)
        assert len(s) == t.distance(board)
        assert replay(board, s.moves, 4) == [1, 2, 3, 4, 5, 6, 7, 0]


def test_samples_are_the_tables(table):
    boards, d = table.sample(5000, seed=4)
    assert boards.shape == (5000, 9) and boards.dtype == np.uint8 and d.dtype == np.uint8
    np.testing.assert_array_equal(table.distance(boards), d)
    assert tilespace.solvable(boards, "3x3").all()
    again, _ = table.sample(5000, seed=4)
    np.testing.assert_array_equal(again, boards)
    # The 3x3's deepest layer holds its 2 antipodes (Reinefeld 1993): draws meet both.
    deep, d = table.sample(40, seed=1, depth=31)
    assert (d == 31).all() and len(np.unique(deep, axis=0)) == 2
    mid, d = table.sample(3000, seed=1, depth=20)
    assert (d == 20).all() and (table.distance(mid) == 20).all()
