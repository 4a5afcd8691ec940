#!/usr/bin/env bash
# Builds the scene-file fuzzer with clang and libFuzzer and runs it.
#   scripts/fuzz_scene.sh [SECONDS] [BUILD_DIR]
# SECONDS defaults to 60, BUILD_DIR to build-fuzz. The seed corpus is the
# shipped scenes plus the malformed corpus; new inputs go to
# BUILD_DIR/corpus_scene, crashes to BUILD_DIR/crash-*. Exit status 77 (a
# skip, for ctest) when clang with libFuzzer is not installed
# (apt-get install -y clang libclang-rt-14-dev).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
build=${2:-$root/build-fuzz}

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$probe/f.cpp"
if ! command -v clang++ >/dev/null || ! clang++ -fsanitize=fuzzer "$probe/f.cpp" -o "$probe/f" 2>/dev/null; then
  echo "fuzz_scene: skipped: clang++ with libFuzzer is not installed" >&2
  exit 77
fi

mkdir -p "$build"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCAROM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCAROM_BUILD_TESTS=OFF -DCAROM_BUILD_BENCH=OFF >"$build/fuzz_configure.log" 2>&1 ||
  { cat "$build/fuzz_configure.log" >&2; exit 1; }
cmake --build "$build" -j2 --target carom_fuzz_scene >"$build/fuzz_build.log" 2>&1 ||
  { tail -50 "$build/fuzz_build.log" >&2; exit 1; }

mkdir -p "$build/corpus_scene"
cd "$build"
# -rss_limit_mb: a scene may legitimately hold 200 000 bodies; the fuzzer
# steps only small ones, but loading a big one must stay within memory.
exec "$build/bin/carom_fuzz_scene" "$build/corpus_scene" "$root/demos/scenes" "$root/tests/scene/malformed" \
  -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1
