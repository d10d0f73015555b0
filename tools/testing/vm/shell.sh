#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make vm-shell: builds as make check does and boots the first kernel of
# KERNELS (default 6.1) with amdx.ko and amdx_sim.ko loaded and a shell on
# this terminal (guest-init.sh, amdx.mode=shell); `reboot -f` leaves.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

vm_init 1
vm_build test
vm_bins
vm_initramfs
exec "$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" \
	"$work/initrd.gz" shell "$work/shell"
