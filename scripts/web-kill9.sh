#!/usr/bin/env bash
# Fault test of alembic-web: `kill -9` the server in the middle of $BOTS active bot games
# (frontend-web/examples/faults.rs: each bot its own browser token and Alchemy game, waiting
# a turn at a time in lock-step, noting the turn its screen shows), restart it on the same
# data directory, and check that every game continues at exactly the last turn its bot saw
# (one turn further counts apart: the key in flight at the kill was applied, not a loss).
# Prints the figures and `ok:` or `FAIL:`; exits 1 when any game is lost.
#
#   scripts/web-kill9.sh            # BOTS=100, the kill 3–6 s into play
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BOTS=${BOTS:-100}
bash "$ROOT/scripts/build.sh"
BIN=$TARGET/${ALEMBIC_PROFILE:-release}/alembic-web
FAULTS=$TARGET/${ALEMBIC_PROFILE:-release}/examples/faults

work=$(mktemp -d)
pid=
cleanup() {
    if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# Start a server on the data directory; sets $pid and $addr.
serve() {
    : >"$work/out"
    # Letters (--no-tiles): the bots find the hero (@) and the monsters next to it.
    "$BIN" --bind 127.0.0.1:0 --data-dir "$work/data" --max-conns-per-ip 100000 \
        --max-games 100000 --max-games-per-ip 100000 --max-sockets-per-ip 100000 --no-tiles >"$work/out" 2>>"$work/err" &
    pid=$!
    addr=
    for _ in $(seq 100); do
        addr=$(grep -o '127.0.0.1:[0-9]*' "$work/out" | head -1 || true)
        [ -n "$addr" ] && break
        sleep 0.1
    done
    if [ -z "$addr" ]; then
        echo "FAIL: web-kill9: the server did not start: $(tail -3 "$work/err")"
        exit 1
    fi
}

serve
"$FAULTS" play --url "$addr" --bots "$BOTS" --state "$work/state.json" >"$work/play" 2>&1 &
play=$!
# Every bot in its game first (starting 100 games takes a few seconds on 2 cores), then the
# kill 3 to 6 s into play (in tenths of a second).
for _ in $(seq 600); do
    grep -qs '^play: every bot has started' "$work/play" && break
    kill -0 "$play" 2>/dev/null || break
    sleep 0.1
done
delay=$((30 + RANDOM % 31))
sleep "$((delay / 10)).$((delay % 10))"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=
if ! wait "$play"; then
    echo "FAIL: web-kill9: the play phase failed: $(tail -3 "$work/play")"
    exit 1
fi
cat "$work/play"

serve
if "$FAULTS" check --url "$addr" --state "$work/state.json" >"$work/check" 2>&1; then rc=0; else rc=$?; fi
cat "$work/check"
line=$(grep '^check: games=' "$work/check" || true)
if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
    echo "ok:   web-kill9: kill -9 after ${delay}00 ms, ${line#check: }"
else
    echo "FAIL: web-kill9: kill -9 after ${delay}00 ms, ${line#check: }"
    exit 1
fi
