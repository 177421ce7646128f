#!/usr/bin/env python3
"""Whole Alchemy bot games per CPU second: the issue-15 bar (>= 10,000 turns per CPU second
over seeds 1-10, release `alembic-sim`, explore policy).

    python3 scripts/bot-rate.py [--sim target/release/alembic-sim] [--seeds 1-10]

Runs one `alembic-sim --game alchemy --seed N --turns 30000 --policy explore` per seed, one
after another, counts the turns each reports and the user + system CPU time the child
processes used (getrusage), and prints every seed's result line (outcome and final state
hash, to compare builds) and a summary line that scripts/bench-table.py reads:

    bot-rate: 75344 turns in 4.85 CPU s = 15535 turns per CPU second (seeds 1-10)
"""

import argparse
import json
import resource
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default="target/release/alembic-sim")
    ap.add_argument("--seeds", default="1-10", help="an inclusive range such as 1-10")
    a = ap.parse_args()
    try:
        lo, hi = (int(x) for x in a.seeds.split("-", 1))
    except ValueError:
        print(f"bot-rate: --seeds wants a range such as 1-10, not {a.seeds!r}", file=sys.stderr)
        return 2
    turns = 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for seed in range(lo, hi + 1):
        out = subprocess.run(
            [a.sim, "--game", "alchemy", "--seed", str(seed), "--turns", "30000",
             "--policy", "explore"],
            check=True, capture_output=True, text=True).stdout
        last = json.loads(out.strip().splitlines()[-1])
        turns += int(last["turns"])
        print(f"seed {seed}: {last['turns']} turns, {last['outcome']}, hash {last['hash']}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"bot-rate: {turns} turns in {cpu:.2f} CPU s = {turns / cpu:.0f} turns per CPU "
          f"second (seeds {lo}-{hi})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
