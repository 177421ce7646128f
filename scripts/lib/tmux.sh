# Shared by the tmux scripts (contract-tmux.sh, finality-tmux.sh, outside-tmux.sh): source it
# after setting SOCK (the tmux server's socket name). It gives a private tmux server with a
# session that outlives the games' panes ("keep"), the scratch directory $DATA (removed on
# exit with the server), and the helpers below; a script's pane is the session "c".
DATA=$(mktemp -d)
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$DATA"' EXIT
# A session that outlives the games' panes, so replacing a pane never stops the tmux server.
tm new-session -d -s keep "sleep 3600"

FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
pass() { echo "ok:   $*"; }
capture() { tm capture-pane -p -t c; }
# wait_for TEXT [SECS]: whether the pane shows TEXT within SECS seconds (default 10).
wait_for() {
    local text="$1" secs="${2:-10}" i
    for ((i = 0; i < secs * 20; i++)); do
        [[ "$(capture)" == *"$text"* ]] && return 0
        sleep 0.05
    done
    return 1
}
# The first "Turn N" on the pane.
turn() { capture | grep -o 'Turn [0-9]*' | head -1 | cut -d' ' -f2; }
