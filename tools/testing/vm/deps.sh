#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what the amdx build, tests and demo need (Debian 12, as root),
# and the packages named as arguments (make coverage: lcov).
set -euo pipefail
pkgs=(build-essential bc bison flex libelf-dev libssl-dev dwarves cpio kmod
      xz-utils python3 rsync linux-source-6.1 linux-source-6.12
      linux-headers-amd64
      linux-image-amd64 qemu-system-x86 busybox-static dkms sparse jq
      cmake g++ libgtest-dev libcli11-dev nlohmann-json3-dev pkg-config
      clang-format clang-tidy prometheus prometheus-cpp-dev
      libdrm-dev pybind11-dev python3-dev abigail-tools
      libsmartcols-dev python3-docutils python3-sphinx strace ccache
      trinity stress-ng slurmctld slurmd slurm-client munge systemd udev "$@")
# Node and npm for fleet.k8s_schema (Debian's, where none is installed).
command -v npm > /dev/null || pkgs+=(nodejs npm)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} != 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
# The npm packages of fleet.k8s_schema, into $AMDX_CACHE/npm (the test is
# skipped without them).
"$(dirname "$0")/../../tests/fleet_k8s_deps.sh" ||
	echo "deps: npm packages not installed: fleet.k8s_schema will be skipped" >&2
