#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The amdx demo, run inside the VM by /init (amdx.mode=demo).  Everything
# it prints goes to the host's terminal through ttyS1.
exec > /dev/ttyS1 2>&1
say() { printf '\n### %s\n' "$*"; }
# run CMD...: shows the command as typed, runs it, and says how it ended
# when it failed (amdx's exit status names the cause: cli.rst).
run() {
	echo "\$ $*"
	"$@"
	rc=$?
	[ $rc = 0 ] || echo "(exit status $rc)"
	return 0
}

say "amdx loaded"
dmesg | grep 'amdx: uapi'
run amdx --version

say "create a simulated MI300X and MI300A"
run sh -c 'echo "0 model=mi300x vram=4096 resets=partition,vf,device" > /sys/bus/amdx_sim/new_device'
run sh -c 'echo "1 model=mi300a vram=256" > /sys/bus/amdx_sim/new_device'
run amdx dev list

say "amdx dev show (text)"
run amdx dev show

say "the same as JSON, for scripts (jq)"
run sh -c 'amdx -j dev show | jq -M -c ".devices[] | {device, bdf, model, hive_id, vram}"'

say "sysfs view"
for d in /sys/class/amdx/amdx*; do
	echo "$d: model=$(cat "$d/model") bdf=$(cat "$d/bdf")" \
	     "compute=$(cat "$d/compute_mode") memory=$(cat "$d/memory_mode")"
done

say "HMM: place a buffer on partition 0 of the MI300X's VRAM, touch it from the CPU"
id=$(amdx -j dev list | jq '.devices[] | select(.model == "mi300x") | .device')
run amdx hmm demo "$id" size=8M partition=0

say "Partitions: what would SPX -> CPX do?  (plan: changes nothing)"
run amdx partition show "$id"
run amdx partition plan "$id" --compute cpx

say "commit SPX -> CPX: each step timed"
run amdx partition set "$id" --compute cpx
run amdx partition show "$id"

say "an invalid combination is refused with its reason (CPX needs NPS1 or NPS4)"
run amdx partition plan "$id" --compute cpx --memory nps2

say "mistakes are caught before anything reaches the kernel"
run amdx partiton show "$id"
run amdx partition set "$id" --compute xpx
run amdx ras inject "$id" --block umc --type ue --count 0

say "SR-IOV: 8 VFs, fairly provisioned, one VF reset"
run amdx vf enable "$id" 8 -o vf,bdf,state,partitions,vram_quota,time_slice_us,priority
run amdx vf reset "$id" 3
run amdx vf disable "$id"

say "RAS: follow the event log in the background"
amdx monitor "$id" > /tmp/monitor.log 2>&1 &
mon=$!
sleep 1

hold() { # name partition kib byte
	amdx_hold "$id" "$2" "$3" "$4" > "/tmp/$1.out" 2>&1 &
	eval "pid_$1=\$!"
	i=0
	while ! grep -q 'first page' "/tmp/$1.out" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	cat "/tmp/$1.out"
}
vram_of() { sed -n 's/.*VRAM \(0x[0-9a-f]*\)$/\1/p' "/tmp/$1.out"; }

say "CE storm on a page holding a process's data: soft retirement, data intact"
hold a 0 2048 0xab
run amdx ras inject "$id" --block umc --type ce --address "$(vram_of a)" --count 50
run amdx ras badpages "$id"
kill -USR1 "$pid_a"; wait "$pid_a"; cat /tmp/a.out | tail -n 1

say "UE on a page: its consumer gets SIGBUS, another process runs on"
hold b 0 1024 0xcd
hold c 0 1024 0xef
run amdx ras inject "$id" --block umc --type ue --address "$(vram_of b)"
kill -USR1 "$pid_b" "$pid_c"
wait "$pid_b"; echo "consumer exit status $?"; tail -n 1 /tmp/b.out
wait "$pid_c"; echo "bystander exit status $?"; tail -n 1 /tmp/c.out

say "gfx UE on XCC 3 in CPX: partition 3 quarantined, reset, restored"
run amdx ras inject "$id" --block gfx --type ue --instance 3
run amdx partition show "$id"
run amdx ras show "$id"
run amdx ras badpages "$id" --export /tmp/board.abpx

say "recovery: a queue of partition 1 hangs (the simulator's job timeout finds it), what it costs, then the fix"
hold d 0 1024 0x5a
# XCC 1's queue (partition 1 in CPX); the device declares no queue reset
run sh -c 'echo 1 > /sys/kernel/debug/amdx_sim/0/hang_queue'
# found a job timeout later, in the simulator's own work: wait for it
n=0
while [ $n -lt 100 ] &&
      amdx -j recover plan "$id" partition=1 | jq -e '.plan.action == "none"' > /dev/null; do
	sleep 0.1
	n=$((n + 1))
done
run amdx partition show "$id" -o id,state,vf,recovery
run amdx recover plan "$id" partition=1
# Not confirmed and not a terminal (the console would be one): refused.
echo "\$ amdx recover run $id partition=1 < /dev/null"
amdx recover run "$id" partition=1 < /dev/null || echo "(exit status $?)"
run amdx recover run "$id" partition=1 --stop --yes
wait "$pid_d"; echo "holder exit status $? (stopped: SIGKILL is 137)"
run amdx partition show "$id" -o id,state,vf,recovery

say "the event log"
sleep 1
kill "$mon"; wait "$mon" 2>/dev/null
cat /tmp/monitor.log

say "an invalid device is refused with the reason"
run sh -c 'echo "2 model=mi999" > /sys/bus/amdx_sim/new_device'
dmesg | grep amdx_sim | tail -n 1

say "demo complete"

# ---- fleet: amdx-eventd, amdx exporter, amdx health (Documentation/admin-guide/)
say "fleet: amdx-eventd keeps every record in a JSON-lines journal; one more gfx UE"
if command -v amdx-eventd > /dev/null; then
	amdx-eventd --journal /tmp/events.jsonl > /dev/null &
	evd=$!
	sleep 1
fi
run amdx ras inject "$id" --block gfx --type ue --instance 5
sleep 1
say "the journal's last records"
tail -n 3 /tmp/events.jsonl 2> /dev/null
say "amdx exporter: a few of its Prometheus series (node-exporter textfile)"
run amdx exporter --textfile /tmp/amdx.prom
grep -E '^amdx_(ras_errors_total|partition_ras_errors_total|retired_pages_total|partition_state|hmm_migrations_total|partition_commits_total)\{' \
	/tmp/amdx.prom | grep -E 'type="ue"\} [1-9]|cause="ue"|state="quarantined"\} 1|cause="(migrate|cpu_fault)"\} [1-9]|outcome="committed"\} [1-9]' |
	head -n 8
say "amdx health after the RAS steps: one line, Node Problem Detector exit code"
amdx health --journal /tmp/events.jsonl
echo "exit status $?"
amdx -j health "$id" --journal /tmp/events.jsonl | jq -M -c '.devices[0] | {verdict, findings: [.findings[],
	(.partitions[] | .partition as $p | .findings[] | . + {partition: $p})] |
	map({partition, verdict, cause, seq})}'

# ---- fabric: a link fault contained on the link (Documentation/fabric.rst)
say "fabric: a hive of 4 simulated MI300X, a full mesh of 6 XGMI links"
h=
for s in 3 4 5 6; do
	echo "$s model=mi300x vram=64 hive=de40" > /sys/bus/amdx_sim/new_device
	for d in "/sys/bus/amdx_sim/devices/amdx_sim$s/amdx/"amdx*; do
		h=$h${h:+,}$(cat "$d/id")
	done
done
# shellcheck disable=SC2046 # the ids, split on purpose
set -- $(echo "$h" | tr , ' ')
run amdx link show --matrix "$h"
# link_fault A B WHAT: simulated devices 3 and 4's link reports WHAT;
# returns once the link's state change is recorded at both ends (amdx ids
# A, B).  The fault waits for the monitor's two subscriptions (its event
# fds), not for a time: a record before them would be missed.
link_fault() {
	amdx monitor "$1" "$2" --kinds link --count 2 --timeout-ms 10000 > /tmp/link.log 2>&1 &
	lmon=$!
	i=0
	while [ "$(ls -l "/proc/$lmon/fd" 2>/dev/null | grep -c amdx_event)" -lt 2 ] &&
		kill -0 "$lmon" 2>/dev/null && [ $i -lt 600 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	echo "\$ echo 3 4 $3 > /sys/kernel/debug/amdx_sim/link_fault"
	echo "3 4 $3" > /sys/kernel/debug/amdx_sim/link_fault
	wait "$lmon"
	cat /tmp/link.log
}
say "the link between the first two goes down: that link alone leaves service, routed around"
link_fault "$1" "$2" down
run amdx link show "$h" -o link,device_a,device_b,state,contain,hops,route_degraded,downs
run amdx link show --matrix "$h"
say "the same in sysfs: one value per link of device $1"
run grep -H . /sys/class/amdx/amdx"$1"/links/peer /sys/class/amdx/amdx"$1"/links/state
say "contained on the link: no device reset, nothing pending; health degraded, naming the link"
run sh -c "amdx -j dev show $h | jq -M -c '.devices[] | {device, hive_id, recovery}'"
amdx health "$h" --journal /tmp/events.jsonl
echo "exit status $?"
say "trained again: up after the hold (hysteresis), healthy again"
link_fault "$1" "$2" up
run amdx link show --matrix "$h"
amdx health "$h" --journal /tmp/events.jsonl
echo "exit status $?"
[ -z "${evd:-}" ] || kill "$evd"
say "fleet demo complete"
