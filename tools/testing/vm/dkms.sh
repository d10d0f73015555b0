#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Register this tree in DKMS afresh, then build and install it for each
# KVER; prints, per KVER, the directory holding its installed modules.
# usage: dkms.sh KVER...
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
name=amdx
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$root/dkms.conf")
src=/usr/src/$name-$ver

# Copy the source first: a registration whose /usr/src tree is gone (an
# interrupted earlier run) is invisible to "dkms status" and cannot be
# removed without its dkms.conf, yet still makes "dkms add" refuse.
rm -rf "$src"
mkdir -p "$src"
# Only what git tracks (or would track): no build output.
(cd "$root" && git ls-files -co --exclude-standard -z |
	rsync -a --from0 --files-from=- ./ "$src/")
if [ -e "/var/lib/dkms/$name/$ver" ]; then
	dkms remove -m "$name" -v "$ver" --all >&2 || true
	rm -rf "/var/lib/dkms/$name/$ver"
	find /var/lib/dkms/$name -maxdepth 1 -xtype l -delete 2>/dev/null || true
fi
dkms add -m "$name" -v "$ver" >&2
for kver in "$@"; do
	dkms build -m "$name" -v "$ver" -k "$kver" >&2 || {
		cat "/var/lib/dkms/$name/$ver/build/make.log" >&2 || true
		exit 1
	}
	dkms install -m "$name" -v "$ver" -k "$kver" --force >&2
	d=/lib/modules/$kver/updates/dkms
	for m in amdx amdx_sim; do
		[ -f "$d/$m.ko" ] || [ -f "$d/$m.ko.xz" ] || {
			echo "dkms.sh: $m not installed in $d" >&2; exit 1; }
	done
	echo "$d"
done
