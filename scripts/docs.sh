#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make docs: build Documentation/ as HTML with Sphinx and the kernel's
# kernel-doc extension.  Any warning fails (-W), and so does a kernel-doc
# complaint about a comment the rst files pull in (KDOC_WERROR).
#
# usage: docs.sh [OUTDIR]        (default build/docs)
#   AMDX_KERNEL_SRC=DIR  a kernel tree providing Documentation/sphinx and
#                scripts/kernel-doc; default: those two extracted once from
#                Debian's linux-source-6.12 into /var/cache/amdx.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/docs}
cache=${AMDX_CACHE:-/var/cache/amdx}

ksrc=${AMDX_KERNEL_SRC:-}
if [ -z "$ksrc" ]; then
	tar=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
	if [ -z "$tar" ]; then
		echo "docs.sh: /usr/src/linux-source-6.12.tar.xz missing" \
			"(apt-get install linux-source-6.12)" >&2
		exit 1
	fi
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	ksrc=$cache/docs-linux-$ver
	if [ ! -x "$ksrc/scripts/kernel-doc" ]; then
		mkdir -p "$ksrc.tmp"
		top=$(basename "$tar" .tar.xz)
		tar -xJf "$tar" -C "$ksrc.tmp" --strip-components=1 \
			"$top/Documentation/sphinx" "$top/scripts/kernel-doc"
		rm -rf "$ksrc"
		mv "$ksrc.tmp" "$ksrc"
	fi
fi
rm -rf "$out"
mkdir -p "$out"
rc=0
KDOC_WERROR=1 AMDX_KERNEL_SRC=$ksrc sphinx-build -q -W --keep-going -b html \
	-d "$out/.doctrees" "$root/Documentation" "$out/html" \
	2> "$out/warnings.log" || rc=$?
cat "$out/warnings.log" >&2
echo "docs.sh: $out/html/index.html"
exit $rc
