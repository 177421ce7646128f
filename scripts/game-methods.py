#!/usr/bin/env python3
"""Count `Game`'s own public inherent methods, deprecated ones left out.

Usage: scripts/game-methods.py [-v] [ENGINE_SRC]   (default: engine/src)

Reads every `impl Game {` block in the engine's source (a method of `Game` may be defined in
any module) and prints how many `pub fn`s they hold, and with -v each one as `file: name`.
A method marked `#[deprecated]` does not count: it is the old path of a method that moved,
kept one minor version for old code. The views' methods (`game.schedule().clock()`) are
methods of the views, not of `Game`.
"""
import os
import re
import sys


def methods(src):
    """(file, name, deprecated) for each `pub fn` directly inside an `impl Game {` block."""
    out = []
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            lines = open(path, encoding="utf-8").read().split("\n")
            i = 0
            while i < len(lines):
                if not re.match(r"^impl Game \{", lines[i]):
                    i += 1
                    continue
                depth, attrs = 1, []
                i += 1
                while i < len(lines) and depth > 0:
                    line, s = lines[i], lines[i].strip()
                    if depth == 1:
                        m = re.match(r"^    pub fn (\w+)", line)
                        if m:
                            dep = any("#[deprecated" in a for a in attrs)
                            out.append((os.path.relpath(path, src), m.group(1), dep))
                            attrs = []
                        elif line.startswith("    #") or (
                            attrs and (line.startswith("     ") or line.startswith("    )"))
                        ):
                            attrs.append(s)  # an attribute, or a line of a long one
                        elif line.startswith("    ///") or not s:
                            pass
                        else:
                            attrs = []
                    depth += line.count("{") - line.count("}")
                    i += 1
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    here = os.path.dirname(os.path.abspath(__file__))
    src = args[0] if args else os.path.join(os.path.dirname(here), "engine", "src")
    all_ms = methods(src)
    ms = [(f, m) for f, m, dep in all_ms if not dep]
    if "-v" in sys.argv:
        for f, m in ms:
            print(f"{f}: {m}")
    files = sorted({f for f, _ in ms})
    print(
        f"Game: {len(ms)} public methods in {len(files)} files ({', '.join(files)}); "
        f"{len(all_ms) - len(ms)} deprecated ones not counted"
    )


if __name__ == "__main__":
    main()
