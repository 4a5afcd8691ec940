#!/usr/bin/env bash
# Installs Carom into a temporary prefix and uses it as a game would:
#   1. examples/consumer        find_package(carom)                    → carom::carom
#   2. examples/consumer_scene  find_package(carom COMPONENTS scene)   → carom::scene
#   3. the same core program built with pkg-config only (no CMake)
#   4. the installed `carom` command validates and runs a shipped scene
# Each program must leave the dropped box resting on the ground.
set -euo pipefail
src=$1 build=$2
# Extra flags for the consumer: a sanitized Carom needs a sanitized link.
flags=${3:-}
# Whether this build has the `carom` command (CAROM_BUILD_DEMOS).
demos=${4:-ON}
work=$(mktemp -d "${TMPDIR:-/tmp}/carom-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
rests() {  # the box's centre rests half a metre above the ground's top (y = 0)
  echo "$1"
  echo "$1" | awk '$1 == "rest" { if ($3 > 0.45 && $3 < 0.55 && $2 > -0.05 && $2 < 0.05) ok = 1 } END { exit ok ? 0 : 1 }'
}
for example in consumer consumer_scene; do
  cmake -S "$src/examples/$example" -B "$work/$example" -DCMAKE_PREFIX_PATH="$prefix" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
  cmake --build "$work/$example" -j2 >/dev/null
  rests "$("$work/$example/$example")"
done
# pkg-config: the .pc files find their prefix from where they are installed.
pcdir=$(dirname "$(find "$prefix" -name carom.pc | head -1)")
export PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# shellcheck disable=SC2046
c++ -std=c++20 $flags "$src/examples/consumer/main.cpp" -o "$work/consumer_pc" $(pkg-config --cflags --libs carom)
rests "$("$work/consumer_pc")"
# shellcheck disable=SC2046
c++ -std=c++20 $flags "$src/examples/consumer_scene/main.cpp" -o "$work/consumer_scene_pc" $(pkg-config --cflags --libs carom-scene)
rests "$("$work/consumer_scene_pc")"
# The command and the scenes installed with it.
if [ "$demos" = ON ]; then
  "$prefix/bin/carom" validate "$prefix/share/carom/scenes/default.json"
  "$prefix/bin/carom" run "$prefix/share/carom/scenes/default.json" --steps 10 >/dev/null
fi
echo "consumer test: ok"
