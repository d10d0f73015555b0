# SPDX-License-Identifier: GPL-2.0
# KTAP output of the amdx shell suites (busybox sh), sourced by each:
#
#	. "${0%/*}/lib/ktap.sh"
#	ktap_plan N		"TAP version 13", "1..N"; n=0, failed=0,
#				$tmp a fresh directory (removed by ktap_exit)
#	ok NAME, not_ok NAME, skip NAME WHY	one result line each
#	diag TEXT		TEXT as "# " lines
#	fail TEXT		records a failure of the current test...
#	result NAME		...which ends: ok, or not ok with the
#				recorded lines as diagnostics
#	skip_rest WHY		the planned tests not run yet, skipped
#	ktap_exit		exit status: 1 if a test failed or the
#				count differs from the plan, else 0
#
# Builtins only in what runs per assertion: under TCG with KASAN every
# exec costs 0.1 s (busybox) to 0.6 s (amdx, jq; Documentation/testing.rst,
# "Where a test VM's time goes").

ktap_plan() {
	ktap_planned=$1
	n=0
	failed=0
	tmp=$(mktemp -d "/tmp/${0##*/}.XXXXXX") || exit 1
	: > "$tmp/fail"
	echo "TAP version 13"
	echo "1..$1"
}
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n - $1"
}
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}
diag() {
	while IFS= read -r _ktap_l; do
		echo "# $_ktap_l"
	done <<KTAP_DIAG
$*
KTAP_DIAG
}
fail() {
	echo "$*" >> "$tmp/fail"
}
result() {
	if [ -s "$tmp/fail" ]; then
		diag "$(cat "$tmp/fail")"
		not_ok "$1"
	else
		ok "$1"
	fi
	: > "$tmp/fail"
}
skip_rest() {
	while [ "$n" -lt "$ktap_planned" ]; do
		skip "test_$((n + 1))" "$1"
	done
}
ktap_exit() {
	if [ "$n" != "$ktap_planned" ]; then
		echo "# ran $n tests, planned $ktap_planned"
		failed=1
	fi
	rm -rf "$tmp"
	exit $failed
}
