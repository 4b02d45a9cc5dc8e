"""The extension module under ``tilespace``: the checks and conversions of ``tilespace``'s own
functions come first, so call those."""

from typing import Any, Dict, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

Blank = Union[None, int, str]
Rows = Union[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]

def analyze(
    shape: str,
    metric: str = "single",
    blank: Blank = None,
    threads: Optional[int] = None,
    save_table: Optional[str] = None,
) -> Dict[str, Any]:
    """Searches every state of ``shape`` from the goal; a dict of ``Analysis``'s fields
    (``mean`` as a (numerator, denominator) pair)."""

def random_boards(shape: str, n: int, seed: int, blank: Blank = None) -> npt.NDArray[np.int8]:
    """``n`` uniformly random solvable boards, one a row."""

def solvable(
    boards: Rows, shape: str, blank: Blank = None
) -> npt.NDArray[np.bool_]:
    """Whether each board (a row of uint8 or uint16) can reach the goal."""

def count(shape: str) -> str:
    """(RC)!/2 in decimal."""

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
    def metric(self) -> str: ...
    @property
    def blank(self) -> int: ...
    @property
    def eccentricity(self) -> int: ...
    @property
    def depths(self) -> npt.NDArray[np.uint64]: ...
    @property
    def in_memory(self) -> bool: ...
    def distance(self, boards: Rows) -> npt.NDArray[np.uint8]:
        """The distance of each board (rows of uint8 or uint16)."""
    def solve(self, board: Rows) -> Tuple[str, npt.NDArray[np.int8]]:
        """The moves and boards of an optimal solution of the board (one row)."""
    def sample(
        self, n: int, seed: int, depth: Optional[int] = None
    ) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.uint8]]:
        """``n`` random boards of the table's class and their distances."""
