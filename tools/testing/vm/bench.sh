#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench: the benchmarks (bench-guest.sh) on each kernel of KERNELS
# (default "6.1 6.12") in turn, on its benchmark kernel (build-kernel.sh
# bench: no KASAN, lockdep, kmemleak); each VM's results.log is printed
# whole.  Exit 1 when a VM did not finish (Documentation/hmm.rst,
# "Numbers").
set -euo pipefail
. "$(dirname "$0")/lib.sh"

vm_init 0
vm_build bench
make -s -C "$root/selftests" KSRC="$kdir" OUT="$work/st-bench" bench >&2
export AMDX_BENCH_DIR=$work/st-bench/bench
vm_bins "$(command -v strace)" # the exporter's ioctls
vm_initramfs

# The guest's TSC as its clock, as on the hardware: under TCG the
# watchdog would otherwise switch to the emulated HPET, and every clock
# read (vDSO or ktime_get_ns) becomes an MMIO exit (~0.7 us).
export AMDX_QEMU_APPEND="${AMDX_QEMU_APPEND-tsc=reliable}"
rc=0
for k in "${kernels[@]}"; do
	out=$work/$k/bench
	step "$k benchmark VM (host load: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$here/run-qemu.sh" "${kdirs[$k]}/arch/x86/boot/bzImage" \
		"$work/$k/initrd.gz" bench "$out" 2400 || true
	echo "### [$k/bench] host load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	cat "$out/results.log"
	if ! grep -q '^### bench complete' "$out/results.log" ||
	   ! grep -q '^# exit=0' "$out/results.log"; then
		echo "bench: the $k VM did not finish the benchmark; console tail:" >&2
		tail -n 40 "$out/console.log" >&2
		rc=1
	fi
done
exit $rc
