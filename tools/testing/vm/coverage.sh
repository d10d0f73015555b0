#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make coverage: line and function coverage of drivers/amdx and
# drivers/amdx_sim by the whole test suite (Documentation/testing.rst,
# "Coverage").
#
# Builds the coverage kernel (build-kernel.sh coverage: the test kernel
# plus CONFIG_GCOV_KERNEL), amdx.ko and amdx_sim.ko with gcov
# (AMDX_GCOV=y sets GCOV_PROFILE in their Kbuild files; KUnit's module
# is not instrumented), runs every KUnit suite and selftest in the VM as
# make check does, takes the counters guest-init.sh dumps from
# /sys/kernel/debug/gcov, and prints the table with lcov, then every
# `return -E...;` / `ret = -E...;` of drivers/amdx no test reached.
#
# usage: coverage.sh [--report]   KERNELS=6.1 (default; 6.12 the same)
#   --report  only the host side again, from the last run's results
# Output in build/cov/KERNEL: amdx.info (lcov), table.rst, errno.txt.
# Not part of make check.  Exit 1 when a test failed or no counters came
# out; the table is printed either way.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
k=${KERNELS:-6.1}
work=$root/build/cov/$k

report_only=
[ "${1:-}" != --report ] || report_only=1
step "dependencies"
"$here/deps.sh" lcov
src=$work/src
rc=0
if [ -z "$report_only" ]; then
	step "$k coverage kernel"
	kdir=$("$here/build-kernel.sh" coverage "$k")
	grep -qx CONFIG_GCOV_KERNEL=y "$kdir/.config" ||
		{ echo "coverage: $kdir has no CONFIG_GCOV_KERNEL" >&2; exit 1; }

	step "$k: modules with gcov, selftests"
	# A tree of its own: the guest's counter files name these objects' paths.
	mkdir -p "$src"
	(cd "$root" && git ls-files -co --exclude-standard -z -- \
		Kbuild Makefile dkms.conf drivers include uapi scripts |
		rsync -a --from0 --files-from=- ./ "$src/")
	make -s -C "$src" KDIR="$kdir" AMDX_WERROR=y AMDX_GCOV=y modules >&2
	rm -rf "$work/mods" "$work/selftests" "$work/test"
	mkdir -p "$work/mods" "$work/selftests"
	find "$src/drivers" -name '*.ko' -exec cp {} "$work/mods/" \;
	cp "$kdir/lib/test_hmm.ko" "$work/mods/" 2>/dev/null || true
	make -s -C "$root/selftests" KSRC="$kdir" OUT="$work/selftests" >&2
	# Counters of an earlier run must not add up with this one's.
	find "$src/drivers" -name '*.gcda' -delete

	step "tools"
	AMDX_NO_CTEST=1 "$root/tools/build.sh" > "$work/tools.log" 2>&1 ||
		{ cat "$work/tools.log" >&2; exit 1; }
	# The same programs as make check puts into the guest.
	vm_bins
	"$here/mkinitramfs.sh" "$work/initrd.gz" "$work/mods" "$work/selftests" \
		"${bins[@]}"

	step "$k coverage VM (the whole suite)"
	expect=()
	for t in "$work"/selftests/*; do
		[ -f "$t" ] && [ -x "$t" ] && expect+=(--expect "kselftest ${t##*/}")
	done
	for f in "$root"/drivers/amdx/tests/*_test.c; do
		for s in $(sed -n 's/^\t\.name = "\(amdx_[a-z_0-9]*\)",$/\1/p' "$f"); do
			expect+=(--expect "kunit $s")
		done
	done
	expect+=(--expect "kselftest host_ram")
	"$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" "$work/initrd.gz" \
		check "$work/test" "${AMDX_VM_STALL:-900}" || true
	"$here/collect.py" "$kdir/tools/testing/kunit" "$work/test" \
		--label "$k/coverage" "${expect[@]}" > "$work/test/report" || rc=1
	grep '^counts:' "$work/test/report" | sed 's/^/coverage: tests /' >&2
	[ $rc = 0 ] || grep -v '^counts:' "$work/test/report" | grep -v ': ok$' >&2 || true
fi

step "counters"
# The guest's paths are this host's: put each .gcda next to its .gcno.
gcda=$work/gcda
rm -rf "$gcda" && mkdir -p "$gcda"
tr -d '\r' < "$work/test/results.log" |
	sed -n '/^### gcov$/,/^### /{/^### /d;p}' | base64 -d |
	tar -C "$gcda" -xzf - ||
	{ echo "coverage: no gcov counters in the guest's results" >&2; exit 1; }
n=0
while IFS= read -r -d '' f; do
	dst=${f#"$gcda"}
	case "$dst" in
	"$src"/drivers/*) cp "$f" "$dst"; n=$((n + 1)) ;;
	esac
done < <(find "$gcda" -name '*.gcda' -print0)
[ "$n" != 0 ] || { echo "coverage: no counters for $src" >&2; exit 1; }

# Branch counters too: they decide the errno lines that have no line
# counter of their own (coverage-report.py).
br=(--rc lcov_branch_coverage=1)
lcov -q --capture --directory "$src/drivers/amdx" \
	--directory "$src/drivers/amdx_sim" "${br[@]}" \
	-o "$work/all.info" 2> "$work/lcov.log" || { cat "$work/lcov.log" >&2; exit 1; }
lcov -q "${br[@]}" --extract "$work/all.info" "$src/drivers/amdx/*" \
	"$src/drivers/amdx_sim/*" -o "$work/amdx.info" 2>> "$work/lcov.log"
lcov --list "$work/amdx.info" --list-full-path 2> /dev/null |
	sed "s|$src/||" >&2
"$here/coverage-report.py" --root "$src" "$work/amdx.info" \
	--table "$work/table.rst" --errno "$work/errno.txt"
cat "$work/table.rst"
echo
echo "uncovered errno returns of drivers/amdx ($(grep -c . "$work/errno.txt" || true)):"
cat "$work/errno.txt"
exit $rc
