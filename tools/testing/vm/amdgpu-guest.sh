#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the amdgpu VM (amdgpu-check.sh): load amdx.ko and the patched
# amdgpu.ko with no AMD device present (its KUnit suites run at load, on
# fake devices), check that no amdx device is left, run amdx's kselftests
# in /selftests against the amdgpu provider (AMDX_TEST_PROVIDER=amdgpu:
# their devices are the test amdgpu's fake MI300s, which the provider
# registers), check that they left no device, unload everything, scan
# for leaks.  KTAP on ttyS1, then per kselftest a "### selftest NAME"
# line and its output, then a "### kunit" line and the kernel log of
# amdgpu's load (the suites' KTAP); the host parses all three.  /doctor.sh
# (amdgpu-doctor.sh, when the host copied the CLI in) runs `amdx doctor`
# against a fake with amdgpu's sysfs files, its output as a kselftest's
# ("### selftest amdx_doctor").  The
# console (ttyS0) carries the kernel log the host searches for reports.
# /lib/amdgpu/order lists the modules amdgpu needs, in load order.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p /tmp && mount -t tmpfs tmpfs /tmp

out=/dev/ttyS1
n=0
ok() { n=$((n + 1)); echo "ok $n $*" > $out; }
not_ok() { n=$((n + 1)); echo "not ok $n $*" > $out; }
check() { # NAME COMMAND...: ok when COMMAND succeeds
	local name=$1
	shift
	if "$@" > /tmp/check.log 2>&1; then
		ok "$name"
	else
		not_ok "$name"
		sed 's/^/# /' /tmp/check.log > $out
	fi
}
amdx_devices() { ls /sys/class/amdx 2>/dev/null | grep -c '^amdx[0-9]' ; }

echo "amdgpu-vm: kernel $(uname -r), $(nproc) cpus"
[ -w /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak
echo "TAP version 13" > $out
echo "1..9" > $out
deps=$(cat /lib/amdgpu/order)

load_deps() {
	local m
	for m in $deps; do
		insmod "/lib/amdgpu/$m.ko" || return 1
	done
}
unload_deps() {
	local m rev=
	for m in $deps; do rev="$m $rev"; done
	for m in $rev; do
		rmmod "$m" || return 1
	done
}
check "amdgpu: its dependencies load" load_deps
check "amdgpu: amdx.ko loads" insmod /lib/amdgpu/amdx.ko
# No udev: /dev/amdx gets group render, gid 105 as in the test VM
# (mkinitramfs.sh), whose member uid 1000 the kselftests become.
chgrp 105 /dev/amdx
echo "amdgpu-vm: loading amdgpu"
dmesg -c > /dev/null
check "amdgpu: the patched amdgpu.ko loads without an AMD device" \
	insmod /lib/amdgpu/amdgpu.ko
dmesg -c > /tmp/kunit.log
# amdgpu registers its PCI driver and finds no device, and its KUnit
# suites unregistered their fake ones: no amdx device.
if [ "$(amdx_devices)" = 0 ] && grep -q '^amdgpu ' /proc/modules; then
	ok "amdgpu: no amdx device appears"
else
	not_ok "amdgpu: no amdx device appears"
	ls /sys/class/amdx | sed 's/^/# /' > $out
fi
# amdx's own kselftests, against the amdgpu provider's fake devices; the
# partition suite's with the KFD up (kfd=1), so that each switch runs
# amdgpu's KFD bracket and its process lock against the real table.
for t in /selftests/*_test; do
	[ -x "$t" ] || continue
	name=${t##*/}
	fake=
	[ "$name" != amdx_partition_test ] || fake=kfd=1
	echo "amdgpu-vm: $name against the amdgpu provider${fake:+, $fake}"
	s=$(date +%s)
	AMDX_TEST_PROVIDER=amdgpu AMDX_TEST_AMDGPU_FAKE=$fake \
		timeout 1200 "$t" > "/tmp/$name.log" 2>&1
	echo "# $name: exit $?, $(($(date +%s) - s)) s" >> "/tmp/$name.log"
done
# amdx_ras_test again on fakes as MI300Xs with their firmware: amdgpu's
# ACA, UMC 12 and its page retirement in the loop (aca=1; 64 GiB of VRAM
# hold a poison's row, whose pages lie 32 GiB apart).
if [ -x /selftests/amdx_ras_test ]; then
	echo "amdgpu-vm: amdx_ras_test against the amdgpu provider, aca=1"
	s=$(date +%s)
	AMDX_TEST_PROVIDER=amdgpu AMDX_TEST_AMDGPU_FAKE="aca=1 vram=65536" \
		timeout 1200 /selftests/amdx_ras_test > /tmp/amdx_ras_test@aca.log 2>&1
	echo "# amdx_ras_test@aca: exit $?, $(($(date +%s) - s)) s" >> /tmp/amdx_ras_test@aca.log
fi
# amdx doctor against a fake whose sysfs files are amdgpu's own (sysfs=1).
if [ -x /doctor.sh ]; then
	echo "amdgpu-vm: amdx doctor against a fake with amdgpu's sysfs files"
	s=$(date +%s)
	timeout 300 /doctor.sh > /tmp/amdx_doctor.log 2>&1
	echo "# amdx_doctor: exit $?, $(($(date +%s) - s)) s" >> /tmp/amdx_doctor.log
fi
if [ "$(amdx_devices)" = 0 ]; then
	ok "amdgpu: amdx's kselftests against amdgpu leave no device"
else
	not_ok "amdgpu: amdx's kselftests against amdgpu leave no device"
	for d in /sys/class/amdx/amdx*; do
		echo "# ${d##*/}: $(cat "$d/bdf") $(readlink "$d/device")" > $out
	done
fi
check "amdgpu: amdgpu.ko unloads" rmmod amdgpu
check "amdgpu: amdx.ko unloads" rmmod amdx
check "amdgpu: its dependencies unload" unload_deps
if [ -w /sys/kernel/debug/kmemleak ]; then
	# Two scans: kmemleak reports an object only once it is old enough
	# and unreferenced in two scans.
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	if [ -s /sys/kernel/debug/kmemleak ]; then
		not_ok "amdgpu: kmemleak reports nothing"
		sed 's/^/# /' /sys/kernel/debug/kmemleak > $out
	else
		ok "amdgpu: kmemleak reports nothing"
	fi
else
	ok "amdgpu: kmemleak reports nothing # SKIP no kmemleak in this kernel"
fi
echo "# end" > $out
for t in /selftests/*_test /selftests/amdx_ras_test@aca amdx_doctor; do
	[ -f "/tmp/${t##*/}.log" ] || continue
	echo "### selftest ${t##*/}" > $out
	cat "/tmp/${t##*/}.log" > $out
done
echo "### kunit" > $out
cat /tmp/kunit.log > $out
sync
reboot -f
