#!/usr/bin/env bash
# Shared by scripts/wasm_test.sh and scripts/web.sh: the Debian packages of
# the WebAssembly build, and its configure step (the wasm preset).
#
#   source scripts/wasm_env.sh; carom_wasm_configure BUILD_DIR [cmake options...]
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

# Debian's emscripten runs its JavaScript tools with the system node, which
# finds Debian's node modules (acorn) only through NODE_PATH.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

carom_wasm_configure() {
  local dir=$1
  shift
  carom_setup "${CAROM_WASM_PACKAGES[@]}"
  if command -v ccache >/dev/null; then
    export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
    export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  fi
  # The wasm preset (CMakePresets.json) in DIR: Emscripten's toolchain file,
  # Release, Node.js as the emulator that runs the tests.
  (cd "$CAROM_ROOT" && cmake --preset wasm -B "$dir" "$@" >/dev/null)
}
