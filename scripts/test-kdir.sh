#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Makefile's default KDIR: the running kernel's build tree, else the
# newest generic Debian headers, never an -rt or -cloud flavour.
# Prints KTAP; exit status 0 when every case passes.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

# case NAME EXPECTED KVER HEADERS...: /usr/src replaced by $tmp/NAME.
case_() {
	local name=$1 want=$2 kver=$3 got
	shift 3
	mkdir -p "$tmp/$name/src" "$tmp/$name/lib"
	for h in "$@"; do
		mkdir -p "$tmp/$name/src/linux-headers-$h"
	done
	n=$((n + 1))
	got=$(make -s -C "$root" --no-print-directory kdir KVER="$kver" \
	      HEADERS_DIR="$tmp/$name/src")
	got=${got#"$tmp/$name/src/linux-headers-"}
	if [ "$got" = "$want" ]; then
		echo "ok $n $name"
	else
		echo "# $name: KDIR is '$got', expected '$want'"
		echo "not ok $n $name"
		fail=1
	fi
}

echo "TAP version 13"
echo "1..4"
case_ newest_generic 6.12.117+deb12-amd64 none \
	6.1.0-57-amd64 6.12.117+deb12-amd64 6.12.117+deb12-common
case_ rt_and_cloud_skipped 6.12.117+deb12-amd64 none \
	6.1.0-57-amd64 6.12.117+deb12-amd64 6.12.117+deb12-rt-amd64 \
	6.12.117+deb12-cloud-amd64 6.1.0-57-rt-amd64
case_ older_generic_over_newer_rt 6.1.0-57-amd64 none \
	6.1.0-57-amd64 6.12.117+deb12-rt-amd64 6.12.117+deb12-cloud-amd64
case_ version_order 6.1.0-57-amd64 none 6.1.0-9-amd64 6.1.0-57-amd64
exit $fail
