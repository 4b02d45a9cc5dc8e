#!/usr/bin/env bash
# Hostile command lines, by class: every one must be refused (or answered) with exit status 1
# or 2 and one line on stderr (an OS cause once), never a panic (101) or an internal error (70).
#   [PYTHON=venv/bin/python] scripts/abuse.sh [BINARY] > docs/results/abuse.md
# With PYTHON (an interpreter with the package installed), the Python package's calls too:
# each must raise the package's own error, never abort the interpreter.
# Prints a Markdown table: class, runs, exit statuses seen, most stderr lines, failures (and,
# below it, each failing command). Exit status 1 if any run failed.
set -uo pipefail
bin=${1:-target/release/tilespace}
bin=$(realpath "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin" analyze 3x3 -q --results seed --save-table good.tst >/dev/null 2>&1
mkfifo fifo
ln -s good.tst link.tst
mkdir dir.tst
declare -A runs codes lines failures
failed=()

# Runs the command of class $1 (the rest), expecting one of the statuses in $want.
try() {
    local class=$1
    shift
    local err status n
    err=$(timeout 60 "$@" 2>&1 >/dev/null)
    status=$?
    n=$(printf '%s' "$err" | grep -c '')
    runs[$class]=$((${runs[$class]:-0} + 1))
    case " ${codes[$class]:-} " in *" $status "*) ;; *) codes[$class]="${codes[$class]:-} $status" ;; esac
    [ "$n" -gt "${lines[$class]:-0}" ] && lines[$class]=$n
    # Failures: another status, not one line, a panic, an OS cause printed twice.
    # (An answer, status 0 where $want allows it, says nothing on stderr.)
    local lines_ok=$([ "$n" -eq 1 ] || { [ "$status" = 0 ] && [ "$n" = 0 ]; } && echo y)
    if [[ " $want " != *" $status "* ]] || [ -z "$lines_ok" ] || [[ "$err" == *panicked* ]] ||
        [[ "$err" == *"os error"*"os error"* ]]; then
        failures[$class]=$((${failures[$class]:-0} + 1))
        failed+=("$class: exit $status, $n lines: $* -> ${err//$'\n'/ | }")
    fi
}

want="1 2"
# (Spellings the README accepts are not here: commas, '_' for the blank, line breaks, empty
# rows, '+1'.)
boards=("" " " "/" "1 2/3" "1 2/3 4" "1 2/3 0 4" "1 1/2 0" "1 2/0 0" "0 1/2 x" "1 2 3/4 5 6/7 8 9"
    "-1 2/3 0" "1 2/3 99999999999999999999" "١ 2/3 0" "1 2 3/4 0"
    "$(printf '1 %.0s' {1..5000})" "$(seq -s ' ' 0 1000000 | head -c 100000)"
    "0x1 2/3 0" "1e0 2/3 0" "1.0 2/3 0" "1 2/3 0 0" "4294967296 2/3 0" "1 2/3 -0")
for b in "${boards[@]}"; do
    try boards "$bin" solvable "$b"
    try boards "$bin" solve "$b"
    try boards "$bin" distance "$b" --table good.tst
    try boards "$bin" solvable "$b" --shape 2x2
done
sizes=("" "x" "3x" "x3" "0x3" "3x0" "1x1" "1x0" "-3x3" "3x-3" "3x3x3" "99999999999999999999x2"
    "2x99999999999999999999" "1001x2" "0x0" "3*3" "x3x3" "3x3.0" "three")
for s in "${sizes[@]}"; do
    try sizes "$bin" analyze "$s" -q --results out
    try sizes "$bin" count "$s"
    try sizes "$bin" random "$s" --seed 1
    try sizes "$bin" theorem "$s" --results out -q
done
# Valid sizes too large to enumerate here (refused at once, with the figure).
for s in 1000x1000 4x4 3x5 2x8 5x5 100x100; do
    try sizes "$bin" analyze "$s" -q --results out
    try sizes "$bin" theorem "$s" --results out -q
done
blanks=("" "0" "0,0" "4,1" "1,4" "10" "99999999999999999999" "1,1,1" "a,b" "-1,1" "99999999999999999999,1" "middle" "1;1" "1,")
for c in "${blanks[@]}"; do
    try blanks "$bin" analyze 3x3 -q --results out --blank "$c"
    try blanks "$bin" solve "1 2 3/4 5 6/7 8 0" --blank "$c"
done
durations=("" "-1s" "1x" "s" "99999999999999999999s" "1e9s" "18446744073709551615s" "2y" "400d" "1.5.5s"
    "nan s" "inf" "1h 1h" "10000000000000h")
for d in "${durations[@]}"; do
    try durations "$bin" analyze 3x3 -q --results out --checkpoint "ck$RANDOM" --checkpoint-every "$d"
done
memory=("" "0" "-1" "1" "1K" "1x" "G" "99999999999999999999G" "1e30" "18446744073709551616" "16Q" "nan" "1.5.5G"
    "16 GB GB")
for m in "${memory[@]}"; do
    try memory_sizes "$bin" analyze 3x3 -q --results out --max-memory "$m"
done
for t in 0 -1 abc 99999999999999999999 20000 1000000; do
    try threads "$bin" analyze 2x3 -q --results out --threads "$t"
    try threads "$bin" analyze 2x3 -q --results out -j "$t"
done
try threads "$bin" analyze 2x3 -q --results out --threads
for target in /dev/full fifo link.tst dir.tst /proc/version /proc/self/t.tst; do
    try outputs "$bin" analyze 3x3 -q --results out --save-table "$target"
done
for out in /dev/full fifo good.tst /proc /proc/self/out; do
    try outputs "$bin" analyze 2x3 -q --results "$out"
done
want="2 101"  # a full device is a write error (2); 101 would be a panic, refused by the grep
try outputs sh -c "'$bin' completions bash > /dev/full"
try outputs sh -c "'$bin' man > /dev/full"
try outputs sh -c "'$bin' analyze 2x3 -q --results out --json > /dev/full"
want="1 2"
for table in fifo dir.tst /dev/null /dev/zero /nonexistent good.tst.missing; do
    try tables "$bin" distance "1 2 3/4 5 6/7 0 8" --table "$table"
done
try tables "$bin" distance "1 2 3/4 5 6/7 0 8"
head -c 100 good.tst > short.tst
try tables "$bin" distance "1 2 3/4 5 6/7 0 8" --table short.tst
# Tables of tokens: cut short, questions of other tokens, boards, goals and metrics.
"$bin" analyze 2x3 --goal "1 1 2/2 0 0" -q --results seed --save-table tokens.tst >/dev/null 2>&1
head -c 100 tokens.tst > tokens-short.tst
try tables "$bin" distance "0 0 1/1 2 2" --table tokens-short.tst
try tables "$bin" solve "0 0 1/1 2 3" --table tokens.tst
try tables "$bin" distance "0 0 1 1 2 2 0" --table tokens.tst
try tables "$bin" distance "0 0 1/1 2 2" --table tokens.tst --blank 1
try tables "$bin" distance "0 0 1/1 2 2" --table tokens.tst --metric multi
try tables "$bin" solve "0 0 1/1 2 2" --table tokens.tst --shape 3x2
for theorem in 1x2 2x1; do
    try theorem "$bin" theorem "$theorem" --results out -q
done
# A board analysed (so its reports are read, not made again), then its depths.csv damaged.
"$bin" analyze 3x3 -q --results bad >/dev/null 2>&1
for f in "x" "not,a,csv" $'depth,states\n0,1\n0,1' $'depth,states,cumulative,fraction\n'; do
    mkdir -p bad/3x3 && printf '%s' "$f" > bad/3x3/depths.csv
    try reports "$bin" antipodes 3x3 --results bad
done
rm -f bad/3x3/depths.csv && mkfifo bad/3x3/depths.csv
try reports "$bin" antipodes 3x3 --results bad
good=$(cat bad/summary.csv)
for f in "" "x" $'board,goal_blank\n3x3,"' $'board\n9999999999x2' "${good/,181440,181440,true,/,181441,181440,true,}" \
    "${good/249167\/11340/249168\/11340}" "${good/,181440,181440,/,181440,181441,}"; do
    printf '%s' "$f" > bad/summary.csv
    try reports "$bin" table --results bad
    try reports "$bin" plot --results bad
done
# Tables: unknown columns and boards, a missing or damaged theorem.csv, a missing depths.csv.
"$bin" analyze 2x3 -q --results tab >/dev/null 2>&1
for cols in foo "board,,mean" "eccentricity,eccentricity" "" "mean,mean_depth"; do
    try reports "$bin" table --results tab --columns "$cols"
done
try reports "$bin" table --results tab --boards 9x9
try reports "$bin" table --results tab --boards ""
try reports "$bin" table --results tab --distribution --columns board
try reports "$bin" table --results tab --theorem
for f in "x" $'board,class,start,states,expected,component,parity_test_agrees,goal_blank,radius\n2x3,solvable,1 2 3/4 5 0,361,360,true,true,"2,3",21' \
    $'board,class,start,states,expected,component,parity_test_agrees,goal_blank,radius\n2x3,odd,1 2 3/4 5 0,360,360,true,true,"2,3",21'; do
    printf '%s' "$f" > tab/theorem.csv
    try reports "$bin" table --results tab --theorem
done
rm -f tab/2x3/depths.csv
try reports "$bin" table --results tab --distribution
# Pattern databases: bad partitions and patterns, damaged and planted files, bad samples.
"$bin" pdb 3x3 --partition 4-4 --pdb pdb -q >/dev/null 2>&1
for spec in "" "4" "4-4-0" "8-0" "-" "a" "4,4" "99999999999999999999-1" "1-1-1-1-1-1-1-1-1"; do
    try databases "$bin" pdb 3x3 --partition "$spec" --pdb pdbx -q
done
for list in "" "0" "9" "1,1" "1,,2" "x" "99999999999999999999"; do
    try databases "$bin" pdb 3x3 --pattern "$list" --pdb pdbx -q
done
try databases "$bin" pdb 4x4 --partition 15 --pdb pdbx -q
try databases "$bin" pdb 4x4 --partition 7-8 --pdb pdbx -q --max-memory 1G
try databases "$bin" pdb 3x3 --partition 4-4 --pdb good.tst -q
try databases "$bin" pdb 3x3 --partition 4-4 --pdb /proc/pdb -q
for dir in nowhere fifo good.tst dir.tst /dev/null; do
    try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --pdb "$dir"
done
f=pdb/3x3-blank-3-3-tiles-1-2-3-4.pdb
cp "$f" keep.pdb
for cut in 0 8 100 128 200; do
    head -c "$cut" keep.pdb > "$f"
    try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --pdb pdb
done
rm -f "$f" && mkfifo "$f"
try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --pdb pdb
rm -f "$f" && cp keep.pdb "$f"
try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --pdb pdb --optimal --blank first
try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --optimal
try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --pdb pdb --table good.tst
try databases "$bin" solve "1 2 3/4 5 6/7 0 8" --pdb pdb --max-nodes 0
for count in 0 -1 x 99999999999999999999; do
    try databases "$bin" sample 3x3 --pdb pdb --count "$count" --seed 1 -q
done
try databases "$bin" sample 2x3 --pdb pdb --count 5 -q
try databases "$bin" sample 3x3 --pdb pdb --count 5 --seed 1 -q --positions /dev/full
try databases "$bin" sample 3x3 --pdb pdb --count 5 --seed 1 -q --positions dir.tst
try databases "$bin" sample 3x3 --pdb pdb --count 5 --seed 1 -q --resume
for rows in '\xff\xfe\x00' 'board,distance,nodes,seconds\n1 2 3/4 5 6/7 8 0,0,0,0\n' \
    'board,distance,nodes,seconds\nx,1,1,1\n' 'board,distance,nodes,seconds\n,,,\n' \
    'board,distance,nodes,seconds\n1,2\n' 'board,distance,nodes,seconds\n1 2 3/4 5 6/7 8 0,1,1,NaN\n'; do
    printf "$rows" > rows.csv
    try databases "$bin" sample 3x3 --pdb pdb --count 5 --seed 1 -q --positions rows.csv --resume
done

# Outputs of one run on one file, or on a file the run reads: refused before any work.
"$bin" analyze 2x2 -q --results col >/dev/null 2>&1
for table in ck/checkpoint.tsc ck/manifest.tsm ck/./shard-0-of-2-depth-3.tss col/summary.csv col/runs.csv \
    col/2x3/depths.csv col/x/../2x3/antipodes.csv; do
    try collisions "$bin" analyze 2x3 -q --results col --checkpoint ck --save-table "$table"
    try collisions "$bin" analyze 2x3 -q --results col --resume ck --save-table "$table"
done
ln -f pdb/3x3-blank-3-3-tiles-5-6-7-8.pdb hard.csv
for positions in "$f" pdb/./3x3-blank-3-3-tiles-5-6-7-8.pdb hard.csv; do
    try collisions "$bin" sample 3x3 --pdb pdb --count 5 --seed 1 -q --positions "$positions"
done
# Counts: absurd values refused at once, never worked through.
for ranks in 4294967296 4294967299 1000000000000 1048577 0 -1; do
    try counts "$bin" plan 4x4 --ranks "$ranks"
done
for samples in 0 100000001 18446744073709551616; do
    try counts "$bin" plan 3x4 --samples "$samples"
done
# Forged files that keep their checksums: databases (entries swapped, a sparse file of the
# claimed length), positions files (a distance raised, a row there already), reports (a
# distribution that disagrees with its summary row, repeated rows and columns).
mkdir -p forged && cp pdb/*.pdb forged/
python3 - forged/3x3-blank-3-3-tiles-1-2-3-4.pdb <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
i, n = 128, 0
while n < 3:
    j = 128 + (i - 128 + 1500) % 3024
    if b[i] != b[j] and 0 not in (b[i], b[j]) and 255 not in (b[i], b[j]):
        b[i], b[j] = b[j], b[i]
        n += 1
    i += 97
def checksum(data):  # store::header::checksum, as a forger would recompute it
    c = 0x9E3779B97F4A7C15
    for k in range(0, len(data) - len(data) % 8, 8):
        h = ((c ^ int.from_bytes(data[k:k + 8], 'little')) * 0xFF51AFD7ED558CCD) % 2**64
        c = h ^ (h >> 29)
    return c
b[40:48] = checksum(b[128:]).to_bytes(8, 'little')
b[88:96] = checksum(b[:88]).to_bytes(8, 'little')
open(p, 'wb').write(b)
PY
for command in "solve 8_7_6/5_4_3/2_1_0 --pdb forged" "distance 8_7_6/5_4_3/2_1_0 --pdb forged" \
    "sample 3x3 --pdb forged --count 3 --seed 1 -q"; do
    read -ra words <<< "$command"
    try forgeries "$bin" "${words[@]}"
done
"$bin" sample 3x3 --pdb pdb --count 4 --seed 9 -q --positions pos.csv >/dev/null 2>&1
try forgeries "$bin" sample 3x3 --pdb pdb --count 4 --seed 9 -q --positions pos.csv
awk -F, 'BEGIN{OFS=","} NR==2{$2=$2+200} {print}' pos.csv > raised.csv
try forgeries "$bin" sample 3x3 --pdb pdb --count 4 --seed 9 -q --positions raised.csv --resume
"$bin" analyze 2x3 -q --results rep >/dev/null 2>&1
awk -F, 'BEGIN{OFS=","} NR>2{$2=$2+1; c+=1} NR>1{$3=$3+c} {print}' rep/2x3/depths.csv > d.csv && mv d.csv rep/2x3/depths.csv
for command in "table --results rep --distribution" "plot --results rep" "check --results rep" "antipodes 2x3 --results rep"; do
    read -ra words <<< "$command"
    try forgeries "$bin" "${words[@]}"
done
"$bin" analyze 2x2 -q --results dup >/dev/null 2>&1
tail -n 1 dup/summary.csv >> dup/summary.csv
try forgeries "$bin" table --results dup
printf 'board,optimal,optimal\n1 2/3 0,0,5\n' > dup.csv
try forgeries "$bin" solve --input dup.csv
# A search on disk, killed with claims committed, then damaged each way on a copy: its journal
# gone, a claim file gone, a field of its journal changed (the checksum made again), resumed in
# less memory than its shards, under mpirun (where built with MPI); a file where its directory
# goes; a directory holding a checkpoint.
"$bin" analyze 3x4 --max-memory 8M --disk disk -q -j 1 --results out >/dev/null 2>&1 &
pid=$!
# Killed once claim files of two passes are there: the older pass's are named in the journal
# (a count of files is not enough: at a pass's start they may all be new, not named yet).
passes() { ls disk/claims-*.tsc 2>/dev/null | sed 's/.*claims-\([0-9]*\)-.*/\1/' | sort -u | wc -l; }
for _ in $(seq 1 3000); do
    [ "$(passes)" -ge 2 ] && break
    sleep 0.01
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
copy() { rm -rf d2 && cp -r disk d2; }
copy && rm d2/search.tsj
try disk "$bin" analyze 3x4 --resume d2 -q --results out
try disk "$bin" analyze 3x4 --resume d2 --max-memory 8M -q --results out
refused=
for claims in disk/claims-*.tsc; do
    copy && rm "d2/$(basename "$claims")"
    # A claim file the journal does not commit is removed on resume: only refusals count.
    if ! "$bin" analyze 3x4 --resume d2 -q --results out2 >/dev/null 2>&1; then
        copy && rm "d2/$(basename "$claims")"
        try disk "$bin" analyze 3x4 --resume d2 -q --results out2
        refused=yes
        break
    fi
done
if [ -z "$refused" ]; then
    failures[disk]=$((${failures[disk]:-0} + 1))
    failed+=("disk: no committed claim file to remove (the search was killed too early)")
fi
for word in 2 4 5 6 7; do
    copy && python3 - "$word" <<'PY'
import struct, sys
p = "d2/search.tsj"
b = bytearray(open(p, "rb").read())
w = list(struct.unpack("<%dQ" % (len(b) // 8), b))
w[int(sys.argv[1])] ^= 7
s = 0x9E3779B97F4A7C15
for x in w[:-1]:  # store::header::Checksum
    s = ((s ^ x) * 0xFF51AFD7ED558CCD) & (2**64 - 1)
    s ^= s >> 29
w[-1] = s
open(p, "wb").write(struct.pack("<%dQ" % len(w), *w))
PY
    try disk "$bin" analyze 3x4 --resume d2 -q --results out
done
copy
try disk "$bin" analyze 3x4 --resume d2 --max-memory 300k -q --results out
try disk "$bin" analyze 3x4 --checkpoint d2 -q --results out
for target in good.tst /dev/null fifo; do
    try disk "$bin" analyze 2x5 --disk "$target" --max-memory 1M -q --results out
done
mkdir -p ckd && : > ckd/checkpoint.tsc
try disk "$bin" analyze 2x5 --disk ckd --max-memory 1M -q --results out
if command -v mpirun >/dev/null && "$bin" --version | grep -q mpi; then
    copy
    try disk mpirun --oversubscribe --bind-to none -np 2 "$bin" analyze 3x4 --resume d2 -q --results out
fi
# Atlas reports damaged each way, read by table and plot: a cell in two rows and in none, a
# board of a few cells, a summary that contradicts the cells, a summary without atlas.csv.
"$bin" atlas 2x3 --results atl -q >/dev/null 2>&1
atlas_damaged() {
    rm -rf atd && cp -r atl atd
    case $1 in
    twice) sed -i 's/^\(2x3,6,single,"1,2","1,2 2,2\)"/\1 2,3"/' atd/atlas.csv ;;
    none) sed -i 's/^\(2x3,6,single,"1,2","1,2\) 2,2"/\1"/' atd/atlas.csv ;;
    board) echo '10x10,100,single,"1,1","1,1",6,1,3,3,3' >> atd/atlas.csv ;;
    diameter) sed -i 's/^2x3,6,single,21,/2x3,6,single,22,/' atd/atlas-summary.csv ;;
    mean) sed -i 's|1688/135,12.503704|1687/135,12.496296|' atd/atlas-summary.csv ;;
    alone) rm atd/atlas.csv ;;
    esac
}
for damage in twice none board diameter mean alone; do
    for command in "table --atlas" "table --atlas --cells" "table --atlas --format latex" "plot --atlas"; do
        atlas_damaged "$damage"
        # shellcheck disable=SC2086
        try atlas_reports "$bin" $command --results atd
    done
done
# Plans past any machine: layers that wrapped, rates and threads no machine has.
for layers in 0 4294967295 10001; do
    try plans "$bin" plan 3x5 --disk --max-memory 64G --samples 100 --layers "$layers"
done
for rate in 1e-300 1e308 0 -1 nan inf; do
    try plans "$bin" plan 3x5 --disk --max-memory 64G --samples 100 --disk-gbps "$rate"
    try plans "$bin" plan 3x4 --ranks 4 --samples 100 --network-gbits "$rate"
done
for threads in 18446744073709551615 65537; do
    try plans "$bin" plan 3x5 --disk --max-memory 64G --samples 100 --threads "$threads"
done
try plans "$bin" analyze 2x3 -q --results out --save-table no/such/dir/x.tst
# Graphs: malformed SPECs and files, sizes past the index, devices, FIFOs, endless lines.
printf '1 2\n2 2\n' > loop.txt
printf 'Dhc\nD??\n' > two.g6
for g in "grid:1000000x1000000" "torus:99999999999999999999x2" "cycle:-1" "theta:0,0,5" \
    "complete:0" "hypercube:64" "graph6:" "graph6:~~~~~~~~" "graph6:$(printf '\033')" \
    loop.txt fifo /dev/zero /dev/null dir.tst /nonexistent "torus:4x4"; do
    try graphs "$bin" theorem --graph "$g" -q --results out
    try graphs "$bin" analyze --graph "$g" -q --results out
done
for f in two.g6 /dev/zero /dev/null dir.tst /nonexistent; do
    try graphs "$bin" theorem --graph6 "$f" -q --results out
done
# nauty's other formats and a byte-order mark: named as what they are.
for line in ':Fa@x^' ';Fa@x^' '&DI?AO?' $'\xef\xbb\xbfDhc' '>>sparse6<<:Fa@x^'; do
    printf '%s\n' "$line" > other.g6
    try graphs "$bin" theorem --graph6 other.g6 -q --results out
done
# Edge lists numbered from 0 are told of their own numbers.
printf '0 1\n1 2\n0 0\n' > zero.txt
try graphs sh -c "'$bin' theorem --graph zero.txt -q --results out 2>&1 >/dev/null | grep -q 'vertex 0 has a loop' && '$bin' theorem --graph zero.txt -q --results out"
# A checkpoint of another blank names vertices.
# (Held after depth 5 by the tests' hook, then stopped: its checkpoint is left.)
TILESPACE_TEST_HOLD="5:$work/held" "$bin" analyze --graph theta:1,2,2 --checkpoint gck -q \
    --results out >/dev/null 2>&1 &
held=$!
for _ in $(seq 3000); do [ -e held ] && break; sleep 0.01; done
kill -INT "$held"; wait "$held"
try graphs "$bin" analyze --graph theta:1,2,2 --blank 1 --resume gck -q --results out
# A tight address-space limit (ulimit -v, in KiB): an answer, or one line and exit 2, never an
# abort (134) or a thread pool's panic (70).
want="0 2"
for limit in 16000 20000 24000 28000 32000 48000 64000; do
    try memory sh -c "ulimit -v $limit; exec '$bin' distance --table good.tst '1 2 3/4 5 6/7 0 8'"
    try memory sh -c "ulimit -v $limit; exec '$bin' analyze 3x3 -q --results out"
done
want="1 2"
try graphs sh -c "head -c 100000 /dev/zero | '$bin' theorem --graph6 - -q --results out"
try graphs "$bin" analyze --graph petersen --blank 11 -q --results out
try graphs "$bin" atlas --graph petersen --metric multi -q --results out
# The Python package: each call must raise the package's error (exit 1, its one line), never
# kill the interpreter (an abort is 134) or raise a bare Python error.
if [ -n "${PYTHON:-}" ]; then
    py() {
        try python "$PYTHON" -c "import sys, numpy as np, tilespace
t = tilespace.Table.open('good.tst')
try:
    $1
except tilespace.Error as e:
    sys.exit(type(e).__name__ + ': ' + str(e))
print('accepted', file=sys.stderr)
sys.exit(3)"
    }
    for call in "tilespace.random_boards('3x3', 10**13, 1)" "t.sample(2**33, 1)" \
        "tilespace.analyze('2x2', threads=5000)" "tilespace.analyze('2x2', threads=-1)" \
        "tilespace.random_boards('3x3', 1, 1, blank=True)" "t.sample(1, 1, depth=2**40)" \
        "t.distance([[1.5] * 9])" "t.distance('1 2 3')" "t.distance(np.zeros((2, 2, 2, 2), int))" \
        "tilespace.solvable([[1, 2], [3, 4]], '2x2')" "tilespace.count('0x0')" \
        "tilespace.random_boards('3x3', 1, 2**64)" "t.sample(1, rng=3)" \
        "tilespace.analyze('9x9')" "tilespace.Table.open('dir.tst')" "tilespace.Table.open('fifo')" \
        "tilespace.read_results('dir.tst')" "t.solve(np.zeros((3, 9), int))"; do
        py "$call"
    done
fi
# Messages quoting untrusted text: one line, cut and escaped.
try messages "$bin" solvable "$(printf '1 2/3 \033[31mred')"
try messages "$bin" solvable "1 2/3 $(head -c 100000 /dev/zero | tr '\0' 7)"
try messages "$bin" solvable "$(printf '1 \a2/3 0')"

echo "Command: \`scripts/abuse.sh\` ($(basename "$bin") $("$bin" --version 2>/dev/null | cut -d' ' -f2))."
echo
echo "| class | runs | exit statuses | most stderr lines | failures |"
echo "|---|---:|---|---:|---:|"
total=0
for class in boards sizes blanks durations memory_sizes threads outputs tables theorem reports databases \
    collisions counts forgeries disk atlas_reports plans graphs memory python messages; do
    echo "| $class | ${runs[$class]:-0} | ${codes[$class]:-} | ${lines[$class]:-0} | ${failures[$class]:-0} |"
    total=$((total + ${runs[$class]:-0}))
done
echo "| all | $total | | | ${#failed[@]} |"
if [ ${#failed[@]} -gt 0 ]; then
    echo
    printf -- '- %s\n' "${failed[@]}"
    exit 1
fi
