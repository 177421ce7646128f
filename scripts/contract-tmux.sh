#!/usr/bin/env bash
# The game contract, played in tmux as a player would: the Caves and the rats get practice,
# undo, the rewind on death, the morgue file, the score table and the replay viewer from the
# session alone (alembic-session), with no code of their own for them.
#
#   Caves:  --practice, four moves, U twice (the turn goes back by two); --practice --wizard,
#           zombies summoned, waiting until death: the rewind is offered and taken; a normal
#           game waited out until a hunter kills the hero: the morgue file is written and the
#           score shows on the next start screen (H).
#   Rats:   --practice, moves and U; a normal game saved with S, its recording watched with
#           --replay (End, Left steps back); quitting writes the morgue file.
#
# Usage: scripts/contract-tmux.sh     (exit 0 = pass or skipped; screens kept in $OUT)
set -uo pipefail

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); contract-tmux not run."
    exit 0
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/contract-tmux}"
mkdir -p "$OUT"
echo "== building the binary"
bash "$ROOT/scripts/build.sh" || exit 1
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"

SOCK="alembic-contract-$$"
# shellcheck source=scripts/lib/tmux.sh
. "$ROOT/scripts/lib/tmux.sh"
# start NAME ARGS...: a fresh pane running the binary with ARGS, its data in $DATA/NAME.
start() {
    local name=$1
    shift
    tm kill-session -t c >/dev/null 2>&1
    sleep 0.2
    mkdir -p "$DATA/$name"
    tm new-session -d -s c -x 130 -y 60 \
        "XDG_DATA_HOME='$DATA/$name' $BIN $*; echo exit=\$?; sleep 600"
}

echo "== Caves: practice, U twice"
# --seed begins the game at once, in every game (no start screen first).
start practice --game caves --seed 5 --practice
wait_for "Turn 0" 5 || fail "the Caves game did not start at once"
wait_for "A practice game: U takes back a move." 2 || fail "the game does not say it is practice"
for k in l l l j; do tm send-keys -t c "$k"; sleep 0.15; done
wait_for "Turn 4" 5 || fail "four moves did not reach turn 4"
tm send-keys -t c U
sleep 0.2
tm send-keys -t c U
wait_for "You take back a move (turn 2)." 5 && [[ $(turn) == 2 ]] &&
    pass "U twice: turn 4 -> $(turn)" || fail "U twice did not go back to turn 2 (turn $(turn))"
capture >"$OUT/caves-undo.txt"
tm send-keys -t c Q
sleep 0.2
tm send-keys -t c y
wait_for "G A M E   O V E R" 5 && pass "caves: Q y ends on the summary" || fail "caves: no summary after Q y"
tm send-keys -t c q
wait_for "exit=0" 5 || fail "quitting the practice game did not exit 0"
# -J: the farewell names the recording's path, which may wrap at the pane's edge.
grep -q "Practice and wizard games are not scored" <(tm capture-pane -p -J -t c) && pass "a practice game is not scored" ||
    fail "the practice game's farewell did not say it is not scored"

echo "== Caves: dying in practice offers the rewind"
start rewind --game caves --seed 5 --practice --wizard
wait_for "Turn 0" 5 || fail "the game did not start (rewind)"
for _ in 1 2 3 4 5 6; do
    tm send-keys -t c '~'
    sleep 0.2
    tm send-keys -t c -l "summon zombie"
    tm send-keys -t c Enter
    sleep 0.2
    tm send-keys -t c Escape
    sleep 0.2
done
for _ in $(seq 1 60); do
    tm send-keys -t c .
    sleep 0.05
    [[ "$(capture)" == *"practice game:"* ]] && break
done
if wait_for "practice game:" 5; then
    pass "death in practice asks to take moves back"
    capture >"$OUT/caves-rewind-offer.txt"
    tm send-keys -t c y
    wait_for "You take back" 5 && wait_for "HP 40/40" 5 && pass "the rewind brings the hero back" ||
        fail "the rewind did not bring the hero back"
else
    fail "no rewind offered after dying in practice"
fi

echo "== Caves: a normal death writes the morgue and the score"
start death --game caves --seed 1
wait_for "Turn 0" 5 || fail "the game did not start (death)"
for _ in $(seq 1 80); do
    for _ in $(seq 1 10); do tm send-keys -t c .; done
    sleep 0.3
    [[ "$(capture)" == *"You died"* ]] && break
done
if wait_for "You died" 5; then
    capture >"$OUT/caves-death.txt"
    wait_for "Morgue file:" 3 && pass "the end screen names the morgue file" || fail "no morgue file named"
    morgue=$(ls "$DATA/death/alembic/morgue/"caves-seed1-*.txt 2>/dev/null | head -1)
    [[ -n $morgue ]] && grep -q "^Died: " "$morgue" && pass "morgue file $morgue" ||
        fail "no morgue file in $DATA/death/alembic/morgue"
    tm send-keys -t c q
    wait_for "exit=0" 5 || fail "q after death did not exit 0"
    cause=$(grep "^Died: " "$morgue" | sed 's/^Died: \(.*\), on turn.*/\1/')
    start death --game caves
    wait_for "C A V E S" 5 || fail "the title did not show (scores)"
    tm send-keys -t c H
    wait_for "high scores" 5 && wait_for "$cause" 3 && pass "the start screen's scores show: $cause" ||
        fail "the score table does not show the death ($cause)"
    capture >"$OUT/caves-scores.txt"
else
    fail "the Caves hero did not die while waiting"
fi

echo "== rats: practice and U, a saved game replayed, the morgue"
start rats --game rats --seed 4 --practice
wait_for "Turn 0" 5 || fail "the rats' game did not start"
for _ in 1 2 3; do tm send-keys -t c .; sleep 0.1; done
wait_for "Turn 3" 5 || fail "three waits did not reach turn 3 (rats)"
tm send-keys -t c U
wait_for "Turn 2" 5 && pass "rats: U takes turn 3 back" || fail "rats: U did not take a move back"
capture >"$OUT/rats-undo.txt"
tm send-keys -t c Q
sleep 0.2
tm send-keys -t c y
wait_for "G A M E   O V E R" 5 && pass "rats: Q y ends on the summary" || fail "rats: no summary after Q y"
capture >"$OUT/rats-summary.txt"
tm send-keys -t c q
wait_for "exit=0" 5 || fail "quitting the rats did not exit 0"
ls "$DATA/rats/alembic/morgue/"rats-seed4-*.txt >/dev/null 2>&1 && pass "rats: the quit game has its morgue file" ||
    fail "rats: no morgue file"
start rats-save --game rats --seed 4
wait_for "Turn 0" 5 || fail "the rats' game did not start (save)"
for _ in 1 2 3 4; do tm send-keys -t c .; sleep 0.1; done
wait_for "Turn 4" 5 || fail "four waits did not reach turn 4 (rats)"
tm send-keys -t c S
wait_for "exit=0" 5 || fail "S did not save and leave (rats)"
rec="$DATA/rats-save/alembic/rats.replay"
if [[ -f $rec ]]; then
    start rats-save --game rats --replay "$rec"
    wait_for "REPLAY  turn 0/4" 5 && pass "rats: the replay opens at turn 0 of 4" || fail "rats: the replay did not open"
    tm send-keys -t c End
    wait_for "turn 4/4" 5 || fail "rats: End did not jump to turn 4"
    tm send-keys -t c Left
    wait_for "turn 3/4" 5 && pass "rats: Left steps back in the replay" || fail "rats: Left did not step back"
    capture >"$OUT/rats-replay.txt"
    tm send-keys -t c q
    wait_for "exit=0" 5 || fail "q did not leave the rats' replay"
else
    fail "rats: no recording beside the save ($(ls "$DATA/rats-save/alembic" 2>&1))"
fi

if ((FAILS)); then
    echo "contract-tmux: $FAILS failure(s); screens in $OUT"
    exit 1
fi
echo "contract-tmux: all passed; screens in $OUT"
