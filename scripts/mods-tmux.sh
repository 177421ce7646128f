#!/usr/bin/env bash
# Content as data, as a modder meets it, in tmux with the release alembic-tui:
#   1. copy Alchemy's shipped data, add a monster (glyph, colour, hit points), start a wizard
#      game on that copy (--data) and summon it from the console;
#   2. edit its hit points in the file, `reload` in the console: `props` reports the new value;
#   3. save a game made with a mod (--mod), continue it without the mod: one sentence, exit
#      non-zero, the save file byte for byte the same;
#   4. a mod with five different mistakes: five messages with line and column, no game.
# Prints what it saw; exits non-zero if anything is not as a player should see it. The panes
# are kept in ${OUT:-${TMPDIR:-/tmp}}/mods-tmux-*.txt.
#
# Needs tmux and a release build (scripts/build.sh).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/${ALEMBIC_PROFILE:-release}/alembic-tui}
OUT=${OUT:-${TMPDIR:-/tmp}}
[[ -x $BIN ]] || { echo "mods-tmux: no binary at $BIN (scripts/build.sh)"; exit 1; }
SOCK=mods$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
WORK=$(mktemp -d)
trap 'tm kill-server 2>/dev/null; rm -rf "$WORK"' EXIT
export XDG_DATA_HOME=$WORK/home
fail=0
check() { # check WHAT CONDITION-EXIT-STATUS
    if [[ $2 == 0 ]]; then echo "mods-tmux: ok: $1"; else echo "mods-tmux: FAILED: $1"; fail=1; fi
}
cap() { tm capture-pane -p -t m 2>/dev/null; }
wait_for() { # wait_for PATTERN: up to 10 s for the pane to show it
    for _ in $(seq 1 50); do cap | grep -q -- "$1" && return 0; sleep 0.2; done
    return 1
}
console() { # console LINE: type a line into the wizard console and wait a moment
    tm send-keys -t m -l "$1"; tm send-keys -t m Enter; sleep 0.4
}

# 1. A new monster in a copy of the shipped data.
mkdir -p "$WORK/data"
cp "$ROOT/games/alchemy/data/alchemy.toml" "$WORK/data/"
cat >> "$WORK/data/alchemy.toml" <<'EOF'

# Added by mods-tmux.sh: a peaceful newt that glows pink.
[proto."ember newt"]
copy-from = "rat"
name = "ember newt"
glyph = "N"
fg = "#FF40C0"
hps = 13
hps_max = 13
is_hostile = false
EOF
tm new-session -d -s m -x 120 -y 40 "$BIN --seed 3 --wizard --data $WORK/data"
wait_for 'HP ' ; sleep 0.5
tm send-keys -t m '&'; sleep 0.4
console 'summon ember newt'
summoned=$(cap | grep -o 'Summoned an\? ember newt at ([-0-9]*, [-0-9]*)\.' | tail -1)
check "summon ember newt: ${summoned:-nothing said}" "$([[ -n $summoned ]]; echo $?)"
read -r DX DY < <(echo "$summoned" | sed 's/.*(\([-0-9]*\), \([-0-9]*\)).*/\1 \2/')
console "props $DX $DY"
hp_before=$(cap | grep -o 'hps = [0-9]*' | tail -1)
check "props $DX $DY shows the newt's ${hp_before:-no hps}" "$([[ $hp_before == 'hps = 13' ]]; echo $?)"
cap > "$OUT/mods-tmux-summon.txt"
tm send-keys -t m Escape; sleep 0.4
cap > "$OUT/mods-tmux-map.txt"
on_map=$(grep -c 'N' "$OUT/mods-tmux-map.txt")
check "the newt is drawn on the map (N)" "$([[ $on_map -gt 0 ]]; echo $?)"

# 2. Edit its hit points, reload, ask again.
sed -i 's/^hps = 13$/hps = 29/; s/^hps_max = 13$/hps_max = 29/' "$WORK/data/alchemy.toml"
tm send-keys -t m '&'; sleep 0.4
console 'reload'
reloaded=$(cap | grep -o 'Reloaded the data: [^.]*\.' | tail -1)
check "reload: ${reloaded:-nothing said}" "$([[ $reloaded == *'ember newt changed.'* ]]; echo $?)"
console "props $DX $DY"
hp_after=$(cap | grep -o 'hps = [0-9]*' | tail -1)
check "after reload props reports ${hp_after:-no hps}" "$([[ $hp_after == 'hps = 29' ]]; echo $?)"
cap > "$OUT/mods-tmux-reload.txt"
tm kill-session -t m 2>/dev/null

# 3. A save made with a mod, continued without it (a data directory of its own: closing the
# first game saved it).
export XDG_DATA_HOME=$WORK/home3
mkdir -p "$WORK/drakes"
cat > "$WORK/drakes/drakes.toml" <<'EOF'
[proto."cave drake"]
copy-from = "giant bat"
name = "cave drake"
glyph = "D"
fg = "#30C0FF"
EOF
tm new-session -d -s m -x 120 -y 40 "$BIN --seed 4 --mod $WORK/drakes"
wait_for 'HP '; sleep 0.5
tm send-keys -t m S; wait_for 'saved to'; tm send-keys -t m Enter
for _ in $(seq 1 50); do tm has-session -t m 2>/dev/null || break; sleep 0.2; done
SAVE=$XDG_DATA_HOME/alembic/alchemy.save
check "S saved the modded game to $SAVE" "$([[ -f $SAVE ]]; echo $?)"
grep -o '"modes":\[[^]]*\]' "$SAVE" | head -1 | sed 's/^/mods-tmux: the save says /'
sum_before=$(sha256sum "$SAVE" | cut -d' ' -f1)
said=$("$BIN" --load "$SAVE" 2>&1 </dev/null); status=$?
echo "mods-tmux: continued without the mod (exit $status): $said"
check "refused without the mod, in one sentence" \
    "$([[ $status != 0 && $said == *'the mod "drakes" and this game runs with no mods'* && $(echo "$said" | wc -l) == 1 ]]; echo $?)"
check "the save is untouched" "$([[ $(sha256sum "$SAVE" | cut -d' ' -f1) == "$sum_before" ]]; echo $?)"
tm new-session -d -s m -x 120 -y 40 "$BIN --load $SAVE --mod $WORK/drakes"
wait_for 'HP '
check "with the mod it continues" "$(cap | grep -q 'HP '; echo $?)"
tm send-keys -t m S; wait_for 'saved to'; tm send-keys -t m Enter; sleep 0.5
tm kill-session -t m 2>/dev/null

# 4. Five different mistakes.
mkdir -p "$WORK/bad"
cat > "$WORK/bad/bad.toml" <<'EOF'
[proto."fire newt"]
copy-from = "ratt"
hsp = 3

[proto.goblin]
extend = true
hps = "many"

[proto."ghost newt"]
parent = "no such thing"

[proto.rat]
name = "rat again"
EOF
said=$("$BIN" --seed 1 --mod "$WORK/bad" 2>&1 </dev/null); status=$?
echo "$said" | sed 's/^/mods-tmux: | /'
n=$(echo "$said" | grep -c 'bad.toml:[0-9]*:[0-9]*:')
check "five mistakes, $n messages with line and column, exit $status" "$([[ $n == 5 && $status != 0 ]]; echo $?)"
exit $fail
