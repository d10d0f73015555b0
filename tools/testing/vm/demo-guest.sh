#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The amdx demo, run inside the VM by /init (amdx.mode=demo).  Everything
# it prints goes to the host's terminal through ttyS1.
exec > /dev/ttyS1 2>&1
say() { printf '\n### %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

say "amdx loaded"
dmesg | grep 'amdx: uapi'

say "create a simulated MI300X and MI300A"
run sh -c 'echo "0 model=mi300x" > /sys/bus/amdx_sim/new_device'
run sh -c 'echo "1 model=mi300a vram=256" > /sys/bus/amdx_sim/new_device'
run amdx dev list

say "amdx dev show (text)"
run amdx dev show

say "amdx -j -p dev show (JSON)"
run amdx -j -p dev show

say "sysfs view"
for d in /sys/class/amdx/amdx*; do
	echo "$d: model=$(cat "$d/model") bdf=$(cat "$d/bdf")" \
	     "compute=$(cat "$d/compute_mode") memory=$(cat "$d/memory_mode")"
done

say "HMM: place a buffer on partition 0 of the MI300X's VRAM, touch it from the CPU"
id=$(amdx -j dev list | jq '.devices[] | select(.model == "mi300x") | .id')
run amdx hmm demo "$id" size=8M partition=0

say "an invalid device is refused with the reason"
run sh -c 'echo "2 model=mi999" > /sys/bus/amdx_sim/new_device'
dmesg | grep amdx_sim | tail -n 1

say "demo complete"
