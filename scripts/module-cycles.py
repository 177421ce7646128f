#!/usr/bin/env python3
"""Module cycles in every crate of the workspace: which module of a crate names which other
module of the same crate (`crate::x`, `super::x`, and the modules a file's `use crate::{...}` group names), and
every cycle among them (a strongly connected set of more than one module, or a module of
`ui/` and the module it imports that imports it back).

Usage: scripts/module-cycles.py [CRATE_SRC_DIR ...]
       (default: the src of every member of the root Cargo.toml's workspace: the engine,
       the data and UI crates, the session, the games, the frontends, the benches)
Exits 1 when a crate has a cycle, printing each one; 0 otherwise.

A module is a file: `src/rules/combat.rs` is `rules::combat`, `src/ui/mod.rs` is `ui`. An
import names a module when its path, read from the crate root, starts with a module's path;
`crate::view::{a, b}` names `view`; `crate::{view, text::x}` names `view` and `text`. The
crate root (`lib.rs`) is left out: it only declares and re-exports.
"""
import os
import re
import sys
import tomllib


def modules(src):
    mods = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] == "mod":
                rel = rel[:-1]
            if rel in (["lib"], ["main"]) or rel[:1] == ["bin"]:
                continue
            mods["::".join(rel)] = path
    return mods


def strip_comments(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def group_items(s):
    """Top-level items of a `{...}` group's inside."""
    depth, start, out = 0, 0, []
    for i, c in enumerate(s):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(s[start:i])
            start = i + 1
    out.append(s[start:])
    return [o.strip() for o in out if o.strip()]


def paths_after(text, root):
    """Every path that follows `root::` in the text, groups expanded one level deep."""
    out = []
    for m in re.finditer(re.escape(root) + r"::", text):
        rest = text[m.end():]
        if rest.startswith("{"):
            depth, end = 0, 0
            for i, c in enumerate(rest):
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        end = i
                        break
            for item in group_items(rest[1:end]):
                out.append(re.match(r"[\w:]*", item).group(0))
        else:
            out.append(re.match(r"[\w:]*", rest).group(0))
    return out


def edges(src):
    mods = modules(src)
    names = sorted(mods, key=len, reverse=True)
    graph = {m: set() for m in mods}
    for m, path in mods.items():
        text = strip_comments(open(path, encoding="utf-8").read())
        # Test modules inside a file may reach anything; they are not the module's design.
        text = re.split(r"#\[cfg\(test\)\]", text)[0]
        # `super` is the module's parent: the crate root for `x.rs` and `x/mod.rs` alike,
        # `rules` for `rules/time.rs` (whose `super::ai` is its sibling `rules::ai`).
        parent = m.split("::")[:-1]
        candidates = [p for p in paths_after(text, "crate")]
        for p in paths_after(text, "super"):
            candidates.append("::".join(parent + [p]) if p else "::".join(parent))
        for p in candidates:
            for n in names:
                if (p == n or p.startswith(n + "::")) and n != m and not m.startswith(n + "::"):
                    graph[m].add(n)
                    break
    return graph


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def workspace_srcs(top):
    """The `src` directory of every workspace member that has one, in member order."""
    with open(os.path.join(top, "Cargo.toml"), "rb") as f:
        members = tomllib.load(f)["workspace"]["members"]
    return [
        os.path.join(top, m, "src") for m in members if os.path.isdir(os.path.join(top, m, "src"))
    ]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(here)
    dirs = sys.argv[1:] or workspace_srcs(top)
    bad = 0
    for d in dirs:
        g = edges(d)
        cyc = cycles(g)
        n_edges = sum(len(v) for v in g.values())
        name = os.path.relpath(d, top)
        if cyc:
            bad += 1
            print(f"{name}: {len(g)} modules, {n_edges} imports, {len(cyc)} cycle(s):")
            for c in cyc:
                inner = {m: sorted(x for x in g[m] if x in c) for m in c}
                print("  " + "; ".join(f"{m} -> {', '.join(t)}" for m, t in inner.items()))
        else:
            print(f"{name}: {len(g)} modules, {n_edges} imports, no cycle")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
