#!/usr/bin/env bash
# Two alembic-web servers on one PostgreSQL (scripts/postgres.sh starts a private one, or
# this prints SKIP): $BOTS bots (frontend-web/examples/faults.rs, each its own browser and
# Alchemy game, in lock-step) play on server a; a is killed with `kill -9` 3–5 s into play;
# the bots come back to server b, which never saw their games, once a's leases (--lease-secs
# 3) have run out. Every game must continue on b at exactly the last turn its bot saw (one
# further: the key in flight at the kill was applied, not a loss). Prints the games moved
# and lost, `ok:` or `FAIL:`.
#
#   scripts/web-two-servers.sh      # BOTS=50
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BOTS=${BOTS:-50}
LEASE=3
# A cluster already running (someone's tests) is used and left running.
was_running=0
bash "$ROOT/scripts/postgres.sh" url >/dev/null 2>&1 && was_running=1
if ! pg_url=$(bash "$ROOT/scripts/postgres.sh" start); then
    echo "SKIP (PostgreSQL could not be started): two servers on one database"
    exit 0
fi
bash "$ROOT/scripts/build.sh"
BIN=$TARGET/${ALEMBIC_PROFILE:-release}/alembic-web
FAULTS=$TARGET/${ALEMBIC_PROFILE:-release}/examples/faults
PSQL=$(ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1)
PSQL=${PSQL:-psql}
dbname="two_servers_$$"
"$PSQL" -q "$pg_url" -c "CREATE DATABASE $dbname"
db="${pg_url%/*}/$dbname"

work=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    "$PSQL" -q "$pg_url" -c "DROP DATABASE IF EXISTS $dbname" 2>/dev/null || true
    [ "$was_running" = 1 ] || bash "$ROOT/scripts/postgres.sh" stop 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Start server $1 on its own data directory; sets $pid and $addr.
serve() {
    "$BIN" --bind 127.0.0.1:0 --data-dir "$work/data-$1" --db "$db" --server-name "$1" \
        --lease-secs "$LEASE" --max-conns-per-ip 100000 --max-games 100000 --max-games-per-ip 100000 --no-tiles \
        >"$work/out-$1" 2>>"$work/err-$1" &
    pid=$!
    pids+=("$pid")
    addr=
    for _ in $(seq 100); do
        addr=$(grep -o '127.0.0.1:[0-9]*' "$work/out-$1" | head -1 || true)
        [ -n "$addr" ] && break
        sleep 0.1
    done
    [ -n "$addr" ] || { echo "FAIL: web-two-servers: server $1 did not start: $(tail -3 "$work/err-$1")"; exit 1; }
}

serve a
pid_a=$pid
addr_a=$addr
serve b
addr_b=$addr
"$FAULTS" play --url "$addr_a" --bots "$BOTS" --state "$work/state.json" >"$work/play" 2>&1 &
play=$!
for _ in $(seq 600); do
    grep -qs '^play: every bot has started' "$work/play" && break
    kill -0 "$play" 2>/dev/null || break
    sleep 0.1
done
delay=$((30 + RANDOM % 21))
sleep "$((delay / 10)).$((delay % 10))"
kill -9 "$pid_a"
wait "$pid_a" 2>/dev/null || true
if ! wait "$play"; then
    echo "FAIL: web-two-servers: the play phase failed: $(tail -3 "$work/play")"
    exit 1
fi
cat "$work/play"
# Before a's leases run out, b refuses a's games (one is asked); after, b continues them.
moved_early=$(curl -s "http://$addr_b/health" | grep -o '"live":[0-9]*' || true)
echo "web-two-servers: just after the kill, the store still counts a's games as live ($moved_early)"
sleep $((LEASE + 2))
if "$FAULTS" check --url "$addr_b" --state "$work/state.json" >"$work/check" 2>&1; then rc=0; else rc=$?; fi
cat "$work/check"
line=$(grep '^check: games=' "$work/check" || true)
held=$("$PSQL" -qtA "$db" -c "SELECT COUNT(*) FROM web_games WHERE server = 'b'")
if [ "$rc" -eq 0 ] && [ -n "$line" ] && [ "$held" -gt 0 ]; then
    echo "ok:   web-two-servers: a killed after ${delay}00 ms; games moved to b: $held; ${line#check: }"
else
    echo "FAIL: web-two-servers: a killed after ${delay}00 ms; games held by b: $held; ${line#check: }"
    exit 1
fi
