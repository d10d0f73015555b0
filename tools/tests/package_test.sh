#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# package_test.sh cmake|pkg-config BUILD_DIR EXAMPLE_DIR WORK_PREFIX CXX
# Installs BUILD_DIR into a scratch prefix under WORK_PREFIX.XXXXXX, builds the list_devices example
# against it and runs it on a missing node: it must load the installed
# libamdx and fail cleanly with ENOENT.
set -eu
mode=$1 build=$2 example=$3 cxx=$5
# A fresh directory per run; kept (and named) only if the test fails.
work=$(mktemp -d "$4.XXXXXX")
trap 'echo "package test files: $work" >&2' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
# Nothing outside the prefix (the systemd unit went to /usr/local).
outside=$(sed -n 's/^-- \(Installing\|Up-to-date\): //p' "$work/install.log" |
	grep -v "^$prefix/" || true)
if [ -n "$outside" ]; then
	echo "FAIL: installed outside $prefix: $outside" >&2
	exit 1
fi
test -f "$prefix/lib/systemd/system/amdx-eventd.service"
libdir=$(dirname "$(find "$prefix" -name 'libamdx.so.8' | head -n1)")
test -f "$prefix/include/linux/amdx.h"
test -f "$prefix/include/amdx/amdx.hpp"
test -f "$prefix/include/amdx/amdx.h"
# The CLI, which finds the installed libamdx by itself, with its manual page
# (from cli.rst by rst2man) and bash completion.
"$prefix/bin/amdx" -d "$work/no-such-node" --version >"$work/version.out"
"$(dirname "$0")/runpath_test.sh" "$prefix/bin/amdx" \
	"$(find "$prefix" -name amdx-eventd -type f | head -n1)"
grep -q '^libamdx 8\.0\.0$' "$work/version.out"
grep -q '^\.SH EXIT STATUS' "$prefix/share/man/man1/amdx.1"
grep -q '^complete .* amdx$' "$prefix/share/bash-completion/completions/amdx"
# `amdx exporter` runs the installed amdx-exporter (libexec/amdx), which
# finds libamdx too: without a module, amdx_up 0 and exit status 3.
"$(dirname "$0")/runpath_test.sh" "$(find "$prefix" -name amdx-exporter -type f | head -n1)"
rc=0
"$prefix/bin/amdx" -d "$work/no-such-node" exporter --textfile "$work/amdx.prom" \
	2>"$work/exporter.err" || rc=$?
test "$rc" = 3
grep -q '^amdx_up{.*} 0$' "$work/amdx.prom"
# The installed Python module loads the installed libamdx.
pymod=$(find "$prefix" -name 'amdx.cpython-*.so' | head -n1)
if [ -n "$pymod" ]; then
	PYTHONPATH=$(dirname "$pymod") python3 -c \
		'import amdx, sys; sys.exit(amdx.__version__ != "8.0.0")'
fi

case $mode in
cmake)
	cmake -S "$example" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
		-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror" \
		>"$work/configure.log"
	cmake --build "$work/build" >"$work/build.log"
	exe=$work/build/list_devices
	;;
pkg-config)
	PKG_CONFIG_PATH=$libdir/pkgconfig
	export PKG_CONFIG_PATH
	test "$(pkg-config --modversion amdx)" != ""
	# shellcheck disable=SC2046 # word splitting of the flags is intended
	"$cxx" -std=c++20 -Wall -Wextra -Werror $(pkg-config --cflags amdx) \
		"$example/list_devices.cpp" $(pkg-config --libs amdx) -o "$work/list_devices"
	exe=$work/list_devices
	# The C ABI example, as C.
	cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags amdx) \
		"$example/list_devices.c" $(pkg-config --libs amdx) -o "$work/list_devices_c"
	LD_LIBRARY_PATH=$libdir "$work/list_devices_c" /nonexistent/amdx 2>"$work/c.err" && exit 1
	grep -q "module not loaded" "$work/c.err"
	;;
*)
	echo "usage: $0 cmake|pkg-config BUILD EXAMPLE WORK CXX" >&2
	exit 2
	;;
esac

export LD_LIBRARY_PATH="$libdir"
resolved=$(ldd "$exe" | awk '/libamdx\.so/ { print $3 }')
if [ "$(realpath "$resolved")" != "$(realpath "$libdir/libamdx.so.8")" ]; then
	echo "FAIL: $exe uses '$resolved', not the installed $libdir/libamdx.so.8" >&2
	exit 1
fi
if "$exe" "$work/no-such-node" >"$work/run.out" 2>&1; then
	echo "FAIL: list_devices succeeded on a missing node" >&2
	exit 1
fi
grep -q "no-such-node: No such file or directory" "$work/run.out" || {
	echo "FAIL: unexpected output:" >&2
	cat "$work/run.out" >&2
	exit 1
}
trap - EXIT
rm -rf "$work"
echo "ok: $mode: example built against an installed prefix and ran"
