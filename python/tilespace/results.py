"""Reports of runs (``tilespace analyze`` and ``atlas`` write them to ``results/``; the
repository commits every board up to 2x7 in ``docs/results/``) as tidy pandas DataFrames: one
row an observation, each with the columns that say which run it is of."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional, Sequence, Union

from ._errors import FileError

if TYPE_CHECKING:
    import pandas as pd

# The columns of a board's run that its depths and antipodes carry beside their own.
BOARD_KEYS = ["run", "board", "metric", "goal_blank", "start"]
# The same of a graph's run.
GRAPH_KEYS = ["run", "graph", "goal_blank"]


@dataclass(frozen=True, eq=False)
class Results:
    """The reports of a results directory, one DataFrame each.

    A directory of graph runs only has empty board frames, and one of board runs only ``None``
    for the graph frames.
    """

    summary: "pd.DataFrame"
    """``summary.csv``: a row per board run (board, goal blank, start, metric; states,
    eccentricity, antipodes, exact and decimal mean, median, widest layer), and ``run``, the
    name of its report directory."""
    depths: "pd.DataFrame"
    """Every board run's ``depths.csv`` in one frame: ``run``, ``board``, ``metric``,
    ``goal_blank``, ``start``, then ``depth``, ``states``, ``cumulative``, ``fraction``."""
    antipodes: "pd.DataFrame"
    """Every board run's ``antipodes.csv``: the run's columns as in ``depths``, then
    ``antipode`` and ``configuration`` (the file's ``board``: rows separated by ``/``), as in
    ``graph_antipodes``."""
    atlas: Optional["pd.DataFrame"]
    """``atlas.csv`` (a row per board, metric and class of goal cells: its eccentricity,
    antipodes, mean), or ``None`` if no atlas was run."""
    atlas_summary: Optional["pd.DataFrame"]
    """``atlas-summary.csv`` (a row per board and metric: diameter, radius, mean distance), or
    ``None``."""
    graph_summary: Optional["pd.DataFrame"] = None
    """``graph-summary.csv``: a row per graph run (``analyze --graph``), with ``run``, or
    ``None`` if there is none."""
    graph_depths: Optional["pd.DataFrame"] = None
    """Every graph run's ``depths.csv``: ``run``, ``graph``, ``goal_blank``, then ``depth``,
    ``states``, ``cumulative``, ``fraction``; ``None`` without graph runs."""
    graph_antipodes: Optional["pd.DataFrame"] = None
    """Every graph run's ``antipodes.csv``: ``run``, ``graph``, ``goal_blank``, ``antipode``,
    ``configuration``; ``None`` without graph runs."""


def read_results(directory: Union[str, "os.PathLike[str]"] = "results") -> Results:
    """Read the reports of a results directory as DataFrames.

    Parameters
    ----------
    directory : str or os.PathLike
        What ``--results`` named (``results`` by default).

    Returns
    -------
    Results

    Raises
    ------
    FileError
        A directory with neither ``summary.csv`` nor ``graph-summary.csv``.
    ImportError
        pandas is not installed (``pip install './python[pandas]'``).

    Examples
    --------
    >>> r = tilespace.read_results("docs/results")
    >>> d = r.depths.query("board == '3x3' and metric == 'single' and start == 'goal' "
    ...                    "and goal_blank == '3,3'")
    >>> int(d.states.sum()), int(d.depth.max())
    (181440, 31)
    """
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(
            "read_results needs pandas: pip install pandas (or ./python[pandas])"
        ) from e
    root = os.fspath(directory)
    summary_path = os.path.join(root, "summary.csv")
    graphs_path = os.path.join(root, "graph-summary.csv")
    if not os.path.isfile(summary_path) and not os.path.isfile(graphs_path):
        raise FileError(
            f"{root}: no summary.csv or graph-summary.csv, so not a results directory of "
            "tilespace"
        )
    if os.path.isfile(summary_path):
        # Exact means (249167/11340) and cell lists stay strings; the counts are integers.
        summary = pd.read_csv(summary_path, dtype={"mean_depth_exact": str, "goal_blank": str})
        summary.insert(0, "run", [run_name(row) for row in summary.itertuples(index=False)])
    else:
        summary = pd.DataFrame(columns=["run"] + BOARD_KEYS[1:])
    depths = _each_run(pd, root, summary, BOARD_KEYS, "depths.csv")
    antipodes = _each_run(pd, root, summary, BOARD_KEYS, "antipodes.csv")
    graph_summary = graph_depths = graph_antipodes = None
    if os.path.isfile(graphs_path):
        graph_summary = pd.read_csv(
            graphs_path, dtype={"mean_depth_exact": str, "goal_blank": str, "graph6": str}
        )
        graph_summary.insert(
            0, "run", [graph_run_name(root, row) for row in graph_summary.itertuples(index=False)]
        )
        graph_depths = _each_run(pd, root, graph_summary, GRAPH_KEYS, "depths.csv")
        graph_antipodes = _each_run(pd, root, graph_summary, GRAPH_KEYS, "antipodes.csv")
    return Results(
        summary=summary,
        depths=depths,
        antipodes=antipodes,
        atlas=_optional(pd, os.path.join(root, "atlas.csv")),
        atlas_summary=_optional(pd, os.path.join(root, "atlas-summary.csv")),
        graph_summary=graph_summary,
        graph_depths=graph_depths,
        graph_antipodes=graph_antipodes,
    )


def run_name(row) -> str:
    """The report directory of a summary row: ``RxC``, ``RxC-blank-R-C`` for another goal
    blank, ``RxC-from-T-T-...`` for a search from a board, and ``-multi`` after it in the
    multi-tile metric (as the tool names them)."""
    name = row.board
    if row.start != "goal":
        name += "-from-" + "-".join(re.split(r"[\s/]+", row.start.strip()))
    elif row.goal_blank != f"{row.rows},{row.cols}":
        name += "-blank-" + row.goal_blank.replace(",", "-")
    return name + ("-multi" if row.metric == "multi" else "")


def graph_run_name(root: str, row) -> str:
    """The report directory of a graph-summary row, under ``graphs/``: the family's spec with
    ``-`` for ``:`` and ``,`` (``torus-3x4``), or ``g6-`` and the graph6 string with its other
    characters as ``_hex``; ``-blank-V`` for a goal blank other than the last vertex (as the
    tool names them)."""
    escaped = "".join(c if c.isascii() and c.isalnum() else f"_{ord(c):02x}" for c in row.graph6)
    suffix = "" if int(row.goal_blank) == int(row.vertices) else f"-blank-{row.goal_blank}"
    family = re.sub(r"[:,]", "-", str(row.graph)) + suffix
    if not str(row.graph).startswith("graph6:") and os.path.isdir(
        os.path.join(root, "graphs", family)
    ):
        return os.path.join("graphs", family)
    return os.path.join("graphs", f"g6-{escaped}{suffix}")


def _each_run(pd, root: str, summary, keys: Sequence[str], file: str) -> "pd.DataFrame":
    """Every run's ``file`` in one frame, each row led by its run's ``keys``."""
    frames: List["pd.DataFrame"] = []
    for row in summary[list(keys)].itertuples(index=False):
        path = os.path.join(root, row.run, file)
        if os.path.isfile(path):
            frame = pd.read_csv(path, dtype=str if file == "antipodes.csv" else None)
            if "board" in frame.columns:
                frame = frame.rename(columns={"board": "configuration"})
            if "antipode" in frame.columns:
                frame["antipode"] = frame["antipode"].astype(int)
            for i, key in enumerate(keys):
                frame.insert(i, key, getattr(row, key))
            frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=list(keys))
    return pd.concat(frames, ignore_index=True)


def _optional(pd, path: str) -> Optional["pd.DataFrame"]:
    return pd.read_csv(path, dtype={"mean_exact": str}) if os.path.isfile(path) else None
