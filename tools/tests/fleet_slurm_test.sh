#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Slurm in the loop (Documentation/admin-guide/scheduling.rst, "Slurm"):
# Debian's slurmctld and slurmd (Slurm 22.05 in Debian 12) with munge, one
# node on loopback, take the gres.conf that `amdx partition export
# --format slurm` writes for the fake kernel's devices, and a job asking
# for one of the exported GRES types runs on it; a request for more than
# the export offers is refused.  Then the health check in the loop:
# HealthCheckProgram is tools/fleet/slurm/amdx-slurm-healthcheck over
# `amdx health` of the fake kernel; a fault that leaves a partition reset
# pending (AMDX_FAKE_RECOVERY, read from WORKDIR/fault at each run) drains
# the node with amdx's one line as the reason, and the fault cleared
# resumes it.  Everything lives under WORKDIR: its own
# munge key and socket, state and spool directories, and ports no one
# listens on; every daemon is stopped on exit.  Exit 77 (skipped) when
# the Slurm or munge programs are missing (tools/testing/vm/deps.sh
# installs them) or the test cannot run them as root.
#
# usage: fleet_slurm_test.sh AMDX_FLEET_FAKE WORKDIR HEALTHCHECK
set -eu
fake=$1
work=$2
healthcheck=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
for p in slurmctld slurmd srun scontrol sinfo munged; do
	command -v "$p" > /dev/null || PATH=$PATH:/usr/sbin command -v "$p" > /dev/null || {
		echo "SKIP: $p missing (tools/testing/vm/deps.sh installs slurmctld, slurmd, slurm-client, munge)"
		exit 77
	}
done
export PATH=$PATH:/usr/sbin
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: slurmd runs jobs as their user and needs root"
	exit 77
fi
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
chmod 0700 "$work"

pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2> /dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2> /dev/null || true
	done
}
trap cleanup EXIT

fail() {
	echo "fleet_slurm_test: $*"
	for f in "$work"/*.log; do
		echo "---- $f"
		tail -n 30 "$f"
	done
	exit 1
}

# A free TCP port on loopback (the kernel's choice, released at once).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# munge: a key of our own, our own socket.
dd if=/dev/urandom of="$work/munge.key" bs=128 count=1 status=none
chmod 0400 "$work/munge.key"
munged --foreground --force --socket="$work/munge.sock" --key-file="$work/munge.key" \
	--pid-file="$work/munged.pid" --log-file="$work/munged.log" \
	--seed-file="$work/munged.seed" 2> "$work/munged.err.log" &
pids+=($!)
for _ in $(seq 50); do
	[ -S "$work/munge.sock" ] && break
	kill -0 "${pids[0]}" 2> /dev/null || fail "munged did not start"
	sleep 0.1
done
[ -S "$work/munge.sock" ] || fail "munged made no socket"

# The export: 2 devices in SPX, 2 in CPX (AMDX_FAKE_VFS puts every device
# in CPX; the first run gives SPX).
node=amdxnode
# The fake's devices have no render nodes: stand-in device files, named
# by --files as a site names its partitions' nodes.
mkdir -p "$work/dev"
for d in 0 1; do
	for p in 0 1 2 3 4 5 6 7; do
		ln -s /dev/null "$work/dev/amdx$d-p$p" # a character device, as a render node
	done
done
AMDX_FAKE_DEVICES=2 AMDX_FAKE_VFS=1 "$fake" -d /dev/null partition export --format slurm \
	--node "$node" --files "$work/dev/amdx{device}-p{partition}" > "$work/gres.conf"
# Without device files the lines say why Slurm would drop them.
AMDX_FAKE_DEVICES=1 "$fake" -d /dev/null partition export --format slurm --node "$node" > "$work/gres.nofile"
grep -q "^# no device file known" "$work/gres.nofile" || fail "file-less export without its warning"
# ... and one Count= line per device and type, which slurmd parses
# (slurmd -G: the GRES configuration, then exit; it drops file-less GPUs
# silently, and refuses a line it cannot parse, as the control shows).
[ "$(grep -c "^NodeName=$node Name=gpu Type=mi300x_spx_nps1 Count=1 Flags=amd_gpu_env$" "$work/gres.nofile")" = 1 ] ||
	fail "file-less export is not one Count= line: $(cat "$work/gres.nofile")"
AMDX_FAKE_DEVICES=1 AMDX_FAKE_VFS=1 "$fake" -d /dev/null partition export --format slurm \
	--node "$node" >> "$work/gres.nofile"
grep -q "^NodeName=$node Name=gpu Type=mi300x_cpx_nps1 Count=8 Flags=amd_gpu_env$" "$work/gres.nofile" ||
	fail "file-less CPX export is not one Count=8 line: $(cat "$work/gres.nofile")"
slurmd_parses() { # GRES.CONF: slurmd -G with it beside a slurm.conf of the node
	rm -rf "$work/g" && mkdir -p "$work/g/spool"
	cp "$1" "$work/g/gres.conf"
	cat > "$work/g/slurm.conf" << EOF
ClusterName=amdxtest
SlurmctldHost=$(hostname -s)(127.0.0.1)
GresTypes=gpu
SlurmdSpoolDir=$work/g/spool
SlurmdPidFile=$work/g/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
NodeName=$node NodeHostname=$(hostname -s) CPUs=1 Gres=gpu:mi300x_spx_nps1:1,gpu:mi300x_cpx_nps1:8
EOF
	timeout 30 slurmd -G -D -f "$work/g/slurm.conf" -N "$node" > "$work/g/out.log" 2>&1 &&
		! grep -Eqi "error: (pars|.*gres|.*gpu)|fatal" "$work/g/out.log"
}
slurmd_parses "$work/gres.nofile" || fail "slurmd -G refuses the Count= export: $(cat "$work/g/out.log")"
sed 's/Count=8 /Count=8 Bogus=1 /' "$work/gres.nofile" > "$work/gres.bogus"
! slurmd_parses "$work/gres.bogus" || fail "slurmd -G accepted an unknown key: $(cat "$work/g/out.log")"
grep -q "^NodeName=$node Name=gpu Type=" "$work/gres.conf" || fail "no gres lines: $(cat "$work/gres.conf")"
# The node's Gres= in slurm.conf: the count of each type the file has
# (a line with File= and no Count= is one).
gres=$(awk '/^NodeName=/ {
	c = 1
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^Type=/) t = substr($i, 6)
		if ($i ~ /^Count=/) c = substr($i, 7)
	}
	n[t] += c
} END { s = ""; for (t in n) s = s (s ? "," : "") "gpu:" t ":" n[t]; print s }' "$work/gres.conf")
type=${gres#gpu:}
type=${type%%:*}
total=${gres##*:}
[ "$total" -gt 0 ] || fail "no GRES counted in $gres"

# amdx as slurmd's health check runs it: the fake kernel, with the fault
# WORKDIR/fault names (none while it is missing).
cat > "$work/amdx" << EOF
#!/bin/sh
[ -f "$work/fault" ] && AMDX_FAKE_RECOVERY=\$(cat "$work/fault") && export AMDX_FAKE_RECOVERY
AMDX_FAKE_DEVICES=2 AMDX_FAKE_VFS=1 exec "$fake" -d /dev/null "\$@"
EOF
# HealthCheckProgram takes no arguments or environment of its own; each
# run is counted in WORKDIR/runs.
cat > "$work/healthcheck" << EOF
#!/bin/sh
echo run >> "$work/runs"
AMDX=$work/amdx SLURM_CONF=$work/slurm.conf PATH=$PATH exec "$healthcheck"
EOF
chmod 0755 "$work/amdx" "$work/healthcheck"
: > "$work/runs"
"$work/amdx" health > "$work/health0.txt" || fail "healthy fake not healthy: $(cat "$work/health0.txt")"

ctld_port=$(free_port)
slurmd_port=$(free_port)
host=$(hostname -s)
user=$(id -un)
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" << EOF
ClusterName=amdxtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
HealthCheckProgram=$work/healthcheck
HealthCheckInterval=5
HealthCheckNodeState=ANY
GresTypes=gpu
NodeName=$node NodeHostname=$host NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 Gres=$gres State=UNKNOWN
PartitionName=amdx Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" > "$work/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" > "$work/slurmd.out.log" 2>&1 &
pids+=($!)

# The node registers with its GRES: slurmctld refuses a node whose
# gres.conf does not match its Gres= (state INVAL or DRAIN with a reason).
state=
for _ in $(seq 100); do
	state=$(sinfo -h -n "$node" -o %T 2> /dev/null || true)
	[ "$state" = idle ] && break
	case "$state" in
	drain* | inval* | down*) fail "node $node is $state: $(scontrol show node "$node" | grep -i reason)" ;;
	esac
	sleep 0.2
done
[ "$state" = idle ] || fail "node $node never became idle (state '$state')"
scontrol show node "$node" > "$work/node.txt"
grep -q "Gres=$gres" "$work/node.txt" || grep -q "Gres=.*gpu:$type:$total" "$work/node.txt" ||
	fail "node's Gres is not the export's $gres: $(grep Gres "$work/node.txt")"

# A job asking for one GRES of an exported type runs and holds it.
srun --immediate=30 --gres="gpu:$type:1" -N1 -n1 \
	sh -c 'echo "ROCR_VISIBLE_DEVICES=$ROCR_VISIBLE_DEVICES"; scontrol show job -d "$SLURM_JOB_ID"' \
	> "$work/job.txt" 2> "$work/srun.err" ||
	fail "srun --gres=gpu:$type:1 failed: $(cat "$work/srun.err")"
grep -q "JobState=RUNNING" "$work/job.txt" || fail "job not running: $(cat "$work/job.txt")"
grep -Eq "GRES=gpu:$type(:1)?\(IDX:[0-9]+\)" "$work/job.txt" ||
	fail "job holds no gpu:$type GRES: $(grep -i gres "$work/job.txt")"

# Slurm tells the job its partition (amd_gpu_env): one index of the node's
# GPUs of the type.
grep -Eq "^ROCR_VISIBLE_DEVICES=[0-9]+$" "$work/job.txt" ||
	fail "job without one ROCR_VISIBLE_DEVICES: $(head -n 1 "$work/job.txt")"

# More than the export offers is refused at once, not queued forever.
if srun --immediate=5 --gres="gpu:$type:$((total + 1))" -N1 -n1 true 2> "$work/srun2.err"; then
	fail "srun of $((total + 1)) gpu:$type GRES ran on a node with $total"
fi
grep -q "Requested node configuration is not available" "$work/srun2.err" ||
	fail "unexpected refusal: $(cat "$work/srun2.err")"
# A type the export does not have is refused too.
if srun --immediate=5 --gres=gpu:mi300x_qpx_nps1:1 -N1 -n1 true 2> "$work/srun3.err"; then
	fail "srun of a type the node lacks ran"
fi

# The health check in the loop.  Slurm runs it every HealthCheckInterval
# (slurmctld's background loop asks slurmd): a change shows within one
# interval until the next round, one for the round itself (the RPC, the
# program, its scontrol), and one to spare on a loaded host.
interval=$(scontrol show config | awk '$1 == "HealthCheckInterval" { print $3 + 0 }')
[ "${interval:-0}" -gt 0 ] || fail "no HealthCheckInterval in scontrol show config"
# Polls the node's STATE|REASON until it matches the pattern $1, for at
# most three intervals.
wait_node() {
	local deadline now
	deadline=$(($(date +%s) + 3 * interval))
	while :; do
		now=$(sinfo -h -N -n "$node" -o '%T|%E' 2> /dev/null || true)
		# shellcheck disable=SC2254 # $1 is a pattern
		case $now in
		$1) return 0 ;;
		esac
		[ "$(date +%s)" -lt "$deadline" ] || fail "node $node not '$1' within 3 x $interval s: '$now'"
		sleep 0.2
	done
}
# Waits for the health check to run once more (at most three intervals).
wait_run() {
	local deadline runs
	deadline=$(($(date +%s) + 3 * interval))
	runs=$(wc -l < "$work/runs")
	until [ "$(wc -l < "$work/runs")" -gt "$runs" ]; do
		[ "$(date +%s)" -lt "$deadline" ] || fail "no health check within 3 x $interval s"
		sleep 0.2
	done
}
wait_run
wait_node 'idle|none'
echo "0:1:partition" > "$work/fault"
"$work/amdx" health > "$work/health1.txt" && fail "the fault left amdx healthy: $(cat "$work/health1.txt")"
msg=$(cat "$work/health1.txt")
case $msg in
"amdx health: unhealthy: device 0 partition 1 unhealthy: recovery action partition pending"*) ;;
*) fail "unexpected verdict: $msg" ;;
esac
wait_node "drained|$msg"
scontrol show node "$node" > "$work/node-drained.txt"
grep -Fq "Reason=$msg" "$work/node-drained.txt" ||
	fail "drained without amdx's reason: $(grep Reason "$work/node-drained.txt")"
# Drained: no job starts on it.
if srun --immediate=3 --gres="gpu:$type:1" -N1 -n1 true 2> "$work/srun4.err"; then
	fail "a job ran on the drained node"
fi
rm "$work/fault"
wait_node 'idle|none'
# An administrator's drain is not amdx's to resume, even with the node
# healthy through a whole round of health checks.
scontrol update NodeName="$node" State=DRAIN Reason="maintenance"
wait_node 'drained|maintenance'
wait_run
wait_run
wait_node 'drained|maintenance'
echo "fleet_slurm_test: slurmd took $gres; a job held gpu:$type:1;" \
	"amdx health drained the node and resumed it (HealthCheckInterval=$interval)"
