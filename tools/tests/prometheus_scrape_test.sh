#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# A real Prometheus server (Debian's prometheus) scrapes `amdx exporter
# --listen` on loopback, and a PromQL query over its HTTP API returns the
# error count the test injected into the fake kernel (through libamdx).
# Beside it, a stand-in for AMD's device-metrics-exporter (DME: a static
# page with DME's label names and values, served by python3's http.server)
# is scraped too, and the joins metrics.rst documents ("Joins") return
# every device.  Last, every panel target of the Grafana dashboard
# (tools/fleet/grafana/amdx-dashboard.json) must return a non-empty result
# (prometheus_dashboard_test.py, which substitutes Grafana's variables).
#
# usage: prometheus_scrape_test.sh AMDX_FLEET_FAKE WORKDIR DASHBOARD
set -eu
fake=$1
work=$2
dashboard=$3
count=37
rm -rf "$work" && mkdir -p "$work"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT INT TERM

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The exporter on an ephemeral port; it prints the address it serves.
# A bad-page threshold, so the dashboard's retired-pages panel has a ratio.
AMDX_FAKE_BAD_PAGE_THRESHOLD=100 AMDX_FAKE_INJECT="1:gfx:ue:$count,0:umc:ce:5" "$fake" -d /dev/null exporter \
	--listen 127.0.0.1:0 --iterations 120 > "$work/exporter.out" 2> "$work/exporter.err" &
pids="$pids $!"
i=0
until grep -q '^amdx exporter: serving ' "$work/exporter.out"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "exporter did not start"; cat "$work/exporter.err"; exit 1; }
	sleep 0.1
done
target=$(sed -n 's|^amdx exporter: serving http://\(.*\)/metrics$|\1|p' "$work/exporter.out")
echo "exporter: $target"

# The DME stand-in: one SPX GPU per fake device (serials SN1000, SN1001),
# labelled as DME labels them (gpu_partition_id "0", lower-case mode, a
# board part number as card_model).
host=$(hostname)
mkdir -p "$work/dme"
{
	echo '# TYPE gpu_power_usage gauge'
	for i in 0 1; do
		echo "gpu_power_usage{gpu_id=\"$i\",serial_number=\"SN100$i\",card_model=\"102-G30211-00\",hostname=\"$host\",gpu_partition_id=\"0\",gpu_compute_partition_type=\"spx\"} 35$i"
	done
} > "$work/dme/metrics"
dme_port=$(free_port)
python3 -m http.server "$dme_port" --bind 127.0.0.1 --directory "$work/dme" \
	> "$work/dme.log" 2>&1 &
pids="$pids $!"

port=$(free_port)
cat > "$work/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: amdx
    static_configs:
      - targets: ['$target']
  - job_name: dme
    static_configs:
      - targets: ['127.0.0.1:$dme_port']
EOC
promtool check config "$work/prometheus.yml"
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
	--web.listen-address="127.0.0.1:$port" > "$work/prometheus.log" 2>&1 &
pids="$pids $!"

q='amdx_ras_errors_total{device="1",block="gfx",type="ue"}'
url="http://127.0.0.1:$port/api/v1/query"
i=0
while :; do
	i=$((i + 1))
	if [ $i -gt 60 ]; then
		echo "prometheus never returned the series"
		tail -n 20 "$work/prometheus.log"
		exit 1
	fi
	sleep 1
	curl -sf -G "$url" --data-urlencode "query=$q" > "$work/answer.json" 2>/dev/null || continue
	value=$(jq -r '.data.result[0].value[1] // empty' "$work/answer.json")
	[ -n "$value" ] && break
done
echo "prometheus: $q = $value"
[ "$value" = "$count" ] || { echo "expected $count"; exit 1; }

# The scrape itself succeeded (up == 1) and the CE on device 0 arrived too.
up=$(curl -sf -G "$url" --data-urlencode 'query=up{job="amdx"}' | jq -r '.data.result[0].value[1]')
ce=$(curl -sf -G "$url" --data-urlencode \
	'query=sum(amdx_ras_errors_total{device="0",type="ce"})' | jq -r '.data.result[0].value[1]')
echo "prometheus: up=$up, device 0 CE=$ce"
[ "$up" = 1 ] && [ "$ce" = 5 ]

# The documented joins with DME (metrics.rst, "Joins"): each returns one
# series per device once both targets are scraped.
# join NAME QUERY JQ: poll QUERY until it returns 2 series, then JQ (over
# .data.result) must print true.
join() {
	i=0
	while :; do
		i=$((i + 1))
		[ $i -le 60 ] || { echo "join $1: never 2 series"; cat "$work/join.json"; exit 1; }
		curl -sf -G "$url" --data-urlencode "query=$2" > "$work/join.json" 2>/dev/null &&
			[ "$(jq '.data.result | length' "$work/join.json")" = 2 ] && break
		sleep 1
	done
	ok=$(jq ".data.result | $3" "$work/join.json")
	echo "prometheus: join $1: $ok"
	[ "$ok" = true ] || { echo "join $1:"; cat "$work/join.json"; exit 1; }
}
join mode 'sum by (hostname, device) (amdx_ras_errors_total)
	* on (hostname, device) group_left (gpu_compute_partition_type) amdx_device_info' \
	"all(.metric.gpu_compute_partition_type == \"spx\") and
	 (map(select(.metric.device == \"1\"))[0].value[1] == \"$count\")"
join dme-partition 'gpu_power_usage
	* on (hostname, serial_number, gpu_partition_id) group_left () amdx_device_rma' \
	'map(.metric.serial_number) | sort == ["SN1000", "SN1001"]'
join dme-mode 'amdx_device_info
	* on (hostname, serial_number, gpu_compute_partition_type) group_left ()
	gpu_power_usage{gpu_partition_id="0"}' \
	'map(.metric.serial_number) | sort == ["SN1000", "SN1001"]'

# The dashboard: every panel target against this server.  The data source's
# scrape interval is this server's (1 s), then Grafana's default (15 s).
python3 "$(dirname "$0")/prometheus_dashboard_test.py" "$dashboard" "http://127.0.0.1:$port" 1
