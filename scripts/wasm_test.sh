#!/usr/bin/env bash
# Builds Carom for WebAssembly (Emscripten, build-wasm/) and runs its test
# suites under Node.js through ctest (CMAKE_CROSSCOMPILING_EMULATOR=node).
#
#   scripts/wasm_test.sh [BUILD_DIR] [ctest args...]     default build-wasm
#
# Installs the Debian packages it needs first (scripts/setup.sh). The suites:
# foundation, broadphase, narrowphase, solver, joints, robustness (with the
# short soak) and scene; tests that start other processes are excluded
# (tests/scene/CMakeLists.txt says which and why).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/wasm_env.sh"

dir=${1:-$CAROM_ROOT/build-wasm}
shift || true
jobs=${CAROM_JOBS:-$(nproc 2>/dev/null || echo 2)}
targets=(carom_foundation_tests carom_broadphase_tests carom_narrowphase_tests carom_solver_tests
         carom_joint_tests carom_robustness_tests carom_soak_tests carom_scene_tests carom_cli)
if [ -d "$CAROM_ROOT/tests/determinism" ]; then targets+=(carom_determinism_tests); fi

carom_wasm_configure "$dir"
carom_log "building ${targets[*]} in $dir"
cmake --build "$dir" -j"$jobs" --target "${targets[@]}"
carom_log "running the suites under $(node --version)"
cd "$dir"
ctest -j"$jobs" --output-on-failure -LE 'long|web' "$@"
