#!/usr/bin/env bash
# Run every benchmark of alembic-benches once, then whole bot games per CPU second
# (scripts/bot-rate.py --runs 3), and regenerate the table in benches/README.md (date, load
# average, command, each bar against its same-run baseline, and which bars are met).
#
#   scripts/bench-table.sh            # --measurement-time 3
#   MEASURE=2 scripts/bench-table.sh  # shorter
set -euo pipefail
cd "$(dirname "$0")/.."
measure="${MEASURE:-3}"
cmd="cargo bench -p alembic-benches -- --warm-up-time 1 --measurement-time $measure"
target="${CARGO_TARGET_DIR:-target}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Build first, so the start time below excludes compilation and stale results are older.
cargo bench -p alembic-benches --no-run
since="$(date +%s)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
$cmd 2>&1 | tee "$log"
# Whole bot games per CPU second (a release build of the headless runner): the first of
# three rounds alone, and each seed's least CPU time of the three.
cargo build --release -p alembic-games --bin alembic-sim
python3 scripts/bot-rate.py --sim "$target/release/alembic-sim" --runs 3 2>&1 | tee -a "$log"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
python3 scripts/bench-table.py \
  --criterion "$target/criterion" --log "$log" --since "$since" \
  --readme benches/README.md --summary README.md --cmd "$cmd" \
  --date "$(date -u '+%Y-%m-%d %H:%M UTC')" \
  --load "$load_before at the start, $load_after at the end (1, 5, 15 min; $(nproc) cores)"
