#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Pack the amdx test initramfs.
# usage: mkinitramfs.sh OUT.cpio.gz MODULE_DIR SELFTEST_DIR [BIN ...]
# MODULE_DIR holds the .ko files, SELFTEST_DIR the built selftests; each BIN
# is copied to /usr/bin with the shared libraries ldd names.
set -euo pipefail
out=$1 moddir=$2 stdir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/testing/vm/initramfs-bin.sh
. "$here/initramfs-bin.sh"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# mktemp makes it 0700; as the guest's / it must let other uids in (tests
# run unprivileged children that open /dev/amdx).
chmod 0755 "$root"

mkdir -p "$root"/{bin,dev,proc,sys,tmp,usr/bin,usr/local/lib,lib/amdx,selftests}
cp /bin/busybox "$root/bin/busybox"
# Users the privilege tests run as: uid 1000 is in group render (the
# group /dev/kfd and /dev/amdx belong to), uid 1001 is in no GPU group.
mkdir -p "$root/etc"
cat > "$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
amdx:x:1000:1000:render member:/tmp:/bin/sh
outsider:x:1001:1001:no gpu group:/tmp:/bin/sh
PASSWD
cat > "$root/etc/group" <<'GROUP'
root:x:0:
render:x:105:amdx
amdx:x:1000:
outsider:x:1001:
GROUP
cp "$here/guest-init.sh" "$root/init"
# The udev rule the guest init applies (it has no udev).
mkdir -p "$root/lib/udev/rules.d"
cp "$here/../../../udev/70-amdx.rules" "$root/lib/udev/rules.d/"
cp "$here/demo-guest.sh" "$root/demo.sh"
cp "$here/bench-guest.sh" "$root/bench.sh"
# Benchmarks (make bench only) live apart from the selftests.
if [ -n "${AMDX_BENCH_DIR:-}" ]; then
	mkdir -p "$root/bench"
	cp "$AMDX_BENCH_DIR"/* "$root/bench/"
fi
cp "$moddir"/*.ko "$root/lib/amdx/"
cp -r "$stdir"/. "$root/selftests/"

for b in "$@"; do
	case "$b" in
	*.so*) cp -L "$b" "$root/usr/local/lib/" ;;
	*) initramfs_bin "$root" "$b" ;;
	esac
done
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
