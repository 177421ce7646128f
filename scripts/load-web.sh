#!/usr/bin/env bash
# Load test of alembic-web (a measurement, not a test): for each N in $NS, start a fresh
# release server on loopback, note its memory, run N bots (frontend-web/examples/load.rs:
# each its own Alchemy game, a move key every 200 ms) for $SECONDS_PER_RUN seconds, and print
# one table row: N, p50/p99/max key-to-frame latency, bytes per move, the server's CPU per
# move (from when every bot is in its game to the end: registrations and game starts are
# not counted), server RSS per game.
#
# Every game's save and recording go through the store on each move (SQLite in the data
# directory by default). DB=postgres runs the server on a private PostgreSQL instead
# (scripts/postgres.sh, a fresh database per run); ACCOUNTS=1 has every bot register an
# account through the forms and play logged in. SQLITE_SYNC=normal opens SQLite with
# `?synchronous=normal` (commits not flushed one by one: see frontend-web/README.md).
# WORKERS=N runs the server with `--workers N` (the threads that run the games; default
# one per core). BIN_DIR=DIR runs DIR/alembic-web instead of this tree's release build
# (another commit's, for a baseline measured in the same run), measured by this tree's load
# client, so both builds meet the same client.
#
#   NS="100 250 500" SECONDS_PER_RUN=20 scripts/load-web.sh
#   DB=postgres ACCOUNTS=1 NS=100 scripts/load-web.sh
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
NS=${NS:-100 250 500}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-20}
DB=${DB:-sqlite}
ACCOUNTS=${ACCOUNTS:-0}
SQLITE_SYNC=${SQLITE_SYNC:-full}
pg_url=""
if [ "$DB" = postgres ]; then
    pg_url=$(bash "$ROOT/scripts/postgres.sh" start)
    trap 'bash "$ROOT/scripts/postgres.sh" stop' EXIT
    PSQL=$(ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -1)
    PSQL=${PSQL:-psql}
fi
echo "load-web: database $DB (SQLite sync $SQLITE_SYNC), accounts $ACCOUNTS, $SECONDS_PER_RUN s per run" >&2
bash "$ROOT/scripts/build.sh"
BIN=$TARGET/${ALEMBIC_PROFILE:-release}/alembic-web
LOAD=$TARGET/${ALEMBIC_PROFILE:-release}/examples/load
if [ -n "${BIN_DIR:-}" ]; then
    # Another build's server (a baseline in the same run), built elsewhere.
    BIN=$BIN_DIR/alembic-web
fi

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
TICK=$(getconf CLK_TCK)

printf '| N games | p50 ms | p99 ms | max ms | bytes/move | server CPU/move | server RSS | RSS/game | failures | load avg |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for n in $NS; do
    work=$(mktemp -d)
    db_flag=()
    if [ -n "$pg_url" ]; then
        dbname="load_${n}_$$"
        "$PSQL" -q "$pg_url" -c "DROP DATABASE IF EXISTS $dbname" -c "CREATE DATABASE $dbname" >&2
        db_flag=(--db "${pg_url%/*}/$dbname")
    elif [ "$SQLITE_SYNC" = normal ]; then
        db_flag=(--db "sqlite:$work/alembic.db?synchronous=normal")
    fi
    if [ -n "${WORKERS:-}" ]; then
        db_flag+=(--workers "$WORKERS")
    fi
    # Every bot is on 127.0.0.1: the per-address limits (sockets, games, registrations)
    # would refuse all but the first few.
    "$BIN" --bind 127.0.0.1:0 --data-dir "$work/data" --max-conns-per-ip 100000 \
        --max-games 100000 --max-games-per-ip 100000 --max-sockets-per-ip 100000 \
        --registrations-per-hour 100000 "${db_flag[@]}" >"$work/out" 2>"$work/err" &
    pid=$!
    for _ in $(seq 50); do grep -qs 'serving' "$work/out" && break; sleep 0.1; done
    addr=$(grep -o '127.0.0.1:[0-9]*' "$work/out" | head -1)
    base=$(rss_kb "$pid")
    "$LOAD" --url "$addr" --clients "$n" --seconds "$SECONDS_PER_RUN" --accounts "$ACCOUNTS" \
        --server-pid "$pid" >"$work/load" &
    lpid=$!
    # The memory with every game in progress, near the end of the run.
    peak=$base
    while kill -0 "$lpid" 2>/dev/null; do
        r=$(rss_kb "$pid"); ((r > peak)) && peak=$r
        sleep 1
    done
    wait "$lpid" || true
    line=$(cat "$work/load")
    get() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$line"; }
    per=$(( (peak - base) / n ))
    # Server CPU per answered move, while the bots play (the load client reads it).
    cpu=$(awk -v t="$(get server_ticks_playing)" -v hz="$TICK" -v m="$(get answered)" 'BEGIN {printf "%.2f ms", m ? t * 1000 / hz / m : 0}')
    printf '| %s | %s | %s | %s | %s | %s | %s MB | %s KB | %s | %s |\n' "$n" "$(get p50_ms)" "$(get p99_ms)" \
        "$(get max_ms)" "$(get bytes_per_move)" "$cpu" "$((peak / 1024))" "$per" "$(get failures)" \
        "$(cut -d' ' -f1 /proc/loadavg)"
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$work"
done
