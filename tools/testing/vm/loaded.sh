#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check-loaded: make check (check.sh, with the same KERNELS, SUITE
# and AMDX_VM_STALL) on an oversubscribed host: AMDX_LOAD_CPUS (default
# 2) CPU hogs of Debian's stress-ng (deps.sh installs it with the rest:
# a package installed later would change the lint cache's key, which
# covers every installed package) run beside it from start to end.  No
# verdict may depend on how fast the host is (Documentation/testing.rst,
# "Stalls, not time limits"), so the result must be the one a quiet run
# gives; the last lines add the wall time and the load the run saw.
#
# usage: loaded.sh [CMD ARGS...]   (default: check.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cpus=${AMDX_LOAD_CPUS:-2}
[ $# != 0 ] || set -- "$here/check.sh"

"$here/deps.sh"
# Its own process group, so that ending it ends every worker it forked.
setsid stress-ng --cpu "$cpus" --cpu-method all --timeout 0 --quiet &
hog=$!
stop_hog() {
	kill -TERM -- "-$hog" 2>/dev/null || true
	wait "$hog" 2>/dev/null || true
}
trap stop_hog EXIT
echo "== loaded: stress-ng --cpu $cpus (process group $hog) beside $*" >&2
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$SECONDS
rc=0
"$@" || rc=$?
echo "amdx-loaded: $((SECONDS - t0)) s wall with $cpus CPU hogs beside it; load average at the start $load0, at the end $(cut -d' ' -f1-3 /proc/loadavg)" >&2
exit $rc
