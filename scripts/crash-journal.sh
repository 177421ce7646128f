#!/usr/bin/env bash
# The recording is the save's journal: `kill -9` the terminal game at random moments while
# it is played (random steps and waits, keys sent as fast as tmux takes them), then continue
# it. Each time:
#   - the recording as the kill left it verifies (alembic-sim --replay FILE --verify, a cut
#     off last line dropped), ending at turn T;
#   - continuing (--load) shows "Welcome back." at turn T exactly: no recorded command lost;
#   - the game plays on and records on (the next kill checks the recording again);
# and at the end: the game saved and quit, its recording verifies to the end at the save's
# turn and hash, and no temporary file is left in the data directory.
#
# Both games are played so, Alchemy then the Caves (each autosaves every 100 commands and
# records every command beside its save: see session/src/slot.rs).
#
# Usage: scripts/crash-journal.sh [KILLS] [GAMES]   (default 100 kills per game, about 2.5
# minutes each, GAMES "alchemy caves"; scripts/test.sh runs it with 8). Exit 0 = pass or
# skipped.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
KILLS="${1:-100}"
GAMES="${2:-alchemy caves}"

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP (tmux missing): kill -9 during play"
    exit 0
fi

echo "== building the binaries"
bash "$ROOT/scripts/build.sh"
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"
SIM="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim"
STORM="$TARGET/${ALEMBIC_PROFILE:-release}/examples/save_storm"

WORK="$(mktemp -d)"
SOCK="alembic-crash-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    tm kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

export XDG_DATA_HOME="$WORK/data"
DATA="$XDG_DATA_HOME/alembic"
mkdir -p "$XDG_DATA_HOME"

wait_for() {
    local text="$1" secs="${2:-10}" i
    for ((i = 0; i < secs * 20; i++)); do
        if [[ "$(tm capture-pane -p -t crash 2>/dev/null)" == *"$text"* ]]; then return 0; fi
        sleep 0.05
    done
    return 1
}
# The alembic-tui of this script's pane (not another alembic-tui running on the machine): the
# pane's own process, or its child when a shell runs it.
tui_pid() {
    local pane
    pane=$(tm display-message -p -t crash '#{pane_pid}' 2>/dev/null) || return 0
    [ -n "$pane" ] || return 0
    if [ "$(readlink "/proc/$pane/exe" 2>/dev/null)" = "$BIN" ]; then
        echo "$pane"
    else
        pgrep -n -P "$pane" -f "^$BIN " || true
    fi
}

# "TURN HASH" of the recording's end, or "bad: why".
recording_end() {
    local out
    if ! out=$("$SIM" --replay "$REC" --verify --partial 2>/dev/null); then
        echo "bad: $out"
        return
    fi
    local turn hash
    turn=$(grep -o '"turns": *[0-9]*' <<<"$out" | grep -o '[0-9]*$')
    hash=$(grep -o '"final_hash": *"[0-9a-f]*"' <<<"$out" | grep -o '[0-9a-f]\{16\}')
    echo "$turn $hash"
}

KEYS=(h j k l . h j k l)
FAILED=0

# The save's turn, read from the file itself.
save_turn() {
    python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))["state"]
print(v.get("rest", v).get("turn"))' "$1" 2>/dev/null || echo "unreadable"
}

# Start the game of $GAME in the pane: a new one from seed $1, or continue $SAVE without $1.
# Returns 1 when it does not show.
open_game() {
    if [ "$GAME" = alchemy ]; then
        if [ -n "${1:-}" ]; then
            tm new-session -d -s crash -x 100 -y 30 "$BIN --seed $1 2>>$WORK/stderr"
            wait_for "Depth 1/11" 20
        else
            tm new-session -d -s crash -x 100 -y 30 "$BIN --load $SAVE 2>>$WORK/stderr"
            wait_for "Welcome back." 20
        fi
    else
        # --seed begins at once, and so does --load (it continues the save).
        if [ -n "${1:-}" ]; then
            tm new-session -d -s crash -x 100 -y 30 "$BIN --game caves --seed $1 2>>$WORK/stderr"
            wait_for "Turn " 20
        else
            tm new-session -d -s crash -x 100 -y 30 "$BIN --game caves --load $SAVE 2>>$WORK/stderr"
            wait_for "Welcome back." 20
        fi
    fi
}

play_game() {
GAME="$1"
SAVE="$DATA/$GAME.save"
REC="$DATA/$GAME.replay"
t0=$(date +%s)
kills=0 continued=0 lost=0 unverified=0 newgames=0 longest=0
expected=""
for ((i = 1; i <= KILLS; i++)); do
    if [ -f "$SAVE" ]; then
        if ! open_game; then
            lost=$((lost + 1))
            echo "  kill $i: the save did not continue: $(tail -2 "$WORK/stderr" | tr '\n' ' ')"
            tm kill-server >/dev/null 2>&1 || true
            rm -f "$SAVE"
            expected=""
            continue
        fi
        continued=$((continued + 1))
        shown=$(tm capture-pane -p -t crash | grep -o 'Turn [0-9]*' | head -1 | grep -o '[0-9]*' || true)
        if [ -n "$expected" ] && [ "$shown" != "${expected%% *}" ]; then
            lost=$((lost + 1))
            echo "  kill $i: continued at turn '$shown', the recording ended at turn ${expected%% *}"
        fi
    else
        if ! open_game $((RANDOM * 32768 + RANDOM)); then
            echo "  kill $i: a new game did not start"
            lost=$((lost + 1))
            tm kill-server >/dev/null 2>&1 || true
            continue
        fi
        newgames=$((newgames + 1))
    fi
    pid=$(tui_pid)
    n=$((RANDOM % 60 + 1))
    (
        for ((k = 0; k < n; k++)); do
            tm send-keys -t crash "${KEYS[RANDOM % ${#KEYS[@]}]}" 2>/dev/null || exit 0
            sleep "0.0$((RANDOM % 3))"
        done
    ) &
    sender=$!
    # A random moment: while keys arrive, or after they stopped.
    sleep "$((RANDOM % 2)).$(printf '%03d' $((RANDOM % 1000)))"
    if [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; then
        kills=$((kills + 1))
    else
        echo "  kill $i: no running game to kill (pid '$pid')"
    fi
    wait "$sender" 2>/dev/null || true
    tm kill-server >/dev/null 2>&1 || true
    if [ -f "$REC" ] && [ -f "$SAVE" ]; then
        expected=$(recording_end)
        if [[ "$expected" == bad:* ]]; then
            unverified=$((unverified + 1))
            echo "  kill $i: the recording does not verify: $expected"
            expected=""
        elif [ "${expected%% *}" -gt "$longest" ]; then
            longest=${expected%% *}
        fi
    else
        # The hero died (or the game was quit): its recording went to records/.
        expected=""
    fi
done

# The end: continue once more, save and quit; the recording verifies to the save.
final="skipped"
if [ -f "$SAVE" ]; then
    if open_game; then
        tm send-keys -t crash S
        if [ "$GAME" = alchemy ]; then
            wait_for "Your game was saved to" 20 && tm send-keys -t crash Enter
        fi
        for ((k = 0; k < 100; k++)); do [ -n "$(tui_pid)" ] || break; sleep 0.1; done
        end=$(recording_end)
        if [ "$GAME" = alchemy ]; then
            saved=$("$STORM" check "$SAVE" 2>&1 | sed 's/^ok turn \([0-9]*\) hash \([0-9a-f]*\)$/\1 \2/' || true)
        else
            # No Caves checker prints the save's hash: its turn, and the recording's turn.
            saved=$(save_turn "$SAVE")
            end=${end%% *}
        fi
        final="recording: $end; save: $saved"
        if [[ "$end" == bad:* ]] || [ "$end" != "$saved" ]; then
            unverified=$((unverified + 1))
        fi
    fi
    tm kill-server >/dev/null 2>&1 || true
fi
litter=$(find "$XDG_DATA_HOME" -name '*.tmp' -o -name '*.bak' | wc -l)

echo "$GAME: kill -9 during play: $kills kills of a running game, $continued continued, $newgames new games, longest game turn $longest, $(($(date +%s) - t0)) s"
echo "  commands lost on continue: $lost; recordings that did not verify: $unverified; temporary files left: $litter"
echo "  final: $final"
if [ "$lost" -eq 0 ] && [ "$unverified" -eq 0 ] && [ "$litter" -eq 0 ] && [ "$kills" -eq "$KILLS" ]; then
    echo "ok:   $GAME: kill -9 at $KILLS random moments during play lost no recorded command"
else
    echo "FAIL: $GAME: kill -9 during play (see above)"
    FAILED=1
fi
}

for g in $GAMES; do
    play_game "$g"
done
exit "$FAILED"
