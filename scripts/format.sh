#!/usr/bin/env bash
# The C++ sources in the format .clang-format declares.
#
#   scripts/format.sh           reformat every tracked C++ file in place
#   scripts/format.sh --check   change nothing; fail naming each file that
#                               is not in that format (what CI runs)
#
# The README and the manual quote examples/readme/*.cpp word for word
# (tests/foundation/readme_test.sh): after reformatting one, update its quote.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
cd "$CAROM_ROOT"
carom_setup clang-format
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.inl')
if [ $check = 1 ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
      carom_log "$f: not in the .clang-format format (scripts/format.sh fixes it)"
      bad=1
    fi
  done
  [ $bad = 0 ] && carom_log "${#files[@]} files in the .clang-format format"
  exit $bad
fi
clang-format -i --style=file "${files[@]}"
