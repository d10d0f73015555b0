#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prepare, and optionally build, the patched amdgpu (amdgpu-amdx).
#
# usage: amdgpu-tree.sh [--key]
#        amdgpu-tree.sh --build KDIR AMDX_SYMVERS
#
# Without --build: extract drivers/gpu/drm/amd of Debian's pristine
# linux-source-6.12 into $AMDX_CACHE (default /var/cache/amdx) and apply
# drivers/amdx_amdgpu/patches/6.12/*.patch with `git apply` (nothing
# fuzzy); that tree is keyed by the source package version, the recipe
# number below and a hash of the patches, so a warm run does not extract
# again.  Then bring amdx's own files up to date in it: the provider, the
# translations and the amdx headers they include in drivers/gpu/drm/amd/
# amdx, drivers/amdx_amdgpu/dkms/{dkms.conf,Makefile} at the top.  The
# result is the source directory of the amdgpu-amdx DKMS package; its
# path is printed.  --key prints the key only.
#
# --build KDIR AMDX_SYMVERS: build the patched amdgpu.ko against kernel
# tree or headers KDIR with the command DKMS runs (`make KDIR=...
# AMDX_SYMVERS=... modules` in the tree), resolving amdx's exports from
# AMDX_SYMVERS (the Module.symvers of an amdx built against the same
# KDIR).  The build directory, a hard-linked copy of the tree, is kept per
# tree and KDIR (its path, config and release): once built, a change of
# amdx's files recompiles only what they touch.
# Fails on any compiler warning in amdx's files (they build with -Werror)
# and prints the path of amdgpu.ko.  AMDGPU_AMDX_JOBS sets make -j
# (default nproc).  AMDGPU_AMDX_CACHED_ONLY=1: exit 3 instead of a first
# (full) build; once one has completed, builds are incremental and run.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${AMDX_CACHE:-/var/cache/amdx}
series=6.12
tarball=/usr/src/linux-source-$series.tar.xz
log() { echo "amdgpu-tree: $*" >&2; }

# Bump when the procedure below changes what comes out.
recipe=2
# amdx's files the patched amdgpu compiles, as "repo path:path in amd/amdx".
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
	for p in "${patches[@]}"; do echo "patch ${p##*/}"; cat "$p"; done) |
	sha256sum | cut -c1-12)
if [ "${1:-}" = --key ]; then
	echo "$key"
	exit 0
fi

# Copy amdx's files into tree $1 where they differ (a file is replaced,
# never written through: build trees share the tree's inodes).
sync_files() {
	local dst=$1 f to
	for f in "${files[@]}"; do
		to=$dst/drivers/gpu/drm/amd/amdx/${f#*:}
		mkdir -p "$(dirname "$to")"
		cmp -s "$repo/${f%%:*}" "$to" ||
			cp --remove-destination "$repo/${f%%:*}" "$to"
	done
	for f in "${top[@]}"; do
		to=$dst/${f##*/}
		cmp -s "$repo/$f" "$to" || cp --remove-destination "$repo/$f" "$to"
	done
}

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
sync_files "$tree"
exec 9>&-

if [ "${1:-}" != --build ]; then
	echo "$tree"
	exit 0
fi
[ $# = 3 ] || { log "usage: $0 --build KDIR AMDX_SYMVERS"; exit 2; }
kdir=$(cd "$2" && pwd -P)
symvers=$3
[ -f "$kdir/Module.symvers" ] || { log "$kdir: no Module.symvers"; exit 1; }
[ -f "$symvers" ] || { log "$symvers: missing"; exit 1; }
# The kernel tree or headers: path, config, release.  Not amdx's exports
# nor the kernel's Module.symvers: modpost reads them again on every
# (incremental) build.
bkey=$( (echo "$kdir"; cat "$kdir/.config" "$kdir/include/config/kernel.release") |
	sha256sum | cut -c1-12)
build="$tree-build-$bkey"
# Before the lock: a first build running elsewhere is "not cached" too.
if [ -n "${AMDGPU_AMDX_CACHED_ONLY:-}" ] && [ ! -f "$build/.amdx-built" ]; then
	log "not cached: $build"
	exit 3
fi
exec 8> "$build.lock"
flock 8
if [ ! -f "$build/.amdx-built" ]; then
	log "building the patched amdgpu against $kdir in $build (~20-60 min once)"
	# Hard links: the build only adds files, and sync_files replaces.
	# An interrupted first build resumes where it stopped.
	if [ ! -d "$build" ]; then
		rm -rf "$build.tmp"
		cp -al "$tree" "$build.tmp"
		mv "$build.tmp" "$build"
	fi
fi
sync_files "$build"
# Unchanged exports leave the link alone.
cmp -s "$symvers" "$build/amdx.symvers" || cp "$symvers" "$build/amdx.symvers"
t0=$(date +%s)
if ! make -C "$build" KDIR="$kdir" AMDX_SYMVERS="$build/amdx.symvers" \
	-j"${AMDGPU_AMDX_JOBS:-$(nproc)}" modules > "$build/build.log" 2>&1; then
	tail -40 "$build/build.log" >&2
	log "build failed; log in $build/build.log"
	exit 1
fi
log "built in $(( $(date +%s) - t0 )) s"
if grep -E '/drivers/gpu/drm/amd/amdx/[^:]*:[0-9]+:[0-9]+: (warning|error)' "$build/build.log" >&2; then
	log "warnings in amdx's files; log in $build/build.log"
	exit 1
fi
touch "$build/.amdx-built"
echo "$build/drivers/gpu/drm/amd/amdgpu/amdgpu.ko"
