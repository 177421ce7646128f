#!/usr/bin/env bash
# Run every test Alembic has: unit, property, behaviour and doc tests (`cargo test --workspace`),
# then the storage suite against a real PostgreSQL (scripts/postgres.sh), then the end-to-end
# scripts that play the binaries of the same build in tmux, under Xvfb and in headless
# Chromium (e2e-web.sh installs chromium and python3-websocket itself).
# Installs what a fresh Debian machine lacks (tmux, Xvfb, xdotool, ImageMagick) when run as root.
# Ends with one line "N passed, M failed" and exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."

need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)
command -v xauth >/dev/null 2>&1 || need+=(xauth)
command -v xdotool >/dev/null 2>&1 || need+=(xdotool)
command -v xwininfo >/dev/null 2>&1 || need+=(x11-apps x11-utils)
{ command -v import >/dev/null 2>&1 && import -version 2>/dev/null | grep -q ImageMagick; } || need+=(imagemagick)
if ((${#need[@]})); then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "test.sh: installing ${need[*]}"
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null \
      || echo "test.sh: could not install ${need[*]}; the end-to-end scripts will say what is missing"
  else
    echo "test.sh: missing ${need[*]} (install them to run the end-to-end scripts)"
  fi
fi

# Every test and script makes its scratch files (saves, databases, servers' data) under one
# directory of this run's own, removed at the end when everything passed and kept (and
# named) when something failed, so that a run leaves nothing behind in /tmp. Readable by
# all, so that PostgreSQL's own user reaches the cluster scripts/postgres.sh makes in it.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/alembic-test.XXXXXX")
chmod 755 "$run_tmp"
export TMPDIR=$run_tmp

# One build serves the tests and the end-to-end scripts: the scripts play the binaries of
# the test build's profile (debug, where the engine and the games are optimised at level 1;
# see Cargo.toml), not a second release build of the whole stack. `ALEMBIC_PROFILE=release
# ./scripts/test.sh` plays the release binaries instead (a second build).
export ALEMBIC_PROFILE=${ALEMBIC_PROFILE:-debug}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --color never 2>&1 | tee "$log"
cargo_rc=${PIPESTATUS[0]}
passed=$(grep -Eo '[0-9]+ passed' "$log" | awk '{s += $1} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
if [ "$cargo_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # a build failure counts as a failure even though no test reported it
fi

skipped=0

# The storage suite against a real PostgreSQL (scripts/postgres.sh installs Debian's package
# when missing, makes a private cluster on a spare loopback port, and removes it after). Its
# tests are `#[ignore]`d in the workspace run above; here they run with --ignored, or, when
# PostgreSQL cannot be started, are reported as skipped (never counted as passed).
echo "== PostgreSQL storage suite (tests/store_pg.rs) ($(date -u +%T) UTC)"
if pg_url=$(bash scripts/postgres.sh start); then
  pg_log=$(mktemp)
  # The database-down test stops and restarts the cluster: alone, after the others.
  # `--workspace` (not `-p alembic-web`) selects the packages the run above selected, so
  # Cargo resolves the same features and reuses its build (scripts/build.sh says why).
  ALEMBIC_PG_URL=$pg_url cargo test --workspace --color never --test store_pg -- --ignored \
    --skip the_database_goes_down_and_comes_back 2>&1 | tee "$pg_log"
  pg_rc=${PIPESTATUS[0]}
  ALEMBIC_PG_URL=$pg_url cargo test --workspace --color never --test store_pg -- --ignored \
    --exact the_database_goes_down_and_comes_back 2>&1 | tee -a "$pg_log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || pg_rc=1
  pg_passed=$(grep -Eo '[0-9]+ passed' "$pg_log" | awk '{s += $1} END {print s + 0}')
  pg_failed=$(grep -Eo '[0-9]+ failed' "$pg_log" | awk '{s += $1} END {print s + 0}')
  if [ "$pg_rc" -ne 0 ] && [ "$pg_failed" -eq 0 ]; then pg_failed=1; fi
  if [ "$pg_passed" -eq 0 ] && [ "$pg_failed" -eq 0 ]; then pg_failed=1; fi # it must run something
  passed=$((passed + pg_passed))
  failed=$((failed + pg_failed))
  rm -f "$pg_log"
  bash scripts/postgres.sh stop
else
  echo "SKIP: the PostgreSQL storage suite: PostgreSQL could not be started"
  skipped=$((skipped + 1))
fi
# crash-journal.sh with 8 kills (the documented run is 100), the campaign's quick profile.
# migrate-test.sh: the migration script ports a 0.1 and an early-0.2 game, which then build;
# presses-tmux.sh: Alchemy seeds 5 and 9 to depth 3 and the Caves seed 5 to level 3 by keys,
# the presses counted; fails if a monster neither side can reach holds up play.
# release-check.sh --offline: every publishable crate packages (no network).
# api-check.sh: the public API against the last release's (api/), and --self-test: the check
# fails on a removed item and a changed signature, on a fixture crate.
for e2e in scripts/e2e-tui.sh scripts/e2e-guide.sh scripts/e2e-pixels.sh scripts/e2e-web.sh \
  scripts/reliability.sh scripts/replays.sh scripts/rest-tmux.sh "scripts/rest-tmux.sh 5 1" \
  scripts/mods-tmux.sh scripts/web-full-disk.sh scripts/web-kill9.sh scripts/web-two-servers.sh \
  "scripts/crash-journal.sh 8" scripts/slots-locks.sh scripts/x-dies.sh "scripts/campaign.sh 400" \
  scripts/contract-tmux.sh scripts/module-cycles.sh scripts/data-bounds.sh scripts/tui-lost.sh \
  scripts/finality-tmux.sh scripts/outside-tmux.sh scripts/presses-tmux.sh scripts/migrate-test.sh \
  scripts/cunning-tmux.sh \
  "scripts/release-check.sh --offline" scripts/api-check.sh "scripts/api-check.sh --self-test"; do
  echo "== $e2e ($(date -u +%T) UTC)"
  out=$(mktemp)
  # shellcheck disable=SC2086 # a script and its arguments
  if bash $e2e 2>&1 | tee "$out"; [ "${PIPESTATUS[0]}" -eq 0 ]; then
    if grep -q '^SKIP' "$out"; then skipped=$((skipped + 1)); else passed=$((passed + 1)); fi
  else
    failed=$((failed + 1))
    echo "FAILED: $e2e"
  fi
  rm -f "$out"
done

if [ "$failed" -eq 0 ]; then
  rm -rf "$run_tmp" 2>/dev/null || true
else
  echo "test.sh: this run's scratch files are kept in $run_tmp"
fi
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
