#!/usr/bin/env bash
# The sandbox in a browser: builds demos/web for WebAssembly (build-wasm/web/)
# and serves it on localhost.
#
#   scripts/web.sh [--port N] [--build-only] [--screenshot FILE.png] [--build-dir DIR]
#
#   --build-only          build, print the page's folder, do not serve
#   --screenshot FILE     build, then save what headless Chromium shows of the
#                         page (1280x720, the pyramid scene after a second) to FILE
#
# Installs the Debian packages it needs first (scripts/setup.sh).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/wasm_env.sh"

port=8080
build_only=0
screenshot=""
dir=$CAROM_ROOT/build-wasm
while [ $# -gt 0 ]; do
  case $1 in
    --port) port=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --screenshot) screenshot=$2; shift 2 ;;
    --build-dir) dir=$2; shift 2 ;;
    *) echo "usage: $0 [--port N] [--build-only] [--screenshot FILE.png] [--build-dir DIR]" >&2; exit 2 ;;
  esac
done

carom_wasm_configure "$dir"
rm -f "$dir"/web/carom_web.js  # relink: the scene package is made at link time
cmake --build "$dir" -j"${CAROM_JOBS:-$(nproc 2>/dev/null || echo 2)}" --target carom_web
web=$dir/web

# carom_serve DIR PORT: a static server in the background; sets server_pid.
carom_serve() {
  python3 -m http.server "$2" --bind 127.0.0.1 --directory "$1" >/dev/null 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do
    if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$2/index.html')" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  echo "server on port $2 did not start" >&2
  return 1
}

if [ -n "$screenshot" ]; then
  shot_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  carom_serve "$web" "$shot_port"
  trap 'kill $server_pid 2>/dev/null || true' EXIT
  mkdir -p "$(dirname "$screenshot")"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,720 \
    --virtual-time-budget=3000 --screenshot="$(realpath -m "$screenshot")" \
    "http://127.0.0.1:$shot_port/index.html?scene=/scenes/pyramid.json" 2>/dev/null
  carom_log "screenshot: $screenshot"
  exit 0
fi
if [ "$build_only" = 1 ]; then
  echo "$web"
  exit 0
fi
echo "Carom sandbox: http://localhost:$port/index.html  (Ctrl-C stops the server)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$web"
