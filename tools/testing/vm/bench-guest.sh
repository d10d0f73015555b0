#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmarks, run inside the VM by /init (busybox sh) with amdx.ko and
# amdx_sim.ko loaded.  Loads amdx_bench.ko (the kernel's migration floor)
# and test_hmm.ko as the HMM comparators, creates a simulated device with
# 1 GiB of VRAM and runs each benchmark in turn:
#   amdx_hmm_bench    HMM migration vs the floor vs test_hmm vs memcpy
#   amdx_event_bench  the event log vs a pipe
#   amdx_exporter_bench  `amdx exporter` over 64 devices with VFs (its
#                     own devices, after the others; needs the amdx CLI)
# Everything goes to the host through ttyS1, one "### <bench>" section per
# benchmark, ending with "### bench complete" (also after a failure, with
# the reason above it).
exec > /dev/ttyS1 2>&1
dir=
for d in /selftests/bench /bench; do
	[ -z "$dir" ] && [ -d "$d" ] && dir=$d
done

echo "### bench begin: $(uname -r), $(nproc) cpus"
rc=0
dev=1
# Simulated device ids: the block "bench" of the selftests' table
# (selftests/lib/amdx_sim_ids.def): the HMM benchmarks' device, then the
# exporter's fleet.
AMDX_SIM_IDS=/selftests/lib/amdx_sim_ids.def
. /selftests/lib/sim.sh
sim_block bench || rc=1
bench_sim=$SIM_FIRST
# Without devtmpfs a node is made by hand from /proc/devices or /proc/misc.
mknode() { # NODE MAJOR MINOR
	[ -c "$1" ] || [ -z "$2" ] || [ -z "$3" ] || mknod "$1" c "$2" "$3"
}
floor=0
if ! insmod /lib/amdx/amdx_bench.ko; then
	echo "bench: cannot load /lib/amdx/amdx_bench.ko; floor columns stay empty"
else
	floor=1
	mknode /dev/amdx_bench_floor 10 \
		"$(awk '$2 == "amdx_bench_floor" { print $1 }' /proc/misc)"
fi
if ! insmod /lib/amdx/test_hmm.ko; then
	echo "bench: cannot load /lib/amdx/test_hmm.ko; test_hmm columns stay empty"
else
	mknode /dev/hmm_dmirror0 \
		"$(awk '$2 == "HMM_DMIRROR" { print $1 }' /proc/devices)" 0
fi
if ! echo "$bench_sim model=mi300x vram=1024" > /sys/bus/amdx_sim/new_device; then
	echo "bench: cannot create the simulated device:"
	dmesg | grep amdx_sim | tail -n 1
	rc=1
	dev=0
fi
for b in amdx_hmm_bench amdx_event_bench; do
	[ "$dev" = 1 ] || break
	echo "### $b"
	if [ -z "$dir" ] || [ ! -x "$dir/$b" ]; then
		echo "bench: $b not found in the initramfs"
		rc=1
	elif ! "$dir/$b"; then
		echo "bench: $b failed"
		rc=1
	fi
done

# ---- amdx exporter: the scrape cost of a fleet host (metrics.rst,
# "Scrape cost").  64 simulated MI300X (AMDX_MAX_DEVICES) in CPX, each
# with 8 VFs while the guest's memory holds them: 8 VFs need 8 x 256 MiB
# (GIM's smallest quota) of VRAM, and a 2 GiB device costs the guest about
# 34 MiB (a struct page per VRAM page and the allocator's maps), so they
# stop when MemAvailable would fall under EXP_RESERVE_MIB or new_device
# fails, and the rest get the simulator's smallest VRAM (64 MiB) and no
# VFs.  Then amdx_exporter_bench times the one-shot textfile exporter (and
# the collection it reports) and `amdx health` against `amdx -j dev list`
# over the same devices and the exporter over one device; strace -c counts
# one run's ioctls.
EXP_DEVICES=64
EXP_VFS=8
EXP_VF_VRAM=2048
EXP_RESERVE_MIB=512
EXP_RUNS=15
exp_sim_base=$((bench_sim + 1))	# .. + EXP_DEVICES - 1: the rest of the block
exp_avail_mib() {
	awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo
}
exp_new() { # I VRAM_MIB: sim device exp_sim_base + I, in CPX; its amdx id
	local s=$((exp_sim_base + $1)) d
	echo "$s model=mi300x vram=$2" > /sys/bus/amdx_sim/new_device 2> /dev/null ||
		return 1
	for d in /sys/bus/amdx_sim/devices/amdx_sim$s/amdx/amdx*; do
		[ -f "$d/id" ] && exp_id=$(cat "$d/id")
	done
	amdx partition set "$exp_id" --compute cpx > /dev/null
}
exporter_bench() {
	local i=0 vfdevs=0 why="" t n
	t=/tmp/exporter_bench
	mkdir -p $t
	command -v amdx > /dev/null || { echo "bench: amdx not in the initramfs"; return 1; }
	# The HMM benchmarks' device is not one of the fleet's.
	echo "$bench_sim" > /sys/bus/amdx_sim/del_device 2> /dev/null
	echo "# MemAvailable before: $(exp_avail_mib) MiB"
	while [ $i -lt $EXP_DEVICES ] && [ -z "$why" ]; do
		if [ "$(exp_avail_mib)" -lt $((EXP_RESERVE_MIB + 64)) ]; then
			why="MemAvailable $(exp_avail_mib) MiB, reserve $EXP_RESERVE_MIB MiB"
		elif ! exp_new $i $EXP_VF_VRAM; then
			why="new_device vram=$EXP_VF_VRAM failed: $(dmesg | tail -n 1)"
		elif ! amdx vf enable "$exp_id" $EXP_VFS > $t/vf.err 2>&1; then
			why="vf enable $EXP_VFS failed: $(cat $t/vf.err)"
		else
			i=$((i + 1))
		fi
	done
	vfdevs=$i
	echo "# $vfdevs devices with $EXP_VFS VFs (vram=$EXP_VF_VRAM MiB)${why:+, then stopped: $why}"
	while [ $i -lt $EXP_DEVICES ]; do
		exp_new $i 64 || { echo "bench: device $i (vram=64) failed: $(dmesg | tail -n 1)"; return 1; }
		i=$((i + 1))
	done
	echo "# $EXP_DEVICES devices, $vfdevs with $EXP_VFS VFs, all CPX; MemAvailable after: $(exp_avail_mib) MiB"
	echo "# guest load: $(cut -d' ' -f1-3 /proc/loadavg)"
	amdx exporter --textfile $t/amdx.prom || return 1
	echo "# one collection: $(wc -c < $t/amdx.prom) bytes, $(grep -c '^amdx_' $t/amdx.prom) series"
	if command -v strace > /dev/null; then
		strace -f -c -e trace=ioctl -o $t/strace amdx exporter --textfile $t/amdx.prom
		n=$(awk '$NF == "ioctl" { print $4 }' $t/strace)
		echo "# ioctls of one exporter run (strace -c): $n, $((n / EXP_DEVICES)) per device"
		strace -f -c -e trace=ioctl -o $t/strace amdx -j dev list > /dev/null
		echo "# ioctls of amdx -j dev list (strace -c): $(awk '$NF == "ioctl" { print $4 }' $t/strace)"
	else
		echo "# strace not in the initramfs: ioctls not counted"
	fi
	"$dir/amdx_exporter_bench" -n $EXP_RUNS -f $t/amdx.prom "exporter textfile, $EXP_DEVICES devices" \
		amdx exporter --textfile $t/amdx.prom || return 1
	"$dir/amdx_exporter_bench" -n $EXP_RUNS "amdx -j dev list, $EXP_DEVICES devices" \
		amdx -j dev list || return 1
	# amdx health: the same collection plus the recovery state of every
	# target and the journal (none here), against the same comparator.
	"$dir/amdx_exporter_bench" -n $EXP_RUNS "amdx health, $EXP_DEVICES devices" \
		amdx health || return 1
	# The views over the same devices beside their floor, the same ioctls
	# from a static C process (amdx_query_bench), and the CLI's start-up
	# alone (metrics.rst, "View cost").
	"$dir/amdx_exporter_bench" -n $EXP_RUNS "amdx --version (start-up)" \
		amdx --version || return 1
	for v in dev partition ras vf; do
		"$dir/amdx_exporter_bench" -n $EXP_RUNS "amdx -j $v show, $EXP_DEVICES devices" \
			amdx -j $v show || return 1
		"$dir/amdx_exporter_bench" -n $EXP_RUNS "$v ioctls from C, $EXP_DEVICES devices" \
			"$dir/amdx_query_bench" $v || return 1
	done
	i=1
	while [ $i -lt $EXP_DEVICES ]; do
		echo $((exp_sim_base + i)) > /sys/bus/amdx_sim/del_device
		i=$((i + 1))
	done
	"$dir/amdx_exporter_bench" -n $EXP_RUNS -f $t/amdx.prom "exporter textfile, 1 device" \
		amdx exporter --textfile $t/amdx.prom || return 1
	echo $exp_sim_base > /sys/bus/amdx_sim/del_device
}
echo "### amdx_exporter_bench"
if [ -z "$dir" ] || [ ! -x "$dir/amdx_exporter_bench" ]; then
	echo "bench: amdx_exporter_bench not found in the initramfs"
	rc=1
elif ! exporter_bench; then
	echo "bench: amdx_exporter_bench failed"
	rc=1
fi
# Unloading moves whatever is left on the floor's device home.
if [ "$floor" = 1 ] && ! rmmod amdx_bench; then
	echo "bench: amdx_bench does not unload"
	rc=1
fi
echo "# exit=$rc"
echo "### bench complete"
