#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare, and optionally build, the patched amdgpu (amdgpu-amdx).
#
# usage: amdgpu-tree.sh [--key]
#        amdgpu-tree.sh --build KDIR AMDX_SYMVERS
#
# Without --build: extract drivers/gpu/drm/amd of Debian's pristine
# linux-source-6.12 into $AMDX_CACHE (default /var/cache/amdx), apply
# drivers/amdx_amdgpu/patches/6.12/*.patch with `git apply` (nothing
# fuzzy), put amdx's own files in drivers/gpu/drm/amd/amdx (the
# provider, the translations and the amdx headers they include) and
# drivers/amdx_amdgpu/dkms/{dkms.conf,Makefile} at the top: the result
# is the source directory of the amdgpu-amdx DKMS package.  The tree is
# keyed by the source package version, the recipe number below and a
# hash of the patches and files, so a warm run only prints it.  Prints
# the tree; --key prints the key only.
#
# --build KDIR AMDX_SYMVERS: build the patched amdgpu.ko against kernel
# tree or headers KDIR with the command DKMS runs (`make KDIR=...
# AMDX_SYMVERS=... modules` in the tree), resolving amdx's exports from
# AMDX_SYMVERS (the Module.symvers of an amdx built against the same
# KDIR), in a copy of the tree keyed by KDIR as well (cached likewise).
# Fails on any compiler warning in amdx's files (they build with
# -Werror) and prints the path of amdgpu.ko.  AMDGPU_AMDX_JOBS sets
# make -j (default nproc).  AMDGPU_AMDX_CACHED_ONLY=1: exit 3 when the
# build is not cached, instead of building it.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${AMDX_CACHE:-/var/cache/amdx}
series=6.12
tarball=/usr/src/linux-source-$series.tar.xz
log() { echo "amdgpu-tree: $*" >&2; }

# Bump when the procedure below changes what comes out.
recipe=1
# amdx's files the patched amdgpu compiles, as "repo path:tree path".
files=(
	drivers/amdx_amdgpu/amdgpu_amdx.c:amdgpu_amdx.c
	drivers/amdx_amdgpu/amdgpu_amdx.h:amdgpu_amdx.h
	drivers/amdx_amdgpu/amdx_amdgpu_xlate.c:amdx_amdgpu_xlate.c
	drivers/amdx_amdgpu/amdx_amdgpu_xlate.h:amdx_amdgpu_xlate.h
	drivers/amdx/amdx_badpage.h:amdx_badpage.h
	include/amdx/amdx_provider.h:include/amdx/amdx_provider.h
	uapi/linux/amdx.h:uapi/linux/amdx.h
)
# ... and at the top of the tree.
top=(drivers/amdx_amdgpu/dkms/dkms.conf drivers/amdx_amdgpu/dkms/Makefile)
patches=("$repo"/drivers/amdx_amdgpu/patches/$series/*.patch)

[ -r "$tarball" ] || { log "missing $tarball (apt-get install linux-source-$series)"; exit 1; }
[ -f "${patches[0]}" ] || { log "no patches in drivers/amdx_amdgpu/patches/$series"; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' "linux-source-$series")
key=$( (echo "recipe=$recipe srcver=$srcver"
	for p in "${patches[@]}"; do echo "patch ${p##*/}"; cat "$p"; done
	for f in "${files[@]}" "${top[@]}"; do echo "file ${f%%:*}"; cat "$repo/${f%%:*}"; done) |
	sha256sum | cut -c1-12)
if [ "${1:-}" = --key ]; then
	echo "$key"
	exit 0
fi

tree="$cache/amdgpu-amdx-$srcver-$key"
mkdir -p "$cache"
exec 9> "$tree.lock"
flock 9
if [ ! -f "$tree/.amdx-prepared" ]; then
	log "extracting drivers/gpu/drm/amd of linux-source-$series $srcver into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" --strip-components=1 -xJf "$tarball" \
		"linux-source-$series/drivers/gpu/drm/amd"
	for p in "${patches[@]}"; do
		log "applying ${p##*/}"
		git -C "$tree.tmp" apply --whitespace=error-all -p1 "$p" ||
			{ log "${p##*/} does not apply to linux-source-$series $srcver"; exit 1; }
	done
	amdx="$tree.tmp/drivers/gpu/drm/amd/amdx"
	for f in "${files[@]}"; do
		mkdir -p "$(dirname "$amdx/${f#*:}")"
		cp "$repo/${f%%:*}" "$amdx/${f#*:}"
	done
	for f in "${top[@]}"; do
		cp "$repo/$f" "$tree.tmp/"
	done
	touch "$tree.tmp/.amdx-prepared"
	mv "$tree.tmp" "$tree"
	# Each tree is ~500 MB: keep the newest three and their builds,
	# skipping any another run holds.
	ls -dt "$cache"/amdgpu-amdx-*-????????????/ 2>/dev/null | tail -n +4 |
	while read -r old; do
		old=${old%/}
		( flock -n 7 || exit 0
		  log "removing the old tree $old"
		  rm -rf "$old" "$old"-build-* ) 7> "$old.lock"
		rm -f "$old.lock"
	done
fi
if [ "${1:-}" != --build ]; then
	echo "$tree"
	exit 0
fi
[ $# = 3 ] || { log "usage: $0 --build KDIR AMDX_SYMVERS"; exit 2; }
kdir=$(cd "$2" && pwd -P)
symvers=$3
[ -f "$kdir/Module.symvers" ] || { log "$kdir: no Module.symvers"; exit 1; }
[ -f "$symvers" ] || { log "$symvers: missing"; exit 1; }
# The kernel tree or headers, their config and the amdx exports we link to.
bkey=$( (echo "$kdir"; cat "$kdir/.config" "$kdir/Module.symvers";
	 grep -E '\samdx_' "$symvers" | cut -f1,2,4,5) | sha256sum | cut -c1-12)
build="$tree-build-$bkey"
# AMDGPU_AMDX_CACHED_ONLY=1: exit 3 instead of building.
if [ ! -f "$build/.amdx-built" ] && [ -n "${AMDGPU_AMDX_CACHED_ONLY:-}" ]; then
	log "not cached: $build"
	exit 3
fi
exec 8> "$build.lock"
flock 8
if [ ! -f "$build/.amdx-built" ]; then
	log "building the patched amdgpu against $kdir in $build (~15-30 min once)"
	rm -rf "$build" "$build.tmp"
	# Hard links: the build only adds files.
	cp -al "$tree" "$build.tmp"
	cp "$symvers" "$build.tmp/amdx.symvers"
	t0=$(date +%s)
	if ! make -C "$build.tmp" KDIR="$kdir" AMDX_SYMVERS="$build.tmp/amdx.symvers" \
		-j"${AMDGPU_AMDX_JOBS:-$(nproc)}" modules \
		> "$build.tmp/build.log" 2>&1; then
		tail -40 "$build.tmp/build.log" >&2
		log "build failed; log in $build.tmp/build.log"
		exit 1
	fi
	echo "seconds=$(( $(date +%s) - t0 ))" > "$build.tmp/build.time"
	if grep -E '/amdx/[^:]*:[0-9]+:[0-9]+: (warning|error)' "$build.tmp/build.log" >&2; then
		log "warnings in amdx's files; log in $build.tmp/build.log"
		exit 1
	fi
	touch "$build.tmp/.amdx-built"
	mv "$build.tmp" "$build"
fi
echo "$build/drivers/gpu/drm/amd/amdgpu/amdgpu.ko"
