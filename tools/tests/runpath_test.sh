#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# runpath_test.sh BINARY...: each BINARY's RUNPATH (or RPATH) has no empty
# element.  The dynamic loader takes an empty element as the current
# directory: a binary with one looks for every library it needs (libc
# too) below whatever directory it is started from before the system's,
# about a hundred failed opens at each start, and loads a libc.so.6 it
# finds there.  CMake's build-tree RUNPATH ends in one (room for the
# install-time rewrite) unless the target is built with its install
# RUNPATH (amdx_origin_runpath(), tools/CMakeLists.txt).
set -eu
rc=0
for bin; do
	path=$(readelf -d "$bin" | sed -n 's/.*(\(RUN\)\{0,1\}PATH).*\[\(.*\)\]$/\2/p')
	case ":$path:" in
	*::*)
		echo "FAIL: $bin: RUNPATH '$path' has an empty element (the current directory)" >&2
		rc=1
		;;
	esac
	# shellcheck disable=SC2016 # the literal $ORIGIN
	case $path in
	*'$ORIGIN'*) ;;
	*)
		echo "FAIL: $bin: RUNPATH '$path' does not find libamdx by \$ORIGIN" >&2
		rc=1
		;;
	esac
done
exit $rc
