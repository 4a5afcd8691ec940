#!/usr/bin/env bash
# README command 1: set up, build, and open the sandbox on the default scene.
# Without a display it renders the scene headless to a PNG and says where.
#   scripts/sandbox.sh [SCENE] [sandbox options...]
set -euo pipefail
source "$(dirname "$0")/setup.sh"
carom_setup
build="${CAROM_BUILD_DIR:-$CAROM_ROOT/build}"
carom_build "$build"
sandbox="$build/bin/carom-sandbox"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$sandbox" "$@"
fi
out="${CAROM_SCREENSHOT:-$build/sandbox-default.png}"
carom_log "no display: rendering headless"
"$sandbox" "$@" --headless --frames 120 --screenshot "$out"
echo "sandbox screenshot written to $out"
