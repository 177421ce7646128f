#!/usr/bin/env bash
# Screenshots of the native window (alembic-pixels) under Xvfb: at 1280x800, 1920x1080 and
# 800x600, in letters and in tiles, on the play screen, the inventory and the help screen.
# The window is sized to the whole virtual screen, as a maximised window would be.
#
#   scripts/screenshots-pixels.sh            # all 18 into target/screens/
#   SIZES=1280x800 scripts/screenshots-pixels.sh
#   DOCS=1 scripts/screenshots-pixels.sh     # also copy the 1280x800 play pair into docs/
#
# Needs Xvfb, xdotool and ImageMagick (apt-get install xvfb xdotool imagemagick) and a
# release build (cargo build --release -p alembic-rl-pixels). Exits non-zero on any failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/release/alembic-pixels}
OUT=${OUT:-$ROOT/target/screens}
SEED=${SEED:-5}
SIZES=${SIZES:-1280x800 1920x1080 800x600}
# Moves made before the screenshots, so some of the level is explored, and the seconds
# waited after them (longer when they start an auto-explore).
WALK=${WALK:-l l l j j j j j j l l l l}

log() { printf 'screenshots: %s\n' "$*" >&2; }
fail() {
    log "FAIL: $*"
    exit 1
}
[[ -x $BIN ]] || fail "no binary at $BIN (cargo build --release -p alembic-rl-pixels)"
for tool in Xvfb xdotool import; do
    command -v "$tool" >/dev/null || fail "missing $tool"
done
mkdir -p "$OUT"

XVFB_PID=
APP_PID=
DATA=
cleanup() {
    [[ -n $APP_PID ]] && kill "$APP_PID" 2>/dev/null || true
    [[ -n $XVFB_PID ]] && kill "$XVFB_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    [[ -n $DATA ]] && rm -rf "$DATA" || true
}
trap cleanup EXIT

key() { xdotool key --delay 30 "$@" 2>/dev/null; }

for size in $SIZES; do
    for mode in letters tiles; do
        n=150
        while [[ -e /tmp/.X$n-lock ]]; do n=$((n + 1)); done
        export DISPLAY=:$n
        Xvfb "$DISPLAY" -screen 0 "${size}x24" -nolisten tcp -noreset >/dev/null 2>&1 &
        XVFB_PID=$!
        for _ in $(seq 50); do
            xdotool getdisplaygeometry >/dev/null 2>&1 && break
            sleep 0.1
        done
        DATA=$(mktemp -d)
        flags=(--seed "$SEED")
        [[ $mode == tiles ]] && flags+=(--tiles)
        XDG_DATA_HOME=$DATA "$BIN" "${flags[@]}" >"$OUT/app-$size-$mode.log" 2>&1 &
        APP_PID=$!
        WID=
        for _ in $(seq 100); do
            WID=$(xdotool search --name Alembic 2>/dev/null | head -n1 || true)
            [[ -n $WID ]] && break
            sleep 0.1
        done
        [[ -n $WID ]] || fail "no window at $size"
        xdotool windowfocus --sync "$WID" 2>/dev/null || true
        # Fill the screen, as a maximised window would.
        xdotool windowmove "$WID" 0 0 windowsize "$WID" "${size%x*}" "${size#*x}" 2>/dev/null
        # Park the pointer off the map so no hover text shows.
        xdotool mousemove "$((${size%x*} - 2))" "$((${size#*x} - 2))" 2>/dev/null
        sleep 0.6
        # shellcheck disable=SC2086
        key $WALK
        sleep "${SETTLE:-0.4}"
        import -window root "$OUT/play-$size-$mode.png"
        key i
        sleep 0.4
        import -window root "$OUT/inventory-$size-$mode.png"
        key Escape question
        sleep 0.4
        import -window root "$OUT/help-$size-$mode.png"
        key Escape
        kill "$APP_PID" 2>/dev/null || true
        wait "$APP_PID" 2>/dev/null || true
        APP_PID=
        kill "$XVFB_PID" 2>/dev/null || true
        wait "$XVFB_PID" 2>/dev/null || true
        XVFB_PID=
        rm -rf "$DATA"
        DATA=
        log "$size $mode: play, inventory, help"
    done
done
if [[ -n ${DOCS:-} ]]; then
    cp "$OUT/play-1280x800-letters.png" "$ROOT/docs/screenshot-pixels.png"
    cp "$OUT/play-1280x800-tiles.png" "$ROOT/docs/screenshot-pixels-tiles.png"
    log "copied the 1280x800 pair into docs/"
fi
log "done: $OUT"
