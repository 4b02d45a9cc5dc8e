#!/usr/bin/env bash
# Sampled distributions (tilespace sample): uniformly random boards solved optimally with
# pattern databases, for the README's table of estimates. Appends each command and its output
# to OUT/samples.md, and writes every position with its distance, nodes and seconds to
# OUT/sample-RxC.csv. Databases are built in ${PDB_ROOT:-/tmp/tilespace-pdb}/RxC-PARTITION
# (kept between runs: `pdb` keeps intact databases).
#   4x4, 7-8, goal blank first, 10,000 boards: about 2 minutes to build, 25 s to solve.
#   3x6, 7-7-3, goal blank last, 100 boards (with --with-3x6): 81 s to build; the boards take
#   from a second to minutes each (IDA* expands 10^7 to 10^9 nodes), about 30 minutes in all.
# Usage: scripts/samples.sh [--with-3x6] [OUT_DIR]   (default: results)
set -euo pipefail
cd "$(dirname "$0")/.."
with_3x6=0
if [ "${1:-}" = --with-3x6 ]; then with_3x6=1; shift; fi
out="${1:-results}"
root="${PDB_ROOT:-/tmp/tilespace-pdb}"
cargo build --release --quiet
bin=target/release/tilespace
mkdir -p "$out"
md="$out/samples.md"
[ -f "$md" ] || printf '# Sampled distributions\n\nMade by `scripts/samples.sh`; each run appends.\n\n' > "$md"

run() { # board partition blank count seed
  local board=$1 partition=$2 blank=$3 count=$4 seed=$5
  local dir="$root/$board-$partition-$blank"
  "$bin" pdb "$board" --partition "$partition" --blank "$blank" --out "$dir" --quiet > /dev/null
  local cmd=(sample "$board" --pdb "$dir" --count "$count" --seed "$seed" --threads 2 --quiet --positions "$out/sample-$board.csv")
  {
    echo "## $board"
    echo
    echo "Revision $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores."
    echo "Databases: \`tilespace pdb $board --partition $partition --blank $blank --out DIR\`."
    echo
    echo "\`\`\`"
    echo "\$ tilespace ${cmd[*]}"
    "$bin" "${cmd[@]}"
    echo "\`\`\`"
    echo
  } | tee -a "$md"
}

run 4x4 7-8 first 10000 2026
if [ "$with_3x6" = 1 ]; then
  run 3x6 7-7-3 last 100 1
fi
