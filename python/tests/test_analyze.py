"""analyze, count, random_boards and solvable: against published distributions, the counting
theorem and the command-line tool."""

import math
import os
import signal
import subprocess
import threading
import time
from fractions import Fraction

import numpy as np
import pytest

import tilespace
from conftest import reference


@pytest.mark.parametrize(
    "shape, metric, blank, published",
    [
        # data/reference/ (copied from ../shared/reference, whose README gives each
        # source: lightln2's SlidingTilesSolver logs, OEIS A089473/A089474/A089483).
        ("3x3", "single", None, "stm_3x3_corner"),
        ("3x3", "single", "center", "stm_3x3_centre_r1c1"),
        ("3x3", "multi", 1, "mtm_3x3_edge_r0c1"),
        ("2x4", "multi", "first", "mtm_2x4_corner"),
        ("2x5", "single", 1, "stm_2x5_edge_r0c1"),
    ],
)
def test_analysis_equals_published_distribution(shape, metric, blank, published):
    a = tilespace.analyze(shape, metric=metric, blank=blank, threads=2)
    want = reference(published)
    assert a.depths.dtype == np.uint64
    np.testing.assert_array_equal(a.depths, want)
    rows, cols = map(int, shape.split("x"))
    assert a.states == math.factorial(rows * cols) // 2 == int(want.sum())
    assert a.eccentricity == len(want) - 1
    total = sum(d * int(n) for d, n in enumerate(want))
    assert a.mean == Fraction(total, a.states)
    assert isinstance(a.mean, Fraction)
    assert a.verified and a.metric == metric and a.shape == shape
    assert a.antipodes.dtype == np.uint8 == tilespace.board_dtype(shape)
    assert a.antipodes.shape == (int(want[-1]), rows * cols)
    assert tilespace.solvable(a.antipodes, shape, blank=a.blank).all()


def test_the_readme_line():
    # The 8-puzzle from the goal with the blank last: 9!/2 states, 31 moves at most (Reinefeld
    # 1993; data/reference/stm_3x3_corner.csv), 2 antipodes.
    a = tilespace.analyze("3x3")
    assert (a.states, a.eccentricity, len(a.antipodes)) == (181440, 31, 2)
    # Issue 48 named the most moves from one goal its eccentricity; the radius is the least
    # eccentricity over goal cells (30 for 3x3), which one analysis does not know.
    with pytest.raises(AttributeError, match="eccentricity"):
        a.radius


def test_count_is_the_counting_theorem():
    assert tilespace.count("4x4") == math.factorial(16) // 2
    assert tilespace.count("10x10") == math.factorial(100) // 2
    assert tilespace.count("1x5") == 5
    # 1600! has 4,437 digits, past the 4,300 Python converts from decimal text by default.
    big = tilespace.count("40x40")
    assert isinstance(big, int) and big == math.factorial(1600) // 2


def test_the_version_is_the_packages():
    from importlib.metadata import version

    assert tilespace.__version__ == version("tilespace")
    assert tilespace.__version__.count(".") == 2


def test_boards_come_in_every_shape_numpy_users_write(tmp_path):
    boards = tilespace.random_boards("3x4", 20, seed=4)
    flat = tilespace.solvable(boards, "3x4")
    np.testing.assert_array_equal(tilespace.solvable(boards.reshape(20, 3, 4), "3x4"), flat)
    assert tilespace.solvable(boards[0].reshape(3, 4), "3x4") is bool(flat[0])
    assert tilespace.solvable(boards[0], "3x4") is bool(flat[0])
    # Any integer dtype goes in; the boards' own dtype comes out.
    np.testing.assert_array_equal(tilespace.solvable(boards.astype(np.int64), "3x4"), flat)
    assert boards.dtype == np.uint8


def test_seeds_and_generators_draw_as_numpy_does():
    a = tilespace.random_boards("3x3", 5, rng=np.random.default_rng(7))
    b = tilespace.random_boards("3x3", 5, rng=np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)
    # Without a seed, fresh draws: two of 9!/2 boards five times over would not all agree.
    assert not np.array_equal(tilespace.random_boards("3x3", 5), tilespace.random_boards("3x3", 5))


def test_the_analysis_is_a_typed_record():
    a = tilespace.analyze("2x3", metric="multi")
    assert type(a) is tilespace.Analysis and a.metric == "multi"
    assert a != tilespace.analyze("2x3", metric="multi")  # arrays: compared by identity
    assert "blank=5" in repr(a)


def test_random_boards_are_the_commands(cli):
    boards = tilespace.random_boards("3x4", 200, seed=3)
    assert boards.shape == (200, 12) and boards.dtype == np.uint8
    np.testing.assert_array_equal(boards, tilespace.random_boards("3x4", 200, seed=3))
    assert tilespace.solvable(boards, "3x4").all()
    out = subprocess.run(
        [cli, "random", "3x4", "--seed", "3", "--count", "200"],
        check=True, capture_output=True, text=True,
    ).stdout
    want = [[int(t) for t in line.replace("/", " ").split()] for line in out.splitlines()]
    np.testing.assert_array_equal(boards, np.array(want))
    first = tilespace.random_boards("3x4", 50, seed=3, blank="first")
    assert tilespace.solvable(first, "3x4", blank=0).all()


def test_solvable_is_inversion_parity():
    # Swapping two tiles changes the class (Johnson & Story 1879).
    boards = tilespace.random_boards("4x4", 1000, seed=9).astype(np.int64)
    swapped = boards.copy()
    for row in swapped:
        tiles = np.flatnonzero(row)
        row[tiles[0]], row[tiles[1]] = row[tiles[1]], row[tiles[0]]
    assert tilespace.solvable(boards, "4x4").all()
    assert not tilespace.solvable(swapped, "4x4").any()
    assert tilespace.solvable([1, 2, 3, 4, 5, 6, 7, 8, 0], "3x3") is True
    assert tilespace.solvable([1, 2, 3, 4, 5, 6, 8, 7, 0], "3x3") is False
    # On a line no tile passes another: a 3-cycle is even, and still out of reach.
    assert tilespace.solvable([1, 0, 2, 3], "1x4") is True
    assert tilespace.solvable([3, 1, 2, 0], "1x4") is False


def test_the_gil_is_released_while_it_searches():
    ticks = 0
    done = threading.Event()

    def search():
        tilespace.analyze("3x4", threads=1)
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    # A search that held the GIL would leave this thread a turn or two, however long it took;
    # released, it has one a millisecond (3x4 takes a second or more on one thread).
    assert ticks > 20, ticks


def test_ctrl_c_stops_a_search():
    start = time.monotonic()
    tilespace.analyze("3x4", threads=1)
    whole = time.monotonic() - start
    # SIGINT a tenth of the way in: the search stops at the next layer, well before its end
    # (a search that ran on would raise KeyboardInterrupt only after it, at full length).
    timer = threading.Timer(whole / 10, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tilespace.analyze("3x4", threads=1)
    stopped = time.monotonic() - start
    timer.join()
    assert stopped < whole / 2, (stopped, whole)
    assert tilespace.analyze("2x3").states == 360
