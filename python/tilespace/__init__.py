"""tilespace: exact facts about every reachable state of sliding-tile puzzles, as numpy arrays.

A board is a row of R*C integers in reading order, 0 for the blank; an array of boards has one
board a row. Shapes are strings ``"RxC"`` (rows x columns). A goal has tiles 1, 2, ... in
reading order around its blank; ``blank`` names the blank's cell: ``None`` for the last cell
(the 15-puzzle's goal), an ``int`` for a 0-based position of the flat board, or a string as the
command line takes it (``"first"``, ``"last"``, ``"center"``, ``"R,C"`` or a cell number, both
1-based).

    >>> import tilespace
    >>> a = tilespace.analyze("3x3")
    >>> a.states, a.eccentricity, a.mean
    (181440, 31, Fraction(...))

Every error is a ``tilespace.Error`` with the library's one-line message; bad input is also a
``ValueError``, a file's failure an ``OSError``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Tuple, Union

import numpy as np

from . import _native
from ._errors import Error, FileError, InputError, ResourceError
from .results import Results, read_results

__all__ = [
    "Analysis",
    "Error",
    "FileError",
    "InputError",
    "ResourceError",
    "Results",
    "Solution",
    "Table",
    "analyze",
    "count",
    "random_boards",
    "read_results",
    "solvable",
]

Blank = Union[None, int, str]
PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Analysis:
    """Everything one search from the goal found."""

    shape: str
    """The board, ``RxC``."""
    metric: str
    """``single`` (a move slides one tile one cell) or ``multi`` (a move slides the tiles
    between the blank and a cell of its row or column)."""
    blank: int
    """The goal's blank cell, 0-based."""
    states: int
    """States reached: (RC)!/2."""
    eccentricity: int
    """The most moves any state needs to reach the goal (the greatest depth)."""
    antipodes: np.ndarray
    """The states at the greatest depth, one a row (int8)."""
    mean: Fraction
    """The exact mean number of moves over every state."""
    depths: np.ndarray
    """States at each depth, from 0 (uint64)."""
    verified: bool
    """Every check of the search passed (the counting theorem, the recount of the table, the
    antipodes' class)."""
    threads: int
    """Threads the search ran on."""
    seconds: float
    """Seconds the search took."""

    def __getattr__(self, name: str):
        if name == "radius":
            raise AttributeError(
                "an analysis of one goal has an eccentricity (.eccentricity), the most moves "
                "from it; the radius is the least eccentricity over all goal cells"
            )
        raise AttributeError(f"'Analysis' object has no attribute '{name}'")


def analyze(
    shape: str,
    metric: str = "single",
    blank: Blank = None,
    threads: Optional[int] = None,
    save_table: Optional[PathLike] = None,
) -> Analysis:
    """Enumerates every state of ``shape`` reachable from the goal and returns its facts.

    ``metric`` is ``"single"`` or ``"multi"``; ``threads`` the threads to search on (all cores
    if ``None``). The GIL is released while it runs; Ctrl-C stops it at the next layer and
    raises ``KeyboardInterrupt``. ``save_table`` saves the finished table there, for
    ``Table.open``. Boards past 12 cells take minutes and gigabytes (2x7: 11 GB).
    """
    path = None if save_table is None else os.fspath(save_table)
    d = _native.analyze(shape, metric, blank, threads, path)
    num, den = d.pop("mean")
    return Analysis(mean=Fraction(num, den), **d)


def count(shape: str) -> int:
    """The number of boards of ``shape`` that can reach a goal: (RC)!/2 (RC on a 1xN line)."""
    return int(_native.count(shape))


def random_boards(shape: str, n: int, seed: int, blank: Blank = None) -> np.ndarray:
    """``n`` uniformly random boards of ``shape`` that can reach the goal, one a row (int8),
    the same for the same ``seed``."""
    return _native.random_boards(shape, _count(n, "n"), _seed(seed), blank)


def solvable(boards, shape: str, blank: Blank = None) -> np.ndarray:
    """Whether each board (one a row) can reach the goal: a bool array (a bool for one
    board)."""
    rows, one = _boards(boards)
    found = _native.solvable(rows, shape, blank)
    return bool(found[0]) if one else found


@dataclass(frozen=True)
class Solution:
    """An optimal solution: ``len()`` is its number of moves."""

    moves: str
    """The moves as the command line writes them: U, D, L, R, the way the blank goes (in the
    multi-tile metric, a count after a slide of more than one cell)."""
    boards: np.ndarray
    """The boards from the start to the goal, one a row (int8)."""

    def __len__(self) -> int:
        return len(self.boards) - 1


class Table:
    """A saved table (``tilespace analyze RxC --save-table FILE``, or ``analyze(...,
    save_table=FILE)``): the exact distance of every board of its class.

    Open with ``Table.open(path)``. Its words are kept in memory where they fit in half the
    memory free, and read from the file otherwise.
    """

    def __init__(self, native: _native.Table):
        self._table = native

    @classmethod
    def open(cls, path: PathLike) -> "Table":
        """Opens and checks the table at ``path`` (checksums, and its states by depth recounted
        against its layers): a damaged file raises ``FileError``."""
        return cls(_native.Table.open(os.fspath(path)))

    @property
    def path(self) -> str:
        """The table's file."""
        return os.fspath(self._table.path)

    @property
    def shape(self) -> str:
        """The board, ``RxC``."""
        return self._table.shape

    @property
    def metric(self) -> str:
        """``single`` or ``multi``."""
        return self._table.metric

    @property
    def blank(self) -> int:
        """The goal's blank cell, 0-based."""
        return self._table.blank

    @property
    def eccentricity(self) -> int:
        """The most moves any board of the table needs."""
        return self._table.eccentricity

    @property
    def depths(self) -> np.ndarray:
        """Boards at each depth, from 0 (uint64)."""
        return self._table.depths

    @property
    def in_memory(self) -> bool:
        """Whether the table's words are in memory (else each lookup reads the file)."""
        return self._table.in_memory

    def distance(self, boards) -> np.ndarray:
        """The exact number of moves from each board (one a row of an (N, R*C) integer array)
        to the goal: an (N,) uint8 array (an int for one board). Parallel, with the GIL
        released. A bad board, or one of the other class, raises ``InputError`` naming its
        row."""
        rows, one = _boards(boards)
        found = self._table.distance(rows)
        return int(found[0]) if one else found

    def solve(self, board) -> Solution:
        """An optimal solution of one board."""
        rows, one = _boards(board)
        if not one and len(rows) != 1:
            raise InputError(f"solve takes one board, not {len(rows)}")
        moves, path = self._table.solve(rows)
        return Solution(moves, path)

    def sample(
        self, n: int, seed: int, depth: Optional[int] = None
    ) -> Tuple[np.ndarray, np.ndarray]:
        """``n`` uniformly random boards of the table's class with their exact distances:
        ``(boards, distances)``, an (n, R*C) int8 array and an (n,) uint8 array, the same for
        the same ``seed``. With ``depth``, only boards that many moves from the goal, each as
        likely as any other (drawn until found: a depth too rare to reach ``n`` boards in
        10^9 draws is refused)."""
        if depth is not None and (not _is_int(depth) or depth < 0):
            raise InputError(f"depth must be a non-negative int, not {depth!r}")
        return self._table.sample(_count(n, "n"), _seed(seed), depth)

    def __repr__(self) -> str:
        return repr(self._table)


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _count(n, name: str) -> int:
    if not _is_int(n) or n < 0:
        raise InputError(f"{name} must be a non-negative int, not {n!r}")
    return int(n)


def _seed(seed) -> int:
    if not _is_int(seed) or not 0 <= seed < 2**64:
        raise InputError(f"seed must be an int in 0..2**64, not {seed!r}")
    return int(seed)


def _boards(boards) -> Tuple[np.ndarray, bool]:
    """Boards as a C-contiguous (N, cells) uint8 array (uint16 where a tile passes 255), and
    whether one board (1-D) was given."""
    a = np.asarray(boards)
    if a.dtype.kind not in "iu":
        raise InputError(f"boards must be integers, not {a.dtype}")
    one = a.ndim == 1
    if one:
        a = a.reshape(1, -1)
    elif a.ndim != 2:
        raise InputError(f"boards must be one board or an (N, cells) array, not {a.ndim}-D")
    if a.dtype in (np.uint8, np.uint16):
        return np.ascontiguousarray(a), one
    low, high = (int(a.min()), int(a.max())) if a.size else (0, 0)
    if low < 0 or high > 0xFFFF:
        bad = low if low < 0 else high
        raise InputError(f"tile {bad} is out of range (tiles are 1..cells-1, blank 0)")
    return np.ascontiguousarray(a, dtype=np.uint8 if high <= 0xFF else np.uint16), one
