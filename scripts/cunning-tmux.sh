#!/usr/bin/env bash
# Issue 58 in tmux, as a player would: an Alchemy wizard game; an orc champion (a cunning
# monster) summoned beside the hero and wounded (the wizard's `wound 3`); the look (x, Tab to
# the nearest monster, then Enter) says that it plans ahead; one wait (.) and the wounded champion
# has stepped away rather than trade blows; then the wizard's `hash`, and `Q` `y` `q`. The
# game's recording, filed under records/, replays (alembic-sim --verify) to the same final
# state hash that the game showed.
#
# Usage: scripts/cunning-tmux.sh [SEED]    (exit 0 = pass; screens kept in $OUT)
set -uo pipefail

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); cunning-tmux not run."
    exit 0
fi
SEED=${1:-3}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/cunning-tmux}"
mkdir -p "$OUT"
if [ -z "${SKIP_BUILD:-}" ]; then
    bash "$ROOT/scripts/build.sh" || exit 1
fi
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"
SIM="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim"

SOCK="alembic-cunning-$$"
# shellcheck source=scripts/lib/tmux.sh
. "$ROOT/scripts/lib/tmux.sh"
tm new-session -d -s c -x 120 -y 40 "XDG_DATA_HOME='$DATA' $BIN --seed $SEED --wizard; echo exit=\$?; sleep 30"
console() {
    tm send-keys -t c '~'
    sleep 0.3
    tm send-keys -t c -l "$1"
    tm send-keys -t c Enter
    sleep 0.4
    capture >"$OUT/console-$2.txt"
    tm send-keys -t c Escape
    sleep 0.2
}
# The Chebyshev distance between the hero (@) and the champion (o) on the screen's map (below
# the three message lines, left of the side panel).
apart() {
    capture | awk '
        NR > 3 { for (i = 1; i <= length($0) && i < 95; i++) { c = substr($0, i, 1)
            if (c == "@") { hx = i; hy = NR } if (c == "o") { n++; ox = i; oy = NR } } }
        END { if (!hx || n != 1) { print "?"; exit }
              dx = hx - ox; if (dx < 0) dx = -dx; dy = hy - oy; if (dy < 0) dy = -dy
              print (dx > dy ? dx : dy) }'
}

wait_for "Turn 0" 10 || fail "Alchemy did not start"
console "summon orc champion" summon
console "wound 3" wound
grep -q "Wounded to 3 hit points: the orc champion" "$OUT/console-wound.txt" &&
    pass "the wizard wounds the champion beside the hero" ||
    fail "no wounded champion: $(grep -i wound "$OUT/console-wound.txt" | head -2)"
before=$(apart)
[[ $before == 1 ]] && pass "the champion stands beside the hero" ||
    fail "the champion is $before cells away before the wait"

# The look: x opens the cursor on the hero, Tab jumps to the nearest monster, Enter opens
# its description.
tm send-keys -t c x
sleep 0.3
tm send-keys -t c Tab
sleep 0.3
tm send-keys -t c Enter
sleep 0.4
capture >"$OUT/look.txt"
grep -q "orc champion" "$OUT/look.txt" && grep -q "It plans ahead" "$OUT/look.txt" &&
    pass "the look says the orc champion plans ahead" ||
    fail "the look did not say it plans: $(grep -i 'orc\|plans' "$OUT/look.txt" | head -3)"
tm send-keys -t c Escape
sleep 0.3

hp_before=$(capture | grep -o 'HP [0-9]*/[0-9]*' | head -1)
tm send-keys -t c .
sleep 0.6
capture >"$OUT/after-wait.txt"
after=$(apart)
hp_after=$(capture | grep -o 'HP [0-9]*/[0-9]*' | head -1)
if [[ $after != "?" && $after -gt 1 ]]; then
    pass "after one wait the wounded champion is $after cells away ($hp_before, then $hp_after)"
else
    fail "the wounded champion did not step away (distance $after; $hp_before, then $hp_after)"
fi

console "hash" hash
shown=$(grep -o 'state hash [0-9a-f]*' "$OUT/console-hash.txt" | head -1 | awk '{print $3}')
[[ -n $shown ]] && pass "the game shows its state hash $shown" || fail "no state hash shown"

tm send-keys -t c Q
sleep 0.3
tm send-keys -t c y
sleep 0.8
capture >"$OUT/summary.txt"
tm send-keys -t c q
wait_for "exit=0" 10 || fail "the game did not end cleanly ($(capture | tail -2))"

rec=$(ls "$DATA"/alembic/records/*.replay 2>/dev/null | head -1)
if [[ -z $rec ]]; then
    fail "no recording filed under records/ ($(ls -R "$DATA/alembic" 2>/dev/null | tr '\n' ' '))"
elif out=$("$SIM" --replay "$rec" --verify --partial 2>&1); then
    got=$(sed -n 's/.*"final_hash":"\([0-9a-f]*\)".*/\1/p' <<<"$out")
    if [[ -n $shown && $got == *"$shown"* ]]; then
        pass "the recorded fight replays to the same final hash ($got)"
    else
        fail "the recording replays to $got, the game showed $shown: $out"
    fi
else
    fail "the recording does not verify: $out"
fi
echo "cunning-tmux: $FAILS failed; screens in $OUT"
((FAILS == 0))
