#!/usr/bin/env bash
# The 2x7 runs (43,589,145,600 states each): about 11 GB of memory each, on 2 cores here the
# corner goal in about 7 minutes, and the atlas (one goal cell of each of the 4 classes of
# cells, in each metric: its multi-tile corner is the multi-tile corner goal's distribution)
# in about 2 hours 30 minutes.
# Appends each command, its output and /usr/bin/time's wall time and peak RSS to
# docs/results/COMMANDS-2x7.md (which scripts/reproduce.sh leaves alone). The single-tile corner run
# checkpoints to ${CHECKPOINT_DIR:-/tmp/tilespace-2x7} every 10 minutes (after an interruption,
# run this script again with RESUME=1).
# Usage: scripts/reproduce-2x7.sh [OUT_DIR]   (default: docs/results)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/results}"
ck="${CHECKPOINT_DIR:-/tmp/tilespace-2x7}"
cargo build --release --quiet
bin=target/release/tilespace
timed() {
  {
    echo "\$ tilespace $*"
    echo "revision: $(git rev-parse --short HEAD), machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(date -u +%Y-%m-%dT%H:%MZ)"
  } | tee -a "$out/COMMANDS-2x7.md"
  /usr/bin/time -v "$bin" "$@" 2> >(tee /tmp/tilespace-2x7.log >&2) | tee -a "$out/COMMANDS-2x7.md"
  grep -E "Elapsed \(wall|Maximum resident" /tmp/tilespace-2x7.log | sed 's/^\s*//' | tee -a "$out/COMMANDS-2x7.md"
  echo >> "$out/COMMANDS-2x7.md"
}
if [ "${RESUME:-0}" = 1 ]; then mode=(--resume "$ck"); else mode=(--checkpoint "$ck"); fi
timed analyze 2x7 "${mode[@]}" --checkpoint-every 10m --results "$out"
timed atlas 2x7 --metric single --results "$out"
timed atlas 2x7 --metric multi --results "$out"
