#!/usr/bin/env bash
# End-to-end test of the browser frontend (alembic-web) in a real headless Chromium.
#
# Builds and starts the release server on a free loopback port with a throw-away data
# directory, starts Debian's chromium headless with its DevTools port, and drives it with
# scripts/e2e-web.py (the DevTools protocol over Debian's python3-websocket): the lobby, a
# new game played with vi keys, arrows and the numpad, a mouse click, a reload that
# continues the same game, a second browser context (its own cookies) that watches live,
# is refused when it presses a key, steps back into the past and returns to live, a
# dropped connection that reconnects, the end of the game (its summary in the page, with
# links that answer and no server path), and a Caves and a rats game started from the
# lobby's form (no start menu; the rats' summary). Screenshots go to $OUT (look at them:
# web-summary.png, web-caves.png, web-rats.png, web-rats-summary.png…). Then SIGTERM: the
# server must save the game and exit 0.
#
# Then the outside game in the browser: examples/coins' `coins-web` (three lines over
# `alembic_web::run_games`) on its own port and data directory; the lobby offers coins alone,
# another game is refused by name, a coins game is played in the page until every coin is
# taken (its summary), its recording replays, and SIGTERM saves the game left running.
# Its screenshots go outside the repository, to $COINS_OUT (web-coins.png,
# web-coins-summary.png, web-coins-replay.png).
#
# Installs chromium and python3-websocket with apt-get when missing (as root); prints a
# line starting with SKIP and exits 0 only when they cannot be installed. Knobs:
#   OUT=target/e2e-web     screenshots and logs
#   SKIP_BUILD=1           use an existing binary (BIN, default $CARGO_TARGET_DIR/$ALEMBIC_PROFILE/alembic-web, release when unset)
#   COINS_BIN=…            the outside game's server (default: coins-web beside BIN)
#   COINS_OUT=$TMPDIR/alembic-e2e-web-coins   its screenshots and log
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/target/e2e-web}
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/${ALEMBIC_PROFILE:-release}/alembic-web}
COINS_BIN=${COINS_BIN:-$(dirname "$BIN")/coins-web}
COINS_OUT=${COINS_OUT:-${TMPDIR:-/tmp}/alembic-e2e-web-coins}
PY=/usr/bin/python3

log() { printf 'e2e-web: %s\n' "$*" >&2; }
fail() {
    log "FAIL: $*"
    exit 1
}

have_tools() {
    command -v chromium >/dev/null 2>&1 && [[ -x $PY ]] && $PY -c 'import websocket' 2>/dev/null
}
if ! have_tools; then
    if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
        echo "SKIP: e2e-web needs chromium and python3-websocket (as root: apt-get install chromium python3-websocket)"
        exit 0
    fi
    log "installing chromium python3-websocket"
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get update -qq && apt-get install -y -qq chromium python3 python3-websocket >/dev/null; }; then
        echo "SKIP: e2e-web: chromium could not be installed"
        exit 0
    fi
    have_tools || { echo "SKIP: e2e-web: chromium or python3-websocket still missing"; exit 0; }
fi

if [[ -z ${SKIP_BUILD:-} ]]; then
    bash "$ROOT/scripts/build.sh" || fail "build"
fi
[[ -x $BIN ]] || fail "no binary at $BIN"
[[ -x $COINS_BIN ]] || fail "no binary at $COINS_BIN"

mkdir -p "$OUT" "$COINS_OUT"
rm -f "$OUT"/*.png "$COINS_OUT"/*.png
work=$(mktemp -d)
server_pid=""
coins_pid=""
chrome_pid=""
cleanup() {
    [[ -n $chrome_pid ]] && kill "$chrome_pid" 2>/dev/null || true
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null || true
    [[ -n $coins_pid ]] && kill "$coins_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

"$BIN" --bind 127.0.0.1:0 --data-dir "$work/data" >"$work/server.out" 2>"$OUT/server.log" &
server_pid=$!
for _ in $(seq 50); do
    grep -q 'serving http://' "$work/server.out" 2>/dev/null && break
    sleep 0.1
done
url=$(grep -o 'http://[0-9.:]*' "$work/server.out" | head -1)
[[ -n $url ]] || fail "the server printed no address"
log "server at $url"

port=$(free_port)
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --remote-debugging-address=127.0.0.1 --remote-debugging-port="$port" \
    --user-data-dir="$work/chrome" about:blank >"$OUT/chromium.log" 2>&1 &
chrome_pid=$!
for _ in $(seq 100); do
    "$PY" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/json/version', timeout=1)" \
        >/dev/null 2>&1 && break
    sleep 0.1
done

timeout 120 "$PY" "$ROOT/scripts/e2e-web.py" "$port" "$url" "$OUT" || fail "the browser checks (see above)"

# The outside game's server, in the same browser.
"$COINS_BIN" --bind 127.0.0.1:0 --data-dir "$work/coins" >"$work/coins.out" 2>"$COINS_OUT/server.log" &
coins_pid=$!
for _ in $(seq 50); do
    grep -q 'serving http://' "$work/coins.out" 2>/dev/null && break
    sleep 0.1
done
coins_url=$(grep -o 'http://[0-9.:]*' "$work/coins.out" | head -1)
[[ -n $coins_url ]] || fail "coins-web printed no address"
log "coins-web at $coins_url"
timeout 120 "$PY" "$ROOT/scripts/e2e-web.py" "$port" "$coins_url" "$COINS_OUT" coins ||
    fail "the coins browser checks (see above)"
kill -TERM "$coins_pid"
status=0
wait "$coins_pid" || status=$?
coins_pid=""
[[ $status == 0 ]] || fail "coins-web exited with $status after SIGTERM"
grep -q 'coins-web: every game saved' "$COINS_OUT/server.log" || fail "coins-web did not say it saved every game"
ls "$work"/coins/coins-*.save >/dev/null 2>&1 || fail "no coins save file after SIGTERM"
log "coins-web: SIGTERM saved the coins game and the server exited 0"

kill "$chrome_pid" 2>/dev/null || true
chrome_pid=""
# SIGTERM: every game saved, a clean exit.
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
[[ $status == 0 ]] || fail "the server exited with $status after SIGTERM"
grep -q 'every game saved' "$OUT/server.log" || fail "the server did not say it saved every game"
ls "$work"/data/alchemy-*.save >/dev/null 2>&1 || fail "no save file after SIGTERM"
log "SIGTERM saved the game and the server exited 0"
for f in "$OUT"/*.png "$COINS_OUT"/*.png; do
    [[ $(stat -c %s "$f") -gt 3000 ]] || fail "screenshot $f is (nearly) empty"
done
log "screenshots in $OUT: $(cd "$OUT" && ls *.png | tr '\n' ' ')"
log "coins screenshots in $COINS_OUT: $(cd "$COINS_OUT" && ls *.png | tr '\n' ' ')"
echo "e2e-web: all checks passed"
