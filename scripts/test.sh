#!/usr/bin/env bash
# README command 2: set up, build, and run every test.
#   scripts/test.sh              Release build in build/, all default tests
#   scripts/test.sh --sanitize   the same with ASan+UBSan in build-asan/
#   scripts/test.sh --long       also the long-running tests (fuzz corpus, big sweeps)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
sanitize=0 long=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    --long) long=1 ;;
    *) echo "usage: $0 [--sanitize] [--long]" >&2; exit 2 ;;
  esac
done
carom_setup
if [ $sanitize = 1 ]; then
  build="${CAROM_BUILD_DIR:-$CAROM_ROOT/build-asan}"
  # Benchmarks are not tests: skip building them under the sanitizers. -O1
  # with CAROM_ASSERT on (no -DNDEBUG): the sanitizers find as much at -O1,
  # and the build is much quicker than at -O3. The validation build
  # (CAROM_VALIDATE) checks the world's invariants after every stage of
  # every step the tests take.
  carom_build "$build" -DCAROM_SANITIZE=ON -DCAROM_VALIDATE=ON -DCAROM_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS_RELEASE=-O1
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build="${CAROM_BUILD_DIR:-$CAROM_ROOT/build}"
  carom_build "$build"
fi
# The browser test (label web) builds the WebAssembly page: scripts/wasm_test.sh and
# scripts/web.sh run it; the long tests run with --long.
filter=(-LE "long|web")
[ $long = 1 ] && filter=()
if [ $long = 1 ]; then
  # The long tests' executables are only built when asked for.
  cmake -S "$CAROM_ROOT" -B "$build" -DCAROM_LONG_TESTS=ON >/dev/null
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)"
fi
ctest --test-dir "$build" --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" "${filter[@]}"
