#!/usr/bin/env bash
# Installs Carom into a temporary prefix, builds examples/consumer against it
# with find_package(carom), runs it, and checks the box rests on the ground.
set -euo pipefail
src=$1 build=$2
# Extra flags for the consumer: a sanitized Carom needs a sanitized link.
flags=${3:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/carom-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/examples/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$work/build" -j2 >/dev/null
out=$("$work/build/consumer")
echo "$out"
# The box's centre rests half a metre above the ground's top (y = 0).
echo "$out" | awk '$1 == "rest" { if ($3 > 0.45 && $3 < 0.55 && $2 > -0.05 && $2 < 0.05) ok = 1 } END { exit ok ? 0 : 1 }'
