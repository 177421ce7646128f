#!/usr/bin/env python3
"""Whole bot games' cost against their length and against the cunning monsters' search work:
what makes a long Alchemy game cost more per turn (issue 56).

    python3 scripts/bot-scaling.py [--sim target/release/alembic-sim] [--game alchemy]
                                   [--seeds 1-4] [--turns 1000,2000,4000,8000]
                                   [--policy explore]

Plays `alembic-sim --game G --seed N --turns T --policy P --work` for every seed and length,
one after another, and prints for each the turns played, the user + system CPU time the
child used (getrusage), the cunning monsters' searches and nodes (`--work`, Alchemy's
`rules::cunning::work`) and the CPU microseconds per turn. Then a least-squares fit over all
runs of

    CPU = a x turns + b x nodes

with the largest miss: a flat `a` and a fit that explains every run say the cost of a turn
does not grow with the game; what grows is the number of search nodes (fights with cunning
monsters, more of them deeper), each about one world step. A game with no searches (Caves,
Rats) fits `a` alone.
"""

import argparse
import json
import resource
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", default="target/release/alembic-sim")
    ap.add_argument("--game", default="alchemy")
    ap.add_argument("--seeds", default="1-4", help="an inclusive range such as 1-4")
    ap.add_argument("--turns", default="1000,2000,4000,8000", help="lengths, comma-separated")
    ap.add_argument("--policy", default="explore")
    a = ap.parse_args()
    try:
        lo, hi = (int(x) for x in a.seeds.split("-", 1))
        lengths = [int(x) for x in a.turns.split(",")]
    except ValueError:
        print("bot-scaling: --seeds wants a range such as 1-4, --turns numbers", file=sys.stderr)
        return 2
    runs = []
    print(f"{'seed':>4} {'--turns':>7} {'played':>6} {'CPU s':>6} {'searches':>8} "
          f"{'nodes':>7} {'us/turn':>7}")
    for seed in range(lo, hi + 1):
        for n in lengths:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(
                [a.sim, "--game", a.game, "--seed", str(seed), "--turns", str(n),
                 "--policy", a.policy, "--work"],
                check=True, capture_output=True, text=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            played = int(json.loads(p.stdout.strip().splitlines()[-1])["turns"])
            work = json.loads(p.stderr.strip().splitlines()[-1])
            runs.append((played, work["nodes"], cpu))
            print(f"{seed:>4} {n:>7} {played:>6} {cpu:>6.2f} {work['searches']:>8} "
                  f"{work['nodes']:>7} {1e6 * cpu / max(played, 1):>7.1f}")
    stt = sum(t * t for t, _, _ in runs)
    snn = sum(k * k for _, k, _ in runs)
    stn = sum(t * k for t, k, _ in runs)
    sty = sum(t * y for t, _, y in runs)
    sny = sum(k * y for _, k, y in runs)
    det = stt * snn - stn * stn
    if det > 0:
        per_turn = (sty * snn - sny * stn) / det
        per_node = (stt * sny - stn * sty) / det
    else:  # no searches: turns alone
        per_turn, per_node = sty / stt, 0.0
    miss = max(abs(y - per_turn * t - per_node * k) for t, k, y in runs)
    print(f"bot-scaling: CPU = {1e6 * per_turn:.1f} us x turns + {1e6 * per_node:.1f} us x "
          f"nodes, largest miss {miss:.2f} s over {len(runs)} runs ({a.game}, {a.policy})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
