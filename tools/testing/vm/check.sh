#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# amdx test run: per kernel the test kernel VM; beside them lint, host
# tests, the stock kernel VMs (Debian's images with the DKMS-built modules)
# and the amdgpu provider.  The builds of every kernel and the C++ tools
# run at the same time; the test kernel VMs one after the other in the
# background, their reports printed whole at the end
# (Documentation/testing.rst, "Time").
#
# usage: check.sh [--shell | --bench | --demo]
#   KERNELS="6.1 6.12"  the kernels to test (default both); --bench runs
#                on each one's benchmark kernel, --shell and --demo use
#                the first one.
#   SUITE=NAME   run only the KUnit suite or kselftest NAME in each test
#                kernel (no lint, no stock boot): the fast loop.
#   AMDX_VM_STALL=S  a test VM whose results stop growing for S seconds
#                is stopped (default 900; run-qemu.sh): no VM has a total
#                time limit, so a loaded host costs time, not a verdict.
# Every result line names its kernel ("[6.12/test] ..."); the run ends with
# exactly one line counting all kernels: "amdx: N passed, N failed, N skipped".
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
kernels=(${KERNELS:-6.1 6.12})
step() { echo "== [${SECONDS}s] $*" >&2; }
for k in "${kernels[@]}"; do
	case "$k" in
	6.1|6.12) ;;
	*) echo "amdx: unknown kernel $k (KERNELS=\"6.1 6.12\")" >&2; exit 2 ;;
	esac
done
[ "$mode" = check ] || [ "$mode" = bench ] || kernels=("${kernels[0]}")

P=0 F=0 S=0
add_counts() { # "counts: p f s"; none (the judge crashed) is a failure
	set -- $1
	if [ $# != 4 ]; then
		F=$((F + 1))
		return
	fi
	P=$((P + $2)) F=$((F + $3)) S=$((S + $4))
}
# What failed, repeated just above the summary line: a log cut to its
# tail still names every failure.
FAILS=()
note_fail() { FAILS+=("$*"); }
report_fails() { # REPORT: collect.py's problem lines
	local l
	while IFS= read -r l; do
		note_fail "$l"
	done < <(sed -n '/\] FAILED:$/,/\] console tail:$/{/FAILED:$/d;/console tail:$/d;p}' "$1")
}
# bg NAME CMD...: CMD in the background with counts of its own; its
# stdout and stderr wait in $work/NAME.* for bg_report.
declare -A bg_pids
bg() {
	local name=$1
	shift
	(
		P=0 F=0 S=0 FAILS=()
		"$@"
		echo "$P $F $S" > "$work/$name.counts"
		[ ${#FAILS[@]} = 0 ] || printf '%s\n' "${FAILS[@]}" > "$work/$name.fails"
	) > "$work/$name.out" 2> "$work/$name.err" &
	bg_pids[$name]=$!
}
# bg_report NAME: wait for it, print what it printed, add its counts; one
# that died without counting is a failure.
bg_report() {
	local name=$1 l
	wait "${bg_pids[$name]}" || true
	cat "$work/$name.err" >&2
	cat "$work/$name.out"
	if [ -f "$work/$name.counts" ]; then
		add_counts "counts: $(cat "$work/$name.counts")"
	else
		note_fail "[$name] stopped before its end (see above)"
		F=$((F + 1))
	fi
	[ ! -f "$work/$name.fails" ] || while IFS= read -r l; do
		note_fail "$l"
	done < "$work/$name.fails"
}
finish() {
	local f
	if [ ${#FAILS[@]} != 0 ]; then
		echo "amdx: what failed:"
		for f in "${FAILS[@]}"; do echo "  $f"; done
	fi
	echo "amdx: $P passed, $F failed, $S skipped"
	[ "$F" = 0 ]
	exit $?
}

step "dependencies"
"$here/deps.sh"
# The compiler cache: a fresh clone builds the modules, probes, selftests
# and C++ tools from it (hits need the same clone path: kbuild names the
# sources by absolute path).
export CCACHE_DIR=${CCACHE_DIR:-/var/cache/amdx/ccache}
export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=true
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
[ ! -d /usr/lib/ccache ] || export PATH=/usr/lib/ccache:$PATH
jobs=$(nproc)

flavour=test
[ "$mode" != bench ] || flavour=bench
declare -A kdirs
rm -rf "$work" && mkdir -p "$work"
for k in "${kernels[@]}"; do
	if [ "$mode" = bench ]; then
		step "$k benchmark kernel (no KASAN, lockdep, kmemleak)"
	else
		step "$k test kernel"
	fi
	kdirs[$k]=$("$here/build-kernel.sh" "$flavour" "$k")
done
# The first kernel's tree for what needs one kernel only (lint, the
# VM modes).
kdir=${kdirs[${kernels[0]}]}
ksrc=$kdir

# build_objects K: amdx's modules and the selftests for kernel K.
build_objects() {
	local k=$1 kw=$work/$1 src=$root/build/src/$1
	# A copy per kernel keeps each one's objects: warm runs rebuild
	# only what changed.
	mkdir -p "$src"
	(cd "$root" && git ls-files -co --exclude-standard -z -- \
		Kbuild Makefile dkms.conf drivers include uapi scripts |
		rsync -a --from0 --files-from=- ./ "$src/")
	make -s -j"$jobs" -C "$src" KDIR="${kdirs[$k]}" AMDX_WERROR=y modules
	mkdir -p "$kw/mods" "$kw/selftests"
	find "$src/drivers" -name '*.ko' -exec cp {} "$kw/mods/" \;
	cp "${kdirs[$k]}/lib/test_hmm.ko" "$kw/mods/" 2>/dev/null || true
	make -s -j"$jobs" -C "$root/selftests" KSRC="${kdirs[$k]}" OUT="$kw/selftests"
}
# Every kernel's objects and the C++ tools (which every VM needs: the CLI,
# the library, amdx-eventd; the benchmark's exporter scrape too) at once;
# ctest runs later, beside the VMs.
declare -A build_pids
for k in "${kernels[@]}"; do
	step "$k: modules and selftests"
	build_objects "$k" > "$work/$k-build.log" 2>&1 &
	build_pids[$k]=$!
done
step "tools"
AMDX_NO_CTEST=1 "$root/tools/build.sh" > "$work/host-build.log" 2>&1 &
tools_pid=$!
for k in "${kernels[@]}"; do
	if ! wait "${build_pids[$k]}"; then
		cat "$work/$k-build.log" >&2
		echo "amdx: building amdx or its selftests for $k failed" >&2
		exit 1
	fi
	cat "$work/$k-build.log" >&2
done
tools_ok=1
if ! wait "$tools_pid"; then
	cat "$work/host-build.log" >&2
	note_fail "[host] tools build failed"
	F=$((F + 1))
	tools_ok=0
fi
step "objects built"
# The VM modes use the first kernel's build.
ln -sfn "${kernels[0]}/mods" "$work/mods"
ln -sfn "${kernels[0]}/selftests" "$work/selftests"
if [ "$mode" = bench ]; then
	make -s -C "$root/selftests" KSRC="$ksrc" OUT="$work/st-bench" bench >&2
	export AMDX_BENCH_DIR=$work/st-bench/bench
fi
[ "$mode" != demo ] ||
	make -s -C "$root/selftests" KSRC="$ksrc" OUT="$work/st-demo" demo >&2

tools_bin=$root/tools/build/amdx/amdx
# host_tests: ctest (the tools are built), counted as one result each.
host_tests() {
	local host total hfail
	[ "$tools_ok" = 1 ] || return 0
	"$root/tools/build.sh" > "$work/host-tests.log" 2>&1 || {
		cat "$work/host-tests.log" >&2
		note_fail "[host] tools build or ctest failed"
		F=$((F + 1))
	}
	host=$(grep -E "tests passed, [0-9]+ tests failed out of" \
		"$work/host-tests.log" | tail -1 || true)
	if [ -n "$host" ]; then
		total=$(echo "$host" | sed -E 's/.*out of ([0-9]+).*/\1/')
		hfail=$(echo "$host" | sed -E 's/.*, ([0-9]+) tests failed.*/\1/')
		echo "[host] ctest: $host"
		P=$((P + total - hfail)) F=$((F + hfail))
		[ "$hfail" = 0 ] || note_fail "[host] ctest: $host"
	else
		echo "[host] ctest did not run"
		note_fail "[host] ctest did not run"
		F=$((F + 1))
	fi
}
bins=()
[ -x "$tools_bin" ] && bins+=("$tools_bin" "$root"/tools/build/lib/libamdx.so*)
bins+=("$(command -v jq)")
bins+=("$(command -v trinity)") # amdx_trinity_test.sh
for b in "$root/tools/build/eventd/amdx-eventd" "$(command -v promtool)"; do [ -x "$b" ] && bins+=("$b"); done # amdx_fleet_test.sh
[ "$mode" != demo ] || bins+=("$work"/st-demo/demo/*)
[ "$mode" != bench ] || bins+=("$(command -v strace)") # the exporter's ioctls

# Host-side checks: one KTAP script each, counted like the VM's results.
host_ktap() { # LABEL SCRIPT [ARGS...]
	local label=$1 out
	shift
	out=$("$@" 2>&1) || true
	echo "$out" | sed -n "s|^\(not ok\) [0-9]* \(.*\)|[$label] \2: FAILED|p; s|^ok [0-9]* \(.*\)|[$label] \1: ok|p"
	while IFS= read -r l; do
		note_fail "[$label] $l"
	done < <(echo "$out" | grep -E '^not ok ' || true)
	echo "$out" | { grep '^#' || true; } | sed "s|^|[$label] |" >&2
	P=$((P + $(echo "$out" | grep -cE '^ok [0-9]+ [^#]*$' || true)))
	S=$((S + $(echo "$out" | grep -cE '^ok [0-9]+ .*# SKIP' || true)))
	F=$((F + $(echo "$out" | grep -cE '^not ok ' || true)))
	echo "$out" | grep -qE '^(ok|not ok) ' || { echo "[$label] no results"; F=$((F + 1)); }
}

# The host's checks, run beside the test kernel VMs.
host_checks() {
	step "host tests (ctest)"
	host_tests
	step "default KDIR"
	host_ktap host/kdir "$root/scripts/test-kdir.sh"
	host_ktap host/amdgpu-values "$root/scripts/check-amdgpu-values.py"
	host_ktap host/include-graph "$root/scripts/include-graph.py"
	step "lint"
	if ! "$here/lint.sh" "$kdir" > "$work/lint.log" 2>&1; then
		cat "$work/lint.log"
		echo "[lint] FAILED"
		note_fail "[lint] FAILED: $(grep -m1 -iE 'error|warn|fail' "$work/lint.log" || true)"
		F=$((F + 1))
	else
		tail -n 5 "$work/lint.log"
		P=$((P + 1))
	fi
	step "docs"
	if ! "$root/scripts/docs.sh" "$work/docs" > "$work/docs.log" 2>&1; then
		cat "$work/docs.log"
		echo "[docs] FAILED"
		note_fail "[docs] FAILED"
		F=$((F + 1))
	else
		echo "[docs] ok"
		P=$((P + 1))
	fi
	step "host checks done"
}

# Filter the selftests for SUITE.
if [ -n "$suite" ]; then
	for k in "${kernels[@]}"; do
		find "$work/$k/selftests" -maxdepth 1 -type f ! -name "$suite" -delete
	done
fi

kunit_expect=()
for f in "$root"/drivers/amdx/tests/*_test.c; do
	n=$(sed -n 's/^\t\.name = "\(amdx_[a-z_0-9]*\)",$/\1/p' "$f")
	for s in $n; do
		[ -z "$suite" ] || [ "$s" = "$suite" ] && kunit_expect+=(--expect "kunit $s")
	done
done
selftest_expect() { # DIR: the --expect arguments for its selftests
	local t
	for t in "$1"/*; do
		[ -f "$t" ] && [ -x "$t" ] && printf '%s\n' --expect "kselftest ${t##*/}"
	done
	return 0
}
# guest-init.sh's last check: poison never retired host RAM.
host_ram_expect=(--expect "kselftest host_ram")

step "initramfs"
for k in "${kernels[@]}"; do
	"$here/mkinitramfs.sh" "$work/$k/initrd.gz" "$work/$k/mods" \
		"$work/$k/selftests" "${bins[@]}"
done
ln -sfn "${kernels[0]}/initrd.gz" "$work/initrd.gz"

if [ "$mode" = shell ]; then
	exec "$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" \
		"$work/initrd.gz" shell "$work/shell"
fi
if [ "$mode" = bench ]; then
	# The guest's TSC as its clock, as on the hardware: under TCG the
	# watchdog would otherwise switch to the emulated HPET, and every
	# clock read (vDSO or ktime_get_ns) becomes an MMIO exit (~0.7 us).
	export AMDX_QEMU_APPEND="${AMDX_QEMU_APPEND-tsc=reliable}"
	rc=0
	for k in "${kernels[@]}"; do
		out=$work/$k/bench
		step "$k benchmark VM (host load: $(cut -d' ' -f1-3 /proc/loadavg))"
		"$here/run-qemu.sh" "${kdirs[$k]}/arch/x86/boot/bzImage" \
			"$work/$k/initrd.gz" bench "$out" 2400 || true
		echo "### [$k/bench] host load after: $(cut -d' ' -f1-3 /proc/loadavg)"
		cat "$out/results.log"
		if ! grep -q '^### bench complete' "$out/results.log" ||
		   ! grep -q '^# exit=0' "$out/results.log"; then
			echo "bench: the $k VM did not finish the benchmark; console tail:" >&2
			tail -n 40 "$out/console.log" >&2
			rc=1
		fi
	done
	exit $rc
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

# test_vm K EXPECT...: the test kernel VM of K, then its report.
test_vm() {
	local k=$1 kw=$work/$1
	shift
	step "$k test kernel VM (host load: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$here/run-qemu.sh" "${kdirs[$k]}/arch/x86/boot/bzImage" "$kw/initrd.gz" \
		check "$kw/test" "${AMDX_VM_STALL:-900}" || true
	step "$k test kernel VM ended: QEMU $(cat "$kw/test/time" 2>/dev/null)"
	"$here/collect.py" "${kdirs[$k]}/tools/testing/kunit" "$kw/test" \
		--label "$k/test" "$@" > "$kw/test/report" || true
	grep -v '^counts:' "$kw/test/report"
	report_fails "$kw/test/report"
	add_counts "$(grep '^counts:' "$kw/test/report")"
}
declare -A expects
for k in "${kernels[@]}"; do
	mapfile -t expect < <(selftest_expect "$work/$k/selftests")
	expect+=("${kunit_expect[@]}")
	if [ -n "$suite" ] && [ ${#expect[@]} = 0 ]; then
		echo "amdx: no suite named $suite" >&2
		exit 2
	fi
	expect+=("${host_ram_expect[@]}")
	expects[$k]=$(printf '%s\n' "${expect[@]}")
done
# The test kernel VMs one after the other: two at once on 2 cores took
# 1195 and 1121 s against 437 and 435 s one after the other.
test_vms() {
	local k expect
	for k in "${kernels[@]}"; do
		mapfile -t expect <<< "${expects[$k]}"
		test_vm "$k" "${expect[@]}"
	done
}

# Debian's own kernel of each series: its newest generic image, or
# nothing (never a failure: set -e and pipefail would end the run).
stock_kver() {
	case "$1" in
	6.1) ls /lib/modules | grep -E '^6\.1\.0-[0-9]+-amd64$' ;;
	6.12) ls /lib/modules | grep -E '^6\.12\.[0-9]+\+deb[0-9]+-amd64$' ;;
	esac | sort -V | tail -1 || true
}
# Not installed yet (a fresh machine): the upgrade test below installs
# the newest one apt knows, except for the first kernel.
apt_kver() {
	case "$1" in
	6.1) apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
	6.12) apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb[0-9]+-amd64$' ;;
	esac | sed 's/^linux-image-\([^ ]*\) .*/\1/' | sort -V | tail -1 || true
}
declare -A stock moddirs
# stock_mods K MODDIR: a copy of the DKMS-built modules in MODDIR.
stock_mods() {
	local kw=$work/$1 moddir=$2 m
	mkdir -p "$kw/stock-mods"
	for m in amdx amdx_sim; do
		if [ -f "$moddir/$m.ko.xz" ]; then
			xz -dc "$moddir/$m.ko.xz" > "$kw/stock-mods/$m.ko"
		else
			cp "$moddir/$m.ko" "$kw/stock-mods/"
		fi
	done
}
# stock_vm K: Debian's kernel of K with its copy of the DKMS modules.
stock_vm() {
	local k=$1 kv=${stock[$1]} kw=$work/$1
	local stexpect
	mapfile -t stexpect < <(selftest_expect "$kw/selftests")
	stexpect+=("${host_ram_expect[@]}")
	"$here/mkinitramfs.sh" "$kw/initrd-stock.gz" "$kw/stock-mods" \
		"$kw/selftests" "${bins[@]}"
	"$here/run-qemu.sh" "/boot/vmlinuz-$kv" "$kw/initrd-stock.gz" \
		stock "$kw/stock" 900 || true
	step "$k stock kernel VM ended: QEMU $(cat "$kw/stock/time" 2>/dev/null)"
	"$here/collect.py" "${kdirs[$k]}/tools/testing/kunit" "$kw/stock" \
		--label "$k/stock" "${stexpect[@]}" > "$kw/stock/report" || true
	grep -v '^counts:' "$kw/stock/report"
	report_fails "$kw/stock/report"
	add_counts "$(grep '^counts:' "$kw/stock/report")"
}
# The stock kernels: DKMS, the apt upgrade, then their VMs.
stock_runs() {
	local k kv first lock
	# DKMS, /usr/src/amdx-* and the installed modules belong to the
	# machine: another make check waits here until this one has copied
	# its modules (the other's "dkms remove" would take them away).
	exec {lock}> /var/cache/amdx/dkms.lock
	flock -n "$lock" || { step "waiting for another run's DKMS steps"; flock "$lock"; }
	for k in "${kernels[@]}"; do
		kv=$(stock_kver "$k")
		[ -n "$kv" ] || [ "$k" = "${kernels[0]}" ] || kv=$(apt_kver "$k")
		if [ -z "$kv" ] ||
		   { [ ! -f "/boot/vmlinuz-$kv" ] && [ "$k" = "${kernels[0]}" ]; }; then
			echo "[$k/stock] no Debian $k kernel installed"
			note_fail "[$k/stock] no Debian $k kernel installed"
			F=$((F + 1))
			continue
		fi
		stock[$k]=$kv
	done

	# DKMS: register amdx and build it for the first kernel; every further
	# kernel is then installed with apt as an upgrade would, and its postinst
	# hook must build amdx (dkms-upgrade.sh).
	first=
	for k in "${kernels[@]}"; do
		kv=${stock[$k]:-}
		[ -n "$kv" ] || continue
		if [ -z "$first" ]; then
			first=$k
			step "$k: dkms add/build/install for $kv"
			if moddirs[$k]=$("$here/dkms.sh" "$kv"); then
				echo "[$k/stock] dkms add/build/install for $kv: ok"
				P=$((P + 1))
			else
				echo "[$k/stock] dkms failed"
				note_fail "[$k/stock] dkms failed"
				F=$((F + 1))
				unset "moddirs[$k]"
			fi
		elif [ -n "${moddirs[$first]:-}" ]; then
			step "$k: apt install of $kv with amdx in DKMS"
			host_ktap "$k/dkms-upgrade" "$here/dkms-upgrade.sh" "$kv"
			d=/lib/modules/$kv/updates/dkms
			[ ! -d "$d" ] || moddirs[$k]=$d
		else
			echo "[$k/stock] not run: dkms failed for ${stock[$first]}"
			note_fail "[$k/stock] not run: dkms failed"
			F=$((F + 1))
		fi
	done

	for k in "${kernels[@]}"; do
		[ -z "${moddirs[$k]:-}" ] || stock_mods "$k" "${moddirs[$k]}"
	done
	exec {lock}>&-

	for k in "${kernels[@]}"; do
		[ -n "${moddirs[$k]:-}" ] || continue
		step "$k stock kernel VM (${stock[$k]}, DKMS modules)"
		stock_vm "$k"
	done
}
# amdgpu_provider: the amdgpu provider (Documentation/amdgpu.rst), 6.12
# only: the patched amdgpu's builds and its load test in a VM of the 6.12
# test kernel.
amdgpu_provider() {
	[[ " ${kernels[*]} " == *" 6.12 "* ]] || return 0
	step "6.12 amdgpu provider"
	KDIR=${kdirs[6.12]} host_ktap 6.12/amdgpu "$here/amdgpu-check.sh"
}

if [ -n "$suite" ]; then
	test_vms
	finish
fi
# The test kernel VMs in the background; beside them, one after the
# other, the host's checks, DKMS and the stock kernel VMs, the amdgpu
# provider: a test VM keeps about one of the 2 cores busy (its QEMU's CPU
# time is in each "VM ended" step line).
bg tests test_vms
host_checks
stock_runs
amdgpu_provider
step "waiting for the test kernel VMs"
bg_report tests
finish
