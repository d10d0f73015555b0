#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# trinity (Debian's package) against /dev/amdx, device fds and event fds,
# as root and as uid 1000 (group render) at the same time, for a bounded
# time and number of calls.  Trinity only fuzzes fds it opens from paths: trinity/
# amdx_fdshim.so (LD_PRELOAD) turns its victim files amdx-ctl, amdx-device
# and amdx-event into the three kinds of amdx fd, numbered 700-799,
# 800-899 and 900-999, and strace counts the ioctls on those numbers.
# Fewer than AMDX_TRINITY_MIN (10000) amdx ioctls is a harness failure.
# Kernel reports fail the run through the rig's console scan.
# Trinity 2023.01 crashes now and then at startup and hangs when fd
# providers are restricted, so it runs with all of them in short rounds
# until enough amdx ioctls were issued or the time is up.
# Busybox sh; prints KTAP.
here=$(cd "$(dirname "$0")" && pwd)
SHIM=$here/trinity/amdx_fdshim.so
SIM=/sys/bus/amdx_sim
IDS="860 861"
MIN=${AMDX_TRINITY_MIN:-10000}
SECS=${AMDX_TRINITY_SECS:-250}		# both users at once
ROUND=${AMDX_TRINITY_ROUND:-6000}	# syscalls per trinity run
VICTIMS=/tmp/amdx-trinity
n=0
fails=0
total=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; }

echo "TAP version 13"
echo "1..4"
if ! command -v trinity > /dev/null || ! command -v strace > /dev/null ||
   [ ! -f "$SHIM" ] || [ ! -c /dev/amdx ] || [ ! -d $SIM ]; then
	for t in trinity_as_root trinity_as_uid1000 amdx_ioctls cleanup; do
		n=$((n + 1))
		echo "ok $n $t # SKIP needs trinity, strace, $SHIM and amdx_sim"
	done
	exit 4
fi

set -- $IDS
echo "$1 model=mi300x vram=128" > $SIM/new_device
echo "$2 model=mi308x vram=64" > $SIM/new_device
rm -rf $VICTIMS "$VICTIMS-wd"
mkdir -p $VICTIMS "$VICTIMS-wd"
for f in amdx-ctl amdx-device amdx-event; do
	: > "$VICTIMS/$f"
done
chmod 0755 $VICTIMS
chmod 0666 $VICTIMS/*
chmod 0777 "$VICTIMS-wd"

# round USER LOG: one trinity run under strace in its own session, killed
# with its whole process group when it overstays.
round() {
	user=$1 log=$2
	dangerous=
	[ "$user" = root ] && dangerous=--dangerous
	cmd="cd $VICTIMS-wd && exec strace -f -qq --seccomp-bpf -e trace=ioctl \
		-o $log -E LD_PRELOAD=$SHIM -E AMDX_SHIM_DIR=$VICTIMS \
		trinity -q -l off $dangerous -c ioctl -V $VICTIMS -N $ROUND -C 1"
	if [ "$user" = root ]; then
		setsid sh -c "$cmd" > "$log.out" 2>&1 &
	else
		setsid su -s /bin/sh "$user" -c "$cmd" > "$log.out" 2>&1 &
	fi
	pid=$!
	left=$((deadline - $(date +%s)))
	while kill -0 $pid 2> /dev/null && [ $left -gt 0 ]; do
		sleep 1
		left=$((deadline - $(date +%s)))
	done
	kill -KILL -$pid 2> /dev/null
	wait $pid 2> /dev/null
	rc=$?
}

# count LOG: ioctls on amdx fds, per kind ("ctl dev ev all").
count() {
	awk '{ if (match($0, /ioctl\([0-9]+,/)) {
		fd = substr($0, RSTART + 6, RLENGTH - 7) + 0; all++
		if (fd >= 700 && fd < 800) c++
		else if (fd >= 800 && fd < 900) d++
		else if (fd >= 900 && fd < 1000) e++ } }
	     END { printf "%d %d %d %d\n", c, d, e, all }' "$1"
}

# run NAME USER: rounds until MIN/2 amdx ioctls or the deadline; prints a
# comment and, last, "counts CTL DEV EV".
run() {
	name=$1 user=$2
	ctl=0 dev=0 ev=0 all=0 rounds=0 crashes=0
	start=$(date +%s)
	deadline=$((start + SECS))
	while [ $(date +%s) -lt $deadline ] &&
	      [ $((ctl + dev + ev)) -lt $((MIN / 2)) ]; do
		log=/tmp/amdx-trinity-$name.strace
		rm -f "$log"
		round "$user" "$log"
		rounds=$((rounds + 1))
		grep -q "Segmentation fault\|killed by SIGSEGV" "$log.out" 2>/dev/null &&
			crashes=$((crashes + 1))
		set -- $(count "$log")
		ctl=$((ctl + $1)) dev=$((dev + $2)) ev=$((ev + $3)) all=$((all + $4))
		cp "$log.out" "/tmp/amdx-trinity-$name.last" 2>/dev/null
	done
	echo "# trinity as $name: $rounds rounds ($crashes crashed at startup)" \
	     "in $(($(date +%s) - start)) s: $all ioctls, $((ctl + dev + ev)) on amdx fds" \
	     "(/dev/amdx $ctl, device $dev, event $ev)"
	grep -v "Couldn't open socket\|Can't do protocol\|futex:\|sysv_shm\|Continuing in" \
		"/tmp/amdx-trinity-$name.last" 2>/dev/null | tail -n 8 | sed 's/^/#   /'
	rm -f /tmp/amdx-trinity-$name.strace* /tmp/amdx-trinity-$name.last
	echo "counts $ctl $dev $ev"
}

# Both users at once: trinity's startup is slow under TCG.
run root root > /tmp/amdx-trinity-root.res 2>&1 &
p1=$!
run uid1000 amdx > /tmp/amdx-trinity-uid1000.res 2>&1 &
p2=$!
wait $p1 $p2
for name in root uid1000; do
	res=/tmp/amdx-trinity-$name.res
	grep -v '^counts ' $res
	set -- $(grep '^counts ' $res) 0 0 0 0
	total=$((total + $2 + $3 + $4))
	if [ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -gt 0 ]; then
		ok "trinity_as_$name"
	else
		not_ok "trinity_as_$name"
	fi
	rm -f $res
done
echo "# amdx ioctls issued by trinity: $total (at least $MIN required)"
if [ "$total" -ge "$MIN" ]; then
	ok amdx_ioctls
else
	not_ok amdx_ioctls
fi

gone=0
for id in $IDS; do
	echo $id > $SIM/del_device || gone=1
done
rm -rf $VICTIMS "$VICTIMS-wd"
if [ $gone = 0 ]; then ok cleanup; else not_ok cleanup; fi
[ $fails = 0 ]
