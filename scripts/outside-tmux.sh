#!/usr/bin/env bash
# Issue 52 in tmux, as a player and an outside developer would see it:
#
#   The rats: `o` at turn 0 explores the maze until a rat comes into view; the help offers
#   `o` and no `Z` (the hero never heals), and `Z` is an unknown key that spends no turn.
#   An outside game (examples/coins: its own rules, board and table of
#   games, run by `alembic_tui::run_games` and `alembic_pixels::run_games`): `--list`, an
#   unknown `--game` refused before the
#   terminal is touched, a new game played, SIGTERM saves it and restores the terminal, the
#   save continues at its turn, and `--replay` shows its recording; under Xvfb (when it is
#   installed) the window plays it, a screenshot is kept, and SIGTERM saves it.
#   Its questions: `t` throws a coin with the targeting cursor, `E` writes in the dust.
#   Alchemy on the shared session (`alembic-tui --game alchemy`): quaff, wield,
#   throw (the targeting cursor, its path kept in an ANSI capture) and craft through the
#   session's questions, each taking a turn; the recording replays (alembic-sim --verify)
#   to the save's hash.
#
# Usage: scripts/outside-tmux.sh     (exit 0 = pass or skipped; screens kept in $OUT)
set -uo pipefail

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); outside-tmux not run."
    exit 0
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/outside-tmux}"
mkdir -p "$OUT"
echo "== building the binaries and examples"
bash "$ROOT/scripts/build.sh" || exit 1
TUI="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"
COINS="$TARGET/${ALEMBIC_PROFILE:-release}/coins-tui"
COINS_WINDOW="$TARGET/${ALEMBIC_PROFILE:-release}/coins-pixels"
ALCHEMY="$TUI --game alchemy"
SIM="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim"

SOCK="alembic-outside-$$"
# shellcheck source=scripts/lib/tmux.sh
. "$ROOT/scripts/lib/tmux.sh"
# start NAME BIN ARGS...: a fresh pane running BIN with ARGS, its data in $DATA/NAME; the
# program's pid goes to $DATA/NAME.pid (exec keeps it the same process).
start() {
    local name=$1 bin=$2
    shift 2
    tm kill-session -t c >/dev/null 2>&1
    sleep 0.2
    mkdir -p "$DATA/$name"
    tm new-session -d -s c -x 100 -y 30 \
        "sh -c 'echo \$\$ > $DATA/$name.pid; exec env XDG_DATA_HOME=$DATA/$name $bin $*'; echo exit=\$?; sleep 600"
}

echo "== the rats: o explores from turn 0; no rest is offered"
start rats "$TUI" --game rats --seed 5
wait_for "Turn 0" 5 || fail "the rats game did not start at once (--seed)"
tm send-keys -t c o
sleep 2
t=$(turn)
if [[ "${t:-0}" -gt 3 ]] && ! capture | grep -q "nothing left to explore"; then
    pass "o at turn 0 explored to turn $t ($(capture | sed -n 1p | sed 's/ *$//'))"
else
    fail "o at turn 0 did not explore (turn ${t:-?})"
fi
capture >"$OUT/rats-explore.txt"
tm send-keys -t c '?'
wait_for "Help" 3 || fail "the help did not open"
if capture | grep -q "explore until something happens" && ! capture | grep -q "rest until healed"; then
    pass "the help offers o and no Z"
else
    fail "the help does not match what the rats answer"
fi
capture >"$OUT/rats-help.txt"
tm send-keys -t c Escape
sleep 0.3
before=$(turn)
tm send-keys -t c Z
wait_for "Unknown key 'Z'" 3 && [[ "$(turn)" == "$before" ]] && pass "Z is an unknown key that spends no turn" ||
    fail "Z did something in the rats (turn $before -> $(turn))"

echo "== an outside game through alembic_tui::run_games"
if "$COINS" --list | grep -q "^coins "; then pass "--list names the outside game"; else fail "--list"; fi
err=$("$COINS" --game nethack 2>&1)
[[ "$err" == *"possible values: coins"* ]] && pass "an unknown --game is refused with the table's names" ||
    fail "an unknown --game: $err"
start coins "$COINS" --seed 3
wait_for "Turn 0" 5 || fail "the outside game did not start at once (--seed)"
for k in l l l j; do tm send-keys -t c "$k"; sleep 0.15; done
wait_for "Turn 4" 5 || fail "four moves did not reach turn 4"
capture >"$OUT/coins-play.txt"
kill -TERM "$(cat "$DATA/coins.pid")"
if wait_for "stopped by SIGTERM" 5 && wait_for "exit=0" 5; then
    pass "SIGTERM: $(capture | grep -o 'Your game was saved to [^ ]*' | head -1)"
else
    fail "SIGTERM did not save and exit 0"
fi
# The terminal is back: the pane shows the shell's lines, not the game's screen.
capture | grep -q "Coins 0/5" && fail "the game's screen is still on the terminal after SIGTERM" ||
    pass "the terminal was restored"
capture >"$OUT/coins-sigterm.txt"
[ -f "$DATA/coins/alembic/coins.save" ] || fail "no save after SIGTERM"
start coins "$COINS"
wait_for "C O I N S" 5 || fail "the title did not show (continue)"
tm send-keys -t c c
wait_for "Turn 4" 5 && pass "the save continues at turn 4" || fail "continue did not reach turn 4"
tm send-keys -t c S
wait_for "exit=0" 5 || fail "S did not save and exit"
rec="$DATA/coins/alembic/coins.replay"
start coins-replay "$COINS" --replay "$rec"
tm send-keys -t c End
if wait_for "Turn 4" 5; then pass "--replay shows the recording to turn 4"; else fail "--replay"; fi
capture >"$OUT/coins-replay.txt"

# The letter a list on the pane shows before the first line holding $1 ("c) ...").
letter_of() { capture | grep -m1 -F "$1" | grep -o '[a-z]) ' | head -1 | cut -c1; }

echo "== the outside game's questions: throw with the cursor, write in the dust"
start coins-ask "$COINS" --seed 3
wait_for "Turn 0" 5 || fail "coins did not start"
for k in l l l l l l l l l l; do tm send-keys -t c "$k"; sleep 0.05; done
wait_for "Coins 1/5" 5 || fail "no coin picked up on the way east"
tm send-keys -t c t
wait_for "Throw which coin?" 3 || fail "t did not ask which coin"
tm send-keys -t c "$(letter_of ' coin - worth')"
if wait_for " coin where?" 3; then pass "t asked which coin, then where (the targeting cursor)"; else fail "no target question"; fi
tm capture-pane -p -e -t c >"$OUT/coins-throw.ansi"
tm send-keys -t c Enter
wait_for " coin lands" 3 && pass "the coin was thrown" || fail "the throw: $(capture | sed -n 1,3p)"
tm send-keys -t c E
wait_for "Write what in the dust?" 3 || fail "E did not ask"
tm send-keys -t c -l "hello"
tm send-keys -t c Enter
wait_for 'Written here: "hello"' 3 && pass "E wrote in the dust" || fail "E: $(capture | sed -n 1,3p)"
tm send-keys -t c S
wait_for "exit=0" 5 || fail "S did not save and exit"

echo "== Alchemy on the shared session: quaff, wield, throw and craft by its questions"
start alchemy "$ALCHEMY" --wizard --seed 11
wait_for "Turn 0" 8 || fail "Alchemy on the session did not start (--seed)"
tm send-keys -t c '~'
sleep 0.3
wiz() { tm send-keys -t c -l "$1"; tm send-keys -t c Enter; sleep 0.1; }
wiz identify
wiz "give potion of healing"
wiz "give short sword"
for herb in bloodwort silverleaf wolfsbane "mandrake root" feverfew "fly agaric" inkcap puffball "shrieker cap"; do
    for _ in 1 2 3; do wiz "give $herb"; done
done
wiz "summon alchemy workbench"
wiz "summon goblin"
tm send-keys -t c Escape
sleep 0.3
# ask KEY TITLE CHOICE WHAT: KEY opens a list titled TITLE; the line holding CHOICE is
# chosen by its letter, and that must take a turn.
ask() {
    local key=$1 title=$2 choice=$3 what=$4 before
    before=$(turn)
    tm send-keys -t c "$key"
    if ! wait_for "$title" 3; then fail "$what: $key did not ask \"$title\""; return 1; fi
    tm send-keys -t c "$(letter_of "$choice")"
    sleep 0.4
    if [[ "$(turn)" -gt "$before" ]]; then pass "$what through the session's list (turn $before -> $(turn))"; else fail "$what took no turn: $(capture | sed -n 1,3p)"; fi
}
ask q "Quaff which potion?" "of healing" "quaff"
ask w "Wield or wear what?" "short sword" "wield"
before=$(turn)
tm send-keys -t c t
wait_for "Throw what?" 3 || fail "t did not ask what to throw"
tm send-keys -t c "$(letter_of ") a dagger")"
wait_for "Throw the dagger where?" 3 || fail "no target question for the dagger"
for _ in 1 2 3 4 5; do tm send-keys -t c j; sleep 0.05; done
sleep 0.3
tm capture-pane -p -e -t c >"$OUT/alchemy-throw.ansi"
capture >"$OUT/alchemy-throw.txt"
tm send-keys -t c Tab
sleep 0.2
tm send-keys -t c Enter
sleep 0.4
if [[ "$(turn)" -gt "$before" ]] && capture | grep -q "You throw the dagger"; then
    pass "throw: the dagger, then the targeting cursor (path: $OUT/alchemy-throw.ansi)"
else
    fail "the throw: $(capture | sed -n 1,3p)"
fi
ask c "Craft which potion?" "[OK]" "craft"
tm send-keys -t c S
wait_for "exit=0" 5 || fail "S did not save and exit"
rec="$DATA/alchemy/alembic/alchemy.replay"
for c in Quaff Wield Throw Craft; do
    grep -q "\"$c\"" "$rec" || fail "the recording holds no $c"
done
verified=$("$SIM" --replay "$rec" --verify --partial 2>/dev/null)
if [[ "$verified" == *'"reaches":"save"'* ]]; then
    pass "the recording replays to the save's hash: $(echo "$verified" | grep -o '"final_hash":"[0-9a-f]*"')"
else
    fail "the recording does not replay to its save: $verified"
fi

echo "== the outside game in a window (alembic_pixels::run_games under Xvfb)"
if command -v Xvfb >/dev/null 2>&1 && command -v xdotool >/dev/null 2>&1 && command -v import >/dev/null 2>&1; then
    n=97
    while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
    Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp -noreset >"$OUT/xvfb.log" 2>&1 &
    xvfb=$!
    for _ in $(seq 1 50); do DISPLAY=":$n" xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
    mkdir -p "$DATA/window"
    DISPLAY=":$n" XDG_DATA_HOME="$DATA/window" "$COINS_WINDOW" --seed 3 >"$OUT/window.log" 2>&1 &
    win=$!
    wid=""
    for _ in $(seq 1 100); do
        wid=$(DISPLAY=":$n" xdotool search --name 'Alembic' 2>/dev/null | head -n1 || true)
        [ -n "$wid" ] && break
        sleep 0.1
    done
    if [ -n "$wid" ]; then
        sleep 1
        # Ten steps east pick up a coin; `t` and its metal's letter (whichever of c, s, g
        # the list has; the others do nothing) ask where, with the targeting cursor.
        for k in l l l l l l l l l l t c s g; do DISPLAY=":$n" xdotool key --window "$wid" "$k" 2>/dev/null; sleep 0.3; done
        sleep 0.5
        DISPLAY=":$n" import -window root "$OUT/coins-window.png"
        DISPLAY=":$n" xdotool key --window "$wid" Escape 2>/dev/null
        kill -TERM "$win"
        wait "$win"
        status=$?
        if [ "$status" -eq 0 ] && [ -f "$DATA/window/alembic/coins.save" ] && grep -q "saved to" "$OUT/window.log"; then
            pass "the window played the outside game, SIGTERM saved it (screenshot: $OUT/coins-window.png)"
        else
            fail "the window's SIGTERM: exit $status, $(tr '\n' ' ' <"$OUT/window.log")"
        fi
    else
        fail "no window appeared (see $OUT/window.log)"
        kill "$win" 2>/dev/null
    fi
    kill "$xvfb" 2>/dev/null
    wait "$xvfb" 2>/dev/null
else
    echo "SKIP: Xvfb, xdotool or ImageMagick missing: the window part not run (scripts/e2e-pixels.sh installs them)"
fi

if [ "$FAILS" -gt 0 ]; then
    echo "outside-tmux: $FAILS failure(s); screens in $OUT"
    exit 1
fi
echo "outside-tmux: all passed; screens in $OUT"
