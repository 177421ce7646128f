#!/usr/bin/env python3
"""Write the benchmark table of benches/README.md from one criterion run.

Called by scripts/bench-table.sh, which runs the benches; reads criterion's JSON estimates
(only those written by this run) and the figures the benches print (bytes per version,
per Game::set, per kept turn), and replaces the text between the markers
<!-- bench-table:start --> and <!-- bench-table:end --> in benches/README.md.
"""

import argparse
import json
import os
import re
import sys

# What the anchor (see scripts/bench-table.sh) measured when issue 32 set its rate bars: its
# own table (benches/README.md at a1fc3a3, run of 2026-11-25 14:18 UTC). Bot games: 15,246
# turns per CPU second (the issue quotes 15,133 from another run of the same code); `apply`
# alone: seed 2's 9,783 turns in 266.94 ms.
ON_RECORD = {
    "a1fc3a3": {"bot_rate": 15246.0, "apply_rate": 9783 / 0.26694},
}

# Anchors whose rate bars are ratios in the same rounds (issue 56: whole bot games and `apply`
# at least 2.0x today's main when the issue was filed, 9d0bad5), with no figure on record.
RATIO_BARS = {
    "9d0bad5": (2.0, "today's main when issue 56 was filed, on this host in the same rounds"),
}

START = "<!-- bench-table:start -->"
END = "<!-- bench-table:end -->"
# The bars alone, in the top-level README (--summary).
BARS_START = "<!-- bench-bars:start -->"
BARS_END = "<!-- bench-bars:end -->"


def replace_block(path, start, end, block):
    """Replace the text between the markers `start` and `end` in `path` with `block` (which
    holds the markers); append it when the markers are missing."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if start in text and end in text:
        text = text[: text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def results(criterion_dir, since):
    """full_id -> nanoseconds (criterion's slope when linear sampling, else its mean)."""
    out = {}
    for root, _dirs, files in os.walk(criterion_dir):
        if os.path.basename(root) != "new" or "estimates.json" not in files:
            continue
        est = os.path.join(root, "estimates.json")
        if os.path.getmtime(est) < since:
            continue
        with open(os.path.join(root, "benchmark.json")) as f:
            meta = json.load(f)
        with open(est) as f:
            e = json.load(f)
        ns = (e.get("slope") or {}).get("point_estimate") or e["mean"]["point_estimate"]
        out[meta["full_id"]] = ns
    return out


def printed(log):
    """Figures the benches print to stdout."""
    figs = {}
    pats = {
        "grid_version_bytes": r"memory: 1,000 one-cell versions: (\d+) bytes",
        "grid_memory_ratio": r"memory: Grid<u16> first version \d+ bytes = ([\d.]+)x",
        "set_bytes": r"memory: Game::set kept (\d+) bytes",
        "move_bytes": r"memory: Game::move_thing on a mostly empty level kept (\d+) bytes",
        "move_dense_bytes": r"memory: Game::move_thing with a thing on every cell kept (\d+) bytes",
        "history_bytes": r"history: \d+ turns kept: (\d+) B per kept turn",
        "bot_rate": r"(?m)^bot-rate: \d+ turns in [\d.]+ CPU s = (\d+) turns per CPU second",
        "bot_rate_least": r"(?m)^bot-rate least of \d+: \d+ turns in [\d.]+ CPU s = (\d+) turns per CPU",
        "anchor_bot_rate": r"(?m)^bot-rate anchor: \d+ turns in [\d.]+ CPU s = (\d+) turns per CPU",
        "anchor_bot_rate_least":
            r"(?m)^bot-rate anchor least of \d+: \d+ turns in [\d.]+ CPU s = (\d+) turns per CPU",
        "system_bot_rate_least":
            r"system-alloc bot-rate least of \d+: \d+ turns in [\d.]+ CPU s = (\d+) turns per CPU",
        "anchor_system_bot_rate_least":
            r"system-alloc bot-rate anchor least of \d+: \d+ turns in [\d.]+ CPU s = (\d+) turns "
            r"per CPU",
        "replay_turns": r"(?m)^replay: a bot game of \d+ commands, (\d+) turns",
        "anchor_replay_turns": r"(?m)^anchor replay: a bot game of \d+ commands, (\d+) turns",
        "d2_version_bytes":
            r"memory: D2 anchor, 1,000 one-cell versions: (\d+) bytes",
        "lean_version_bytes":
            r"memory: lean D2, 1,000 one-cell versions: (\d+) bytes",
        "near_levels_bytes": r"memory: eleven levels near the origin: (\d+) bytes per one-cell",
        "far_levels_bytes": r"memory: eleven levels at ±100,000: (\d+) bytes per one-cell",
        "isolated_write_bytes_4000":
            r"memory: a persistent write among 4000 isolated cells: (\d+) bytes kept",
        "isolated_write_bytes_40000":
            r"memory: a persistent write among 40000 isolated cells: (\d+) bytes kept",
    }
    for key, pat in pats.items():
        m = re.search(pat, log)
        if m:
            figs[key] = float(m.group(1))
    return figs


def fmt_time(ns):
    if ns is None:
        return "n/a"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    return f"{ns:.1f} ns"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--criterion", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--since", type=float, required=True)
    ap.add_argument("--readme", required=True)
    ap.add_argument("--summary", help="another file (the top-level README) to get the bars alone")
    ap.add_argument("--cmd", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--load", required=True)
    ap.add_argument("--host", help="the processor, for the header")
    ap.add_argument("--anchor", help="the commit measured beside ours (scripts/bench-table.sh)")
    ap.add_argument("--anchor-criterion", help="the anchor's criterion directory")
    ap.add_argument("--last", help="last turn's code, whose anchor_rows ran beside ours")
    ap.add_argument("--last-criterion", help="last turn's code's criterion directory")
    a = ap.parse_args()

    r = results(a.criterion, a.since)
    with open(a.log, encoding="utf-8", errors="replace") as f:
        figs = printed(f.read())

    def t(full_id):
        return r.get(full_id)

    def ratio(x, y):
        vx, vy = t(x), t(y)
        return vx / vy if vx is not None and vy else None

    # (row, measured, baseline, why that baseline, ratio, bar, met, ratio to the flat `Vec`)
    rows = []
    # Why a row's baseline is the fair one, by kind of baseline.
    why_vec = "the limit: a flat `Vec`, compile-time strides, one bounds check"
    why_abs = ("none: an absolute bar (issue 32), met on one host and missed on another; "
               "not re-based yet")

    def why_for(base):
        """Why a baseline is the fair one, from its benchmark's name."""
        name = base.rsplit("/", 1)[-1]
        if name in ("flat_vec", "flat_vec_index_scan", "slice_sum"):
            return why_vec
        if name == "flat_map_same_work":
            return ("a flat `Vec` sized at run time with a default outside (issue 15): "
                    "not the bar")
        if "hashmap" in name:
            return "std `HashMap` doing the same lookup: the usual store for this data"
        if name in ("vec_by_id", "vec_bool"):
            return "a `Vec` indexed by id: the limit for a dense table"
        if base.startswith(("fov/", "astar/")):
            return "the established crate computing the same result (asserted in the setup)"
        if name == "near":
            return "the same levels near the origin, same run"
        if base.startswith(("turn/", "scaling/", "scaling on a generated level/")):
            return "the same turn without the extra work, same run"
        if base.startswith("arrival/"):
            return "the same game's next turn, same run: the arrival should cost nothing"
        if base.startswith("grid/isolated_set_4000/"):
            return "the same write among 4,000 isolated cells, same run"
        if name == "d2_anchor_set":
            return "the project's D2 one-cell set, same run"
        return "same run"

    def ratio_bar(name, ours, base, limit, why=None, vec=None):
        """A row with a bar (`limit`), or a reference row without one (`limit` None); `vec`,
        the flat `Vec` of the same work, for the distance to the limit."""
        why = why or why_for(base)
        q = ratio(ours, base)
        met = None if q is None or limit is None else q <= limit
        if vec is None and why_for(base) == why_vec:
            vec = base  # the baseline is the flat `Vec`: the ratio is the distance
        qv = ratio(ours, vec) if vec else None
        rows.append((name, f"{fmt_time(t(ours))} (`{ours}`)", f"{fmt_time(t(base))} (`{base}`)",
                     why, "n/a" if q is None else f"{q:.2f}×",
                     "reference, no bar" if limit is None else f"≤ {limit}×", met,
                     "—" if vec is None else ("n/a" if qv is None else f"{qv:.2f}×")))

    def fastest(*ids):
        """The fastest of `ids` in this run (the first when none was measured)."""
        measured = [i for i in ids if t(i) is not None]
        return min(measured, key=t) if measured else ids[0]

    def d2_bar(name, ours, d2s, vec, why):
        """Issue 56: at most the faster of the two D2s measured in this run, with the
        ratio to the flat `Vec` beside it."""
        ratio_bar(name, ours, fastest(*d2s), 1.0, why, vec)

    def abs_bar(name, ours, limit_ns, limit_text, base=None):
        v = t(ours)
        met = None if v is None else v <= limit_ns
        q = ratio(ours, base) if base else None
        rows.append((name, f"{fmt_time(v)} (`{ours}`)",
                     f"{fmt_time(t(base))} (`{base}`), not the bar" if base else "—", why_abs,
                     "—" if q is None else f"{q:.2f}×", limit_text, met, "—"))

    def fig_bar(name, key, limit, unit):
        """A printed figure against its bar, or a reference row without one (`limit` None)."""
        v = figs.get(key)
        met = None if v is None or limit is None else v <= limit
        rows.append((name, "n/a" if v is None else f"{v:.0f} {unit}", "—",
                     "none: bytes counted by the allocator, the same on any host"
                     if limit is not None else "—", "—",
                     "reference, no bar" if limit is None else f"≤ {limit:,} {unit}", met, "—"))

    def rate_bar(name, key, floor, unit):
        v = figs.get(key)
        met = None if v is None else v >= floor
        rows.append((name, "n/a" if v is None else f"{v:,.0f} {unit}", "—", why_abs, "—",
                     f"≥ {floor:,} {unit}", met, "—"))

    # Issue 56: every grid, layer and view random read, fresh and aged, at most the faster
    # of the two D2 layouts measured in the same run (`D2`, the project's, and `LeanD2`,
    # compile-time 8 × 8 chunks a level: benches/benches/grid.rs), in the same loop over the
    # same 4,096 cells; the flat `Vec`'s ratio beside it is the distance to the limit.
    g, lg, fs = "grid/random_get/", "grid/layer_random_get/", "grid/full_scan/"
    why_d2 = ("the faster of the two D2s in this run, same loop and cells: the best chunked "
              "persistent layout we could write, doing less than a `Grid`")
    why_d2_aged = ("the faster of the two D2s after the same 1,000 kept persistent writes, "
                   "same loop and cells")
    d2_bar("grid random get, terrain-like `Grid<u16>` just filled (`Grid::get`)",
           g + "grid", (g + "d2_anchor", g + "d2_lean"), g + "flat_vec", why_d2)
    d2_bar("grid random get, the same grid after 1,000 kept persistent writes",
           g + "grid_aged", (g + "d2_anchor_aged", g + "d2_lean_aged"), g + "flat_vec",
           why_d2_aged)
    d2_bar("grid random get through `GridView::get` (the view made once, outside the timing)",
           g + "grid_view", (g + "d2_anchor", g + "d2_lean"), g + "flat_vec", why_d2)
    d2_bar("layer random get (`LayerGrid::get`, 16-bit words) just filled",
           lg + "layer", (lg + "d2_anchor", lg + "d2_lean"), lg + "flat_vec",
           why_d2 + " (both D2s over `u64` cells)")
    d2_bar("layer random get after 1,000 kept persistent writes",
           lg + "layer_aged", (lg + "d2_anchor_aged", lg + "d2_lean_aged"), lg + "flat_vec",
           why_d2_aged + " (both D2s over `u64` cells)")
    why_scan = ("the faster of the two D2s' scans through their `get`, same loops: a scan "
                "through `get` is a random read in order")
    d2_bar("grid scan through `get`", fs + "grid_get_scan",
           (fs + "d2_anchor_get_scan", fs + "d2_lean_get_scan"), fs + "flat_vec_index_scan",
           why_scan)
    d2_bar("grid scan through `GridView::get` (the view made inside the timing)",
           fs + "grid_view_get_scan", (fs + "d2_anchor_get_scan", fs + "d2_lean_get_scan"),
           fs + "flat_vec_index_scan", why_scan)
    d2_bar("grid persistent one-cell set (the old version kept, the new one dropped)",
           "grid/persistent_set/grid_set",
           ("grid/persistent_set/d2_anchor_set", "grid/persistent_set/d2_lean_set"),
           "grid/persistent_set/flat_vec_clone_and_set",
           "the faster of the two D2s' one-cell persistent set: the same copy-on-write of "
           "one chunk and its pointers (the `Vec` column: a whole clone and set)")
    # The two D2s themselves, each against the flat `Vec` and the lean one against the
    # project's: what the bars above rest on. Reference rows.
    for grp, cells in ((g, "`u16`"), (lg, "`u64`")):
        for age, aged_text in (("", "just filled"), ("_aged", "after 1,000 kept writes")):
            for who, label in (("d2_anchor", "the project's D2"), ("d2_lean", "the lean D2")):
                ratio_bar(f"{label}, random get over {cells} cells, {aged_text}",
                          f"{grp}{who}{age}", f"{grp}flat_vec", None)
            ratio_bar(f"the lean D2 vs the project's D2, {cells} cells, {aged_text}",
                      f"{grp}d2_lean{age}", f"{grp}d2_anchor{age}", None,
                      "the other D2 in the same run")
    for who, label in (("d2_anchor", "the project's D2"), ("d2_lean", "the lean D2")):
        ratio_bar(f"{label}'s scan through its `get`", f"{fs}{who}_get_scan",
                  f"{fs}flat_vec_index_scan", None)
    # Issue 56's cell-index bar (the cell index at an empty cell at most 1.2× a terrain read
    # of the same cells, fresh and aged; its work is another item of the issue).
    ce = "grid/cell_index_empty_get/"
    for age, aged_text in (("", "fresh"), ("_aged", "after 1,000 kept `move_thing`s")):
        ratio_bar(f"cell index (`things().at`) at 4,096 empty cells of level 0, {aged_text}, "
                  f"vs `Grid::get` of the same cells (issue 56: ≤ 1.2×)",
                  f"{ce}things_at{age}", f"{ce}terrain_get", 1.2,
                  "a terrain read of the same cells in the same run: an empty cell should "
                  "cost no more")
    ratio_bar("cell index random read (`Game::things_at`, a thing on one cell in 4) vs a "
              "flat `Vec` of the cells' counts (issue 32: ≤ 1.5×)", "grid/cell_index_random_get/things_at",
              "grid/cell_index_random_get/flat_vec", 1.5)
    ratio_bar("cell index random read after 1,000 kept `move_thing`s vs the same flat `Vec` "
              "(issue 32: ≤ 1.5×)",
              "grid/cell_index_random_get/things_at_aged",
              "grid/cell_index_random_get/flat_vec", 1.5)
    ratio_bar("grid random get vs a flat `Vec` map sized at run time with a default outside", "grid/random_get/grid",
              "grid/random_get/flat_map_same_work", None)
    ratio_bar("grid persistent one-cell set vs the project's D2's (which copies the level's "
              "whole array of chunk pointers)", "grid/persistent_set/grid_set",
              "grid/persistent_set/d2_anchor_set", None)
    ratio_bar("the lean D2's persistent one-cell set vs the project's D2's",
              "grid/persistent_set/d2_lean_set", "grid/persistent_set/d2_anchor_set", None)
    fig_bar("the D2 anchor's one-cell version, bytes kept", "d2_version_bytes", None, "B")
    fig_bar("the lean D2's one-cell version, bytes kept", "lean_version_bytes", None, "B")
    # The same random reads on larger worlds (`bench_get_large`): 16 MiB of cells, beyond
    # L2, and 128 MiB, beyond L3. Whether the ratio to the flat `Vec` falls once reads wait
    # on memory. Reference rows, not bars.
    for size, where in (("16mib", "16 MiB of cells, beyond L2"),
                        ("128mib", "128 MiB of cells, beyond L3")):
        for who, label in (("grid", "grid random get (`Grid::get`)"),
                           ("d2_anchor", "the D2 anchor's random get")):
            ratio_bar(f"{label} on a large world ({where}) vs a flat `Vec<u16>` of it",
                      f"grid/random_get_{size}/{who}", f"grid/random_get_{size}/flat_vec", None)
    ratio_bar("grid native iterator (`iter_box(..).sum()`) vs slice sum",
              "grid/full_scan/grid_iter_box_sum", "grid/full_scan/slice_sum", 1.2)
    v = figs.get("grid_memory_ratio")
    rows.append(("grid memory, everything a dense `Grid<u16>` keeps, vs the flat `Vec<u16>`",
                 "n/a" if v is None else f"{v:.3f}×", "the flat `Vec<u16>`'s bytes",
                 "bytes counted by the allocator, the same on any host", "—", "≤ 1.1×",
                 None if v is None else v <= 1.1, "—"))
    fig_bar("grid one-cell version, bytes kept", "grid_version_bytes", 1000, "B")
    ratio_bar("40,000 isolated cells: read vs std `HashMap` (issue: was 13×; aim ≤ 3×)",
              "grid/isolated_get/grid", "grid/isolated_get/hashmap", 3)
    ratio_bar("eleven 71 × 51 levels at ±100,000: random read vs a std `HashMap` of the same "
              "cells (issue: far-away data must not cost 13× a `HashMap`; aim ≤ 3×)",
              "grid/far_levels_get/far", "grid/far_levels_get/far_hashmap", 3)
    ratio_bar("the same levels: random read at ±100,000 vs near the origin (issue: was 4×)",
              "grid/far_levels_get/far", "grid/far_levels_get/near", None)
    ratio_bar("the same levels: persistent set at ±100,000 vs near the origin (issue: was 3.5×)",
              "grid/far_levels_set/far", "grid/far_levels_set/near", None)
    fig_bar("the same levels near the origin: bytes kept per one-cell version",
            "near_levels_bytes", None, "B")
    fig_bar("the same levels at ±100,000: bytes kept per one-cell version (issue: was 1,936 B "
            "against 968 B near)", "far_levels_bytes", None, "B")
    ratio_bar("property read (`query`) vs `HashMap<id, struct>` field read",
              "things/property_read/game_query", "things/property_read/hashmap_field", 1.5)
    ratio_bar("property read (`query`), one shared prototype, vs a `Vec` indexed by id (issue 32: "
              "≤ 3×)", "things/property_read/game_query", "things/property_read/vec_by_id", 3)
    ratio_bar("property read (`query`), each thing its own table, vs `HashMap<id, struct>` field "
              "(issue 32: ≤ 1.5×)", "things/property_read_own_tables/game_query",
              "things/property_read_own_tables/hashmap_field", 1.5)
    ratio_bar("property read (`query`), each thing its own table, vs a `Vec` indexed by id "
              "(issue 32: ≤ 3×)", "things/property_read_own_tables/game_query",
              "things/property_read_own_tables/vec_by_id", 3)
    ratio_bar("`Game::is` vs a `Vec<bool>` read (issue 32: ≤ 2×)", "things/is/game_is",
              "things/is/vec_bool", 2)
    ratio_bar("`Game::is`, each thing its own table, vs a `Vec<bool>` read (issue 32: ≤ 2×)",
              "things/is_own_tables/game_is", "things/is_own_tables/vec_bool", 2)
    abs_bar("`Game::clone` after 1,000 commands (issue 32: ≤ 100 ns)",
            "things/clone/game_after_1000_commands", 100, "≤ 100 ns")
    ratio_bar("`query` with 5 modifiers vs the same sum over a `HashMap` record",
              "things/query_5_modifiers/game_query", "things/query_5_modifiers/hashmap_sum", 1.5)
    fig_bar("bytes kept per `Game::set` (10,000 things)", "set_bytes", 500, "B")
    fig_bar("bytes kept per `Game::move_thing` (10,000 things on a 400 × 400 level, one cell in "
            "16 occupied: most cells hold no things)", "move_bytes", 1024, "B")
    fig_bar("bytes kept per `Game::move_thing` (10,000 things, one on every cell of a 100 × 100 "
            "level)", "move_dense_bytes", None, "B")
    ratio_bar("FOV to a fresh `HashSet` vs bracket recursive (issue 3: ≤ 0.8×)",
              "fov/alembic-fresh-hashset", "fov/bracket-recursive", 0.8)
    ratio_bar("FOV to a reused `Vec` vs symmetric-shadowcasting (≤ 0.8×)",
              "fov/alembic-reused-vec", "fov/symmetric-shadowcasting", 0.8)
    ratio_bar("A*, reused workspace, vs `pathfinding` (≤ 0.8×)", "astar/alembic",
              "astar/pathfinding", 0.8)
    ratio_bar("A*, fresh workspace, vs `pathfinding` (≤ 0.8×)", "astar/alembic-fresh",
              "astar/pathfinding", 0.8)
    abs_bar("Alchemy turn, 1,000 rats on the hero's level", "scaling/1000 rats on the level",
            1e6, "≤ 1 ms", "scaling/hero alone")
    ratio_bar("Alchemy turn right after a terrain write vs the same turn without one (issue 32: "
              "no rebuild after a dig)", "turn/alchemy full turn after a terrain write",
              "turn/alchemy full turn (the game's second wait)", 1.1)
    ratio_bar("Alchemy turn, 10,000 rats on another level, vs the hero alone",
              "scaling/10000 rats off the level", "scaling/hero alone", 1.1)
    abs_bar("Alchemy turn, 10,000 rats on the hero's level (issue 32: ≤ 5 ms)",
            "scaling/10000 rats on the level", 5e6, "≤ 5 ms", "scaling/hero alone")
    fig_bar("history: bytes kept per bot turn (1,000 turns, seed 1; issue 32: ≤ 5 KiB)",
            "history_bytes", 5120, "B")
    fig_bar("history: the same bytes kept per bot turn (issue 56: ≤ 4 KiB)",
            "history_bytes", 4096, "B")
    # Issue 56's rows on the turn and the writes, each against the same run.
    abs_bar("Alchemy turn, 10,000 rats spread over a generated 300 × 150 rooms-and-corridors "
            "level (issue 56: ≤ 2.5 ms; Alchemy's own 71 × 51 levels hold 1,090)",
            "scaling on a generated level/10000 rats spread (300x150 bsp_dungeon)", 2.5e6,
            "≤ 2.5 ms", "scaling on a generated level/hero alone (300x150 bsp_dungeon)")
    ratio_bar("Alchemy turn right after 10,000 rats arrive on another level vs the game's next "
              "turn (issue 56: ≤ 1.1×)", "arrival/10000 rats off the level, first turn",
              "arrival/10000 rats off the level, second turn", 1.1)
    for how in ("persistent", "in_place"):
        ratio_bar(f"isolated-cell write ({how.replace('_', ' ')}) among 40,000 isolated cells vs "
                  f"among 4,000 (issue 56: a write that does not grow with the world; ≤ 1.1×)",
                  f"grid/isolated_set_40000/grid_{how}", f"grid/isolated_set_4000/grid_{how}",
                  1.1)
    # The bytes the same persistent writes keep: the work a write does, apart from the cache.
    for n in ("4000", "40000"):
        fig_bar(f"isolated-cell write (persistent) among {int(n):,} isolated cells, bytes kept "
                "per write (the path of the sparse store it copies)",
                f"isolated_write_bytes_{n}", None, "B")
    # What the same growth costs the usual store: std `HashMap` overwriting the same keys
    # in the same groups (its cache misses grow with the map too). A reference row.
    ratio_bar("std `HashMap` write among 40,000 keys vs among 4,000 (the same groups: how much "
              "of the growth above is the cache, not the layout)",
              "grid/isolated_set_40000/hashmap", "grid/isolated_set_4000/hashmap", None,
              "the same `HashMap` write among 4,000 keys, same run")
    # Issue 56's rows beside last turn's code (`a1fc3a3`) and the anchor (`9d0bad5`), one
    # source (benches/benches/anchor_rows.rs) built in each tree and run one after the other.
    others = []
    if a.last and a.last_criterion:
        others.append((a.last, "last turn's code", results(a.last_criterion, a.since)))
    if a.anchor and a.anchor_criterion:
        others.append((a.anchor, "today's main when issue 56 was filed",
                       results(a.anchor_criterion, a.since)))

    def beside(name, full_id, rev, who, theirs, limit):
        """Ours against another tree's run of the same benchmark in the same run."""
        ours, base = t(full_id), theirs.get(full_id)
        q = ours / base if ours is not None and base else None
        met = None if q is None or limit is None else q <= limit
        rows.append((name, f"{fmt_time(ours)} (`{full_id}`)",
                     f"{fmt_time(base)} (`{rev}`)",
                     f"{who} (`{rev}`), the same source built in its tree, run a minute before "
                     f"ours", "n/a" if q is None else f"{q:.2f}×",
                     "reference, no bar" if limit is None else f"≤ {limit}×", met, "—"))

    ar = "anchor_rows/"
    for rev, who, theirs in others:
        is_last = rev == a.last
        beside(f"persistent `Game::set` on a thing with its own 28-property table (10,000 "
               f"such things) vs {who}" +
               (" (issue 56: at least as fast as last turn's code)" if is_last else ""),
               ar + "own_table_set/game_set_persistent", rev, who, theirs,
               1.0 if is_last else None)
        beside(f"Alchemy turn right after 10,000 rats arrive on another level vs the same turn "
               f"of {who}", ar + "arrival/first_turn", rev, who, theirs, None)
        beside(f"the first turn of a game that never took one, with 10,000 rats on another "
               f"level (the fixture of the figure issue 56 quotes), vs the same turn of {who}",
               ar + "arrival/first_turn_ever", rev, who, theirs, None)
    ratio_bar("the same first turn after the arrival vs the game's next turn, in this file "
              "(the `arrival` group's bar: ≤ 1.1×)", ar + "arrival/first_turn",
              ar + "arrival/second_turn", 1.1,
              "the same game's next turn, same run: the arrival should cost nothing")
    ratio_bar("the first turn of a game that never took one, with 10,000 rats on another level "
              "(every level awake until then: the turn puts theirs to sleep), vs the next turn "
              "of a game in play with the same rats (issue 56's figure, 0.85–1.3 ms, is this "
              "turn; bar ≤ 1.1×)", "arrival/10000 rats off the level, first turn ever",
              "arrival/10000 rats off the level, second turn", 1.1,
              "the same rats' next turn in a game in play, same run")
    rate_bar("whole Alchemy bot games, seeds 1–10, the first round alone (`scripts/bot-rate.py"
             " --runs 3`, release `alembic-sim`; issue 32: ≥ 25,000)", "bot_rate", 25000,
             "turns per CPU second")
    rate_bar("whole Alchemy bot games, seeds 1–10, each seed's least CPU time of the three "
             "rounds (the same run; issue 32: ≥ 25,000)", "bot_rate_least", 25000,
             "turns per CPU second")
    # The time-travel bars (history, undo, replays) that the top-level README quotes.
    abs_bar("history: one undo plus one redo, values held (≤ 1 µs each)", "history/undo_then_redo",
            2000, "≤ 2 µs", "history/baseline_vec_index_clone_x2")
    replay_ns = t("history/replay_verify_whole_game")
    if figs.get("replay_turns") and replay_ns:
        figs["replay_rate"] = figs["replay_turns"] / (replay_ns / 1e9)
    rate_bar("history: replay and verify a whole bot game (seed 2), turns replayed per second "
             "(`history/replay_verify_whole_game`; `history/baseline_apply_without_hashing` "
             "is the same commands applied without hashing)", "replay_rate", 20000,
             "turns per second")

    apply_ns = t("history/baseline_apply_without_hashing")
    if figs.get("replay_turns") and apply_ns:
        figs["apply_rate"] = figs["replay_turns"] / (apply_ns / 1e9)
    rate_bar("the engine's `apply` alone: seed 2's bot game applied without hashing, turns per "
             "second (`history/baseline_apply_without_hashing`; issue 32: ≥ 60,000)",
             "apply_rate", 60000, "turns per second")

    # The same two rates as ratios to the anchor's on this host, against the ratio each bar
    # asks of the anchor's figure on record.
    if a.anchor and a.anchor_criterion:
        rec = next((v for k, v in ON_RECORD.items()
                    if a.anchor.startswith(k) or k.startswith(a.anchor)), None)
        anchor_apply = results(a.anchor_criterion, a.since).get(
            "history/baseline_apply_without_hashing")
        if figs.get("anchor_replay_turns") and anchor_apply:
            figs["anchor_apply_rate"] = figs["anchor_replay_turns"] / (anchor_apply / 1e9)

        same_rounds = next((v for k, v in RATIO_BARS.items()
                            if a.anchor.startswith(k) or k.startswith(a.anchor)), None)

        def anchor_bar(name, key, rec_key, bar):
            ours, theirs = figs.get(key), figs.get("anchor_" + key)
            if same_rounds:
                want, why = same_rounds
                bar_text = f"≥ {want:.1f}× (issue 56)"
            else:
                want = bar / rec[rec_key] if rec else None
                why = "the code issue 32 measured, on this host in the same rounds"
                bar_text = (None if want is None else
                            f"≥ {want:.2f}× ({bar:,} / {rec[rec_key]:,.0f})")
            q = ours / theirs if ours and theirs else None
            met = None if q is None or want is None else q >= want
            # An anchor with no bar gives a reference row: no bar to meet.
            rows.append((name, "n/a" if ours is None else f"{ours:,.0f}",
                         "n/a" if theirs is None else f"{theirs:,.0f} (`{a.anchor}`)",
                         why, "n/a" if q is None else f"{q:.2f}×",
                         "reference, no bar" if want is None else bar_text, met, "—"))

        whose = ("today's main when issue 56 was filed" if same_rounds
                 else "the code issue 32 measured")

        def bar_of(floor):
            """How the rate's bar is set: a ratio in the same rounds, or the issue's `floor`
            over the anchor's figure on record."""
            if same_rounds:
                return f"issue 56's bar is {same_rounds[0]:.1f}× it"
            return f"the bar is the issue's {floor:,} over that code's figure on record"

        anchor_bar(f"whole Alchemy bot games, turns per CPU second, the first round, against "
                   f"{whose} (`{a.anchor}`) in the same round; {bar_of(25000)}", "bot_rate", "bot_rate",
                   25000)
        anchor_bar("the same games, each seed's least CPU time of the three rounds, ours and "
                   "the anchor's", "bot_rate_least", "bot_rate", 25000)
        anchor_bar("the same games with the system allocator (both builds without their default "
                   "`mimalloc` feature), each seed's least CPU time of three more rounds, ours and "
                   "the anchor's", "system_bot_rate_least", "bot_rate", 25000)
        mi, sy = figs.get("bot_rate_least"), figs.get("system_bot_rate_least")
        if mi and sy:
            rows.append(("our whole bot games with mimalloc (the `alembic-sim` default) vs the "
                         "system allocator, each seed's least CPU time of three rounds",
                         f"{mi:,.0f}", f"{sy:,.0f} (system allocator)",
                         "the same build without its `mimalloc` feature, its rounds a few "
                         "minutes after ours", f"{mi / sy:.2f}×", "reference, no bar", None,
                         "—"))
        anchor_bar(f"the engine's `apply` alone, turns per second, against the same code's "
                   f"`apply` benchmark a minute before ours; {bar_of(60000)}", "apply_rate",
                   "apply_rate", 60000)

    host = f" on {a.host}" if a.host else ""
    head = [f"Generated by `scripts/bench-table.sh` on {a.date}{host}; load average {a.load}; "
            f"command: `{a.cmd}`, then `scripts/bot-rate.py --runs 3`. Ratios are to a baseline "
            f"measured in the same run; the machine is shared, so absolute times drift more "
            f"than ratios.", ""]
    head.append("The grid, layer and view random reads (fresh and aged), the scans through `get` "
                "and the one-cell persistent set have as their bar at most the faster of the two "
                "D2 layouts measured in this run (issue 56: the project's `D2` and the lean "
                "`LeanD2` of `benches/benches/grid.rs`, same loop, same cells); the last column "
                "is each row's ratio to the flat `Vec` of the same work, the distance to the "
                "limit. Rows marked as absolute are issue 32's bars, not re-based yet.")
    head.append("")
    barred = [row for row in rows if row[5] != "reference, no bar"]
    met = sum(1 for row in barred if row[6])
    missed = [row[0] for row in rows if row[6] is False]
    head.append(f"**Bars met: {met} of {len(barred)}.**" +
                (" Missed: " + "; ".join(missed) + "." if missed else ""))
    head.append("")
    head.append("| row | measured | same-run baseline | why that baseline | ratio | bar | "
                "met | ratio to the flat `Vec` |")
    head.append("|---|---:|---:|---|---:|---:|:---:|---:|")
    for name, m, b, why, q, lim, ok, qv in rows:
        head.append(f"| {name} | {m} | {b} | {why} | {q} | {lim} | "
                    f"{'—' if ok is None else ('met' if ok else '**missed**')} | "
                    f"{qv} |")
    head.append("")
    lines = [START, ""] + head
    lines.append("Every benchmark of the run (criterion's estimate per iteration):")
    lines.append("")
    lines.append("| benchmark | time |")
    lines.append("|---|---:|")
    for k in sorted(r):
        lines.append(f"| `{k}` | {fmt_time(r[k])} |")
    lines.append("")
    lines.append(END)
    table = "\n".join(lines)
    replace_block(a.readme, START, END, table)
    if a.summary:
        replace_block(a.summary, BARS_START, BARS_END, "\n".join([BARS_START, ""] + head + [BARS_END]))
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
