#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lint: checkpatch --strict, sparse, headers compiled alone, C++ lint.
# usage: lint.sh KDIR    (a full kernel tree: the test kernel)
set -uo pipefail
kdir=$1
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kfiles=$(git ls-files -co --exclude-standard -- 'drivers/*.c' 'drivers/*.h' \
	'include/*.h' 'uapi/*.h' 'scripts/probes/*.c' | grep -v '\.mod\.c$')

echo "== checkpatch --strict"
# Its exit status can miss a warning in one of many files: read the report.
"$kdir/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $kfiles \
	> "$tmp/checkpatch.log" 2>&1 || fail=1
cat "$tmp/checkpatch.log"
grep -qE '^(ERROR|WARNING|CHECK):' "$tmp/checkpatch.log" && fail=1

echo "== sparse (C=2)"
make -s -C "$root" KDIR="$kdir" modules >/dev/null 2>&1
make -C "$kdir" M="$root" C=2 CHECK="sparse -Wno-decl" modules \
	> "$tmp/sparse.log" 2>&1 || { cat "$tmp/sparse.log"; fail=1; }
if grep -E "^$root/.*: (warning|error):" "$tmp/sparse.log"; then
	fail=1
fi

echo "== headers compile alone"
mkdir -p "$tmp/hdr"
: > "$tmp/hdr/Kbuild"
echo "ccflags-y += -I$root/uapi -I$root/include -I$root/generated" \
	>> "$tmp/hdr/Kbuild"
i=0
for h in $(git ls-files -co --exclude-standard -- 'drivers/*.h' 'include/*.h'); do
	i=$((i + 1))
	printf '#include "%s"\n' "$root/$h" > "$tmp/hdr/h$i.c"
	echo "CFLAGS_h$i.o += -I$root/$(dirname "$h")" >> "$tmp/hdr/Kbuild"
	echo "obj-m += h$i.o" >> "$tmp/hdr/Kbuild"
	echo "h$i: $h" >> "$tmp/hdr/map"
done
# Objects only: modpost would complain about the missing MODULE_LICENSE.
make -k -C "$kdir" M="$tmp/hdr" modules > "$tmp/hdr.log" 2>&1
while read -r obj hdr; do
	if [ ! -f "$tmp/hdr/${obj%:}.o" ]; then
		echo "header does not compile alone: $hdr"
		fail=1
	fi
done < "$tmp/hdr/map"
if grep -E "(error|warning):" "$tmp/hdr.log"; then
	fail=1
fi
for h in uapi/linux/*.h; do
	echo "#include <linux/${h##*/}>" > "$tmp/u.c"
	gcc -std=c99 -Wall -Werror -pedantic -fsyntax-only -I uapi "$tmp/u.c" ||
		fail=1
	cp "$tmp/u.c" "$tmp/u.cpp"
	g++ -std=c++20 -Wall -Werror -fsyntax-only -I uapi "$tmp/u.cpp" ||
		fail=1
done

if [ -x tools/lint.sh ]; then
	echo "== C++ clang-format and clang-tidy"
	tools/lint.sh || fail=1
fi

[ $fail = 0 ] && echo "lint: clean"
exit $fail
