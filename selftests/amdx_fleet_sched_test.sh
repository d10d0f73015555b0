#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `amdx partition export` against simulated devices: the DRA profiles and
# counters for every model and memory mode against the partition model's
# table (Documentation/partition.rst, admin-guide/scheduling.rst), and the
# Slurm gres.conf lines.  busybox sh; prints KTAP.
#
# Sim ids 971..973 belong to this test.

SIM=/sys/bus/amdx_sim
NTESTS=2
n=0
failed=0
tmp=$(mktemp -d /tmp/amdx_fleet_sched_test.XXXXXX) || exit 1
mon=

ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
}
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
diag() {
	echo "$*" | sed 's/^/# /'
}
result() {
	if [ -s "$tmp/fail" ]; then
		diag "$(cat "$tmp/fail")"
		not_ok "$1"
	else
		ok "$1"
	fi
	: > "$tmp/fail"
}
fail() {
	echo "$*" >> "$tmp/fail"
}
amdx_id() {
	for d in "$SIM/devices/amdx_sim$1/amdx/"amdx*; do
		[ -d "$d" ] && cat "$d/id" && return 0
	done
	return 1
}
new_dev() { # SIM_ID ARGS...
	echo "$*" > "$SIM/new_device" || { fail "new_device '$*' failed"; return 1; }
}
del_dev() {
	echo "$1" > "$SIM/del_device" 2>/dev/null
}
stop_monitor() {
	[ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
	mon=
}
cleanup() {
	stop_monitor
	for s in 971 972 973; do del_dev $s; done
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "TAP version 13"
echo "1..$NTESTS"
missing=
[ -w "$SIM/new_device" ] || missing="$SIM/new_device not writable (amdx_sim loaded? root?)"
command -v amdx > /dev/null || missing="amdx not in PATH"
command -v jq > /dev/null || missing="jq not in PATH"
if [ -n "$missing" ]; then
	for i in $(seq $NTESTS); do skip "fleet $i" "$missing"; done
	exit 4
fi
: > "$tmp/fail"
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
new_dev 971 model=mi300x
new_dev 972 model=mi300a
new_dev 973 model=mi308x
x=$(amdx_id 971)
a=$(amdx_id 972)
m=$(amdx_id 973)
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
c=$(grep -c "^NodeName=n1 Name=gpu Type=mi300x_cpx_nps4 Count=1 Flags=amd_gpu_env" "$tmp/gres")
[ "$c" = 8 ] || fail "gres.conf: $c partition lines, expected 8: $(cat "$tmp/gres")"
result "partition export --format slurm: one gres.conf line per partition"
for s in 971 972 973; do del_dev $s; done


exit $failed
