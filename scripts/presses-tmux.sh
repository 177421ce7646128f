#!/usr/bin/env bash
# Issue 54's press counts, played in tmux as a new player would, with the real terminal
# binary: Alchemy seeds 5 and 9 to depth 3, the Caves seed 5 to level 3, and the rats won
# (seeds 3 and 6). Each step reads the screen and presses one key, as a player who knows only
# the help screen:
#
#   - `o` explores; when it is done (or refuses, or stops, for a monster), `Tab` fights;
#   - when nothing is left to explore (or `Tab` finds no monster), `>` travels to the known
#     stairs down and takes them; in the Caves a refused `>` digs its way there;
#   - a fight stopped for the hero's health is answered with `Z` (rest);
#   - "Not with … in view." is answered with `Tab`, and `Tab`'s "You see no way to …" with
#     `.` (the monster may come);
#   - a message the game stops on (--More--) is answered with Enter.
#
# It counts the presses to each depth and fails when the game freezes: "Not with … in view."
# answered by `Tab` with "You see no way to …" 30 times (a monster held up play while
# neither could reach the other: issue 54's item 1 counted 37 waits for a skeleton across
# water), the hero dies, or the goal is not reached within the press budget. A monster that
# can come but cannot be walked to (a bat over water) is waited for with `.`.
#
# The rats have one maze: `o` explores, `Tab` fights a rat beside the hero, a rat farther
# off is waited for (`.`, twice at most: a rat that steps up to the hero gives it the first
# bite, and the hero that steps up to a rat gives the rat its), a click (sent as the terminal's mouse report) travels to the cheese once seen, and
# `<` with the cheese travels to the way out. They must be won within 60 presses.
#
#   scripts/presses-tmux.sh                 # all of them
#   scripts/presses-tmux.sh alchemy 5 3     # one game, seed, depth
#   scripts/presses-tmux.sh rats 1          # the rats, one seed
#   PRESSES_TRACE=1 scripts/presses-tmux.sh caves 5 3   # each press and the message it answers
#
# Prints one line a game: "presses-tmux: alchemy seed 5: depth 2 in N presses, depth 3 in M".
set -uo pipefail

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (apt-get install tmux); presses-tmux not run."
    exit 0
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
OUT="${OUT:-$TARGET/presses-tmux}"
mkdir -p "$OUT"
BIN="${BIN:-$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui}"
[[ -x $BIN ]] || { echo "presses-tmux: no binary at $BIN (scripts/build.sh)"; exit 1; }
# Presses allowed to reach the goal.
BUDGET=${BUDGET:-400}

SOCK="alembic-presses-$$"
# shellcheck source=scripts/lib/tmux.sh
. "$ROOT/scripts/lib/tmux.sh"

# The depth the screen shows: Alchemy's "Depth N/11", the Caves' "Level N/M".
depth() {
    capture | grep -o 'Depth [0-9]*/\|Level [0-9]*/' | head -1 | grep -o '[0-9]*'
}
# Wait until the screen stops changing (the hero is seen walking a journey): no change over
# five gaps between captures in a row, 0.3 s. A journey draws a step every 8 ms, but a game
# starved of the CPU for longer than one gap between captures (CI's host) looked still: the
# next press then stopped the journey ("You stop.") and the counts, and the rats' game, went
# otherwise.
# `sed 's/sleep 0.06/sleep 0.005/'` on the old one-gap wait lost both rats' games here.
settle() {
    local a b i same=0
    a=$(capture)
    for ((i = 0; i < 200; i++)); do
        sleep 0.06
        b=$(capture)
        if [[ $a == "$b" ]]; then
            same=$((same + 1))
            ((same >= 5)) && return 0
        else
            same=0
        fi
        a=$b
    done
}

# start GAME SEED: a new game in the pane "c", in a data directory of its own; fails when
# it does not show turn 0.
start() {
    tm kill-session -t c >/dev/null 2>&1
    sleep 0.2
    mkdir -p "$DATA/$1-$2"
    tm new-session -d -s c -x 130 -y 60 \
        "XDG_DATA_HOME='$DATA/$1-$2' $BIN --game $1 --seed $2; echo exit=\$?; sleep 600"
    wait_for "Turn 0" 10 || { fail "$1 seed $2: did not start"; return 1; }
}

# play GAME SEED GOAL: presses to each depth up to GOAL.
play() {
    local game=$1 seed=$2 goal=$3 presses=0 stuck=0 key=o last=o d screen said
    start "$game" "$seed" || return
    local reached="" at=1
    while ((presses < BUDGET)); do
        screen=$(capture)
        if [[ $screen == *"G A M E   O V E R"* || $screen == *"You die"* ]]; then
            capture >"$OUT/$game-$seed-end.txt"
            fail "$game seed $seed: the hero died after $presses presses ($reached)"
            return
        fi
        d=$(depth)
        if [[ -n $d && $d -gt $at ]]; then
            at=$d
            reached+="depth $d in $presses presses, "
            capture >"$OUT/$game-$seed-depth$d.txt"
            if ((d >= goal)); then
                echo "presses-tmux: $game seed $seed: ${reached%, }"
                pass "$game seed $seed reaches depth $goal in $presses presses"
                return
            fi
            key=o
        fi
        # The newest message: the last of the three message rows that says something.
        said=$(echo "$screen" | head -3 | sed 's/ *$//' | grep -v '^$' | tail -1)
        if [[ $said == *"--More--"* ]]; then
            key=Enter
        elif [[ $said == *"Not with"*"in view."* || $said == *"comes into view."* ||
            $said == *"You are hurt!"* || $said == *"You stop fighting: "*" comes."* ]]; then
            key=Tab
        elif [[ $said == *"You see no way to"* || $said == *"keeps its distance."* ]]; then
            # A monster that can come but cannot be walked to (a bat over water): wait for
            # it, as a player would, and count the waits.
            key=.
            stuck=$((stuck + 1))
        elif [[ $said == *"you are badly hurt."* ]]; then
            # Rest (Z); with a monster in view it says "Not with … in view." and Tab follows.
            key=Z
        elif [[ $said == *"No monster in view."* || $said == *"nothing in view you can fight"* ]]; then
            key=o
        elif [[ $said == *"Done exploring."* || $said == *"nothing left to explore"* ||
            $said == *"You sense the stairs"* || $said == *"> takes you there"* ||
            $said == *"> digs there"* ]]; then
            key='>'
        elif [[ $said == *"no stairs down"* || $said == *"There are no stairs"* ]]; then
            key=o
        elif [[ $last == '>' ]]; then
            # Travelling to the stairs, or on them: > goes on, or down.
            key='>'
        else
            key=o
        fi
        if ((stuck >= 30)); then
            capture >"$OUT/$game-$seed-stuck.txt"
            fail "$game seed $seed: held up $stuck times by a monster it cannot reach ($presses presses)"
            return
        fi
        [[ -n ${PRESSES_TRACE:-} ]] && echo "  $presses: $key  ($said)"
        tm send-keys -t c "$key"
        presses=$((presses + 1))
        last=$key
        settle
    done
    capture >"$OUT/$game-$seed-budget.txt"
    fail "$game seed $seed: depth $goal not reached in $BUDGET presses ($reached)"
}

# click X Y: a left click on the pane's cell (0-based), as the terminal reports it (SGR).
click() {
    tm send-keys -t c -l $'\e[<0;'"$(($1 + 1));$(($2 + 1))M"
    tm send-keys -t c -l $'\e[<0;'"$(($1 + 1));$(($2 + 1))m"
}

# play_rats SEED: the rats won within 60 presses.
play_rats() {
    local seed=$1 presses=0 key screen said map at near refused=0 waited=0
    start rats "$seed" || return
    while ((presses < 60)); do
        screen=$(capture)
        if [[ $screen == *"You escaped with the cheese!"* ]]; then
            capture >"$OUT/rats-$seed-won.txt"
            echo "presses-tmux: rats seed $seed: won in $presses presses"
            pass "rats seed $seed won in $presses presses"
            return
        fi
        if [[ $screen == *"G A M E   O V E R"* || $screen == *"eaten by rats"* ]]; then
            capture >"$OUT/rats-$seed-end.txt"
            fail "rats seed $seed: the hero was eaten after $presses presses"
            return
        fi
        said=$(echo "$screen" | head -3 | sed 's/ *$//' | grep -v '^$' | tail -1)
        # The map: below the message rows, above the status line.
        map=$(echo "$screen" | sed -n '4,$p' | grep -v 'Turn [0-9]')
        if [[ $said == *"nothing in view you can fight"* ]]; then
            refused=1
        fi
        # The nearest rat's distance in steps from the hero, on the map.
        near=$(echo "$map" | awk '
            { for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
                if (c == "@") { hx = i; hy = NR } else if (c == "r") { n++; rx[n] = i; ry[n] = NR } } }
            END { best = ""; for (k = 1; k <= n; k++) { d = (rx[k] > hx ? rx[k] - hx : hx - rx[k]) + (ry[k] > hy ? ry[k] - hy : hy - ry[k])
                if (best == "" || d < best) best = d } print best }')
        if [[ -n $near && $near -le 1 && $refused == 0 ]]; then
            key=Tab
        elif [[ -n $near && $waited -lt 2 && $refused == 0 ]]; then
            key=.
            waited=$((waited + 1))
        elif [[ $screen == *"carrying the cheese"* ]]; then
            key='<'
        elif at=$(echo "$screen" | sed -n '4,$p' | grep -v 'Turn [0-9]' |
            awk '{ i = index($0, "%"); if (i) { print i - 1, NR + 2; exit } }') && [[ -n $at ]]; then
            key=click
        else
            key=o
        fi
        [[ $key != Tab && $key != . ]] && refused=0 && waited=0
        if [[ $key == click ]]; then
            # shellcheck disable=SC2086
            click $at
        else
            tm send-keys -t c "$key"
        fi
        presses=$((presses + 1))
        settle
    done
    capture >"$OUT/rats-$seed-budget.txt"
    fail "rats seed $seed: not won in 60 presses"
}

if (($# == 3)); then
    play "$1" "$2" "$3"
elif (($# == 2)) && [[ $1 == rats ]]; then
    play_rats "$2"
else
    play alchemy 5 3
    play alchemy 9 3
    play caves 5 3
    play_rats 3
    play_rats 6
fi
((FAILS == 0))
