#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The amdx trace system: device add/remove events carry the id and BDF the
# uapi reports; amdx_event carries every field of an event record.  Busybox
# sh; prints KTAP.
T=/sys/kernel/tracing
. "${0%/*}/lib/ktap.sh"
. "${0%/*}/lib/sim.sh"
sim_block trace || exit 1
ID=$SIM_FIRST
BDF=""

check() { # name, command...
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

ktap_plan 5
if [ ! -d $T/events/amdx ]; then
	for t in add_event remove_event event_fields_match_uapi hmm_events_exist \
		 event_log_records; do
		skip $t "no tracefs events for amdx"
	done
	exit 4
fi

echo > $T/trace
echo 1 > $T/events/amdx/amdx_device_add/enable
echo 1 > $T/events/amdx/amdx_device_remove/enable
echo 1 > $T/events/amdx/amdx_event/enable
echo "$ID model=mi308x" > $SIM/new_device
dev=$(ls -d $SIM/devices/amdx_sim$ID/amdx/amdx* 2>/dev/null | head -n 1)
aid=$(cat "$dev/id" 2>/dev/null)
BDF=$(cat "$dev/bdf" 2>/dev/null)
# two RMA (13) records through the event log's testing hook
echo "13 2" > /sys/kernel/debug/amdx/amdx$aid/emit_events
echo "$ID" > $SIM/del_device
echo 0 > $T/events/amdx/enable

check add_event grep -q "amdx_device_add: id=$aid bdf=$BDF model=3" $T/trace
check remove_event grep -q "amdx_device_remove: id=$aid\$" $T/trace
check event_fields_match_uapi test -n "$aid" -a -n "$BDF"
if [ -d $T/events/amdx/amdx_hmm_migrate ]; then
	check hmm_events_exist test -d $T/events/amdx/amdx_hmm_fault -a \
		-d $T/events/amdx/amdx_hmm_evict
else
	skip hmm_events_exist "no HMM in this kernel"
fi
rec="amdx_event: dev=$aid seq=[0-9]* ts=[0-9]* kind=13 size=64 block=0 type=0 instance=0 partition=-1 address=0x0"
check event_log_records test "$(grep -c "$rec data0=[01] data1=2\$" $T/trace)" = 2
echo "# add/remove events for amdx$aid ($BDF)"
ktap_exit
