#!/usr/bin/env bash
# The Caves' balance over many seeds: the explore bot (which descends, fights what stands
# in its way and rests below 60% health) plays each seed to the end, and this prints the
# outcome counts, the turn distribution and where games were lost.
# Usage: scripts/caves-balance.sh [SEEDS]   (default 50; release build)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SEEDS="${1:-50}"
cargo build --release --quiet --manifest-path "$ROOT/Cargo.toml" -p alembic-rl-sim --bin alembic-sim
SIM="${CARGO_TARGET_DIR:-$ROOT/target}/release/alembic-sim"
for s in $(seq 1 "$SEEDS"); do "$SIM" --game caves --seed "$s" --turns 20000; done | python3 -c '
import json, statistics, sys
from collections import Counter
rs = [json.loads(l) for l in sys.stdin]
t = sorted(r["turns"] for r in rs)
q = statistics.quantiles(t, n=4)
print(f"{len(rs)} seeds: " + ", ".join(f"{n} {o}" for o, n in sorted(Counter(r["outcome"] for r in rs).items())))
print(f"turns: min {t[0]}, quartiles {q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f}, max {t[-1]}")
died = Counter(r["deepest"] for r in rs if r["outcome"] == "died")
print("lost on level: " + ", ".join(f"{d}: {n}" for d, n in sorted(died.items())))
print("causes: " + ", ".join(f"{c} {n}" for c, n in Counter(r["cause"] for r in rs).most_common()))
'
