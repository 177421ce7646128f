#!/usr/bin/env bash
# The small-game guide (docs/guide.md), played as a reader would: each step's example is
# built and run in a real terminal (tmux), keys are sent and the screen is checked.
#   step 1: the `@` walks and stops at walls;
#   step 2: rats come and bite (hit points go down) or die when walked into;
#   step 3: `u` takes a move back, `S` saves and quits, and the next start continues there.
# Usage: scripts/e2e-guide.sh   (exit 0 = pass or skipped; screens in target/e2e-guide/)
set -euo pipefail

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); e2e-guide not run."
    exit 0
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="$TARGET/e2e-guide"
mkdir -p "$OUT"
echo "== building the guide's examples"
bash "$ROOT/scripts/build.sh" debug
EX="$TARGET/debug/examples"
WORK="$(mktemp -d)"
SOCK="alembic-guide-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok:   $*"; }
RUN=0
screen() { tm capture-pane -p -t "g$RUN"; }
start() { # start EXAMPLE: run it in a new 80x24 session, in the work directory
    RUN=$((RUN + 1))
    tm new-session -d -s "g$RUN" -x 80 -y 24 -c "$WORK" "$EX/$1; sleep 30"
    sleep 1
}
keys() { # keys K...: one key at a time, as a person types
    local k
    for k in "$@"; do tm send-keys -t "g$RUN" "$k"; sleep 0.1; done
    sleep 0.4
}
# col_of CHAR ROW: the column of CHAR on screen row ROW (0-based), or -1.
col_of() { screen | sed -n "$(($2 + 1))p" | awk -v c="$1" '{ print index($0, c) - 1 }'; }

# Step 1: walk three steps east and one south; the seventh step east is stopped by a wall.
start guide_1_walk
[ "$(col_of @ 2)" = 2 ] && pass "step 1: the @ starts at (2, 2)" || fail "step 1: no @ at (2, 2)"
keys l l l j
screen >"$OUT/step1.txt"
[ "$(col_of @ 3)" = 5 ] && pass "step 1: three steps east and one south" || fail "step 1: the @ did not walk: $(screen | head -8)"
keys k l l l l l l l
[ "$(col_of @ 2)" = 6 ] && pass "step 1: the wall at x = 7 stops the @" || fail "step 1: walked through a wall"
keys q
sleep 0.3
screen | grep -q '####' && fail "step 1: q did not quit" || pass "step 1: q quits"

# Step 2: walk east along row 2 toward the rats; they come, bite, or die.
start guide_2_monsters
screen | grep -q 'HP 10' && pass "step 2: the hero starts with 10 HP" || fail "step 2: no HP line"
rats_before=$(screen | head -7 | tr -cd 'r' | wc -c)
keys j l l l l l l l l l l l l l l
screen >"$OUT/step2.txt"
rats_after=$(screen | head -7 | tr -cd 'r' | wc -c)
hp=$(screen | sed -n 's/.*HP \([0-9]*\).*/\1/p' | head -1)
if [ "${hp:-10}" -lt 10 ] || [ "$rats_after" -lt "$rats_before" ] || screen | grep -q 'You die'; then
    pass "step 2: the rats took their turns (HP ${hp:-0}, rats $rats_before -> $rats_after)"
else
    fail "step 2: nothing happened: $(screen | head -9)"
fi

# Step 3: two steps, undo one, save; the next start is where the undo left the @.
start guide_3_save_undo
keys l l
[ "$(col_of @ 2)" = 4 ] && pass "step 3: two steps" || fail "step 3: did not walk"
keys u
[ "$(col_of @ 2)" = 3 ] && pass "step 3: u takes one back" || fail "step 3: undo: $(screen | head -4)"
keys S
sleep 0.3
[ -s "$WORK/guide.save" ] && pass "step 3: S wrote guide.save" || fail "step 3: no save"
start guide_3_save_undo
screen >"$OUT/step3.txt"
[ "$(col_of @ 2)" = 3 ] && pass "step 3: the next start continues the save" || fail "step 3: not continued: $(screen | head -4)"
[ ! -e "$WORK/guide.save" ] && pass "step 3: the save is taken when continued" || fail "step 3: save left behind"

if ((FAILS)); then
    echo "e2e-guide: $FAILS failed"
    exit 1
fi
echo "e2e-guide: all passed"
