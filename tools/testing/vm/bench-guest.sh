#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmarks, run inside the VM by /init (busybox sh) with amdx.ko and
# amdx_sim.ko loaded.  Loads test_hmm.ko as the HMM comparator, creates a
# simulated device with 1 GiB of VRAM and runs each benchmark in turn:
#   amdx_hmm_bench    HMM migration vs test_hmm vs memcpy
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
if ! insmod /lib/amdx/test_hmm.ko; then
	echo "bench: cannot load /lib/amdx/test_hmm.ko; test_hmm columns stay empty"
elif [ ! -c /dev/hmm_dmirror0 ]; then
	# Without devtmpfs the node is made by hand, as test_hmm.sh does.
	major=$(awk '$2 == "HMM_DMIRROR" { print $1 }' /proc/devices)
	[ -n "$major" ] && mknod /dev/hmm_dmirror0 c "$major" 0
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
echo "# exit=$rc"
echo "### bench complete"
