#!/usr/bin/env bash
# Regenerates results/ from scratch: the seed boards and the 12-cell boards.
# Usage: scripts/reproduce.sh [OUT_DIR]   (default: results)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-results}"
cargo build --release --quiet
bin=target/release/tilespace
rm -rf "$out/summary.csv" "$out/theorem.csv" "$out"/[0-9]*x[0-9]*
mkdir -p "$out"
{
  echo "# tilespace analyze runs behind the CSV files in this directory"
  echo "revision: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (modified)')"
  echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "rustc: $(rustc --version)"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
} > "$out/COMMANDS.md"
run() {
  echo "\$ tilespace $*" | tee -a "$out/COMMANDS.md"
  "$bin" "$@" --out "$out" --quiet | tee -a "$out/COMMANDS.md"
  echo >> "$out/COMMANDS.md"
}
run analyze --seed-table
run analyze 3x3 --blank first --blank center
run analyze 2x6 3x4
run analyze 3x3 --from "1 2 3/4 5 6/8 7 0"
run theorem 2x2 2x3 2x4 2x5 3x3 1x5
echo "\$ tilespace bench --boards 3x3,2x5,2x6,3x4 --threads 1,2 --runs 3" | tee -a "$out/COMMANDS.md"
"$bin" bench --boards 3x3,2x5,2x6,3x4 --threads 1,2 --runs 3 --out "$out" --quiet | tee -a "$out/COMMANDS.md"
scripts/reports.sh "$out"
echo "\$ scripts/abuse.sh > $out/abuse.md"
scripts/abuse.sh "$bin" > "$out/abuse.md"
