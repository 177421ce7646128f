#!/usr/bin/env bash
# Process-level reliability checks (the in-process ones are games/registry/tests/reliability.rs):
#   1. two alembic-tui sessions on one save: the second refuses to start, naming the pid;
#      closing the first one's terminal saves its game and ends it;
#   2. SIGTERM, SIGHUP, SIGQUIT and SIGINT (sent with kill) each save the game, say so on
#      stderr and restore the terminal (cooked mode, main screen);
#   3. a save that fails on the way out says so and exits non-zero; a save with 100,000
#      things in one cell loads, plays and saves in the terminal;
#   4. kill -9 at 100 random moments while saving: the save always loads, and the temporary
#      files the kills left are all swept when a game next starts on that directory;
#   5. a full disk (a tmpfs with room for one save, when mount is allowed): the save fails cleanly, the old
#      save is kept, no temporary file is left.
#
# Usage: scripts/reliability.sh [KILLS]     (exit 0 = pass or skipped, non-zero = failure)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
KILLS="${1:-100}"

echo "== building the binaries"
bash "$ROOT/scripts/build.sh"
BIN="$TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui"
STORM="$TARGET/${ALEMBIC_PROFILE:-release}/examples/save_storm"

WORK="$(mktemp -d)"
SOCK="alembic-rel-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# A new session, tried again while the server of the step before is still going away (a
# `new-session` just after `kill-server` can meet the dying server: "server exited
# unexpectedly", seen once under load in CI).
tm_new() {
    local i
    for ((i = 0; i < 20; i++)); do
        if tm new-session "$@" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    tm new-session "$@"
}
cleanup() {
    tm kill-server >/dev/null 2>&1 || true
    if mountpoint -q "$WORK/full" 2>/dev/null; then umount "$WORK/full" || true; fi
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
        if [[ "$(tm capture-pane -p -t rel)" == *"$text"* ]]; then return 0; fi
        sleep 0.05
    done
    return 1
}

# The pid of the alembic-tui running in the tmux pane.
tui_pid() { pgrep -n -f "^$BIN " || true; }

if command -v tmux >/dev/null 2>&1; then
    # ----- 1. one window per save ---------------------------------------------------------
    export XDG_DATA_HOME="$WORK/data1"
    mkdir -p "$XDG_DATA_HOME"
    tm_new -d -s rel -x 100 -y 30 "env XDG_DATA_HOME=$XDG_DATA_HOME $BIN --seed 77; sleep 30"
    if wait_for "Depth 1/11" 15; then
        set +e
        second=$("$BIN" --seed 78 </dev/null 2>&1)
        code=$?
        set -e
        pid=$(tui_pid)
        if [ "$code" -ne 0 ] && [[ "$second" == *"already open in another window (pid $pid)"* ]]; then
            pass "a second session on the same save refuses: $second"
        else
            fail "second session: exit $code, said: $second (first pid $pid)"
        fi
        # Closing the terminal (the tmux server goes away: the pty hangs up) saves the game
        # and ends the process; crossterm alone would spin on end-of-file forever.
        tm send-keys -t rel l l
        sleep 0.3
        tm kill-server >/dev/null 2>&1 || true
        gone=0
        for ((i = 0; i < 100; i++)); do
            if ! kill -0 "$pid" 2>/dev/null; then gone=1; break; fi
            sleep 0.1
        done
        if [ "$gone" = 1 ] && "$STORM" check "$XDG_DATA_HOME/alembic/alchemy.save" >/dev/null; then
            pass "closing the terminal (hang-up) saved the game and ended the process"
        else
            kill -9 "$pid" 2>/dev/null || true
            fail "after the terminal closed: process gone=$gone, save: $("$STORM" check "$XDG_DATA_HOME/alembic/alchemy.save" 2>&1)"
        fi
    else
        fail "the first session did not start"
    fi
    tm kill-server >/dev/null 2>&1 || true

    # ----- 2. signals save and restore the terminal -----------------------------------------
    for sig in TERM HUP QUIT INT; do
        data="$WORK/data-$sig"
        mkdir -p "$data"
        tm_new -d -s rel -x 100 -y 30 \
            "bash -c 'XDG_DATA_HOME=$data $BIN --seed 77 2>$WORK/err-$sig; echo EXIT=\$?; stty -a | grep -o -- \"-\\?icanon\" ; sleep 30'"
        if ! wait_for "Depth 1/11" 15; then
            fail "SIG$sig: the game did not start"
            tm kill-server >/dev/null 2>&1 || true
            continue
        fi
        tm send-keys -t rel l l j
        sleep 0.3
        kill -"$sig" "$(tui_pid)"
        # Wait for stty's answer, which follows EXIT= on the screen: capturing at EXIT= alone
        # raced with stty and read a screen without it.
        if wait_for "EXIT=" 10 && wait_for "icanon" 5; then
            screen=$(tm capture-pane -p -t rel)
            err=$(cat "$WORK/err-$sig")
            if [[ "$screen" == *"EXIT=0"* ]] && grep -qx "icanon" <<<"$(grep -o -- '-\?icanon' <<<"$screen")" \
                && [[ "$err" == *"stopped by SIG$sig"* ]] && [[ "$err" == *"saved to"* ]] \
                && "$STORM" check "$data/alembic/alchemy.save" >/dev/null; then
                pass "SIG$sig: saved, said so, terminal cooked again ($(tr '\n' ' ' <<<"$err"))"
            else
                fail "SIG$sig: screen: $(tr '\n' '|' <<<"$screen") stderr: $err"
            fi
            if tm capture-pane -p -t rel -e | grep -q $'\e\[?1049h'; then
                fail "SIG$sig: still on the alternate screen"
            fi
        else
            fail "SIG$sig: the process did not end, or stty printed nothing"
        fi
        tm kill-server >/dev/null 2>&1 || true
    done

    # ----- 3. a failed save on the way out exits non-zero ------------------------------------
    # A data directory that is a file: not even the save's lock can be made, so the game is
    # refused with a sentence before the terminal is touched (it is never played unlocked).
    touch "$WORK/not-a-dir"
    if err=$(XDG_DATA_HOME="$WORK/not-a-dir" timeout 10 "$BIN" --seed 77 </dev/null 2>&1 >/dev/null); then
        fail "a game over an unusable data dir started: $err"
    elif [[ $err == *"cannot lock this save"* ]]; then
        pass "an unusable data dir refuses the game: ${err:0:120}"
    else
        fail "an unusable data dir: $err"
    fi
    # The save's place taken by a directory once the game (and its lock) started: every
    # save then fails, and the one on the way out says so with exit 1.
    tm_new -d -s rel -x 100 -y 30 \
        "bash -c 'XDG_DATA_HOME=$WORK/data-fail $BIN --seed 77 2>$WORK/err-fail; echo EXIT=\$?; sleep 30'"
    if wait_for "Depth 1/11" 15; then
        rm -f "$WORK/data-fail/alembic/alchemy.save"
        mkdir -p "$WORK/data-fail/alembic/alchemy.save"
        kill -TERM "$(tui_pid)"
        if wait_for "EXIT=" 10 && [[ "$(tm capture-pane -p -t rel)" == *"EXIT=1"* ]] \
            && grep -q "Cannot save" "$WORK/err-fail"; then
            pass "a failed save on exit says so and exits 1: $(cat "$WORK/err-fail" | tr '\n' ' ')"
        else
            fail "failed save on exit: $(tm capture-pane -p -t rel | tr '\n' '|') $(cat "$WORK/err-fail")"
        fi
    else
        fail "the game did not start (failed save on exit)"
    fi
    tm kill-server >/dev/null 2>&1 || true

    # ----- 3b. a save with 100,000 things in one cell loads, plays and saves ---------------------
    "$STORM" pile "$WORK/pile.save" 100000
    tm_new -d -s rel -x 100 -y 30 \
        "bash -c 'XDG_DATA_HOME=$WORK/data-pile $BIN --load $WORK/pile.save 2>$WORK/err-pile; echo EXIT=\$?; sleep 30'"
    if wait_for "Welcome back." 30; then
        tm send-keys -t rel .
        sleep 0.5
        # S saves and leaves; where the note goes (the pane or stderr) is the frontend's.
        tm send-keys -t rel S
        if wait_for "EXIT=0" 30 && { [[ "$(tm capture-pane -p -t rel)" == *"saved to"* ]] || grep -q "saved to" "$WORK/err-pile"; } \
            && "$STORM" check "$WORK/pile.save" >/dev/null; then
            pass "100,000 things in one cell: loaded, played a turn, saved and reloaded"
        else
            fail "100,000 things in one cell: $(tm capture-pane -p -t rel | tr '\n' '|') $(cat "$WORK/err-pile")"
        fi
    else
        fail "100,000 things in one cell: the save did not load: $(cat "$WORK/err-pile")"
    fi
    tm kill-server >/dev/null 2>&1 || true
else
    echo "SKIP (tmux missing): one window per save, signals, failed save on exit, big cell"
fi

# ----- 4. kill -9 storm ------------------------------------------------------------------------
storm="$WORK/storm"
mkdir -p "$storm"
"$STORM" once "$storm/alchemy.save" 1
bad=0
for ((i = 0; i < KILLS; i++)); do
    "$STORM" loop "$storm/alchemy.save" &
    pid=$!
    sleep "0.$(printf '%03d' $((RANDOM % 400 + 20)))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    if ! out=$("$STORM" check "$storm/alchemy.save" 2>&1); then
        bad=$((bad + 1))
        echo "  after kill $i: $out"
    fi
done
if [ "$bad" -eq 0 ]; then
    pass "kill -9 during saves, $KILLS times: the save always loaded"
else
    fail "kill -9 storm: $bad of $KILLS saves did not load"
fi

# The leftovers of the killed savers are swept when a game next starts on that directory.
left_before=$(find "$storm" -name '*.tmp' -o -name '*.bak' | wc -l)
XDG_DATA_HOME="$WORK/data-sweep" timeout 10 "$BIN" --load "$storm/alchemy.save" </dev/null >/dev/null 2>&1 || true
left_after=$(find "$storm" -name '*.tmp' -o -name '*.bak' | wc -l)
if [ "$left_after" -eq 0 ]; then
    pass "leftover files after $KILLS kills: $left_before, after a restart: 0"
else
    fail "leftover files after $KILLS kills: $left_before, after a restart: $left_after"
fi

# ----- 5. a full disk ----------------------------------------------------------------------------
mkdir -p "$WORK/full"
# Room for one save and a little more, so the second save cannot fit beside the first.
"$STORM" once "$WORK/probe.save" 1
room_k=$(( $(stat -c %s "$WORK/probe.save") / 1024 + 96 ))
if mount -t tmpfs -o "size=${room_k}k" tmpfs "$WORK/full" 2>/dev/null; then
    "$STORM" once "$WORK/full/alchemy.save" 1
    before=$("$STORM" check "$WORK/full/alchemy.save")
    set +e
    out=$("$STORM" once "$WORK/full/alchemy.save" 2 2>&1)
    code=$?
    set -e
    after=$("$STORM" check "$WORK/full/alchemy.save" 2>&1 || true)
    left=$(ls -A "$WORK/full")
    if [ "$code" -ne 0 ] && [ "$before" = "$after" ] && [ "$left" = "alchemy.save" ]; then
        pass "full disk: '$out'; the old save is kept and no temporary file is left"
    else
        fail "full disk: exit $code, said '$out', before '$before', after '$after', files: $left"
    fi
    umount "$WORK/full"
else
    echo "SKIP (cannot mount a tmpfs here): full disk"
fi

echo
if [ "$FAILS" -eq 0 ]; then
    echo "reliability: all passed"
else
    echo "reliability: $FAILS failed"
    exit 1
fi
