#!/usr/bin/env bash
# Capture the terminal frontend in colour for the README: plays a few keys of Alchemy in
# tmux (100x30, true colour), captures the pane with its colours (`capture-pane -e`) and
# renders it cell by cell to docs/screenshot-tui.png with scripts/ansi2png.py.
# Needs tmux, python3 and Pillow (installed with pip when missing).
# Usage: scripts/capture-tui-colour.sh [OUT.png]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-$ROOT/docs/screenshot-tui.png}"
python3 -c 'import PIL' 2>/dev/null || python3 -m pip install --quiet pillow
bash "$ROOT/scripts/build.sh"
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/${ALEMBIC_PROFILE:-release}/alembic-tui"
WORK="$(mktemp -d)"
SOCK="alembic-colour-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
tm new-session -d -s c -x 100 -y 30 \
    "env TERM=xterm-256color COLORTERM=truecolor XDG_DATA_HOME=$WORK $BIN --seed 5"
for _ in $(seq 100); do
    tm capture-pane -p -t c | grep -q "Depth 1/11" && break
    sleep 0.05
done
# Explore a little: a lit room, remembered corridors, the panel and the log.
for k in o o o; do
    tm send-keys -t c "$k"
    sleep 0.4
done
sleep 0.3
tm capture-pane -e -p -t c >"$WORK/screen.ansi"
python3 "$ROOT/scripts/ansi2png.py" "$WORK/screen.ansi" "$OUT" 100 30
echo "capture-tui-colour: wrote $OUT"
