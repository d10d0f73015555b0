#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Records libamdx's ABI baseline (lib/abi/libamdx.abi.xz: abidw's XML,
# without paths or source locations, so any checkout compares) from a build.
# Every type an exported symbol reaches is recorded, the uapi structures of
# the C ABI included: no header filter (tests/abi_check.sh says why).
#   tools/lib/abi/update.sh [BUILD_DIR]     (default tools/build)
# Run it when an ABI change is intended, after the SONAME decision of
# Documentation/library.rst; commit the result with the change.
set -eu
lib=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$lib/../build}
so=$(readlink -f "$build/lib/libamdx.so")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
abidw --no-show-locs --no-corpus-path --no-comp-dir-path --out-file "$tmp" "$so"
echo "recorded $(grep -c '<elf-symbol ' "$tmp") ELF symbols of $(basename "$so")"
xz -9 -c "$tmp" > "$lib/abi/libamdx.abi.xz"
