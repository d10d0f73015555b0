#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
# /init of the amdx test VM.  Mode from the kernel command line:
#   amdx.mode=check   run every suite, results on ttyS1, then power off
#   amdx.mode=stock   the same on Debian's stock kernel (no KUnit)
#   amdx.mode=demo    run /demo.sh, then power off
#   amdx.mode=bench   run /bench.sh (the HMM benchmark), then power off
#   amdx.mode=shell   load everything and give a shell on the console
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/usr/local/bin
export LD_LIBRARY_PATH=/usr/local/lib
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /tmp && mount -t tmpfs tmpfs /tmp

mode=check
stall=480
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	amdx.mode=*) mode=${arg#amdx.mode=} ;;
	# a selftest silent this long (s) is killed
	amdx.timeout=*) stall=${arg#amdx.timeout=} ;;
	esac
done

out=/dev/ttyS1
section() { echo "### $*" > $out; }
# Whole seconds since boot: each suite's section ends with "# seconds=N"
# (collect.py lists the slowest; Documentation/testing.rst, "Time").
uptime_s() {
	local up rest
	read -r up rest < /proc/uptime
	echo "${up%.*}"
}
finish() {
	sync
	reboot -f
}

# A selftest's verdict never depends on how fast the host is: it may run
# as long as it needs, and only a test that prints nothing for $stall
# seconds is killed (a stall).  run_suite T runs T in a session of its
# own with its output in $suite_log; pump copies that to $out as it
# grows, so that the host sees progress too (run-qemu.sh's own stall
# limit), and kills T's process group on a stall.
suite_log=/tmp/suite.out
suite_done=/tmp/suite.done
pump() { # PID
	local off=0 size last done=
	last=$(uptime_s)
	while :; do
		[ ! -e $suite_done ] || done=1
		size=$(stat -c %s $suite_log)
		if [ "$size" -gt $off ]; then
			tail -c +$((off + 1)) $suite_log | head -c $((size - off)) > $out
			off=$size
			last=$(uptime_s)
			continue
		fi
		[ -z "$done" ] || return 0
		if [ $(($(uptime_s) - last)) -ge "$stall" ]; then
			echo "# stalled: no output for $stall s, killed" > $out
			kill -KILL -"$1" 2> /dev/null
			last=$(uptime_s)
		fi
		sleep 1
	done
}
run_suite() { # T
	local pid wd rc
	rm -f $suite_done
	: > $suite_log
	( cd /selftests && exec setsid "$1" ) > $suite_log 2>&1 &
	pid=$!
	pump $pid &
	wd=$!
	wait $pid
	rc=$?
	# what the suite left running in its session
	kill -KILL -$pid 2> /dev/null
	: > $suite_done
	wait $wd
	echo "# exit=$rc" > $out
}

echo "amdx-vm: mode $mode, $(nproc) cpus, kernel $(uname -r)"
# Forget boot-time kmemleak objects: only leaks made by amdx count.
[ -w /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak

# No udev here: give /dev/amdx the group udev/70-amdx.rules names.
amdx_udev() {
	local rules=/lib/udev/rules.d/70-amdx.rules group
	group=$(sed -n '/^[^#]*KERNEL=="amdx"/s/.*GROUP="\([^"]*\)".*/\1/p' \
		"$rules")
	[ -n "$group" ] || { echo "amdx-vm: no GROUP in $rules"; return 1; }
	chgrp "$group" /dev/amdx
}

load() {
	insmod /lib/amdx/amdx.ko || return 1
	amdx_udev || return 1
	insmod /lib/amdx/amdx_sim.ko || return 1
}

case "$mode" in
shell)
	load
	echo "amdx-vm: amdx loaded; 'reboot -f' leaves the VM"
	setsid cttyhack sh
	finish
	;;
demo)
	load
	sh /demo.sh
	finish
	;;
bench)
	load
	sh /bench.sh
	finish
	;;
esac

section "begin $mode"
echo "# seconds=$(uptime_s)" > $out
if [ "$mode" = check ] && [ -f /lib/amdx/amdx_test.ko ]; then
	# KUnit suites run at insmod and print nested KTAP to the kernel
	# log (the debugfs copies of 6.1 lose parameterised cases).
	# The log is copied out while they run: progress for the host.
	insmod /lib/amdx/amdx.ko
	dmesg -c > /dev/null
	section "kunit amdx_test"
	t0=$(uptime_s)
	rm -f $suite_done
	( insmod /lib/amdx/amdx_test.ko; : > $suite_done ) &
	while [ ! -e $suite_done ]; do
		sleep 2
		dmesg -c > $out
	done
	wait
	t1=$(uptime_s)
	dmesg -c > $out
	echo "# seconds=$((t1 - t0))" > $out
	rmmod amdx_test
	rmmod amdx
fi

load || section "error cannot load amdx"
if [ "$mode" = stock ]; then
	export AMDX_EXPECT_DEVICE_PRIVATE=0
else
	export AMDX_EXPECT_DEVICE_PRIVATE=1
fi
# The fuzzer and trinity run where KASAN, lockdep and kmemleak judge them
# (the test kernels), not on Debian's stock kernels.
export AMDX_VM_MODE=$mode
# Poison must never cost host RAM: amdx never calls memory_failure(), which
# panics with recovery off, and HardwareCorrupted stays 0 (checked below).
[ -w /proc/sys/vm/memory_failure_recovery ] &&
	echo 0 > /proc/sys/vm/memory_failure_recovery
# after_suite NAME: every selftest starts from freshly loaded modules and
# must leave them unloadable: whatever a suite leaves behind (a process
# holding /dev/amdx, a pin, a stuck device) fails that suite's own
# "left_nothing_behind" result instead of the suites after it.  Its
# processes are gone first (run_suite's session, killed whole).
after_suite() { # NAME
	local i held t0
	t0=$(uptime_s)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rmmod amdx_sim 2> /dev/null
		rmmod amdx 2> /dev/null
		[ -e /sys/module/amdx ] || break
		sleep 1
	done
	section "kselftest $1 after"
	{
		echo "TAP version 13"
		echo "1..1"
		if [ -e /sys/module/amdx ]; then
			held=$(ls -l /proc/[0-9]*/fd 2> /dev/null | grep -c amdx)
			echo "# amdx still loaded 10 s after the suite:" \
				"refcount $(cat /sys/module/amdx/refcnt)," \
				"$held open files on it"
			echo "not ok 1 left_nothing_behind"
		else
			echo "ok 1 left_nothing_behind"
		fi
		echo "# exit=0"
	} > $out
	[ -e /sys/module/amdx ] || load || section "error cannot load amdx"
	echo "# seconds=$(($(uptime_s) - t0))" > $out
}
for t in /selftests/*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	name=${t##*/}
	section "kselftest $name"
	t0=$(uptime_s)
	run_suite "$t"
	echo "# seconds=$(($(uptime_s) - t0))" > $out
	after_suite "$name"
done

section "kselftest host_ram"
hc=$(awk '/^HardwareCorrupted:/ { print $2 }' /proc/meminfo)
{
	echo "TAP version 13"
	echo "1..1"
	if [ "${hc:-0}" = 0 ]; then
		echo "ok 1 hardware_corrupted_stays_zero"
	else
		echo "# HardwareCorrupted: $hc kB of host RAM retired"
		echo "not ok 1 hardware_corrupted_stays_zero"
	fi
	echo "# exit=0"
} > $out

t0=$(uptime_s)
rmmod amdx_sim
rmmod amdx
section "modules unloaded"
echo "# seconds=$(($(uptime_s) - t0))" > $out
if [ -w /sys/kernel/debug/kmemleak ]; then
	# Two scans: kmemleak reports an object only once it is old enough
	# and unreferenced in two scans.
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	section "kmemleak"
	cat /sys/kernel/debug/kmemleak > $out
fi
# A gcov kernel (make coverage): the modules' counters, which gcov keeps
# after rmmod, as a gzipped tar in base64 (tools/testing/vm/coverage.sh).
# debugfs gives its files no size, so cat them out before tar reads them.
if [ -d /sys/kernel/debug/gcov ]; then
	(cd /sys/kernel/debug/gcov && find . -name '*.gcda') | while read -r f; do
		mkdir -p "/tmp/gcov/${f%/*}"
		cat "/sys/kernel/debug/gcov/$f" > "/tmp/gcov/$f"
	done
	section "gcov"
	tar -C /tmp/gcov -czf - . | base64 > $out
fi
section "end"
echo "# seconds=$(uptime_s)" > $out
finish
