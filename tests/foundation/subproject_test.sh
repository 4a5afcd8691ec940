#!/usr/bin/env bash
# Builds examples/subproject: a game that pulls Carom in with
# add_subdirectory and links carom::scene; the example's CMakeLists fails if
# Carom's demos, tests or SDL2 came along. Then (mode "build") builds and
# runs the game; mode "configure" stops after the configure checks.
set -euo pipefail
src=$1 mode=${2:-build}
work=$(mktemp -d "${TMPDIR:-/tmp}/carom-subproject.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake -S "$src/examples/subproject" -B "$work" -DCAROM_SOURCE_DIR="$src" -DCMAKE_BUILD_TYPE=Release >/dev/null
[ "$mode" = configure ] && { echo "configured: carom::carom and carom::scene only"; exit 0; }
cmake --build "$work" -j2 --target subproject_game >/dev/null
out=$("$work/subproject_game")
echo "$out"
echo "$out" | awk '$1 == "rest" { if ($3 > 0.45 && $3 < 0.55 && $2 > -0.05 && $2 < 0.05) ok = 1 } END { exit ok ? 0 : 1 }'
