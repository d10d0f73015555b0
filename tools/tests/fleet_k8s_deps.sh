#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# The npm packages fleet_k8s_test.sh validates with (fleet_k8s/package.json,
# pinned by its package-lock.json), installed with `npm ci` into
# ${AMDX_CACHE:-/var/cache/amdx}/npm/k8s-HASH (HASH: of the lock file, so a
# new pin is a new directory), never into the work tree.  Run by make
# check's dependency step (tools/testing/vm/deps.sh).
#
# usage: fleet_k8s_deps.sh         install if missing
#        fleet_k8s_deps.sh --path  print the directory holding node_modules
set -eu
src=$(cd "$(dirname "$0")/fleet_k8s" && pwd)
cache=${AMDX_CACHE:-/var/cache/amdx}/npm
hash=$(sha256sum "$src/package-lock.json" | cut -c1-12)
dir=$cache/k8s-$hash
if [ "${1:-}" = --path ]; then
	echo "$dir"
	exit 0
fi
[ ! -d "$dir/node_modules/kubernetes-models" ] || exit 0
command -v npm > /dev/null || { echo "fleet_k8s_deps: npm not found" >&2; exit 1; }
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.k8s-$hash.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$src/package.json" "$src/package-lock.json" "$tmp/"
echo "fleet_k8s_deps: npm ci into $dir" >&2
(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --cache "$cache/.npm" >&2)
# Another run may have won the race: keep its directory.
mv -T "$tmp" "$dir" 2> /dev/null || true
