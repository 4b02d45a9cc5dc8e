#!/usr/bin/env bash
# Regenerates docs/results/pebbles/: named graphs with several blanks and with colour classes
# (tiles of one label), every arrangement walked into the classes the moves connect and set
# beside the theorems' prediction (Kornhauser, Miller and Spirakis; Wilson; a cycle's cyclic
# order), with the goal's class and its eccentricity: pebbles.md (what `theorem` printed) and
# graphs.csv (a row a case). A grid:RxC graph is the RxC board's puzzle. Then the goals' exact
# distributions searched by `analyze --goal` (boards in both metrics, graphs; 3x4 with two
# blanks and the 15-puzzle with its rows coloured, about 10 s each, and larger ones, under
# half a minute each): tokens-summary.csv, the
# folders under tokens/, and their table (tokens-table.md, tokens-table.tex). Called by
# scripts/reproduce.sh. With --fifteen `theorem` also walks the 15-puzzle with its rows
# coloured (252,252,000 arrangements: a few minutes, 1 GB).
# Usage: scripts/reproduce-pebbles.sh [--fifteen] [OUT_DIR]   (default: docs/results/pebbles)
set -euo pipefail
cd "$(dirname "$0")/.."
fifteen=false
if [ "${1:-}" = "--fifteen" ]; then
  fifteen=true
  shift
fi
out="${1:-docs/results/pebbles}"
cargo build --release --quiet
bin=target/release/tilespace
mkdir -p "$out"
rm -f "$out/graphs.csv" "$out/pebbles.md" "$out/tokens-summary.csv"
rm -rf "$out/tokens"
{
  echo "# Pebble motion on named graphs: several blanks and colours, by enumeration"
  echo
  echo "Tokens are written as \`theorem\` writes them: \`1^2\` two tiles of label 1 (one colour,"
  echo "indistinguishable), \`0^3\` three blanks. Made by scripts/reproduce-pebbles.sh; every case"
  echo "is a row of graphs.csv."
} > "$out/pebbles.md"
# show TITLE GRAPH GOAL: one `theorem` run, its output under a heading.
show() {
  local title=$1 graph=$2 goal=$3
  { echo; echo "## $title"; echo; echo '```'
    echo "\$ tilespace theorem --graph $graph --goal \"$goal\""; } >> "$out/pebbles.md"
  "$bin" theorem --graph "$graph" --goal "$goal" --results "$out" --quiet \
    | grep -v '^wrote: ' | tee -a "$out/pebbles.md"
  echo '```' >> "$out/pebbles.md"
}
show "θ0, one blank (Wilson's exception: 6 classes)" theta0 "1 2 3 4 5 6 0"
show "θ0, two blanks" theta0 "1 2 3 4 5 0 0"
show "θ0, three blanks" theta0 "1 2 3 4 0 0 0"
show "θ0, one blank, two tiles of one colour (its group decides: 3 classes)" theta0 "1 1 2 3 4 5 0"
show "θ0, two blanks, two colours of two" theta0 "1 1 2 2 3 0 0"
show "Petersen, one blank" petersen "1 2 3 4 5 6 7 8 9 0"
show "Petersen, two blanks" petersen "1 2 3 4 5 6 7 8 0 0"
show "Petersen, three blanks" petersen "1 2 3 4 5 6 7 0 0 0"
show "Petersen, four blanks, three colours of two" petersen "1 1 2 2 3 3 0 0 0 0"
show "6-cycle, two blanks" cycle:6 "1 2 3 4 0 0"
show "6-cycle, two blanks, two colours of two (necklaces of two sizes)" cycle:6 "1 1 2 2 0 0"
show "7-cycle, two blanks" cycle:7 "1 2 3 4 5 0 0"
show "7-cycle, three blanks" cycle:7 "1 2 3 4 0 0 0"
show "3x3 torus, two blanks" torus:3x3 "1 2 3 4 5 6 7 0 0"
show "3x3 torus, three blanks" torus:3x3 "1 2 3 4 5 6 0 0 0"
show "3x3 torus, coloured rows" torus:3x3 "1 1 1 2 2 2 3 3 0"
show "2x4 board, two blanks" grid:2x4 "1 2 3 4 5 6 0 0"
show "2x4 board, coloured rows" grid:2x4 "1 1 1 1 2 2 2 0"
show "3x3 board, two blanks" grid:3x3 "1 2 3 4 5 6 7 0 0"
show "3x3 board, three blanks" grid:3x3 "1 2 3 4 5 6 0 0 0"
show "3x3 board, coloured rows" grid:3x3 "1 1 1 2 2 2 3 3 0"
show "3x4 board, coloured rows" grid:3x4 "1 1 1 1 2 2 2 2 3 3 3 0"
# Trees (Auletta et al.): nauty's E?qo is the spider 6-1-5-2, 6-3, 6-4; FCOf? the spider of
# three legs of two around vertex 7.
show "A spider of legs 3, 1, 1, three blanks (the long leg's last token alone)" "graph6:E?qo" "1 2 3 0 0 0"
show "The same spider, three blanks, two tiles of one colour" "graph6:E?qo" "1 1 2 0 0 0"
show "A spider of three legs of two, two blanks" "graph6:FCOf?" "1 2 3 4 5 0 0"
show "The same spider, three blanks (one class)" "graph6:FCOf?" "1 2 3 4 0 0 0"
if $fifteen; then
  show "4x4 board, coloured rows (the 15-puzzle)" grid:4x4 "1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 0"
fi
# analyze PUZZLE... GOAL [METRIC]: one `analyze --goal` run into tokens-summary.csv.
analyze() {
  local goal=$1 metric=$2
  shift 2
  "$bin" analyze "$@" --goal "$goal" --metric "$metric" --results "$out" --quiet > /dev/null
}
analyze "1 2 3/4 5 6/7 0 0" single 3x3
analyze "1 1 1/2 2 2/3 3 0" single 3x3
analyze "1 1 1/2 2 2/3 3 0" multi 3x3
analyze "1 2 3 4/5 6 7 8/9 10 0 0" single 3x4
analyze "1 1 1 1/2 2 2 2/3 3 3 0" single 3x4
analyze "1 1 1 1/2 2 2 2/3 3 3 0" multi 3x4
analyze "1 2 3 4 5/6 7 8 0 0" single 2x5
analyze "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0" single 4x4
analyze "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0" multi 4x4
# Larger tables: 3x4 with three blanks (79,833,600 arrangements), the 15-puzzle's rows
# coloured with two blanks (378,378,000) and 3x5 with its columns coloured (504,504,000): each
# under half a minute.
analyze "1 2 3 4/5 6 7 8/9 0 0 0" single 3x4
analyze "1 1 1 1/2 2 2 2/3 3 3 3/4 4 0 0" single 4x4
analyze "1 2 3 4 5/1 2 3 4 5/1 2 3 4 0" single 3x5
analyze "1 2 3 4 5/1 2 3 4 5/1 2 3 4 0" multi 3x5
analyze "1 2 3 4 5 0 0" single --graph theta0
analyze "1 1 2 2 3 3 0 0 0 0" single --graph petersen
analyze "1 2 3 4 5 6 7 0 0" single --graph torus:3x3
"$bin" table --tokens --results "$out" --format markdown > "$out/tokens-table.md"
"$bin" table --tokens --results "$out" --format latex > "$out/tokens-table.tex"
