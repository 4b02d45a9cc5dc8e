#!/usr/bin/env bash
# Deep fuzzing of every reader of untrusted input (tilespace::fuzz) with libFuzzer:
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); CI runs the bounded
# version instead (`cargo test --test tests fuzz::`). Corpora start from the seeds of real runs
# (examples/fuzz_seeds.rs) and grow in fuzz/corpus/; a failing input lands in fuzz/artifacts/.
# Any allocation over 256 MB counts as a failure (-malloc_limit_mb): no reader may allocate
# beyond the guard, whatever a file claims.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(board size blank duration memory_size moves table checkpoint shards reports pattern_db)
fi
cargo run --release --quiet --example fuzz_seeds -- fuzz/corpus
# A toolchain that cannot build the targets is not a finding: say so and stop, without failing.
if ! (cd fuzz && cargo +nightly fuzz build >/dev/null 2>&1); then
    echo "cargo fuzz could not build the targets (nightly toolchain?): skipped" >&2
    exit 0
fi
failed=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
    if (cd fuzz && cargo +nightly fuzz run "$t" -- -max_total_time="$seconds" \
        -malloc_limit_mb=256 -rss_limit_mb=2048 -max_len=200000 -print_final_stats=1) >"$log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed+=("$t")
        grep -E "panicked|ERROR|SUMMARY|Test unit written" "$log" >&2 || tail -20 "$log" >&2
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log")
    echo "$t: $status, ${runs:-?} inputs in ${seconds} s, peak RSS ${rss:-?} MB" >&2
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing failed: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
