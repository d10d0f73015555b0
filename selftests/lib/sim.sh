# SPDX-License-Identifier: GPL-2.0
# Simulated devices for the amdx shell suites (busybox sh), sourced by each:
#
#	. "${0%/*}/lib/sim.sh"
#	sim_block NAME		SIM_FIRST, SIM_COUNT: NAME's block of
#				lib/amdx_sim_ids.def, the ids the suite owns
#	sim_id K		the Kth id of that block (K < SIM_COUNT)
#	new_dev SIM_ID ARGS...	new_device; on failure fail()s and returns 1
#	del_dev SIM_ID		del_device, quietly (cleanup)
#	amdx_id SIM_ID		the amdx device id of a simulated device
#	sim_bdf SIM_ID		its BDF (amdx_sim_dev.c)
#	sim_hang SIM_ID KNOB VAL TARGET
#				a hang the simulator detects: its debugfs
#				KNOB (hang_queue XCC, hang_vf VF,
#				hang_firmware 1) set to VAL, then the wait
#				for the detection (its own work, a job
#				timeout later) to leave an action pending on
#				TARGET (`amdx recover plan` TARGET: partition=N,
#				vf=N, or "" for the device), asked 300 times
#				0.1 s apart; 1 if it never was (no working
#				detection comes near)
#
# Builtins only but sim_hang (amdx, jq): each of the others runs many
# times per suite.
SIM=/sys/bus/amdx_sim
CLASS=/sys/class/amdx
AMDX_SIM_IDS=${AMDX_SIM_IDS:-${0%/*}/lib/amdx_sim_ids.def}

sim_block() {
	while IFS='(), 	' read -r _sim_m _sim_name _sim_first _sim_count _sim_rest; do
		[ "$_sim_m" = AMDX_SIM_IDS ] && [ "$_sim_name" = "$1" ] || continue
		SIM_FIRST=$_sim_first
		SIM_COUNT=$_sim_count
		return 0
	done < "$AMDX_SIM_IDS"
	echo "# no block '$1' in $AMDX_SIM_IDS"
	return 1
}
sim_id() {
	if [ "$1" -ge "$SIM_COUNT" ]; then
		echo "# sim id $1 is past the block's $SIM_COUNT" >&2
		return 1
	fi
	echo $((SIM_FIRST + $1))
}
new_dev() {
	echo "$*" > "$SIM/new_device" || { fail "new_device '$*' failed"; return 1; }
}
del_dev() {
	echo "$1" > "$SIM/del_device" 2>/dev/null
}
amdx_id() {
	for _sim_d in "$SIM/devices/amdx_sim$1/amdx/"amdx*; do
		[ -d "$_sim_d" ] && read -r _sim_v < "$_sim_d/id" && echo "$_sim_v" && return 0
	done
	return 1
}
sim_bdf() {
	_sim_bus=$((0xc1 + $1))
	printf '%04x:%02x:00.0' $((_sim_bus >> 8)) $((_sim_bus & 0xff))
}
sim_hang() {
	echo "$3" > "/sys/kernel/debug/amdx_sim/$1/$2" || return 1
	_sim_id=$(amdx_id "$1") || return 1
	_sim_n=0
	while [ $_sim_n -lt 300 ]; do
		# shellcheck disable=SC2086 # TARGET: one word or none
		_sim_a=$(amdx -j recover plan "$_sim_id" $4 2> /dev/null |
			 jq -r .plan.action)
		[ -n "$_sim_a" ] && [ "$_sim_a" != none ] && return 0
		sleep 0.1
		_sim_n=$((_sim_n + 1))
	done
	return 1
}
