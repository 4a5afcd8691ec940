#!/usr/bin/env bash
# The contact kernels' speed against the scalar kernel on one machine or
# emulator: runs `carom bench` with CAROM_SIMD set to each width in turns,
# R rounds, and prints each width's median ms/step and its ratio to scalar.
# Under an emulator only the ratio means something, not the times.
#
#   scripts/simd_ratio.sh [--runner "CMD"] CAROM SCENE STEPS ROUNDS WIDTH...
#   e.g. scripts/simd_ratio.sh build/bin/carom large_pyramid 60 5 sse2 avx2
#        scripts/simd_ratio.sh --runner "qemu-aarch64-static -L /usr/aarch64-linux-gnu" \
#            build-aarch64/bin/carom large_pyramid 20 3 neon
# SCENE is a name in bench/scenes or a path to a scene file. One worker.
set -euo pipefail
runner=()
if [ "${1:-}" = --runner ]; then
  read -r -a runner <<<"$2"
  shift 2
fi
carom=$1 scene=$2 steps=$3 rounds=$4
shift 4
widths=(scalar "$@")
root=$(cd "$(dirname "$0")/.." && pwd)
file=$scene
[[ -f $file ]] || file=$root/bench/scenes/$scene.json
declare -A times
for ((r = 0; r < rounds; r++)); do
  for w in "${widths[@]}"; do
    ms=$(CAROM_SIMD=$w "${runner[@]}" "$carom" bench "$file" --steps "$steps" --threads 1 --json |
      python3 -c 'import json, sys; print(json.load(sys.stdin)["ms_per_step_median"])')
    times[$w]="${times[$w]:-} $ms"
  done
done
# The first row is scalar's: each width's ratio is to it.
for w in "${widths[@]}"; do echo "$w ${times[$w]}"; done | python3 -c '
import statistics as st, sys
rows = [l.split() for l in sys.stdin if l.strip()]
base = st.median(float(x) for x in rows[0][1:])
for r in rows:
    m = st.median(float(x) for x in r[1:])
    print(f"{sys.argv[1]} {r[0]}: {m:.3f} ms/step, {m / base:.3f} of scalar")
' "$scene"
