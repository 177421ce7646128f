#!/usr/bin/env python3
"""Top functions by self time of a `perf record` (no call graph) of BINARY, for a `perf`
that cannot read the binary's symbols itself. The machine's perf 6.1 says "symsrc__init:
cannot get elf header" for the workspace's release binaries (it reads libc's) and
`perf report --sort symbol` lists bare addresses.

    perf record -F 4000 -o /tmp/x.data -- BINARY ARGS...
    python3 scripts/perf-top.py /tmp/x.data BINARY [N]

Reads `perf report --no-children --sort dso,symbol --stdio` (self time per sample address),
maps each unresolved address of BINARY (a file offset) to its virtual address through the
ELF LOAD segments and then to its function through `nm -C -n`, sums the percentages per
function and prints the top N (default 10).
"""
import bisect, re, subprocess, sys
from collections import defaultdict

data, binary = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10
loads = []
for line in subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if f and f[0] == "LOAD":
        loads.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
syms = []
for line in subprocess.run(["nm", "-C", "-n", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
    f = line.split(" ", 2)
    if len(f) == 3 and f[1] in "tTwW":
        syms.append((int(f[0], 16), re.sub(r"::h[0-9a-f]{16}$", "", f[2])))
addrs = [a for a, _ in syms]
def name(off):
    for o, v, sz in loads:
        if o <= off < o + sz:
            va = off - o + v
            i = bisect.bisect_right(addrs, va) - 1
            return syms[i][1] if i >= 0 else hex(off)
    return hex(off)
out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso,symbol",
                      "--stdio"], capture_output=True, text=True).stdout
tot = defaultdict(float)
base = binary.rsplit("/", 1)[-1][:15]
for line in out.splitlines():
    m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[(.)\]\s+(.*?)\s*$", line)
    if not m:
        continue
    pct, dso, _, sym = float(m.group(1)), m.group(2), m.group(3), m.group(4)
    sym = re.sub(r"\s+-\s+-\s*$", "", sym).strip()
    h = re.fullmatch(r"0x([0-9a-f]+)", sym)
    if h and base.startswith(dso[:15]):
        sym = name(int(h.group(1), 16))
    tot[sym] += pct
for sym, pct in sorted(tot.items(), key=lambda x: -x[1])[:n]:
    print(f"{pct:6.2f}%  {sym}")
