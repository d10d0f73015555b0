#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the test VM under TCG.
# usage: run-qemu.sh KERNEL INITRD MODE OUTDIR [STALL_S]
# Console -> OUTDIR/console.log, results (ttyS1) -> OUTDIR/results.log,
# QEMU's wall and CPU seconds -> OUTDIR/time (CPU / wall: the host CPUs
# the guest kept busy).
# The guest may run as long as it needs: it is stopped only when its
# results have not grown for STALL_S seconds (default 900), so a slow or
# loaded host costs time, never a verdict.  guest-init.sh streams every
# suite's output as it comes and kills a selftest silent for its own,
# shorter limit, so a stall here means the guest itself hung.
# AMDX_QEMU_APPEND: more kernel command line (the benchmark VM's clock).
# AMDX_VM_SMP, AMDX_VM_TCG: the guest's vCPUs (default 2) and TCG's
# options (thread=single), for measuring (Documentation/testing.rst,
# "Budgets").
# AMDX_QEMU_ARGS: more QEMU arguments, split at spaces (the systemd VM's
# 9p share of the host's /usr).
# MODE shell attaches the console to this terminal instead.
set -uo pipefail
kernel=$1 initrd=$2 mode=$3 outdir=$4 stall=${5:-900}
mkdir -p "$outdir"
: > "$outdir/console.log"
: > "$outdir/results.log"
# la57=off: with 5-level paging, an interrupt taken while identify_cpu()
# has cleared boot_cpu_data's capabilities (before alternatives are
# applied) makes KASAN compute its shadow start for 4 levels and report a
# wild-memory-access in the handler's spin lock: a kernel bug of the boot
# path (seen on 6.1 under load), not amdx's.  4 GiB guests need no LA57.
args=(-accel "tcg${AMDX_VM_TCG:+,$AMDX_VM_TCG}" -cpu max,la57=off -smp "${AMDX_VM_SMP:-2}" -m 4G -no-reboot -nodefaults
      -kernel "$kernel" -initrd "$initrd")
# shellcheck disable=SC2206 # split at spaces, as documented
args+=(${AMDX_QEMU_ARGS:-})
# no_timer_check: under TCG on a loaded host the boot's IO-APIC timer
# check can miss its ticks and panic ("IO-APIC + timer doesn't work!",
# seen booting the amdgpu test kernel while other VMs ran).
# clocksource=hpet: under TCG on a loaded host the boot's TSC calibration
# against the PIT can come out ten times too low, and the kernel then
# trusts the PIT ("tsc: PIT calibration deviates from HPET: 254316
# 2594735", arch/x86/kernel/tsc.c): the guest's clock ran 8.7 times the
# host's and every timeout in it fired early (a residency suite killed
# mid-migration, the fuzzer "stalled").  QEMU's HPET counts the host's
# time, so timekeeping does too.  The benchmark VM sets its own clock
# (AMDX_QEMU_APPEND).
clock=clocksource=hpet
[ -z "${AMDX_QEMU_APPEND:-}" ] || clock=
# watchdog_thresh=60: the soft-lockup detector compares that host time
# across a stall of the whole VM (the host not running QEMU's threads):
# with the default 10 (a lockup after 20 s) a 27 s stall under load
# reported both vCPUs "stuck", one of them idle (swapper/1 in do_idle),
# and failed the systemd VM's "no kernel report".  A report needs 120 s
# now; a shorter lockup goes unreported, an endless one hangs its test,
# which the stall limit ends and fails.  Only for a kernel that has the
# detector (Debian's; the test kernels are built without it).
kconfig=${kernel/#\/boot\/vmlinuz-//boot/config-}
[ "$kconfig" != "$kernel" ] || kconfig=${kernel%/arch/x86/boot/bzImage}/.config
wd=
! grep -qs '^CONFIG_SOFTLOCKUP_DETECTOR=y' "$kconfig" || wd=watchdog_thresh=60
cmdline="console=ttyS0 panic=-1 loglevel=6 no_timer_check $wd $clock amdx.mode=$mode ${AMDX_QEMU_APPEND:-}"
if [ "$mode" = shell ]; then
	exec qemu-system-x86_64 "${args[@]}" -display none \
		-chardev stdio,id=con,signal=off -serial chardev:con \
		-serial "file:$outdir/results.log" -append "$cmdline"
fi
TIMEFORMAT='%0R s wall, %0U s user, %0S s system'
# QEMU in a subshell that times it ($qemu: the subshell).
(
	{ time qemu-system-x86_64 "${args[@]}" \
		-display none -serial "file:$outdir/console.log" \
		-serial "file:$outdir/results.log" -append "$cmdline" \
		</dev/null 2>&3 3>&-; } 3>&2 2> "$outdir/time"
) &
qemu=$!
# The watchdog: the size of results.log, every 10 s.
(
	last=-1 since=$SECONDS
	while sleep 10; do
		size=$(stat -c %s "$outdir/results.log" 2>/dev/null || echo 0)
		if [ "$size" != "$last" ]; then
			last=$size since=$SECONDS
		elif [ $((SECONDS - since)) -ge "$stall" ]; then
			echo "run-qemu: no progress from the guest for ${stall}s (results.log stayed at $size bytes): stopped" >&2
			: > "$outdir/stalled"
			pkill -KILL -P "$qemu" 2>/dev/null
			exit 0
		fi
	done
) &
watchdog=$!
wait "$qemu"
rc=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
if [ -e "$outdir/stalled" ]; then
	rm -f "$outdir/stalled"
	return 2>/dev/null; exit 124
fi
exit $rc
