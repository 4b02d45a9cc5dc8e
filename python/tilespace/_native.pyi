"""The extension module under ``tilespace``: the argument checks of ``tilespace``'s own
functions come first (types, ranges, dtypes and array shapes), so call those."""

from typing import Literal, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

Blank = Union[None, int, str]
Metric = Literal["single", "multi"]
# Boards in and out: uint8, or uint16 past 256 cells (`board_dtype`).
Boards = Union[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]
Distances = Union[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]

__version__: str
MOST_THREADS: int

class Found:
    """The facts of one search (``tilespace.Analysis`` is made from them)."""

    shape: str
    metric: Metric
    blank: int
    states: int
    eccentricity: int
    antipodes: Boards
    mean_numerator: int
    mean_denominator: int
    depths: npt.NDArray[np.uint64]
    verified: bool
    threads: int
    seconds: float

def analyze(
    shape: str,
    metric: Metric,
    blank: Blank,
    threads: Optional[int],
    save_table: Optional[str],
) -> Found:
    """Searches every state of ``shape`` from the goal."""

def random_boards(shape: str, n: int, seed: int, blank: Blank) -> Boards:
    """``n`` uniformly random solvable boards, one a row."""

def solvable(boards: Boards, shape: str, blank: Blank) -> npt.NDArray[np.bool_]:
    """Whether each board (a row) can reach the goal."""

def count(shape: str) -> int:
    """(RC)!/2 (RC on a line), exactly."""

def board_dtype(shape: str) -> Literal["uint8", "uint16"]:
    """The dtype of ``shape``'s boards."""

def dims(shape: str) -> Tuple[int, int]:
    """The rows and columns of ``shape``."""

class Table:
    """A saved table, open."""

    @staticmethod
    def open(path: str) -> "Table":
        """Opens and checks the table at ``path``."""
    @property
    def path(self) -> str: ...
    @property
    def shape(self) -> str: ...
    @property
    def metric(self) -> Metric: ...
    @property
    def blank(self) -> int: ...
    @property
    def eccentricity(self) -> int: ...
    @property
    def depths(self) -> npt.NDArray[np.uint64]: ...
    @property
    def in_memory(self) -> bool: ...
    def distance(self, boards: Boards) -> Distances:
        """The distance of each board (a row)."""
    def solve(self, board: Boards) -> Tuple[str, Boards]:
        """The moves and boards of an optimal solution of the board (one row)."""
    def sample(self, n: int, seed: int, depth: Optional[int] = None) -> Tuple[Boards, Distances]:
        """``n`` random boards of the table's class and their distances."""

class FoundTokens:
    """The facts of one search of a goal of tokens (``tilespace.TokenAnalysis``)."""

    shape: str
    metric: Metric
    tokens: str
    goal: npt.NDArray[np.uint8]
    arrangements: int
    reachable: int
    predicted: Optional[str]
    eccentricity: int
    antipodes: npt.NDArray[np.uint8]
    mean_numerator: int
    mean_denominator: int
    depths: npt.NDArray[np.uint64]
    verified: bool
    threads: int
    seconds: float

def analyze_tokens(
    shape: str,
    goal: npt.NDArray[np.uint8],
    metric: Metric,
    threads: Optional[int],
    save_table: Optional[str],
) -> FoundTokens:
    """Searches every arrangement of the goal's tokens that reaches it."""

class TokenTable:
    """A saved table of a board's tokens, open."""

    @staticmethod
    def open(path: str) -> "TokenTable":
        """Opens and checks the table at ``path``."""
    @property
    def path(self) -> str: ...
    @property
    def shape(self) -> str: ...
    @property
    def metric(self) -> Metric: ...
    @property
    def tokens(self) -> str: ...
    @property
    def goal(self) -> npt.NDArray[np.uint8]: ...
    @property
    def eccentricity(self) -> int: ...
    @property
    def depths(self) -> npt.NDArray[np.uint64]: ...
    def distance(self, arrangements: npt.NDArray[np.uint8]) -> Distances:
        """The distance of each arrangement (a row)."""
    def solve(self, arrangement: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """The arrangements of an optimal way to the goal (one row in)."""
