#!/usr/bin/env bash
# Sampled distributions (tilespace sample): uniformly random boards solved optimally with
# pattern databases, for the README's table of estimates. Appends each command and its output
# to OUT/samples.md, and writes every position with its distance, nodes and seconds to
# OUT/sample-RxC.csv. Databases are built in ${PDB_ROOT:-/tmp/tilespace-pdb}/RxC-PARTITION
# (kept between runs: `pdb` keeps intact databases).
#   4x4: 7-8, goal blank first, 10,000 boards: about 2 minutes to build, 25 s to solve.
#   3x5: 7-7, goal blank last, 10,000 boards: 20 s to build, about 70 s to solve.
#   2x8: 8-7 as two 2x4 blocks, goal blank last, 10,000 boards: about 3 minutes to build,
#   seconds to solve.
#   3x6: 8-8-1 as two 3x3 blocks (tiles 1 2 3 7 8 9 13 14 | 4 5 6 10 11 12 16 17 | 15), goal
#   blank last, 1000 boards: 13.7 GB and about 20 minutes to build, then about half an hour
#   (100 boards took 116 s; the hardest, 91 moves, 7.5·10^8 nodes). The blocks beat 8-8-1 in
#   reading order by orders of magnitude in nodes. A stopped run goes on where it stopped: the
#   positions file keeps every solved board (--resume).
# Usage: scripts/samples.sh [OUT_DIR [BOARD ...]]   (default: docs/results 4x4)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/results}"
boards=("${@:2}")
[ ${#boards[@]} -gt 0 ] || boards=(4x4)
root="${PDB_ROOT:-/tmp/tilespace-pdb}"
cargo build --release --quiet
bin=target/release/tilespace
mkdir -p "$out"
md="$out/samples.md"
[ -f "$md" ] || printf '# Sampled distributions\n\nMade by `scripts/samples.sh`; each run appends.\n\n' > "$md"

run() { # board name blank count seed pdb-args...
  local board=$1 name=$2 blank=$3 count=$4 seed=$5
  local partition=("${@:6}")
  local dir="$root/$board-$name-$blank"
  "$bin" pdb "$board" "${partition[@]}" --blank "$blank" --pdb "$dir" --quiet > /dev/null
  local cmd=(sample "$board" --pdb "$dir" --count "$count" --seed "$seed" --threads 2 --positions "$out/sample-$board.csv" --resume)
  {
    echo "## $board"
    echo
    echo "Revision $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores."
    echo "Databases: \`tilespace pdb $board ${partition[*]} --blank $blank --pdb DIR\`."
    echo
    echo "\`\`\`"
    echo "\$ tilespace ${cmd[*]}"
    "$bin" "${cmd[@]}"
    echo "\`\`\`"
    echo
  } | tee -a "$md"
}

for board in "${boards[@]}"; do
  case $board in
    4x4) run 4x4 7-8 first 10000 2026 --partition 7-8 ;;
    3x5) run 3x5 7-7 last 10000 1 --partition 7-7 ;;
    2x8) run 2x8 blocks last 10000 1 --pattern 1,2,3,4,9,10,11,12 --pattern 5,6,7,8,13,14,15 ;;
    3x6) run 3x6 blocks last 1000 1 --pattern 1,2,3,7,8,9,13,14 --pattern 4,5,6,10,11,12,16,17 --pattern 15 ;;
    *) echo "no sample set up for $board (4x4, 3x5, 2x8, 3x6)" >&2; exit 2 ;;
  esac
done
