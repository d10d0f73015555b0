#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# `amdx doctor` against the test amdgpu's fake device, in the amdgpu VM
# (amdgpu-guest.sh runs it; amdgpu-check.sh counts its cases as it counts
# a kselftest's).  KTAP on stdout.
#
# The fake is made with sysfs=1: amdgpu's own functions put its sysfs files
# on the fake's device, /sys/devices/amdgpu_amdx_userID, and amdgpu's show
# functions give their values (amdgpu_amdx_fake.c,
# fake_gpu_enable_sysfs()).  Its pdev is on no PCI bus, so there is no
# /sys/bus/pci/devices/BDF; the doctor reads a root of the test's own
# (--sysfs), in tmpfs:
#   link   bus/pci/devices/BDF is a symlink to the fake's device: the
#          files, and no driver link (the device is on no bus, no driver
#          binds it), as a function no driver is bound to
#   bound  bus/pci/devices/BDF is a directory of symlinks to the fake's
#          files, and a driver link to /sys/bus/pci/drivers/amdgpu: what a
#          host's amdgpu-bound function looks like
# What differs from a real host: the driver link.  ras/gpu_vram_bad_pages
# is amdgpu's (amdgpu_ras_fs_init(), made global by the test-only patch),
# over amdgpu's bad-page table; a second fake, made with aca=1 too, has
# amdgpu's UMC 12 and page retirement fill it (retired_pages_agree).
#
# usage: amdgpu-doctor.sh [AMDX]   (AMDX: the CLI, default /usr/bin/amdx)
export PATH=/bin:/usr/bin
amdx=${1:-/usr/bin/amdx}
knob=/sys/kernel/debug/amdgpu_amdx_fake
id=${AMDGPU_DOCTOR_FAKE_ID:-40}
dev=/sys/devices/amdgpu_amdx_user$id
tmp=/tmp/doctor
n=0
rc=0
cases=10

echo "TAP version 13"
echo "1..$cases"
ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n $1"; rc=1; }
diag() { sed 's/^/# /'; }
# run NAME: the "#  RUN" line the host's parser starts a case's context at
run() { echo "#  RUN           doctor.$1 ..."; }
# fake_bdf DEV: the BDF amdx registered the fake of DEV with, or nothing
fake_bdf() {
	for d in /sys/class/amdx/amdx*; do
		[ "$(readlink -f "$d/device")" != "$1" ] || cat "$d/bdf"
	done
}
# bound_root DEV ROOT: ROOT/bus/pci/devices/$bdf a directory of symlinks
# to DEV's files and a driver link to /sys/bus/pci/drivers/amdgpu
bound_root() {
	mkdir -p "$2/bus/pci/devices/$bdf"
	for f in "$1"/*; do
		ln -s "$f" "$2/bus/pci/devices/$bdf/${f##*/}"
	done
	ln -s /sys/bus/pci/drivers/amdgpu "$2/bus/pci/devices/$bdf/driver"
}
# verdicts JSON: "check=verdict" per check of `amdx -j doctor`, one line
verdicts() { jq -r '[.doctor.checks[] | "\(.check)=\(.verdict)"] | join(" ")' "$1"; }
# field JSON CHECK KEY: one check's amdx, amdgpu or detail
field() { jq -r --arg c "$2" --arg k "$3" '.doctor.checks[] | select(.check == $c) | .[$k]' "$1"; }
# doctor ROOT OUT [ARG...]: `amdx -j doctor BDF --sysfs ROOT`, JSON in OUT;
# its exit status in $doc_rc, its stderr in OUT.err
doctor() {
	root=$1 out=$2
	shift 2
	"$amdx" -j doctor "$bdf" --sysfs "$root" "$@" > "$out" 2> "$out.err"
	doc_rc=$?
}
# expect NAME WANT GOT: a case, with both sides when they differ
expect() {
	if [ "$2" = "$3" ]; then
		ok "doctor.$1"
	else
		{ echo "want: $2"; echo "got:  $3"; } | diag
		not_ok "doctor.$1"
	fi
}

rm -rf "$tmp" && mkdir -p "$tmp"
bdf=
run fake_has_amdgpus_files
if ! [ -x "$amdx" ] || ! command -v jq > /dev/null; then
	echo "no $amdx or jq in the guest" | diag
elif ! echo "$id sysfs=1" > "$knob/new_device"; then
	echo "new_device '$id sysfs=1' failed" | diag
	dmesg | tail -n 5 | diag
else
	bdf=$(fake_bdf "$dev")
fi
# amdgpu's files the doctor reads, present
files="serial_number product_name current_compute_partition
current_memory_partition ras/gfx_err_count ras/gpu_vram_bad_pages"
missing=
for f in $files; do
	[ -n "$bdf" ] && [ -f "$dev/$f" ] || missing="$missing $f"
done
if [ -z "$bdf" ] || [ -n "$missing" ]; then
	echo "fake $id (${bdf:-no amdx device}) at $dev: missing$missing" | diag
	ls -l "$dev" "$dev/ras" 2>&1 | diag
	not_ok "doctor.fake_has_amdgpus_files"
	# Nothing else can run: every case left fails.
	while [ $n -lt $cases ]; do not_ok "doctor.not_run"; done
	echo "$id" > "$knob/del_device" 2> /dev/null
	exit 1
fi
{
	echo "fake $id: $bdf, $dev"
	for f in $files; do echo "$f: $(tr '\n' ' ' < "$dev/$f")"; done
} | diag
ok "doctor.fake_has_amdgpus_files"

# The link root: no driver link.  The doctor checks nothing else of a
# function no driver is bound to, says so, and finds no mismatch.
mkdir -p "$tmp/link/bus/pci/devices"
ln -s "$dev" "$tmp/link/bus/pci/devices/$bdf"
run no_driver_link_is_skipped
doctor "$tmp/link" "$tmp/link.json"
diag < "$tmp/link.json"
expect no_driver_link_is_skipped "0 driver=skipped" \
	"$doc_rc $(verdicts "$tmp/link.json")"

# The bound root.  A fresh fake has no bad page: amdgpu's file is empty.
bound_root "$dev" "$tmp/bound"
b=$tmp/bound/bus/pci/devices/$bdf
all="driver=ok serial=ok product=ok compute_partition=ok memory_partition=ok"
run bound_view_agrees
doctor "$tmp/bound" "$tmp/bound.json"
diag < "$tmp/bound.json"
expect bound_view_agrees \
	"0 $all bad_pages=ok ras_counters=skipped SPX NPS1 0 pages 0 pages" \
	"$doc_rc $(verdicts "$tmp/bound.json") $(field "$tmp/bound.json" compute_partition amdgpu) $(field "$tmp/bound.json" memory_partition amdgpu) $(field "$tmp/bound.json" bad_pages amdx) $(field "$tmp/bound.json" bad_pages amdgpu)"

# The text report: one line per check, and its exit status.
run text_report
"$amdx" doctor "$bdf" --sysfs "$tmp/bound" > "$tmp/text" 2>&1
t_rc=$?
diag < "$tmp/text"
got=$t_rc
for c in driver serial product compute_partition memory_partition bad_pages; do
	grep -q "$c" "$tmp/text" || got="$got, no $c"
done
expect text_report 0 "$got"

# A switch through amdx: amdgpu's file follows it, the doctor agrees.
run after_partition_switch
"$amdx" partition set "$bdf" --compute DPX > "$tmp/set" 2>&1 || diag < "$tmp/set"
doctor "$tmp/bound" "$tmp/dpx.json"
diag < "$tmp/dpx.json"
expect after_partition_switch "0 ok DPX DPX" \
	"$doc_rc $(field "$tmp/dpx.json" compute_partition verdict) $(field "$tmp/dpx.json" compute_partition amdgpu) $(cat "$dev/current_compute_partition")"

# amdgpu's RAS counter file (--ras-counters) after an injected
# correctable gfx error: amdgpu's count is amdx's.
run ras_counters
"$amdx" ras inject "$bdf" --block gfx --type ce > "$tmp/inject" 2>&1 || diag < "$tmp/inject"
doctor "$tmp/bound" "$tmp/ras.json" --ras-counters
diag < "$tmp/ras.json"
expect ras_counters "0 ok ue 0 ce 1 ue 0 ce 1" \
	"$doc_rc $(field "$tmp/ras.json" ras_gfx verdict) $(field "$tmp/ras.json" ras_gfx amdx) $(field "$tmp/ras.json" ras_gfx amdgpu)"

# The doctor fails a view that differs: amdgpu's memory partition file
# where its compute partition file should be.
run detects_a_mismatch
rm "$b/current_compute_partition"
ln -s "$dev/current_memory_partition" "$b/current_compute_partition"
doctor "$tmp/bound" "$tmp/bad.json"
diag < "$tmp/bad.json.err"
expect detects_a_mismatch "1 mismatch NPS1" \
	"$doc_rc $(field "$tmp/bad.json" compute_partition verdict) $(field "$tmp/bad.json" compute_partition amdgpu)"

# Back to SPX, and the fake removed with its files.
run fake_removed
"$amdx" partition set "$bdf" --compute SPX > "$tmp/set" 2>&1 || diag < "$tmp/set"
echo "$id" > "$knob/del_device"
got=
[ ! -e "$dev" ] || got="$dev is still there"
for d in /sys/class/amdx/amdx*; do
	[ "$(cat "$d/bdf" 2>/dev/null)" != "$bdf" ] || got="$got amdx device $bdf is still there"
done
expect fake_removed "" "$got"

# Bad pages amdgpu retired.  A fake with aca=1 too: amdgpu's ACA, UMC 12
# and its page retirement (fake_gpu_enable_retirement()).  A poison (DE)
# injected through amdx at a VRAM address: UMC 12's retirement thread
# retires its row of pages into amdgpu's table, which
# ras/gpu_vram_bad_pages lists, and the provider tells amdx of each
# (amdgpu_amdx_page_retired()).  UMC 12 retires each page's R13 twin too,
# 32 GiB above it: 64 GiB of VRAM, as amdx_ras_test@aca's fakes, so that
# the twins are in the fake's VRAM (with the default 512 MiB amdx is
# told of no twin: out of range).  Fresh, both tables are empty; once the
# thread ran (waited for, up to 60 s), both list the same pages, the
# injected one among them.
run retired_pages_agree
id=$((id + 1))
dev=/sys/devices/amdgpu_amdx_user$id
addr=$((23 * 4096 + 8))
page=$(printf '0x%08x' $((addr >> 12)))
got=
if ! echo "$id aca=1 vram=65536 sysfs=1" > "$knob/new_device"; then
	got="new_device '$id aca=1 vram=65536 sysfs=1' failed"
	dmesg | tail -n 5 | diag
fi
bdf=$(fake_bdf "$dev")
[ -n "$bdf" ] && [ -f "$dev/ras/gpu_vram_bad_pages" ] ||
	got="$got fake $id (${bdf:-no amdx device}): no ras/gpu_vram_bad_pages"
if [ -z "$got" ]; then
	bound_root "$dev" "$tmp/aca"
	b=$tmp/aca/bus/pci/devices/$bdf
	doctor "$tmp/aca" "$tmp/fresh.json"
	diag < "$tmp/fresh.json"
	got="$(field "$tmp/fresh.json" bad_pages verdict) $(field "$tmp/fresh.json" bad_pages amdx) $(field "$tmp/fresh.json" bad_pages amdgpu);"
	"$amdx" ras inject "$bdf" --block umc --type de --address $addr \
		> "$tmp/inject" 2>&1 || diag < "$tmp/inject"
	i=0
	while [ $i -lt 60 ]; do
		doctor "$tmp/aca" "$tmp/retired.json"
		[ "$(field "$tmp/retired.json" bad_pages verdict)" != ok ] ||
			[ "$(field "$tmp/retired.json" bad_pages amdgpu)" = "0 pages" ] ||
			break
		sleep 1
		i=$((i + 1))
	done
	diag < "$tmp/retired.json"
	diag < "$dev/ras/gpu_vram_bad_pages"
	pages=$(grep -c . "$dev/ras/gpu_vram_bad_pages")
	grep -q "^$page " "$dev/ras/gpu_vram_bad_pages" && listed=listed ||
		listed="$page not listed"
	got="$got $doc_rc $(field "$tmp/retired.json" bad_pages verdict) $(field "$tmp/retired.json" bad_pages amdx) $(field "$tmp/retired.json" bad_pages amdgpu) $listed"
fi
expect retired_pages_agree \
	"ok 0 pages 0 pages; 0 ok ${pages:-N} pages ${pages:-N} pages listed" "$got"

# A page in amdgpu's table that amdx never heard of: amdgpu's file with
# one page more, in place of amdgpu's own.
run unknown_bad_page_is_a_mismatch
got=
if [ -n "$bdf" ] && [ -d "$b" ]; then
	rm "$b/ras"
	mkdir "$b/ras"
	for f in "$dev"/ras/*; do
		ln -s "$f" "$b/ras/${f##*/}"
	done
	rm "$b/ras/gpu_vram_bad_pages"
	{ cat "$dev/ras/gpu_vram_bad_pages"; echo "0x00000777 : 0x00001000 : R"; } \
		> "$b/ras/gpu_vram_bad_pages"
	doctor "$tmp/aca" "$tmp/unknown.json"
	diag < "$tmp/unknown.json"
	got="$doc_rc $(field "$tmp/unknown.json" bad_pages verdict) $(field "$tmp/unknown.json" bad_pages detail)"
fi
expect unknown_bad_page_is_a_mismatch \
	"1 mismatch 1 only in amdgpu's table (first 0x777000)" "$got"
echo "$id" > "$knob/del_device" 2> /dev/null
exit $rc
