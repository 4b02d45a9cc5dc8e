#!/usr/bin/env bash
# Regenerates the derived reports from the CSVs already in docs/results/ (no enumeration):
# antipode patterns and Gong's question, the SVG plots, the atlas's maps, and the paper tables.
# The charts and the summary tables show the corner goals in both metrics and the 3x3 cells
# (the atlas's other cells are in atlas.md and atlas-cells.md).
# Usage: scripts/reports.sh [OUT_DIR]   (default: docs/results)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/results}"
cargo build --release --quiet
bin=target/release/tilespace
log="$out/COMMANDS.md"
run() {
  echo "\$ tilespace $*" | tee -a "$log"
  "$bin" "$@" | tee -a "$log"
  echo >> "$log"
}
# The boards of a list that OUT has (2x7's are there once scripts/reproduce-2x7.sh has run).
present() {
  local kept=() b
  for b in $(echo "$1" | tr , ' '); do
    if [ -d "$out/$b" ]; then kept+=("$b"); fi
  done
  (IFS=,; echo "${kept[*]}")
}
single=$(present 2x2,2x3,2x4,3x3,3x3-blank-1-1,3x3-blank-2-2,3x3-from-1-2-3-4-5-6-8-7-0,2x5,2x6,3x4,2x7)
multi=$(present 2x2-multi,2x3-multi,2x4-multi,3x3-multi,2x5-multi,2x6-multi,3x4-multi,2x7-blank-1-1-multi)
run antipodes --results "$out" --quiet
run plot --results "$out" --log --reports "$single"
run plot --results "$out" --log --format pgfplots --reports "$single"
run plot --results "$out" --charts "$out/plots/multi" --log --reports "$multi"
run plot --results "$out" --charts "$out/plots/multi" --log --format pgfplots --reports "$multi"
run plot --results "$out" --atlas
run plot --results "$out" --atlas --format pgfplots
echo "\$ tilespace table --results $out --reports $single,$multi > $out/table.md (and --format latex > $out/table.tex)" | tee -a "$log"
"$bin" table --results "$out" --reports "$single,$multi" > "$out/table.md"
"$bin" table --results "$out" --reports "$single,$multi" --format latex > "$out/table.tex"
cat "$out/table.md" | tee -a "$log"
echo >> "$log"
echo "\$ tilespace table --results $out --distribution --format latex --reports $single > $out/depths.tex (and --reports $multi > $out/depths-multi.tex)" | tee -a "$log"
"$bin" table --results "$out" --distribution --format latex --reports "$single" > "$out/depths.tex"
"$bin" table --results "$out" --distribution --format latex --reports "$multi" > "$out/depths-multi.tex"
echo "\$ tilespace table --results $out --atlas > $out/atlas.md (--format latex > $out/atlas.tex; --cells > $out/atlas-cells.md, --cells --format latex > $out/atlas-cells.tex)" | tee -a "$log"
"$bin" table --results "$out" --atlas > "$out/atlas.md"
"$bin" table --results "$out" --atlas --format latex > "$out/atlas.tex"
"$bin" table --results "$out" --atlas --cells > "$out/atlas-cells.md"
"$bin" table --results "$out" --atlas --cells --format latex > "$out/atlas-cells.tex"
cat "$out/atlas.md" | tee -a "$log"
echo >> "$log"
echo "\$ tilespace table --results $out --theorem > $out/theorem.md (and --format latex > $out/theorem.tex)" | tee -a "$log"
"$bin" table --results "$out" --theorem > "$out/theorem.md"
"$bin" table --results "$out" --theorem --format latex > "$out/theorem.tex"
cat "$out/theorem.md" | tee -a "$log"
echo >> "$log"
echo "\$ tilespace check --results $out > $out/published.md" | tee -a "$log"
"$bin" check --results "$out" > "$out/published.md"
cat "$out/published.md" | tee -a "$log"
echo >> "$log"
