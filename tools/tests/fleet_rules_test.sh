#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The alerting rules (tools/fleet/prometheus/amdx-alerts.yml) against
# Debian's promtool: they load (`promtool check rules`), their unit tests
# pass (`promtool test rules` on fleet_rules_test.yml), and every amdx
# series they name is a family metrics.rst lists, the list that
# fleet.promtool_check_metrics holds the exporter to: a renamed metric
# cannot leave a rule that never fires.
#
# usage: fleet_rules_test.sh RULES TESTS METRICS_RST
set -eu
rules=$1
tests=$2
doc=$3
promtool check rules "$rules"
promtool test rules "$tests"
names=$(grep -v '^ *#' "$rules" | grep -o 'amdx_[a-z_]*' | sort -u)
[ -n "$names" ] || { echo "no amdx series named in $rules"; exit 1; }
bad=0
for n in $names; do
	if grep -q "^\`\`$n\`\`\$" "$doc"; then
		echo "rules: $n is an exported family"
	else
		echo "rules: $n is not a family metrics.rst lists"
		bad=1
	fi
done
exit $bad
