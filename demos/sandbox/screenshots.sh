#!/bin/sh
# Re-takes the pictures of docs/sandbox.md (run from the source root):
#   demos/sandbox/screenshots.sh [BUILD_DIR]      (default: build)
set -eu
SANDBOX="${1:-build}/bin/carom-sandbox"
OUT=docs/images
mkdir -p "$OUT"

"$SANDBOX" demos/scenes/default.json --headless --frames 150 --size 960x540 \
    --screenshot "$OUT/sandbox-default.png"

# Zoom in on the middle of the bridge (wheel notches at a window pixel).
SCRIPT=$(mktemp)
trap 'rm -f "$SCRIPT"' EXIT
printf '0 move 480 300\n0 wheel 3\n' >"$SCRIPT"
"$SANDBOX" demos/scenes/bridge.json --headless --frames 180 --size 960x540 --no-ui \
    --draw contacts,joints --script "$SCRIPT" --screenshot "$OUT/sandbox-bridge.png"

"$SANDBOX" demos/scenes/tumbler.json --headless --frames 300 --size 960x540 --no-ui \
    --draw contacts --screenshot "$OUT/sandbox-tumbler.png"
