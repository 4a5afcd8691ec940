#!/bin/sh
# The sandbox in a real window: usage window_test.sh SANDBOX SCENE OUTDIR
#
# Starts Xvfb when there is no DISPLAY (on :99, or the next free display),
# runs carom-sandbox on SCENE for a few seconds while an input script drags
# the ball and xdotool drags the real pointer too, then checks that the
# sandbox exited with status 0 and wrote its screenshot (kept as
# OUTDIR/window_test.png). Exit 77 (ctest: skipped) only when Xvfb is missing.
set -u
SANDBOX=$1
SCENE=$2
OUT=$3
mkdir -p "$OUT"
SHOT="$OUT/window_test.png"
LOG="$OUT/window_test.log"
rm -f "$SHOT" "$LOG"

XVFB_PID=""
cleanup() {
    if [ -n "$XVFB_PID" ]; then kill "$XVFB_PID" 2>/dev/null; wait "$XVFB_PID" 2>/dev/null; fi
}
trap cleanup EXIT

if [ -z "${DISPLAY:-}" ]; then
    if ! command -v Xvfb >/dev/null 2>&1; then
        echo "Xvfb is not installed: skipping the window test"
        exit 77
    fi
    # Other test runs may hold :99 (or grab it at the same moment): try the
    # displays from :99 up until an Xvfb of ours is running on one.
    N=99
    while :; do
        if [ $N -gt 130 ]; then echo "no free X display from :99 to :130"; exit 1; fi
        if [ -e "/tmp/.X$N-lock" ] || [ -e "/tmp/.X11-unix/X$N" ]; then N=$((N + 1)); continue; fi
        Xvfb ":$N" -screen 0 1280x800x24 -nolisten tcp >"$OUT/xvfb.log" 2>&1 &
        XVFB_PID=$!
        i=0
        while [ ! -e "/tmp/.X11-unix/X$N" ] && kill -0 "$XVFB_PID" 2>/dev/null && [ $i -lt 100 ]; do
            i=$((i + 1))
            sleep 0.1
        done
        if kill -0 "$XVFB_PID" 2>/dev/null && [ -e "/tmp/.X11-unix/X$N" ]; then break; fi
        kill "$XVFB_PID" 2>/dev/null
        XVFB_PID=""
        N=$((N + 1))
    done
    export DISPLAY=":$N"
fi
echo "display $DISPLAY"

# The input script drags the ball (world metres, so independent of the
# window size) and toggles the contact layer and the help overlay.
SCRIPT="$OUT/window_drag.txt"
cat >"$SCRIPT" <<'END'
20  key c
30  wdrag 5 1 0 7 60
100 key h
140 key h
END

# Under AddressSanitizer (scripts/test.sh --sanitize) the system's display
# libraries report leaks at exit: libdbus, and Mesa drivers that are dlopen'd
# and unloaded again, so their frames cannot even be named in a suppression.
# Leak checking stays off for this one run only; the headless tests run the
# sandbox's own code (all but the window) with leak checking on.
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ASAN_OPTIONS
"$SANDBOX" "$SCENE" --seconds 4 --size 960x540 --script "$SCRIPT" --screenshot "$SHOT" >"$LOG" 2>&1 &
PID=$!

# The real pointer too, through the X server (best effort: no window manager
# runs under Xvfb, so focus and placement are the server's defaults).
if command -v xdotool >/dev/null 2>&1; then
    sleep 1.5
    WID=$(xdotool search --sync --onlyvisible --name "Carom sandbox" 2>/dev/null | head -n 1)
    if [ -n "$WID" ]; then
        xdotool mousemove --window "$WID" 700 300 mousedown 1 >/dev/null 2>&1
        for x in 680 660 640 620 600; do xdotool mousemove --window "$WID" $x 250 >/dev/null 2>&1; sleep 0.05; done
        xdotool mouseup 1 >/dev/null 2>&1
        echo "xdotool dragged in window $WID"
    else
        echo "xdotool did not find the window (continuing with the input script only)"
    fi
fi

wait "$PID"
STATUS=$?
cat "$LOG"
if [ "$STATUS" -ne 0 ]; then
    echo "FAIL: carom-sandbox exited with status $STATUS"
    exit 1
fi
if [ ! -s "$SHOT" ] || [ "$(head -c 4 "$SHOT" | od -An -c | tr -d ' \n')" != "211PNG" ]; then
    echo "FAIL: no PNG screenshot at $SHOT"
    exit 1
fi
echo "PASS: clean exit, screenshot kept at $SHOT"
exit 0
