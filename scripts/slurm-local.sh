#!/usr/bin/env bash
# A one-node Slurm on this machine, for CI and for trying the cluster job script by hand:
#   scripts/slurm-local.sh start DIR   # munged, slurmctld and slurmd; prints `export SLURM_CONF=...`
#   scripts/slurm-local.sh stop DIR    # stops the daemons this script started
# Everything (configuration, state, spool, logs, pid files) lives in DIR, not in /etc/slurm:
# client commands (sbatch, squeue, srun) find it through SLURM_CONF=DIR/slurm.conf. Needs root
# and Debian's slurm-wlm and munge (the node's CPUs and memory are read from this machine).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(realpath -m "$2")
conf="$dir/slurm.conf"

stop() {
    for daemon in slurmd slurmctld; do
        if [ -f "$dir/$daemon.pid" ]; then
            kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
            rm -f "$dir/$daemon.pid"
        fi
    done
}

case "$action" in
stop)
    stop
    exit 0
    ;;
start) ;;
*) usage ;;
esac

for tool in slurmctld slurmd munged sbatch; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
mkdir -p "$dir"/{state,spool,log}

# munge: Debian ships a key; make one if it is missing, and start the daemon once.
mkdir -p /run/munge && chown munge:munge /run/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
fi
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged

host=$(hostname -s)
# At least 4 CPUs, so that jobs of 3 and 4 ranks run on a small machine (oversubscribed, as
# `mpirun --oversubscribe` does; `config_overrides` makes slurmd take the figure as given).
cpus=$(nproc)
[ "$cpus" -ge 4 ] || cpus=4
# Slurm's RealMemory in MB: nine tenths of this machine's, the rest left to the system.
memory=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
cat > "$conf" <<CONF
ClusterName=tilespace-local
SlurmctldHost=$host
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmUser=root
ReturnToService=2
MpiDefault=none
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
# Time limits count in minutes; a requeued job starts again at once.
MinJobAge=30
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF

stop
SLURM_CONF="$conf" slurmctld -f "$conf"
SLURM_CONF="$conf" slurmd -f "$conf"
# The node comes up idle within seconds.
for _ in $(seq 1 60); do
    if SLURM_CONF="$conf" sinfo -h -o %t 2>/dev/null | grep -qx idle; then
        echo "export SLURM_CONF=$conf"
        exit 0
    fi
    sleep 1
done
echo "$0: the Slurm node did not come up; see $dir/log" >&2
exit 1
