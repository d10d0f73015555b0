#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Device identity in the VM: there is no amdgpu, so libdrm's
# drmGetDevices2() and the KFD topology find nothing for simulated devices.
# `amdx -j dev show` must still succeed and report the fields absent, with
# a note (tools/lib/include/amdx/identity.hpp).  busybox sh; prints KTAP.
SIM=/sys/bus/amdx_sim
ID=931
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }

echo "TAP version 13"
echo "1..4"
if ! command -v amdx >/dev/null || ! command -v jq >/dev/null || [ ! -d "$SIM" ]; then
	for t in 1 2 3 4; do echo "ok $t - identity # SKIP no amdx, jq or amdx_sim"; done
	exit 0
fi
echo "$ID model=mi300x" > "$SIM/new_device" || not_ok "create sim device $ID"
out=$(amdx -j dev show 2>/tmp/amdx_identity.err)
rc=$?
[ $rc = 0 ] && ok "dev show succeeds without amdgpu" ||
	not_ok "dev show succeeds without amdgpu (rc $rc: $(cat /tmp/amdx_identity.err))"
nulls=$(echo "$out" | jq '[.devices[].identity | select(.drm_card == null and .drm_render == null)] | length')
all=$(echo "$out" | jq '.devices | length')
[ -n "$all" ] && [ "$all" -gt 0 ] && [ "$nulls" = "$all" ] && ok "no DRM nodes for simulated devices" ||
	not_ok "no DRM nodes for simulated devices ($nulls of $all)"
kfd=$(echo "$out" | jq '[.devices[].identity.kfd_nodes | length] | add')
[ "$kfd" = 0 ] && ok "no KFD nodes" || not_ok "no KFD nodes ($kfd)"
notes=$(echo "$out" | jq -r '.devices[].identity.note' | grep -c simulated)
[ "$notes" = "$all" ] && ok "each says why" || not_ok "each says why ($notes of $all)"
echo "$ID" > "$SIM/del_device" 2>/dev/null
exit $failed
