#!/usr/bin/env bash
# The replay viewer's time and memory on a long recording: record a 100,000-turn Alchemy
# game headless (alembic-sim, seed 6, random policy: 102,950 commands, 6.8 MB with a whole
# state every 10,000), open it in alembic-tui --replay under tmux and /usr/bin/time -v, and
# report the seconds until the first screen, the seconds to walk to its end (End), and the
# peak memory of the whole run; then the same for the recording without its states (the
# baseline, in the same run: every jump replays from the seed).
#
# Usage: scripts/replay-memory.sh [SEED] [TURNS]   (not run by scripts/test.sh: about 40 s)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
SEED="${1:-6}"
TURNS="${2:-100000}"
command -v tmux >/dev/null && [ -x /usr/bin/time ] || { echo "SKIP (tmux or /usr/bin/time missing)"; exit 0; }
bash "$ROOT/scripts/build.sh"
WORK="$(mktemp -d)"
SOCK="alembic-replaymem-$$"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
"$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim" --game alchemy --seed "$SEED" --turns "$TURNS" --policy random --record "$WORK/long.replay" >/dev/null
cmds=$(grep -c '"cmd"' "$WORK/long.replay")
echo "recording: $cmds commands, $(stat -c %s "$WORK/long.replay") bytes"
export XDG_DATA_HOME="$WORK/data"
# The same recording without its whole states, as builds before them wrote it: every jump
# replays from the seed.
grep -v '"state":' "$WORK/long.replay" >"$WORK/plain.replay"
measure() {
  local file="$1" name="$2" t0 t1 t2 rss
  rm -f "$WORK/time.txt"
  t0=$(date +%s.%N)
  tm new-session -d -s r -x 160 -y 40 "/usr/bin/time -v $TARGET/${ALEMBIC_PROFILE:-release}/alembic-tui --replay $file 2>$WORK/time.txt"
  until tm capture-pane -p -t r 2>/dev/null | grep -q "REPLAY"; do sleep 0.02; done
  t1=$(date +%s.%N)
  tm send-keys -t r End
  until tm capture-pane -p -t r | grep -q "move $cmds/$cmds"; do sleep 0.05; done
  t2=$(date +%s.%N)
  tm send-keys -t r q
  sleep 0.3
  tm send-keys -t r q
  for ((i = 0; i < 100; i++)); do grep -q "Maximum resident" "$WORK/time.txt" 2>/dev/null && break; sleep 0.1; done
  rss=$(grep "Maximum resident" "$WORK/time.txt" | grep -o '[0-9]*$')
  printf '%s: open (first screen) %.2f s; walk to the end (End) %.2f s; peak memory %d MiB\n' \
      "$name" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$((rss / 1024))"
}
measure "$WORK/long.replay" "with its $(grep -c '"state":' "$WORK/long.replay") states"
measure "$WORK/plain.replay" "without states ($(stat -c %s "$WORK/plain.replay") bytes)"
