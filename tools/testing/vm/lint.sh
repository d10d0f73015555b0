#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lint: checkpatch --strict, sparse, headers compiled alone, C++ lint.
# usage: lint.sh [KDIR]  (a full kernel tree; default the 6.1 test kernel)
#
# checkpatch, sparse, clang-format and clang-tidy results are cached per
# file in /var/cache/amdx/lint (lintcache.py; AMDX_LINT_CACHE=off runs
# every tool afresh): a file whose content, dependencies, tool and
# configuration are unchanged is not linted again.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kdir=${1:-$("$here/build-kernel.sh" test 6.1)}
root=$(cd "$here/../../.." && pwd)
cd "$root"
fail=0
# A fixed place in the tree (not mktemp): the compiler cache then hits
# for the header objects too.
tmp=$root/build/lint
rm -rf "$tmp" && mkdir -p "$tmp"
jobs=$(nproc)

# The cache: lintcache.py in front of sparse and clang-* in PATH.
export AMDX_LINT_ROOT=$root
if [ "${AMDX_LINT_CACHE:-}" != off ]; then
	export AMDX_LINT_CACHE=${AMDX_LINT_CACHE:-${AMDX_CACHE:-/var/cache/amdx}/lint}
	mkdir -p "$AMDX_LINT_CACHE"
	find "$AMDX_LINT_CACHE" -type f -mtime +14 -delete 2>/dev/null
	bin=$tmp/bin
	mkdir -p "$bin"
	for t in sparse clang-tidy-14 clang-format-14; do
		ln -s "$here/lintcache.py" "$bin/$t"
	done
	export PATH=$bin:$PATH
	# What every result depends on besides its own files.
	AMDX_LINT_ENV=$({
		dpkg-query -W -f '${binary:Package} ${Version}\n'
		cat "$here/lintcache.py"
	} | sha256sum | cut -d' ' -f1)
	# What the kernel tools' results depend on too (not clang-*'s: a new
	# test-kernel configuration re-lints no C++).
	AMDX_LINT_ENV_KERNEL=$({
		echo "$kdir"
		cat "$kdir/.config"
	} | sha256sum | cut -d' ' -f1)
	export AMDX_LINT_ENV AMDX_LINT_ENV_KERNEL
	lint_cached() { "$here/lintcache.py" "$@"; }
else
	lint_cached() { [ "$1" != --each ] || shift; "$@"; }
fi

kfiles=$(git ls-files -co --exclude-standard -- 'drivers/*.c' 'drivers/*.h' \
	'include/*.h' 'uapi/*.h' 'scripts/probes/*.c' | grep -v '\.mod\.c$')

echo "== checkpatch --strict"
# Its exit status can miss a warning in one of many files: read the report.
lint_cached --each "$kdir/scripts/checkpatch.pl" --strict --no-tree --quiet \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $kfiles \
	> "$tmp/checkpatch.log" 2>&1 || fail=1
cat "$tmp/checkpatch.log"
grep -qE '^(ERROR|WARNING|CHECK):' "$tmp/checkpatch.log" && fail=1

echo "== sparse (C=2)"
make -s -j"$jobs" -C "$root" KDIR="$kdir" modules >/dev/null 2>&1
make -j"$jobs" -C "$kdir" M="$root" C=2 CHECK="sparse -Wno-decl" modules \
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
make -k -j"$jobs" -C "$kdir" M="$tmp/hdr" modules > "$tmp/hdr.log" 2>&1
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
	if [ -n "${AMDX_LINT_ENV:-}" ]; then
		[ -f tools/build/compile_commands.json ] ||
			cmake -S tools -B tools/build -DCMAKE_BUILD_TYPE=Release \
				-DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
		# The configurations; each translation unit's command and the
		# headers it includes are part of its own key (lintcache.py).
		AMDX_LINT_ENV_CXX=$(find . -path ./build -prune -o \
			-path ./tools/build -prune -o -name '.clang-*' -type f \
			-print | sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
		export AMDX_LINT_ENV_CXX
	fi
	tools/lint.sh || fail=1
fi

[ $fail = 0 ] && echo "lint: clean"
exit $fail
