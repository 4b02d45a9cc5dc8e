#!/usr/bin/env bash
# The documented Slurm job (docs/slurm/analyze.sbatch) submitted to a real Slurm, as CI runs it:
#   scripts/slurm-check.sh BINARY PMI
# BINARY: tilespace built with `--features mpi`; PMI: srun's --mpi plugin for its MPI (pmix for
# OpenMPI, pmi2 for MPICH). Starts a one-node Slurm (scripts/slurm-local.sh) unless SLURM_CONF
# names a running one. Two searches: 2x5 on 2 ranks; 3x4 on 3 ranks, sent SIGUSR1 mid-search (as
# `--signal` does before a time limit), which must save, exit 75 and requeue itself; the
# requeued job is then replaced by one of another size (2 ranks), which goes on from the
# checkpoint. Each search's reports must equal one process's.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 BINARY PMI" >&2; exit 2; }
binary=$(realpath "$1")
pmi=$2
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
started=""
jobs=()
cleanup() {
    [ ${#jobs[@]} -eq 0 ] || scancel "${jobs[@]}" 2>/dev/null || true
    if [ -n "$started" ]; then
        "$here/scripts/slurm-local.sh" stop "$work/slurm" || true
    fi
}
trap cleanup EXIT
if [ -z "${SLURM_CONF:-}" ]; then
    eval "$("$here/scripts/slurm-local.sh" start "$work/slurm")"
    started=yes
fi
cd "$work"

fail() { echo "slurm-check: $*" >&2; exit 1; }

# Waits until job $1 has left the queue (at most $2 seconds).
wait_gone() {
    local i
    for i in $(seq 1 "$2"); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 1
    done
    fail "job $1 still queued after $2 s: $(squeue -j "$1")"
}

# The summary's rows without the columns that depend on the run (time, rate, threads).
stable_summary() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) drop[i] = ($i == "seconds" || $i == "states_per_second" || $i == "threads") }
             { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line "," $i; print line }' "$1"
}

# The reports of BOARD in directory $2 equal one process's (in one/).
same_reports() {
    local board=$1 dir=$2
    for file in depths.csv antipodes.csv; do
        cmp "one/$board/$file" "$dir/$board/$file" || fail "$dir/$board/$file differs from one process's"
    done
    diff <(stable_summary one/summary.csv | awk -v b="$board" -F, 'NR == 1 || $2 == b') \
        <(stable_summary "$dir/summary.csv") \
        || fail "$dir/summary.csv differs from one process's"
}

"$binary" analyze 2x5 3x4 --results one --quiet > /dev/null

submit() {
    sbatch --parsable --chdir="$work" "$@" "$here/docs/slurm/analyze.sbatch"
}

echo "slurm-check: 2x5 on 2 ranks ($pmi)"
job=$(BOARD=2x5 TILESPACE="$binary" SRUN_MPI="$pmi" RESULTS="$work/two" CHECKPOINTS="$work/ck-2x5" \
    submit --ntasks-per-node=2 --mem-per-cpu=500M --job-name=check-2x5)
jobs+=("$job")
wait_gone "$job" 120
same_reports 2x5 two

echo "slurm-check: 3x4 on 3 ranks, SIGUSR1 mid-search, requeued ($pmi)"
job=$(BOARD=3x4 TILESPACE="$binary" SRUN_MPI="$pmi" RESULTS="$work/three" CHECKPOINTS="$work/ck-3x4" EVERY=0 \
    submit --ntasks-per-node=3 --mem-per-cpu=500M --job-name=check-3x4)
jobs+=("$job")
# Signalled once a checkpoint past depth 8 is saved (the manifest's u32 at byte 32).
depth() { od -An -tu4 -j32 -N4 "$work/ck-3x4/manifest.tsm" 2>/dev/null | tr -d ' ' || true; }
for _ in $(seq 1 600); do
    [ "$(depth)" != "" ] && [ "$(depth)" -ge 8 ] && break
    sleep 0.1
done
[ "$(depth)" != "" ] && [ "$(depth)" -ge 8 ] || fail "the 3x4 job saved no checkpoint: $(squeue -j "$job")"
scancel --signal=USR1 "$job"
# The job requeues itself; Slurm holds a requeued job back for a while.
for _ in $(seq 1 120); do
    [ "$(squeue -h -j "$job" -o %T)" = PENDING ] && break
    sleep 0.5
done
[ "$(squeue -h -j "$job" -o %T)" = PENDING ] || fail "the signalled job did not requeue itself"
out="$work/tilespace-check-3x4-$job.out"
grep -q "interrupted after depth" "$out" || fail "the first run of the 3x4 job did not stop: $(cat "$out")"
grep -q "exit code 75" "$out" || fail "the signalled ranks did not exit 75: $(cat "$out")"
# The next allocation has another size: the requeued job is replaced by one on 2 ranks.
scancel "$job"
wait_gone "$job" 60
echo "slurm-check: 3x4 going on from 3 ranks' checkpoint on 2 ($pmi)"
job=$(BOARD=3x4 TILESPACE="$binary" SRUN_MPI="$pmi" RESULTS="$work/three" CHECKPOINTS="$work/ck-3x4" EVERY=0 \
    submit --ntasks-per-node=2 --mem-per-cpu=500M --job-name=check-3x4)
jobs+=("$job")
wait_gone "$job" 300
out="$work/tilespace-check-3x4-$job.out"
grep -q "interrupted after depth" "$out" && fail "the job of 2 ranks stopped: $(cat "$out")"
[ -z "$(ls "$work/ck-3x4")" ] || fail "checkpoint files left: $(ls "$work/ck-3x4")"
same_reports 3x4 three
echo "slurm-check: both searches wrote one process's reports ($pmi)"
