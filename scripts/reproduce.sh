#!/usr/bin/env bash
# Regenerates docs/results/ from scratch: the seed boards and the 12-cell boards, in both metrics, and
# the atlas of every goal cell of each; the graphs (scripts/reproduce-graphs.sh, which needs
# nauty); pebble motion on named graphs (scripts/reproduce-pebbles.sh, the 15-puzzle's coloured
# rows among them: 5 minutes). 2x7 (its corner in 7 to 17 min and 11.2 GB here, its atlas in
# hours) is kept as it is, its rows and folders, unless --with-2x7 is given, which analyses it
# again (scripts/reproduce-2x7.sh).
# Usage: scripts/reproduce.sh [--with-2x7] [OUT_DIR]   (default: docs/results)
set -euo pipefail
cd "$(dirname "$0")/.."
with_2x7=no
if [ "${1:-}" = --with-2x7 ]; then
  with_2x7=yes
  shift
fi
out="${1:-docs/results}"
cargo build --release --quiet
bin=target/release/tilespace
mkdir -p "$out"
# Everything this script rebuilds is removed first, so that no stale row or folder survives.
kept=""
if [ $with_2x7 = no ]; then
  kept=$(mktemp -d)
  for f in summary.csv atlas.csv atlas-summary.csv; do
    if [ -f "$out/$f" ] && grep -q '^2x7,' "$out/$f"; then
      { head -n 1 "$out/$f"; grep '^2x7,' "$out/$f"; } > "$kept/$f"
    fi
  done
  echo "keeping 2x7 (its rows and $out/2x7*/): scripts/reproduce.sh --with-2x7 analyses it again" >&2
fi
for dir in "$out"/[0-9]*x[0-9]*; do
  case "$(basename "$dir")" in
    2x7 | 2x7-*) if [ $with_2x7 = yes ]; then rm -rf "$dir"; fi ;;
    *) rm -rf "$dir" ;;
  esac
done
rm -f "$out/summary.csv" "$out/theorem.csv" "$out/atlas.csv" "$out/atlas-summary.csv"
if [ -n "$kept" ]; then
  for f in "$kept"/*; do
    if [ -e "$f" ]; then mv "$f" "$out/$(basename "$f")"; fi
  done
  rmdir "$kept"
fi
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
  "$bin" "$@" --results "$out" --quiet | tee -a "$out/COMMANDS.md"
  echo >> "$out/COMMANDS.md"
}
run analyze --gong-figures
run analyze 3x3 --blank first --blank center
run analyze 2x6 3x4
run analyze 3x3 --from "1 2 3/4 5 6/8 7 0"
run analyze 2x2 2x3 2x4 3x3 2x5 2x6 3x4 --metric multi
run atlas 2x2 2x3 2x4 3x3 2x5 2x6 3x4 --metric both
if [ $with_2x7 = yes ]; then
  scripts/reproduce-2x7.sh "$out"
fi
run theorem 2x2 2x3 2x4 2x5 3x3 1x5
scripts/reproduce-graphs.sh "$out"
scripts/reproduce-pebbles.sh --fifteen "$out/pebbles"
echo "\$ tilespace bench --boards 3x3,2x5,2x6,3x4 --threads 1,2 --runs 3" | tee -a "$out/COMMANDS.md"
"$bin" bench --boards 3x3,2x5,2x6,3x4 --threads 1,2 --runs 3 --results "$out" --quiet | tee -a "$out/COMMANDS.md"
scripts/reports.sh "$out"
echo "\$ scripts/abuse.sh > $out/abuse.md"
scripts/abuse.sh "$bin" > "$out/abuse.md"
