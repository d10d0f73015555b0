#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (or reuse) an amdx test kernel from Debian's linux-source-6.1 or
# linux-source-6.12.
#
# The build lives outside the work tree in $AMDX_CACHE (default
# /var/cache/amdx), keyed by the source package version, the hash of the
# config fragment and the recipe number below, so a warm run never
# rebuilds.
# Prints the kernel build directory (usable as KDIR) on stdout.
#
# usage: build-kernel.sh [test|bench|coverage] [6.1|6.12]
#   test   kernel.config: KUnit, KASAN, lockdep, kmemleak... (default)
#   bench  kernel.config + kernel-bench.config: no debugging, for timings
#   coverage kernel.config + kernel-coverage.config: the test kernel with
#          gcov (make coverage, tools/testing/vm/coverage.sh); made from a
#          copy of the cached test kernel's tree by an incremental build,
#          cold only when that tree is not cached
#   6.1    linux-source-6.1 (default), 6.12 linux-source-6.12
# A version's own fragment, kernel-VERSION.config, is merged after the
# common one when it exists (options that differ between versions only).
# 6.12's carries DRM, TTM and what amdgpu selects: one 6.12 kernel serves
# amdx's suites and the amdgpu provider (tools/testing/vm/amdgpu-check.sh),
# whose patched amdgpu builds against it out of tree; the tree's own
# amdgpu is left out of the build.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
flavour=${1:-test}
series=${2:-6.1}
cache=${AMDX_CACHE:-/var/cache/amdx}
tarball=/usr/src/linux-source-$series.tar.xz
log() { echo "build-kernel: $*" >&2; }

case "$series" in
6.1|6.12) ;;
*) log "unknown kernel $series (6.1 or 6.12)"; exit 2 ;;
esac
[ -r "$tarball" ] || { log "missing $tarball (apt-get install linux-source-$series)"; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' "linux-source-$series")
frag=$(mktemp)
trap 'rm -f "$frag"' EXIT
case "$flavour" in
test|bench|coverage) ;;
*) log "unknown flavour $flavour"; exit 2 ;;
esac
fragment() { # FLAVOUR: its merged config fragment on stdout
	cat "$here/kernel.config"
	[ ! -f "$here/kernel-$series.config" ] || cat "$here/kernel-$series.config"
	[ "$1" = test ] || cat "$here/kernel-$1.config"
}
# Bump when the build procedure below changes what comes out.
recipe=1
kernel_dir() { # FLAVOUR FRAGMENT: the cache directory of that kernel
	local key
	key=$( (cat "$2"; echo "recipe=$recipe") | sha256sum | cut -c1-12)
	if [ "$1" = test ]; then
		echo "$cache/linux-$srcver-$key"
	else
		echo "$cache/linux-$srcver-$key-$1"
	fi
}
# Last setting of each option wins.
fragment "$flavour" | tac | awk -F= '/^CONFIG_/ { if (seen[$1]++) next } { print }' |
	tac > "$frag"
kdir=$(kernel_dir "$flavour" "$frag")
# The coverage kernel is the test kernel plus gcov: start from a copy of
# the test kernel's tree when it is cached (an incremental build).
base=
if [ "$flavour" = coverage ]; then
	fragment test > "$frag.base"
	base=$(kernel_dir test "$frag.base")
	rm -f "$frag.base"
	[ -f "$base/.amdx-built" ] || base=
fi

mkdir -p "$cache"
# One build per key at a time; others wait and then reuse it.
exec 9> "$kdir.lock"
flock 9
if [ -f "$kdir/.amdx-built" ]; then
	echo "$kdir"
	exit 0
fi

rm -rf "$kdir" "$kdir.tmp"
if [ -n "$base" ]; then
	# cp -a keeps the timestamps: kbuild's fixdep then rebuilds only
	# what depends on the options the variant changes.
	log "building $flavour kernel $series $srcver in $kdir from a copy of $base"
	cp -a "$base" "$kdir.tmp"
	rm -f "$kdir.tmp/.amdx-built"
	cd "$kdir.tmp"
	scripts/kconfig/merge_config.sh -m .config "$here/kernel-$flavour.config" >&2
else
	log "building $flavour kernel $series $srcver in $kdir; this takes ~10 min once"
	mkdir -p "$kdir.tmp"
	tar -C "$kdir.tmp" --strip-components=1 -xf "$tarball"
	cd "$kdir.tmp"
	make -s tinyconfig >&2
	scripts/kconfig/merge_config.sh -m .config "$frag" >&2
fi
# With amdgpu's dependencies (6.12): keep the tree's amdgpu (hundreds of
# files) out of the build; amdgpu-tree.sh builds the patched one against
# this tree.
if grep -q '^CONFIG_DRM_AMDGPU=m$' "$frag"; then
	sed -i '/^obj-\$(CONFIG_DRM_AMDGPU)+= amd\/amdgpu\/$/d' drivers/gpu/drm/Makefile
	! grep -q 'amd/amdgpu/' drivers/gpu/drm/Makefile ||
		{ log "could not drop amd/amdgpu/ from drivers/gpu/drm/Makefile"; exit 1; }
fi
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
