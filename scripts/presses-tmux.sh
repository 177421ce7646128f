#!/usr/bin/env bash
# How many key presses a player needs to go down, counted in tmux on the real terminal
# binary (issue 54): a player who reads only the screen and uses the keys a player would —
# `o` to explore, `Tab` when a monster is in the way, `Z` to rest when below half health,
# `>` once the level is explored (it travels to the stairs and takes them), Enter at a
# --More--. It fails when the game does not reach the depth within the presses allowed,
# and when a monster that cannot reach the hero freezes play: "Not with … in view." followed
# by Tab's "You see no way to …".
#
#   scripts/presses-tmux.sh alchemy 5 3 400     # Alchemy, seed 5, to depth 3, ≤ 400 presses
#   scripts/presses-tmux.sh caves 5 3 450       # the Caves, seed 5, to level 3
#
# Prints one line: game, seed, depth reached, presses, and what the presses were. Exit 0 =
# reached within the limit with no freeze. Needs tmux and scripts/build.sh's binaries.
set -uo pipefail
GAME=${1:?game}
SEED=${2:?seed}
WANT=${3:?depth}
MAX=${4:-400}
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); presses-tmux not run."
    exit 0
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/presses-tmux}"
mkdir -p "$OUT"
if [ -z "${SKIP_BUILD:-}" ]; then
    bash "$ROOT/scripts/build.sh" >/dev/null || exit 1
fi
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"
SOCK="alembic-presses-$$"
# shellcheck source=scripts/lib/tmux.sh
. "$ROOT/scripts/lib/tmux.sh"
tm new-session -d -s c -x 130 -y 45 "XDG_DATA_HOME='$DATA' $BIN --game $GAME --seed $SEED; echo exit=\$?; sleep 60"

# The screen once it has stopped changing (a journey runs on ticks), at most ~60 s.
settled() {
    local a b i
    a=$(capture)
    for ((i = 0; i < 600; i++)); do
        sleep 0.1
        b=$(capture)
        [[ $a == "$b" ]] && { printf '%s' "$b"; return; }
        a=$b
    done
    printf '%s' "$b"
}
# The depth the side panel shows ("Depth 2/11" in Alchemy, "Level 2" in the Caves).
depth_of() { grep -o 'Depth [0-9]*\|Level [0-9]*' <<<"$1" | head -1 | awk '{print $2}'; }
# The message lines: the top of the screen, left of the panel.
messages() { head -3 <<<"$1" | cut -c1-95; }
# Games without auto-fight (the Caves): the step (a vi key) from the hero (@) towards the
# nearest monster (a letter) on the map, as a player fights by walking into it.
toward_monster() {
    local n
    n=$(wc -l <<<"$1")
    # The map: below the message lines, above the status bar.
    awk -v last=$((n - 2)) -v near="${2:-99}" '
        NR > 3 && NR < last { rows[NR] = $0; if (!hy && index($0, "@")) { hy = NR; hx = index($0, "@") } }
        END {
            if (!hy) { print ""; exit }
            best = 1e9
            for (y in rows) { line = rows[y]
                for (x = 1; x <= length(line); x++) { c = substr(line, x, 1)
                    if (c ~ /[A-Za-z]/ && c != "@") {
                        # Letters inside words (the bottom bar, messages) are not monsters.
                        prev = substr(line, x - 1, 1); next_ = substr(line, x + 1, 1)
                        if (prev ~ /[A-Za-z]/ || next_ ~ /[A-Za-z]/) continue
                        dx = x - hx; dy = y - hy
                        d = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy)
                        if (d > 0 && d < best) { best = d; bx = dx; by = dy } } } }
            if (best == 1e9 || best > near) { print ""; exit }
            sx = (bx > 0) - (bx < 0); sy = (by > 0) - (by < 0)
            k["-1,-1"] = "y"; k["0,-1"] = "k"; k["1,-1"] = "u"; k["-1,0"] = "h"
            k["1,0"] = "l"; k["-1,1"] = "b"; k["0,1"] = "j"; k["1,1"] = "n"
            print k[sx "," sy] }' <<<"$1"
}
hp_low() {
    local hp
    hp=$(grep -o 'HP [0-9-]*/[0-9]*' <<<"$1" | head -1 | cut -d' ' -f2)
    [[ -n $hp ]] && (( ${hp%/*} * 2 < ${hp#*/} ))
}

wait_for "Turn 0" 20 || { echo "FAIL: $GAME did not start"; capture; exit 1; }
presses=0 freezes=0 fighting=0 explored=0 stuck=0 last_turn=-1
declare -A used=()
press() {
    tm send-keys -t c "$1"
    presses=$((presses + 1))
    used[$1]=$((${used[$1]:-0} + 1))
}
screen=$(settled)
depth=$(depth_of "$screen")
while ((presses < MAX)); do
    depth=$(depth_of "$screen")
    [[ -n $depth ]] && ((depth >= WANT)) && break
    [[ $screen == *"You die"* || $screen == *"G A M E"* || $screen == *"exit="* ]] && break
    said=$(messages "$screen")
    turn=$(grep -o 'Turn [0-9]*' <<<"$screen" | head -1 | cut -d' ' -f2)
    if [[ $turn == "$last_turn" ]]; then stuck=$((stuck + 1)); else stuck=0; fi
    last_turn=$turn
    if [[ $screen == *"--More--"* ]]; then
        press Enter
    elif ((stuck >= 4)); then
        # Going nowhere: a step by hand, as a player would.
        press "$(printf 'hjklyubn' | cut -c$((presses % 8 + 1)))"
        stuck=0
    elif [[ $GAME != alchemy ]] && step=$(toward_monster "$screen" 2) && [[ -n $step ]]; then
        # A monster beside the hero (or one step off): fight it.
        press "$step"
    elif [[ $said == *"Not with"*"in view"* || $said == *"comes into view"* || $said == *"is after you"* ]] || ((fighting)); then
        if [[ $GAME == alchemy ]]; then
            press Tab
            fighting=1
        else
            step=$(toward_monster "$screen")
            if [[ -n $step ]]; then press "$step"; fighting=1; else fighting=0; press o; fi
            [[ $(messages "$(settled)") == *"You kill"* ]] && fighting=0
        fi
    elif hp_low "$screen" && [[ $said != *"You feel rested"* && $said != *"not hurt"* ]]; then
        press Z
    elif ((explored)) || [[ $said == *"Done exploring"* || $said == *"nothing left to explore"* ]]; then
        explored=1
        press '>'
    else
        press o
    fi
    before=$depth
    screen=$(settled)
    said=$(messages "$screen")
    if ((fighting)); then
        if [[ $said == *"You see no way to"* ]]; then
            if grep -q "Not with" <<<"$(messages "$prev" 2>/dev/null)"; then
                freezes=$((freezes + 1))
                capture >"$OUT/$GAME-$SEED-freeze-$freezes.txt"
            fi
            fighting=0
        elif [[ $said == *"No monster in view"* || $said == *"No monster"* ]]; then
            fighting=0
        fi
    fi
    if [[ -n ${PRESSES_TRACE:-} ]]; then
        echo "$presses t${turn:-?} $(grep -o 'HP [0-9-]*/[0-9]*' <<<"$screen" | head -1): $(messages "$screen" | grep -v '^ *$' | tail -1)"
    fi
    now=$(depth_of "$screen")
    # A new level: explore it first.
    [[ -n $now && $now != "$before" ]] && explored=0
    [[ $said == *"know of no stairs"* || $said == *"no stairs down here"* ]] && explored=0
    prev=$screen
done
capture >"$OUT/$GAME-$SEED-end.txt"
keys=""
for k in "${!used[@]}"; do keys+=" $k×${used[$k]}"; done
tm kill-server >/dev/null 2>&1
sleep 0.5
echo "presses-tmux: $GAME seed $SEED: depth ${depth:-?} in $presses presses ($keys ), $freezes freezes"
((freezes == 0)) && [[ -n ${depth:-} ]] && ((depth >= WANT))
