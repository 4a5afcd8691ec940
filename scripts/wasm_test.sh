#!/usr/bin/env bash
# WebAssembly tests (Emscripten, build-wasm/, tests under Node.js).
#
#   scripts/wasm_test.sh                      every suite the wasm build has:
#                                              scripts/cross.sh --full wasm
#   scripts/wasm_test.sh --simd-bench [STEPS] SIMD128 against scalar
#
# --simd-bench runs the wasm `carom bench` on every bench scene with
# CAROM_SIMD=scalar and CAROM_SIMD=simd128 (the same build) and prints the
# ms/step of each and their ratio; the hashes must agree.
#
# Tests that start other processes are not in the wasm build
# (tests/scene/CMakeLists.txt says which and why).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/wasm_env.sh"

if [ "${1:-}" != "--simd-bench" ]; then
  exec bash "$(dirname "${BASH_SOURCE[0]}")/cross.sh" --full wasm
fi
steps=${2:-300}
dir=$CAROM_ROOT/build-wasm
carom_wasm_configure "$dir"
cmake --build "$dir" -j"${CAROM_JOBS:-$(nproc 2>/dev/null || echo 2)}" --target carom_cli
printf '%-18s %12s %12s %8s  %s\n' scene scalar_ms simd128_ms ratio hashes
for scene in "$CAROM_ROOT"/bench/scenes/*.json; do
  declare -A ms=() hash=()
  for simd in scalar simd128; do
    out=$(CAROM_SIMD=$simd node "$dir/bin/carom.js" bench "$scene" --steps "$steps" --json 2>/dev/null)
    ms[$simd]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["ms_per_step_mean"])' "$out")
    hash[$simd]=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["hash"])' "$out")
  done
  same=$([ "${hash[scalar]}" = "${hash[simd128]}" ] && echo same || echo DIFFER)
  printf '%-18s %12.3f %12.3f %8.3f  %s\n' "$(basename "$scene" .json)" "${ms[scalar]}" "${ms[simd128]}" \
    "$(python3 -c "print(${ms[simd128]} / ${ms[scalar]})")" "$same"
done
