#!/usr/bin/env bash
# A spectator spams ← and Esc ("look into the past", "back to live") on a long web game
# while its player plays: the player's keypress-to-frame p99 must stay within twice the
# quiet p99 (frontend-web/tests/past.rs, `a_past_spammer_does_not_slow_the_player`, in a
# release build: timing goals are no unit test on a shared machine). Prints the figures.
#
# Usage: scripts/web-past-spam.sh            (exit 0 = within 2×)
#        PAST_MOVES=1000 PAST_KEYS=300 scripts/web-past-spam.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT
cargo test --manifest-path "$ROOT/Cargo.toml" --release -p alembic-web --color never \
    --test past a_past_spammer_does_not_slow_the_player -- --ignored --nocapture >"$OUT" 2>&1 || true
grep -E "past spam:|panicked|under spam" "$OUT" || true
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if grep -q "test result: ok. 1 passed" "$OUT"; then
    echo "ok:   a past spammer leaves the player's p99 within 2x the quiet p99"
else
    tail -n 20 "$OUT"
    echo "FAIL: a past spammer slowed the player (or the test did not run)"
    exit 1
fi
