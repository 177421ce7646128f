#!/usr/bin/env bash
# End-to-end test of the native-window frontend (alembic-pixels) under Xvfb.
#
# Starts the release binary (Alchemy, the default game) with a fixed seed on a virtual
# 1280x800 screen, with saves in a throw-away XDG_DATA_HOME, finds and focuses
# its window, and checks screenshots: not blank, the hero's glyph colour present, the screen
# changes after a move, a held key repeats, a resize is survived, F11 and Alt+Enter fill the
# screen and restore the window; then measures the idle CPU,
# quits with a key and checks the exit status. Exits non-zero on any failure.
#
# Runs as root on a fresh Debian/Ubuntu machine (installs its tools with apt-get) or as a
# user with the tools already installed. Knobs (environment):
#   SEED=42                 game seed
#   GAME=alchemy            the game to run (alchemy, caves or rats)
#   HERO_RGB=255,230,120     the hero glyph's colour in the game under test (Alchemy draws the
#                           hero at full brightness in this colour, whatever the torchlight)
#   MOVE_KEY=Right          a key that moves the hero (xdotool key name)
#   QUIT_KEYS="shift+q y"     keys that end the game (xdotool key names, space-separated);
#                           the summary that follows is captured (summary.png), then q leaves
#   DISPLAY_NUM=99          X display to use (the next free one is taken if 99 is busy)
#   OUT=target/e2e-pixels   where screenshots and logs go
#   SKIP_BUILD=1            use an existing binary (BIN, default $CARGO_TARGET_DIR/$ALEMBIC_PROFILE/alembic-pixels, release when unset)
#   MAX_IDLE_CPU=2          idle CPU limit over 10 s, percent of one core
#   KEYS_TOTAL=200          keys sent in the exact-count run (a multiple of 5)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SEED=${SEED:-42}
GAME=${GAME:-alchemy}
HERO_RGB=${HERO_RGB:-255,230,120}
MOVE_KEY=${MOVE_KEY:-Right}
QUIT_KEYS=${QUIT_KEYS:-shift+q y}
OUT=${OUT:-$ROOT/target/e2e-pixels}
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/${ALEMBIC_PROFILE:-release}/alembic-pixels}
MAX_IDLE_CPU=${MAX_IDLE_CPU:-2}
KEYS_TOTAL=${KEYS_TOTAL:-200}

log() { printf 'e2e-pixels: %s\n' "$*" >&2; }
fail() {
    log "FAIL: $*"
    exit 1
}

# --- tools -------------------------------------------------------------------------------
missing=()
for tool in Xvfb xauth xdotool import convert compare; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    log "missing: ${missing[*]}; installing xvfb xauth x11-apps xdotool imagemagick"
    if [[ $(id -u) != 0 ]]; then
        echo "SKIP: e2e-pixels needs ${missing[*]} (as root: apt-get install xvfb xauth x11-apps xdotool imagemagick)"
        exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq xvfb xauth x11-apps xdotool imagemagick >/dev/null
fi
# Optional: a window manager and xprop, for the check of F11 through the window manager.
if ! { command -v openbox && command -v xprop; } >/dev/null 2>&1 && [[ $(id -u) == 0 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openbox x11-utils \
        >/dev/null 2>&1 || log "could not install openbox and x11-utils (the window-manager check is skipped)"
fi

# --- build -------------------------------------------------------------------------------
if [[ -z ${SKIP_BUILD:-} ]]; then
    log "building the binary"
    bash "$ROOT/scripts/build.sh"
fi
[[ -x $BIN ]] || fail "no binary at $BIN"

mkdir -p "$OUT"
rm -f "$OUT"/shot*.png

# A bad flag must fail without opening a window (no display needed to check that).
if DISPLAY= "$BIN" --scale 9 >"$OUT/badflag.log" 2>&1; then
    fail "--scale 9 was accepted"
fi
grep -q -- "--scale" "$OUT/badflag.log" || fail "bad-flag error does not name the flag"

# --- X server ----------------------------------------------------------------------------
XVFB_PID=
APP_PID=
cleanup() {
    [[ -n $APP_PID ]] && kill "$APP_PID" 2>/dev/null || true
    [[ -n ${WM_PID:-} ]] && kill "$WM_PID" 2>/dev/null || true
    [[ -n $XVFB_PID ]] && kill "$XVFB_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    [[ -n ${DATA:-} ]] && rm -rf "$DATA" || true
}
trap cleanup EXIT

n=${DISPLAY_NUM:-99}
while [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]]; do
    [[ -n ${DISPLAY_NUM:-} ]] && fail "display :$n is busy"
    n=$((n + 1))
    ((n < 140)) || fail "no free X display"
done
export DISPLAY=:$n
# -noreset: otherwise the server resets when its last client (a probe) leaves, and a
# client connecting during the reset fails with "XOpenDisplay failed".
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp -noreset >"$OUT/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 50); do
    xdotool getdisplaygeometry >/dev/null 2>&1 && break
    sleep 0.1
done
xdotool getdisplaygeometry >/dev/null 2>&1 || fail "Xvfb did not start (see $OUT/xvfb.log)"
log "Xvfb on $DISPLAY"

# --- helpers -----------------------------------------------------------------------------
shot() { import -window root "$OUT/$1"; }
# How many pixels of colour R,G,B the image has.
colour_count() {
    local hex
    hex=$(printf '#%02X%02X%02X' ${2//,/ })
    convert "$OUT/$1" -format %c histogram:info:- | awk -v hex="$hex" 'toupper($0) ~ hex { sub(":", "", $1); n += $1 } END { print n + 0 }'
}
distinct_colours() { identify -format %k "$OUT/$1"; }
changed_pixels() { compare -metric AE "$OUT/$1" "$OUT/$2" null: 2>&1 || true; }
alive() { kill -0 "$APP_PID" 2>/dev/null; }
# Travel and explore walk a step per tick (any key stops them): wait until two screenshots
# half a second apart are the same.
settle_window() {
    local i
    for i in $(seq 40); do
        shot settle-a.png
        sleep 0.5
        shot settle-b.png
        [[ "$(changed_pixels settle-a.png settle-b.png)" == 0 ]] && return 0
    done
    return 1
}

# Wait for the app's window: WID, or fail if the app exits or no window comes.
find_window() {
    WID=
    for _ in $(seq 100); do
        WID=$(xdotool search --name 'Alembic' 2>/dev/null | head -n1 || true)
        [[ -n $WID ]] && break
        alive || fail "the app exited early: $(cat "$OUT/app.log")"
        sleep 0.1
    done
    [[ -n $WID ]] || fail "no Alembic window appeared"
}

# --- run ---------------------------------------------------------------------------------
DATA=$(mktemp -d)
XDG_DATA_HOME=$DATA "$BIN" --game "$GAME" --seed "$SEED" >"$OUT/app.log" 2>&1 &
APP_PID=$!
find_window
log "window $WID: $(xdotool getwindowgeometry "$WID" | tr -s ' \n' ' ')"
# The title names the game and the depth; the icon is set.
for _ in $(seq 20); do
    title=$(xdotool getwindowname "$WID" 2>/dev/null || true)
    [[ $title == *depth* ]] && break
    sleep 0.1
done
if [[ $GAME == alchemy ]]; then
    [[ $title == "Alembic: Alchemy, depth 1" ]] || fail "window title is \"$title\""
fi
if command -v xprop >/dev/null; then
    xprop -id "$WID" _NET_WM_ICON | grep -q "Icon (32 x 32)" || fail "no 32x32 window icon"
fi
log "title \"$title\", icon set"
# No window manager under Xvfb: windowactivate needs one, windowfocus does not.
# xdotool (libxdo's xdo_get_focused_window) itself prints "XGetInputFocus returned the focused
# window of 1" whenever the X focus is PointerRoot, as it is on a bare Xvfb until a window is
# given the focus. That line is xdotool's, not the game's: xdotool's stderr goes to its own log,
# and the game's stderr (app.log) must stay empty, checked at the end.
exec 3>>"$OUT/xdotool.log"
xdotool() { command xdotool "$@" 2>&3; }
: >"$OUT/xdotool.log"
xdotool windowactivate --sync "$WID" >/dev/null 2>&1 || xdotool windowfocus --sync "$WID" ||
    fail "could not focus the window"
sleep 0.5

shot shot1.png
colours=$(distinct_colours shot1.png)
((colours > 8)) || fail "screenshot looks blank ($colours colours)"
hero=$(colour_count shot1.png "$HERO_RGB")
((hero > 0)) || fail "hero colour $HERO_RGB not on screen"
log "shot1: $colours colours, $hero hero-coloured pixels"

xdotool key --delay 60 "$MOVE_KEY"
sleep 0.5
shot shot2.png
diff=$(changed_pixels shot1.png shot2.png)
((diff > 0)) || fail "the screen did not change after $MOVE_KEY"
hero=$(colour_count shot2.png "$HERO_RGB")
((hero > 0)) || fail "hero colour gone after the move"
log "shot2: $diff pixels changed after $MOVE_KEY, $hero hero-coloured pixels"

# Holding a key repeats it (the frontend's own repeat timer).
xdotool keydown Down
sleep 0.8
xdotool keyup Down
sleep 0.3
shot shot3.png
diff=$(changed_pixels shot2.png shot3.png)
((diff > 0)) || fail "holding Down changed nothing"
log "shot3: $diff pixels changed after holding Down"

# The grid follows the window size.
xdotool windowsize "$WID" 960 600
sleep 0.7
alive || fail "the app died on resize: $(cat "$OUT/app.log")"
shot shot4.png
hero=$(colour_count shot4.png "$HERO_RGB")
((hero > 0)) || fail "hero colour gone after the resize"
log "shot4: resized to 960x600, $hero hero-coloured pixels"

# F11 and Alt+Enter fill the screen and give the window back. There is no window manager
# under Xvfb, so the window resizes itself to the screen (with one, it asks for EWMH
# fullscreen). A screenshot shows the refitted grid with the hero on it.
geometry() { xdotool getwindowgeometry "$WID" | awk '/Position/ { p = $2 } /Geometry/ { g = $2 } END { print p, g }'; }
wait_geometry() {
    local i
    for i in $(seq 30); do
        [[ "$(geometry)" == "$1" ]] && return 0
        sleep 0.1
    done
    return 1
}
xdotool windowmove "$WID" 100 50
wait_geometry "100,50 960x600" || fail "could not place the window: $(geometry)"
for toggle in F11 alt+Return; do
    xdotool key "$toggle"
    wait_geometry "0,0 1280x800" || fail "$toggle did not fill the screen: $(geometry)"
    sleep 0.4
    shot "full-$toggle.png"
    hero=$(colour_count "full-$toggle.png" "$HERO_RGB")
    ((hero > 0)) || fail "hero colour gone in fullscreen"
    xdotool key "$toggle"
    wait_geometry "100,50 960x600" || fail "$toggle did not give the window back: $(geometry)"
done
alive || fail "the app died toggling fullscreen: $(cat "$OUT/app.log")"
log "F11 and Alt+Enter: 960x600 at 100,50 -> 1280x800 at 0,0 -> back (screenshot full-F11.png)"

# Idle cost: CPU time over 10 s while nobody types, from 2 s after the last input (the
# window pumps events at 60 Hz for 2 s after any input, then at 20 Hz).
sleep 2
ticks() { awk '{ print $14 + $15 }' "/proc/$APP_PID/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks)
sleep 10
t1=$(ticks)
idle=$(awk -v d=$((t1 - t0)) -v hz="$hz" 'BEGIN { printf "%.2f", 100 * d / hz / 10 }')
log "idle CPU: $idle % of one core"
awk -v c="$idle" -v m="$MAX_IDLE_CPU" 'BEGIN { exit !(c < m) }' || fail "idle CPU $idle % >= $MAX_IDLE_CPU %"

# Quit with keys: the game ends on its summary (captured, and checked to differ from the
# game's last frame), then q leaves; expect a clean exit.
shot before-quit.png
for k in $QUIT_KEYS; do
    xdotool key "$k"
    sleep 0.2
done
sleep 0.5
alive || fail "the app left without showing the summary"
shot summary.png
if [[ $(compare -metric AE "$OUT/before-quit.png" "$OUT/summary.png" null: 2>&1 | cut -d' ' -f1) == 0 ]]; then
    fail "nothing changed on screen after $QUIT_KEYS (no summary)"
else
    log "the summary after $QUIT_KEYS: $OUT/summary.png"
fi
xdotool key q
for _ in $(seq 50); do
    alive || break
    sleep 0.1
done
alive && fail "the app did not quit on: $QUIT_KEYS"
status=0
wait "$APP_PID" || status=$?
APP_PID=
((status == 0)) || fail "the app exited with status $status: $(cat "$OUT/app.log")"
# Normal play prints nothing but the session's farewell on leaving (where the quit game's
# recording and morgue file went): the game's stdout and stderr both went to app.log.
if grep -v "^alembic-pixels: Your save file has been deleted: in a roguelike, the end is the end\." "$OUT/app.log" | grep -q .; then
    fail "the app printed more than its farewell in normal play: $(head -c 400 "$OUT/app.log")"
fi
focus_lines=$(grep -c XGetInputFocus "$OUT/xdotool.log" || true)
log "xdotool's own XGetInputFocus warnings (not the game's): $focus_lines"

# --- the mouse: hover looks, a quick tap travels ---------------------------------------------
# The hero's glyph is the only thing drawn in HERO_RGB: its bounding box is the hero's cell.
hero_box() {
    convert "$OUT/$1" -fill black +opaque "rgb($HERO_RGB)" -format %@ info:
}
# Centre of a WxH+X+Y box.
box_centre() {
    local b=$1 w h x y
    w=${b%%x*}
    b=${b#*x}
    h=${b%%+*}
    b=${b#*+}
    x=${b%%+*}
    y=${b#*+}
    echo "$((x + w / 2)) $((y + h / 2))"
}
start_app() {
    DATA=$(mktemp -d)
    XDG_DATA_HOME=$DATA "$BIN" --game "$GAME" --seed "$SEED" "$@" >"$OUT/app.log" 2>&1 &
    APP_PID=$!
    find_window
    xdotool windowfocus --sync "$WID" || fail "could not focus the window"
    sleep 0.5
}
save_and_quit() {
    xdotool key S
    sleep 0.5
    xdotool key Return
    for _ in $(seq 50); do
        alive || break
        sleep 0.1
    done
    alive && fail "the app did not quit on S"
    wait "$APP_PID" || fail "the app failed on S: $(cat "$OUT/app.log")"
    APP_PID=
}
saved_turn() {
    # Version 3 saves keep the turn in the state's "rest"; older ones in the state itself.
    python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["state"]; print(s.get("rest", s)["turn"])' \
        "$DATA/alembic/alchemy.save"
}

if [[ $GAME == alchemy ]]; then
    rm -rf "$DATA"
    start_app
    # The window opens at 1280x800 with the whole level in 14x14 map cells (CELL_W, CELL_H
    # to override).
    cw=${CELL_W:-14}
    ch=${CELL_H:-14}
    shot mouse0.png
    box=$(hero_box mouse0.png)
    read -r hx hy < <(box_centre "$box")
    log "hero at pixel $hx,$hy ($box)"
    # The whole level is on screen: the hero's glyph fits a 14-pixel row (in cells sized
    # for 80x24 it was 20 pixels tall, and the level was cut at the edges).
    bh=${box#*x}
    bh=${bh%%+*}
    ((bh <= ch)) || fail "the hero is $bh px tall: not the whole level's $ch-pixel rows"
    # Hover over the hero: the look text and highlight appear.
    xdotool mousemove "$hx" "$hy"
    sleep 0.4
    shot mouse1.png
    diff=$(changed_pixels mouse0.png mouse1.png)
    ((diff > 0)) || fail "hovering over the hero changed nothing"
    log "hover: $diff pixels changed"
    # Click cells at least 3 steps away until one is a known floor the hero travels to.
    # Travel shows on the map (the hero and its light move): compare the map area (below the
    # messages, left of the side panel, above the hover line) before and after.
    map_crop() { convert "$OUT/$1" -crop 900x640+0+70 +repage "$OUT/crop-$1"; }
    xdotool mousemove 2 2
    sleep 0.3
    shot before.png
    map_crop before.png
    travelled=
    for d in "4 0" "-4 0" "0 3" "0 -3" "3 3" "-3 3" "3 -3" "-3 -3" "5 1" "-5 1" "2 4" "-2 4"; do
        read -r dx dy <<<"$d"
        tx=$((hx + dx * cw))
        ty=$((hy + dy * ch))
        xdotool mousemove "$tx" "$ty"
        sleep 0.15
        # A tap: press and release at once, far shorter than a pump of the event loop
        # (minifb alone lost clicks under about 20 ms; XInput 2 raw events catch them).
        xdotool click 1
        settle_window
        # Move the pointer away so the hover highlight is not counted.
        xdotool mousemove 2 2
        sleep 0.3
        shot after.png
        map_crop after.png
        moved=$(changed_pixels crop-before.png crop-after.png)
        if ((moved > 2000)); then
            travelled="$dx,$dy"
            break
        fi
    done
    [[ -n $travelled ]] || fail "no click made the hero travel"
    log "a click $travelled cells from the hero changed the map ($moved pixels changed)"
    # Auto-explore in the window: o walks on until something new; with a monster in view it
    # will not, and Tab (auto-fight) deals with the monster first.
    shot before-explore.png
    for _ in 1 2 3; do
        xdotool key o
        settle_window
        for _ in $(seq 12); do
            xdotool key Tab
            sleep 0.05
        done
    done
    shot explore.png
    moved=$(changed_pixels before-explore.png explore.png)
    ((moved > 2000)) || fail "o did not explore ($moved pixels changed)"
    # Look: x, then Tab to the nearest thing in view; the description box opens over the map.
    xdotool key x
    sleep 0.3
    xdotool key Tab
    sleep 0.4
    shot look.png
    moved=$(changed_pixels explore.png look.png)
    ((moved > 2000)) || fail "x and Tab showed no look box ($moved pixels changed)"
    xdotool key Escape
    sleep 0.3
    # Run: Shift+h walks west until something interesting (or refuses with a monster in view).
    shot before-run.png
    xdotool key shift+h
    settle_window
    shot run.png
    log "look and run: screenshots look.png and run.png ($(changed_pixels before-run.png run.png) pixels changed by the run)"
    save_and_quit
    turn=$(saved_turn)
    ((turn >= 10)) || fail "a click, three rounds of o and Tab, and a run took $turn turns, expected at least 10"
    log "travel, explore and fight: turn $turn after the click and three rounds of o and Tab (screenshot explore.png)"

    # --- exactly KEYS_TOTAL keys, exactly KEYS_TOTAL commands ------------------------------
    # Every key waits one turn: '.' tapped quickly (two fifths), '.' held 0.25 s, '5' held
    # briefly, and the keypad's 5 (a non-text key) held 0.25 s. Held keys go down and up as
    # separate events with the game pumping in between; a hold shorter than the window's
    # repeat delay (500 ms) is one press. The save then holds turn KEYS_TOTAL: no key
    # doubled, none lost.
    rm -rf "$DATA"
    start_app
    fifth=$((KEYS_TOTAL / 5))
    for _ in $(seq $((fifth * 2))); do
        xdotool key --delay 12 period
    done
    for _ in $(seq "$fifth"); do
        xdotool keydown period
        sleep 0.25
        xdotool keyup period
    done
    for _ in $(seq "$fifth"); do
        xdotool keydown 5
        sleep 0.08
        xdotool keyup 5
    done
    for _ in $(seq "$fifth"); do
        xdotool keydown KP_5
        sleep 0.25
        xdotool keyup KP_5
    done
    sleep 0.5
    save_and_quit
    turn=$(saved_turn)
    ((turn == KEYS_TOTAL)) || fail "sent $KEYS_TOTAL keys, the game applied $turn commands"
    log "keys: $KEYS_TOTAL sent, $turn commands applied"

    # --- the recording of that game plays back in the window ------------------------------
    # The window title follows the replay's turn; End, Left and Right move it.
    REC="$OUT/keys.replay"
    cp "$DATA/alembic/alchemy.replay" "$REC" || fail "no recording beside the save"
    rm -rf "$DATA"
    DATA=$(mktemp -d)
    XDG_DATA_HOME=$DATA "$BIN" --replay "$REC" >"$OUT/app.log" 2>&1 &
    APP_PID=$!
    title_has() {
        local i
        for i in $(seq 50); do
            [[ "$(xdotool getwindowname "$WID" 2>/dev/null)" == *"$1"* ]] && return 0
            sleep 0.1
        done
        return 1
    }
    find_window
    xdotool windowfocus --sync "$WID" || fail "could not focus the replay window"
    title_has "replay, depth 1, turn 0" || fail "the replay did not open at turn 0: $(xdotool getwindowname "$WID")"
    xdotool key End
    title_has "turn $KEYS_TOTAL" || fail "End did not reach turn $KEYS_TOTAL: $(xdotool getwindowname "$WID")"
    xdotool key Left Left
    title_has "turn $((KEYS_TOTAL - 2))" || fail "Left Left did not step back two turns"
    xdotool key Right
    title_has "turn $((KEYS_TOTAL - 1))" || fail "Right did not step forward"
    sleep 0.3
    shot replay.png
    log "replay: opened at turn 0, End to $KEYS_TOTAL, back to $((KEYS_TOTAL - 2)), on to $((KEYS_TOTAL - 1)) (screenshot replay.png)"
    xdotool key q
    sleep 0.3
    xdotool key q
    for _ in $(seq 50); do
        alive || break
        sleep 0.1
    done
    alive && fail "q q did not leave the replay and the title"
    wait "$APP_PID" || fail "the replay exited with an error: $(cat "$OUT/app.log")"
    APP_PID=
    rm -rf "$DATA"
    DATA=

    # A text key held 1.5 s repeats on the window's timer (one, then after 500 ms 25 a
    # second: about 26 waits), and does not burst.
    start_app
    xdotool keydown period
    sleep 1.5
    xdotool keyup period
    sleep 0.5
    save_and_quit
    held=$(saved_turn)
    ((held >= 10 && held <= 40)) || fail "holding . for 1.5 s applied $held commands, expected 10-40"
    log "holding . for 1.5 s: $held commands"
    rm -rf "$DATA"
    DATA=

    # With a window manager (openbox, when installed) F11 asks it for EWMH fullscreen.
    if command -v openbox >/dev/null && command -v xprop >/dev/null; then
        openbox >"$OUT/openbox.log" 2>&1 &
        WM_PID=$!
        sleep 1
        start_app
        xdotool windowsize "$WID" 900 600
        sleep 0.5
        xdotool windowactivate --sync "$WID" >/dev/null 2>&1 || true
        xdotool key F11
        for _ in $(seq 30); do
            xprop -id "$WID" _NET_WM_STATE | grep -q _NET_WM_STATE_FULLSCREEN && break
            sleep 0.1
        done
        xprop -id "$WID" _NET_WM_STATE | grep -q _NET_WM_STATE_FULLSCREEN ||
            fail "F11 under openbox did not make the window fullscreen"
        wait_geometry "0,0 1280x800" || fail "fullscreen under openbox is $(geometry)"
        xdotool key F11
        for _ in $(seq 30); do
            xprop -id "$WID" _NET_WM_STATE | grep -q _NET_WM_STATE_FULLSCREEN || break
            sleep 0.1
        done
        xprop -id "$WID" _NET_WM_STATE | grep -q _NET_WM_STATE_FULLSCREEN &&
            fail "the second F11 under openbox did not leave fullscreen"
        [[ "$(geometry)" == *" 900x600" ]] || fail "leaving fullscreen gave $(geometry), not 900x600"
        save_and_quit
        rm -rf "$DATA"
        DATA=
        kill "$WM_PID" 2>/dev/null || true
        wait "$WM_PID" 2>/dev/null || true
        WM_PID=
        log "F11 under openbox: EWMH fullscreen at 1280x800 and back to 900x600"
    else
        log "openbox or xprop missing: the window-manager fullscreen path is not checked"
    fi
fi

log "PASS (screenshots in $OUT)"
