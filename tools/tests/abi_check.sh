#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# ctest lib.abi: the built libamdx against the recorded baseline
# (tools/lib/abi/libamdx.abi.xz) with abidiff.  Any difference fails: an
# incompatible one needs a new SONAME, a compatible one (an addition) a new
# baseline (tools/lib/abi/update.sh); Documentation/library.rst.
#   abi_check.sh LIBAMDX_SO HEADERS_DIR BASELINE.xz
set -u
so=$1 headers=$2 baseline=$3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
xz -dc "$baseline" > "$tmp" || exit 1
abidiff --headers-dir2 "$headers" --drop-private-types "$tmp" "$so"
rc=$?
[ $rc = 0 ] && { echo "libamdx ABI matches $baseline"; exit 0; }
[ $((rc & 8)) != 0 ] && echo "INCOMPATIBLE ABI change: bump the SONAME (library.rst)" >&2
[ $((rc & 4)) != 0 ] && echo "ABI changed: if intended, run tools/lib/abi/update.sh" >&2
exit 1
