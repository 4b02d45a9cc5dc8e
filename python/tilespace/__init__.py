"""tilespace: exact facts about every reachable state of sliding-tile puzzles, as numpy arrays.

Conventions, the same in every call:

- A *shape* is a string ``"RxC"`` (rows x columns): ``"4x4"`` is the 15-puzzle.
- A *board* lists its tiles in reading order, 0 for the blank. One board is a 1-D array of
  R*C integers or an (R, C) array; several are an (N, R*C) or an (N, R, C) array. Boards come
  back as an (N, R*C) array of ``board_dtype(shape)``: ``uint8`` (``uint16`` past 256 cells).
- A goal has tiles 1, 2, ... in reading order around its blank; ``blank`` names the blank's
  cell: ``None`` for the last cell (the 15-puzzle's goal), an ``int`` for a 0-based position
  of the flat board (as ``Analysis.blank`` and ``Table.blank`` give it), or a string as the
  command line takes it (``"first"``, ``"last"``, ``"center"``, ``"R,C"`` or a cell number, both
  1-based).
- Random draws take ``seed`` (an int; ``None`` for a fresh one) or ``rng`` (a
  ``numpy.random.Generator``, from which one seed is drawn).

Every error is a ``tilespace.Error`` with the library's one-line message; bad input is also a
``ValueError`` (a ``TypeError`` for an argument of the wrong type), a file's failure an
``OSError``, work that does not fit in memory a ``MemoryError``, refused before anything is
allocated.

Examples
--------
>>> import tilespace
>>> a = tilespace.analyze("3x3")
>>> a.states, a.eccentricity, a.mean
(181440, 31, Fraction(...))
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Optional, Tuple, Union

import numpy as np

from . import _native
from ._errors import Error, FileError, InputError, InputTypeError, ResourceError
from .results import Results, read_results


__version__: str = _native.__version__

__all__ = [
    "Analysis",
    "Error",
    "FileError",
    "InputError",
    "InputTypeError",
    "ResourceError",
    "Results",
    "Solution",
    "Table",
    "TokenAnalysis",
    "TokenTable",
    "__version__",
    "analyze",
    "board_dtype",
    "count",
    "random_boards",
    "read_results",
    "solvable",
]

Metric = Literal["single", "multi"]
"""How moves are counted: ``"single"`` (a move slides one tile one cell) or ``"multi"`` (a
move slides the tiles between the blank and a cell of its row or column)."""
Blank = Union[None, int, str]
PathLike = Union[str, "os.PathLike[str]"]

_METRICS = ("single", "multi")


@dataclass(frozen=True, eq=False)
class Analysis:
    """Everything one search from the goal found (``analyze`` returns it).

    Instances compare by identity: their arrays have no single truth value.
    """

    shape: str
    """The board, ``RxC``."""
    metric: Metric
    """``"single"`` or ``"multi"``."""
    blank: int
    """The goal's blank cell, 0-based (a position of the flat board)."""
    states: int
    """States reached: (RC)!/2."""
    eccentricity: int
    """The most moves any state needs to reach the goal (the greatest depth)."""
    antipodes: np.ndarray
    """The states at the greatest depth, an (N, R*C) array of ``board_dtype(shape)``."""
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


@dataclass(frozen=True, eq=False)
class TokenAnalysis:
    """Every arrangement of a goal of tokens that reaches it (``analyze(..., goal=...)``):
    pebble motion, labels that repeat and several blanks.

    Instances compare by identity: their arrays have no single truth value.
    """

    shape: str
    """The board, ``RxC``."""
    metric: Metric
    """``"single"`` or ``"multi"``."""
    tokens: str
    """The goal's multiset, ``1^4 2^4 3^4 4^3 0``: each label with its multiplicity."""
    goal: np.ndarray
    """The goal, an (R*C,) uint8 array (0 a blank)."""
    arrangements: int
    """Every arrangement of the goal's tokens: n!/(m0!·m1!·...)."""
    reachable: int
    """The arrangements that reach the goal."""
    predicted: Optional[int]
    """The arrangements the theorems of pebble motion say reach it, where one decides."""
    eccentricity: int
    """The most moves any arrangement needs to reach the goal."""
    antipodes: np.ndarray
    """The arrangements at the greatest depth, an (N, R*C) uint8 array."""
    mean: Fraction
    """The exact mean number of moves over the reachable arrangements."""
    depths: np.ndarray
    """Arrangements at each depth, from 0 (uint64)."""
    verified: bool
    """Every check passed (the theorems' count, the recount of the table, the antipodes')."""
    threads: int
    """Threads the search ran on."""
    seconds: float
    """Seconds the search took."""


def analyze(
    shape: str,
    metric: Metric = "single",
    blank: Blank = None,
    threads: Optional[int] = None,
    save_table: Optional[PathLike] = None,
    goal=None,
) -> Union[Analysis, TokenAnalysis]:
    """Enumerate every state of a board reachable from the goal.

    The GIL is released while it runs; Ctrl-C stops it at the next layer. Boards past 12 cells
    take minutes and gigabytes (2x7: 11 GB); one that does not fit is refused at once.

    Parameters
    ----------
    shape : str
        The board, ``"RxC"``.
    metric : {"single", "multi"}
        How moves are counted.
    blank : None, int or str
        The goal's blank cell (see ``help(tilespace)``); ``None`` for the last.
    threads : int, optional
        Threads to search on, from 1 to 8 a core (the command line's limit); all cores if
        ``None``.
    save_table : str or os.PathLike, optional
        Where to save the finished table, for ``Table.open`` (``TokenTable.open`` with
        ``goal``).
    goal : array_like of int, optional
        A goal of tokens instead of tiles 1, 2, ... around one blank (pebble motion): the
        token on each cell (R*C or (R, C)), labels 0 to 255 that may repeat (tokens of one
        colour), 0 for each blank. ``blank`` is then not given.

    Returns
    -------
    Analysis or TokenAnalysis
        The counts by depth, eccentricity, antipodes and exact mean (``TokenAnalysis`` with
        ``goal``).

    Raises
    ------
    InputError
        A bad shape, metric, blank or thread count (``InputTypeError`` for a wrong type).
    ResourceError
        The search does not fit in the memory available.
    FileError
        The table cannot be saved.
    KeyboardInterrupt
        Ctrl-C.

    Examples
    --------
    >>> a = tilespace.analyze("3x3", metric="multi")
    >>> a.states, a.eccentricity
    (181440, 24)
    >>> t = tilespace.analyze("3x3", goal=[1, 1, 1, 2, 2, 2, 0, 0, 0])
    >>> t.tokens, t.reachable, t.eccentricity
    ('1^3 2^3 0^3', 1680, 17)
    """
    if metric not in _METRICS:
        raise InputError(f"'{metric}' is not a metric: use 'single' or 'multi'")
    if threads is not None:
        threads = _int(threads, "threads", 1, _native.MOST_THREADS)
    path = None if save_table is None else os.fspath(save_table)
    if goal is not None:
        if blank is not None:
            raise InputError("give blank or goal, not both: a goal of tokens places its blanks")
        rows, one = _boards(goal, shape, tokens=True)
        if not one:
            raise InputError(f"goal is one arrangement, not {len(rows)}")
        t = _native.analyze_tokens(shape, rows, metric, threads, path)
        return TokenAnalysis(
            shape=t.shape,
            metric=t.metric,
            tokens=t.tokens,
            goal=t.goal[0],
            arrangements=t.arrangements,
            reachable=t.reachable,
            predicted=None if t.predicted is None else int(t.predicted),
            eccentricity=t.eccentricity,
            antipodes=t.antipodes,
            mean=Fraction(t.mean_numerator, t.mean_denominator),
            depths=t.depths,
            verified=t.verified,
            threads=t.threads,
            seconds=t.seconds,
        )
    f = _native.analyze(shape, metric, blank, threads, path)
    return Analysis(
        shape=f.shape,
        metric=f.metric,
        blank=f.blank,
        states=f.states,
        eccentricity=f.eccentricity,
        antipodes=f.antipodes,
        mean=Fraction(f.mean_numerator, f.mean_denominator),
        depths=f.depths,
        verified=f.verified,
        threads=f.threads,
        seconds=f.seconds,
    )


def count(shape: str) -> int:
    """Count the boards of a shape that can reach a goal.

    Parameters
    ----------
    shape : str
        The board, ``"RxC"``, of any size.

    Returns
    -------
    int
        (RC)!/2 exactly, however many digits (RC on a 1xN line, where no tile passes another).

    Raises
    ------
    InputError
        A bad shape.

    Examples
    --------
    >>> tilespace.count("4x4")
    10461394944000
    """
    return _native.count(shape)


def board_dtype(shape: str) -> np.dtype:
    """The dtype boards of a shape come back in.

    Parameters
    ----------
    shape : str
        The board, ``"RxC"``.

    Returns
    -------
    numpy.dtype
        ``uint8``, or ``uint16`` on boards of more than 256 cells.

    Examples
    --------
    >>> tilespace.board_dtype("4x4")
    dtype('uint8')
    """
    return np.dtype(_native.board_dtype(shape))


def random_boards(
    shape: str,
    n: int,
    seed: Optional[int] = None,
    blank: Blank = None,
    *,
    rng: Optional[np.random.Generator] = None,
) -> np.ndarray:
    """Draw uniformly random boards that can reach the goal.

    Parameters
    ----------
    shape : str
        The board, ``"RxC"``.
    n : int
        How many boards.
    seed : int, optional
        In 0..2**64: the same seed, the same boards (and the command line's ``random --seed``).
        ``None`` (and no ``rng``) for a fresh seed.
    blank : None, int or str
        The goal's blank cell; ``None`` for the last.
    rng : numpy.random.Generator, optional
        Draws the seed, instead of ``seed``.

    Returns
    -------
    numpy.ndarray
        An (n, R*C) array of ``board_dtype(shape)``.

    Raises
    ------
    InputError
        A bad shape, count, seed or blank (``InputTypeError`` for a wrong type, a bool
        among them).
    ResourceError
        The boards would not fit in the memory available.

    Examples
    --------
    >>> tilespace.random_boards("3x3", 2, seed=1).shape
    (2, 9)
    """
    return _native.random_boards(shape, _int(n, "n", 0), _seed(seed, rng), blank)


def solvable(boards, shape: str, blank: Blank = None) -> Union[np.ndarray, bool]:
    """Tell whether each board can reach the goal.

    Parameters
    ----------
    boards : array_like of int
        One board (R*C or (R, C)) or several ((N, R*C) or (N, R, C)).
    shape : str
        The board, ``"RxC"``.
    blank : None, int or str
        The goal's blank cell; ``None`` for the last.

    Returns
    -------
    numpy.ndarray or bool
        An (N,) bool array, or a bool for one board.

    Raises
    ------
    InputError
        A bad board (its row named), shape or blank.

    Examples
    --------
    >>> tilespace.solvable([1, 2, 3, 4, 5, 6, 8, 7, 0], "3x3")
    False
    """
    rows, one = _boards(boards, shape)
    found = _native.solvable(rows, shape, blank)
    return bool(found[0]) if one else found


@dataclass(frozen=True, eq=False)
class Solution:
    """An optimal solution (``Table.solve``): ``len()`` is its number of moves."""

    moves: str
    """The moves as the command line writes them: U, D, L, R, the way the blank goes (in the
    multi-tile metric, a count after a slide of more than one cell)."""
    boards: np.ndarray
    """The boards from the start to the goal, an (N, R*C) array of ``board_dtype``."""

    def __len__(self) -> int:
        return len(self.boards) - 1


class _SavedFacts:
    """What every saved table tells of itself: its file, board, metric, eccentricity and
    layers (``Table`` and ``TokenTable``)."""

    _table: "_native.Table | _native.TokenTable"

    @property
    def path(self) -> str:
        """The table's file."""
        return os.fspath(self._table.path)

    @property
    def shape(self) -> str:
        """The board, ``RxC``."""
        return self._table.shape

    @property
    def metric(self) -> Metric:
        """``"single"`` or ``"multi"``."""
        return self._table.metric

    @property
    def eccentricity(self) -> int:
        """The most moves any board or arrangement of the table needs."""
        return self._table.eccentricity

    @property
    def depths(self) -> np.ndarray:
        """Boards (or arrangements) at each depth, from 0 (uint64)."""
        return self._table.depths


class Table(_SavedFacts):
    """A saved table: the exact distance of every board of its class.

    Saved by ``tilespace analyze RxC --save-table FILE`` or ``analyze(..., save_table=FILE)``;
    opened with ``Table.open(path)``. Its words are kept in memory where they fit in half the
    memory free, and read from the file otherwise.

    Examples
    --------
    >>> _ = tilespace.analyze("2x3", save_table="2x3.tst")
    >>> t = tilespace.Table.open("2x3.tst")
    >>> t.distance([[1, 2, 3], [4, 0, 5]])
    1
    """

    def __init__(self, native: _native.Table):
        self._table = native

    @classmethod
    def open(cls, path: PathLike) -> "Table":
        """Open and check a saved table.

        Parameters
        ----------
        path : str or os.PathLike
            The table's file.

        Returns
        -------
        Table

        Raises
        ------
        FileError
            A file that cannot be read, or one whose checksums or recounted layers disagree.
        """
        return cls(_native.Table.open(os.fspath(path)))

    @property
    def blank(self) -> int:
        """The goal's blank cell, 0-based."""
        return self._table.blank

    @property
    def in_memory(self) -> bool:
        """Whether the table's words are in memory (else each lookup reads the file)."""
        return self._table.in_memory

    def distance(self, boards) -> Union[np.ndarray, int]:
        """The exact number of moves from each board to the goal.

        Parallel, with the GIL released.

        Parameters
        ----------
        boards : array_like of int
            One board (R*C or (R, C)) or several ((N, R*C) or (N, R, C)); an empty list is no
            boards.

        Returns
        -------
        numpy.ndarray or int
            An (N,) uint8 array (uint16 past 255 moves), or an int for one board.

        Raises
        ------
        InputError
            A bad board, or one of the other class, its row named.
        ResourceError
            The boards would not fit in the memory available.
        """
        rows, one = _boards(boards, self.shape)
        found = self._table.distance(rows)
        return int(found[0]) if one else found

    def solve(self, board) -> Solution:
        """An optimal solution of one board.

        Parameters
        ----------
        board : array_like of int
            One board (R*C or (R, C)).

        Returns
        -------
        Solution

        Raises
        ------
        InputError
            A bad board, one of the other class, or more than one board.
        """
        rows, one = _boards(board, self.shape)
        if not one and len(rows) != 1:
            raise InputError(f"solve takes one board, not {len(rows)}")
        moves, path = self._table.solve(rows)
        return Solution(moves, path)

    def sample(
        self,
        n: int,
        seed: Optional[int] = None,
        depth: Optional[int] = None,
        *,
        rng: Optional[np.random.Generator] = None,
    ) -> Tuple[np.ndarray, np.ndarray]:
        """Draw uniformly random boards of the table's class, with their exact distances.

        Parameters
        ----------
        n : int
            How many boards.
        seed : int, optional
            In 0..2**64: the same seed, the same sample. ``None`` (and no ``rng``) for a fresh
            seed.
        depth : int, optional
            Only boards this many moves from the goal, each as likely as any other (drawn
            until found: a depth too rare to reach ``n`` boards in 10^9 draws is refused).
        rng : numpy.random.Generator, optional
            Draws the seed, instead of ``seed``.

        Returns
        -------
        boards : numpy.ndarray
            An (n, R*C) array of ``board_dtype(shape)``.
        distances : numpy.ndarray
            An (n,) uint8 array (uint16 past 255 moves).

        Raises
        ------
        InputError
            A bad count, seed or depth.
        ResourceError
            The sample would not fit in the memory available (refused before any draw).
        """
        n = _int(n, "n", 0)
        if depth is not None:
            depth = _int(depth, "depth", 0, self.eccentricity)
        return self._table.sample(n, _seed(seed, rng), depth)

    def __repr__(self) -> str:
        return repr(self._table)


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


class TokenTable(_SavedFacts):
    """A saved table of a goal of tokens: the exact distance of every arrangement it reaches.

    Saved by ``tilespace analyze RxC --goal TOKENS --save-table FILE`` or ``analyze(...,
    goal=..., save_table=FILE)``; opened with ``TokenTable.open(path)``, in memory.

    Examples
    --------
    >>> _ = tilespace.analyze("2x3", goal=[1, 1, 2, 2, 0, 0], save_table="c.tst")
    >>> t = tilespace.TokenTable.open("c.tst")
    >>> t.distance([[0, 0, 1], [1, 2, 2]])
    4
    """

    def __init__(self, native: _native.TokenTable):
        self._table = native

    @classmethod
    def open(cls, path: PathLike) -> "TokenTable":
        """Open and check a saved table of a board's tokens.

        Parameters
        ----------
        path : str or os.PathLike
            The table's file.

        Returns
        -------
        TokenTable

        Raises
        ------
        FileError
            A file that cannot be read, or one whose checksums or recounted layers disagree.
        InputError
            A table of a graph's tokens (the command line answers for it).
        """
        return cls(_native.TokenTable.open(os.fspath(path)))

    @property
    def tokens(self) -> str:
        """The goal's multiset, ``1^4 2^4 3^4 4^3 0``."""
        return self._table.tokens

    @property
    def goal(self) -> np.ndarray:
        """The goal, an (R*C,) uint8 array."""
        return self._table.goal[0]

    def distance(self, arrangements) -> Union[np.ndarray, int]:
        """The exact number of moves from each arrangement to the goal.

        Parameters
        ----------
        arrangements : array_like of int
            One (R*C or (R, C)) or several ((N, R*C) or (N, R, C)).

        Returns
        -------
        numpy.ndarray or int
            An (N,) uint8 array (uint16 past 255 moves), or an int for one arrangement.

        Raises
        ------
        InputError
            An arrangement of other tokens, or one the goal does not reach, its row named.
        """
        rows, one = _boards(arrangements, self.shape, tokens=True)
        found = self._table.distance(rows)
        return int(found[0]) if one else found

    def solve(self, arrangement) -> np.ndarray:
        """An optimal way from one arrangement to the goal.

        Parameters
        ----------
        arrangement : array_like of int
            One arrangement (R*C or (R, C)) of the goal's tokens.

        Returns
        -------
        numpy.ndarray
            The arrangements from it to the goal, one move apart, an (N+1, R*C) uint8 array
            for N moves.

        Raises
        ------
        InputError
            An arrangement of other tokens, one the goal does not reach, or more than one.
        """
        rows, one = _boards(arrangement, self.shape, tokens=True)
        if not one and len(rows) != 1:
            raise InputError(f"solve takes one arrangement, not {len(rows)}")
        return self._table.solve(rows)

    def __repr__(self) -> str:
        return repr(self._table)


def _int(value, name: str, low: int, high: Optional[int] = None) -> int:
    """``value`` as an int in low..=high, or the package's error saying what is wrong."""
    if not _is_int(value):
        raise InputTypeError(f"{name} must be an int, not {type(value).__name__} ({value!r})")
    value = int(value)
    if value < low or (high is not None and value > high):
        span = (
            ("non-negative" if low == 0 else f"at least {low}")
            if high is None
            else f"from {low} to {high}"
        )
        why = " (8 a core, the command line's limit)" if name == "threads" else ""
        raise InputError(f"{name} must be {span}{why}, not {value}")
    return value


def _seed(seed, rng) -> int:
    """The seed of a draw: ``seed``, one drawn from ``rng``, or a fresh one."""
    if rng is not None:
        if seed is not None:
            raise InputError("give seed or rng, not both")
        if not isinstance(rng, np.random.Generator):
            raise InputTypeError(
                f"rng must be a numpy.random.Generator, not {type(rng).__name__}"
            )
        return int(rng.integers(0, 2**64, dtype=np.uint64))
    if seed is None:
        return int(np.random.default_rng().integers(0, 2**64, dtype=np.uint64))
    return _int(seed, "seed", 0, 2**64 - 1)


def _boards(boards, shape: str, tokens: bool = False) -> Tuple[np.ndarray, bool]:
    """Boards as a C-contiguous (N, cells) array of ``board_dtype(shape)``, and whether one
    board was given: a 1-D array of R*C or an (R, C) array is one board; an (N, R*C) or an
    (N, R, C) array, N boards (a 1xC board as (1, C) is a batch of one). ``tokens``: the
    arrangements of a goal of tokens, labels 0 to 255 (uint8)."""
    rows, cols = _native.dims(shape)
    dtype = np.dtype("uint8") if tokens else board_dtype(shape)
    cells = rows * cols
    if isinstance(boards, (str, bytes)):
        raise InputTypeError(f"boards must be an array of integers, not {type(boards).__name__}")
    a = np.asarray(boards)
    if a.size == 0 and a.ndim == 1:
        return np.zeros((0, cells), dtype=dtype), False
    if a.dtype.kind not in "iu":
        raise InputTypeError(f"boards must be integers, not {a.dtype}")
    if a.ndim == 1:
        one, a = True, a.reshape(1, -1)
    elif a.ndim == 2 and a.shape[1] != cells and a.shape == (rows, cols):
        one, a = True, a.reshape(1, cells)
    elif a.ndim == 2:
        one = False
    elif a.ndim == 3 and a.shape[1:] == (rows, cols):
        one, a = False, a.reshape(a.shape[0], cells)
    else:
        raise InputError(
            f"boards must be one board ({cells},) or ({rows}, {cols}), or an (N, {cells}) or "
            f"(N, {rows}, {cols}) array, not {a.ndim}-D {a.shape}"
        )
    if a.dtype == dtype:
        return np.ascontiguousarray(a), one
    low, high = (int(a.min()), int(a.max())) if a.size else (0, 0)
    if low < 0 or high > np.iinfo(dtype).max:
        bad = low if low < 0 else high
        if tokens:
            raise InputError(f"token {bad} is out of range (labels 0 to 255, 0 a blank)")
        raise InputError(f"tile {bad} is out of range (tiles are 1..{cells - 1}, blank 0)")
    return np.ascontiguousarray(a, dtype=dtype), one
