#!/usr/bin/env bash
# Korf's 100 random 15-puzzle instances (Korf 1985, Table 1; tests/data/korf100.csv) solved
# optimally: builds the 4x4 additive pattern databases of ${KORF_PARTITION:-7-8} (goal blank
# first; CI gives 6-6-3: 2 s to build, 4 s to solve, against 2 minutes and 5.2 GB for 7-8) in
# ${PDB_DIR:-/tmp/tilespace-pdb-4x4-PARTITION}, solves the 100 at 2 threads, checks every length
# against the published one (the command fails on any difference), and writes
# OUT/korf100.csv (each instance's length, nodes expanded, seconds) and OUT/korf100.md (the
# commands, build and solve wall times and peak memory, totals, and this machine's engine rate
# on 2x6 measured in the same run: the VM's memory speed drifts by up to 35%).
# Usage: scripts/korf100.sh [OUT_DIR]   (default: docs/results; about 3 minutes, 5.2 GB)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/results}"
partition="${KORF_PARTITION:-7-8}"
pdb="${PDB_DIR:-/tmp/tilespace-pdb-4x4-$partition}"
# TILESPACE_BIN: a binary to run as it is (CI gives the one its tests ran: a `cargo build`
# resolves the dependencies' features without the tests' and builds again, 70 s of CI); else
# TILESPACE_PROFILE: the Cargo profile to build and run (default release).
if [ -n "${TILESPACE_BIN:-}" ]; then
  bin="$TILESPACE_BIN"
else
  profile="${TILESPACE_PROFILE:-release}"
  cargo build --profile "$profile" --quiet
  bin="target/$profile/tilespace"
fi
mkdir -p "$out"
rm -rf "$pdb"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
md="$out/korf100.md"
{
  echo "# Korf's 100 instances, solved optimally"
  echo
  echo "Made by \`scripts/korf100.sh\` at revision $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ),"
  echo "on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB."
  echo
} > "$md"

build=(pdb 4x4 --partition "$partition" --blank first --pdb "$pdb" --threads 2 --quiet)
/usr/bin/time -v "$bin" "${build[@]}" > "$log.out" 2> "$log"
{
  echo "## Build"
  echo
  echo "\`\`\`"
  echo "\$ tilespace ${build[*]}"
  cat "$log.out"
  grep -E "Elapsed \(wall|Maximum resident" "$log" | sed 's/^\s*//'
  echo "\`\`\`"
  echo
} >> "$md"

solve=(solve --optimal --input tests/data/korf100.csv --pdb "$pdb" --threads 2 --csv)
/usr/bin/time -v "$bin" "${solve[@]}" > "$out/korf100.csv" 2> "$log"
{
  echo "## Solve"
  echo
  echo "\`\`\`"
  echo "\$ tilespace ${solve[*]} > korf100.csv"
  grep -E "lengths agree" "$log"
  grep -E "Elapsed \(wall|Maximum resident" "$log" | sed 's/^\s*//'
  echo "\`\`\`"
  echo
  # board,solvable,moves,optimal,lower_bound,tiles,blank_moves,nodes,seconds
  awk -F, 'NR > 1 { n++; moves += $3; nodes += $8; secs += $9; if ($8 > most) { most = $8 } }
    END { printf "%d instances, %d moves in all; nodes expanded: %d in all, %.0f per instance, %d at most; search time %.3f s in all, %.4f s per instance (summed over both threads)\n", n, moves, nodes, nodes / n, most, secs, secs / n }' "$out/korf100.csv"
  echo
} >> "$md"

# KORF_BENCH=0 (CI, which keeps no record) leaves the rate out.
rate=(bench --boards 2x6 --threads 2 --runs 3 --quiet --results "$log.bench")
[ "${KORF_BENCH:-1}" = 0 ] || "$bin" "${rate[@]}" > /dev/null 2>&1 || true
[ "${KORF_BENCH:-1}" = 0 ] || {
  echo "## This machine's engine rate in the same run"
  echo
  echo "\`tilespace ${rate[*]:0:8}\` (states per second and TEPS: memory-bound random access):"
  echo
  echo "\`\`\`"
  cat "$log.bench/bench.csv" 2>/dev/null || echo "(bench failed)"
  echo "\`\`\`"
} >> "$md"
rm -rf "$log.out" "$log.bench"
cat "$md"
