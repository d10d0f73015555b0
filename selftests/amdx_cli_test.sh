#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The amdx CLI against simulated devices: creates devices through
# /sys/bus/amdx_sim/new_device and checks `amdx -j ... | jq` against sysfs
# (/sys/class/amdx/amdx<id>/), the JSON contract of
# Documentation/admin-guide/cli.rst and its amdx-*.schema.json files, the text
# output and the one-line errors.  busybox sh; prints KTAP.
#
# Usage errors and a missing control node need no module: ctest checks
# them on the host (CliRun.ModuleNotLoaded, InvalidSelectorIsUsageError,
# OutOfRangeNumbersAreUsageErrors, ControlCli's ras inject and misspelling
# cases), where the CLI starts in milliseconds instead of a second.
#
# Its sim ids are the block "cli" of lib/amdx_sim_ids.def: the first three
# are the devices it works on; their BDFs (0004:5a:00.0 .. 0004:5c:00.0)
# have hex letters, for the upper-case selector check.  The fourth is
# created while `amdx monitor` runs; the fifth joins the third's hive for
# the --yes checks (a memory-mode change, a hive reset).

. "${0%/*}/lib/ktap.sh"
. "${0%/*}/lib/sim.sh"
NTESTS=29
sim_block cli || exit 1
S0=$SIM_FIRST
S1=$((SIM_FIRST + 1))
S2=$((SIM_FIRST + 2))
IDS="$S0 $S1 $S2"
LATE=$((SIM_FIRST + 3))
HIVE=$((SIM_FIRST + 4))

# sim id -> new_device arguments, model, supported modes (as the CLI names
# them, ascending uapi order)
params() {
	case $1 in
	"$S0") echo "model=mi300x" ;;
	"$S1") echo "model=mi300a vram=256 hive=abc0" ;;
	"$S2") echo "model=mi308x vram=1024 max_vfs=2 hive=ffff0001" ;;
	esac
}
model_of() {
	case $1 in
	"$S0") echo mi300x ;;
	"$S1") echo mi300a ;;
	"$S2") echo mi308x ;;
	esac
}
modes_of() {
	case $1 in
	"$S0") echo '["SPX","DPX","QPX","CPX"] ["NPS1","NPS2","NPS4"]' ;;
	"$S1") echo '["SPX","TPX","CPX"] ["NPS1"]' ;;
	"$S2") echo '["SPX","DPX","CPX"] ["NPS1","NPS4"]' ;;
	esac
}

# has TEXT PATTERN: TEXT has a line matching the shell PATTERN (no exec).
has() {
	case "
$1
" in
	*"
"$2"
"*) return 0 ;;
	esac
	return 1
}

# The JSON Schemas of Documentation/admin-guide and their validator,
# amdx_schema.jq, which selftests/Makefile installs beside this script.
SCHEMA_DIR=${0%/*}/amdx_cli_schema
# schema_case NAME FILE: each JSON line of FILE is a case for the schema
# amdx-NAME.schema.json.
schema_case() {
	while IFS= read -r _l; do
		[ -n "$_l" ] && printf '{"schema":"%s","doc":%s}\n' "$1" "$_l"
	done < "$2" >> "$tmp/cases"
}
# schema_check: validates the cases so far in one jq run (an exec costs
# seconds under TCG); prints what is wrong, nothing if all holds.
schema_check() {
	set --
	for _f in "$SCHEMA_DIR"/amdx-*.schema.json; do
		_n=${_f##*/amdx-}
		set -- "$@" --slurpfile "${_n%.schema.json}" "$_f"
	done
	[ -s "$tmp/cases" ] || echo "no documents to check"
	jq -r -f "$SCHEMA_DIR/amdx_schema.jq" "$@" < "$tmp/cases" 2>&1 || echo "jq: exit $?"
	: > "$tmp/cases"
}

# attr ID NAME: a sysfs attribute, read by the shell itself (under TCG every
# exec costs about 2 s; the suite has 300 s).
attr() {
	read -r _v < "$CLASS/amdx$1/$2" && echo "$_v"
}

cleanup() {
	for s in $IDS $LATE $HIVE; do
		del_dev "$s"
	done
	rm -rf "$tmp"
}

ktap_plan $NTESTS

missing=
[ -w "$SIM/new_device" ] || missing="$SIM/new_device not writable (amdx_sim loaded? root?)"
command -v amdx > /dev/null || missing="amdx not in PATH"
command -v jq > /dev/null || missing="jq not in PATH"
if [ -n "$missing" ]; then
	skip_rest "$missing"
	ktap_exit
fi
trap cleanup EXIT

# Leftovers of an aborted earlier run.
for s in $IDS $LATE $HIVE; do
	del_dev "$s"
done

# 1: the devices this test works on.
for s in $IDS; do
	echo "$s $(params "$s")" > "$SIM/new_device" ||
		fail "new_device '$s $(params "$s")' failed"
	id=$(amdx_id "$s") || fail "sim id $s: no class device"
	eval "id_$s=$id"
done
result create_sim_devices
id_of() {
	eval "echo \$id_$1"
}
if [ -z "$(id_of "$S0")" ] || [ -z "$(id_of "$S1")" ] || [ -z "$(id_of "$S2")" ]; then
	skip_rest "could not create the sim devices"
	exit 1
fi

# count_devices: $ndev, the amdx devices sysfs has (no exec).
count_devices() {
	set -- "$CLASS"/amdx*
	ndev=$#
	[ -e "$1" ] || ndev=0
}
# jq_lines TAG...: the lines of $tmp/jq that begin with "TAG: ", each
# without it (one jq prints the findings of several checks, a prefix each).
jq_lines() {
	while IFS= read -r _l; do
		case $_l in
		"$1: "*) echo "${_l#"$1: "}" ;;
		esac
	done < "$tmp/jq"
}

# 2: dev list names each device with its id, bdf and model, and lists as
# many devices as sysfs has.  3: its JSON shape (cli.rst):
# {"schema_version": 2, "devices": [{device, bdf, model}]}; keys may be
# added, none may be missing.
amdx -j dev list > "$tmp/list" || fail "amdx -j dev list: exit $?"
# One jq for both (under TCG every exec counts): "2: ID BDF MODEL" for
# each of ours not listed exactly so, "count: N" for the number of
# devices, "3: false" for a wrong shape.
want=
for s in $IDS; do
	want="$want $(id_of "$s"),$(sim_bdf "$s"),$(model_of "$s")"
done
count_devices
jq -r --arg want "$want" '
	def u32: type == "number" and . == floor and . >= 0 and . <= 4294967295;
	(.devices as $d |
	 $want | split(" ")[] | select(length > 0) | split(",") as [$id, $bdf, $model] |
	 [$d[] | select(.device == ($id | tonumber))] |
	 select((length == 1 and .[0].bdf == $bdf and .[0].model == $model) | not) |
	 "2: \($id) \($bdf) \($model)"),
	"count: \(.devices | length)",
	(((keys_unsorted[0] == "schema_version") and (.schema_version == 2) and
	  (.devices | type == "array") and
	  all(.devices[];
	      has("device") and has("bdf") and has("model") and
	      (.device | u32) and
	      (.bdf | type == "string" and test("^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]$")) and
	      (.model | IN("mi300x", "mi300a", "mi308x", "unknown")))) |
	 select(not) | "3: false")' "$tmp/list" > "$tmp/jq" 2>&1 ||
	echo "3: jq failed: $(cat "$tmp/jq")" >> "$tmp/jq"
bad=$(jq_lines 2)
[ -z "$bad" ] || fail "not listed as (id bdf model): $bad: $(cat "$tmp/list")"
got=$(jq_lines count)
[ "$got" = "$ndev" ] || fail "dev list has $got devices, sysfs $ndev"
result dev_list_lists_devices
[ -z "$(jq_lines 3)" ] || fail "dev list JSON shape: $(cat "$tmp/list")"
result dev_list_json_shape

# One line per device from sysfs and from the CLI's JSON, same order.
sysfs_line() {
	_line=
	for _a in id bdf model product serial hive_id num_xcc num_sdma num_vcn \
		compute_mode memory_mode vram_size vram_free num_vfs max_vfs \
		num_mem_partitions mem_partition_free; do
		_v=
		read -r _v < "$CLASS/amdx$1/$_a"
		[ "$_a" = hive_id ] && _v=$((_v))
		_line="$_line${_line:+|}$_v"
	done
	# an empty attribute still takes its place
	echo "$_line"
}
JQ_LINE='[.device, .bdf, .model, .product, .serial, .hive_id, .num_xcc, .num_sdma,
	  .num_vcn, .compute_mode, .memory_mode, .vram.size, .vram.free,
	  .vfs.enabled, .vfs.max, (.memory_partitions | length),
	  ([.memory_partitions[].free | tostring] | join(" "))]
	 | map(tostring) | join("|")'

# show SELECTOR SIM_ID FILE: `amdx -j dev show SELECTOR` into FILE;
# show_check then checks, with one jq for all, that each such document
# is exactly the device of its SIM_ID and agrees with sysfs.
: > "$tmp/shows"
show() {
	if ! amdx -j dev show "$1" > "$3"; then
		fail "amdx -j dev show $1: exit status $?"
		return
	fi
	echo "$1	$(id_of "$2")	$3" >> "$tmp/shows"
}
show_check() {
	set --
	while IFS='	' read -r _sel _id _f; do
		set -- "$@" "$_f"
	done < "$tmp/shows"
	[ $# != 0 ] || return
	jq -r "if (.devices | length) == 1 then .devices[0] | $JQ_LINE
		else \"\(.devices | length) devices\" end" "$@" > "$tmp/shows.got" 2>&1
	while IFS='	' read -r _sel _id _f; do
		got=
		IFS= read -r got <&3
		want=$(sysfs_line "$_id")
		[ "$got" = "$want" ] || fail "dev show $_sel:
 cli:   $got
 sysfs: $want"
	done < "$tmp/shows" 3< "$tmp/shows.got"
	: > "$tmp/shows"
}
# sim_bdf_upper SIM_ID: its BDF in upper case
sim_bdf_upper() {
	_sim_bus=$((0xc1 + $1))
	printf '%04X:%02X:00.0' $((_sim_bus >> 8)) $((_sim_bus & 0xff))
}

# 4, 5, 6: by id, by bdf, by upper-case bdf
for s in $IDS; do
	show "$(id_of "$s")" "$s" "$tmp/show-id-$s"
done
show_check
result dev_show_id_matches_sysfs
for s in $IDS; do
	show "$(sim_bdf "$s")" "$s" "$tmp/show-bdf-$s"
done
show_check
result dev_show_bdf_matches_sysfs
for s in $IDS; do
	show "$(sim_bdf_upper "$s")" "$s" "$tmp/show-upper-$s"
done
show_check
result dev_show_upper_case_bdf_matches_sysfs

# 7: all, the explicit word and the default, agree with sysfs per device
# and hold every device sysfs has.
amdx -j dev show all > "$tmp/all" || fail "amdx -j dev show all: exit $?"
amdx -j dev > "$tmp/default" || fail "amdx -j dev: exit $?"
# One jq: "same: BOOL", "count: N", then "line: " and every device's line.
jq -r --slurpfile a "$tmp/all" '"same: \(. == $a[0])",
	($a[0] | "count: \(.devices | length)", (.devices[] | '"$JQ_LINE"' | "line: " + .))' \
	"$tmp/default" > "$tmp/jq" 2>&1
[ "$(jq_lines same)" = true ] ||
	fail "'amdx -j dev' differs from 'amdx -j dev show all'"
got=$(jq_lines count)
count_devices
[ "$got" = "$ndev" ] || fail "dev show all has $got devices, sysfs $ndev"
# Every device's line, from the jq and from sysfs, the same set.
jq_lines line | sort > "$tmp/all.cli"
for d in "$CLASS"/amdx*; do
	read -r id < "$d/id"
	sysfs_line "$id"
done | sort > "$tmp/all.sysfs"
cmp -s "$tmp/all.cli" "$tmp/all.sysfs" || fail "dev show all differs from sysfs (-cli +sysfs):
$(diff "$tmp/all.cli" "$tmp/all.sysfs" | grep '^[-+][0-9]')"
result dev_show_all_matches_sysfs

# 8: the things sysfs does not show: supported modes per model, hmm.
# One jq for all: {"ID": [COMPUTE, MEMORY]} per device; it prints what
# differs.
want=
for s in $IDS; do
	set -- $(modes_of "$s")
	want="$want${want:+,}\"$(id_of "$s")\": [$1, $2]"
done
want_hmm=null
if [ -n "$AMDX_EXPECT_DEVICE_PRIVATE" ]; then
	want_hmm=false
	[ "$AMDX_EXPECT_DEVICE_PRIVATE" = 1 ] && want_hmm=true
fi
# "bad: ..." for what differs, "ours: N" for how many of ours were
# there to be checked.
jq -r --argjson w "{$want}" --argjson h "$want_hmm" '
	(.devices[] | select($w[.device | tostring]) | . as $dev |
	 $w[.device | tostring] as [$c, $m] |
	 (select(.supported_compute_modes != $c or .supported_memory_modes != $m) |
	  "bad: device \(.device): supported modes, want \($c) \($m)"),
	 (select($h != null and .hmm != $h) | "bad: device \(.device): hmm is not \($h)")),
	"ours: \([.devices[] | select($w[.device | tostring])] | length)"' \
	"$tmp/all" > "$tmp/jq" 2>&1 || echo "bad: jq failed: $(cat "$tmp/jq")" >> "$tmp/jq"
bad=$(jq_lines bad)
[ -z "$bad" ] || fail "$bad"
# every one of ours was there to be checked
got=$(jq_lines ours)
[ "$got" = 3 ] || fail "dev show all has $got of our 3 devices"
result dev_show_modes_and_hmm

# 9: `dev show` JSON against Documentation/admin-guide/amdx-dev-show.schema.json
# itself, with amdx_schema.jq (a JSON Schema validator in jq: the VM has no
# Python): as printed, and with a key added to every object (the
# compatibility rule: a newer amdx); the validator also checks it rejects a
# broken copy of each document, so this cannot pass by accepting anything.
if [ -f "$SCHEMA_DIR/amdx_schema.jq" ]; then
	for f in all default; do
		schema_case dev-show "$tmp/$f"
	done
	# each device by id: the documents of test 4
	for s in $IDS; do
		[ ! -s "$tmp/show-id-$s" ] || schema_case dev-show "$tmp/show-id-$s"
	done
	problems=$(schema_check)
	[ -z "$problems" ] || fail "dev show breaks its schema: $problems"
else
	fail "no $SCHEMA_DIR/amdx_schema.jq (selftests/Makefile installs it)"
fi
result dev_show_json_schema

# 10: -p is the same document, indented.
amdx -p dev show all > "$tmp/pretty" || fail "amdx -p dev show all: exit $?"
[ "$(wc -l < "$tmp/pretty")" -gt 1 ] || fail "-p output is one line"
[ "$(wc -l < "$tmp/all")" -eq 1 ] || fail "-j output is not one line"
jq -e --slurpfile a "$tmp/all" '. == $a[0]' "$tmp/pretty" > /dev/null ||
	fail "-p and -j documents differ"
result pretty_json_same_document

# 11: text output: dev list is a table with a header, dev show a block
# per device with sizes in binary units.
amdx dev list > "$tmp/textlist" || fail "amdx dev list: exit $?"
list=$(cat "$tmp/textlist")
has "$list" "DEVICE BDF*MODEL" || fail "dev list: no header: $list"
for s in $IDS; do
	id=$(id_of "$s")
	txt=$(amdx dev show "$id") || fail "amdx dev show $id: exit $?"
	has "$txt" "device $id:" || fail "dev show $id: no 'device $id:' line"
	has "$txt" "  bdf  *$(sim_bdf "$s")" || fail "dev show $id: no bdf $(sim_bdf "$s")"
	has "$txt" "  model  *$(model_of "$s")" || fail "dev show $id: no model $(model_of "$s")"
	has "$txt" "  vram  *size *[MG]iB, free *[MG]iB" ||
		fail "dev show $id: vram not in MiB/GiB: $txt"
	has "$list" "* $id $(sim_bdf "$s") $(model_of "$s")*" || fail "dev list: no line for id $id"
done
result text_output_names_model_and_bdf

# expect_error STATUS PATTERN CMD...: CMD exits STATUS with nothing on
# stdout and one line on stderr, "amdx: ..." matching PATTERN.
expect_error() {
	st=$1
	pat=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" = "$st" ] || fail "$*: exit status $rc, want $st"
	[ -s "$tmp/out" ] && fail "$*: wrote to stdout: $(cat "$tmp/out")"
	# builtins only: under TCG every exec costs about 2 s
	lines=0
	while IFS= read -r line; do
		lines=$((lines + 1))
		errline=$line
	done < "$tmp/err"
	[ "$lines" = 1 ] || fail "$*: $lines lines on stderr: $(cat "$tmp/err")"
	case $errline in
	"amdx: "*"$pat"*) ;;
	*) fail "$*: stderr '$errline' does not match '$pat'" ;;
	esac
}


# 12: an id no device has
if [ -e "$CLASS/amdx9999" ]; then
	skip dev_show_unknown_id_fails "a device has id 9999"
else
	expect_error 4 "no such device: 9999" amdx dev show 9999
	expect_error 4 "no such device: 9999" amdx -j dev show 9999
	result dev_show_unknown_id_fails
fi

# 13: a bdf no device has
expect_error 4 "no such device: 0004:ff:1f.7" amdx dev show 0004:ff:1f.7
result dev_show_unknown_bdf_fails

# 13a: gpu:INDEX, as ROCR_VISIBLE_DEVICES counts GPUs (no KFD in the
# guest: the devices in id order, each one's partitions in order), in one
# amdx run; the indexes from sysfs (partitions/count), without an exec.
# gpu_index ID: the index of device ID's first partition.
gpu_index() {
	_n=0
	for _d in "$CLASS"/amdx*; do
		[ -e "$_d" ] && [ "${_d##*/amdx}" -lt "$1" ] || continue
		read -r _c < "$_d/partitions/count" && _n=$((_n + _c))
	done
	echo "$_n"
}
g1=$(gpu_index "$(id_of "$S1")")
g2=$(gpu_index "$(id_of "$S2")")
if amdx -j dev show "gpu:$g1,gpu:$g2" > "$tmp/gpu" 2> "$tmp/gpuerr"; then
	got=$(grep -o '{"device":[0-9]*,"bdf"' "$tmp/gpu" | tr -dc '0-9\n' | tr '\n' ' ')
	want="$(id_of "$S1") $(id_of "$S2") "
	[ "$got" = "$want" ] || fail "dev show gpu:$g1,gpu:$g2 gave devices '$got', want '$want'"
	# ... and names each device's first GPU with the index that selected it.
	for g in "$g1" "$g2"; do
		grep -q "\"gpus\":\[{\"index\":$g,\"partition\":0," "$tmp/gpu" ||
			fail "dev show gpu:$g does not list gpu $g in its gpus: $(cat "$tmp/gpu")"
	done
else
	fail "amdx -j dev show gpu:$g1,gpu:$g2: $(cat "$tmp/gpuerr")"
fi
result dev_show_by_gpu_index

# The partition, VF, RAS and event commands (issues 5 and 6).  On a kernel
# module without that uapi the query is refused (EINVAL: unknown query) or
# the ioctl unknown (ENOTTY): those tests SKIP.  Device $S0 (mi300x, SPX,
# NPS1) is used.
#
# run_new NAME CMD...: runs CMD with output in $tmp/new, stderr in
# $tmp/newerr; returns 0 if it ran, 1 (after printing the SKIP) if the
# kernel lacks the uapi.
run_new() {
	name=$1
	shift
	"$@" > "$tmp/new" 2> "$tmp/newerr"
	rc=$?
	if [ "$rc" != 0 ] && grep -q -e "(ENOTTY:" -e "(EINVAL: Invalid argument)" "$tmp/newerr"; then
		skip "$name" "kernel lacks the uapi: $(cat "$tmp/newerr")"
		: > "$tmp/fail"
		return 1
	fi
	[ "$rc" = 0 ] || fail "$*: exit status $rc: $(cat "$tmp/newerr")"
	return 0
}
id=$(id_of "$S0")

# 16: partition show agrees with dev show and has one partition in SPX
if run_new partition_show_matches_dev_show amdx -j partition show "$id"; then
	# `amdx -j dev show $id`: test 4's document (nothing changed since)
	jq -e --slurpfile d "$tmp/show-id-$S0" '
		.devices[0] as $p | $d[0].devices[0] as $i |
		$p.compute_mode == $i.compute_mode and $p.memory_mode == $i.memory_mode and
		($p.partitions | length) >= 1 and
		all($p.partitions[]; . as $q | all("id", "mem_partition", "resets", "sdma",
		    "state", "vcn", "vf", "vram_base", "vram_size", "xccs"; . as $k | $q | has($k)))' \
		"$tmp/new" > /dev/null || fail "partition show: $(cat "$tmp/new")"
	cp "$tmp/new" "$tmp/json-partition"
	result partition_show_matches_dev_show
fi

# 17: a plan changes nothing (same generation and modes before and after)
if run_new partition_plan_changes_nothing amdx -j partition show "$id"; then
	cp "$tmp/new" "$tmp/before"
	amdx -j partition plan "$id" --compute cpx > "$tmp/plan" 2> "$tmp/planerr"
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "partition plan: exit $rc: $(cat "$tmp/planerr")"
	jq -e '.plan | (.allowed | type == "boolean") and (.partitions | type == "array")' \
		"$tmp/plan" > /dev/null || fail "partition plan: $(cat "$tmp/plan")"
	amdx -j partition show "$id" > "$tmp/after"
	cmp -s "$tmp/before" "$tmp/after" || fail "partition plan changed the partitions"
	result partition_plan_changes_nothing
fi

# 18: vf show reports the max_vfs dev show reports
if run_new vf_show_matches_dev_show amdx -j vf show "$id"; then
	# dev show: test 4's document of this device
	set -- $(jq -r --slurpfile d "$tmp/show-id-$S0" \
		'"\(.devices[0].max_vfs) \($d[0].devices[0].vfs.max)"' "$tmp/new")
	[ -n "$1" ] && [ "$1" = "$2" ] || fail "vf show max_vfs $1, dev show $2"
	result vf_show_matches_dev_show
fi

# 19: ras show: the seven blocks, and unsupported counters are null, not 0
if run_new ras_show_blocks amdx -j ras show "$id"; then
	jq -e '.devices[0] | (.rma | type == "boolean") and
		([.blocks[].block] == ["umc", "sdma", "gfx", "mmhub", "pcie_bif",
		    "hdp", "xgmi_wafl"]) and
		all(.blocks[]; . as $b | all(["ce", "ue", "de"][];
		    . as $t | ($b.supported | index($t)) as $s |
		    if $s == null then $b.total[$t] == null
		    else ($b.total[$t] | type == "number") end))' \
		"$tmp/new" > /dev/null || fail "ras show: $(cat "$tmp/new")"
	cp "$tmp/new" "$tmp/json-ras"
	result ras_show_blocks
fi

# 20: monitor subscribes and stops at its timeout with status 0
if run_new monitor_times_out amdx -j monitor "$id" --timeout-ms 200; then
	result monitor_times_out
fi

# 21: monitor (all devices) follows a device created after it started: it
# says so on stderr and prints that device's events as JSON lines
count_devices
amdx -j monitor --kinds rma --count 1 --timeout-ms 20000 \
	> "$tmp/mon" 2> "$tmp/monerr" &
mon=$!
# subscribed to every device present (one event fd each) before the new one
i=0
while [ "$(ls -l "/proc/$mon/fd" 2>/dev/null | grep -c 'amdx_event')" != "$ndev" ]; do
	i=$((i + 1))
	[ $i -le 100 ] || break
	sleep 0.1
done
[ $i -le 100 ] || fail "monitor did not subscribe to the $ndev devices"
echo "$LATE model=mi300x vram=256" > "$SIM/new_device" ||
	fail "new_device $LATE failed"
late=$(amdx_id "$LATE") || fail "sim id $LATE: no class device"
i=0
while ! grep -q "^monitor: following device $late (" "$tmp/monerr"; do
	i=$((i + 1))
	[ $i -le 100 ] || break
	sleep 0.1
done
[ $i -le 100 ] || fail "monitor did not pick up device $late: $(cat "$tmp/monerr")"
echo "13 1" > "/sys/kernel/debug/amdx/amdx$late/emit_events" ||
	fail "emit_events on amdx$late failed"
wait "$mon"
rc=$?
[ "$rc" = 0 ] || fail "monitor: exit $rc: $(cat "$tmp/monerr")"
[ "$(wc -l < "$tmp/mon")" = 1 ] || fail "monitor printed: $(cat "$tmp/mon")"
jq -e --argjson id "$late" '.device == $id and .kind == "rma" and
	(.seq | type == "number")' "$tmp/mon" > /dev/null ||
	fail "monitor output: $(cat "$tmp/mon")"
echo "$LATE" > "$SIM/del_device" || fail "del_device $LATE failed"
result monitor_follows_new_devices

# 22: vf show gives every VF a "bdf" (null on a simulated device: no PCI
# VF), its -j output feeds vf enable --config, vf disable -j prints one
# object.
id=$(id_of "$S0")
if run_new vf_show_output_feeds_vf_enable amdx vf enable "$id" 1; then
	amdx -j vf show "$id" > "$tmp/vfs" || fail "vf show: exit $?"
	jq -e '.devices[0].vfs | length == 1 and all(.[]; has("bdf") and
		(.bdf == null or (.bdf | test("^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]$"))))' \
		"$tmp/vfs" > /dev/null || fail "vf show: no bdf per VF: $(cat "$tmp/vfs")"
	amdx -j vf disable "$id" > "$tmp/off" || fail "vf disable: exit $?"
	jq -e '.schema_version == 2 and (.devices[0].vfs | length) == 0' "$tmp/off" \
		> /dev/null || fail "vf disable -j: $(cat "$tmp/off")"
	amdx -j vf enable "$id" 1 --config "$tmp/vfs" > "$tmp/again" 2> "$tmp/againerr" ||
		fail "vf enable --config <vf show output>: $(cat "$tmp/againerr")"
	jq -e --slurpfile a "$tmp/vfs" \
		'.devices[0].vfs[0].vram_quota == $a[0].devices[0].vfs[0].vram_quota' \
		"$tmp/again" > /dev/null || fail "re-enabled VF differs: $(cat "$tmp/again")"
	amdx vf disable "$id" > /dev/null || fail "vf disable: exit $?"
	result vf_show_output_feeds_vf_enable
fi

# 23: ras show text: per-block totals in a table; --detail adds the
# per-partition rows.
txt=$(amdx ras show "$id") || fail "ras show: exit $?"
has "$txt" "    BLOCK *INSTANCES SUPPORTED *CE *UE *DE" ||
	fail "ras show: no block table: $txt"
has "$txt" "  by_partition:" && fail "ras show: per-partition rows without --detail"
txt=$(amdx ras show "$id" --detail)
has "$txt" "  by_partition:" || fail "ras show --detail: no per-partition rows"
result ras_show_text_totals_and_detail

# 24: the JSON of partition show, vf show (with a VF), ras show and monitor
# from the real module against their schemas (amdx-*.schema.json), as 9
# does for dev show: as printed, with keys added, and broken copies
# rejected.
if [ -f "$SCHEMA_DIR/amdx_schema.jq" ]; then
	checked=
	for c in partition-show:json-partition vf-show:vfs ras-show:json-ras monitor:mon; do
		[ -s "$tmp/${c#*:}" ] || continue # its test above skipped
		schema_case "${c%%:*}" "$tmp/${c#*:}"
		checked="$checked ${c%%:*}"
	done
	problems=$(schema_check)
	[ -z "$problems" ] || fail "output breaks its schema: $problems"
	diag "checked against their schemas:$checked"
else
	fail "no $SCHEMA_DIR/amdx_schema.jq (selftests/Makefile installs it)"
fi
result json_outputs_match_their_schemas

# 25: --version names the loaded module's version (MODULE_VERSION, from
# dkms.conf) and uapi.
txt=$(amdx --version) || fail "amdx --version: exit $?"
has "$txt" "amdx [0-9]*" || fail "--version: $txt"
mv=$(cat /sys/module/amdx/version 2> /dev/null)
case "$mv" in
[0-9]*.[0-9]*.[0-9]*) ;;
*) fail "/sys/module/amdx/version is '$mv', not a version" ;;
esac
has "$txt" "module amdx $mv, uapi [0-9]*.[0-9]*" ||
	fail "--version does not name module version '$mv': $txt"
has "$txt" "*no version*" && fail "--version says no version: $txt"
result version_names_the_module

# 26: a memory-mode change that resets a hive of two needs --yes: without
# it (and no terminal) the plan is printed and nothing changes.
echo "$HIVE model=mi308x vram=1024 hive=ffff0001" > "$SIM/new_device" ||
	fail "new_device $HIVE failed"
id=$(id_of "$S2")
before=$(attr "$id" memory_mode)
amdx partition set "$id" --memory nps4 < /dev/null > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "partition set without --yes: exit $rc: $(cat "$tmp/err")"
has "$(cat "$tmp/out")" "plan:" || fail "no plan printed: $(cat "$tmp/out")"
has "$(cat "$tmp/err")" "*pass --yes to proceed" || fail "stderr: $(cat "$tmp/err")"
[ "$(attr "$id" memory_mode)" = "$before" ] || fail "memory mode changed without --yes"
echo "$HIVE" > "$SIM/del_device" || fail "del_device $HIVE failed"
result hive_memory_change_needs_yes

# 27: recover plan, then run, of a hung queue of partition 0 (XCC 0's,
# found by the simulator's job timeout and reported through the provider
# API, amdx_device_hang()):
# the plan is the queue's reset, pending, resetting no device or
# partition; run --yes runs it and prints every step the kernel recorded,
# the self-test before the clear; then nothing is pending, a second run
# has nothing to do (exit 1), and node is the operator's (exit 7).  The
# JSON against amdx-recover.schema.json (with 28's).
id=$(id_of "$S0")
sim_hang "$S0" hang_queue 0 partition=0 || fail "hang_queue: the queue hang not detected"
amdx -j recover plan "$id" partition=0 > "$tmp/rec-plan" 2> "$tmp/err" ||
	fail "recover plan: exit $?: $(cat "$tmp/err")"
amdx -j recover run "$id" partition=0 --yes < /dev/null > "$tmp/rec-run" 2> "$tmp/err" ||
	fail "recover run --yes: exit $?: $(cat "$tmp/err")"
amdx -j recover plan "$id" partition=0 > "$tmp/rec-after" 2> "$tmp/err" ||
	fail "recover plan after the run: exit $?: $(cat "$tmp/err")"
amdx recover run "$id" partition=0 --yes < /dev/null > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "recover run with nothing pending: exit $rc: $(cat "$tmp/err")"
has "$(cat "$tmp/err")" "*nothing pending*" || fail "nothing pending: stderr: $(cat "$tmp/err")"
amdx recover run "$id" --action node --yes < /dev/null > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" = 7 ] || fail "recover run --action node: exit $rc: $(cat "$tmp/err")"
# One jq: a line per broken expectation.
jq -rs '(.[0].plan) as $p | (.[1].run) as $r | (.[2].plan) as $a |
	([$r.steps[].step]) as $s |
	(if [$p.action, $p.state, $p.fault] != ["queue", "pending", "queue_hang"]
	 then "plan: \([$p.action, $p.state, $p.fault])" else empty end),
	(if [$p.reset_devices, $p.num_partitions, $p.partition] != [[], 0, 0]
	 then "plan scope: \([$p.reset_devices, $p.num_partitions, $p.partition])"
	 else empty end),
	(if [$r.action, $r.outcome, $r.result, $r.pending_after] !=
	    ["queue", "cleared", "ok", "none"]
	 then "run: \([$r.action, $r.outcome, $r.result, $r.pending_after])"
	 else empty end),
	(if ($s | index("ran")) == null or ($s | index("self_test")) == null or
	    ($s | index("cleared")) == null or
	    ($s | index("ran")) > ($s | index("self_test")) or
	    ($s | index("self_test")) > ($s | index("cleared"))
	 then "steps: \($s)" else empty end),
	(if [$a.action, $a.state] != ["none", "none"]
	 then "after: \([$a.action, $a.state])" else empty end)' \
	"$tmp/rec-plan" "$tmp/rec-run" "$tmp/rec-after" > "$tmp/jq" 2>&1
[ ! -s "$tmp/jq" ] || fail "recover: $(cat "$tmp/jq")"
result recover_plan_then_run

# 28: a fabric fault of a hive of two: run without --yes (and no
# terminal) prints the plan, names the other device it resets and runs
# nothing (exit 2); with --yes it resets both and clears.  Then 27's and
# this JSON against amdx-recover.schema.json.
echo "$HIVE model=mi308x vram=1024 hive=ffff0001" > "$SIM/new_device" ||
	fail "new_device $HIVE failed"
idh=$(amdx_id "$HIVE") || fail "sim id $HIVE: no class device"
id=$(id_of "$S2")
# an xgmi UE: the ladder's device reset, then the hive's reset pending
amdx ras inject "$id" --block xgmi_wafl --type ue > /dev/null ||
	fail "the fabric fault not reported"
amdx recover run "$id" < /dev/null > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" = 2 ] || fail "recover run of a hive without --yes: exit $rc: $(cat "$tmp/err")"
has "$(cat "$tmp/out")" "plan:" || fail "no plan printed: $(cat "$tmp/out")"
has "$(cat "$tmp/err")" "*: hive; it also resets devices $idh (the hive or switch)*pass --yes to proceed" ||
	fail "stderr: $(cat "$tmp/err")"
amdx -j recover run "$id" --yes < /dev/null > "$tmp/rec-hive" 2> "$tmp/err" ||
	fail "recover run of a hive --yes: exit $?: $(cat "$tmp/err")"
jq -r --argjson ids "[$id, $idh]" '.run |
	if [.action, (.reset_devices | sort), .outcome, .pending_after] !=
	   ["hive", ($ids | sort), "cleared", "none"]
	then "hive run: \([.action, .reset_devices, .outcome, .pending_after])"
	else empty end' "$tmp/rec-hive" > "$tmp/jq" 2>&1
[ ! -s "$tmp/jq" ] || fail "$(cat "$tmp/jq")"
echo "$HIVE" > "$SIM/del_device" || fail "del_device $HIVE failed"
if [ -f "$SCHEMA_DIR/amdx-recover.schema.json" ]; then
	for f in rec-plan rec-run rec-after rec-hive; do
		[ ! -s "$tmp/$f" ] || schema_case recover "$tmp/$f"
	done
	problems=$(schema_check)
	[ -z "$problems" ] || fail "recover output breaks its schema: $problems"
else
	fail "no $SCHEMA_DIR/amdx-recover.schema.json (selftests/Makefile installs it)"
fi
result recover_hive_needs_yes

# 29: a removed device is gone from list and show
s=$S1
id=$(id_of "$s")
echo "$s" > "$SIM/del_device" || fail "del_device $s failed"
amdx -j dev list | jq -e --argjson id "$id" \
	'all(.devices[]; .device != $id)' > /dev/null ||
	fail "removed id $id still listed"
expect_error 4 "no such device: $id" amdx dev show "$id"
expect_error 4 "no such device: $(sim_bdf "$s")" amdx dev show "$(sim_bdf "$s")"
result removed_device_gone

# 30: clean up; nothing of ours is left
for s in $S0 $S2; do
	echo "$s" > "$SIM/del_device" || fail "del_device $s failed"
done
amdx -j dev list > "$tmp/list" || fail "amdx -j dev list: exit $?"
# One jq: "listed: BDF" for each of ours still listed, "count: N".
bdfs=
for s in $IDS; do
	bdfs="$bdfs $(sim_bdf "$s")"
done
jq -r --arg bdfs "$bdfs" '($bdfs | split(" ") | map(select(length > 0))) as $ours |
	(.devices[] | select(.bdf | IN($ours[])) | "listed: \(.bdf)"),
	"count: \(.devices | length)"' "$tmp/list" > "$tmp/jq" 2>&1
for s in $IDS; do
	bdf=$(sim_bdf "$s")
	case "
$(jq_lines listed)
" in
	*"
$bdf
"*) fail "sim id $s still listed" ;;
	esac
done
got=$(jq_lines count)
count_devices
[ "$got" = "$ndev" ] || fail "dev list has $got devices, sysfs $ndev"
result remove_sim_devices

ktap_exit
