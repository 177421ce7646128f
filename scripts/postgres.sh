#!/usr/bin/env bash
# A private PostgreSQL for the storage tests: nothing mocked, nothing shared with a system
# database.
#
#   scripts/postgres.sh start   # install Debian's postgresql if missing (as root), make a
#                               # cluster in $ALEMBIC_PG_DIR, start it on a spare loopback
#                               # port, print its URL (postgres://alembic@127.0.0.1:PORT/postgres)
#   scripts/postgres.sh url     # print the URL of the running cluster
#   scripts/postgres.sh stop    # stop it and remove its directory
#   scripts/postgres.sh pause   # stop the server, keeping its data (the database "goes down")
#   scripts/postgres.sh resume  # start it again on the same port and data
#
# The cluster trusts connections from 127.0.0.1 only (a throwaway test database) and runs
# with fsync off. PostgreSQL refuses to run as root: as root, the server runs as the
# `postgres` user (runuser); otherwise as the caller. Everything but the URL goes to stderr.
set -euo pipefail

dir=${ALEMBIC_PG_DIR:-${TMPDIR:-/tmp}/alembic-pg-$(id -u)}
say() { echo "postgres.sh: $*" >&2; }

bindir() {
  local b
  for b in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [ -x "$b/initdb" ] && [ -x "$b/pg_ctl" ] && { echo "$b"; return 0; }
  done
  command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1 && {
    dirname "$(command -v pg_ctl)"
    return 0
  }
  return 1
}

install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    say "PostgreSQL is not installed and this is not root on Debian: install postgresql"
    return 1
  fi
  say "installing Debian's postgresql"
  apt-get update -qq >/dev/null &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}

# Run a PostgreSQL program as the user that owns the cluster.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

url() {
  [ -f "$dir/port" ] || { say "not running (no $dir/port)"; return 1; }
  echo "postgres://alembic@127.0.0.1:$(cat "$dir/port")/postgres"
}

running() {
  local b
  b=$(bindir) && [ -f "$dir/port" ] && as_owner "$b/pg_ctl" -D "$dir/data" status >/dev/null 2>&1
}

launch() {
  if ! as_owner "$1/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $2 -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >&2; then
    say "the server did not start:"
    tail -n 20 "$dir/server.log" >&2 || true
    return 1
  fi
}

pause() {
  local b
  b=$(bindir) && [ -d "$dir/data" ] || { say "no cluster to pause"; return 1; }
  as_owner "$b/pg_ctl" -D "$dir/data" -m fast -w stop >&2
}

resume() {
  local b
  b=$(bindir) && [ -f "$dir/port" ] || { say "no cluster to resume"; return 1; }
  launch "$b" "$(cat "$dir/port")"
}

start() {
  if running; then
    url
    return 0
  fi
  local b
  b=$(bindir) || { install && b=$(bindir); } || { say "no PostgreSQL to start"; return 1; }
  if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql --shell /bin/false postgres
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  chmod 700 "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  local port=55432
  while ! port_free "$port"; do
    port=$((port + 1))
    [ "$port" -lt 55532 ] || { say "no free port in 55432-55531"; return 1; }
  done
  as_owner "$b/initdb" -D "$dir/data" -U alembic --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
    { say "initdb failed:"; cat "$dir/initdb.log" >&2; return 1; }
  launch "$b" "$port" || return 1
  echo "$port" >"$dir/port"
  say "PostgreSQL $("$b/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, data in $dir"
  url
}

stop() {
  local b
  if b=$(bindir) && [ -d "$dir/data" ]; then
    as_owner "$b/pg_ctl" -D "$dir/data" -m fast -w stop >&2 2>&1 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url ;;
  pause) pause ;;
  resume) resume ;;
  *)
    echo "usage: $0 start|stop|url|pause|resume" >&2
    exit 2
    ;;
esac
