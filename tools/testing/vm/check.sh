#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# amdx test run: lint, host tests, the test kernel VM, the stock kernel VM.
#
# usage: check.sh [--shell | --bench | --fuzz | --coverage]
#   SUITE=NAME   run only the KUnit suite or kselftest NAME in the test
#                kernel (no lint, no stock boot): the fast loop.
#   --fuzz       only amdx_fuzz_test, for DURATION seconds (default 1800).
#   --coverage   every suite on the gcov kernel, modules built with
#                GCOV_PROFILE=y; prints coverage per file (coverage.py).
# Ends with exactly one line: "amdx: N passed, N failed, N skipped".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$root/build/vm
mode=check
case "${1:-}" in
--shell) mode=shell ;;
--bench) mode=bench ;;
--demo) mode=demo ;;
esac
suite=${SUITE:-}
vm_limit=1500
if [ "${1:-}" = --fuzz ]; then
	suite=amdx_fuzz_test
	fuzz_s=${DURATION:-1800}
	vm_limit=$((fuzz_s + 900))
	export AMDX_QEMU_APPEND="amdx.fuzz_seconds=$fuzz_s amdx.timeout=$((fuzz_s + 300))"
fi
coverage=
if [ "${1:-}" = --coverage ]; then
	coverage=coverage
	vm_limit=2400
	suite='*'	# every kselftest; no lint, host tests or stock kernel
fi
step() { echo "== $*" >&2; }

P=0 F=0 S=0
add_counts() { # "counts: p f s"
	set -- $1
	P=$((P + $2)) F=$((F + $3)) S=$((S + $4))
}
finish() {
	echo "amdx: $P passed, $F failed, $S skipped"
	[ "$F" = 0 ]
	exit $?
}

step "dependencies"
"$here/deps.sh"

if [ "$mode" = bench ]; then
	step "benchmark kernel (no KASAN, lockdep, kmemleak)"
	kdir=$("$here/build-kernel.sh" bench)
else
	step "test kernel"
	kdir=$("$here/build-kernel.sh" $coverage)
fi
ksrc=$kdir

step "modules against the test kernel"
make -s -C "$root" KDIR="$kdir" AMDX_WERROR=y modules \
	${coverage:+GCOV_PROFILE=y} >&2
rm -rf "$work" && mkdir -p "$work/mods" "$work/selftests"
find "$root/drivers" -name '*.ko' -exec cp {} "$work/mods/" \;
cp "$kdir/lib/test_hmm.ko" "$work/mods/" 2>/dev/null || true

step "selftests"
make -s -C "$root/selftests" KSRC="$ksrc" OUT="$work/selftests" >&2
if [ "$mode" = bench ]; then
	make -s -C "$root/selftests" KSRC="$ksrc" OUT="$work/st-bench" bench >&2
	export AMDX_BENCH_DIR=$work/st-bench/bench
fi
[ "$mode" != demo ] ||
	make -s -C "$root/selftests" KSRC="$ksrc" OUT="$work/st-demo" demo >&2

step "tools"
{ [ "$mode" = check ] && [ -z "$suite" ]; } || export AMDX_NO_CTEST=1
"$root/tools/build.sh" > "$work/host-tests.log" 2>&1 || {
	cat "$work/host-tests.log" >&2
	F=$((F + 1))
}
tools_bin=$root/tools/build/amdx/amdx
host=$(grep -E "tests passed, [0-9]+ tests failed out of" \
	"$work/host-tests.log" | tail -1 || true)
if [ -n "$host" ] && [ -z "$suite" ]; then
	total=$(echo "$host" | sed -E 's/.*out of ([0-9]+).*/\1/')
	hfail=$(echo "$host" | sed -E 's/.*, ([0-9]+) tests failed.*/\1/')
	echo "[host] ctest: $host"
	P=$((P + total - hfail)) F=$((F + hfail))
elif [ -z "$suite" ]; then
	echo "[host] ctest did not run"
	F=$((F + 1))
fi
bins=()
[ -x "$tools_bin" ] && bins+=("$tools_bin" "$root"/tools/build/lib/libamdx.so*)
bins+=("$(command -v jq)" "$(command -v trinity)" "$(command -v strace)")
[ "$mode" != demo ] || bins+=("$work"/st-demo/demo/*)

if [ "$mode" = check ] && [ -z "$suite" ]; then
	step "lint"
	if ! "$here/lint.sh" "$kdir" > "$work/lint.log" 2>&1; then
		cat "$work/lint.log"
		echo "[lint] FAILED"
		F=$((F + 1))
	else
		tail -n 5 "$work/lint.log"
		P=$((P + 1))
	fi
fi

# Filter the selftests for SUITE.
if [ -n "$suite" ]; then
	find "$work/selftests" -maxdepth 1 -type f ! -name "$suite" -delete
	[ -d "/nonexistent" ] || true
fi

expect=()
for f in "$root"/drivers/amdx/tests/*_test.c; do
	n=$(sed -n 's/^\t\.name = "\(amdx_[a-z_0-9]*\)",$/\1/p' "$f")
	for s in $n; do
		[ -z "$suite" ] || [ "$s" = "$suite" ] && expect+=(--expect "kunit $s")
	done
done
for t in "$work"/selftests/*; do
	[ -f "$t" ] && [ -x "$t" ] && expect+=(--expect "kselftest ${t##*/}")
done

step "initramfs"
"$here/mkinitramfs.sh" "$work/initrd.gz" "$work/mods" "$work/selftests" \
	"${bins[@]}"

if [ "$mode" = shell ]; then
	exec "$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" \
		"$work/initrd.gz" shell "$work/shell"
fi
if [ "$mode" = bench ]; then
	step "benchmark VM"
	rc=0
	# The guest's TSC as its clock, as on the hardware: under TCG the
	# watchdog would otherwise switch to the emulated HPET, and every
	# clock read (vDSO or ktime_get_ns) becomes an MMIO exit (~0.7 us).
	export AMDX_QEMU_APPEND="${AMDX_QEMU_APPEND-tsc=reliable}"
	"$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" "$work/initrd.gz" \
		bench "$work/bench" 2400 || rc=$?
	cat "$work/bench/results.log"
	if ! grep -q '^### bench complete' "$work/bench/results.log" ||
	   ! grep -q '^# exit=0' "$work/bench/results.log"; then
		echo "bench: the VM did not finish the benchmark; console tail:" >&2
		tail -n 40 "$work/bench/console.log" >&2
		exit 1
	fi
	exit 0
fi
if [ "$mode" = demo ]; then
	step "demo VM"
	rc=0
	"$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" "$work/initrd.gz" \
		demo "$work/demo" 900 || rc=$?
	cat "$work/demo/results.log"
	if ! grep -q '^### demo complete' "$work/demo/results.log" || [ $rc != 0 ]; then
		echo "demo: the VM did not finish the demo; console tail:" >&2
		tail -n 40 "$work/demo/console.log" >&2
		exit 1
	fi
	exit 0
fi

step "test kernel VM"
if [ -n "$suite" ] && [ ${#expect[@]} = 0 ]; then
	echo "amdx: no suite named $suite" >&2
	exit 2
fi
"$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" "$work/initrd.gz" check \
	"$work/test" "$vm_limit" || true
res=0
"$here/collect.py" "$ksrc/tools/testing/kunit" "$work/test" --label test \
	"${expect[@]}" > "$work/test/report" || res=$?
grep -v '^counts:' "$work/test/report"
add_counts "$(grep '^counts:' "$work/test/report")"
[ -z "${fuzz_s:-}" ] ||
	sed -n '/^### kselftest amdx_fuzz_test/,/^### /p' "$work/test/results.log"
[ -z "$coverage" ] ||
	"$here/coverage.py" "$work/test/results.log" "$root" "$work/coverage" ||
	F=$((F + 1))

[ -z "$suite" ] || finish

step "stock kernel VM (Debian linux-image-amd64, DKMS)"
kver=$(ls /lib/modules | grep -E '^6\.1\.0-[0-9]+-amd64$' | sort -V | tail -1)
if [ -z "$kver" ] || [ ! -f "/boot/vmlinuz-$kver" ]; then
	echo "[stock] no Debian 6.1 kernel installed"
	F=$((F + 1))
	finish
fi
step "dkms for $kver"
if moddir=$("$here/dkms.sh" "$kver"); then
	echo "[stock] dkms add/build/install for $kver: ok"
	P=$((P + 1))
	mkdir -p "$work/stock-mods"
	for m in amdx amdx_sim; do
		if [ -f "$moddir/$m.ko.xz" ]; then
			xz -dc "$moddir/$m.ko.xz" > "$work/stock-mods/$m.ko"
		else
			cp "$moddir/$m.ko" "$work/stock-mods/"
		fi
	done
	stexpect=()
	for t in "$work"/selftests/*; do
		[ -f "$t" ] && [ -x "$t" ] &&
			stexpect+=(--expect "kselftest ${t##*/}")
	done
	"$here/mkinitramfs.sh" "$work/initrd-stock.gz" "$work/stock-mods" \
		"$work/selftests" "${bins[@]}"
	"$here/run-qemu.sh" "/boot/vmlinuz-$kver" "$work/initrd-stock.gz" \
		stock "$work/stock" 900 || true
	"$here/collect.py" "$ksrc/tools/testing/kunit" "$work/stock" \
		--label stock "${stexpect[@]}" > "$work/stock/report" || true
	grep -v '^counts:' "$work/stock/report"
	add_counts "$(grep '^counts:' "$work/stock/report")"
else
	echo "[stock] dkms failed"
	F=$((F + 1))
fi
finish
