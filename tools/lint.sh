#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# clang-format (check only) and clang-tidy over the C++ in tools/ and
# Documentation/examples.  Exits non-zero on any finding.  clang-tidy uses
# compile_commands.json from $AMDX_BUILD_DIR (default tools/build), which is
# configured first if missing.
set -eu
tools=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$tools")
build=${AMDX_BUILD_DIR:-$tools/build}
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-14}
CLANG_TIDY=${CLANG_TIDY:-clang-tidy-14}
cd "$root"

files=$(find tools Documentation/examples -path "${build#"$root"/}" -prune -o \
	-path 'tools/testing' -prune -o -type f \( -name '*.cpp' -o -name '*.hpp' \) -print | sort)
status=0

echo "clang-format: $(echo "$files" | wc -l) files"
# shellcheck disable=SC2086 # file names have no blanks
"$CLANG_FORMAT" --dry-run -Werror $files || status=1

if [ ! -f "$build/compile_commands.json" ]; then
	cmake -S "$tools" -B "$build" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
# Sources in the compilation database (headers are checked through them).
units=$(echo "$files" | grep '^tools/.*\.cpp$')
examples=$(echo "$files" | grep '^Documentation/examples/.*\.cpp$' || true)
echo "clang-tidy: $(echo "$units" | wc -l) translation units + examples"
# shellcheck disable=SC2086
printf '%s\n' $units | xargs -P "$(nproc)" -n 1 "$CLANG_TIDY" --quiet -p "$build" 2>/dev/null ||
	status=1
for f in $examples; do
	"$CLANG_TIDY" --quiet "$f" -- -std=c++20 -I"$tools/lib/include" -I"$root/uapi" \
		2>/dev/null || status=1
done

[ "$status" -eq 0 ] && echo "lint: clean" || echo "lint: FAILED" >&2
exit "$status"
