#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# ctest lib.abi: the built libamdx against the recorded baseline
# (tools/lib/abi/libamdx.abi.xz) with abidiff.  Any difference fails.  The
# comparison covers every type an exported symbol reaches, the uapi's
# structures of the C ABI included: no header filter, because the baseline
# carries no source locations and abidiff's --headers-dir would then take
# every one of its types for a private one and hide their layout changes.
# Additions alone are compatible (a new baseline, a MINOR bump); anything
# else needs a new SONAME (Documentation/library.rst).
#   abi_check.sh LIBAMDX_SO BASELINE.xz
set -u
so=$1 baseline=$2
tmp=$(mktemp)
report=$(mktemp)
trap 'rm -f "$tmp" "$report"' EXIT
xz -dc "$baseline" > "$tmp" || exit 1
abidiff "$tmp" "$so" > "$report" 2>&1
rc=$?
[ $rc = 0 ] && { echo "libamdx ABI matches $baseline"; exit 0; }
cat "$report"
if [ $((rc & 3)) != 0 ]; then
	echo "abidiff failed (exit $rc)" >&2
elif abidiff --no-added-syms "$tmp" "$so" > /dev/null 2>&1; then
	echo "ABI grew (additions only): compatible; bump MINOR and run tools/lib/abi/update.sh" >&2
else
	echo "INCOMPATIBLE ABI change (a removed or changed symbol or layout): bump the SONAME" \
		"(Documentation/library.rst), then run tools/lib/abi/update.sh" >&2
fi
exit 1
