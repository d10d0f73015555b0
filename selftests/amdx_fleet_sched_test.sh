#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `amdx partition export` against simulated devices: the DRA profiles and
# counters for every model and memory mode against the partition model's
# table (Documentation/partition.rst, admin-guide/scheduling.rst), and the
# Slurm gres.conf lines.  busybox sh; prints KTAP.
#
# Its sim ids are the block "fleet_sched" of lib/amdx_sim_ids.def.

. "${0%/*}/lib/ktap.sh"
. "${0%/*}/lib/sim.sh"
NTESTS=2
mon=
sim_block fleet_sched || exit 1
X=$SIM_FIRST
A=$((SIM_FIRST + 1))
M=$((SIM_FIRST + 2))
stop_monitor() {
	[ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
	mon=
}
cleanup() {
	stop_monitor
	for s in $X $A $M; do del_dev $s; done
	rm -rf "$tmp"
}
ktap_plan $NTESTS
trap cleanup EXIT
missing=
[ -w "$SIM/new_device" ] || missing="$SIM/new_device not writable (amdx_sim loaded? root?)"
command -v amdx > /dev/null || missing="amdx not in PATH"
command -v jq > /dev/null || missing="jq not in PATH"
if [ -n "$missing" ]; then
	skip_rest "$missing"
	exit 4
fi
# ---- partition export: every model x memory mode against the model
# table: compute partitions per mode (SPX 1, DPX 2, TPX 3, QPX 4, CPX one
# per XCC) and the compute modes compatible with each memory mode.
# check_export DEV "PROFILE=COUNT ..." XCCS NPS
check_export() {
	amdx -j partition export "$1" --node n1 > "$tmp/dra.json" ||
		{ fail "partition export $1: exit $?"; return; }
	# One jq: "PROFILES|XCC counters|memory counters|bad sums", where a
	# profile fully allocated must use each XCC once and each memory domain
	# at most its size and within one byte per sharer of it.
	got=$(jq -r '(.items[0].spec.sharedCounters[0].counters | map_values(.value | tonumber)) as $cap |
		[.items[1].spec.devices[] | {p: (.name | sub("-p[0-9]+$"; "")),
		 c: .consumesCounters[0].counters}] | group_by(.p) |
		(map("\(.[0].p)=\(length)") | join(" ")) as $profiles |
		[.[] | . as $g | (reduce $g[] as $d ({}; reduce ($d.c | to_entries[]) as $e (.;
			.[$e.key] += ($e.value.value | tonumber)))) as $sum |
		 $cap | to_entries[] | select(
			((.key | startswith("xcc")) and $sum[.key] != 1) or
			((.key | startswith("mem")) and (($sum[.key] // 0) > .value or
			                                 ($sum[.key] // 0) < .value - 8))) |
		 "\($g[0].p):\(.key)"] | join(",") as $bad |
		"\($profiles)|\([$cap | keys[] | select(startswith("xcc"))] | length)|\([$cap | keys[] | select(startswith("mem"))] | length)|\($bad)"' "$tmp/dra.json")
	[ "$got" = "$2|$3|$4|" ] || fail "dev $1: got '$got', expected '$2|$3|$4|' (profiles|XCCs|NPS domains|bad sums)"
}
new_dev $X model=mi300x
new_dev $A model=mi300a
new_dev $M model=mi308x
x=$(amdx_id $X)
a=$(amdx_id $A)
m=$(amdx_id $M)
diag "mi300x $x, mi300a $a, mi308x $m: $(amdx -j dev list | jq -c '[.devices[] | [.id, .model]]')"
check_export "$x" "cpx-nps1=8 dpx-nps1=2 qpx-nps1=4 spx-nps1=1" 8 1
check_export "$a" "cpx-nps1=6 spx-nps1=1 tpx-nps1=3" 6 1
check_export "$m" "cpx-nps1=4 dpx-nps1=2 spx-nps1=1" 4 1
amdx partition set "$x" --compute dpx --memory nps2 > /dev/null || fail "mi300x to DPX/NPS2"
check_export "$x" "dpx-nps2=2" 8 2
amdx partition set "$x" --compute cpx --memory nps4 > /dev/null || fail "mi300x to CPX/NPS4"
check_export "$x" "cpx-nps4=8 qpx-nps4=4" 8 4
amdx partition set "$m" --compute cpx --memory nps4 > /dev/null || fail "mi308x to CPX/NPS4"
check_export "$m" "cpx-nps4=4" 4 4
result "partition export --format dra: profiles and counters for every model x memory mode"

amdx partition export "$x" --format slurm --node n1 > "$tmp/gres" || fail "slurm export"
# No device file for a simulated device: one Count= line, each partition
# in a comment.
c=$(grep -c "^NodeName=" "$tmp/gres")
[ "$c" = 1 ] && grep -q "^NodeName=n1 Name=gpu Type=mi300x_cpx_nps4 Count=8 Flags=amd_gpu_env$" "$tmp/gres" ||
	fail "gres.conf: $c lines, expected one Count=8 line: $(cat "$tmp/gres")"
c=$(grep -c "^# partition [0-7]: 1 XCC, " "$tmp/gres")
[ "$c" = 8 ] || fail "gres.conf: $c partition comments, expected 8: $(cat "$tmp/gres")"
result "partition export --format slurm: one Count= line per device and type"
for s in $X $A $M; do del_dev $s; done

ktap_exit
