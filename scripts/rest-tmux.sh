#!/usr/bin/env bash
# Rest (Z) in tmux, as a player would: a wizard game, three rats summoned to bite the hero,
# fought off with Tab, then one press of Z. Prints the hit points before and after and why the
# rest stopped; exits non-zero unless it ends as expected.
#
#   scripts/rest-tmux.sh            # seed 1: from low hit points to full ("You feel rested.")
#   scripts/rest-tmux.sh 5 1        # seed 5, rest on depth 1: a grass snake comes into view
#
# Needs tmux and a release build (scripts/build.sh).
set -uo pipefail
SEED=${1:-1}
DEPTH=${2:-}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/${ALEMBIC_PROFILE:-release}/alembic-tui}
[[ -x $BIN ]] || { echo "rest-tmux: no binary at $BIN (scripts/build.sh)"; exit 1; }
SOCK=rest$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
DATA=$(mktemp -d)
trap 'tm kill-server 2>/dev/null; rm -rf "$DATA"' EXIT
XDG_DATA_HOME=$DATA tm new-session -d -s r -x 110 -y 36 "$BIN --seed $SEED --wizard"
sleep 1.5
cap() { tm capture-pane -p -t r; }
hp() { cap | grep -o 'HP [0-9]*/[0-9]*' | head -1; }
# The wizard console (&): three rats beside the hero; wait while they bite.
tm send-keys -t r '&'; sleep 0.3
for _ in 1 2 3; do tm send-keys -t r 'summon rat' Enter; sleep 0.3; done
tm send-keys -t r Escape; sleep 0.3
for _ in $(seq 1 12); do tm send-keys -t r '.'; sleep 0.08; done
# Fight them off.
for _ in $(seq 1 60); do tm send-keys -t r Tab; sleep 0.1; done
sleep 0.5
if [[ -n $DEPTH ]]; then
    tm send-keys -t r '&'; sleep 0.3
    tm send-keys -t r "depth $DEPTH" Enter; sleep 0.3
    tm send-keys -t r Escape; sleep 0.5
fi
before=$(hp)
tm send-keys -t r Z
why=
for _ in $(seq 1 150); do
    sleep 0.2
    why=$(cap | grep -o "You feel rested\.\|[A-Z][a-z ]* comes into view\.\|You are hurt!\|Not with[^.]*\.\|You are not hurt[^.]*\." | tail -1)
    [[ -n $why ]] && break
done
sleep 0.3
after=$(hp)
echo "rest-tmux: seed $SEED${DEPTH:+, depth $DEPTH}: $before before Z, $after after one Z: $why"
cap > "${OUT:-${TMPDIR:-/tmp}}/rest-tmux-$SEED.txt"
if [[ -z $DEPTH ]]; then
    [[ $why == "You feel rested." && ${after#HP } == "$(echo "${after#HP }" | awk -F/ '{print $2"/"$2}')" ]]
else
    [[ $why == *"comes into view."* ]]
fi
