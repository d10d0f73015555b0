#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A kernel upgrade never breaks because of amdx: with amdx registered in
# DKMS (dkms.sh), install Debian's headers and image of kernel KVER with
# apt, as an unattended upgrade would, and check that the transaction
# succeeds, leaves nothing unconfigured, and that DKMS's autoinstall hook
# built and installed amdx for KVER.
#
# usage: dkms-upgrade.sh KVER
# When both packages are installed already they are reinstalled: dpkg
# runs the same postinst hooks (/etc/kernel/postinst.d/dkms and
# header_postinst.d/dkms) without taking the headers away from anyone.
# Prints KTAP; exit status 0 when every case passes.
set -uo pipefail
kver=$1
root=$(cd "$(dirname "$0")/../../.." && pwd)
name=amdx
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$root/dkms.conf")
pkgs=("linux-headers-$kver" "linux-image-$kver")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
n=0 fail=0
result() { # result OK NAME [DIAGNOSTIC...]
	local ok=$1 t=$2
	shift 2
	n=$((n + 1))
	if [ "$ok" = 0 ]; then
		echo "ok $n $t"
	else
		printf '# %s\n' "$@"
		echo "not ok $n $t"
		fail=1
	fi
}

echo "TAP version 13"
echo "1..3"
if ! dkms status -m "$name" -v "$ver" | grep -q .; then
	echo "# $name/$ver is not registered in DKMS (run dkms.sh first)"
	echo "Bail out!"
	exit 1
fi
# The upgrade, not an earlier run, must build amdx for $kver.
dkms remove -m "$name" -v "$ver" -k "$kver" >/dev/null 2>&1 || true

reinstall=()
all=1
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		all=0
done
[ $all = 0 ] || reinstall=(--reinstall)
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
	install -y -q --no-install-recommends "${reinstall[@]}" "${pkgs[@]}" \
	> "$log" 2>&1
rc=$?
mapfile -t diag < <(tail -n 25 "$log")
result $rc "apt_install_${kver}_exit_0" "apt-get exit $rc" "${diag[@]}"

audit=$(dpkg --audit 2>&1)
mapfile -t diag <<< "$audit"
[ -z "$audit" ]
result $? dpkg_audit_empty "${diag[@]}"

d=/lib/modules/$kver/updates/dkms
st=$(dkms status -m "$name" -v "$ver" -k "$kver" 2>/dev/null)
ok=0
echo "$st" | grep -q ': installed' || ok=1
for m in amdx amdx_sim; do
	[ -f "$d/$m.ko" ] || [ -f "$d/$m.ko.xz" ] || ok=1
done
result $ok "amdx_installed_for_$kver" "dkms status: $st" \
	"modules in $d: $(ls "$d" 2>/dev/null | tr '\n' ' ')"
exit $fail
