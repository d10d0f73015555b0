#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The HMM migration benchmark, run inside the VM by /init (busybox sh) with
# amdx.ko and amdx_sim.ko loaded.  Loads test_hmm.ko as the comparator,
# creates a simulated device with 1 GiB of VRAM and runs amdx_hmm_bench.
# Everything goes to the host through ttyS1, ending with "### bench complete"
# (also after a failure, with the reason above it).
exec > /dev/ttyS1 2>&1
bench=${AMDX_BENCH:-}
for b in /selftests/bench/amdx_hmm_bench /bench/amdx_hmm_bench; do
	[ -z "$bench" ] && [ -x "$b" ] && bench=$b
done

echo "### bench begin: $(uname -r), $(nproc) cpus"
rc=0
if [ -z "$bench" ]; then
	echo "bench: amdx_hmm_bench not found in the initramfs"
	rc=1
elif ! insmod /lib/amdx/test_hmm.ko; then
	echo "bench: cannot load /lib/amdx/test_hmm.ko; test_hmm columns stay empty"
elif [ ! -c /dev/hmm_dmirror0 ]; then
	# Without devtmpfs the node is made by hand, as test_hmm.sh does.
	major=$(awk '$2 == "HMM_DMIRROR" { print $1 }' /proc/devices)
	[ -n "$major" ] && mknod /dev/hmm_dmirror0 c "$major" 0
fi
if [ "$rc" = 0 ] && ! echo "0 model=mi300x vram=1024" > /sys/bus/amdx_sim/new_device; then
	echo "bench: cannot create the simulated device:"
	dmesg | grep amdx_sim | tail -n 1
	rc=1
fi
if [ "$rc" = 0 ]; then
	"$bench"
	rc=$?
fi
echo "# exit=$rc"
echo "### bench complete"
