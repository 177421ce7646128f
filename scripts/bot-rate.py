#!/usr/bin/env python3
"""Whole Alchemy bot games per CPU second: the issue-15 bar (>= 10,000 turns per CPU second
over seeds 1-10, release `alembic-sim`, explore policy).

    python3 scripts/bot-rate.py [--sim target/release/alembic-sim] [--seeds 1-10] [--runs 1]
                                [--policy explore|plan] [--anchor SIM]

Runs one `alembic-sim --game alchemy --seed N --turns 30000 --policy explore` per seed, one
after another, counts the turns each reports and the user + system CPU time the child
processes used (getrusage), and prints every seed's result line (outcome and final state
hash, to compare builds) and a summary line that scripts/bench-table.py reads:

    bot-rate: 75344 turns in 4.85 CPU s = 15535 turns per CPU second (seeds 1-10)

With `--runs N` (N > 1) it plays every seed N times, round after round (all seeds once, then
all again), checks that each replay of a seed reports the same result line, and also prints
the rate from each seed's least CPU time, the usual way to read a time on a shared machine
whose neighbours only ever add to it:

    bot-rate least of 3: 75344 turns in 3.01 CPU s = 25031 turns per CPU second (seeds 1-10)

The first line is still the first round alone. A second summary line gives the games won,
lost and still playing after 30,000 turns, and whole games per CPU second.

With `--anchor SIM` it also plays every seed with another build (the code an issue measured
its bar against), seed by seed in the same rounds (the anchor's game, then ours), and
prints its lines the same way, so the two rates come from the same minutes on the same
host:

    bot-rate anchor: 74305 turns in 3.67 CPU s = 20232 turns per CPU second (seeds 1-10)
    bot-rate anchor least of 3: 74305 turns in 3.66 CPU s = 20301 turns per CPU second (seeds 1-10)
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
    ap.add_argument("--runs", type=int, default=1,
                    help="play every seed this many times and also report each seed's least")
    ap.add_argument("--anchor", help="another alembic-sim to play in the same rounds")
    ap.add_argument("--policy", default="explore",
                    help="the bot's policy (explore, plan): the same for both builds")
    a = ap.parse_args()
    try:
        lo, hi = (int(x) for x in a.seeds.split("-", 1))
    except ValueError:
        print(f"bot-rate: --seeds wants a range such as 1-10, not {a.seeds!r}", file=sys.stderr)
        return 2
    if a.runs < 1:
        print(f"bot-rate: --runs wants at least 1, not {a.runs}", file=sys.stderr)
        return 2
    seeds = range(lo, hi + 1)
    sims = [("", a.sim)] + ([("anchor ", a.anchor)] if a.anchor else [])
    turns = {name: {} for name, _ in sims}
    lines = {name: {} for name, _ in sims}
    outcomes = {name: {} for name, _ in sims}
    cpu = {name: {seed: [] for seed in seeds} for name, _ in sims}
    for run in range(a.runs):
        for seed in seeds:
            # Each seed's anchor game, then ours: the two a few seconds apart.
            for name, sim in reversed(sims):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run(
                    [sim, "--game", "alchemy", "--seed", str(seed), "--turns", "30000",
                     "--policy", a.policy],
                    check=True, capture_output=True, text=True).stdout
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name][seed].append((after.ru_utime - before.ru_utime)
                                       + (after.ru_stime - before.ru_stime))
                line = out.strip().splitlines()[-1]
                if run == 0:
                    last = json.loads(line)
                    turns[name][seed] = int(last["turns"])
                    lines[name][seed] = line
                    outcomes[name][seed] = last["outcome"]
                    print(f"{name}seed {seed}: {last['turns']} turns, {last['outcome']}, "
                          f"hash {last['hash']}")
                elif line != lines[name][seed]:
                    print(f"bot-rate: {name}seed {seed} gave another game on run {run + 1}:\n"
                          f"  {lines[name][seed]}\n  {line}", file=sys.stderr)
                    return 1
    for name, _ in sims:
        total = sum(turns[name].values())
        first = sum(times[0] for times in cpu[name].values())
        print(f"bot-rate {name}".rstrip() + f": {total} turns in {first:.2f} CPU s = "
              f"{total / first:.0f} turns per CPU second (seeds {lo}-{hi})")
        won = sum(1 for o in outcomes[name].values() if o == "won")
        died = sum(1 for o in outcomes[name].values() if o == "died")
        n = len(outcomes[name])
        print(f"bot-rate {name}".rstrip() + f": won {won} of {n} ({100 * won / n:.0f}%), "
              f"died {died}, still playing {n - won - died}; {n / first:.2f} whole games "
              f"per CPU second (policy {a.policy})")
        if a.runs > 1:
            least = sum(min(times) for times in cpu[name].values())
            print(f"bot-rate {name}least of {a.runs}: {total} turns in {least:.2f} CPU s = "
                  f"{total / least:.0f} turns per CPU second (seeds {lo}-{hi})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
