#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The systemd VM's test (systemd-check.sh), run by amdx-vmtest.service
# under the host's own systemd and udev as PID 1's children: amdx-eventd's
# unit and udev/70-amdx.rules, as the tools install them, against the real
# thing.  KTAP on ttyS1 ("# " lines: what systemd said); the host
# passes it on.  /amdx-vmtest holds amdx.ko, amdx_sim.ko, sim_id (the
# "systemd" block of amdx_sim_ids.def) and first, the number of the first
# case (after the host's own).
set -u
exec 3> /dev/ttyS1
n=$(($(cat /amdx-vmtest/first) - 1))
ok() { n=$((n + 1)); echo "ok $n systemd: $*" >&3; }
not_ok() { n=$((n + 1)); echo "not ok $n systemd: $*" >&3; }
diag() { sed 's/^/# /' >&3; }
# check NAME: ok if $why is empty, else not ok with $why
check() {
	if [ -z "$why" ]; then ok "$1"; else not_ok "$1"; echo "$why" | diag; fi
	why=
}
why=
because() { why="${why:+$why
}$*"; }
unit=amdx-eventd.service
prop() { systemctl show -P "$2" "$1"; } # UNIT PROPERTY
# until_ S CMD...: CMD every 0.2 s until it succeeds, at most S seconds
until_() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}
is_active() { [ "$(prop $unit ActiveState)" = active ]; }
is_inactive() { [ "$(prop $unit ActiveState)" = inactive ]; }
loaded() { grep -q "^$1 " /proc/modules; }
state() { # what a failure shows of the unit
	systemctl show -p ActiveState,SubState,Result,NRestarts,MainPID,StatusText $unit
	systemctl show -p ActiveState,Following dev-amdx.device
	systemctl show -p WantedBy $unit
	journalctl -b -u $unit -o short-monotonic --no-pager | tail -n 15
}
render=$(getent group render | cut -d: -f3)
sim_id=$(cat /amdx-vmtest/sim_id)
SIM=/sys/bus/amdx_sim
journal=/var/log/amdx/events.jsonl
echo "TAP version 13" >&3

{
	systemctl --version | head -n 1
	echo "udevadm $(udevadm --version); kernel $(uname -r)"
	echo "boot to this test: $(cut -d' ' -f1 /proc/uptime) s"
} | diag
[ "$(cat /proc/1/comm)" = systemd ] || because "PID 1 is $(cat /proc/1/comm)"
systemctl is-active -q systemd-udevd.service systemd-journald.service ||
	because "udevd: $(prop systemd-udevd.service ActiveState), journald: $(prop systemd-journald.service ActiveState)"
check "systemd is PID 1, udevd and journald run"

[ "$(prop $unit LoadState)" = loaded ] || because "LoadState=$(prop $unit LoadState)"
f=$(prop $unit FragmentPath)
[ "$f" = /usr/local/lib/systemd/system/$unit ] || because "FragmentPath=$f"
x=$(prop $unit ExecStart | sed -n 's/.*path=\([^ ;]*\).*/\1/p')
[ "$x" = /usr/local/bin/amdx-eventd ] && [ -x "$x" ] || because "ExecStart's path: '$x'"
# No [Install]: nothing can enable it into a boot target, udev alone
# starts it.
v=$(prop $unit UnitFileState)
[ "$v" = static ] || because "UnitFileState=$v, not static"
[ -f /etc/udev/rules.d/70-amdx.rules ] || because "no /etc/udev/rules.d/70-amdx.rules"
check "the unit and the rule load from where the tools install them"

# (a) The boot: nothing wants amdx-eventd without /dev/amdx.
loaded amdx && because "amdx is loaded"
[ -e /dev/amdx ] && because "/dev/amdx exists"
for p in ActiveState=inactive NRestarts=0 ExecMainStartTimestampMonotonic=0 Result=success; do
	v=$(prop $unit "${p%%=*}")
	[ "$v" = "${p#*=}" ] || because "$unit: ${p%%=*}=$v, not ${p#*=}"
done
check "booted without amdx: amdx-eventd never started, not failed"

# (b) The module loads late: udev applies the rule and systemd starts the
# service the device unit wants.
t=$SECONDS
insmod /amdx-vmtest/amdx.ko || because "insmod amdx.ko failed"
udevadm settle -t 30
s=$(stat -c '%U:%G %a' /dev/amdx 2>&1)
[ "$s" = "root:render 660" ] || because "/dev/amdx: $s"
check "insmod amdx: /dev/amdx is root:render 0660 (70-amdx.rules)"

if until_ 60 is_active; then
	echo "active $((SECONDS - t)) s after insmod" | diag
else
	because "$unit not active $((SECONDS - t)) s after insmod"
fi
[ "$(prop $unit Type)" = notify ] || because "Type=$(prop $unit Type)"
# STATUS= comes only over the notification socket, with READY=1.
st=$(prop $unit StatusText)
[ "$st" = "journaling to $journal" ] || because "StatusText='$st' (no READY=1 over \$NOTIFY_SOCKET?)"
# SYSTEMD_WANTS makes the device's own unit (named by its sysfs path;
# dev-amdx.device follows it) want the service.
case " $(prop $unit WantedBy) " in
*" sys-devices-virtual-misc-amdx.device "*) ;;
*) because "$unit is wanted by '$(prop $unit WantedBy)', not sys-devices-virtual-misc-amdx.device (SYSTEMD_WANTS)" ;;
esac
[ -z "$why" ] || why="$why
$(state)"
check "udev starts amdx-eventd for /dev/amdx's device unit; it reports READY=1 (Type=notify)"

pid=$(prop $unit MainPID)
st=/proc/$pid/status
read -r _ u1 u2 u3 u4 < <(grep '^Uid:' "$st")
read -r _ g1 _ < <(grep '^Gid:' "$st")
[ "$u1" = "$u2" ] && [ "$u1" = "$u3" ] && [ "$u1" = "$u4" ] || because "Uid: $u1 $u2 $u3 $u4"
# DynamicUser=yes: a uid of systemd's dynamic range, its own group.
[ "$u1" -ge 61184 ] && [ "$u1" -le 65519 ] || because "uid $u1 is not a dynamic user's"
[ "$g1" = "$u1" ] || because "gid $g1, uid $u1"
grep -qE "^Groups:.*\\b$render\\b" "$st" || because "render ($render) not in $(grep '^Groups:' "$st")"
grep -q '^CapEff:[[:space:]]*0*$' "$st" || because "$(grep '^CapEff:' "$st")"
grep -q '^NoNewPrivs:[[:space:]]*1$' "$st" || because "$(grep '^NoNewPrivs:' "$st")"
grep -q '^Seccomp:[[:space:]]*2$' "$st" || because "$(grep '^Seccomp:' "$st")"
echo "MainPID $pid: uid $u1 ($(getent passwd "$u1" | cut -d: -f1)), $(grep '^Groups:' "$st")" | diag
check "its main process is a dynamic user with group render, no capabilities, seccomp"

# (c) A device appears and an injected error is journaled.
why=
insmod /amdx-vmtest/amdx_sim.ko || because "insmod amdx_sim.ko failed"
echo "$sim_id model=mi300x" > $SIM/new_device || because "new_device $sim_id failed"
dev=
for d in "$SIM/devices/amdx_sim$sim_id/amdx/"amdx*; do
	[ -r "$d/id" ] && dev=$(cat "$d/id")
done
# Subscribed: the daemon (which reads the device list every second)
# holds the device's event fd.
subscribed() {
	local f
	for f in /proc/"$pid"/fd/*; do
		[[ $(readlink "$f") != *amdx_event* ]] || return 0
	done
	return 1
}
until_ 30 subscribed || because "amdx-eventd holds no amdx_event fd"
seq=$(amdx -j ras inject "$dev" --block umc --type ce --count 1 --address 0x200000 | jq .inject.seq)
[ -n "$seq" ] && [ "$seq" != null ] || because "ras inject on device '$dev' gave seq '$seq'"
journaled() { jq -e "select(.device == $dev and .seq == $seq)" "$journal" > /dev/null 2>&1; }
until_ 30 journaled || because "no record of device $dev seq $seq in $journal"
o=$(stat -L -c '%u %a' "$journal" 2>&1)
[ "$o" = "$u1 640" ] || because "$journal: owner and mode '$o', not '$u1 640'"
[ -z "$why" ] || why="$why
$(tail -n 3 "$journal" 2>&1)
$(state)"
check "an injected CE of a simulated device reaches its journal $journal"

# The watchdog: systemd stamps each WATCHDOG=1; eventd pings every half
# of WatchdogSec=30 while the main process stays the same.  The wait
# (three ping intervals) only catches a daemon that never pings: one that
# stopped would be killed at 30 s and show a new MainPID below.
t=$SECONDS
[ "$(prop $unit WatchdogUSec)" = 30s ] || because "WatchdogUSec=$(prop $unit WatchdogUSec)"
w0=$(prop $unit WatchdogTimestampMonotonic)
pinged() { [ "$(prop $unit WatchdogTimestampMonotonic)" != "$w0" ]; }
if until_ 45 pinged; then
	echo "a ping $((SECONDS - t)) s after the first look" | diag
else
	because "no WATCHDOG=1 in $((SECONDS - t)) s (WatchdogTimestampMonotonic stays $w0)"
fi
[ "$(prop $unit MainPID)" = "$pid" ] || because "MainPID $pid became $(prop $unit MainPID)"
check "it pings the watchdog"

# (d) Killed, it is restarted (Restart=on-failure, RestartSec=15).
t=$SECONDS
# (MainPID 0 would be kill's process group: this script.)
[ "$pid" -gt 1 ] && kill -KILL "$pid"
restarted() { is_active && [ "$(prop $unit MainPID)" != "$pid" ]; }
if until_ 45 restarted; then
	echo "restarted $((SECONDS - t)) s after SIGKILL" | diag
else
	because "not restarted $((SECONDS - t)) s after SIGKILL"
fi
r=$(prop $unit NRestarts)
[ "$r" = 1 ] || because "NRestarts=$r"
[ -z "$why" ] || why="$why
$(state)"
check "SIGKILL: restarted after RestartSec, NRestarts=1"
pid=$(prop $unit MainPID)

echo "$sim_id" > $SIM/del_device || because "del_device failed"
rmmod amdx_sim || because "rmmod amdx_sim failed"
sleep 2
[ "$(prop $unit MainPID)" = "$pid" ] && is_active || because "$(state)"
check "the device goes with amdx_sim; amdx-eventd keeps running"

# Unloading amdx: eventd holds /dev/amdx open, so the module is in use
# until the service stops (Documentation/admin-guide/eventd.rst).
if rmmod amdx 2> /tmp/rmmod.err; then
	echo "rmmod amdx with amdx-eventd running: unloaded" | diag
else
	echo "rmmod amdx with amdx-eventd running: $(cat /tmp/rmmod.err)" | diag
	systemctl stop $unit || because "systemctl stop failed"
	rmmod amdx || because "rmmod amdx failed after the stop"
fi
udevadm settle -t 30
[ -e /dev/amdx ] && because "/dev/amdx is still there"
until_ 10 is_inactive || because "$unit: $(prop $unit ActiveState)"
[ "$(prop dev-amdx.device ActiveState)" = inactive ] ||
	because "dev-amdx.device: $(prop dev-amdx.device ActiveState)"
[ "$(prop $unit Result)" = success ] || because "Result=$(prop $unit Result)"
[ -z "$why" ] || why="$why
$(state)"
check "amdx unloads once amdx-eventd stops; the service is inactive, Result=success"

# Loaded again and again: udev starts it each time.  No start limit can
# build up across unloads: with StartLimitBurst=3 these cycles still
# started it each time (the unit, unreferenced once the device goes, is
# dropped with its start count); the limit bounds a daemon that keeps
# failing while the device stays.
t=$SECONDS
for i in 1 2 3; do
	insmod /amdx-vmtest/amdx.ko || { because "cycle $i: insmod failed"; break; }
	until_ 60 restarted || { because "cycle $i: $unit not started"; break; }
	pid=$(prop $unit MainPID)
	systemctl stop $unit
	rmmod amdx || { because "cycle $i: rmmod failed"; break; }
	udevadm settle -t 30
done
systemctl -q is-failed $unit && because "$unit failed"
[ "$(prop $unit Result)" = success ] || because "Result=$(prop $unit Result)"
echo "3 load/start/stop/unload cycles: $((SECONDS - t)) s" | diag
[ -z "$why" ] || why="$why
$(state)"
check "three load/unload cycles: udev starts it each time, not failed"

# At boot the module may load (from the initramfs) before udevd runs;
# then systemd-udev-trigger's replay of "add" starts it.
systemctl stop systemd-udevd.service systemd-udevd-control.socket \
	systemd-udevd-kernel.socket
insmod /amdx-vmtest/amdx.ko || because "insmod failed"
sleep 2
is_inactive || because "started without udev: $(prop $unit ActiveState)"
systemctl start systemd-udevd.service
udevadm trigger --action=add --subsystem-match=misc --sysname-match=amdx
until_ 60 restarted || because "not started by the replayed add event"
[ -z "$why" ] || why="$why
$(state)"
check "coldplug: amdx loaded before udevd, udevadm trigger (as at boot) starts it"

# (e) What systemctl shows at the end.
systemctl show -p ActiveState,SubState,Result,NRestarts,ExecMainStatus,StatusText,WatchdogUSec $unit | diag
journalctl -b -u $unit -o short-monotonic --no-pager | tail -n 12 | diag
[ "$(prop $unit Result)" = success ] && is_active || because "$(state)"
w=$(journalctl -b -u $unit -p warning -o cat --no-pager | grep -v '^-- ' | grep -v 'status=9/KILL\|Failed with result .signal.\|Main process exited, code=killed' || true)
[ -z "$w" ] || because "warnings in its journal:
$w"
check "systemctl show: active, Result=success; no warning but the SIGKILL's"
systemctl stop $unit
rmmod amdx
echo "1..$n" >&3
echo "# end" >&3
