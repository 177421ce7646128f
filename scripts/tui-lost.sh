#!/usr/bin/env bash
# The terminal vanishes without a SIGHUP (issue 57): alembic-tui runs under `setsid -w`, so it
# has no controlling terminal and the kernel sends it no hang-up when its tmux window is
# killed; all it sees is its terminal at end-of-file. It must save the game as it stands, say
# so on stderr and exit within a few seconds (crossterm alone spun at 100% CPU for ever, and
# SIGTERM, SIGINT and SIGQUIT did nothing any more).
#
# For each of Alchemy, the Caves and Rats: start a game with a fixed seed in tmux, play a few
# moves, kill the window, then check that
#   - the process ended within 5 s (if not, its CPU use over one second is reported, read
#     from /proc/PID/stat, and it is killed with SIGKILL);
#   - stderr says where the game was saved and that the terminal was lost;
#   - the save file itself (read as JSON, not through its journal) stands at the turn the
#     screen showed before the kill, where it stood at the game's start before;
#   - the save continues in a new terminal (`--load`), showing "Welcome back." at that turn.
# Then once more with Alchemy, sending SIGTERM just after the window is killed: whatever ends
# the process (the lost terminal or the signal), it must end and have saved.
#
# Usage: scripts/tui-lost.sh     (exit 0 = pass or skipped, non-zero = failure)
#   SKIP_BUILD=1   use the existing $CARGO_TARGET_DIR/$ALEMBIC_PROFILE/alembic-tui (release when unset)
set -euo pipefail

for tool in tmux setsid python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP ($tool missing): the terminal vanishes"; exit 0; }
done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [[ -z ${SKIP_BUILD:-} ]]; then
    echo "== building the binaries"
    bash "$ROOT/scripts/build.sh"
fi
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"

WORK="$(mktemp -d)"
SOCK="alembic-lost-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    tm kill-server >/dev/null 2>&1 || true
    # A continued game saves as its pane closes: let it finish before the files go.
    sleep 0.5
    rm -rf "$WORK"
}
trap cleanup EXIT

FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
pass() { echo "ok:   $*"; }

wait_for() {
    local text="$1" secs="${2:-10}" i
    for ((i = 0; i < secs * 20; i++)); do
        if [[ "$(tm capture-pane -p -t lost 2>/dev/null)" == *"$text"* ]]; then return 0; fi
        sleep 0.05
    done
    return 1
}

# The save's turn, read from the file itself (the state's own turn field).
save_turn() {
    python3 -c 'import json,sys
v=json.load(open(sys.argv[1]))["state"]
print(v.get("rest", v).get("turn"))' "$1" 2>/dev/null || echo "unreadable"
}

# The turn the status line shows.
shown_turn() { tm capture-pane -p -t lost | grep -o 'Turn [0-9]*' | head -1 | grep -o '[0-9]*' || true; }

# CPU use of PID over one second, in percent of one core.
cpu_percent() {
    local pid="$1" hz a b
    hz=$(getconf CLK_TCK)
    a=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) || { echo "gone"; return; }
    sleep 1
    b=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null) || { echo "gone"; return; }
    echo $(((b - a) * 100 / hz))
}

# lost GAME [SIGNAL]: play GAME under setsid, kill its window (then send SIGNAL), check.
lost() {
    local g="$1" sig="${2:-}" name="$1${2:+ + SIG$2}"
    local data="$WORK/data-$g-${sig:-none}" err="$WORK/err-$g-${sig:-none}" code="$WORK/code-$g-${sig:-none}"
    local save="$data/alembic/$g.save"
    mkdir -p "$data" "$WORK/home"
    tm kill-server >/dev/null 2>&1 || true
    tm new-session -d -s lost -x 100 -y 30 \
        "HOME=$WORK/home XDG_DATA_HOME=$data setsid -w bash -c '$BIN --game $g --seed 5 2>$err; echo \$? >$code'"
    # --seed begins the game at once, in every game.
    wait_for "Turn " 15 || { fail "$name: the game did not start: $(cat "$err")"; return; }
    for k in l l j j h k . l j; do
        tm send-keys -t lost "$k"
        sleep 0.05
    done
    sleep 0.5
    local turn before pid
    turn=$(shown_turn)
    before=$(save_turn "$save")
    pid=$(pgrep -n -f "^$BIN --game $g " || true)
    if [ -z "$pid" ] || [ -z "$turn" ] || [ "$turn" -eq 0 ]; then
        fail "$name: no process ($pid) or no turn played ($turn)"
        return
    fi
    pids+=("$pid")
    tm kill-window -t lost >/dev/null 2>&1 || true
    if [ -n "$sig" ]; then
        sleep 0.3
        if kill -0 "$pid" 2>/dev/null; then
            kill "-$sig" "$pid"
            echo "      (SIG$sig sent to $pid, alive 0.3 s after its terminal went)"
        else
            echo "      ($pid had ended within 0.3 s, before SIG$sig)"
        fi
    fi
    local gone=0 i
    for ((i = 0; i < 50; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then gone=1; break; fi
        sleep 0.1
    done
    if [ "$gone" = 0 ]; then
        fail "$name: still running 5 s after its terminal went, at $(cpu_percent "$pid")% CPU; killed"
        kill -9 "$pid" 2>/dev/null || true
        sleep 0.2
    fi
    # bash -c writes the status just after the game exits.
    for ((i = 0; i < 20; i++)); do [ -s "$code" ] && break; sleep 0.05; done
    local after said status
    after=$(save_turn "$save")
    said=$(tr '\n' ' ' <"$err" 2>/dev/null || true)
    status=$(cat "$code" 2>/dev/null || echo none)
    if [ "$gone" = 1 ] && [[ "$said" == *"saved to $save"* ]] \
        && { [[ "$said" == *"the terminal is gone"* ]] || [[ -n "$sig" && "$said" == *"stopped by SIG$sig"* ]]; } \
        && [ "$after" = "$turn" ] && [ "$before" != "$after" ]; then
        pass "$name: ended (exit $status), the save stands at turn $after (it stood at $before): $said"
    else
        fail "$name: gone=$gone exit=$status, save at turn '$after' (before the kill '$before', screen '$turn'), stderr: $said"
    fi
    # The save continues in a new terminal.
    tm kill-server >/dev/null 2>&1 || true
    tm new-session -d -s lost -x 100 -y 30 \
        "HOME=$WORK/home XDG_DATA_HOME=$data $BIN --game $g --load $save 2>$WORK/cont-err; sleep 30"
    if [ "$g" != alchemy ]; then
        wait_for "Continue the saved game" 15 && tm send-keys -t lost c
    fi
    if wait_for "Welcome back." 15 && [ "$(shown_turn)" = "$turn" ]; then
        pass "$name: the save continues at turn $turn"
    else
        fail "$name: continuing: $(tm capture-pane -p -t lost | grep -v '^ *$' | tr '\n' '|') $(cat "$WORK/cont-err")"
    fi
    tm kill-server >/dev/null 2>&1 || true
}

for g in alchemy caves rats; do
    lost "$g"
done
lost alchemy TERM

echo
if [ "$FAILS" -eq 0 ]; then
    echo "tui-lost: all passed"
else
    echo "tui-lost: $FAILS failed"
    exit 1
fi
