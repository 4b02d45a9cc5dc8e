"""Goals of tokens (pebble motion: labels that repeat, several blanks) from Python: the
analysis and the saved table against a plain search of this file's own, and the command
line's answers."""

import os
import signal
import subprocess
import threading
import time
from collections import deque
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

import tilespace


def moves(rows, cols, a, metric):
    """The arrangements one move from ``a`` (a tuple, 0 a blank) on a rows x cols board: a
    token slides onto a blank beside it; in the multi-tile metric (one blank), the blank slides
    any distance along its row or column, the tokens between following it."""
    out = []
    for blank in [i for i, t in enumerate(a) if t == 0]:
        r, c = divmod(blank, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            b, at, rr, cc = list(a), blank, r + dr, c + dc
            while 0 <= rr < rows and 0 <= cc < cols:
                nxt = rr * cols + cc
                if b[nxt] == 0:
                    break
                b[at], b[nxt] = b[nxt], b[at]
                at = nxt
                out.append(tuple(b))
                if metric == "single":
                    break
                rr, cc = rr + dr, cc + dc
    return out


def depths(rows, cols, goal, metric):
    """The depth of every arrangement that reaches ``goal``, by a plain breadth-first search."""
    seen = {tuple(goal): 0}
    queue = deque([tuple(goal)])
    while queue:
        a = queue.popleft()
        for b in moves(rows, cols, a, metric):
            if b not in seen:
                seen[b] = seen[a] + 1
                queue.append(b)
    return seen


CASES = [
    ("2x3", [1, 1, 2, 2, 0, 0], "single"),
    ("2x3", [0, 1, 0, 2, 0, 3], "single"),
    ("3x3", [1, 1, 1, 2, 2, 2, 3, 3, 0], "multi"),
    ("2x3", [1, 2, 3, 4, 5, 0], "single"),
]


@pytest.mark.parametrize("shape,goal,metric", CASES)
def test_analysis_and_table_are_the_plain_search(shape, goal, metric, tmp_path):
    rows, cols = map(int, shape.split("x"))
    want = depths(rows, cols, goal, metric)
    table = tmp_path / "t.tst"
    a = tilespace.analyze(shape, metric=metric, goal=goal, save_table=table)
    assert isinstance(a, tilespace.TokenAnalysis)
    layers = np.bincount(list(want.values())).astype(np.uint64)
    assert np.array_equal(a.depths, layers)
    assert a.reachable == len(want) and a.eccentricity == len(layers) - 1
    assert a.mean == Fraction(sum(want.values()), len(want))
    far = sorted(k for k, d in want.items() if d == a.eccentricity)
    assert sorted(map(tuple, a.antipodes.tolist())) == far
    assert a.verified and list(a.goal) == goal
    t = tilespace.TokenTable.open(table)
    assert (t.shape, t.metric, t.tokens, t.eccentricity) == (shape, metric, a.tokens, a.eccentricity)
    every = sorted(set(permutations(goal)))
    reached = [p for p in every if p in want]
    found = t.distance(np.array(reached))
    assert found.tolist() == [want[p] for p in reached]
    for start in reached[:: max(1, len(reached) // 20)]:
        way = [tuple(x) for x in t.solve(start).tolist()]
        assert way[0] == start and way[-1] == tuple(goal) and len(way) == want[start] + 1
        assert all(b in moves(rows, cols, a_, metric) for a_, b in zip(way, way[1:]))
    missed = [p for p in every if p not in want]
    if missed:
        with pytest.raises(tilespace.InputError, match="row 0: .*cannot reach the goal"):
            t.distance([missed[0]])


def test_the_command_line_answers_as_the_package(cli, tmp_path):
    table = tmp_path / "c.tst"
    board = "1 1 2/2 0 0"
    subprocess.run(
        [cli, "analyze", "2x3", "--goal", board, "--save-table", table, "-q", "--results", tmp_path],
        check=True,
        capture_output=True,
    )
    t = tilespace.TokenTable.open(table)
    out = subprocess.run(
        [cli, "distance", "--table", table, "0 0 1/1 2 2"], check=True, capture_output=True, text=True
    ).stdout
    assert out.strip() == f"0 0 1/1 2 2: {t.distance([0, 0, 1, 1, 2, 2])}"


def test_bad_goals_and_tables_are_refused(tmp_path):
    with pytest.raises(tilespace.InputError, match="blank or goal"):
        tilespace.analyze("2x3", blank=0, goal=[1, 1, 2, 2, 0, 0])
    with pytest.raises(tilespace.InputError):
        tilespace.analyze("2x3", goal=[1, 1, 2, 2, 0])
    with pytest.raises(tilespace.InputError, match="no blank"):
        tilespace.analyze("2x3", goal=[1, 1, 2, 2, 3, 3])
    with pytest.raises(tilespace.InputError, match="out of range"):
        tilespace.analyze("2x3", goal=[1, 1, 2, 300, 0, 0])
    with pytest.raises(tilespace.InputTypeError):
        tilespace.analyze("2x3", goal="1 1 2/2 0 0")
    boards = tmp_path / "b.tst"
    tilespace.analyze("2x3", save_table=boards)
    with pytest.raises(tilespace.FileError):
        tilespace.TokenTable.open(boards)
    tokens = tmp_path / "t.tst"
    tilespace.analyze("2x3", goal=[1, 1, 2, 2, 0, 0], save_table=tokens)
    with pytest.raises(tilespace.FileError):
        tilespace.Table.open(tokens)
    t = tilespace.TokenTable.open(tokens)
    with pytest.raises(tilespace.InputError, match="not an arrangement"):
        t.distance([1, 2, 2, 2, 0, 0])
    with pytest.raises(tilespace.InputError, match="one arrangement"):
        t.solve([[1, 1, 2, 2, 0, 0], [0, 0, 1, 1, 2, 2]])


def test_ctrl_c_during_a_search_of_tokens_leaves_the_interpreter():
    # SIGINT 0.2 s in: the search (seconds on one thread) stops at its next layer with
    # KeyboardInterrupt; on a machine that finished it first, the sleep is interrupted instead.
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        tilespace.analyze("3x4", goal=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0], threads=1)
        time.sleep(60)
    timer.join()
    assert tilespace.analyze("2x3", goal=[1, 1, 2, 2, 0, 0]).reachable == 90
