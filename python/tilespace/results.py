"""Reports of runs (``tilespace analyze`` and ``atlas`` write them to ``results/``; the
repository commits every board up to 2x7 in ``docs/results/``) as pandas DataFrames."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional, Union

from ._errors import FileError

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Results:
    """The reports of a results directory, one DataFrame each."""

    summary: "pd.DataFrame"
    """``summary.csv``: a row per run (board, goal blank, start, metric; states, eccentricity,
    antipodes, exact and decimal mean, median, widest layer), and ``run``, the name of its
    report directory."""
    depths: "pd.DataFrame"
    """Every run's ``depths.csv`` in one frame: ``run``, ``depth``, ``states``, ``cumulative``,
    ``fraction``."""
    antipodes: "pd.DataFrame"
    """Every run's ``antipodes.csv``: ``run``, ``antipode``, ``board`` (rows separated by
    ``/``)."""
    atlas: Optional["pd.DataFrame"]
    """``atlas.csv`` (a row per board, metric and class of goal cells: its eccentricity,
    antipodes, mean), or ``None`` if no atlas was run."""
    atlas_summary: Optional["pd.DataFrame"]
    """``atlas-summary.csv`` (a row per board and metric: diameter, radius, mean distance), or
    ``None``."""


def read_results(directory: Union[str, "os.PathLike[str]"] = "results") -> Results:
    """Reads the reports in ``directory`` as DataFrames (pandas is needed: ``pip install
    './python[pandas]'``). A directory without ``summary.csv`` raises ``FileError``."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError(
            "read_results needs pandas: pip install pandas (or ./python[pandas])"
        ) from e
    root = os.fspath(directory)
    summary_path = os.path.join(root, "summary.csv")
    if not os.path.isfile(summary_path):
        raise FileError(f"{root}: no summary.csv, so not a results directory of tilespace")
    # Exact means (249167/11340) and cell lists stay strings; the counts are integers.
    summary = pd.read_csv(summary_path, dtype={"mean_depth_exact": str, "goal_blank": str})
    summary["run"] = [run_name(row) for row in summary.itertuples(index=False)]
    depths = _each_run(pd, root, summary["run"], "depths.csv")
    antipodes = _each_run(pd, root, summary["run"], "antipodes.csv")
    return Results(
        summary=summary,
        depths=depths,
        antipodes=antipodes,
        atlas=_optional(pd, os.path.join(root, "atlas.csv")),
        atlas_summary=_optional(pd, os.path.join(root, "atlas-summary.csv")),
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


def _each_run(pd, root: str, runs, file: str) -> "pd.DataFrame":
    frames: List["pd.DataFrame"] = []
    for run in runs:
        path = os.path.join(root, run, file)
        if os.path.isfile(path):
            frame = pd.read_csv(path, dtype={"board": str} if file == "antipodes.csv" else None)
            frame.insert(0, "run", run)
            frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=["run"])
    return pd.concat(frames, ignore_index=True)


def _optional(pd, path: str) -> Optional["pd.DataFrame"]:
    return pd.read_csv(path, dtype={"mean_exact": str}) if os.path.isfile(path) else None
