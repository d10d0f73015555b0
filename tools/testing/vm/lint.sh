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

# sparse and the headers compiled alone, in the tree R (the clone, or the
# fixed path below); exits 1 on a finding.
kernel_lint() { # R
	local r=$1 t=$1/build/lint f=0 i h obj hdr
	export AMDX_LINT_ROOT=$r
	echo "== sparse (C=2)"
	make -s -j"$jobs" -C "$r" KDIR="$kdir" modules >/dev/null 2>&1
	make -j"$jobs" -C "$kdir" M="$r" C=2 CHECK="sparse -Wno-decl" modules \
		> "$t/sparse.log" 2>&1 || { cat "$t/sparse.log"; f=1; }
	if grep -E "^$r/.*: (warning|error):" "$t/sparse.log"; then
		f=1
	fi

	echo "== headers compile alone"
	mkdir -p "$t/hdr"
	: > "$t/hdr/Kbuild"
	echo "ccflags-y += -I$r/uapi -I$r/include -I$r/generated" \
		>> "$t/hdr/Kbuild"
	i=0
	for h in $(git ls-files -co --exclude-standard -- 'drivers/*.h' 'include/*.h'); do
		i=$((i + 1))
		printf '#include "%s"\n' "$r/$h" > "$t/hdr/h$i.c"
		echo "CFLAGS_h$i.o += -I$r/$(dirname "$h")" >> "$t/hdr/Kbuild"
		echo "obj-m += h$i.o" >> "$t/hdr/Kbuild"
		echo "h$i: $h" >> "$t/hdr/map"
	done
	# Objects only: modpost would complain about the missing MODULE_LICENSE.
	make -k -j"$jobs" -C "$kdir" M="$t/hdr" modules > "$t/hdr.log" 2>&1
	while read -r obj hdr; do
		if [ ! -f "$t/hdr/${obj%:}.o" ]; then
			echo "header does not compile alone: $hdr"
			f=1
		fi
	done < "$t/hdr/map"
	if grep -E "(error|warning):" "$t/hdr.log"; then
		f=1
	fi
	for h in uapi/linux/*.h; do
		echo "#include <linux/${h##*/}>" > "$t/u.c"
		gcc -std=c99 -Wall -Werror -pedantic -fsyntax-only -I uapi "$t/u.c" ||
			f=1
		cp "$t/u.c" "$t/u.cpp"
		g++ -std=c++20 -Wall -Werror -fsyntax-only -I uapi "$t/u.cpp" ||
			f=1
	done
	return $f
}
# kbuild names every source by its absolute path, in the compiler's
# arguments and in each object: at the clone's own path, ccache missed for
# every object of a clone at a new path (CI's), 208 s of a loaded run's
# lint.  As build_objects builds the test modules (lib.sh), sparse and the
# headers' compiles run at one fixed path for every clone, /run/amdx/lint,
# where a private mount namespace binds this clone (lintcache.py writes
# either path as @ROOT@, so its entries hold at both).
fixed=/run/amdx/lint
if [ "$(id -u)" = 0 ] && mkdir -p "$fixed" 2>/dev/null &&
	unshare --mount true 2>/dev/null; then
	export -f kernel_lint
	export kdir jobs
	# shellcheck disable=SC2016 # expanded by that bash
	unshare --mount --propagation private bash -c \
		'mount --bind "$1" "$2" && cd "$2" && kernel_lint "$2"' \
		bash "$root" "$fixed" || fail=1
else
	kernel_lint "$root" || fail=1
fi

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
