#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# trinity (Debian's package) against /dev/amdx, device fds and event fds,
# as root and as uid 1000 (group render), one after the other, until a
# number of calls: however long the host takes (no time limit decides a
# verdict), and given up only when AMDX_TRINITY_IDLE_ROUNDS runs in a row
# reach no amdx fd.
#
# Trinity only fuzzes fds it opens from paths: trinity/amdx_fdshim.so
# (LD_PRELOAD) turns its victim files amdx-ctl*, amdx-device* and
# amdx-event* into the three kinds of amdx fd, numbered 700-799, 800-899
# and 900-999, and counts the ioctl syscalls trinity issues on each range
# and their results (AMDX_SHIM_COUNT; strace -f did the same a hundred
# times slower).  Trinity runs with its file fd provider only
# (--enable-fds=pseudo: the victim files), so nearly every ioctl it issues
# goes to an amdx fd.  Kernel reports fail the run through the rig's
# console scan.  Busybox sh; prints KTAP.
#
# As root and as uid 1000 each, fewer than AMDX_TRINITY_MIN (10000)
# ioctls on amdx fds, or a kind of fd reached not at all, is a failure of
# the harness.
#
# Trinity 2023.01's children died at nearly every ioctl here: its
# sanitiser offers the fd to each ioctl group, and the socket group's test
# walks a socket list that is NULL when no socket was made (file fds
# only).  The shim makes fstat() fail on amdx fds and the victim
# directory, so trinity skips its groups (none knows amdx) and takes its
# generic path; measured on the host as nobody, 3,000 ioctls in 0.5 s
# against 36 in 20 s before.  Each run is still given up when it stalls
# (no call for AMDX_TRINITY_FIRST_SECS after its start, fewer than
# AMDX_TRINITY_SLOW_MIN calls AMDX_TRINITY_SLOW_SECS after its first, or
# none for AMDX_TRINITY_STALL_SECS): runs on all victims until the goal,
# then, for a kind of fd not reached yet, a short run whose victims all
# open as that kind (AMDX_SHIM_KIND).  Each run prints a line as it ends
# (progress the rig sees): what it issued, how long, what ended it.
here=$(cd "$(dirname "$0")" && pwd)
SHIM=$here/trinity/amdx_fdshim.so
. "$here/lib/ktap.sh"
. "$here/lib/sim.sh"
sim_block trinity || exit 1
IDS="$SIM_FIRST $((SIM_FIRST + 1))"
MIN=${AMDX_TRINITY_MIN:-10000}
IDLE_ROUNDS=${AMDX_TRINITY_IDLE_ROUNDS:-5}	# runs in a row with no amdx ioctl
ROUND=${AMDX_TRINITY_ROUND:-30000}	# syscalls per trinity run
ROUND_SECS=${AMDX_TRINITY_ROUND_SECS:-120}	# a run's limit
FIRST_SECS=${AMDX_TRINITY_FIRST_SECS:-30}	# a run silent that long ends
SLOW_SECS=${AMDX_TRINITY_SLOW_SECS:-4}	# that long after its first call
SLOW_MIN=${AMDX_TRINITY_SLOW_MIN:-100}	# a run with fewer calls ends
STALL_SECS=${AMDX_TRINITY_STALL_SECS:-6}	# a started run idle that long ends
TOPUP=${AMDX_TRINITY_TOPUP:-100}	# amdx ioctls of a run on one kind
CHILDREN=${AMDX_TRINITY_CHILDREN:-2}
VICTIMS=/tmp/amdx-trinity
total=0

ktap_plan 4
if ! command -v trinity > /dev/null || [ ! -f "$SHIM" ] || [ ! -c /dev/amdx ] || [ ! -d $SIM ]; then
	for t in trinity_as_root trinity_as_uid1000 amdx_ioctls cleanup; do
		skip $t "needs trinity, $SHIM and amdx_sim"
	done
	exit 4
fi

if [ "${AMDX_VM_MODE:-}" = stock ]; then
	# No KASAN, lockdep or kmemleak there to judge the calls.
	for t in trinity_as_root trinity_as_uid1000 amdx_ioctls cleanup; do
		skip $t "a stock kernel: the test kernels run trinity"
	done
	exit 4
fi

set -- $IDS
echo "$1 model=mi300x vram=128" > $SIM/new_device
echo "$2 model=mi308x vram=64" > $SIM/new_device
rm -rf $VICTIMS "$VICTIMS-wd"
mkdir -p $VICTIMS "$VICTIMS-wd"
# More device fds than the others: most commands are device commands.
for f in amdx-ctl0 amdx-ctl1 amdx-ctl2 amdx-device0 amdx-device1 \
	 amdx-device2 amdx-device3 amdx-device4 amdx-device5 amdx-event0 \
	 amdx-event1 amdx-event2; do
	: > "$VICTIMS/$f"
done
chmod 0755 $VICTIMS
chmod 0666 $VICTIMS/*
chmod 0777 "$VICTIMS-wd"

# round USER COUNTS LOG STOP [KIND]: one trinity run in its own session,
# every victim opening as KIND if given (AMDX_SHIM_KIND), killed with its
# whole process group when it overstays ROUND_SECS, reached STOP ioctls
# on amdx fds (counted over the whole test run), is silent (FIRST_SECS),
# slow (SLOW_SECS, SLOW_MIN) or, once it issued its first ioctl, issues
# none for STALL_SECS.  Not -q: trinity 2023.01's children then stall for seconds
# between calls (5 calls in 3 minutes).
round() {
	user=$1 counts=$2 log=$3 stop=$4 kind=${5:-}
	dangerous=
	[ "$user" = root ] && dangerous=--dangerous
	cmd="cd $VICTIMS-wd && exec env LD_PRELOAD=$SHIM AMDX_SHIM_DIR=$VICTIMS \
		AMDX_SHIM_COUNT=$counts ${kind:+AMDX_SHIM_KIND=$kind} \
		trinity -l off $dangerous -c ioctl \
		-V $VICTIMS --enable-fds=pseudo -N $ROUND -C $CHILDREN"
	if [ "$user" = root ]; then
		setsid sh -c "$cmd" > "$log" 2>&1 &
	else
		setsid su -s /bin/sh "$user" -c "$cmd" > "$log" 2>&1 &
	fi
	pid=$!
	t0=$(date +%s)
	end=$((t0 + ROUND_SECS))
	set -- $(od -An -tu8 -v $counts)
	base=$(($1 + $2 + $3 + $4)) last=$base idle=0 calls=$base why=exit
	first=
	while kill -0 $pid 2> /dev/null; do
		sleep 1
		now=$(date +%s)
		set -- $(od -An -tu8 -v $counts)
		calls=$(($1 + $2 + $3 + $4))
		[ -n "$first" ] || [ $calls = $base ] || first=$now
		if [ $(($1 + $2 + $3)) -ge $stop ]; then
			why=goal
		elif [ $now -ge $end ]; then
			why=time
		elif [ -z "$first" ]; then
			[ $((now - t0)) -ge $FIRST_SECS ] || continue
			why=silent
		elif [ $((now - first)) -ge $SLOW_SECS ] &&
		     [ $((calls - base)) -lt $SLOW_MIN ]; then
			why=slow
		elif [ $calls != $last ]; then
			idle=0 last=$calls
			continue
		else
			idle=$((idle + 1))
			[ $idle -ge $STALL_SECS ] || continue
			why=stall
		fi
		break
	done
	kill -KILL -$pid 2> /dev/null
	wait $pid 2> /dev/null
	echo "#   $user run $((rounds + 1)) (${kind:-all victims}): $((calls - base))" \
	     "ioctls in $(($(date +%s) - t0)) s${first:+, the first after $((first - t0)) s}," \
	     "ended by $why" >&2
}

# run NAME USER GOAL [KINDS]: trinity runs on all victims until GOAL
# amdx ioctls, or IDLE_ROUNDS runs in a row reached no amdx fd; with
# KINDS, then a run of TOPUP ioctls for each kind of amdx fd not reached
# yet, its victims all opening as that kind.
# Prints comments and, last, "counts CTL DEV EV OTHER OPENED" (OPENED:
# amdx fds trinity opened).  The counts
# accumulate over the runs in one file (amdx_fdshim.c: ctl dev ev other
# ok notty inval fault perm err).
run() {
	name=$1 user=$2 goal=$3 kinds=${4:-}
	counts=/tmp/amdx-trinity-$name.counts log=/tmp/amdx-trinity-$name.log
	rounds=0 amdx=0 idle=0
	head -c 80 /dev/zero > $counts
	[ "$user" = root ] || chown "$user" $counts
	start=$(date +%s)
	while [ $idle -lt $IDLE_ROUNDS ]; do
		set -- $(od -An -tu8 -v $counts)
		amdx=$(($1 + $2 + $3))
		if [ $amdx -lt $goal ]; then
			round "$user" $counts $log $goal
		elif [ -z "$kinds" ]; then
			break
		elif [ $1 = 0 ]; then
			round "$user" $counts $log $((amdx + TOPUP)) amdx-ctl
		elif [ $2 = 0 ]; then
			round "$user" $counts $log $((amdx + TOPUP)) amdx-device
		elif [ $3 = 0 ]; then
			round "$user" $counts $log $((amdx + TOPUP)) amdx-event
		else
			break
		fi
		rounds=$((rounds + 1))
		set -- $(od -An -tu8 -v $counts)
		if [ $(($1 + $2 + $3)) = $amdx ]; then
			idle=$((idle + 1))
		else
			idle=0
		fi
	done
	[ $idle -lt $IDLE_ROUNDS ] ||
		echo "# trinity as $name: given up after $IDLE_ROUNDS runs in a row reached no amdx fd"
	set -- $(od -An -tu8 -v $counts)
	amdx=$(($1 + $2 + $3))
	echo "# trinity as $name: $rounds runs in $(($(date +%s) - start)) s:" \
	     "$(($1 + $2 + $3 + $4)) ioctls, $amdx on amdx fds" \
	     "(/dev/amdx $1, device $2, event $3)"
	echo "#   results on amdx fds: ok $5, ENOTTY $6, EINVAL $7, EFAULT $8," \
	     "EPERM $9, other ${10}"
	grep "^\[main\]" $log 2>/dev/null | tail -n 3 | sed 's/^/#   /'
	# amdx fds trinity opened (the shim numbers them 700-999)
	opened=$(grep -c '^\[main\] file fd:[789][0-9][0-9] ' $log 2>/dev/null)
	echo "counts $1 $2 $3 $4 ${opened:-0}"
	rm -f $counts $log
}

# One after the other: two trinity instances on the guest's two CPUs
# starve each other under TCG.
run uid1000 amdx $MIN kinds > /tmp/amdx-trinity-uid1000.res
run root root $MIN kinds > /tmp/amdx-trinity-root.res
short=
for name in root uid1000; do
	res=/tmp/amdx-trinity-$name.res
	grep -v '^counts ' $res
	set -- $(grep '^counts ' $res) 0 0 0 0 0
	rm -f $res
	amdx=$(($2 + $3 + $4))
	total=$((total + amdx))
	if [ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -gt 0 ]; then
		ok "trinity_as_$name"
	else
		[ "$6" != 0 ] || echo "# trinity as $name opened no amdx fd"
		not_ok "trinity_as_$name"
	fi
	echo "# amdx ioctls issued by trinity as $name: $amdx (at least $MIN required)"
	[ "$amdx" -ge "$MIN" ] || short="$short $name"
done
if [ -z "$short" ]; then
	ok amdx_ioctls
else
	echo "# short of $MIN amdx ioctls:$short"
	not_ok amdx_ioctls
fi

gone=0
for id in $IDS; do
	echo $id > $SIM/del_device || gone=1
done
rm -rf $VICTIMS "$VICTIMS-wd"
if [ $gone = 0 ]; then ok cleanup; else not_ok cleanup; fi
ktap_exit
