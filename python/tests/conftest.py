"""Shared paths: the repository, its published reference distributions, and the command-line
tool the package's answers are compared with."""

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[2]
# The repository's copies of published distributions (its README gives the conventions; each
# file's first line its source).
REFERENCE = REPO / "data" / "reference"


def reference(name):
    """The depth counts of a published distribution (`data/reference/NAME.csv`)."""
    path = REFERENCE / f"{name}.csv"
    rows = [line.split(",") for line in path.read_text().splitlines()]
    counts = [int(r[1]) for r in rows if r[0].isdigit()]
    return np.array(counts, dtype=np.uint64)


@pytest.fixture(scope="session")
def cli():
    """The tilespace binary: $TILESPACE_BIN, target/ci/tilespace (the README's test build),
    target/release/tilespace, or one on PATH. CI sets TILESPACE_REQUIRE_CLI=1, where a missing
    binary fails instead of skipping."""
    for candidate in (
        os.environ.get("TILESPACE_BIN"),
        str(REPO / "target" / "ci" / "tilespace"),
        str(REPO / "target" / "release" / "tilespace"),
        shutil.which("tilespace"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    if os.environ.get("TILESPACE_REQUIRE_CLI") == "1":
        pytest.fail("no tilespace binary (cargo build --release), and CI requires one")
    pytest.skip("no tilespace binary to compare with (cargo build --release)")
