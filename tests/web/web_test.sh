#!/usr/bin/env bash
# The browser sandbox in headless Chromium (ctest label `web`):
#   web_test.sh SOURCE_DIR NATIVE_CAROM [STEPS]
# Builds demos/web for WebAssembly (scripts/web.sh --build-only), serves it,
# and opens index.html?test=1: the page loads every demo scene, steps it
# STEPS times and prints its state hash, drags a body through synthesised
# pointer events (the mouse's own handlers) and loads a broken scene text.
# Checks: each hash equals the native `carom run --steps STEPS` hash, the
# dragged body moved, the broken text was refused with FILE:LINE:COL.
# Exit 77 (skipped) when chromium or emscripten is missing.
set -euo pipefail
root=$1
carom=$2
steps=${3:-120}

if ! command -v chromium >/dev/null || ! command -v emcmake >/dev/null || ! command -v node >/dev/null; then
  echo "skipped: needs chromium, emscripten and node (apt-get install chromium emscripten nodejs)"
  exit 77
fi

web=${CAROM_WEB_DIR:-$("$root/scripts/web.sh" --build-only | tail -n 1)}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$web" >/dev/null 2>&1 &
server=$!
tmp=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
  sleep 0.1
done

# --virtual-time-budget lets the page load the module and run the test before
# the DOM is dumped.
chromium --headless --no-sandbox --disable-gpu --window-size=1280,720 --virtual-time-budget=600000 \
  --user-data-dir="$tmp/profile" --dump-dom "http://127.0.0.1:$port/index.html?test=1&steps=$steps" \
  > "$tmp/dom.html" 2>"$tmp/chromium.log" || true
python3 - "$tmp/dom.html" "$root" "$carom" "$steps" <<'PY'
import html, json, re, subprocess, sys
dom, root, carom, steps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
text = open(dom, encoding="utf-8").read()
m = re.search(r'<pre id="result">(.*?)</pre>', text, re.S)
if not m or "DONE" not in m.group(1):
    sys.exit("the page wrote no result (see chromium's log)")
lines = html.unescape(m.group(1)).strip().splitlines()
failures, hashes = [], 0
for line in lines:
    word = line.split(" ", 1)[0]
    if word == "HASH":
        _, path, page = line.split()
        local = root + "/demos/scenes/" + path[len("/scenes/"):]
        out = subprocess.run([carom, "run", local, "--steps", steps], capture_output=True, text=True)
        native = json.loads(out.stdout)["hash"] if out.returncode == 0 else "error: " + out.stderr.strip()
        hashes += 1
        if native != page:
            failures.append(f"{path}: browser {page}, native {native}")
    elif word == "LOADFAIL":
        failures.append(line)
    elif word == "DRAG":
        print(line)
        if "moved=1" not in line:
            failures.append("drag did not move the body: " + line)
    elif word == "ERROR":
        print(line)
        if "loaded=0" not in line or not re.search(r"broken\.json:\d+:\d+: error:", line):
            failures.append("broken scene text not reported with line and column: " + line)
print(f"{hashes} scenes: browser hashes compared with native carom run --steps {steps}")
if hashes == 0:
    failures.append("no scene was run")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
PY
