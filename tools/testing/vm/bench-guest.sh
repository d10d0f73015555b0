#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmarks, run inside the VM by /init (busybox sh) with amdx.ko and
# amdx_sim.ko loaded.  Loads amdx_bench.ko (the kernel's migration floor)
# and test_hmm.ko as the HMM comparators, creates a simulated device with
# 1 GiB of VRAM and runs each benchmark in turn:
#   amdx_hmm_bench    HMM migration vs the floor vs test_hmm vs memcpy
#   amdx_event_bench  the event log vs a pipe
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
if ! echo "0 model=mi300x vram=1024" > /sys/bus/amdx_sim/new_device; then
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
# Unloading moves whatever is left on the floor's device home.
if [ "$floor" = 1 ] && ! rmmod amdx_bench; then
	echo "bench: amdx_bench does not unload"
	rc=1
fi
echo "# exit=$rc"
echo "### bench complete"
