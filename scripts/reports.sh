#!/usr/bin/env bash
# Regenerates the derived reports from the CSVs already in results/ (no enumeration):
# antipode patterns and Gong's question, the SVG plots, and the paper tables.
# Usage: scripts/reports.sh [OUT_DIR]   (default: results)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-results}"
cargo build --release --quiet
bin=target/release/tilespace
log="$out/COMMANDS.md"
run() {
  echo "\$ tilespace $*" | tee -a "$log"
  "$bin" "$@" | tee -a "$log"
  echo >> "$log"
}
run antipodes --out "$out" --quiet
run plot --results "$out" --log
run plot --results "$out" --log --format pgfplots
echo "\$ tilespace table --results $out > $out/table.md (and --format latex > $out/table.tex)" | tee -a "$log"
"$bin" table --results "$out" > "$out/table.md"
"$bin" table --results "$out" --format latex > "$out/table.tex"
cat "$out/table.md" | tee -a "$log"
echo >> "$log"
echo "\$ tilespace table --results $out --distribution --format latex > $out/depths.tex" | tee -a "$log"
"$bin" table --results "$out" --distribution --format latex > "$out/depths.tex"
echo "\$ tilespace table --results $out --theorem > $out/theorem.md (and --format latex > $out/theorem.tex)" | tee -a "$log"
"$bin" table --results "$out" --theorem > "$out/theorem.md"
"$bin" table --results "$out" --theorem --format latex > "$out/theorem.tex"
cat "$out/theorem.md" | tee -a "$log"
echo >> "$log"
echo "\$ tilespace check --results $out > $out/published.md" | tee -a "$log"
"$bin" check --results "$out" > "$out/published.md"
cat "$out/published.md" | tee -a "$log"
echo >> "$log"
