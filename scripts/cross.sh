#!/usr/bin/env bash
# Cross builds: build Carom for another platform, run its test suite under
# that platform's emulator, and check that the cross-built `carom` command
# computes the same states as the native one, bit for bit.
#
#   scripts/cross.sh [--suites | --full] PLATFORM...
#
# Platforms: aarch64 (ARM64 Linux, tests under QEMU), mingw (Windows x86-64,
# tests under Wine), wasm (WebAssembly, tests under Node.js).
#
# For each platform, in build-PLATFORM/ (CMakePresets.json):
#   1. the Debian packages of its toolchain and emulator (scripts/setup.sh),
#   2. cmake --preset P, then a build and ctest --preset P through the
#      emulator:
#        default   the determinism check, what CI runs: the determinism
#                  table with the platform's widest kernel at 4 workers
#                  (builds only that test and the `carom` command);
#        --suites  the engine's suites (labels foundation, broadphase,
#                  narrowphase, solver, robustness) and the whole
#                  determinism table (each kernel at 1 and 4 workers);
#        --full    every test the platform builds but the `long` label (the
#                  scene and CLI suites too);
#   3. `carom run SCENE --steps N` on every bench scene (bench/scenes) and
#      demo scene (demos/scenes, recursively), native and cross-built: the
#      state hashes must be equal; a difference fails naming the scene.
# The native `carom` is build/bin/carom (scripts/test.sh builds it); it is
# built here when missing.
#
# A platform is a set of shell functions named after it (see "Platforms"
# below): cross_P_packages prints its Debian packages, cross_P_prepare gets
# its emulator ready, cross_P_carom runs its `carom` build with the given
# arguments. A new platform adds its three functions and a preset P.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cd "$CAROM_ROOT"

# Steps of each scene in the hash check: two seconds at 60 Hz, enough for
# every scene's bodies to collide, stack and sleep.
CAROM_CROSS_STEPS=${CAROM_CROSS_STEPS:-120}

# ---- Platforms ---------------------------------------------------------------

cross_aarch64_packages() { echo "${CAROM_CROSS_PACKAGES_AARCH64[@]}"; }
cross_aarch64_prepare() { :; }
cross_aarch64_carom() { qemu-aarch64-static -L /usr/aarch64-linux-gnu build-aarch64/bin/carom "$@"; }

cross_mingw_packages() { echo "${CAROM_CROSS_PACKAGES_MINGW[@]}"; }
# Wine makes its prefix (~/.wine, or $WINEPREFIX) on the first run: once
# here, before ctest starts tests in parallel.
cross_mingw_prepare() { cross_wine cmd /c exit >/dev/null 2>&1 || true; }
cross_mingw_carom() { cross_wine build-mingw/bin/carom.exe "$@"; }
cross_wine() { WINEDEBUG=-all WINEDLLOVERRIDES=mscoree,mshtml= wine "$@"; }

cross_wasm_packages() { echo "${CAROM_WASM_PACKAGES[@]}"; }
# Debian's emscripten runs its JavaScript tools with the system node, which
# finds Debian's node modules (acorn) only through NODE_PATH.
cross_wasm_prepare() { export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}; }
cross_wasm_carom() { node build-wasm/bin/carom.js "$@"; }

# ---- Steps -------------------------------------------------------------------

usage() {
  echo "usage: $0 [--suites | --full] PLATFORM...   (platforms: aarch64 mingw wasm)" >&2
  exit 2
}

# The state hash of `carom run` (docs/cli.md: "hash": "…" in its output).
state_hash() { grep -o '"hash": "[0-9a-f]*"' | head -n 1 | cut -d'"' -f4; }

# Every scene of the hash check, relative to the repository root: the demo
# scenes (recursively), and with --suites or --full the bench scenes too
# (the determinism table holds those in every mode).
hash_scenes() {
  { [ $mode = check ] || ls bench/scenes/*.json; find demos/scenes -name '*.json'; } | LC_ALL=C sort
}

# cross_hashes P: each scene's hash from P's `carom` against the native one,
# $jobs scenes at a time.
cross_hashes() {
  local p=$1 dir scene n=0 i failed=0
  dir=$(mktemp -d)
  while IFS= read -r scene; do
    n=$((n + 1))
    printf '%s\n' "$scene" >"$dir/$n.scene"
    (
      build/bin/carom run "$scene" --steps "$CAROM_CROSS_STEPS" | state_hash >"$dir/$n.native" || true
      "cross_${p}_carom" run "$scene" --steps "$CAROM_CROSS_STEPS" | state_hash >"$dir/$n.cross" || true
    ) &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  done < <(hash_scenes)
  wait || true
  for i in $(seq 1 "$n"); do
    local native cross
    native=$(cat "$dir/$i.native" 2>/dev/null || true)
    cross=$(cat "$dir/$i.cross" 2>/dev/null || true)
    if [ -z "$native" ] || [ "$native" != "$cross" ]; then
      carom_log "$p: $(cat "$dir/$i.scene"): state hash after $CAROM_CROSS_STEPS steps differs: native '${native}', $p '${cross}'"
      failed=1
    fi
  done
  rm -rf "$dir"
  if [ $failed = 1 ]; then
    carom_log "$p: the state differs from the native build's (see above)"
    return 1
  fi
  carom_log "$p: $n scenes, $CAROM_CROSS_STEPS steps each: the same state hashes as the native build"
}

mode=check
case "${1:-}" in
  --suites) mode=suites; shift ;;
  --full) mode=full; shift ;;
esac
[ $# -ge 1 ] || usage
packages=()
for p in "$@"; do
  declare -F "cross_${p}_packages" >/dev/null || { echo "$0: unknown platform '$p'" >&2; usage; }
  read -r -a more <<<"$("cross_${p}_packages")"
  packages+=("${more[@]}")
done
carom_setup "${packages[@]}"

jobs=$(nproc 2>/dev/null || echo 2)
if [ ! -x build/bin/carom ]; then
  carom_log "building the native carom command (build/bin/carom) for the hash check"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$jobs" --target carom_cli
fi

for p in "$@"; do
  carom_log "$p: configure, build"
  "cross_${p}_prepare"
  start=$SECONDS
  cmake --preset "$p" >/dev/null
  if [ $mode = check ]; then
    cmake --build --preset "$p" -j"$jobs" --target carom_cli carom_determinism_tests
  else
    cmake --build --preset "$p" -j"$jobs"
  fi
  carom_log "$p: built in $((SECONDS - start)) s"
  start=$SECONDS
  case $mode in
    check) CAROM_DETERMINISM_CONFIGS=widest ctest --preset "$p" -j"$jobs" -L '^determinism$' ;;
    suites) ctest --preset "$p" -j"$jobs" -L '^(foundation|broadphase|narrowphase|solver|robustness|determinism)$' ;;
    full) ctest --preset "$p" -j"$jobs" ;;
  esac
  carom_log "$p: tests passed in $((SECONDS - start)) s"
  start=$SECONDS
  cross_hashes "$p"
  carom_log "$p: hash check in $((SECONDS - start)) s"
done
