#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# `amdx partition export` against simulated devices: the DRA profiles and
# counters for every model and memory mode against the partition model's
# table (Documentation/partition.rst, admin-guide/scheduling.rst), the
# Slurm gres.conf lines, and every allocation the slices admit against
# the kernel's own plan.  busybox sh; prints KTAP.
#
# Its sim ids are the block "fleet_sched" of lib/amdx_sim_ids.def.

. "${0%/*}/lib/ktap.sh"
. "${0%/*}/lib/sim.sh"
NTESTS=3
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
# ---- every allocation the DRA slices admit is one the kernel takes.
# What a DRA scheduler may allocate together is a set of devices whose
# summed consumption fits every counter; as consumptions are never
# negative, a subset of a set that fits fits.  A set is realisable when
# its devices are of one compute mode and no partition is in it twice (a
# VF standing for the partitions it holds), and realisable sets of one
# mode are what the kernel's plan for that mode has.  So: every subset of
# each mode's devices (at most 12, 4096 subsets) must fit exactly when it
# is realisable; no pair of devices of two modes may fit (then no larger
# mixed set does); and each mode's partitions must be those of
# `amdx partition plan` for that mode (allowed; same XCCs and memory
# partition).  One jq, a few seconds in TCG.
# shellcheck disable=SC2016 # jq's $ names, not the shell's
enum_jq='def key($s): "\($s)/\(.key)";
def uses: [.consumesCounters[] | .counterSet as $s | .counters | to_entries[] |
	{key: key($s), value: (.value.value | tonumber)}];
def parts: if .attributes.vf then .attributes.partitions.string | split(",") | map(tonumber)
	else [.attributes.partition.int] end;
([.items[].spec.sharedCounters // [] | .[] | .name as $s | .counters | to_entries[] |
  {key: key($s), value: (.value.value | tonumber)}] | from_entries) as $cap |
[.items[].spec.devices // [] | .[] | {n: .name, m: .attributes.computeMode.string, p: parts, u: uses}] as $devs |
def fits: reduce (.[].u[]) as $e ({}; .[$e.key] += $e.value) | all(to_entries[]; .value <= $cap[.key]);
def once: [.[].p[]] | length == (unique | length);
def names: map(.n) | join(" ");
($devs | group_by(.m)[] | . as $g | length as $k |
 if $k > 12 then "bound: \($g[0].m) has \($k) devices" else
 (range(0; pow(2; $k)) as $s | [range(0; $k) as $i | select(($s / pow(2; $i) | floor) % 2 == 1) | $g[$i]] |
  fits as $f | once as $o |
  if $f and ($o | not) then "admits: \(names)" elif $o and ($f | not) then "refuses: \(names)" else "subset" end),
 "mode \($g[0].m) \($g[0].m | ascii_downcase)" end),
($devs | combinations(2) | select(.[0].m < .[1].m) | if fits then "admits: \(names)" else "pair" end)'
# The partitions of mode $m: id, XCCs, memory partition.
# shellcheck disable=SC2016
parts_jq='[.items[].spec.devices // [] | .[] | select(.attributes.computeMode.string == $m and (.attributes.vf | not)) |
	{id: .attributes.partition.int, mem: .attributes.memoryPartition.int,
	 xccs: [.consumesCounters[0].counters | keys[] | select(startswith("xcc")) | ltrimstr("xcc") | tonumber] | sort}] | sort_by(.id)'
plan_jq='if .plan.allowed then [.plan.partitions[] | {id, mem: .mem_partition, xccs: (.xccs | sort)}] | sort_by(.id)
	else "refused: \(.plan.reason)" end'
# check_allocations DEV EXPECTED-MODES
check_allocations() {
	amdx -j partition export "$1" --node n1 > "$tmp/alloc.json" ||
		{ fail "partition export $1: exit $?"; return; }
	jq -r "$enum_jq" "$tmp/alloc.json" > "$tmp/alloc.out" || { fail "dev $1: jq: exit $?"; return; }
	if grep -v -e '^subset$' -e '^pair$' -e '^mode ' "$tmp/alloc.out" > "$tmp/alloc.bad"; then
		fail "dev $1: $(head -n 3 "$tmp/alloc.bad" | tr '\n' ';')"
		return
	fi
	modes=$(grep '^mode ' "$tmp/alloc.out" | cut -d' ' -f2 | tr '\n' ' ')
	[ "$modes" = "$2 " ] || fail "dev $1: modes '$modes', expected '$2 '"
	memory=$(jq -r '.items[1].spec.devices[0].attributes.memoryMode.string | ascii_downcase' "$tmp/alloc.json")
	grep '^mode ' "$tmp/alloc.out" | while read -r _ mode lc; do
		want=$(jq -c --arg m "$mode" "$parts_jq" "$tmp/alloc.json")
		rc=0
		amdx -j partition plan "$1" --compute "$lc" --memory "$memory" > "$tmp/plan.json" 2> "$tmp/plan.err" || rc=$?
		got=$(jq -c "$plan_jq" "$tmp/plan.json")
		[ "$got" = "$want" ] ||
			fail "dev $1 $mode/$memory: kernel plan (exit $rc) '$got', slices '$want'"
	done
	diag "dev $1: $(grep -c '^subset$' "$tmp/alloc.out") one-mode subsets, $(grep -c '^pair$' "$tmp/alloc.out") two-mode pairs of ${modes% } checked"
}
amdx partition set "$x" --compute spx --memory nps1 > /dev/null || fail "mi300x to SPX/NPS1"
check_allocations "$x" "CPX DPX QPX SPX"
check_allocations "$a" "CPX SPX TPX"
check_allocations "$m" "CPX"
# VFs enabled: the current mode's partitions and the VFs (2: VF 0 holds
# partitions 0 2 4 6), which the kernel will not switch away from.
amdx partition set "$x" --compute cpx > /dev/null || fail "mi300x to CPX"
if amdx vf enable "$x" 2 > /dev/null; then
	check_allocations "$x" "CPX"
	[ "$(jq -c '[.items[1].spec.devices[] | select(.attributes.vf) | .attributes.partitions.string]' "$tmp/alloc.json")" = '["0,2,4,6","1,3,5,7"]' ] ||
		fail "VF devices: $(jq -c '[.items[1].spec.devices[].name]' "$tmp/alloc.json")"
	amdx vf disable "$x" > /dev/null || fail "vf disable"
else
	fail "vf enable 2"
fi
result "partition export --format dra: every allocation the slices admit is one the kernel's plan takes"

for s in $X $A $M; do del_dev $s; done

ktap_exit
