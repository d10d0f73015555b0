#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The amdgpu provider's build and load tests, as KTAP on stdout (check.sh
# counts them with host_ktap):
#   1   the patch series applies to pristine linux-source-6.12
#   2   the patched amdgpu builds against the 6.12 test kernel
#       (build-kernel.sh test 6.12, which carries amdgpu's dependencies),
#       0 warnings in amdx's files
#   3   the README's DKMS commands build and install it for Debian's
#       linux-headers-6.12.*-amd64: amdgpu.ko in updates/dkms, depending
#       on amdx (whose DKMS build kept its Module.symvers)
#   4   "dkms remove" gives that kernel its own amdgpu back
#   5.. in a VM of the 6.12 test kernel (KASAN, lockdep, kmemleak) with
#       no AMD device: its dependencies, amdx.ko and amdgpu.ko load, no
#       amdx device is left, everything unloads, kmemleak stays silent,
#       and the console shows no kernel report;
#       amdx's own kselftests for partitions, RAS and events run against
#       the amdgpu provider (AMDX_TEST_PROVIDER=amdgpu: their devices are
#       the test amdgpu's fake MI300s, drivers/amdx_amdgpu/tests/
#       amdgpu_amdx_fake.c, registered by the provider's real
#       amdgpu_amdx_init()) and leave no device; one line per case, a
#       SKIP naming what the provider does not claim; and `amdx doctor`
#       (the CLI of tools/build, AMDX_TOOLS_BUILD) against a fake with
#       amdgpu's own sysfs files (amdgpu-doctor.sh), one line per case;
#   then one line per case of the provider's KUnit suites
#       (drivers/amdx_amdgpu/tests/), which the test kernel's amdgpu runs
#       at load on fake devices with amdgpu's own code under them.
#
# usage: amdgpu-check.sh
# Exits 1 when a test failed (a "not ok" line), else 0.
# AMDGPU_CHECK_NO_DKMS=1 leaves tests 3 and 4 out (SKIP), for iterating on
# the VM's tests while another run holds DKMS; make check never sets it.
# AMDGPU_CHECK_KUNIT_ONLY=1 leaves amdx's kselftests out of the VM (SKIP),
# for iterating on the KUnit suites; make check never sets it either.
# Every test runs on every machine: a cold cache costs time, never a
# result.  The first build of the patched amdgpu per kernel is cached
# under /var/cache/amdx by source version, config and patch hash (later
# builds recompile only what changed); the DKMS build (3) compiles the
# whole driver through ccache (as check.sh sets it up), so only its
# first run for a kernel's headers is cold (Documentation/amdgpu.rst,
# "How it is built", has the cold and warm costs).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/testing/vm/initramfs-bin.sh
. "$here/initramfs-bin.sh"
root=$(cd "$here/../../.." && pwd)
work=${AMDGPU_CHECK_WORK:-$root/build/amdgpu}

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n amdgpu: $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n amdgpu: $*"; }
skip() { n=$((n + 1)); echo "ok $n amdgpu: $1 # SKIP $2"; }
indent() { sed 's/^/# /'; }
log() { echo "# $*"; }

mkdir -p "$work"
echo "TAP version 13"

# ccache as check.sh sets it, whoever runs this (both amdgpu builds go
# through it): the keys of a manual run must be those of a make check (no
# working directory in them).  No CCACHE_BASEDIR of its own: the compiler
# runs in KDIR, so the build directory's name would stay in every
# relative path; scripts/amdgpu-tree.sh keeps that name fixed instead.
[ ! -d /usr/lib/ccache ] || export PATH=/usr/lib/ccache:$PATH
export CCACHE_DIR=${CCACHE_DIR:-${AMDX_CACHE:-/var/cache/amdx}/ccache}
export CCACHE_NOHASHDIR=true CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}

# 1. The series against pristine sources.
if tree=$("$root/scripts/amdgpu-tree.sh" 2> "$work/tree.log"); then
	ok "the patch series applies to pristine linux-source-6.12"
else
	not_ok "the patch series applies to pristine linux-source-6.12"
	indent < "$work/tree.log"
fi

# amdx built against KDIR, in a copy of the repository (work/NAME);
# prints its Module.symvers.
amdx_build() { # KDIR NAME
	local src=$work/$2
	mkdir -p "$src"
	(cd "$root" && git ls-files -co --exclude-standard -z -- \
		Kbuild Makefile dkms.conf drivers include uapi scripts |
		rsync -a --from0 --files-from=- ./ "$src/")
	make -s -C "$src" KDIR="$1" AMDX_WERROR=y modules > "$src.log" 2>&1 ||
		{ indent < "$src.log" >&2; return 1; }
	echo "$src/Module.symvers"
}

# A patched amdgpu.ko against KDIR: prints its path, or the reason with
# status 1 (a subshell: no variables).
amdgpu_build() { # KDIR NAME
	local symvers
	symvers=$(amdx_build "$1" "$2") || { echo "amdx does not build against $1"; return 1; }
	AMDGPU_AMDX_TEST=1 nice -n 10 "$root/scripts/amdgpu-tree.sh" \
		--build "$1" "$symvers" \
		2> "$work/$2-amdgpu.log" ||
		{ indent < "$work/$2-amdgpu.log" >&2; echo "build failed"; return 1; }
}

# 2. Against the 6.12 test kernel (check.sh passes its tree in KDIR).
name="the patched amdgpu builds against the 6.12 test kernel"
kdir=${KDIR:-}
[ -n "$kdir" ] ||
	kdir=$(nice -n 10 "$here/build-kernel.sh" test 6.12 2> "$work/kernel.log") ||
	{ indent < "$work/kernel.log"; kdir=; }
ko=
if [ -z "$kdir" ]; then
	not_ok "$name (the 6.12 test kernel did not build)"
elif out=$(amdgpu_build "$kdir" test); then
	ko=$out
	ok "$name"
	log "$ko"
else
	not_ok "$name ($out)"
fi

# 3, 4. The README's commands, for Debian's headers: amdx in DKMS (check.sh's
# stock runs registered this tree's copy; otherwise dkms.sh does), then
# amdgpu-amdx from the tree of test 1.  Under the lock the stock runs take:
# DKMS and the installed modules belong to the machine.  Never left
# registered: a later kernel upgrade would build amdgpu for it.
hdr=$(ls -d /lib/modules/6.12.*-amd64/build 2>/dev/null | sort -V | tail -n 1)
hkver=${hdr%/build}
hkver=${hkver##*/}
dkms_name="the README's DKMS commands install the patched amdgpu for $hkver, depending on amdx"
rm_name="dkms remove gives $hkver its own amdgpu back"
# The package's version, as scripts/amdgpu-tree.sh reads it.
pkgver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' \
	"$root/drivers/amdx_amdgpu/dkms/dkms.conf")
dkms_amdgpu_remove() {
	dkms remove -m amdgpu-amdx -v "$pkgver" --all > /dev/null 2>&1
	rm -rf /var/lib/dkms/amdgpu-amdx "/usr/src/amdgpu-amdx-$pkgver"
}
dkms_amdgpu() { # prints the reason of a failure
	local arch m d
	arch=$(uname -m)
	# The amdx installed for that kernel, as the package's dkms.conf finds it.
	m=/var/lib/dkms/amdx/kernel-$hkver-$arch/module
	if [ ! -s "$m/Module.symvers" ]; then
		"$here/dkms.sh" "$hkver" > "$work/dkms-amdx.log" 2>&1 ||
			{ indent < "$work/dkms-amdx.log" >&2; echo "amdx: dkms.sh $hkver failed"; return 1; }
		[ -s "$m/Module.symvers" ] ||
			{ echo "amdx's DKMS build kept no Module.symvers in $m"; return 1; }
	fi
	dkms_amdgpu_remove
	dkms add "$tree" > "$work/dkms.log" 2>&1 &&
		nice -n 10 dkms install -m amdgpu-amdx -v "$pkgver" -k "$hkver" >> "$work/dkms.log" 2>&1 ||
		{ indent < "$work/dkms.log" >&2
		  tail -n 30 "/var/lib/dkms/amdgpu-amdx/$pkgver/build/make.log" 2>/dev/null | indent >&2
		  echo "dkms add/install failed"; return 1; }
	d=$(modinfo -k "$hkver" -F filename amdgpu)
	case "$d" in
	*/updates/dkms/amdgpu.ko*) ;;
	*) echo "modprobe would load $d, not amdgpu-amdx's"; return 1 ;;
	esac
	case ",$(modinfo -k "$hkver" -F depends amdgpu)," in
	*,amdx,*) ;;
	*) echo "$d does not depend on amdx"; return 1 ;;
	esac
	echo "$d: version $(modinfo -k "$hkver" -F version amdgpu), depends $(modinfo -k "$hkver" -F depends amdgpu)"
}
if [ -n "${AMDGPU_CHECK_NO_DKMS:-}" ]; then
	skip "$dkms_name" "AMDGPU_CHECK_NO_DKMS is set"
	skip "$rm_name" "AMDGPU_CHECK_NO_DKMS is set"
elif [ -z "$hdr" ]; then
	not_ok "$dkms_name (no linux-headers-6.12.*-amd64 installed: check.sh's stock run installs them)"
	not_ok "$rm_name (no linux-headers-6.12.*-amd64 installed)"
elif [ -z "$tree" ]; then
	skip "$dkms_name" "the series does not apply"
	skip "$rm_name" "the series does not apply"
else
	exec {dlock}> /var/cache/amdx/dkms.lock
	flock "$dlock"
	t0=$SECONDS
	if out=$(dkms_amdgpu); then
		ok "$dkms_name"
		log "$out"
	else
		not_ok "$dkms_name ($out)"
	fi
	log "dkms add/install of amdgpu-amdx: $((SECONDS - t0)) s"
	dkms_amdgpu_remove
	d=$(modinfo -k "$hkver" -F filename amdgpu 2> /dev/null)
	case "$d" in
	*/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko*) ok "$rm_name" ;;
	*) not_ok "$rm_name (modinfo: ${d:-no amdgpu})" ;;
	esac
	exec {dlock}>&-
fi

# 5.. The VM.
# The kselftests that run against the amdgpu provider.
selftests=(amdx_partition_test amdx_ras_test amdx_event_test)
[ -z "${AMDGPU_CHECK_KUNIT_ONLY:-}" ] || selftests=()
# Their runs: amdx_ras_test@aca is amdx_ras_test on fakes made with aca=1
# (amdgpu-guest.sh).
runs=("${selftests[@]}")
[ ${#selftests[@]} = 0 ] || runs+=(amdx_ras_test@aca amdx_doctor)
vm_tests=("its dependencies load" "amdx.ko loads"
	"the patched amdgpu.ko loads without an AMD device"
	"no amdx device appears"
	"amdx's kselftests against amdgpu leave no device"
	"amdgpu.ko unloads" "amdx.ko unloads"
	"its dependencies unload" "kmemleak reports nothing"
	"no kernel report on the console")
if [ -z "$ko" ]; then
	for t in "${vm_tests[@]}"; do
		not_ok "$t (no patched amdgpu built against the 6.12 test kernel)"
	done
	not_ok "amdx's kselftests ran against the amdgpu provider"
	not_ok "the provider's KUnit suites ran"
	echo "1..$n"
	exit 1
fi

# The modules amdgpu.ko needs from the kernel tree, dependencies first.
declare -A path seen
while IFS= read -r f; do
	m=${f##*/}
	m=${m%.ko}
	path[${m//-/_}]=$f
done < <(find "$kdir" -name '*.ko')
order=()
visit() {
	local m=${1//-/_} d
	[ -z "${seen[$m]:-}" ] || return 0
	seen[$m]=1
	[ "$m" != amdx ] || return 0
	[ -n "${path[$m]:-}" ] || { log "no $m.ko in $kdir"; return 1; }
	for d in $(modinfo -F depends "${path[$m]}" | tr , ' '); do
		visit "$d" || return 1
	done
	order+=("$m")
}
rootfs=$work/vm-root
rm -rf "$rootfs" && mkdir -p "$rootfs"/{bin,dev,proc,sys,tmp,lib/amdgpu,selftests}
# amdx's kselftests (static), built against the test kernel's harness.
stdir=$work/selftests
if [ ${#selftests[@]} = 0 ]; then
	:
elif make -s -C "$root/selftests" KSRC="$kdir" OUT="$stdir" \
	"${selftests[@]/#/$stdir/}" > "$work/selftests.log" 2>&1; then
	for t in "${selftests[@]}"; do
		cp "$stdir/$t" "$rootfs/selftests/$t"
	done
else
	log "amdx's kselftests did not build:"
	indent < "$work/selftests.log"
fi
seen[amdgpu]=1
for d in $(modinfo -F depends "$ko" | tr , ' '); do
	visit "$d"
done
for m in "${order[@]}"; do
	cp "${path[$m]}" "$rootfs/lib/amdgpu/$m.ko"
done
echo "${order[*]}" > "$rootfs/lib/amdgpu/order"
log "amdgpu.ko needs: ${order[*]} amdx"
cp "$ko" "$rootfs/lib/amdgpu/amdgpu.ko"
cp "$work/test/drivers/amdx/amdx.ko" "$rootfs/lib/amdgpu/amdx.ko"
cp /bin/busybox "$rootfs/bin/busybox"
# amdgpu-doctor.sh's CLI (as make check's tools build leaves it; built here
# when missing) and jq, with the libraries ldd names.
tb=${AMDX_TOOLS_BUILD:-$root/tools/build}
if [ ${#selftests[@]} != 0 ]; then
	[ -x "$tb/amdx/amdx" ] ||
		{ cmake -S "$root/tools" -B "$tb" -DCMAKE_BUILD_TYPE=Release &&
		  nice -n 10 cmake --build "$tb" --target amdx_bin -j "$(nproc)"; } \
		> "$work/tools.log" 2>&1 ||
		{ log "the amdx CLI did not build:"; indent < "$work/tools.log"; }
	if [ -x "$tb/amdx/amdx" ] && command -v jq > /dev/null; then
		initramfs_bin "$rootfs" "$tb/amdx/amdx"
		initramfs_bin "$rootfs" "$(command -v jq)"
		cp "$here/amdgpu-doctor.sh" "$rootfs/doctor.sh"
	else
		log "no amdx CLI in $tb or no jq: amdx_doctor does not run"
	fi
fi
cp "$here/amdgpu-guest.sh" "$rootfs/init"
(cd "$rootfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

t0=$SECONDS
"$here/run-qemu.sh" "$kdir/arch/x86/boot/bzImage" "$work/initrd.gz" amdgpu \
	"$work/vm" 2400 > "$work/vm.log" 2>&1
log "VM ran $((SECONDS - t0)) s"
# The guest's own KTAP, renumbered after the host's.
got=0
while IFS= read -r l; do
	case "$l" in
	"ok "*|"not ok "*)
		got=$((got + 1))
		res=${l%% [0-9]* *}
		echo "$res $((n + got)) ${l#* [0-9]* }"
		;;
	"# "*) echo "$l" ;;
	esac
done < <(sed '/^### /,$d' "$work/vm/results.log")
n=$((n + got))
while [ $got -lt 9 ]; do
	got=$((got + 1))
	not_ok "${vm_tests[$((got - 1))]} (the guest did not report it)"
done
splats=$(python3 -c "import re, sys; sys.path.insert(0, sys.argv[1])
from collect import SPLATS
for l in open(sys.argv[2], errors='replace'):
    if SPLATS.search(l):
        print(l.rstrip())" "$here" "$work/vm/console.log")
if [ -z "$splats" ]; then
	ok "no kernel report on the console"
else
	not_ok "no kernel report on the console"
	echo "$splats" | head -40 | indent
fi

# amdx's kselftests against the amdgpu provider: each case, then a count
# per suite (what failed shows the harness's lines before it).
ran=0
for t in "${runs[@]}"; do
	tr -d '\r' < "$work/vm/results.log" |
		sed -n "/^### selftest $t\$/,/^### /p" |
		sed '1d;/^### /d' > "$work/vm/$t.log"
	if [ ! -s "$work/vm/$t.log" ]; then
		not_ok "$t ran against the amdgpu provider"
		continue
	fi
	ran=$((ran + 1))
	pass=0 skip=0 fail=0
	ctx=()
	while IFS= read -r l; do
		case "$l" in
		"ok "*"# SKIP"*)
			skip=$((skip + 1))
			ok "$t: ${l#ok [0-9]* }"
			;;
		"ok "*)
			pass=$((pass + 1))
			ok "$t: ${l#ok [0-9]* }"
			;;
		"not ok "*)
			fail=$((fail + 1))
			not_ok "$t: ${l#not ok [0-9]* }"
			printf '%s\n' "${ctx[@]}" | tail -n 20 | indent
			;;
		"#  RUN "*) ctx=() ;;
		*) ctx+=("$l") ;;
		esac
	done < "$work/vm/$t.log"
	log "$t against the amdgpu provider: $pass passed, $skip skipped, $fail failed ($(sed -n 's/^# .*: exit \([0-9]*\), \([0-9]*\) s$/exit \1, \2 s in the guest/p' "$work/vm/$t.log"))"
done
if [ -n "${AMDGPU_CHECK_KUNIT_ONLY:-}" ]; then
	skip "amdx's kselftests ran against the amdgpu provider" \
		"AMDGPU_CHECK_KUNIT_ONLY is set"
elif [ "$ran" = "${#runs[@]}" ]; then
	ok "amdx's kselftests ran against the amdgpu provider ($ran)"
else
	not_ok "amdx's kselftests ran against the amdgpu provider ($ran of ${#runs[@]})"
fi

# The provider's KUnit suites, from the kernel log of amdgpu's load.
sed '1,/^### kunit/d' "$work/vm/results.log" > "$work/vm/kunit.log"
suites=0
while IFS= read -r l; do
	case "$l" in
	"ok - "*) ok "${l#ok - }" ;;
	"not ok - "*) not_ok "${l#not ok - }" ;;
	"# suites: "*) suites=${l#\# suites: } ;;
	"# "*) echo "$l" ;;
	esac
done < <(python3 "$here/kunit-cases.py" "$kdir/tools/testing/kunit" \
	"$work/vm/kunit.log" kunit 2>&1)
if [ "$suites" -ge 1 ] 2>/dev/null; then
	ok "the provider's KUnit suites ran ($suites)"
else
	not_ok "the provider's KUnit suites ran"
fi
echo "1..$n"
[ "$failed" = 0 ]
