#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# `promtool check metrics` (Debian's prometheus) accepts the exporter's
# real output, textfile mode through a temporary file and a rename.
#
# Every family the exporter emits (event-derived ones included) is listed
# in Documentation/admin-guide/metrics.rst with its type and help text.
#
# usage: fleet_promtool_test.sh AMDX_FLEET_FAKE WORKDIR METRICS_RST
set -eu
fake=$1
work=$2
doc=$3
rm -rf "$work" && mkdir -p "$work"
AMDX_FAKE_HIVE=1 AMDX_FAKE_INJECT=0:umc:ce:3,1:gfx:ue:2 "$fake" -d /dev/null exporter \
	--textfile "$work/amdx.prom"
promtool check metrics < "$work/amdx.prom"
# Nothing left behind but the file itself.
[ "$(ls "$work")" = amdx.prom ]
grep -q '^amdx_ras_errors_total{.*device="1".*block="gfx",type="ue"} 2$' "$work/amdx.prom"
# The hive's one link, once, with both ends' identities; its errors by type.
[ "$(grep -c '^amdx_link_state{' "$work/amdx.prom")" = 1 ]
grep -q '^amdx_link_state{.*link="0".*device_a="0",bdf_a="[0-9a-f:.]*",serial_number_a="[^"]*",end_a="[a-z]*",fabric_id_a="[0-9]*",domain_a="",vpod_a="",port_a="0",device_b="1".*} 2$' "$work/amdx.prom"
grep -q '^amdx_link_errors_total{.*device_b="1".*type="replay"} 4096$' "$work/amdx.prom"
# A missing directory is one error line and exit 1, no file.
if "$fake" -d /dev/null exporter --textfile "$work/none/amdx.prom" 2> "$work/err"; then
	echo "exporter succeeded writing into a missing directory"
	exit 1
fi
[ "$(wc -l < "$work/err")" = 1 ] && grep -q '^amdx: exporter: ' "$work/err"

# The contract: the families of a run with event counters, against the doc.
AMDX_FAKE_HIVE=1 "$fake" -d /dev/null exporter --textfile "$work/events.prom" --interval 0.1 --iterations 1
bad=0
grep '^# HELP ' "$work/events.prom" | while read -r _ _ name help; do
	type=$(sed -n "s/^# TYPE $name //p" "$work/events.prom")
	entry=$(grep -A1 "^\`\`$name\`\`\$" "$doc" | tail -n 1)
	case "$entry" in
	"   $type."*"$help" | "   $type;"*"$help") ;;
	*) echo "metrics.rst: $name ($type, '$help') is not documented as emitted: '$entry'"
	   echo bad > "$work/undocumented" ;;
	esac
done
[ ! -e "$work/undocumented" ]
