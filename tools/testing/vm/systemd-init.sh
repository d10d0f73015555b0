#!/.amdx/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the systemd VM (systemd-check.sh): the host's /usr, read-only
# over 9p (virtio), under an overlay whose tmpfs upper layer holds what
# `cmake --install` staged (/usr/local: amdx, libamdx, amdx-eventd and
# its unit), then the host's own systemd as PID 1 on this initramfs
# (/etc from the image: the udev rule, the test's units).  Its modules
# (virtio, 9p, overlay) are in /.amdx/mods, in load order.
bb=/.amdx/busybox
$bb mount -t proc proc /proc
$bb mount -t sysfs sysfs /sys
$bb mount -t devtmpfs devtmpfs /dev 2> /dev/null
die() {
	echo "amdx-systemd-vm: $*" > /dev/ttyS1
	echo "amdx-systemd-vm: $*"
	$bb sync
	$bb poweroff -f
}
for m in $($bb cat /.amdx/mods/order); do
	$bb insmod "/.amdx/mods/$m.ko" || die "insmod $m failed"
done
$bb mkdir -p /.amdx/lower /.amdx/ovl
$bb mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose usr /.amdx/lower ||
	die "the host's /usr (9p tag usr) does not mount"
$bb mount -t tmpfs -o mode=0755 tmpfs /.amdx/ovl
$bb mkdir -p /.amdx/ovl/upper /.amdx/ovl/work
$bb cp -a /.amdx/usr/. /.amdx/ovl/upper/
$bb mount -t overlay -o lowerdir=/.amdx/lower,upperdir=/.amdx/ovl/upper,workdir=/.amdx/ovl/work \
	overlay /usr || die "the overlay on /usr does not mount"
exec /usr/lib/systemd/systemd
