#!/usr/bin/env bash
# The least and the median per-iteration time of one criterion benchmark, from its samples:
# the least is the reading a shared machine's neighbours can only add to.
#
#     scripts/bench-least.sh BENCH_BINARY FILTER [SAMPLES]
#
# BENCH_BINARY is a built bench (target/release/deps/alchemy-<hash>); FILTER picks the
# benchmarks, as criterion's. Run two builds' binaries alternately to compare them. The
# samples go to a scratch directory, not target/criterion.
set -euo pipefail
bin=$1
filter=$2
samples=${3:-30}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
CRITERION_HOME=$home "$bin" --bench --warm-up-time 1 --measurement-time 5 \
    --sample-size "$samples" "$filter" >/dev/null 2>&1
python3 - "$home" <<'PY'
import glob, json, statistics, sys
for f in sorted(glob.glob(sys.argv[1] + '/**/new/sample.json', recursive=True)):
    d = json.load(open(f))
    t = [x / i for x, i in zip(d['times'], d['iters'])]
    name = open(f.replace('sample.json', 'benchmark.json')).read()
    name = json.loads(name)['full_id']
    print(f"{name}: least {min(t) / 1e3:.2f} µs, median {statistics.median(t) / 1e3:.2f} µs")
PY
