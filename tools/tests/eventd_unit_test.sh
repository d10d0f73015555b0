#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# eventd_unit_test.sh UNIT RULES EVENTD WORK
# amdx-eventd.service (as configured, UNIT) and udev/70-amdx.rules (RULES):
# udev starts the daemon when /dev/amdx appears, it runs unprivileged with
# group render, and, where systemd-analyze runs, the unit verifies and its
# exposure stays low (Documentation/admin-guide/eventd.rst).
set -eu
unit=$1 rules=$2 eventd=$3 work=$4
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
has() { grep -qx "$1" "$unit" || fail "$unit has no '$1'"; }

line=$(grep '^[^#]*KERNEL=="amdx"' "$rules")
echo "$line" | grep -q 'TAG+="systemd"' || fail "no TAG+=\"systemd\" in $rules"
echo "$line" | grep -q 'ENV{SYSTEMD_WANTS}+="amdx-eventd.service"' ||
	fail "no SYSTEMD_WANTS for amdx-eventd.service in $rules"
echo "$line" | grep -q 'GROUP="render"' || fail "no GROUP=\"render\" in $rules"

has 'Type=notify'
has 'BindsTo=dev-amdx.device'
has 'After=dev-amdx.device'
has 'DynamicUser=yes'
has 'SupplementaryGroups=render'
has 'Restart=on-failure'
grep -q '^User=root' "$unit" && fail "$unit runs as root"
grep -q '^StartLimitIntervalSec=' "$unit" || fail "$unit: no StartLimitIntervalSec"
# Every man page it names is one the build makes (amdx(1) only).
for page in $(sed -n 's/^Documentation=//p' "$unit"); do
	case $page in
	man:amdx\(1\)) ;;
	man:*) fail "$unit names $page, which amdx does not install" ;;
	esac
done

command -v systemd-analyze > /dev/null 2>&1 || {
	echo "ok: unit and rule (systemd-analyze not found: not verified)"
	exit 0
}
rm -rf "$work"
mkdir -p "$work"
sed "s|^ExecStart=[^ ]*|ExecStart=$eventd|" "$unit" > "$work/amdx-eventd.service"
systemd-analyze verify --man=no "$work/amdx-eventd.service" ||
	fail "systemd-analyze verify"
systemd-analyze security --offline=true --threshold=20 --no-pager \
	"$work/amdx-eventd.service" > "$work/security.txt" ||
	fail "exposure above 2.0: $(tail -n 1 "$work/security.txt")"
tail -n 1 "$work/security.txt"
echo "ok: unit, rule, systemd-analyze verify and security"
