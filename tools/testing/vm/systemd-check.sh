#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# amdx-eventd's unit and udev/70-amdx.rules under a real systemd and udev,
# as KTAP on stdout (check.sh counts it with host_ktap).  The test VMs'
# busybox has neither, so this VM boots Debian's own kernel (the stock
# VM's, whose 9p and overlay modules the test kernels lack) into the
# host's systemd: an initramfs whose /init (systemd-init.sh) mounts the
# host's /usr read-only over 9p, lays a tmpfs overlay on it holding what
# `cmake --install` (prefix /usr/local) staged, and execs
# /usr/lib/systemd/systemd; /etc is the image's, with the udev rule where
# DKMS installs it (/etc/udev/rules.d) and a target that runs
# systemd-guest.sh as a service, then powers off.
#   1   the tools install into a staging root (cmake --install, DESTDIR)
#   2.. the guest's cases (systemd-guest.sh): boot without amdx, udev
#       starts amdx-eventd when /dev/amdx appears, its user and group,
#       READY=1 and the watchdog, an injected error in its journal, a
#       restart after SIGKILL, unload and reload cycles, coldplug
#   last  no kernel report on the console
#
# usage: systemd-check.sh [MODDIR]
#   MODDIR  amdx.ko and amdx_sim.ko built for KVER (check.sh passes its
#           DKMS-built copy); without it they are built here against
#           /lib/modules/KVER/build
#   KVER    Debian's kernel to boot (default: the newest 6.12 installed)
#   AMDX_TOOLS_BUILD  the built tools (default tools/build)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${AMDX_SYSTEMD_WORK:-$root/build/systemd}
tb=${AMDX_TOOLS_BUILD:-$root/tools/build}
moddir=${1:-}
kv=${KVER:-$(ls /lib/modules | grep -E '^6\.12\.[0-9]+\+deb[0-9]+-amd64$' | sort -V | tail -n 1)}

n=0
ok() { n=$((n + 1)); echo "ok $n systemd: $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n systemd: $*"; }
indent() { sed 's/^/# /'; }
guest_cases=$(grep -c '^check "' "$here/systemd-guest.sh")
give_up() { # REASON: every case left fails with it
	local i
	[ "$n" != 0 ] || not_ok "the tools install into a staging root ($1)"
	for ((i = 0; i <= guest_cases; i++)); do
		not_ok "the systemd VM ran ($1)"
	done
	echo "1..$n"
	exit 0
}
echo "TAP version 13"
rm -rf "$work" && mkdir -p "$work"
[ -n "$kv" ] && [ -f "/boot/vmlinuz-$kv" ] || give_up "no Debian 6.12 kernel installed"
[ -x /usr/lib/systemd/systemd ] && command -v udevadm > /dev/null ||
	give_up "no systemd and udev on the host"

# The modules: check.sh's DKMS copy, or a build against the headers.
if [ -z "$moddir" ]; then
	moddir=$work/src
	mkdir -p "$moddir"
	(cd "$root" && git ls-files -co --exclude-standard -z -- \
		Kbuild Makefile dkms.conf drivers include uapi scripts |
		rsync -a --from0 --files-from=- ./ "$moddir/")
	[ ! -d /usr/lib/ccache ] || export PATH=/usr/lib/ccache:$PATH
	export CCACHE_DIR=${CCACHE_DIR:-${AMDX_CACHE:-/var/cache/amdx}/ccache}
	make -s -j"$(nproc)" -C "$moddir" KDIR="/lib/modules/$kv/build" modules > "$work/build.log" 2>&1 ||
		{ indent < "$work/build.log"; give_up "amdx does not build for $kv"; }
	mkdir -p "$moddir/ko"
	find "$moddir/drivers" \( -name amdx.ko -o -name amdx_sim.ko \) -exec cp -t "$moddir/ko" {} +
	moddir=$moddir/ko
fi

img=$work/root
mkdir -p "$img"/{.amdx/mods,.amdx/usr,amdx-vmtest,usr,dev,proc,sys,run,tmp,var/log,var/tmp,var/lib,root,etc/udev/rules.d,etc/systemd/system}
for l in bin lib lib64 sbin; do ln -s "usr/$l" "$img/$l"; done
# 1. What `cmake --install` puts under the prefix, in the overlay's upper
# layer; the rule where DKMS puts it (udev/amdx-udev-install).
if DESTDIR=$img/.amdx cmake --install "$tb" --prefix /usr/local > "$work/install.log" 2>&1 &&
	[ -f "$img/.amdx/usr/local/lib/systemd/system/amdx-eventd.service" ]; then
	ok "the tools install into a staging root (cmake --install, prefix /usr/local)"
else
	not_ok "the tools install into a staging root (cmake --install, prefix /usr/local)"
	indent < "$work/install.log"
	give_up "not run: the tools did not install from $tb"
fi
install -m 0644 "$root/udev/70-amdx.rules" "$img/etc/udev/rules.d/"
cp "$moddir/amdx.ko" "$moddir/amdx_sim.ko" "$img/amdx-vmtest/" ||
	give_up "no amdx.ko or amdx_sim.ko in $moddir"
cp "$here/systemd-guest.sh" "$img/amdx-vmtest/guest.sh"
echo $((n + 1)) > "$img/amdx-vmtest/first"
# The guest's simulated device: the "systemd" block of amdx_sim_ids.def.
sed -n 's/^AMDX_SIM_IDS(systemd,[[:space:]]*\([0-9]*\),.*/\1/p' \
	"$root/selftests/lib/amdx_sim_ids.def" > "$img/amdx-vmtest/sim_id"
[ -s "$img/amdx-vmtest/sim_id" ] || give_up "no systemd block in amdx_sim_ids.def"

# The modules /init loads before /usr is there, in dependency order.
: > "$img/.amdx/mods/order"
for m in virtio_pci 9pnet_virtio 9p overlay; do
	modprobe -S "$kv" --show-depends "$m"
done | sed -n 's/^insmod \([^ ]*\).*/\1/p' | awk '!seen[$0]++' | while read -r f; do
	b=${f##*/}
	b=${b%.xz}
	case $f in
	*.xz) xz -dc "$f" > "$img/.amdx/mods/$b" ;;
	*) cp "$f" "$img/.amdx/mods/$b" ;;
	esac
	echo "${b%.ko}" >> "$img/.amdx/mods/order"
done
cp /bin/busybox "$img/.amdx/busybox"
cp "$here/systemd-init.sh" "$img/init"
chmod 0755 "$img" "$img/init"

# /etc: the host's users and groups (render among them), its linker
# cache; a fixed machine id (no first boot); the test's target.
cp /etc/passwd /etc/group /etc/ld.so.cache "$img/etc/"
printf 'passwd: files systemd\ngroup: files systemd\nshadow: files\n' > "$img/etc/nsswitch.conf"
echo 5d0c7a3e1f2b4c6d8e9fa0b1c2d3e4f5 > "$img/etc/machine-id"
echo amdx-vm > "$img/etc/hostname"
ln -s ../usr/lib/os-release "$img/etc/os-release"
cat > "$img/etc/systemd/system/amdx-vmtest.target" <<'EOF'
[Unit]
Description=amdx-eventd under systemd and udev (systemd-check.sh)
Requires=sysinit.target amdx-vmtest.service
After=sysinit.target amdx-vmtest.service
EOF
cat > "$img/etc/systemd/system/amdx-vmtest.service" <<'EOF'
[Unit]
Description=amdx-eventd's test (systemd-guest.sh)
DefaultDependencies=no
Requires=sysinit.target
After=sysinit.target systemd-udev-trigger.service systemd-journald.service
SuccessAction=poweroff-force
FailureAction=poweroff-force

[Service]
Type=oneshot
ExecStart=/usr/bin/bash /amdx-vmtest/guest.sh
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=900
EOF
(cd "$img" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

# The VM: Debian's kernel under one TCG thread, as the stock VM
# (check.sh's stock_vm says why).
t0=$SECONDS
AMDX_VM_TCG=${AMDX_VM_TCG:-thread=single} \
AMDX_QEMU_ARGS="-virtfs local,path=/usr,mount_tag=usr,security_model=none,readonly=on,multidevs=remap" \
AMDX_QEMU_APPEND="clocksource=hpet systemd.unit=amdx-vmtest.target systemd.show_status=error" \
	"$here/run-qemu.sh" "/boot/vmlinuz-$kv" "$work/initrd.gz" systemd "$work" 600 \
	> "$work/vm.log" 2>&1
echo "# VM ($kv): $((SECONDS - t0)) s; QEMU $(cat "$work/time" 2> /dev/null)"
# The guest numbers its cases after the host's (/amdx-vmtest/first).
tr -d '\r' < "$work/results.log" | grep -E '^(ok|not ok) [0-9]+ |^# ' || true
got=$(grep -cE '^(ok|not ok) [0-9]+ ' "$work/results.log" || true)
n=$((n + got))
if [ "$got" -lt "$guest_cases" ]; then
	grep -v '^\(ok\|not ok\|#\) ' "$work/results.log" | indent
	tail -n 30 "$work/console.log" | indent
fi
while [ "$got" -lt "$guest_cases" ]; do
	got=$((got + 1))
	not_ok "guest case $got of $guest_cases (the guest did not report it)"
done
splats=$(python3 -c "import sys; sys.path.insert(0, sys.argv[1])
from collect import SPLATS
for l in open(sys.argv[2], errors='replace'):
    if SPLATS.search(l):
        print(l.rstrip())" "$here" "$work/console.log")
if [ -z "$splats" ]; then
	ok "no kernel report on the console"
else
	not_ok "no kernel report on the console"
	echo "$splats" | head -40 | indent
fi
echo "1..$n"
