#!/usr/bin/env bash
# Run every benchmark of alembic-benches once, then whole bot games per CPU second
# (scripts/bot-rate.py --runs 3, with mimalloc and then with the system allocator), and
# regenerate the table in benches/README.md (date, load
# average, command, each bar against its same-run baseline, and which bars are met).
#
#   scripts/bench-table.sh            # --measurement-time 3
#   MEASURE=2 scripts/bench-table.sh  # shorter
#   ANCHOR= scripts/bench-table.sh    # without the anchor's runs
#   LAST= scripts/bench-table.sh      # without last turn's code (a1fc3a3)
#
# The grid, layer and view random reads, the scans through `get` and the one-cell persistent
# set are barred at the faster of the two D2 layouts of the same run (issue 56; the `D2` and
# `LeanD2` of benches/benches/grid.rs), with each row's ratio to the flat `Vec` beside it.
#
# The two rates (whole bot games per CPU second, the engine's `apply` alone) are measured
# beside an anchor, a commit built in a temporary worktree and run on the same host: its bot
# games in the same rounds, and its `apply` benchmark right before ours is run again.
# `ANCHOR` is 9d0bad5 by default, main when issue 56 was filed, whose bars are ratios in the
# same rounds (at least 2.0x); `ANCHOR=a1fc3a3` (the last table before issue 32) gives issue
# 32's bars instead, as ratios against the ratio each asks of that code's figure on record.
# Needs the repository's history (a full clone).
set -euo pipefail
cd "$(dirname "$0")/.."
measure="${MEASURE:-3}"
cmd="cargo bench -p alembic-benches -- --warm-up-time 1 --measurement-time $measure"
target="${CARGO_TARGET_DIR:-target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
anchor="${ANCHOR-9d0bad5}"
# Last turn's code (issue 56's "last turn's code": a1fc3a3, the code issue 32 measured, as the
# wave before started): the rows of benches/benches/anchor_rows.rs are also run there.
# `LAST=` skips it.
last="${LAST-a1fc3a3}"
log="$(mktemp)"
anchor_dir=""
last_dir=""
cleanup() {
  rm -f "$log"
  for d in "$anchor_dir" "$last_dir"; do
    if [ -n "$d" ]; then
      git worktree remove --force "$d/src" 2>/dev/null || true
      rm -rf "$d"
    fi
  done
  git worktree prune
}
trap cleanup EXIT
# Put benches/benches/anchor_rows.rs (the rows both trees compile) into the worktree $1,
# registered as a bench, with Alchemy's paths as that tree names them.
add_anchor_rows() {
  cp benches/benches/anchor_rows.rs "$1/benches/benches/anchor_rows.rs"
  if grep -q 'alembic-content' "$1/benches/Cargo.toml"; then
    sed -i 's|^    pub use alembic_games::alchemy::.*|    pub use alembic_content::alchemy::{Command, Rules, apply, base_library, randomise, HERO, hero_view, remember};|' \
      "$1/benches/benches/anchor_rows.rs"
  fi
  grep -q '^name = "anchor_rows"' "$1/benches/Cargo.toml" ||
    printf '\n[[bench]]\nname = "anchor_rows"\nharness = false\n' >>"$1/benches/Cargo.toml"
}
if [ -n "$anchor" ]; then
  anchor_rev="$(git rev-parse --short "$anchor^{commit}")"
  anchor_dir="$(mktemp -d)"
  git worktree add -q --detach "$anchor_dir/src" "$anchor_rev"
  add_anchor_rows "$anchor_dir/src"
  # Its own target directory: its dependencies are other versions of ours.
  anchor_target="$target/anchor-$anchor_rev"
  # By the binary's name: the crate that holds it was alembic-content at a1fc3a3 and
  # alembic-games at 9d0bad5.
  (cd "$anchor_dir/src" &&
    CARGO_TARGET_DIR="$anchor_target" cargo build --release --bin alembic-sim &&
    CARGO_TARGET_DIR="$anchor_target" cargo bench -p alembic-benches --bench history \
      --bench anchor_rows --no-run)
fi
if [ -n "$last" ]; then
  last_rev="$(git rev-parse --short "$last^{commit}")"
  last_dir="$(mktemp -d)"
  git worktree add -q --detach "$last_dir/src" "$last_rev"
  add_anchor_rows "$last_dir/src"
  last_target="$target/anchor-$last_rev"
  (cd "$last_dir/src" &&
    CARGO_TARGET_DIR="$last_target" cargo bench -p alembic-benches --bench anchor_rows --no-run)
fi
# Build first, so the start time below excludes compilation and stale results are older.
cargo bench -p alembic-benches --no-run
since="$(date +%s)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
$cmd 2>&1 | tee "$log"
anchor_args=()
if [ -n "$anchor" ]; then
  # The anchor's `apply` benchmark, then ours again: the two a minute apart. Its replay line
  # (the game's turns) is kept apart from ours.
  apply_filter="history/baseline_apply_without_hashing"
  (cd "$anchor_dir/src" &&
    CARGO_TARGET_DIR="$anchor_target" cargo bench -p alembic-benches --bench history -- \
      "$apply_filter" --warm-up-time 1 --measurement-time "$measure") 2>&1 |
    sed 's/^replay:/anchor replay:/' | tee -a "$log"
  cargo bench -p alembic-benches --bench history -- \
    "$apply_filter" --warm-up-time 1 --measurement-time "$measure" 2>&1 | tee -a "$log"
  anchor_args=(--anchor "$anchor_rev" --anchor-criterion "$anchor_target/criterion")
fi
# The rows beside last turn's code and the anchor (benches/benches/anchor_rows.rs): last
# turn's, the anchor's, then ours again, one after the other.
rows_args=(--warm-up-time 1 --measurement-time "$measure")
if [ -n "$last" ]; then
  (cd "$last_dir/src" &&
    CARGO_TARGET_DIR="$last_target" cargo bench -p alembic-benches --bench anchor_rows -- \
      "${rows_args[@]}") 2>&1 | tee -a "$log"
  anchor_args+=(--last "$last_rev" --last-criterion "$last_target/criterion")
fi
if [ -n "$anchor" ]; then
  (cd "$anchor_dir/src" &&
    CARGO_TARGET_DIR="$anchor_target" cargo bench -p alembic-benches --bench anchor_rows -- \
      "${rows_args[@]}") 2>&1 | tee -a "$log"
fi
if [ -n "$last$anchor" ]; then
  cargo bench -p alembic-benches --bench anchor_rows -- "${rows_args[@]}" 2>&1 | tee -a "$log"
fi
# Whole bot games per CPU second (a release build of the headless runner): the first of
# three rounds alone, and each seed's least CPU time of the three; the anchor's in the same
# rounds.
cargo build --release -p alembic-rl-sim --bin alembic-sim
sim_args=(--sim "$target/release/alembic-sim" --runs 3)
if [ -n "$anchor" ]; then
  sim_args+=(--anchor "$anchor_target/release/alembic-sim")
fi
python3 scripts/bot-rate.py "${sim_args[@]}" 2>&1 | tee -a "$log"
# The same games with the system allocator (each build without its default `mimalloc`
# feature), ours and the anchor's in the same rounds again: issue 56 asks for the rates with
# and without mimalloc. Their lines start "system-alloc".
cargo build --release -p alembic-rl-sim --no-default-features --bin alembic-sim
cp "$target/release/alembic-sim" "$target/release/alembic-sim-system"
cargo build --release -p alembic-rl-sim --bin alembic-sim
sim_args=(--sim "$target/release/alembic-sim-system" --runs 3)
if [ -n "$anchor" ]; then
  (cd "$anchor_dir/src" &&
    CARGO_TARGET_DIR="$anchor_target" cargo build --release --no-default-features --bin alembic-sim &&
    cp "$anchor_target/release/alembic-sim" "$anchor_target/release/alembic-sim-system")
  sim_args+=(--anchor "$anchor_target/release/alembic-sim-system")
fi
python3 scripts/bot-rate.py "${sim_args[@]}" 2>&1 | sed 's/^bot-rate/system-alloc bot-rate/' |
  tee -a "$log"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
# One field of the first processor in /proc/cpuinfo, for the table's header.
cpuinfo() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | head -1; }
python3 scripts/bench-table.py \
  --criterion "$target/criterion" --log "$log" --since "$since" \
  --readme benches/README.md --cmd "$cmd" \
  --date "$(date -u '+%Y-%m-%d %H:%M UTC')" "${anchor_args[@]}" \
  --host "$(cpuinfo 'model name'), family $(cpuinfo 'cpu family') model $(cpuinfo model)" \
  --load "$load_before at the start, $load_after at the end (1, 5, 15 min; $(nproc) cores)"
