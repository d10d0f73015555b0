#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Configure (Release, -Wall -Wextra -Werror), build and test the amdx
# userspace in tools/build.  Extra arguments go to ctest.
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
build=${AMDX_BUILD_DIR:-$tools/build}

# AMDX_ALL_TESTS=ON (make check): a missing test tool or a skip fails.
cmake -S "$tools" -B "$build" -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
	-DAMDX_ALL_TESTS="${AMDX_ALL_TESTS:-OFF}"
cmake --build "$build" -j "$(nproc)"
# AMDX_NO_CTEST=1: build only (make demo, make bench).
[ -n "${AMDX_NO_CTEST:-}" ] && exit 0
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
