#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fleet commands against simulated devices: `amdx exporter` output
# checked by promtool (Debian's prometheus; skipped if the initramfs has
# none) and jq after RAS errors injected through the CLI, in textfile mode
# and over HTTP on loopback; `amdx health` verdicts reached from injected
# faults and cleared by their rules, on the journal amdx-eventd keeps,
# across a kill -9 and restart of the daemon; one collection over a fleet
# host's 64 devices with VFs is complete.  amdx_fleet_sched_test.sh has
# `amdx partition export`.  busybox sh; prints KTAP.
#
# Its sim ids are the blocks "fleet" and "fleet_host" (the 64 devices of
# one fleet host) of lib/amdx_sim_ids.def.

. "${0%/*}/lib/ktap.sh"
. "${0%/*}/lib/sim.sh"
NTESTS=12
mon=
sim_block fleet_host || exit 1
HOST=$SIM_FIRST
HOST_LAST=$((SIM_FIRST + SIM_COUNT - 1))
sim_block fleet || exit 1
FLEET=$(seq $SIM_FIRST $((SIM_FIRST + SIM_COUNT - 1)))
S_EXP=$SIM_FIRST		# the exporter's device
S_HEALTH=$((SIM_FIRST + 4))	# amdx health's device
S_HTTP=$((SIM_FIRST + 6))	# the exporter over HTTP
S_LA=$((SIM_FIRST + 1))		# a hive of two: the fabric case
S_LB=$((SIM_FIRST + 2))
stop_monitor() {
	[ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
	mon=
}
cleanup() {
	stop_monitor
	for s in $FLEET $(seq $HOST $HOST_LAST); do del_dev $s; done
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
have_promtool=0
command -v promtool > /dev/null && have_promtool=1

# promtool_check FILE: promtool accepts it (when the initramfs has promtool).
promtool_check() {
	[ $have_promtool = 1 ] || return 0
	promtool check metrics < "$1" > "$tmp/promtool.out" 2>&1 ||
		fail "promtool check metrics: $(cat "$tmp/promtool.out")"
}
# sample FILE FAMILY DEV LABELS: the value of FAMILY's series of device DEV
# whose labels contain LABELS (a literal fragment such as 'block="umc"').
# Builtins only: four processes per sample cost about 1.5 s under TCG.
sample() {
	while IFS= read -r _l; do
		case $_l in
		"$2{"*"device=\"$3\""*) ;;
		*) continue ;;
		esac
		case $_l in
		*"$4"*) echo "${_l##* }" ;;
		esac
	done < "$1"
}

# exporter_url OUT PID: the URL `amdx exporter --listen` (PID, stdout in
# OUT) says it serves, once it says so; empty if it exited first.  60 s is
# a stall bound, not a speed bound: a loaded TCG guest takes seconds.
exporter_url() {
	_i=0
	until grep -q 'serving http' "$1" 2> /dev/null; do
		{ kill -0 "$2" 2> /dev/null && [ $_i -lt 600 ]; } || break
		sleep 0.1
		_i=$((_i + 1))
	done
	sed -n 's/^amdx exporter: serving //p' "$1"
}

# scrape_seq URL OUT DEV SEQ: /metrics into OUT once the exporter at URL
# has received device DEV's records up to SEQ (amdx_events_last_seq).  It
# follows events every 200 ms; the bound only ends a wait that never would
# (a record the exporter lost), as in exporter_url.
scrape_seq() {
	_i=0
	while wget -q -O "$2" "$1" || { fail "wget $1"; return 1; }; do
		_s=$(sample "$2" amdx_events_last_seq "$3" '')
		[ "${_s:-0}" -ge "$4" ] && return 0
		[ $_i -ge 600 ] && { fail "exporter: last seq '$_s', never $4"; return 1; }
		_i=$((_i + 1))
		sleep 0.2
	done
}

# ---- exporter

new_dev $S_EXP model=mi300x
id=$(amdx_id $S_EXP) || fail "sim $S_EXP has no amdx device"
amdx ras inject "$id" --block umc --type ce --count 5 --address 0x200000 > /dev/null ||
	fail "ras inject umc ce"
amdx ras inject "$id" --block gfx --type ce --instance 3 --count 2 > /dev/null ||
	fail "ras inject gfx ce"
if amdx exporter --textfile "$tmp/amdx.prom" 2> "$tmp/err"; then
	promtool_check "$tmp/amdx.prom"
	v=$(sample "$tmp/amdx.prom" amdx_ras_errors_total "$id" 'block="umc",type="ce"')
	[ "$v" = 5 ] || fail "umc ce total '$v', expected 5"
	v=$(sample "$tmp/amdx.prom" amdx_ras_errors_total "$id" 'block="gfx",type="ce"')
	[ "$v" = 2 ] || fail "gfx ce total '$v', expected 2"
	grep -q '^# TYPE amdx_ras_errors_total counter$' "$tmp/amdx.prom" ||
		fail "amdx_ras_errors_total is not a counter"
	grep -q '^amdx_up{.*} 1$' "$tmp/amdx.prom" || fail "amdx_up is not 1"
	for f in "$tmp"/amdx.prom.tmp*; do
		[ -e "$f" ] && fail "temporary file left behind: $f"
	done
	diag "$(grep -c '^amdx_' "$tmp/amdx.prom") series, $(grep '^amdx_exporter_collect_duration_seconds' "$tmp/amdx.prom")"
else
	fail "amdx exporter: exit $?: $(cat "$tmp/err")"
fi
result "exporter textfile: injected errors as counters, promtool clean (promtool: $have_promtool)"

# Over HTTP on loopback, scraped with busybox wget.  It serves for
# --iterations x 1 s, killed below once scraped: long enough for a host
# loaded tenfold (promtool alone then takes tens of seconds).
ip link set lo up 2> /dev/null || ifconfig lo 127.0.0.1 up 2> /dev/null
amdx exporter --listen 127.0.0.1:0 --iterations 300 > "$tmp/listen.out" 2> "$tmp/listen.err" &
exp=$!
url=$(exporter_url "$tmp/listen.out" $exp)
if [ -z "$url" ]; then
	fail "exporter --listen did not start: $(cat "$tmp/listen.err")"
elif ! wget -q -O "$tmp/http.prom" "$url"; then
	fail "wget $url failed"
else
	promtool_check "$tmp/http.prom"
	v=$(sample "$tmp/http.prom" amdx_ras_errors_total "$id" 'block="umc",type="ce"')
	[ "$v" = 5 ] || fail "HTTP: umc ce total '$v', expected 5"
	# A later error shows in the next scrape: collected per scrape; the
	# event counters once the exporter's event thread has its record.
	s=$(amdx -j ras inject "$id" --block umc --type ce --count 1 --address 0x400000 |
		jq .inject.seq)
	scrape_seq "$url" "$tmp/http2.prom" "$id" "${s:-1}"
	v=$(sample "$tmp/http2.prom" amdx_ras_errors_total "$id" 'block="umc",type="ce"')
	[ "$v" = 6 ] || fail "HTTP second scrape: umc ce total '$v', expected 6"
	v=$(sample "$tmp/http2.prom" amdx_events_total "$id" 'kind="error"')
	[ "$v" = 1 ] || fail "HTTP: events seen by the exporter '$v', expected 1"
fi
kill $exp 2> /dev/null
wait $exp 2> /dev/null
result "exporter --listen: /metrics per scrape, event counters"
del_dev $S_EXP

# The kernel's device counters (AMDX_QUERY_STATS) in a one-shot textfile
# run: a commit, two FLRs and (with HMM) a migration to VRAM and the CPU
# faults that bring it home, each counted exactly once.
new_dev $S_HTTP model=mi300x vram=1024
id=$(amdx_id $S_HTTP) || fail "sim $S_HTTP has no amdx device"
amdx partition set "$id" --compute dpx > /dev/null || fail "partition set dpx"
amdx partition set "$id" --compute tpx > /dev/null 2>&1 && fail "partition set tpx succeeded"
amdx vf enable "$id" 2 > /dev/null || fail "vf enable 2"
amdx vf reset "$id" 0 > /dev/null || fail "vf reset 0"
amdx vf reset "$id" 1 > /dev/null || fail "vf reset 1"
amdx vf disable "$id" > /dev/null || fail "vf disable"
hmm=0
amdx hmm demo "$id" size=1M > /dev/null 2>&1 && hmm=1
if amdx exporter --textfile "$tmp/stats.prom" 2> "$tmp/err"; then
	promtool_check "$tmp/stats.prom"
	grep -q '^# TYPE amdx_partition_commits_total counter$' "$tmp/stats.prom" ||
		fail "amdx_partition_commits_total is not a counter"
	v=$(sample "$tmp/stats.prom" amdx_partition_commits_total "$id" 'outcome="committed"')
	[ "$v" = 1 ] || fail "commits committed '$v', expected 1"
	v=$(sample "$tmp/stats.prom" amdx_partition_commits_total "$id" 'outcome="refused"')
	[ "$v" = 1 ] || fail "commits refused '$v', expected 1"
	v=$(sample "$tmp/stats.prom" amdx_vf_flrs_total "$id" '')
	[ "$v" = 2 ] || fail "FLRs '$v', expected 2"
	v=$(sample "$tmp/stats.prom" amdx_events_emitted_total "$id" '')
	[ "${v:-0}" -gt 0 ] || fail "events emitted '$v', expected some"
	if [ $hmm = 1 ]; then
		v=$(sample "$tmp/stats.prom" amdx_hmm_migrations_total "$id" 'direction="to_vram",cause="migrate"')
		[ "$v" = 1 ] || fail "migrations to VRAM '$v', expected 1"
		v=$(sample "$tmp/stats.prom" amdx_hmm_migrated_bytes_total "$id" 'direction="to_vram",cause="migrate"')
		[ "$v" = 1.048576e+06 ] || [ "$v" = 1048576 ] || fail "bytes to VRAM '$v', expected 1 MiB"
		v=$(sample "$tmp/stats.prom" amdx_hmm_migrated_bytes_total "$id" 'direction="to_system",cause="cpu_fault"')
		[ "$v" = 1.048576e+06 ] || [ "$v" = 1048576 ] || fail "bytes home by CPU faults '$v', expected 1 MiB"
	fi
else
	fail "amdx exporter: exit $?: $(cat "$tmp/err")"
fi
result "exporter textfile: the kernel's counters of commits, FLRs, migrations (hmm: $hmm), promtool clean"
del_dev $S_HTTP

# A fleet host: 64 devices, 2 of them in CPX with 8 VFs (8 x 256 MiB, GIM's
# smallest VF quota), 2 in SPX with 1 VF, 60 in SPX without (the
# simulator's smallest VRAM: creating a device and each CLI call cost the
# debug kernel most of this test's time).  One collection must hold every
# device's series: its info, each partition's state and each VF's state,
# as many as the kernel lists, and promtool accepts it.  (Its cost is a
# benchmark's: make bench, 64 devices with 8 VFs each, metrics.rst.)
: > "$tmp/fleet.want"
for i in $(seq 0 63); do
	s=$((HOST + i))
	case $i in
	0 | 1) new_dev $s model=mi300x vram=2048 || break ;;
	2 | 3) new_dev $s model=mi300x vram=256 || break ;;
	*) new_dev $s model=mi300x vram=64 || break ;;
	esac
	d=$(amdx_id $s) || { fail "sim $s has no amdx device"; break; }
	case $i in
	0 | 1)
		amdx partition set "$d" --compute cpx > /dev/null || fail "device $d to CPX"
		amdx vf enable "$d" 8 > /dev/null || fail "device $d: vf enable 8"
		echo "$d 8 8" >> "$tmp/fleet.want"
		;;
	2 | 3)
		amdx vf enable "$d" 1 > /dev/null || fail "device $d: vf enable 1"
		echo "$d 1 1" >> "$tmp/fleet.want"
		;;
	*) echo "$d 1 0" >> "$tmp/fleet.want" ;;
	esac
done
if [ "$(wc -l < "$tmp/fleet.want")" != 64 ]; then
	fail "created $(wc -l < "$tmp/fleet.want") of 64 devices"
elif amdx exporter --textfile "$tmp/fleet.prom" 2> "$tmp/err"; then
	promtool_check "$tmp/fleet.prom"
	grep -q '^amdx_exporter_devices{.*} 64$' "$tmp/fleet.prom" ||
		fail "amdx_exporter_devices: $(grep '^amdx_exporter_devices' "$tmp/fleet.prom")"
	# Per device: "ID INFO PARTITIONS VFS" as the exposition has them,
	# partitions and VFs counted by their state="online" series.
	awk '
	function dev(l) { sub(/.*device="/, "", l); sub(/".*/, "", l); return l }
	/^amdx_device_info\{/ { info[dev($0)]++ }
	/^amdx_partition_state\{.*state="online"/ { parts[dev($0)]++ }
	/^amdx_vf_state\{.*state="online"/ { vfs[dev($0)]++ }
	END { for (d in info) print d, info[d], parts[d] + 0, vfs[d] + 0 }' \
		"$tmp/fleet.prom" | sort -n > "$tmp/fleet.got"
	# The kernel's view of the same devices, and what was asked of it.
	amdx -j partition show all > "$tmp/fleet.p"
	amdx -j vf show all > "$tmp/fleet.v"
	jq -r -n --slurpfile p "$tmp/fleet.p" --slurpfile v "$tmp/fleet.v" '
		($v[0].devices | map({key: (.device | tostring), value: (.vfs | length)}) |
		 from_entries) as $vfs |
		$p[0].devices[] | "\(.device) 1 \(.partitions | length) \($vfs[.device | tostring])"' |
		sort -n > "$tmp/fleet.kernel"
	awk '{ print $1, 1, $2, $3 }' "$tmp/fleet.want" | sort -n > "$tmp/fleet.exp"
	cmp -s "$tmp/fleet.exp" "$tmp/fleet.kernel" ||
		fail "the kernel lists (id 1 partitions vfs): $(diff "$tmp/fleet.exp" "$tmp/fleet.kernel" | grep '^[-+][0-9]' | head -n 5)"
	cmp -s "$tmp/fleet.exp" "$tmp/fleet.got" ||
		fail "series per device (id info partitions vfs) differ: $(diff "$tmp/fleet.exp" "$tmp/fleet.got" | grep '^[-+][0-9]' | head -n 5)"
	diag "64 devices: $(grep -c '^amdx_' "$tmp/fleet.prom") series, $(wc -c < "$tmp/fleet.prom") bytes, $(grep '^amdx_exporter_collect_duration_seconds' "$tmp/fleet.prom")"
else
	fail "amdx exporter: exit $?: $(cat "$tmp/err")"
fi
result "exporter textfile: 64 devices, every device's partitions and VFs, promtool clean"
for s in $(seq $HOST $HOST_LAST); do del_dev $s; done

# ---- health

# health_is EXPECTED_EXIT EXPECTED_STATUS ARGS...: runs `amdx -j health`.
health_is() {
	want_rc=$1 want=$2
	shift 2
	amdx -j health --journal "$tmp/journal" "$@" > "$tmp/health.json"
	rc=$?
	st=$(jq -r .status "$tmp/health.json")
	[ "$rc" = "$want_rc" ] && [ "$st" = "$want" ] ||
		fail "health $*: exit $rc status '$st', expected $want_rc '$want': $(cat "$tmp/health.json")"
}

new_dev $S_HEALTH model=mi300x
d=$(amdx_id $S_HEALTH)
amdx partition set "$d" --compute cpx > /dev/null || fail "to CPX"
: > "$tmp/journal"
health_is 0 healthy "$d"
line=$(amdx health "$d" --journal "$tmp/journal")
[ "$line" = "amdx health: healthy: 1 devices healthy" ] || fail "text: '$line'"
result "health: a new device is healthy (exit 0, one line)"

# The journal: amdx-eventd's (or, if the initramfs has none, the same
# lines from `amdx -j monitor`), once it has subscribed: eventd says so on
# standard output, monitor holds an event fd.  The bound (600 polls) only
# ends a wait that never would, as in exporter_url.
start_journal() {
	_i=0
	if command -v amdx-eventd > /dev/null; then
		amdx-eventd --journal "$tmp/journal" --no-sync > "$tmp/eventd.out" &
		mon=$!
		until grep -q '^amdx-eventd: journaling to' "$tmp/eventd.out" 2> /dev/null; do
			{ kill -0 $mon 2> /dev/null && [ $_i -lt 600 ]; } ||
				{ fail "amdx-eventd did not start"; return 1; }
			sleep 0.1
			_i=$((_i + 1))
		done
	else
		amdx -j monitor "$d" >> "$tmp/journal" &
		mon=$!
		until ls -l /proc/$mon/fd 2> /dev/null | grep -q 'amdx_event'; do
			{ kill -0 $mon 2> /dev/null && [ $_i -lt 600 ]; } ||
				{ fail "amdx monitor did not subscribe"; return 1; }
			sleep 0.1
			_i=$((_i + 1))
		done
	fi
}
# journal_has DEV FRAGMENT: a record of device DEV in the journal has
# FRAGMENT ('"seq":5,', '"kind":"partition_offline"'); builtins only.
journal_has() {
	while IFS= read -r _l; do
		case $_l in
		*"\"device\":$1,"*"$2"*) return 0 ;;
		esac
	done < "$tmp/journal"
	return 1
}
# journal_wait DEV FRAGMENT: until journal_has DEV FRAGMENT, while the
# journal's writer runs (the bound as in start_journal).
journal_wait() {
	_i=0
	until journal_has "$1" "$2"; do
		{ kill -0 $mon 2> /dev/null && [ $_i -lt 600 ]; } ||
			{ fail "journal: no record of device $1 with $2"; return 1; }
		sleep 0.1
		_i=$((_i + 1))
	done
}
start_journal
seq=$(amdx -j ras inject "$d" --block gfx --type ue --instance 1 | jq .inject.seq)
# The UE's chain ends with the partition reset's ACTION_END (ras.rst).
journal_wait "$d" '"kind":"action_end"'
health_is 0 degraded "$d"
# One jq: "SEQ FINDING" of partition 1's first finding.
p1=$(jq -r '.devices[0].partitions[1].findings[0] // {} | "\(.seq) \(tojson)"' "$tmp/health.json")
case ${p1#* } in
*'contained by partition_reset'*) ;;
*) fail "partition 1: ${p1#* }" ;;
esac
[ "${p1%% *}" = "$seq" ] || fail "partition 1 finding rests on seq ${p1%% *}, the UE was $seq"
health_is 1 degraded "$d" --strict
# Stale once older than --ue-age (0: at once; the age arithmetic is
# fleet_test.cpp's, on a set clock).
health_is 0 healthy "$d" --ue-age 0
result "health: a contained UE degrades its partition; stale after --ue-age, healthy again"

amdx ras inject "$d" --block gfx --type ue --instance 1 > /dev/null
amdx ras inject "$d" --block gfx --type ue --instance 1 > /dev/null
journal_wait "$d" '"kind":"partition_offline"'
health_is 1 unhealthy "$d"
# One jq: "P0_VERDICT JOURNAL_OFFLINE_SEQ FINDING_SEQ FINDING" (partition
# 1's first finding; the journal's first partition_offline record).
v=$(jq -r -n --slurpfile h "$tmp/health.json" --slurpfile j "$tmp/journal" '
	$h[0].devices[0] as $dv | $dv.partitions[1].findings[0] as $f |
	"\($dv.partitions[0].verdict) \([$j[] | select(.kind == "partition_offline")][0].seq) \($f.seq) \($f | tojson)"')
p0=${v%% *}
v=${v#* }
off=${v%% *}
v=${v#* }
fseq=${v%% *}
f=${v#* }
case $f in
*'"cause":"offline after '*) ;;
*) fail "partition 1: $f" ;;
esac
[ "$fseq" = "$off" ] || fail "offline finding seq $fseq, journal $off"
[ "$p0" = healthy ] || fail "partition 0 not healthy"
line=$(amdx health "$d" --journal "$tmp/journal")
rc=$?
[ $rc = 1 ] && echo "$line" | grep -q "^amdx health: unhealthy: device $d partition 1 unhealthy: offline" ||
	fail "text exit $rc: '$line'"
result "health: the reset limit leaves partition 1 offline: unhealthy (exit 1), on the offline record"

# amdx-eventd killed and restarted: the records emitted meanwhile are gone
# for any new subscriber; the restarted daemon journals their range as one
# LOST record, so the device's seqs stay contiguous in the journal.
if command -v amdx-eventd > /dev/null; then
	kill -9 $mon
	wait $mon 2> /dev/null
	s1=$(amdx -j ras inject "$d" --block umc --type ce --address 0x500000 | jq .inject.seq)
	s2=$(amdx -j ras inject "$d" --block umc --type ce --address 0x600000 | jq .inject.seq)
	start_journal
	s3=$(amdx -j ras inject "$d" --block umc --type ce --address 0x700000 | jq .inject.seq)
	journal_wait "$d" "\"seq\":$s3,"
	# One jq, three lines: device d's LOST records ("SOURCE SEQ LAST_SEQ
	# MISSED", ";" between), the seqs where its records are not
	# contiguous, whether record s3 (the only one) has the schema fields.
	jq -r -s --argjson d "$d" --argjson s "$s3" '[.[] | select(.device == $d)] |
		([.[] | select(.kind == "lost") | "\(.source) \(.seq) \(.last_seq) \(.missed)"] |
		 join(";")),
		([.[] | {s: .seq, e: (if .kind == "lost" then .last_seq else .seq end)}] |
		 [range(1; length) as $i | select(.[$i].s != .[$i - 1].e + 1) | .[$i].s] | tojson),
		([.[] | select(.seq == $s) | .schema_version == 1 and (.boot_id | length) == 36 and
		  .realtime_ns > 0] | tojson)' "$tmp/journal" > "$tmp/restart" 2>&1
	{ read -r lost; read -r gaps; read -r schema; } < "$tmp/restart"
	[ "$lost" = "eventd $s1 $s2 2" ] ||
		fail "LOST after restart '$lost', expected seqs $s1..$s2 (next $s3)"
	[ "$gaps" = "[]" ] || fail "journal seqs of device $d not contiguous at $gaps"
	[ "$schema" = "[true]" ] || fail "record $s3 lacks schema fields: $(cat "$tmp/restart")"
	result "eventd: kill -9 and restart: the gap is one LOST record, seqs contiguous"
else
	skip "eventd: kill -9 and restart" "amdx-eventd not in the initramfs"
fi
stop_monitor

# Re-created, the device is healthy although the journal still holds its
# old fatal records: the kernel's state decides, stale records do not.
del_dev $S_HEALTH
new_dev $S_HEALTH model=mi300x
d2=$(amdx_id $S_HEALTH)
# Its old partition_offline record no longer counts (the state is online),
# nor its old UEs once --ue-age passed without a repeat (0: at once).
health_is 0 healthy "$d2" --ue-age 0
result "health: a re-created device is healthy despite old fatal records in the journal"

# RMA: bad-page threshold 1, one UE on a VRAM page.
amdx ras policy set "$d2" --bad-page-threshold 1 > /dev/null || fail "policy set"
amdx ras inject "$d2" --block umc --type ue --address 0x300000 > /dev/null || fail "umc ue"
health_is 1 unhealthy "$d2"
jq -r '.devices[0].findings[0].cause' "$tmp/health.json" | grep -q '^flagged for return' ||
	fail "no RMA finding: $(cat "$tmp/health.json")"
result "health: a device flagged for return is unhealthy"
del_dev $S_HEALTH

# ---- recovery: health and the exporter follow one fault's pending action
# through the whole cycle (ras.rst, "Recovery actions"): injected (a
# hung queue of partition 1 on a device without queue resets, found by the
# simulator's job timeout and reported through the provider API: a
# partition reset, nothing runs by itself), planned (`amdx recover
# plan` changes nothing), run (`amdx recover run --yes` with the
# simulator's self-test failing: escalated to a device reset, pending),
# cleared (run again, the self-test passes).  Per stage one scrape of a
# listening exporter (amdx_recoveries_total counts the SELFTEST records it
# received: a run's stage waits until it has the run's last record) and
# one `amdx -j health`.
# (no queue reset declared: a hung queue costs its partition)
new_dev $S_HEALTH model=mi300x resets=partition,vf,device
d=$(amdx_id $S_HEALTH)
amdx partition set "$d" --compute cpx > /dev/null || fail "to CPX"
rf=/sys/kernel/debug/amdx_sim/$S_HEALTH/hang_queue
knob=/sys/kernel/debug/amdx_sim/$S_HEALTH/fail_self_test
# rec_scrape SEQ: /metrics once the exporter has received device d's
# records up to SEQ.  It follows events every 200 ms; the bound only ends
# a wait that never would (a record the exporter lost).
rec_scrape() {
	scrape_seq "$url" "$tmp/rec.prom" "$d" "$1"
}
# rec_is STAGE ACTION STATE ESCALATED CLEARED HEALTH: partition 1's
# amdx_recovery_action series has ACTION and STATE; amdx_recoveries_total
# counted ESCALATED partition resets and CLEARED device resets; `amdx -j
# health` says HEALTH: "EXIT STATUS DEVICE P1 P1_ACTIONS P0" (verdicts; P1's
# findings' actions, - for none).
rec_is() {
	v=$(sample "$tmp/rec.prom" amdx_recovery_action "$d" "partition=\"1\",action=\"$2\",state=\"$3\"")
	[ "$v" = 1 ] || fail "$1: partition 1 not $2/$3: $(grep "^amdx_recovery_action{.*device=\"$d\".*partition=\"1\"" "$tmp/rec.prom")"
	v=$(sample "$tmp/rec.prom" amdx_recoveries_total "$d" 'action="partition",outcome="escalated"')
	[ "$v" = "$4" ] || fail "$1: partition resets escalated '$v', expected $4"
	v=$(sample "$tmp/rec.prom" amdx_recoveries_total "$d" 'action="device",outcome="cleared"')
	[ "$v" = "$5" ] || fail "$1: device resets cleared '$v', expected $5"
	amdx -j health --journal "$tmp/journal" "$d" > "$tmp/health.json"
	v=$?
	v="$v $(jq -r '.devices[0] as $d | [.status, $d.verdict, $d.partitions[1].verdict,
		([$d.partitions[1].findings[].action // empty] | join(",") |
		 if . == "" then "-" else . end), $d.partitions[0].verdict] | join(" ")' \
		"$tmp/health.json")"
	[ "$v" = "$6" ] || fail "$1: health '$v', expected '$6': $(cat "$tmp/health.json")"
}
# rec_run STAGE FAIL WANT ACTION STATE ESCALATED CLEARED HEALTH: with the
# simulator's fail_self_test FAIL, `amdx recover run` of partition 1 ends
# as WANT ("EXIT OUTCOME PENDING_AFTER"); then, once the exporter has its
# last step, rec_is STAGE ACTION .. HEALTH.
rec_run() {
	echo "$2" > "$knob" || fail "fail_self_test $2"
	amdx -j recover run "$d" partition=1 --yes < /dev/null > "$tmp/run.json"
	v="$? $(jq -r '.run | "\(.outcome) \(.pending_after) \(.steps[-1].seq)"' "$tmp/run.json")"
	[ "${v% *}" = "$3" ] || fail "$1: recover run '$v': $(cat "$tmp/run.json")"
	_stage=$1
	shift 3
	rec_scrape "${v##* }" && rec_is "$_stage" "$@"
}
if [ ! -w "$rf" ] || [ ! -w "$knob" ]; then
	skip "recovery: health and exporter follow an action: injected, planned, run, cleared" "no $rf or $knob"
else
	: > "$tmp/journal"
	amdx exporter --listen 127.0.0.1:0 --iterations 600 > "$tmp/rec.out" 2> "$tmp/rec.err" &
	exp=$!
	url=$(exporter_url "$tmp/rec.out" $exp)
	[ -n "$url" ] || fail "exporter --listen did not start: $(cat "$tmp/rec.err")"
	# XCC 1's queue hangs (partition 1 in CPX): the simulator's job
	# timeout finds it
	sim_hang $S_HEALTH hang_queue 1 partition=1 || fail "hang_queue: partition 1's queue hang not detected"
	rec_scrape 0 && rec_is injected partition pending 0 0 \
		"1 unhealthy unhealthy unhealthy partition healthy"
	v=$(amdx -j recover plan "$d" partition=1 | jq -r '.plan | "\(.action) \(.state) \(.num_devices) \(.num_partitions)"')
	[ "$v" = "partition pending 0 1" ] || fail "plan: '$v'"
	rec_scrape 0 && rec_is planned partition pending 0 0 \
		"1 unhealthy unhealthy unhealthy partition healthy"
	rec_run run 1 "1 escalated device" device pending 1 0 \
		"1 unhealthy unhealthy unhealthy device healthy"
	rec_run cleared 0 "0 cleared none" none none 1 1 \
		"0 healthy healthy healthy - healthy"
	kill $exp 2> /dev/null
	wait $exp 2> /dev/null
	result "recovery: health and exporter follow an action: injected, planned, run, cleared"
fi
del_dev $S_HEALTH

# ---- fabric: a link that is not up degrades health at both ends, naming
# the link, and the exporter's amdx_link_state says its state; up again,
# both clear (fabric.rst).  A width drop on a hive of two: it changes the
# state at once both ways, with no hold to wait out.
lf=/sys/kernel/debug/amdx_sim/link_fault
new_dev $S_LA model=mi300x vram=64 hive=f1e7
new_dev $S_LB model=mi300x vram=64 hive=f1e7
a=$(amdx_id $S_LA)
b=$(amdx_id $S_LB)
# link_is VALUE: the amdx_link_state series of the link a-b.
link_is() {
	amdx exporter --textfile "$tmp/link.prom" || fail "exporter"
	_l=$(grep "^amdx_link_state{.*device_a=\"$a\".*device_b=\"$b\"" "$tmp/link.prom")
	[ "${_l##* }" = "$1" ] || fail "amdx_link_state '$_l', expected $1"
}
if [ ! -w "$lf" ] || [ -z "$a" ] || [ -z "$b" ]; then
	skip "fabric: health and exporter follow a link's state" "no $lf or no hive"
else
	: > "$tmp/journal"
	echo "$S_LA $S_LB width 8" > "$lf" || fail "link_fault width 8"
	link_is 1
	health_is 0 degraded "$a,$b"
	jq -r '.devices[].findings[].cause' "$tmp/health.json" > "$tmp/causes"
	grep -q "^fabric link 0 to device $b degraded (avoid; " "$tmp/causes" &&
		grep -q "^fabric link 0 to device $a degraded (avoid; " "$tmp/causes" ||
		fail "health names not the link at both ends: $(cat "$tmp/health.json")"
	echo "$S_LA $S_LB width 16" > "$lf" || fail "link_fault width 16"
	link_is 0
	health_is 0 healthy "$a,$b"
	result "fabric: health and exporter follow a link's state: degraded naming it, cleared"
fi
del_dev $S_LA
del_dev $S_LB

ktap_exit
