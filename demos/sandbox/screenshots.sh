#!/bin/sh
# Re-takes the pictures of docs/sandbox.md (run from the source root):
#   demos/sandbox/screenshots.sh [BUILD_DIR]      (default: build)
set -eu
SANDBOX="${1:-build}/bin/carom-sandbox"
OUT=docs/images
mkdir -p "$OUT"

"$SANDBOX" demos/scenes/default.json --headless --frames 150 --size 960x540 \
    --screenshot "$OUT/sandbox-default.png"

# The panels at a large and a small window size: the scene is framed in the
# part of the window they leave free.
"$SANDBOX" demos/scenes/default.json --headless --frames 60 --size 1280x720 \
    --screenshot "$OUT/sandbox-1280x720.png"
"$SANDBOX" demos/scenes/bridge.json --headless --frames 60 --size 800x450 \
    --screenshot "$OUT/sandbox-800x450.png"

# Zoom in on the middle of the bridge (wheel notches at a window pixel).
SCRIPT=$(mktemp)
REC=$(mktemp)
trap 'rm -f "$SCRIPT" "$REC"' EXIT
printf '0 move 480 300\n0 wheel 3\n' >"$SCRIPT"
"$SANDBOX" demos/scenes/bridge.json --headless --frames 180 --size 960x540 --no-ui \
    --draw contacts,joints --script "$SCRIPT" --screenshot "$OUT/sandbox-bridge.png"

"$SANDBOX" demos/scenes/tumbler.json --headless --frames 300 --size 960x540 --no-ui \
    --draw contacts --screenshot "$OUT/sandbox-tumbler.png"

# The gameplay demos of the README ("Gameplay demos"), small: 640x360.
printf '0 press right\n38 key space\n' >"$SCRIPT"   # run right, jump at frame 38
"$SANDBOX" demos/scenes/platformer.json --headless --frames 52 --size 640x360 --no-ui \
    --draw contacts --script "$SCRIPT" --screenshot "$OUT/gameplay-platformer.png"
"$SANDBOX" demos/scenes/explosion.json --headless --frames 100 --size 640x360 --no-ui \
    --screenshot "$OUT/gameplay-explosion.png"
"$SANDBOX" demos/scenes/bullet_duel.json --headless --frames 3 --size 640x360 --no-ui \
    --draw continuous,contacts --screenshot "$OUT/gameplay-bullet-duel.png"
"$SANDBOX" demos/scenes/tiles.json --headless --frames 150 --size 640x360 --no-ui \
    --draw contacts --screenshot "$OUT/gameplay-tiles.png"
"$SANDBOX" demos/scenes/gears_pulleys.json --headless --frames 120 --size 640x360 --no-ui \
    --draw joints --screenshot "$OUT/gameplay-gears-pulleys.png"
"$SANDBOX" demos/scenes/wind.json --headless --frames 150 --size 640x360 --no-ui \
    --screenshot "$OUT/gameplay-wind.png"

# A recording of the platformer (run, jumps, back left), replayed to step 150
# with the Recording panel's step slider.
printf '0 press right\n40 key space\n90 key space\n140 release right\n150 press left\n200 key space\n' >"$SCRIPT"
"$SANDBOX" demos/scenes/platformer.json --headless --no-ui --frames 300 --script "$SCRIPT" \
    --record "$REC"
"$SANDBOX" --replay "$REC" --headless --frames 150 --size 1280x720 \
    --screenshot "$OUT/sandbox-replay.png"
