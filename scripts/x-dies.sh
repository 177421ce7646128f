#!/usr/bin/env bash
# The window's X connection dies (the X server is killed, as an X server restart or a dropped
# `ssh -X` would): alembic-pixels plays under Xvfb, the X server is killed with SIGKILL, and
# the game must be saved at that moment. Xlib ends the process from its I/O error handler;
# alembic-pixels installs its own (frontend-pixels/src/xlost.rs), which writes the save of
# the game as it stands, says "X connection lost; game saved to PATH" and exits 3.
#
# Both games are played so, Alchemy then the Caves, each under its own Xvfb. Checked
# without the journal: the save file itself, read as JSON, stands at the turn the
# recording's last command reached (the recording verified with alembic-sim), where before
# the kill it stood at the game's start (no autosave in 16 commands). Then, continued in the
# terminal frontend, the game shows that turn, and the recording verifies.
#
# Usage: scripts/x-dies.sh   (exit 0 = pass or skipped; about 20 s once built)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
for tool in Xvfb xdotool tmux; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP ($tool missing): the X connection dies"; exit 0; }
done
bash "$ROOT/scripts/build.sh"
PIX="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-pixels"
TUI="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"
SIM="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim"
WORK="$(mktemp -d)"
SOCK="alembic-xdies-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
xpid=""
cleanup() {
    [ -n "$xpid" ] && kill -9 "$xpid" 2>/dev/null || true
    tm kill-server >/dev/null 2>&1 || true
    # The terminal game saves as its pane closes: let it finish before the files go.
    sleep 0.5
    rm -rf "$WORK"
}
trap cleanup EXIT
# The save's turn, read from the file itself (the state's own turn field).
save_turn() {
    python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))["state"]
print(v.get("rest", v).get("turn"))' "$1" 2>/dev/null || echo "unreadable"
}

# One game ($1: alchemy or caves) in alembic-pixels under its own Xvfb, the X server killed.
x_dies() {
GAME="$1"
tm kill-server >/dev/null 2>&1 || true
n=97
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
export DISPLAY=":$n"
# -noreset: otherwise the server resets when its last client (the probe below) leaves, and
# alembic-pixels, connecting during that reset, fails with "XOpenDisplay failed".
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp -noreset >"$WORK/xvfb.log" 2>&1 &
xpid=$!
for ((i = 0; i < 300; i++)); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
xdotool getdisplaygeometry >/dev/null 2>&1 || { echo "FAIL: Xvfb did not start on $DISPLAY"; cat "$WORK/xvfb.log"; exit 1; }
export XDG_DATA_HOME="$WORK/data-$GAME"
SAVE="$XDG_DATA_HOME/alembic/$GAME.save"
REC="$XDG_DATA_HOME/alembic/$GAME.replay"
"$PIX" --game "$GAME" --seed 31 >"$WORK/out" 2>"$WORK/err" &
ppid=$!
wid=""
for ((i = 0; i < 100; i++)); do
    wid=$(xdotool search --name 'Alembic' 2>/dev/null | head -n1 || true)
    [ -n "$wid" ] && break
    sleep 0.1
done
[ -n "$wid" ] || { echo "FAIL: no window"; cat "$WORK/err"; exit 1; }
xdotool windowfocus --sync "$wid" 2>/dev/null || true
sleep 0.5
if [ "$GAME" = caves ]; then
    # The Caves open on their title screen: a key begins the game (saved at once).
    xdotool key --window "$wid" Return 2>/dev/null || true
    sleep 0.3
fi
for k in Right Right Down Down Left Up Right period Right Down Left Left Up period Right Down; do
    xdotool key --window "$wid" "$k" 2>/dev/null || true
    sleep 0.05
done
sleep 0.5
before=$(save_turn "$SAVE")
lines_before=$(wc -l <"$REC")
kill -9 "$xpid"
wait "$xpid" 2>/dev/null || true
xpid=""
# A killed X server leaves its lock and socket behind: ours, so they go.
rm -f "/tmp/.X$n-lock" "/tmp/.X11-unix/X$n"
code=""
for ((i = 0; i < 100; i++)); do
    if ! kill -0 "$ppid" 2>/dev/null; then
        wait "$ppid" && code=0 || code=$?
        break
    fi
    sleep 0.1
done
[ -n "$code" ] || { kill -9 "$ppid"; echo "FAIL: alembic-pixels did not end after its X server died"; exit 1; }
echo "alembic-pixels ended with exit $code when its X server was killed; stderr: $(tr '\n' ' ' <"$WORK/err")"
end=$("$SIM" --replay "$REC" --verify --partial 2>/dev/null) || { echo "FAIL: the recording does not verify"; exit 1; }
turn=$(grep -o '"turns": *[0-9]*' <<<"$end" | grep -o '[0-9]*$')
after=$(save_turn "$SAVE")
if [ "$code" -eq 3 ] && grep -q "X connection lost; game saved to $SAVE" "$WORK/err" \
    && [ "$after" = "$turn" ] && [ "$before" != "$after" ] && [ "$turn" -gt 0 ]; then
    echo "ok:   $GAME: the X server killed: exit $code, the save file stands at turn $after (it stood at turn $before), the recording's last command's turn"
else
    echo "FAIL: exit $code; save at turn '$after' (before the kill '$before'); the recording's last command reached turn '$turn'; stderr: $(cat "$WORK/err")"
    exit 1
fi
tm new-session -d -s x -x 100 -y 30 "$TUI --game $GAME --load $SAVE 2>$WORK/tui-err; sleep 30"
shown=""
if [ "$GAME" = caves ]; then
    for ((i = 0; i < 100; i++)); do
        tm capture-pane -p -t x 2>/dev/null | grep -q "Continue the saved game" && break
        sleep 0.05
    done
    tm send-keys -t x Enter
fi
for ((i = 0; i < 200; i++)); do
    if tm capture-pane -p -t x | grep -q "Welcome back."; then
        shown=$(tm capture-pane -p -t x | grep -o 'Turn [0-9]*' | head -1 | grep -o '[0-9]*')
        break
    fi
    sleep 0.05
done
if [ -f "$SAVE" ] && [ -n "$shown" ] && [ "$shown" = "$turn" ]; then
    echo "ok:   $GAME: continued in the terminal at turn $shown, the recording's last command (turn $turn; $lines_before recording lines before the kill)"
else
    echo "FAIL: continued at turn '$shown'; recording ends at turn '$turn'; $(cat "$WORK/tui-err")"
    exit 1
fi
}

for g in alchemy caves; do
    x_dies "$g"
done
