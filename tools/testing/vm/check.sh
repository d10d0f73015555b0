#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: per kernel the test kernel VMs (its suites in shards); beside
# them lint, host tests, the stock kernel VMs (Debian's images with the
# DKMS-built modules), the amdgpu provider and the systemd VM.  The builds
# of every kernel and the C++ tools run at the same time (lib.sh); the
# test kernel VMs in the background, their reports printed whole at the
# end (Documentation/testing.rst, "What runs where").
#
# usage: check.sh
#   KERNELS="6.1 6.12"  the kernels to test (default both).
#   SUITE="NAME..."  run only these KUnit suites or kselftests (a shell
#                suite with or without its .sh) in each test kernel (no
#                lint, no stock boot): the fast loop.
#   AMDX_VM_SHARDS=N  boots per test kernel (default 2; 1 for SUITE).
#   AMDX_VM_STALL=S  a test VM whose results stop growing for S seconds
#                is stopped (default 900; run-qemu.sh): no VM has a total
#                time limit, so a loaded host costs time, not a verdict.
# Every result line names its kernel ("[6.12/test] ..."); the run ends with
# exactly one line counting all kernels: "amdx: N passed, N failed, N skipped".
set -euo pipefail
. "$(dirname "$0")/lib.sh"
suites=(${SUITE:-})

vm_init 0
vm_build test
vm_bins

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

# host_tests: ctest (the tools are built), counted as one result each.
host_tests() {
	local host total hfail
	[ "$tools_ok" = 1 ] || return 0
	# every host test runs here: deps.sh installed what each needs
	AMDX_ALL_TESTS=ON "$root/tools/build.sh" > "$work/host-tests.log" 2>&1 || {
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

# Host-side checks: one KTAP script each, counted like the VM's results.
host_ktap() { # LABEL SCRIPT [ARGS...]
	local label=$1 out l
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
	host_ktap host/maintainers "$here/maintainers.py" --check
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

# SUITE: keep only the selftests it names (NAME or NAME.sh) in each
# kernel's; its KUnit suites are the rest.
wanted() { # NAME: 0 if SUITE is empty or names it
	local s
	[ ${#suites[@]} != 0 ] || return 0
	for s in "${suites[@]}"; do
		[ "$1" != "$s" ] && [ "$1" != "$s.sh" ] || return 0
	done
	return 1
}
if [ ${#suites[@]} != 0 ]; then
	for k in "${kernels[@]}"; do
		for t in "$work/$k/selftests"/*; do
			[ ! -f "$t" ] || wanted "${t##*/}" || rm -f "$t"
		done
	done
fi

kunit_expect=()
for f in "$root"/drivers/amdx/tests/*_test.c; do
	n=$(sed -n 's/^\t\.name = "\(amdx_[a-z_0-9]*\)",$/\1/p' "$f")
	for s in $n; do
		! wanted "$s" || kunit_expect+=(--expect "kunit $s")
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

# The test kernel VMs' suites in shards: each kernel's selftests split
# into $shards initramfs images (the KUnit module in the first), so that
# the second core, idle once the host lane below is done, runs a test VM
# too (a queue of kernel/shard jobs, two workers; see test_vms).  The
# split balances the guest seconds in suite-seconds; SUITE runs are one
# shard per kernel unless AMDX_VM_SHARDS says otherwise.
if [ ${#suites[@]} = 0 ]; then
	shards=${AMDX_VM_SHARDS:-2}
else
	shards=${AMDX_VM_SHARDS:-1}
fi
# weight[K/NAME]: suite NAME's guest seconds on kernel K (its column).
declare -A weight planned
while read -r n w1 w12; do
	weight[6.1/$n]=$w1
	weight[6.12/$n]=${w12:-$w1}
done < <(grep -v '^#' "$here/suite-seconds")
# shard_dir K I: the work directory of kernel K's shard I.
shard_dir() {
	if [ "$2" = 0 ]; then
		echo "$work/$1/test"
	else
		echo "$work/$1/test-$(($2 + 1))"
	fi
}
# plan_shards K: shard_dir/selftests and shard_dir/initrd.gz of each shard:
# a copy of K's selftests with only that shard's suites executable.
plan_shards() {
	local k=$1 kw=$work/$1 i best w n t d
	local -a load
	for ((i = 0; i < shards; i++)); do
		d=$(shard_dir "$k" "$i")
		mkdir -p "$d"
		cp -a "$kw/selftests" "$d/selftests"
		find "$d/selftests" -maxdepth 1 -type f -perm -u+x -delete
		load[i]=0
	done
	load[0]=${weight[$k/amdx_test]:-20}
	while read -r w n; do
		best=0
		for ((i = 1; i < shards; i++)); do
			[ "${load[i]}" -ge "${load[best]}" ] || best=$i
		done
		load[best]=$((load[best] + w))
		cp -a "$kw/selftests/$n" "$(shard_dir "$k" "$best")/selftests/"
	done < <(for t in "$kw/selftests"/*; do
			[ -f "$t" ] && [ -x "$t" ] || continue
			n=${t##*/}
			echo "${weight[$k/$n]:-20} $n"
		done | sort -k1,1nr -k2,2)
	for ((i = 0; i < shards; i++)); do
		planned[$k/$i]=${load[i]}
		d=$(shard_dir "$k" "$i")
		mkdir -p "$d/mods"
		cp -a "$kw/mods/." "$d/mods/"
		# KUnit in the first shard only, and not at all when a SUITE
		# run names no KUnit suite (the fast loop).
		[ "$i" = 0 ] && [ ${#kunit_expect[@]} != 0 ] ||
			rm -f "$d/mods/amdx_test.ko"
		"$here/mkinitramfs.sh" "$d/initrd.gz" "$d/mods" "$d/selftests" \
			"${bins[@]}"
	done
}
step "initramfs ($shards shards per kernel)"
declare -A expects
vm_jobs=()
for k in "${kernels[@]}"; do
	plan_shards "$k"
	for ((i = 0; i < shards; i++)); do
		d=$(shard_dir "$k" "$i")
		mapfile -t expect < <(selftest_expect "$d/selftests")
		[ "$i" != 0 ] || expect+=("${kunit_expect[@]}")
		[ ${#expect[@]} != 0 ] || continue
		expect+=("${host_ram_expect[@]}")
		expects[$k/$i]=$(printf '%s\n' "${expect[@]}")
		vm_jobs+=("${planned[$k/$i]} $k $i")
	done
done
# Heaviest planned job first (test_vms).
mapfile -t vm_jobs < <(printf '%s\n' "${vm_jobs[@]}" | sort -k1,1nr -k2,2 |
	cut -d' ' -f2-)
if [ ${#vm_jobs[@]} = 0 ]; then
	echo "amdx: no suite named ${suites[*]}" >&2
	exit 2
fi

# test_vm K I EXPECT...: the test kernel VM of K's shard I, then its
# report.
test_vm() {
	local k=$1 d label
	d=$(shard_dir "$k" "$2")
	label=$k/${d##*/}
	shift 2
	step "$label test kernel VM (host load: $(cut -d' ' -f1-3 /proc/loadavg))"
	"$here/run-qemu.sh" "${kdirs[$k]}/arch/x86/boot/bzImage" "$d/initrd.gz" \
		check "$d" "${AMDX_VM_STALL:-900}" || true
	step "$label test kernel VM ended: QEMU $(cat "$d/time" 2>/dev/null)"
	"$here/collect.py" "${kdirs[$k]}/tools/testing/kunit" "$d" \
		--label "$label" "$@" > "$d/report" || true
	grep -v '^counts:' "$d/report"
	report_fails "$d/report"
	add_counts "$(grep '^counts:' "$d/report")"
}
# The test kernel VMs are the run's critical path.  Two workers take
# the kernel/shard jobs in order: the first from the start, beside the
# host lane; the second once the lane is done (three VMs' worth of work
# at once on 2 cores: two test VMs and the lane took 1195 and 1121 s
# against 437 and 435 s one after the other).  Each VM runs at nice -10
# (as root):
# the host lane beside them (make -j2 builds, sphinx, the stock and
# amdgpu VMs) then takes the core they leave instead of half of theirs;
# at nice 0 it slowed the first test VM from 429 to 625 s
# (testing-measurements, "Where a test VM's time goes").  Raising them,
# not lowering the lane, keeps the lane level with outside load
# (make check-loaded's hogs) instead of starving behind it.
# The jobs are in vm_jobs heaviest first (by suite-seconds).  The first
# worker takes them from the front, the second, which starts late, from
# the back: both then end close together.  CI's run of 37342d9 took
# them in one order (6.1's shards of 536 and 565 s, then 6.12's of 919
# and 802 s) and ended at 1,941 s, the last 6.12 shard begun near
# 1,140 s; from both ends, with the second worker starting about 600 s
# in, the front worker runs both 6.12 shards and the back one both 6.1
# shards, which ends near 1,780 s by the same numbers (an estimate).
# vm_claim front|back: the index of the worker's next job in vm_jobs, or
# nothing when none is left.
vm_claim() {
	local fd front back i
	exec {fd}>> "$work/vm-jobs.lock"
	flock "$fd"
	front=$(cat "$work/vm-jobs.front" 2> /dev/null || echo 0)
	back=$(cat "$work/vm-jobs.back" 2> /dev/null || echo 0)
	if [ $((front + back)) -ge ${#vm_jobs[@]} ]; then
		exec {fd}>&-
		return 1
	fi
	if [ "$1" = front ]; then
		i=$front
		echo $((front + 1)) > "$work/vm-jobs.front"
	else
		i=$((${#vm_jobs[@]} - 1 - back))
		echo $((back + 1)) > "$work/vm-jobs.back"
	fi
	exec {fd}>&-
	echo "$i"
}
test_vms() { # front|back
	local side=$1 i expect
	renice -n -10 -p "$BASHPID" > /dev/null 2>&1 || true
	while i=$(vm_claim "$side"); do
		# shellcheck disable=SC2086
		set -- ${vm_jobs[i]}
		mapfile -t expect <<< "${expects[$1/$2]}"
		test_vm "$1" "$2" "${expect[@]}"
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
	# One TCG thread for both vCPUs (Documentation/testing.rst, "The
	# stock kernels under one TCG thread"): Debian's kernel rewrites its
	# own code as modules load, and under multi-threaded TCG it once
	# took an int3 no one claimed right after amdx's insmod.
	AMDX_VM_TCG=${AMDX_VM_TCG:-thread=single} \
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
	local k kv first lock d
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
# systemd_lane: amdx-eventd's unit and udev rule under the host's systemd
# and udev, in a VM of Debian's 6.12 kernel with its DKMS-built modules
# (systemd-check.sh; Documentation/testing.rst, "The systemd VM").
systemd_lane() {
	[ -n "${stock[6.12]:-}" ] || return 0
	step "6.12 systemd VM (amdx-eventd under systemd and udev)"
	local mods=()
	[ ! -d "$work/6.12/stock-mods" ] || mods=("$work/6.12/stock-mods")
	KVER=${stock[6.12]} AMDX_SYSTEMD_WORK=$work/6.12/systemd \
		host_ktap 6.12/systemd "$here/systemd-check.sh" "${mods[@]}"
}

if [ ${#suites[@]} != 0 ]; then
	test_vms front
	finish
fi
# The test kernel VMs in the background; beside them, one after the
# other, the host's checks, DKMS and the stock kernel VMs, the amdgpu
# provider: a test VM keeps about one of the 2 cores busy (its QEMU's CPU
# time is in each "VM ended" step line).  Then a second worker takes the
# test VM jobs left.
bg tests test_vms front
host_checks
stock_runs
amdgpu_provider
systemd_lane
step "waiting for the test kernel VMs"
bg tests2 test_vms back
bg_report tests
bg_report tests2
finish
