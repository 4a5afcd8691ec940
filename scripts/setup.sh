#!/usr/bin/env bash
# Shared set-up for the README's commands: make sure the Debian packages
# Carom needs are installed (apt-get when we are root or have sudo; else
# print the exact command), then configure and build with CMake.
#
#   source scripts/setup.sh; carom_setup [more packages...]; carom_build BUILD_DIR [cmake options...]
set -euo pipefail

CAROM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CAROM_PACKAGES=(
  build-essential cmake pkg-config python3
  libglm-dev libsdl2-dev libgtest-dev libgmock-dev nlohmann-json3-dev libimgui-dev
  libbenchmark-dev libstb-dev libbox2d-dev libchipmunk-dev
  xvfb xdotool
)
# The WebAssembly build (scripts/wasm_test.sh, scripts/web.sh): Emscripten,
# Node.js to run its programs, Chromium for the browser test, and the
# header-only and source packages the cross build uses from /usr.
CAROM_WASM_PACKAGES=(
  emscripten nodejs chromium python3 cmake
  libglm-dev nlohmann-json3-dev libgtest-dev
)

# The cross builds' toolchains and emulators (scripts/cross.sh PLATFORM asks
# carom_setup for its platform's list).
CAROM_CROSS_PACKAGES_AARCH64=(g++-aarch64-linux-gnu qemu-user-static)
CAROM_CROSS_PACKAGES_MINGW=(g++-mingw-w64-x86-64-posix wine wine64)

carom_log() { printf '[carom] %s\n' "$*" >&2; }

# carom_setup [PACKAGE...]: Carom's packages and these ones.
carom_setup() {
  local missing=()
  for p in "${CAROM_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return 0
  fi
  local apt=(apt-get install -y --no-install-recommends "${missing[@]}")
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      carom_log "missing Debian packages: ${missing[*]}"
      carom_log "install them with:"
      echo "  sudo apt-get update && sudo ${apt[*]}" >&2
      exit 1
    fi
  fi
  carom_log "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" "${apt[@]}" -qq
}

# carom_build DIR [extra cmake args...]: configure (once) and build everything.
carom_build() {
  local dir=$1
  shift
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  cmake -S "$CAROM_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}
