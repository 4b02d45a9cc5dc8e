#!/usr/bin/env bash
# The pebble-motion theorems (Kornhauser, Miller and Spirakis; Wilson; Auletta et al. on
# trees; the cycle's and the path's orders) checked by enumeration on every connected graph of 2 to 7 vertices with every
# number of blanks, and on every connected graph of 3 to 6 vertices with every colour split of
# its tiles (classes of 2 or more tokens of one label, the rest distinct) and every number of
# blanks that leaves them room. Each sweep must read as many (graph, tokens) as nauty-geng lists
# graphs times the goals asked of each, and end in "the theorems hold on all N … of M read".
# The graphs with a cut vertex that are not trees have no prediction yet: N < M says so.
# Run by .ci/run (about 3 s on 2 cores). Needs nauty (Debian: `apt-get install nauty`).
# Usage: scripts/pebble-sweep.sh [TILESPACE_BINARY]   (default: target/release/tilespace)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/tilespace}"
if ! command -v nauty-geng > /dev/null; then
  echo "scripts/pebble-sweep.sh: nauty-geng not found: install nauty (apt-get install nauty)" >&2
  exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# sweep N BLANKS GOALS [--colours SIZES]: the connected graphs of N vertices, each with the
# goals of BLANKS blanks (a range), GOALS goals a graph in all.
sweep() {
  local n=$1 blanks=$2 goals=$3
  shift 3
  local graphs last
  graphs=$(nauty-geng -cq "$n" | wc -l)
  last=$(nauty-geng -cq "$n" \
    | "$bin" theorem --graph6 - --blanks "$blanks" "$@" --quiet --results "$scratch/$n$*" \
    | tail -n 2 | head -n 1)
  local want="of $((graphs * goals)) read"
  echo "$n vertices, blanks $blanks $*: $last"
  case "$last" in
    "the theorems hold on all "*" they predict, $want") ;;
    *) echo "scripts/pebble-sweep.sh: expected the theorems to hold, $want" >&2; exit 1 ;;
  esac
}

for n in 2 3 4 5 6 7; do
  sweep "$n" "1..$((n - 1))" $((n - 1))
done
# The colour splits of up to 5 tiles (6 vertices, one blank at least), largest class first.
for n in 3 4 5 6; do
  for split in 2 3 4 2,2 5 3,2; do
    coloured=$(( $(echo "$split" | tr ',' '+') ))
    room=$((n - coloured))
    [ "$room" -ge 1 ] || continue
    sweep "$n" "1..$room" "$room" --colours "$split"
  done
done
