# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What both initramfs packers (mkinitramfs.sh, amdgpu-check.sh) copy a
# guest program with.  Sourced.
#
#   initramfs_bin ROOT BIN	BIN into ROOT/usr/bin, and the shared
#				libraries ldd names at their own paths

initramfs_bin() {
	local root=$1 bin=$2 lib

	mkdir -p "$root/usr/bin"
	cp "$bin" "$root/usr/bin/"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
