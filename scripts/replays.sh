#!/usr/bin/env bash
# Recordings the bot makes replay bit for bit: record headless games with the release
# alembic-sim (Alchemy seeds 1 and 2, Caves seed 1) and verify each one; then check that a
# tampered recording exits 3 and a truncated one exits 2; then what --verify says (and its
# exit: 0 complete, 4 not complete, 3 diverged, 2 refused) for a whole game and for
# recordings cut at a line, cut mid-line, extended after their last checkpoint, relabelled
# with another version or with a mode edited in (refused by the header hash; in the older
# format without it, reported). Exits non-zero on any failure.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
bash "$ROOT/scripts/build.sh"
SIM=$TARGET/${ALEMBIC_PROFILE:-release}/alembic-sim
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
fails=0
for run in "alchemy 1 5000" "alchemy 2 5000" "caves 1 2000"; do
    read -r game seed turns <<<"$run"
    file=$DIR/$game-$seed.replay
    made=$("$SIM" --game "$game" --seed "$seed" --turns "$turns" --record "$file")
    # A bot's run stops after --turns, before the game's end: --partial accepts that.
    if checked=$("$SIM" --replay "$file" --verify --partial 2>/dev/null); then
        want=$(sed 's/.*"hash":"\([0-9a-f]*\)".*/\1/' <<<"$made")
        got=$(sed 's/.*"final_hash":"\([0-9a-f]*\)".*/\1/' <<<"$checked")
        if [[ $want == "$got" ]]; then echo "ok:   $game seed $seed: $checked"; else
            echo "FAIL: $game seed $seed: recorded $want, replayed $got"
            fails=$((fails + 1))
        fi
    else
        echo "FAIL: $game seed $seed does not verify"
        fails=$((fails + 1))
    fi
done
# Tamper with a move in the middle of the first recording: a divergence, exit 3.
python3 - "$DIR/alchemy-1.replay" "$DIR/tampered.replay" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
for i in range(len(lines) // 2, len(lines)):
    if '"Move"' in lines[i]:
        d = json.loads(lines[i])
        d["cmd"]["Move"] = "West" if d["cmd"]["Move"] != "West" else "East"
        lines[i] = json.dumps(d, separators=(",", ":"))
        break
open(sys.argv[2], "w").write("\n".join(lines))
PY
rc=0
"$SIM" --replay "$DIR/tampered.replay" --verify --partial >/dev/null 2>"$DIR/err" || rc=$?
if ((rc == 3)); then echo "ok:   tampered recording: exit 3: $(cat "$DIR/err")"; else
    echo "FAIL: tampered recording exited $rc"
    fails=$((fails + 1))
fi
head -c 100 "$DIR/alchemy-1.replay" >"$DIR/cut.replay"
rc=0
"$SIM" --replay "$DIR/cut.replay" --verify >/dev/null 2>"$DIR/err" || rc=$?
if ((rc == 2)); then echo "ok:   truncated recording: exit 2: $(cat "$DIR/err")"; else
    echo "FAIL: truncated recording exited $rc"
    fails=$((fails + 1))
fi
# What --verify says, and its exit code, for a whole game and for recordings cut, extended,
# relabelled or with an edited mode (a Caves game the explore bot plays to its end).
"$SIM" --game caves --seed 2 --turns 5000 --record "$DIR/whole.replay" >/dev/null
expect() { # NAME FILE CODE TEXT
    local rc=0
    "$SIM" --replay "$2" --verify >/dev/null 2>"$DIR/err" || rc=$?
    if ((rc == $3)) && grep -q "$4" "$DIR/err" "$DIR/whole.ok" 2>/dev/null; then
        echo "ok:   $1: exit $rc: $(head -c 300 "$DIR/err")"
    else
        echo "FAIL: $1: exit $rc (wanted $3): $(cat "$DIR/err")"
        fails=$((fails + 1))
    fi
}
"$SIM" --replay "$DIR/whole.replay" --verify >"$DIR/whole.ok"
expect "a whole game" "$DIR/whole.replay" 0 '"verified":true'
lines=$(wc -l <"$DIR/whole.replay")
head -n $((lines / 2)) "$DIR/whole.replay" >"$DIR/cut-lines.replay"
expect "cut at a line" "$DIR/cut-lines.replay" 4 "before the game's end"
head -c $(($(stat -c %s "$DIR/whole.replay") / 2)) "$DIR/whole.replay" >"$DIR/cut-mid.replay"
expect "cut mid-line" "$DIR/cut-mid.replay" 4 "last line incomplete"
head -n $((lines - 1)) "$DIR/whole.replay" >"$DIR/extended.replay"
expect "commands after the last checkpoint" "$DIR/extended.replay" 4 "after the last checkpoint"
# A relabelled header no longer matches its header hash: refused (exit 2) before any work.
sed '1s/"game_version":"/"game_version":"9./' "$DIR/whole.replay" >"$DIR/version.replay"
expect "another game_version" "$DIR/version.replay" 2 "does not match its header hash"
"$SIM" --game alchemy --seed 3 --turns 300 --record "$DIR/normal.replay" >/dev/null
sed '1s/"modes":\[\]/"modes":["wizard"]/' "$DIR/normal.replay" >"$DIR/mode.replay"
expect "a mode edited into the header" "$DIR/mode.replay" 2 "does not match its header hash"
# A current (version 2) header whose hash was deleted is refused, not read as older.
sed '1s/,"check":"[0-9a-f]*"//' "$DIR/mode.replay" >"$DIR/mode-unsealed.replay"
expect "a mode edited, its hash deleted" "$DIR/mode-unsealed.replay" 2 "must carry its header hash"
# The same edits in a recording of the older format (version 1, no header hash) are still
# reported.
sed '1s/,"check":"[0-9a-f]*"//; 1s/"version":2/"version":1/' "$DIR/version.replay" >"$DIR/version-old.replay"
expect "another game_version, older format" "$DIR/version-old.replay" 4 "recorded by version 9."
sed '1s/,"check":"[0-9a-f]*"//; 1s/"version":2/"version":1/' "$DIR/mode.replay" >"$DIR/mode-old.replay"
expect "a mode edited, older format" "$DIR/mode-old.replay" 3 "diverged at turn 0"
((fails == 0)) && echo "replays: all passed" || { echo "replays: $fails failed"; exit 1; }
