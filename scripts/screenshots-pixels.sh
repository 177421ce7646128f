#!/usr/bin/env bash
# Screenshots of the native window (alembic-pixels) under Xvfb: at 1280x720, 1280x800 and
# 1920x1080, in letters and in tiles, on the play screen, the inventory and the help screen.
# The window is sized to the whole virtual screen, as a maximised window would be.
#
#   scripts/screenshots-pixels.sh            # all 18 into target/screens/
#   SIZES=1280x800 scripts/screenshots-pixels.sh
#   EXPLORE=1 scripts/screenshots-pixels.sh  # explore the level first (see below)
#   DOCS=1 scripts/screenshots-pixels.sh     # also copy the play screens into docs/ (small)
#
# With EXPLORE=1 (the default when DOCS=1), the hero explores before the screenshots: `o`,
# or `Tab` when `o` cannot go on (a monster in view), each press waited out (the window's
# side panel shows the turn; a press is over when the panel has stood still for a second),
# until neither moves the turn: the whole level explored, as a player pressing `o` would
# find it. The count of presses goes to the log and to OUT/explore-SIZE-MODE.txt.
#
# Needs Xvfb, xdotool and ImageMagick (apt-get install xvfb xdotool imagemagick) and a
# release build (scripts/build.sh). Exits non-zero on any failure.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/${ALEMBIC_PROFILE:-release}/alembic-pixels}
OUT=${OUT:-$ROOT/target/screens}
SEED=${SEED:-5}
SIZES=${SIZES:-1280x720 1280x800 1920x1080}
EXPLORE=${EXPLORE:-${DOCS:-}}
# At most this many presses of o and Tab when exploring.
MAX_PRESSES=${MAX_PRESSES:-150}
# Moves made before the screenshots, so some of the level is explored, and the seconds
# waited after them (longer when they start an auto-explore).
WALK=${WALK:-l l l j j j j j j l l l l}

log() { printf 'screenshots: %s\n' "$*" >&2; }
fail() {
    log "FAIL: $*"
    exit 1
}
[[ -x $BIN ]] || fail "no binary at $BIN (scripts/build.sh)"
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

# A fingerprint of the side panel: the right quarter of the screen. With the whole level on
# screen the three message rows are text no wider than 95 narrow cells, well left of the
# panel, so this part changes when the turn moves (the panel's "Turn N") and not when only
# a message is said.
panel() {
    local w=${size%x*} h=${size#*x}
    import -window root -crop "$((w / 4))x$h+$((w - w / 4))+0" png:- 2>/dev/null | md5sum
}

# Wait until the panel has stood still for a second (an explore or a fight walks a step
# per tick; any key would stop it). Gives up after 60 s.
settle_turn() {
    local last now still=0 i
    last=$(panel)
    for i in $(seq 300); do
        sleep 0.2
        now=$(panel)
        if [[ $now == "$last" ]]; then
            still=$((still + 1))
            ((still >= 5)) && return 0
        else
            still=0
            last=$now
        fi
    done
    return 1
}

# Press o (explore), or Tab (fight) when o did not move the turn, until neither does.
# Prints the presses.
explore_level() {
    local presses=0 before after k moved
    settle_turn || true
    while ((presses < MAX_PRESSES)); do
        moved=
        for k in o Tab; do
            before=$(panel)
            key "$k"
            presses=$((presses + 1))
            settle_turn || true
            after=$(panel)
            if [[ $after != "$before" ]]; then
                moved=1
                break
            fi
        done
        if [[ -z $moved ]]; then
            # The last round moved nothing: its two presses were not needed.
            presses=$((presses - 2))
            break
        fi
    done
    echo "$presses"
}

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
        if [[ -n $EXPLORE ]]; then
            presses=$(explore_level)
            echo "seed $SEED, $size $mode: explored in $presses presses of o and Tab" |
                tee "$OUT/explore-$size-$mode.txt" >&2
        else
            # shellcheck disable=SC2086
            key $WALK
            sleep "${SETTLE:-0.4}"
        fi
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
    # The play screens, as 128-colour palette PNGs without dithering (about 60 KB each).
    for size in $SIZES; do
        for mode in letters tiles; do
            convert "$OUT/play-$size-$mode.png" -dither None -colors 128 \
                "PNG8:$ROOT/docs/screenshot-pixels-$size-$mode.png"
        done
    done
    log "copied the play screens into docs/ ($(du -ch "$ROOT"/docs/screenshot-pixels-*x*-*.png | tail -n1 | cut -f1))"
fi
log "done: $OUT"
