#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The ResourceSlices of `amdx -j partition export` against the Kubernetes
# API: the schemas of the npm package kubernetes-models 5.1.0 (Kubernetes
# 1.36.0) and the API server's ResourceSlice rules (fleet_k8s_validate.mjs),
# for the fake kernel's fleet in SPX and in CPX with VFs (each VF a
# device, tainted as its partitions), and for a node
# name that is not one (a usage error, no object).  Exit 77 (skipped) when
# node or the packages are missing: make check installs them
# (fleet_k8s_deps.sh from tools/testing/vm/deps.sh).
#
# usage: fleet_k8s_test.sh AMDX_FLEET_FAKE WORKDIR
set -eu
fake=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
mods=$("$here/fleet_k8s_deps.sh" --path)
if ! command -v node > /dev/null || [ ! -d "$mods/node_modules/kubernetes-models" ]; then
	echo "SKIP: node or $mods/node_modules/kubernetes-models missing (run tools/testing/vm/deps.sh)"
	exit 77
fi
rm -rf "$work" && mkdir -p "$work"

validate() {
	node "$here/fleet_k8s_validate.mjs" "$mods" < "$1"
}

# Two devices in SPX; then four in CPX with 8 VFs each.
"$fake" -d /dev/null -j partition export --node gpu-node-1.example > "$work/spx.json"
validate "$work/spx.json"
AMDX_FAKE_DEVICES=4 AMDX_FAKE_VFS=8 "$fake" -d /dev/null -j partition export --node n1 > "$work/cpx.json"
validate "$work/cpx.json"
[ "$(jq '.items | length' "$work/cpx.json")" = 8 ]
# VFs enabled: the current mode's 8 partitions and the 8 VFs per device,
# each VF with the standard attributes and its partition's counters.
[ "$(jq -c '[.items[1].spec.devices[].name]' "$work/cpx.json")" = \
	'["cpx-nps1-p0","cpx-nps1-p1","cpx-nps1-p2","cpx-nps1-p3","cpx-nps1-p4","cpx-nps1-p5","cpx-nps1-p6","cpx-nps1-p7","vf0","vf1","vf2","vf3","vf4","vf5","vf6","vf7"]' ]
[ "$(jq '[.items[1].spec.devices[] | select(.name == "vf3" or .name == "cpx-nps1-p3") | .consumesCounters] | unique | length' "$work/cpx.json")" = 1 ]

# Recovery actions pending (KEP-5055 device taints): device 0's own
# device reset taints all its entries (8 partitions and its VF), device
# 1's partition 3 reset that partition and the one VF, which holds all 8.
AMDX_FAKE_DEVICES=2 AMDX_FAKE_VFS=1 AMDX_FAKE_RECOVERY=0:all:device,1:3:partition \
	"$fake" -d /dev/null -j partition export --node n1 > "$work/taints.json"
validate "$work/taints.json"
[ "$(jq '[.items[1].spec.devices[] | select(.taints)] | length' "$work/taints.json")" = 9 ]
[ "$(jq -c '[.items[3].spec.devices[] | select(.taints) | [.name, .taints[0].effect, .taints[0].value]]' "$work/taints.json")" = '[["cpx-nps1-p3","NoSchedule","partition"],["vf0","NoSchedule","partition"]]' ]

# The validator itself refuses what the API server would: a node name
# with a space, an attribute with two values.
jq '.items[1].spec.nodeName = "bad name"' "$work/spx.json" > "$work/bad1.json"
! validate "$work/bad1.json" > "$work/bad1.out" || { echo "validator accepted a bad node name"; exit 1; }
grep -q "spec.nodeName 'bad name' is not a DNS subdomain" "$work/bad1.out"
jq '.items[1].spec.devices[0].attributes.x = {"string": "a", "int": 1}' "$work/spx.json" > "$work/bad2.json"
! validate "$work/bad2.json" > "$work/bad2.out" || { echo "validator accepted two values"; exit 1; }
grep -q "attribute 'x' must have exactly one value" "$work/bad2.out"

# A node or driver name Kubernetes would refuse is a usage error: exit 2,
# one line naming it, nothing on standard output.
for opt in "--node=bad name" "--node=UPPER" "--driver=-amdx" "--driver=$(printf 'a%.0s' $(seq 64)).com"; do
	rc=0
	"$fake" -d /dev/null -j partition export "$opt" > "$work/out" 2> "$work/err" || rc=$?
	[ "$rc" = 2 ] || { echo "partition export $opt: exit $rc, expected 2"; cat "$work/err"; exit 1; }
	[ ! -s "$work/out" ] && [ "$(wc -l < "$work/err")" = 1 ] || { echo "partition export $opt:"; cat "$work/out" "$work/err"; exit 1; }
done
echo "fleet_k8s_test: all objects valid"
