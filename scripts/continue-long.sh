#!/usr/bin/env bash
# A continue after crashes far past the save: record a 100,000-turn Alchemy game headless
# (alembic-sim, seed 6, random policy: 102,950 commands), put it beside a save of the same
# game at turn 0 (as a build that never refreshed its save after a crash could leave it),
# then continue it twice in tmux under /usr/bin/time -v, killing the game (kill -9) as soon
# as its first screen shows each time. Reports the seconds to the first screen and the peak
# memory of each continue: the first brings the 102,950 moves back; the second shows whether
# the first saved them (this build does: the second has nothing to replay).
#
# Usage: scripts/continue-long.sh [BIN_DIR]   (not run by scripts/test.sh: about 30 s;
#        BIN_DIR defaults to this checkout's release binaries, built first)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
command -v tmux >/dev/null && [ -x /usr/bin/time ] || { echo "SKIP (tmux or /usr/bin/time missing)"; exit 0; }
if [ -n "${1:-}" ]; then
    T=$1
else
    bash "$ROOT/scripts/build.sh"
    T="$TARGET/${ALEMBIC_PROFILE:-release}"
fi
SIM="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim"
[ -x "$SIM" ] || SIM="$T/alembic-sim"
WORK="$(mktemp -d)"
SOCK="alembic-contlong-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
export XDG_DATA_HOME="$WORK/data"
tm new-session -d -s keep -x 160 -y 45 "sleep 600"
# The save at turn 0: a new game is saved as it starts; then it is killed.
tm new-window -d -n s "$T/alembic-tui --game alchemy --seed 6"
until tm capture-pane -p -t keep:s 2>/dev/null | grep -q "Turn 0"; do sleep 0.1; done
pkill -KILL -f "^$T/alembic-tui --game alchemy --seed 6" || true
while pgrep -f "^$T/alembic-tui --game alchemy --seed 6" >/dev/null; do sleep 0.1; done
"$SIM" --game alchemy --seed 6 --turns 100000 --policy random --record "$XDG_DATA_HOME/alembic/alchemy.replay" >/dev/null
cmds=$(grep -c '"cmd"' "$XDG_DATA_HOME/alembic/alchemy.replay")
echo "recording: $cmds commands after the save at turn 0"
SAVE="$XDG_DATA_HOME/alembic/alchemy.save"
for k in 1 2; do
    t0=$(date +%s.%N)
    tm new-window -d -n "w$k" "/usr/bin/time -v $T/alembic-tui --game alchemy --load $SAVE 2>$WORK/time-$k.txt"
    until tm capture-pane -p -t "keep:w$k" 2>/dev/null | grep -q "Turn 100000"; do sleep 0.05; done
    t1=$(date +%s.%N)
    pkill -KILL -f "^$T/alembic-tui --game alchemy --load $SAVE" || true
    until grep -q "Maximum resident" "$WORK/time-$k.txt" 2>/dev/null; do sleep 0.1; done
    rss=$(grep "Maximum resident" "$WORK/time-$k.txt" | grep -o '[0-9]*$')
    printf 'continue %d: %.2f s to the first screen, peak memory %d MiB\n' "$k" "$(echo "$t1 - $t0" | bc)" "$((rss / 1024))"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
