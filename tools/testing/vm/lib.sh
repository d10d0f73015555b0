# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the rig's host programs share (check.sh, shell.sh, bench.sh,
# demo.sh; Documentation/testing.rst, "What runs where"): the kernels
# to use, the builds, the programs in the guest, the initramfs, and the
# counts every result line adds to.  Sourced, after `set -euo pipefail`.
#
#   vm_init ONE		KERNELS (default "6.1 6.12") into kernels[];
#			ONE=1 keeps only the first (a VM mode boots one)
#   vm_build FLAVOUR	packages, the compiler cache, each kernel's
#			FLAVOUR kernel (test or bench: build-kernel.sh) in
#			kdirs[], amdx's modules and the selftests for each
#			in $work/K, and the C++ tools, all at once
#   vm_bins [BIN...]	bins[]: what the guest runs besides the
#			selftests (the CLI, its library, jq, trinity,
#			amdx-eventd, promtool), then BIN...
#   vm_initramfs	$work/K/initrd.gz for each kernel, $work/initrd.gz
#			the first one's
#   step TEXT		a progress line, with the seconds since the start
#   P F S, FAILS[], add_counts, note_fail, report_fails, finish: the
#			counts and the one summary line
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$root/build/vm
step() { echo "== [${SECONDS}s] $*" >&2; }

P=0 F=0 S=0
add_counts() { # "counts: p f s"; none (the judge crashed) is a failure
	# shellcheck disable=SC2086
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
# The VMs' logs outlive the work tree (CI's clone is deleted after the
# run): the newest runs' stay in $AMDX_CACHE/runs (keep_logs).
keep_logs() {
	local d=${AMDX_CACHE:-/var/cache/amdx}/runs f k m
	mkdir -p "$d" 2> /dev/null || return 0
	f=$d/$(date -u +%Y%m%dT%H%M%SZ)-$$
	mkdir -p "$f"
	for k in "$work"/*/; do
		k=${k%/}
		for m in test test-2 test-3 test-4 stock amdgpu systemd; do
			[ -d "$k/$m" ] || continue
			mkdir -p "$f/${k##*/}-$m"
			cp "$k/$m"/*.log "$k/$m"/report "$k/$m"/time "$f/${k##*/}-$m/" \
				2> /dev/null || true
		done
	done
	find "$d" -mindepth 1 -maxdepth 1 -type d | sort | head -n -6 | xargs -r rm -rf
	echo "amdx: the VMs' logs are kept in $f"
}
finish() {
	local f
	if [ ${#FAILS[@]} != 0 ]; then
		echo "amdx: what failed:"
		for f in "${FAILS[@]}"; do
			case $f in *"    | "*) ;; *) echo "  $f" ;; esac
		done
		# The diagnostics collect.py kept of the first failures, last:
		# where a log cut to its tail still shows them.
		echo "amdx: the first failures in their own words:"
		printf '%s\n' "${FAILS[@]}" | grep -B1 -F '    | ' |
			grep -v '^--$' | head -n 24 | sed 's/^/  /' || true
	fi
	keep_logs
	# What the run cost in CPU (user + system of every process it
	# waited for, the VMs' QEMUs included) beside its wall time: the
	# measure of its work, which a loaded host stretches in wall time
	# but hardly in CPU (a guest's two vCPUs do spin more when they
	# share the cores; Documentation/testing.rst, "Budgets").  times,
	# not $(times): a subshell has no children.
	times > "$work/times"
	awk 'NR == 2 {
		for (i = 1; i <= 2; i++) { split($i, a, "m"); c += a[1] * 60 + a[2] }
		printf "amdx-cost: %d s wall, %d CPU-s\n", '"$SECONDS"', c
	}' "$work/times" >&2
	echo "amdx: $P passed, $F failed, $S skipped"
	[ "$F" = 0 ]
	exit $?
}

vm_init() { # ONE
	local k
	# shellcheck disable=SC2206
	kernels=(${KERNELS:-6.1 6.12})
	for k in "${kernels[@]}"; do
		case "$k" in
		6.1|6.12) ;;
		*) echo "amdx: unknown kernel $k (KERNELS=\"6.1 6.12\")" >&2; exit 2 ;;
		esac
	done
	[ "$1" != 1 ] || kernels=("${kernels[0]}")
}

# build_objects K: amdx's modules and the selftests for kernel K.
build_objects() {
	local k=$1 kw=$work/$1 src=$root/build/src/$1
	# A copy per kernel keeps each one's objects: warm runs rebuild
	# only what changed.  By content, and a changed file gets the time
	# of the copy: with rsync -a it kept its own, so a file edited while
	# the last build compiled its old copy looked older than its object
	# and was never rebuilt (a stale amdx.ko in a helper's run).
	mkdir -p "$src"
	(cd "$root" && git ls-files -co --exclude-standard -z -- \
		Kbuild Makefile dkms.conf drivers include uapi scripts |
		rsync -rlp --checksum --from0 --files-from=- ./ "$src/")
	# kbuild names every source by its absolute path, in the compiler's
	# arguments and in each object (__FILE__ of WARN_ON and BUG_ON), so
	# ccache's entries of one clone missed in every other: a clone at a
	# new path recompiled all of amdx for both kernels (155 misses; 408 s
	# under load, about a minute quiet).  So the build runs at one fixed
	# path for every clone, /run/amdx/src/K, where a mount namespace of
	# the build's own binds this clone's copy: concurrent runs of other
	# clones each see their own.
	local fixed=/run/amdx/src/$k
	if [ "$(id -u)" = 0 ] && mkdir -p "$fixed" 2>/dev/null &&
		unshare --mount true 2>/dev/null; then
		# shellcheck disable=SC2016 # expanded by that sh
		unshare --mount --propagation private sh -c \
			'mount --bind "$1" "$2" && exec make -s -j"$3" -C "$2" KDIR="$4" AMDX_WERROR=y modules' \
			sh "$src" "$fixed" "$jobs" "${kdirs[$k]}"
	else
		make -s -j"$jobs" -C "$src" KDIR="${kdirs[$k]}" AMDX_WERROR=y modules
	fi
	mkdir -p "$kw/mods" "$kw/selftests"
	find "$src/drivers" -name '*.ko' -exec cp {} "$kw/mods/" \;
	cp "${kdirs[$k]}/lib/test_hmm.ko" "$kw/mods/" 2>/dev/null || true
	make -s -j"$jobs" -C "$root/selftests" KSRC="${kdirs[$k]}" OUT="$kw/selftests"
}

declare -A kdirs
vm_build() { # FLAVOUR
	local flavour=$1 k
	local -A build_pids
	step "dependencies"
	"$here/deps.sh"
	# The compiler cache: a fresh clone builds the modules, probes,
	# selftests and C++ tools from it, at any path (build_objects).
	export CCACHE_DIR=${CCACHE_DIR:-${AMDX_CACHE:-/var/cache/amdx}/ccache}
	export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=true
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
	[ ! -d /usr/lib/ccache ] || export PATH=/usr/lib/ccache:$PATH
	jobs=$(nproc)

	# build/vm is this run's: a second run in the same tree (make check
	# for each kernel at once, say) used to delete the first one's VMs'
	# files under it, and both failed.  It stops here instead, before
	# touching anything (held until exit, by whatever this run starts:
	# a QEMU left running still writes there).
	mkdir -p "$root/build"
	exec {worklock}> "$root/build/vm.lock"
	if ! flock -n "$worklock"; then
		echo "amdx: another run in this tree holds $root/build/vm.lock: wait for it, or run from another clone" >&2
		exit 2
	fi
	rm -rf "$work" && mkdir -p "$work"
	for k in "${kernels[@]}"; do
		if [ "$flavour" = bench ]; then
			step "$k benchmark kernel (no KASAN, lockdep, kmemleak)"
		else
			step "$k test kernel"
		fi
		kdirs[$k]=$("$here/build-kernel.sh" "$flavour" "$k")
	done
	# The first kernel's tree for what needs one kernel only (lint,
	# the VM modes).
	kdir=${kdirs[${kernels[0]}]}

	# Every kernel's objects and the C++ tools (which every VM needs:
	# the CLI, the library, amdx-eventd; the benchmark's exporter
	# scrape too) at once; ctest runs later, beside the VMs.
	for k in "${kernels[@]}"; do
		step "$k: modules and selftests"
		build_objects "$k" > "$work/$k-build.log" 2>&1 &
		build_pids[$k]=$!
	done
	step "tools"
	AMDX_NO_CTEST=1 "$root/tools/build.sh" > "$work/host-build.log" 2>&1 &
	local tools_pid=$!
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
}

tools_bin=$root/tools/build/amdx/amdx
vm_bins() { # [BIN...]
	local b
	bins=()
	[ -x "$tools_bin" ] && bins+=("$tools_bin" "$root"/tools/build/lib/libamdx.so*)
	# `amdx exporter` runs it, from amdx's directory.
	[ -x "${tools_bin%/*}/amdx-exporter" ] && bins+=("${tools_bin%/*}/amdx-exporter")
	bins+=("$(command -v jq)")
	bins+=("$(command -v trinity)") # amdx_trinity_test.sh
	for b in "$root/tools/build/eventd/amdx-eventd" "$(command -v promtool)"; do
		[ -x "$b" ] && bins+=("$b") # amdx_fleet_test.sh
	done
	bins+=("$@")
}

vm_initramfs() {
	local k
	step "initramfs"
	for k in "${kernels[@]}"; do
		"$here/mkinitramfs.sh" "$work/$k/initrd.gz" "$work/$k/mods" \
			"$work/$k/selftests" "${bins[@]}"
	done
	ln -sfn "${kernels[0]}/initrd.gz" "$work/initrd.gz"
}
