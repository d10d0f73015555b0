#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: builds what is needed, boots the first kernel of KERNELS
# (default 6.1) and shows amdx working (demo-guest.sh, amdx.mode=demo);
# exit 1 when the guest did not finish the demo.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

vm_init 1
vm_build test
make -s -C "$root/selftests" KSRC="$kdir" OUT="$work/st-demo" demo >&2
vm_bins "$work"/st-demo/demo/*
vm_initramfs

step "demo VM"
rc=0
"$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" "$work/initrd.gz" \
	demo "$work/demo" 900 || rc=$?
cat "$work/demo/results.log"
if ! grep -q '^### demo complete' "$work/demo/results.log" || [ $rc != 0 ]; then
	echo "demo: the VM did not finish the demo; console tail:" >&2
	tail -n 40 "$work/demo/console.log" >&2
	exit 1
fi
