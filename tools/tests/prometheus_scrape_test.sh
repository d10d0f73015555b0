#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# A real Prometheus server (Debian's prometheus) scrapes `amdx exporter
# --listen` on loopback, and a PromQL query over its HTTP API returns the
# error count the test injected into the fake kernel (through libamdx).
#
# usage: prometheus_scrape_test.sh AMDX_FLEET_FAKE WORKDIR
set -eu
fake=$1
work=$2
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
AMDX_FAKE_INJECT="1:gfx:ue:$count,0:umc:ce:5" "$fake" -d /dev/null exporter \
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

port=$(free_port)
cat > "$work/prometheus.yml" <<EOC
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: amdx
    static_configs:
      - targets: ['$target']
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
