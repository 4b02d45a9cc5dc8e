#!/usr/bin/env bash
# Regenerates the graph results in docs/results/: Wilson's theorem on every 2-connected graph of
# 3 to 8 vertices and the components of every connected graph of 1 to 8 (graphs.csv, the sweeps'
# summaries in graphs.md), and the named graphs' analyses and atlases (graph-summary.csv,
# graph-atlas*.csv, graphs/NAME/, their table in graphs-table.md). Needs nauty (Debian:
# `apt-get install nauty`, which provides nauty-geng). Called by scripts/reproduce.sh.
# Usage: scripts/reproduce-graphs.sh [OUT_DIR]   (default: docs/results)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/results}"
if ! command -v nauty-geng > /dev/null; then
  echo "scripts/reproduce-graphs.sh: nauty-geng not found: install nauty (apt-get install nauty)" >&2
  exit 2
fi
cargo build --release --quiet
bin=target/release/tilespace
mkdir -p "$out"
rm -rf "$out/graphs" "$out/graphs.csv" "$out/graph-summary.csv" "$out/graph-atlas.csv" \
  "$out/graph-atlas-summary.csv" "$out/graphs.md" "$out/graphs-table.md"
log="$out/COMMANDS.md"
{
  echo "# Sliding puzzles on graphs: Wilson's theorem checked by enumeration"
  echo
  echo "The graphs are listed by nauty-geng ($(nauty-geng --version 2>&1 | head -n 1)), one per"
  echo "isomorphism class (OEIS A002218 counts the 2-connected ones, A001349 the connected ones)."
  echo "Made by scripts/reproduce-graphs.sh; every row is in graphs.csv."
} > "$out/graphs.md"
sweep() {
  local what=$1 flag=$2 from=$3
  local cmd="for n in \$(seq $from 8); do nauty-geng -${flag}q \$n; done | tilespace theorem --graph6 -"
  echo "\$ $cmd" | tee -a "$log"
  { echo; echo "## $what"; echo; echo '```'; echo "\$ $cmd"; } >> "$out/graphs.md"
  for n in $(seq "$from" 8); do nauty-geng -"${flag}"q "$n"; done \
    | "$bin" theorem --graph6 - --results "$out" --quiet | tee -a "$log" "$out/graphs.md"
  echo '```' >> "$out/graphs.md"
  echo >> "$log"
}
sweep "Every 2-connected graph on 3 to 8 vertices" C 3
sweep "Every connected graph on 1 to 8 vertices" c 1
named="grid:3x3 torus:2x3 torus:2x4 torus:3x3 torus:3x4 cylinder:2x3 cylinder:2x4 cylinder:3x3
  cylinder:3x4 theta0 theta:1,2,3 petersen complete:3,3 complete:5 hypercube:3 cycle:5 cycle:6
  cycle:7 cycle:8 path:6"
args=()
for g in $named; do args+=(--graph "$g"); done
run() {
  echo "\$ tilespace $*" | tee -a "$log"
  "$bin" "$@" --results "$out" --quiet | tee -a "$log"
  echo >> "$log"
}
run analyze "${args[@]}"
run atlas "${args[@]}"
echo "\$ tilespace table --graphs --results $out > $out/graphs-table.md" | tee -a "$log"
"$bin" table --graphs --results "$out" | tee "$out/graphs-table.md" >> "$log"
echo >> "$log"
