#!/usr/bin/env bash
# Data files are read with bounds (issue 57), through the built binaries: a FIFO, a device,
# a directory where a file is expected, a loop of symbolic links or a file over 16 MiB,
# given to alembic-tui as --data or --mod, found inside a mod directory or in the mods
# folder ($XDG_DATA_HOME/alembic/mods/GAME/), or given to alembic-sim --check-data, is
# refused at once: a non-zero exit and a sentence naming the path on stderr, within the
# 20 s `timeout` allows (its exit 124, a hang, is a failure). Before, a FIFO hung the game
# for ever (in the mods folder, every start), /dev/urandom read 920 MB and /dev/zero ran out
# of memory. Also: --check-data refuses an empty directory as --data does, and data on which
# no game can start; `--game rats` refuses --mod and --data instead of ignoring them.
#
# Usage: scripts/data-bounds.sh        (exit 0 = pass, non-zero = failure)
# BIN_DIR=DIR runs the alembic-tui and alembic-sim in DIR instead of building them.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
if [[ -z ${BIN_DIR:-} ]]; then
    echo "== building the binaries"
    bash "$ROOT/scripts/build.sh" || { echo "FAIL: the build failed"; exit 1; }
    BIN_DIR="$TARGET/${ALEMBIC_PROFILE:-release}"
fi
TUI="$BIN_DIR/alembic-tui"
SIM="$BIN_DIR/alembic-sim"
for b in "$TUI" "$SIM"; do
    [[ -x $b ]] || { echo "FAIL: no binary at $b"; exit 1; }
done
command -v mkfifo >/dev/null || { echo "FAIL: mkfifo is needed"; exit 1; }

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# The save directory, and so the mods folder, of every run below.
export XDG_DATA_HOME="$WORK/home"

FAILS=0
fail() {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}
pass() { echo "ok:   $*"; }

# refused WHAT EXPECTED COMMAND…: COMMAND must end within 20 s, non-zero, and say EXPECTED
# on stderr.
refused() {
    local what="$1" expected="$2" err code start
    shift 2
    start=$(date +%s%N)
    err=$(timeout -k 5 20 "$@" </dev/null 2>&1 >/dev/null)
    code=$?
    local ms=$((($(date +%s%N) - start) / 1000000))
    if [[ $code -eq 124 || $code -eq 137 ]]; then
        fail "$what: still running after 20 s (killed by timeout)"
    elif [[ $code -eq 0 ]]; then
        fail "$what: accepted (exit 0)"
    elif [[ $err != *"$expected"* ]]; then
        fail "$what: exit $code, but stderr does not say \"$expected\": ${err:0:300}"
    else
        pass "$what: exit $code in $ms ms: $(grep -F -m1 -- "$expected" <<<"$err")"
    fi
}

# A FIFO (no writer ever comes), a mod directory holding one, a directory named like a data
# file, a loop of symbolic links, a sparse file of 16 MiB and one byte, an empty directory,
# a mod that deletes each game's hero, and a good mod.
mkfifo "$WORK/pipe.toml"
mkdir -p "$WORK/fifo-mod" "$WORK/dir-mod/sub.toml" "$WORK/empty" "$WORK/good-mod"
mkfifo "$WORK/fifo-mod/monsters.toml"
ln -s "$WORK/loop-b.toml" "$WORK/loop-a.toml"
ln -s "$WORK/loop-a.toml" "$WORK/loop-b.toml"
truncate -s $((16 * 1024 * 1024 + 1)) "$WORK/big.toml"
printf '[proto.player]\ndelete = true\n' >"$WORK/no-hero-caves.toml"
printf '[proto.you]\ndelete = true\n' >"$WORK/no-hero-alchemy.toml"
printf '[tile.floor]\nextend = true\n' >"$WORK/good-mod/floor.toml"

FIFO_SAYS="cannot read: it is a FIFO (named pipe), not a regular file"
DEV_SAYS="cannot read: it is a character device, not a regular file"

for game in alchemy caves; do
    shipped="$ROOT/games/$game/data/$game.toml"
    echo "== $game: alembic-tui"
    refused "tui $game --data FIFO" "$WORK/pipe.toml:1:1: $FIFO_SAYS" \
        "$TUI" --game "$game" --seed 1 --data "$WORK/pipe.toml"
    refused "tui $game --mod FIFO" "$WORK/pipe.toml:1:1: $FIFO_SAYS" \
        "$TUI" --game "$game" --seed 1 --mod "$WORK/pipe.toml"
    refused "tui $game --mod DIR holding a FIFO .toml" "$WORK/fifo-mod/monsters.toml:1:1: $FIFO_SAYS" \
        "$TUI" --game "$game" --seed 1 --mod "$WORK/fifo-mod"
    for dev in /dev/zero /dev/urandom; do
        for opt in --data --mod; do
            refused "tui $game $opt $dev" "$dev:1:1: $DEV_SAYS" "$TUI" --game "$game" --seed 1 "$opt" "$dev"
        done
    done
    refused "tui $game --mod DIR holding a directory sub.toml" \
        "$WORK/dir-mod/sub.toml:1:1: cannot read: it is a directory, not a regular file" \
        "$TUI" --game "$game" --seed 1 --mod "$WORK/dir-mod"
    refused "tui $game --mod a loop of symbolic links" "$WORK/loop-a.toml:1:1: cannot read: " \
        "$TUI" --game "$game" --seed 1 --mod "$WORK/loop-a.toml"
    refused "tui $game --mod a 16 MiB + 1 byte file" \
        "$WORK/big.toml:1:1: cannot read: it holds more than 16 MiB" \
        "$TUI" --game "$game" --seed 1 --mod "$WORK/big.toml"
    refused "tui $game --data an empty directory" "$WORK/empty:1:1: this data directory holds no .toml file" \
        "$TUI" --game "$game" --seed 1 --data "$WORK/empty"
    # A FIFO in the mods folder: every start of the game is refused, not hung.
    folder="$XDG_DATA_HOME/alembic/mods/$game"
    mkdir -p "$folder"
    mkfifo "$folder/pipe.toml"
    refused "tui $game with a FIFO in its mods folder" "$folder/pipe.toml:1:1: $FIFO_SAYS" \
        "$TUI" --game "$game" --seed 1
    rm -f "$folder/pipe.toml"
    # Control: a good mod gets past the data (and stops only for want of a terminal).
    refused "tui $game --mod a good mod loads (control)" "needs an interactive terminal" \
        "$TUI" --game "$game" --seed 1 --mod "$WORK/good-mod"

    echo "== $game: alembic-sim --check-data"
    refused "check-data $game FIFO" "$WORK/pipe.toml:1:1: $FIFO_SAYS" \
        "$SIM" --game "$game" --check-data "$WORK/pipe.toml"
    refused "check-data $game DATA FIFO" "$WORK/pipe.toml:1:1: $FIFO_SAYS" \
        "$SIM" --game "$game" --check-data "$shipped" "$WORK/pipe.toml"
    refused "check-data $game DATA DIR-holding-a-FIFO" "$WORK/fifo-mod/monsters.toml:1:1: $FIFO_SAYS" \
        "$SIM" --game "$game" --check-data "$shipped" "$WORK/fifo-mod"
    mkfifo "$folder/pipe.toml"
    refused "check-data $game DATA mods-folder-FIFO" "$folder/pipe.toml:1:1: $FIFO_SAYS" \
        "$SIM" --game "$game" --check-data "$shipped" "$folder/pipe.toml"
    rm -f "$folder/pipe.toml"
    for dev in /dev/zero /dev/urandom; do
        refused "check-data $game $dev" "$dev:1:1: $DEV_SAYS" "$SIM" --game "$game" --check-data "$dev"
        refused "check-data $game DATA $dev" "$dev:1:1: $DEV_SAYS" \
            "$SIM" --game "$game" --check-data "$shipped" "$dev"
    done
    refused "check-data $game DATA DIR-holding-a-directory" \
        "$WORK/dir-mod/sub.toml:1:1: cannot read: it is a directory, not a regular file" \
        "$SIM" --game "$game" --check-data "$shipped" "$WORK/dir-mod"
    refused "check-data $game a loop of symbolic links" "$WORK/loop-a.toml:1:1: cannot read: " \
        "$SIM" --game "$game" --check-data "$WORK/loop-a.toml"
    refused "check-data $game a 16 MiB + 1 byte file" \
        "$WORK/big.toml:1:1: cannot read: it holds more than 16 MiB" \
        "$SIM" --game "$game" --check-data "$shipped" "$WORK/big.toml"
    refused "check-data $game an empty directory" "$WORK/empty:1:1: this data directory holds no .toml file" \
        "$SIM" --game "$game" --check-data "$WORK/empty"
    refused "check-data $game a mod deleting the hero" "no game can start on it" \
        "$SIM" --game "$game" --check-data "$shipped" "$WORK/no-hero-$game.toml"
    # Control: the shipped data with a good mod checks clean.
    if out=$(timeout 20 "$SIM" --game "$game" --check-data "$shipped" "$WORK/good-mod" 2>&1) &&
        [[ $out == *'"prototypes":'* ]]; then
        pass "check-data $game DATA good-mod (control) exits 0: $out"
    else
        fail "check-data $game DATA good-mod (control): $out"
    fi
done

echo "== rats: no data to load"
refused "tui rats --mod /nonexistent" "rats cannot load mods or a data directory" \
    "$TUI" --game rats --seed 1 --mod /nonexistent
refused "tui rats --mod a good mod" "rats cannot load mods or a data directory" \
    "$TUI" --game rats --seed 1 --mod "$WORK/good-mod"
refused "tui rats --data /nonexistent" "rats cannot load mods or a data directory" \
    "$TUI" --game rats --seed 1 --data /nonexistent

if [[ $FAILS -eq 0 ]]; then
    echo "data-bounds: every check passed"
else
    echo "data-bounds: $FAILS check(s) failed"
    exit 1
fi
