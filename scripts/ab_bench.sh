#!/usr/bin/env bash
# Two builds of `carom` on one bench scene, in turns, R rounds: prints the
# median ms/step (`carom bench --json`, ms_per_step_mean) of each and new/base.
# Turns, not two back-to-back series, so that a shared machine's load falls
# on both alike; quote the ratio, not the times.
#
#   scripts/ab_bench.sh BASE_CAROM NEW_CAROM SCENE [STEPS] [THREADS] [ROUNDS]
#   e.g. scripts/ab_bench.sh /tmp/carom-main build/bin/carom smash 300 1 5
# SCENE is a name in bench/scenes or a path to a scene file.
set -euo pipefail
base=$1 new=$2 scene=$3 steps=${4:-300} threads=${5:-1} rounds=${6:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
file=$scene
[[ -f $file ]] || file=$root/bench/scenes/$scene.json
ms() {
  "$1" bench "$file" --steps "$steps" --threads "$threads" --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["ms_per_step_mean"])'
}
a=() b=()
for ((r = 0; r < rounds; r++)); do
  a+=("$(ms "$base")")
  b+=("$(ms "$new")")
done
python3 - "$scene" "$threads" "${a[*]}" "${b[*]}" <<'PY'
import statistics as st, sys
scene, threads = sys.argv[1:3]
a = [float(x) for x in sys.argv[3].split()]
b = [float(x) for x in sys.argv[4].split()]
print(f"{scene} threads {threads}: base {st.median(a):.3f} new {st.median(b):.3f} ms/step, new/base {st.median(b) / st.median(a):.3f}")
PY
