#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Device identity in the VM: there is no amdgpu, so libdrm's
# drmGetDevices2() and the KFD topology find nothing for simulated devices.
# `amdx -j dev show` must still succeed and report the fields absent, with
# a note (tools/lib/include/amdx/identity.hpp).  busybox sh; prints KTAP.
. "${0%/*}/lib/ktap.sh"
. "${0%/*}/lib/sim.sh"
sim_block identity || exit 1
ID=$SIM_FIRST

ktap_plan 4
if ! command -v amdx >/dev/null || ! command -v jq >/dev/null || [ ! -d "$SIM" ]; then
	skip_rest "no amdx, jq or amdx_sim"
	ktap_exit
fi
echo "$ID model=mi300x" > "$SIM/new_device" || not_ok "create sim device $ID"
out=$(amdx -j dev show 2>"$tmp/err")
rc=$?
[ $rc = 0 ] && ok "dev show succeeds without amdgpu" ||
	not_ok "dev show succeeds without amdgpu (rc $rc: $(cat "$tmp/err"))"
nulls=$(echo "$out" | jq '[.devices[].identity | select(.drm_card == null and .drm_render == null)] | length')
all=$(echo "$out" | jq '.devices | length')
[ -n "$all" ] && [ "$all" -gt 0 ] && [ "$nulls" = "$all" ] && ok "no DRM nodes for simulated devices" ||
	not_ok "no DRM nodes for simulated devices ($nulls of $all)"
kfd=$(echo "$out" | jq '[.devices[].identity.kfd_nodes | length] | add')
[ "$kfd" = 0 ] && ok "no KFD nodes" || not_ok "no KFD nodes ($kfd)"
notes=$(echo "$out" | jq -r '.devices[].identity.note' | grep -c simulated)
[ "$notes" = "$all" ] && ok "each says why" || not_ok "each says why ($notes of $all)"
del_dev "$ID"
ktap_exit
