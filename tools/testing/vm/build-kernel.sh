#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) the amdx test kernel from Debian's linux-source-6.1.
#
# The build lives outside the work tree in $AMDX_CACHE (default
# /var/cache/amdx), keyed by the source package version, the hash of the
# config fragment and the recipe number below, so a warm run never
# rebuilds.
# Prints the kernel build directory (usable as KDIR) on stdout.
#
# usage: build-kernel.sh [test|bench|coverage]
#   test   kernel.config: KUnit, KASAN, lockdep, kmemleak... (default)
#   bench  kernel.config + kernel-bench.config: no debugging, for timings
#   coverage  kernel.config + kernel-coverage.config: gcov (make coverage)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
flavour=${1:-test}
cache=${AMDX_CACHE:-/var/cache/amdx}
tarball=/usr/src/linux-source-6.1.tar.xz
log() { echo "build-kernel: $*" >&2; }

[ -r "$tarball" ] || { log "missing $tarball (apt-get install linux-source-6.1)"; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
frag=$(mktemp)
trap 'rm -f "$frag"' EXIT
case "$flavour" in
test) cat "$here/kernel.config" > "$frag" ;;
bench) cat "$here/kernel.config" "$here/kernel-bench.config" > "$frag" ;;
coverage) cat "$here/kernel.config" "$here/kernel-coverage.config" > "$frag" ;;
*) log "unknown flavour $flavour"; exit 2 ;;
esac
# Last setting of each option wins.
tac "$frag" | awk -F= '/^CONFIG_/ { if (seen[$1]++) next } { print }' | tac \
	> "$frag.m" && mv "$frag.m" "$frag"
# Bump when the build procedure below changes what comes out.
recipe=1
key=$( (cat "$frag"; echo "recipe=$recipe") | sha256sum | cut -c1-12)
kdir="$cache/linux-$srcver-$key"
[ "$flavour" = test ] || kdir="$kdir-$flavour"

mkdir -p "$cache"
# One build per key at a time; others wait and then reuse it.
exec 9> "$kdir.lock"
flock 9
if [ -f "$kdir/.amdx-built" ]; then
	echo "$kdir"
	exit 0
fi

log "building test kernel $srcver (config $key) in $kdir; this takes ~10 min once"
rm -rf "$kdir" "$kdir.tmp"
mkdir -p "$kdir.tmp"
tar -C "$kdir.tmp" --strip-components=1 -xf "$tarball"
cd "$kdir.tmp"
make -s tinyconfig >&2
scripts/kconfig/merge_config.sh -m .config "$frag" >&2
make -s olddefconfig >&2
# Every line of the fragment must have survived olddefconfig.
missing=0
while read -r line; do
	case "$line" in ''|'#'*) continue ;; esac
	opt=${line%%=*}
	val=${line#*=}
	if [ "$val" = n ]; then
		grep -q "^$opt=" .config && { log "$opt still set"; missing=1; }
	else
		grep -qx "$line" .config || { log "$line not applied"; missing=1; }
	fi
done < "$frag"
[ $missing = 0 ] || { log "config fragment did not apply"; exit 1; }
make -s -j"$(nproc)" bzImage modules >&2
make -s modules_prepare >&2
cd /
mv "$kdir.tmp" "$kdir"
touch "$kdir/.amdx-built"
echo "$kdir"
