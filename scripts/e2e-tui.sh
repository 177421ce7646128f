#!/usr/bin/env bash
# End-to-end test of the terminal frontend in a real terminal emulator (tmux):
# start the release binary (Alchemy, the default game) at 100x30 with a fixed seed, send keys,
# capture the screen, check the map and status line, wait and walk, an invalid key, the
# inventory and help, resize live (bigger, too small, back), quit with the y/n confirm, and
# check the terminal left the alternate screen with raw mode off. Then save with S and
# continue from the start screen (saves go to a temporary XDG_DATA_HOME). Then crash the binary on
# purpose (ALEMBIC_TEST_PANIC=1) and check the terminal is restored all the same.
#
# Usage: scripts/e2e-tui.sh          (exit 0 = pass or skipped, non-zero = failure)
# Captured screens are kept in $OUT (default: target/e2e-tui/).
set -euo pipefail

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); e2e-tui not run."
    exit 0
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/e2e-tui}"
mkdir -p "$OUT"
rm -f "$OUT"/*.txt

echo "== building the binary"
bash "$ROOT/scripts/build.sh"
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"

SOCK="alembic-e2e-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1 || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
}
trap cleanup EXIT

FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
pass() { echo "ok:   $*"; }

capture() { tm capture-pane -p -t e2e; }
save() { capture >"$OUT/$1.txt"; }

# wait_for TEXT [SECONDS]: poll the pane until TEXT shows (fixed string).
wait_for() {
    local text="$1" secs="${2:-10}" i
    for ((i = 0; i < secs * 20; i++)); do
        if [[ "$(capture)" == *"$text"* ]]; then return 0; fi
        sleep 0.05
    done
    return 1
}

# save_and_leave [WHAT]: S, the "saved to" note, Enter, and the binary exits with 0.
save_and_leave() {
    local what="${1:+ ($1)}"
    tm send-keys -t e2e S
    wait_for "Your game was saved to" 5 || fail "S did not say where it saved$what"
    tm send-keys -t e2e Enter
    wait_for "exit=0" 5 || fail "S did not exit with status 0$what"
}

# Travel, explore and runs walk one step per tick (any key stops them): wait until the
# screen has stopped changing.
settle() {
    local a b i
    for ((i = 0; i < 100; i++)); do
        a="$(capture)"
        sleep 0.25
        b="$(capture)"
        [[ "$a" == "$b" ]] && return 0
    done
    return 1
}


# wait_gone TEXT [SECONDS]: poll until TEXT no longer shows.
wait_gone() {
    local text="$1" secs="${2:-10}" i
    for ((i = 0; i < secs * 20; i++)); do
        if [[ "$(capture)" != *"$text"* ]]; then return 0; fi
        sleep 0.05
    done
    return 1
}

check() { # check NAME TEXT: the pane shows TEXT now (on one line, or across the pane's edge,
    # where a long path printed to the shell wraps: -J joins the lines the terminal wrapped).
    if [[ "$(capture)" == *"$2"* || "$(tm capture-pane -p -J -t e2e)" == *"$2"* ]]; then pass "$1"; else
        fail "$1: '$2' not on screen"
        capture | sed 's/^/    | /'
    fi
}

fmt() { tm display -p -t e2e "$1"; }

# Saves go to a throw-away data directory, never the real home.
DATA="$(mktemp -d)"
trap 'cleanup; rm -rf "$DATA"' EXIT

# turn_now: the turn counter on screen ("Turn N" in the status panel).
turn_now() { capture | grep -o 'Turn [0-9]*' | head -n1 | cut -d' ' -f2; }
# wait_turn N [SECONDS]: poll until the turn counter shows exactly N.
wait_turn() {
    local n="$1" secs="${2:-5}" i
    for ((i = 0; i < secs * 20; i++)); do
        if [[ "$(turn_now)" == "$n" ]]; then return 0; fi
        sleep 0.05
    done
    return 1
}

# A plain shell with a recognisable prompt in a fixed-size window.
tm new-session -d -s e2e -x 100 -y 30 "env PS1='e2e\$ ' XDG_DATA_HOME='$DATA' bash --norc --noprofile"
tm set -g status off
wait_for 'e2e$' || { fail "the shell did not start"; exit 1; }

echo "== start: 100x30, --seed 1 (Alchemy, the default game)"
tm send-keys -t e2e "$BIN --seed 1; echo exit=\$?" Enter
wait_for "Depth 1/11" || fail "the game did not start"
save 01-start
check "status line" "Depth 1/11  Turn 0"
check "hero on the map" "@"
check "first message" "You enter the dungeon."
check "HP in the status" "HP "
check "key hints" "? help"
[[ "$(fmt '#{alternate_on}')" == 1 ]] && pass "alternate screen on" || fail "alternate screen not on"

echo "== idle CPU (blocking input, no busy loop)"
game_pid="$(ps -o pid= --ppid "$(fmt '#{pane_pid}')" | tr -d ' ' | head -n1)"
if [[ -n "$game_pid" && -r /proc/$game_pid/stat ]]; then
    ticks() { awk '{print $14 + $15}' "/proc/$game_pid/stat"; }
    t0="$(ticks)"
    sleep 2
    t1="$(ticks)"
    hz="$(getconf CLK_TCK)"
    # Less than 2 % of a core over 2 s.
    if ((t1 - t0 <= hz * 2 / 50)); then pass "idle: $((t1 - t0)) CPU ticks in 2 s (CLK_TCK $hz)"; else
        fail "busy while idle: $((t1 - t0)) CPU ticks in 2 s (CLK_TCK $hz)"
    fi
else
    echo "note: game process not found; idle CPU not measured"
fi

echo "== wait and walk"
tm send-keys -t e2e . . .
wait_turn 3 && pass "three waits took three turns" || fail "three waits did not take three turns (turn $(turn_now))"
# Try every direction: walls refuse (no turn), open floor takes a turn.
for k in h j k l y u b n; do tm send-keys -t e2e "$k"; sleep 0.05; done
sleep 0.3
save 02-walked
t="$(turn_now)"
if [[ -n "$t" ]] && ((t > 3)); then pass "walked: turn $t"; else fail "walking took no turn (turn '$t')"; fi

echo "== an invalid key costs no turn and says why"
before="$(turn_now)"
tm send-keys -t e2e V
wait_for "Unknown key 'V'" 5 || fail "no message for an unknown key"
[[ "$(turn_now)" == "$before" ]] && pass "unknown key took no turn" || fail "unknown key took a turn"

echo "== rest (Z) and search (s): each says why it stopped (or why it did not start)"
# wait_any SECONDS TEXT...: poll until one of the texts shows.
wait_any() {
    local secs="$1" i t
    shift
    for ((i = 0; i < secs * 20; i++)); do
        for t in "$@"; do [[ "$(capture)" == *"$t"* ]] && return 0; done
        sleep 0.05
    done
    return 1
}
tm send-keys -t e2e Z
save 02b-rest
wait_any 10 "You are not hurt" "You feel rested." "comes into view." "Not with" "You are hurt!" &&
    pass "Z said why it stopped or did not start" || fail "no word from Z"
settle
before="$(turn_now)"
tm send-keys -t e2e s
if wait_any 5 "find nothing hidden"; then
    pass "s searched and said so"
    settle
    [[ "$(turn_now)" == "$((before + 5))" ]] && pass "s took 5 turns" || fail "s took $(($(turn_now) - before)) turns, not 5"
elif wait_any 1 "comes into view" "You are hurt" "Not with"; then
    pass "s stopped early or did not start, and said why"
else
    fail "s said nothing"
fi

echo "== inventory and help screens and back"
tm send-keys -t e2e i
wait_for "Inventory" 5 || fail "inventory did not open"
save 03-inventory
check "inventory lists the dagger" "a dagger"
tm send-keys -t e2e Escape
wait_gone "Inventory" 5 || fail "inventory did not close"
tm send-keys -t e2e '?'
wait_for "wait a turn" 5 || fail "help did not open"
save 04-help
tm send-keys -t e2e Escape
wait_for "Depth 1/11" 5 || fail "help did not close"

echo "== resize to 120x40"
tm resize-window -t e2e -x 120 -y 40
sleep 0.3
wait_for "Depth 1/11" 5 || true
save 05-120x40
[[ "$(fmt '#{pane_width}x#{pane_height}')" == 120x40 ]] && pass "pane is 120x40" || fail "pane not resized"
check "hero after resize" "@"
last_row="$(capture | sed -n '40p')"
if [[ "$last_row" == *"S save  Q quit"* ]]; then pass "status panel reaches the new bottom row"; else
    fail "status panel not on row 40: '$last_row'"
fi

echo "== resize to 60x20 (too small)"
small_turn="$(turn_now)"
tm resize-window -t e2e -x 60 -y 20
wait_for "Please enlarge the terminal" 5 || fail "no enlarge message below 80x24"
save 06-too-small
check "enlarge message" "to at least 80x24"
check "current size shown" "(now 60x20)"
tm send-keys -t e2e . # ignored while too small
sleep 0.2

echo "== back to 100x30"
tm resize-window -t e2e -x 100 -y 30
wait_for "Depth 1/11" 5 || fail "the game did not come back after enlarging"
save 07-back
check "hero back" "@"
[[ "$(turn_now)" == "$small_turn" ]] && pass "key ignored while too small" || fail "a key acted while too small"

echo "== quit with confirm"
tm send-keys -t e2e Q
wait_for "Quit this game?" 5 || fail "no quit confirm"
save 08-confirm
tm send-keys -t e2e n
wait_gone "Quit this game?" 5 || fail "n did not close the confirm"
tm send-keys -t e2e Q
wait_for "Quit this game?" 5 || fail "no quit confirm"
tm send-keys -t e2e y
wait_for "G A M E   O V E R" 5 || fail "Q y did not end on the summary"
save 08b-summary
check "the summary says how it ended" "You quit."
check "the summary names the seed" "Seed:     1"
check "the summary offers the way on" "Enter: the start screen"
tm send-keys -t e2e q
wait_for "exit=0" 5 || fail "the game did not exit with status 0"
save 09-after-quit
[[ "$(fmt '#{alternate_on}')" == 0 ]] && pass "alternate screen off after quit" || fail "still on the alternate screen"
[[ "$(fmt '#{cursor_flag}')" == 1 ]] && pass "cursor visible after quit" || fail "cursor hidden after quit"
if [[ "$(capture)" == *"Depth 1/11"* ]]; then fail "game screen left on the main screen"; else pass "shell screen back"; fi
tm send-keys -t e2e "stty -a | tr ' ;' '\\n\\n' | grep -xE -e '-?(icanon|echo)' | tr '\\n' ' '; echo" Enter
wait_for "icanon echo" 5 && pass "raw mode off (icanon echo)" || fail "terminal left in raw mode"
[[ ! -e "$DATA/alembic/alchemy.save" ]] && pass "Q y saved nothing" || fail "Q y wrote a save"

echo "== save with S, then continue from the start screen"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN --seed 1; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the game did not start (save run)"
tm send-keys -t e2e . .
wait_turn 2 || fail "two waits did not take two turns"
save_and_leave ""
[[ -s "$DATA/alembic/alchemy.save" ]] && pass "S wrote $DATA/alembic/alchemy.save" || fail "no save file after S"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN; echo exit=\$?" Enter
wait_for "A L C H E M Y" 5 || fail "no start screen without --seed"
save 10-start-screen
check "continue offered" "c)  Continue the saved game"
tm send-keys -t e2e c
wait_for "Welcome back." 5 || fail "continue did not load the game"
save 11-continued
[[ "$(turn_now)" == 2 ]] && pass "continued at the saved turn 2" || fail "continued at turn $(turn_now), saved at 2"
tm send-keys -t e2e Q
wait_for "Quit this game?" 5 || fail "no quit confirm (continued game)"
tm send-keys -t e2e y
wait_for "G A M E   O V E R" 5 || fail "no summary after quitting the continued game"
tm send-keys -t e2e q
wait_for "exit=0" 5 || fail "the continued game did not exit with status 0"

echo "== quitting is final: no Continue afterwards, one score row for the game"
[[ ! -e "$DATA/alembic/alchemy.save" ]] && pass "Q y removed the quit game's save" || fail "the quit game's save is still there"
ls "$DATA"/alembic/records/alchemy-seed1-*.replay >/dev/null 2>&1 && pass "the quit game's recording is kept in records/" || fail "no recording kept for the quit game"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN; echo exit=\$?" Enter
wait_for "A L C H E M Y" 5 || fail "no start screen after the quit"
save 11a-after-final-quit
if [[ "$(capture)" == *"Continue the saved game"* ]]; then fail "Continue offered after a quit"; else pass "no Continue after a quit"; fi
tm send-keys -t e2e q
wait_for "exit=0" 5 || fail "the start screen did not quit"
# The game saved at turn 2, continued and quit there (the seed-1 game quit at the top is
# another game, with its own row).
rows=$(grep -c '"game": "alchemy-1-t2-' "$DATA/alembic/scores.json" || true)
[[ "$rows" == 1 ]] && pass "one score row for the quit game" || fail "$rows score rows for the quit game: $(cat "$DATA/alembic/scores.json")"
grep -q '"score": 0,' "$DATA/alembic/scores.json" && pass "a game quit on depth 1 at turn 2 scores 0" || fail "quit score: $(cat "$DATA/alembic/scores.json")"
# A save again, for what follows.
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN --seed 1; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the game did not start (second save run)"
save_and_leave "second save"

echo "== --seed with a saved game asks first; Ctrl-C leaves the save as it was"
before=$(sha256sum <"$DATA/alembic/alchemy.save")
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN --seed 9; echo exit=\$?" Enter
wait_for "Start a new game? Your saved game and its recording stay" 5 || fail "--seed over a save did not ask"
save 11b-replace-question
tm send-keys -t e2e C-c
wait_for "exit=0" 5 || fail "Ctrl-C at the question did not exit with status 0"
after=$(sha256sum <"$DATA/alembic/alchemy.save")
[[ "$before" == "$after" ]] && pass "--seed then Ctrl-C left the save untouched" || fail "the save changed"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN --seed 9; echo exit=\$?" Enter
wait_for "Start a new game? Your saved game and its recording stay" 5 || fail "--seed over a save did not ask (2)"
tm send-keys -t e2e y
wait_for "Depth 1/11" 5 || fail "y did not start the new game"
save_and_leave "new game"
check "S says where it saved" "Your game was saved to $DATA/alembic/alchemy.save"
rm -f "$DATA/alembic/alchemy.save"

echo "== crash path: ALEMBIC_TEST_PANIC=1 panics on the first key"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "ALEMBIC_TEST_PANIC=1 $BIN --seed 1; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the game did not start (panic run)"
tm send-keys -t e2e .
wait_for "exit=101" 5 || fail "the deliberate panic did not exit with 101"
save 12-after-panic
check "panic message printed" "deliberate crash"
[[ "$(fmt '#{alternate_on}')" == 0 ]] && pass "alternate screen off after panic" || fail "still on the alternate screen after panic"
[[ "$(fmt '#{cursor_flag}')" == 1 ]] && pass "cursor visible after panic" || fail "cursor hidden after panic"
tm send-keys -t e2e "stty -a | tr ' ;' '\\n\\n' | grep -xE -e '-?(icanon|echo)' | tr '\\n' ' '; echo" Enter
wait_for "icanon echo" 5 && pass "raw mode off after panic" || fail "terminal left in raw mode after panic"

echo "== practice mode: U takes moves back; quitting writes a morgue and keeps the recording"
tm send-keys -t e2e clear Enter
PDATA="$DATA/practice"
mkdir -p "$PDATA"
tm send-keys -t e2e "XDG_DATA_HOME='$PDATA' $BIN --practice --seed 3; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the practice game did not start"
check "practice announced" "A practice game: U takes back a move."
for _ in 1 2 3 4 5 6; do tm send-keys -t e2e .; done
wait_turn 6 || fail "six waits did not reach turn 6"
for _ in 1 2 3; do tm send-keys -t e2e U; done
wait_turn 3 && pass "three U presses took the game back to turn 3" || fail "undo: turn is $(turn_now), not 3"
check "undo said so" "You take back a move"
save 14-practice-undo
tm send-keys -t e2e Q
wait_for "Quit this game?" 5 || fail "no quit confirmation (practice)"
tm send-keys -t e2e y
wait_for "G A M E   O V E R" 5 || fail "no summary after quitting the practice game"
tm send-keys -t e2e q
wait_for "exit=0" 5 || fail "the practice game did not quit cleanly"
morgue_file="$(ls "$PDATA"/alembic/morgue/*.txt 2>/dev/null | head -n1)"
replay_file="$(ls "$PDATA"/alembic/records/*.replay 2>/dev/null | head -n1)"
[[ -n "$morgue_file" ]] && pass "morgue written: $(basename "$morgue_file")" || fail "no morgue file after quitting"
[[ -n "$replay_file" ]] && pass "recording kept: $(basename "$replay_file")" || fail "no recording kept after quitting"
if [[ -n "$morgue_file" ]]; then
    grep -q "Mode:     practice" "$morgue_file" && grep -q "Cause:    quit" "$morgue_file" &&
        grep -q "Turns:    3" "$morgue_file" && pass "morgue says practice, quit, turn 3" ||
        fail "morgue content: $(head -c 400 "$morgue_file")"
fi
[[ ! -e "$PDATA/alembic/scores.json" ]] && pass "practice games are not scored" || fail "a practice game entered the score table"

echo "== --replay: watch the recording, step back and forth"
if [[ -n "$replay_file" ]]; then
    tm send-keys -t e2e clear Enter
    tm send-keys -t e2e "XDG_DATA_HOME='$PDATA' $BIN --replay '$replay_file'; echo exit=\$?" Enter
    wait_for "REPLAY  turn 0/3" 5 && pass "replay opens at turn 0 of 3" || fail "replay did not open"
    tm send-keys -t e2e End
    wait_for "turn 3/3" 5 && pass "End jumps to turn 3" || fail "End did not jump to the last turn"
    tm send-keys -t e2e Left
    wait_for "turn 2/3" 5 && pass "Left steps back to turn 2" || fail "Left did not step back"
    tm send-keys -t e2e Right
    wait_for "turn 3/3" 5 && pass "Right steps forward again" || fail "Right did not step forward"
    save 15-replay
    tm send-keys -t e2e q
    wait_for "exit=0" 5 || fail "q did not leave the replay with status 0"
fi
echo "== Caves: a saved game's recording plays back the same way"
tm send-keys -t e2e clear Enter
CDATA="$DATA/caves"
mkdir -p "$CDATA"
tm send-keys -t e2e "XDG_DATA_HOME='$CDATA' $BIN --game caves --seed 6; echo exit=\$?" Enter
wait_for "Turn 0" 5 || fail "the Caves game did not start at once (--seed)"
for _ in 1 2 3 4; do tm send-keys -t e2e .; done
wait_for "Turn 4" 5 || fail "four waits did not reach turn 4 (Caves)"
tm send-keys -t e2e S
wait_for "exit=0" 5 || fail "S did not save and quit Caves"
caves_rec="$CDATA/alembic/caves.replay"
if [[ -f "$caves_rec" ]]; then
    tm send-keys -t e2e clear Enter
    tm send-keys -t e2e "$BIN --game caves --replay '$caves_rec'; echo exit=\$?" Enter
    wait_for "REPLAY  turn 0/4" 5 && pass "Caves replay opens at turn 0 of 4" || fail "the Caves replay did not open"
    tm send-keys -t e2e End
    wait_for "turn 4/4" 5 && pass "Caves replay: End jumps to turn 4" || fail "Caves replay: End did not jump"
    tm send-keys -t e2e Left
    wait_for "turn 3/4" 5 && pass "Caves replay: Left steps back" || fail "Caves replay: Left did not step back"
    save 16-caves-replay
    tm send-keys -t e2e q
    wait_for "exit=0" 5 && pass "q leaves the Caves replay" || fail "q did not leave the Caves replay"
else
    fail "no Caves recording beside the save: $(ls "$CDATA/alembic" 2>&1)"
fi
tm send-keys -t e2e clear Enter
printf 'not a recording\n' >"$DATA/bad.replay"
tm send-keys -t e2e "$BIN --replay '$DATA/bad.replay'; echo exit=\$?" Enter
wait_for "exit=1" 5 && pass "a bad recording exits 1" || fail "a bad recording did not exit 1"
check "bad recording says why" "cannot replay"

echo "== the mouse: hover describes a cell, a click travels"
tm send-keys -t e2e clear Enter
MDATA="$DATA/mouse"
mkdir -p "$MDATA"
tm send-keys -t e2e "XDG_DATA_HOME='$MDATA' $BIN --seed 77; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the game did not start (mouse)"
# The hero's cell, from the screen: row and column of '@' (1-based for the SGR sequence).
hero_row=$(capture | grep -n '@' | head -n1 | cut -d: -f1)
hero_col=$(capture | sed -n "${hero_row}p" | awk -F'@' '{ print length($1) + 1 }')
tm send-keys -t e2e -l $'\e[<35;'"$hero_col;$hero_row"'M'
wait_for "You are standing here" 5 && pass "hovering the hero describes the cell" || fail "hover showed nothing"
moved=
for dx in 4 -4 3 -3 2 -2; do
    for dy in 0 2 -2; do
        before="$(turn_now)"
        tm send-keys -t e2e -l $'\e[<0;'"$((hero_col + dx));$((hero_row + dy))"'M'
        tm send-keys -t e2e -l $'\e[<0;'"$((hero_col + dx));$((hero_row + dy))"'m'
        sleep 0.3
        if [[ "$(turn_now)" != "$before" ]]; then
            moved="$dx,$dy: turn $before -> $(turn_now)"
            break 2
        fi
    done
done
[[ -n "$moved" ]] && pass "a click travelled ($moved)" || fail "no click made the hero travel"
settle
save 16-mouse
tm send-keys -t e2e S Enter
wait_for "exit=0" 5 || fail "S did not save and quit (mouse)"

echo "== auto-explore (o), travel to stairs (>) and running (Shift+direction)"
tm send-keys -t e2e clear Enter
EDATA="$DATA/explore"
mkdir -p "$EDATA"
# Running: seed 2 starts with open floor to the north (seed 5's start, with light's lit
# rooms, is a spot where every run stops after a step).
tm send-keys -t e2e "XDG_DATA_HOME='$EDATA/run' $BIN --seed 2; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the game did not start (run)"
tm send-keys -t e2e K
settle
t_run="$(turn_now)"
((t_run > 1)) && pass "Shift+K ran $t_run steps with one key" || fail "Shift+K ran $t_run steps"
tm send-keys -t e2e S Enter
wait_for "exit=0" 5 || fail "S did not save and quit (run)"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "XDG_DATA_HOME='$EDATA' $BIN --seed 5; echo exit=\$?" Enter
wait_for "Depth 1/11" 5 || fail "the game did not start (explore)"
# A step south first, as this check has always begun (the explore below is seed 5's game
# after that step: from turn 0 it meets another fight).
tm send-keys -t e2e j
settle
# Explore walks a step at a time, so a key stops it (and does nothing else).
t0="$(turn_now)"
tm send-keys -t e2e o Escape
wait_for "You stop." 5 && pass "a key stopped explore after $(($(turn_now) - t0)) step(s)" ||
    fail "Escape did not stop explore"
settle
presses=0
fights=0
looked=
done_exploring=
# Presses that explored: 15 at most. A press refused because a monster is in view, and the
# Tab presses of the fight that follows, are the fights, counted apart.
for _ in $(seq 60); do
    ((presses - fights < 15)) || break
    tm send-keys -t e2e o
    presses=$((presses + 1))
    settle
    if [[ "$(capture)" == *"Done exploring."* ]]; then
        done_exploring=1
        break
    fi
    # A monster in view stops explore, and explore will not start again with one in view
    # ("Not with a jackal in view."): look at it once, then fight it with Tab (DCSS's
    # auto-fight) until none is in view.
    if [[ "$(capture)" == *"Not with"* ]]; then
        if [[ -z $looked ]]; then
            looked=0
            # x puts the cursor on the hero, Tab on the nearest monster (then the next);
            # Enter opens its description.
            for n in $(seq 0 5); do
                tm send-keys -t e2e x
                for _ in $(seq "$n"); do tm send-keys -t e2e Tab; done
                tm send-keys -t e2e Enter
                sleep 0.2
                if capture | grep -Eq "Level [0-9]+\. It is"; then
                    looked=1
                    save 17-look-monster
                    break
                fi
                tm send-keys -t e2e Escape
                sleep 0.1
            done
            ((looked)) || save 17-look-monster-FAILED
            tm send-keys -t e2e Escape
            sleep 0.2
        fi
        fights=$((fights + 1))
        for _ in $(seq 60); do
            tm send-keys -t e2e Tab
            sleep 0.08
            if [[ "$(capture)" == *"No monster in view."* || "$(capture)" == *"You die"* ]]; then break; fi
        done
    fi
done
save 17-explored
t_explore="$(turn_now)"
[[ -n $done_exploring ]] && pass "o explored depth 1 in $((presses - fights)) presses plus $fights fights (Tab): turn $t_explore" ||
    fail "o did not finish depth 1 in 15 presses plus $fights fights: turn $t_explore"
case "$looked" in
1) pass "x then Enter on a monster shows its description (level and health)" ;;
0) fail "looking at a monster showed no description (see 17-look-monster-FAILED)" ;;
*) pass "no monster came into view on the way (look not exercised)" ;;
esac
tm send-keys -t e2e '>'
settle
save 18-to-stairs
if [[ "$(capture)" == *"You know of no stairs down"* ]]; then
    pass "> says no stairs down are known yet"
else
    t_stairs="$(turn_now)"
    ((t_stairs >= t_explore)) && pass "> travelled towards the stairs down (turn $t_stairs)" || fail "> did nothing"
    # Pressed again on the stairs (after any stop on the way), > goes down.
    for _ in 1 2 3 4 5; do
        [[ "$(capture)" == *"Depth 2/11"* ]] && break
        tm send-keys -t e2e '>'
        settle
    done
    [[ "$(capture)" == *"Depth 2/11"* ]] && pass "> again took the stairs: depth 2" || fail "> did not take the stairs down"
    save 18b-descended
fi
tm send-keys -t e2e S Enter
wait_for "exit=0" 5 || fail "S did not save and quit (explore)"

echo "== bad flags never touch the terminal"
tm send-keys -t e2e clear Enter
tm send-keys -t e2e "$BIN --load /nonexistent.save; echo exit=\$?" Enter
wait_for "exit=1" 5 || fail "unreadable save did not exit 1"
check "clear save error" "cannot read save file /nonexistent.save"
[[ "$(fmt '#{alternate_on}')" == 0 ]] && pass "no alternate screen for a bad save" || fail "bad save entered the alternate screen"
save 13-bad-save

echo
echo "== captured: 02-walked (100x30)"
cat "$OUT/02-walked.txt"
echo "== captured: 05-120x40"
cat "$OUT/05-120x40.txt"
echo "(all captures in $OUT)"

if ((FAILS > 0)); then
    echo "e2e-tui: $FAILS check(s) FAILED"
    exit 1
fi
echo "e2e-tui: all checks passed"
