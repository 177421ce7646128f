#!/usr/bin/env python3
"""The public API of a crate as plain lines, and a comparison of two such listings.

    api-check.py list CRATE.json            print the public API of a rustdoc JSON file
    api-check.py compare OLD.txt NEW.txt    exit 1 if NEW breaks OLD; print what changed

`list` reads the JSON that `cargo +nightly rustdoc --lib -- -Z unstable-options
--output-format json` writes, walks the crate from its root through public modules and
re-exports, and prints one line per public item, with its full signature: modules,
structs and their public fields, enums and variants, traits and their items, functions
and every public method of an inherent impl, constants, statics, type aliases, macros, and
each trait a public type implements (auto traits and blanket impls are left out). An item
that is `#[deprecated]` in the source ends in `  #deprecated`.

`compare` says an item of OLD is *broken* when NEW has no line equal to it (removed, or
its signature changed), unless OLD already marked it deprecated: the project's rule is
that a public item goes away only after one minor release as a deprecated item (see
CHANGELOG.md). Items new in NEW are listed as additions. A line of OLD may be
acknowledged by an `--allow FILE` whose lines are `<the OLD line>  # why` (a break the
changelog documents with its migration); an acknowledged line that no longer breaks
anything is reported, so the file cannot go stale.

It also prints "enum E is exhaustive" and "struct S is constructible" (every field
public, not `#[non_exhaustive]`), so that making either non-exhaustive counts as a break.

What it does not see (cargo-semver-checks does): auto traits (Send, Sync), a type's
layout, a trait becoming unimplementable, and bounds in where clauses beyond their text.
"""

import json
import sys


def type_str(t, krate):
    """Render a rustdoc JSON type as Rust-like text, each named type by its name (see
    `path_str`), so neither `use` style nor a move behind a re-export changes the listing."""
    if t is None:
        return "()"
    if isinstance(t, str):
        return t
    (kind, v), = t.items()
    if kind == "resolved_path":
        return path_str(v, krate)
    if kind == "generic" or kind == "primitive":
        return v
    if kind == "borrowed_ref":
        mut = "mut " if v["is_mutable"] else ""
        return f"&{mut}{type_str(v['type'], krate)}"
    if kind == "raw_pointer":
        return f"*{'mut' if v['is_mutable'] else 'const'} {type_str(v['type'], krate)}"
    if kind == "tuple":
        inner = ", ".join(type_str(x, krate) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if kind == "slice":
        return f"[{type_str(v, krate)}]"
    if kind == "array":
        return f"[{type_str(v['type'], krate)}; {v['len']}]"
    if kind == "impl_trait":
        return "impl " + " + ".join(bound_str(b, krate) for b in v)
    if kind == "dyn_trait":
        traits = " + ".join(path_str(p["trait"], krate) for p in v["traits"])
        return f"dyn {traits}"
    if kind == "function_pointer":
        sig = v["sig"]
        ins = ", ".join(type_str(x[1], krate) for x in sig["inputs"])
        return f"fn({ins}) -> {type_str(sig['output'], krate)}"
    if kind == "qualified_path":
        tr = f" as {path_str(v['trait'], krate)}" if v.get("trait") else ""
        return f"<{type_str(v['self_type'], krate)}{tr}>::{v['name']}"
    if kind == "infer":
        return "_"
    return f"<{kind}>"


def path_str(p, krate):
    """A type or trait named in a signature, by its name alone: a type that moves to another
    module and stays re-exported where it was breaks no caller, and its own line (listed at
    every public path) says whether it is still there."""
    name = p.get("path") or p.get("name") or "?"
    summary = krate["paths"].get(str(p.get("id")))
    if summary:
        name = summary["path"][-1]
    return name.rsplit("::", 1)[-1] + args_str(p.get("args"), krate)


def args_str(args, krate):
    if not args:
        return ""
    if "angle_bracketed" in args:
        ab = args["angle_bracketed"]
        parts = []
        for a in ab.get("args", []):
            if "type" in a:
                parts.append(type_str(a["type"], krate))
            elif "const" in a:
                parts.append(str(a["const"].get("expr", "_")))
            # lifetimes are left out: eliding or naming one breaks no caller
        for c in ab.get("constraints", []):
            binding = c.get("binding", {})
            if "equality" in binding:
                eq = binding["equality"]
                val = type_str(eq["type"], krate) if "type" in eq else str(eq)
                parts.append(f"{c['name']} = {val}")
            elif "constraint" in binding:
                parts.append(f"{c['name']}: " + " + ".join(bound_str(b, krate) for b in binding["constraint"]))
        return f"<{', '.join(parts)}>" if parts else ""
    if "parenthesized" in args:
        pa = args["parenthesized"]
        ins = ", ".join(type_str(x, krate) for x in pa["inputs"])
        out = f" -> {type_str(pa['output'], krate)}" if pa.get("output") else ""
        return f"({ins}){out}"
    return ""


def bound_str(b, krate):
    if "trait_bound" in b:
        tb = b["trait_bound"]
        mod = "?" if tb.get("modifier") == "maybe" else ""
        return mod + path_str(tb["trait"], krate)
    if "outlives" in b:
        return b["outlives"]
    if "use" in b:
        return "use<..>"
    return "?"


def generics_str(g, krate):
    params = []
    for p in g.get("params", []):
        k = p["kind"]
        if "type" in k:
            if k["type"].get("is_synthetic"):
                continue  # `impl Trait` in argument position: shown in the argument's type
            bounds = k["type"].get("bounds", [])
            b = ": " + " + ".join(bound_str(x, krate) for x in bounds) if bounds else ""
            params.append(p["name"] + b)
        elif "const" in k:
            params.append(f"const {p['name']}: {type_str(k['const']['type'], krate)}")
    wheres = []
    for w in g.get("where_predicates", []):
        if "bound_predicate" in w:
            bp = w["bound_predicate"]
            bounds = " + ".join(bound_str(x, krate) for x in bp["bounds"])
            wheres.append(f"{type_str(bp['type'], krate)}: {bounds}")
    s = f"<{', '.join(params)}>" if params else ""
    if wheres:
        s += " where " + ", ".join(wheres)
    return s


def fn_str(name, f, krate):
    sig = f["sig"]
    h = f.get("header", {})
    pre = "".join(w for w, on in (("const ", h.get("is_const")), ("async ", h.get("is_async")),
                                  ("unsafe ", h.get("is_unsafe"))) if on)
    ins = []
    for arg_name, t in sig["inputs"]:
        if arg_name == "self":
            ins.append("self: " + type_str(t, krate))
        else:
            ins.append(type_str(t, krate))
    out = sig.get("output")
    ret = f" -> {type_str(out, krate)}" if out is not None else ""
    g = f.get("generics", {})
    gs = generics_str(g, krate)
    where = ""
    if " where " in gs:
        gs, where = gs.split(" where ", 1)
        where = " where " + where
    return f"{pre}fn {name}{gs}({', '.join(ins)}){ret}{where}"


def non_exhaustive(item):
    return any("non_exhaustive" in str(a) for a in item.get("attrs") or [])


class Lister:
    def __init__(self, krate):
        self.k = krate
        self.index = krate["index"]
        self.lines = set()
        self.seen_types = set()
        self.seen_modules = set()

    def emit(self, item, text):
        if item.get("deprecation") is not None:
            text += "  #deprecated"
        self.lines.add(text)

    def item(self, iid):
        return self.index.get(str(iid))

    def walk_module(self, mid, path):
        key = (mid, path)
        if key in self.seen_modules:
            return
        self.seen_modules.add(key)
        m = self.item(mid)
        for cid in m["inner"]["module"]["items"]:
            c = self.item(cid)
            if c is None:
                continue
            self.public_item(c, path)

    def public_item(self, c, path, name=None, via_use_deprecation=None):
        inner = c["inner"]
        (kind, v), = inner.items()
        if kind == "use":
            if c["visibility"] != "public":
                return
            target = self.item(v["id"]) if v.get("id") is not None else None
            if v.get("is_glob"):
                if target and "module" in target["inner"]:
                    for cid in target["inner"]["module"]["items"]:
                        t = self.item(cid)
                        if t is not None:
                            self.public_item(t, path)
                elif target and "enum" in target["inner"]:
                    pass  # `pub use Enum::*`: the variants are listed with the enum
                else:
                    self.lines.add(f"use {path}::{v['source']}::*")
                return
            if target is None:
                # a re-export of another crate's item
                self.lines.add(f"use {path}::{v['name']} = {v['source']}")
                return
            self.public_item(target, path, name=v["name"])
            return
        if c["visibility"] != "public":
            return
        name = name or c["name"]
        full = f"{path}::{name}"
        if kind == "module":
            self.emit(c, f"mod {full}")
            self.walk_module(c["id"], full)
        elif kind == "struct":
            self.emit(c, f"struct {full}{generics_str(v['generics'], self.k)}")
            sk = v["kind"]
            fields, hidden = [], False
            if isinstance(sk, dict) and "plain" in sk:
                fields = sk["plain"]["fields"]
                hidden = sk["plain"].get("has_stripped_fields", False)
            elif isinstance(sk, dict) and "tuple" in sk:
                fields = [x for x in sk["tuple"] if x is not None]
                hidden = any(x is None for x in sk["tuple"])
            if not hidden and not non_exhaustive(c):
                # a struct literal outside the crate compiles only while this line holds
                self.lines.add(f"struct {full} is constructible")
            for fid in fields:
                f = self.item(fid)
                if f and f["visibility"] == "public":
                    self.emit(f, f"field {full}.{f['name']}: {type_str(f['inner']['struct_field'], self.k)}")
            self.impls(v["impls"], full)
        elif kind == "enum":
            self.emit(c, f"enum {full}{generics_str(v['generics'], self.k)}")
            if not non_exhaustive(c):
                # a match without a `_` arm compiles only while this line holds
                self.lines.add(f"enum {full} is exhaustive")
            for vid in v["variants"]:
                var = self.item(vid)
                vk = var["inner"]["variant"]["kind"]
                if vk == "plain" or (isinstance(vk, str)):
                    shape = ""
                elif "tuple" in vk:
                    shape = "(" + ", ".join(
                        type_str(self.item(f)["inner"]["struct_field"], self.k) if f is not None else "_"
                        for f in vk["tuple"]) + ")"
                else:
                    fs = [self.item(f) for f in vk["struct"]["fields"]]
                    shape = " { " + ", ".join(
                        f"{f['name']}: {type_str(f['inner']['struct_field'], self.k)}" for f in fs) + " }"
                self.emit(var, f"variant {full}::{var['name']}{shape}")
            self.impls(v["impls"], full)
        elif kind == "union":
            self.emit(c, f"union {full}")
            self.impls(v["impls"], full)
        elif kind == "trait":
            bounds = " + ".join(bound_str(b, self.k) for b in v.get("bounds", []))
            self.emit(c, f"trait {full}{generics_str(v['generics'], self.k)}"
                      + (f": {bounds}" if bounds else ""))
            for tid in v["items"]:
                t = self.item(tid)
                (tk, tv), = t["inner"].items()
                if tk == "function":
                    provided = " (provided)" if tv.get("has_body") else ""
                    self.emit(t, f"trait-item {full}::{fn_str(t['name'], tv, self.k)}{provided}")
                elif tk == "assoc_const":
                    self.emit(t, f"trait-item {full}::const {t['name']}: {type_str(tv['type'], self.k)}")
                elif tk == "assoc_type":
                    self.emit(t, f"trait-item {full}::type {t['name']}")
        elif kind == "function":
            self.emit(c, f"{full}: {fn_str(name, v, self.k)}")
        elif kind == "constant":
            self.emit(c, f"const {full}: {type_str(v['type'], self.k)}")
        elif kind == "static":
            self.emit(c, f"static {full}: {type_str(v['type'], self.k)}")
        elif kind == "type_alias":
            self.emit(c, f"type {full}{generics_str(v['generics'], self.k)} = {type_str(v['type'], self.k)}")
        elif kind in ("macro", "proc_macro"):
            self.emit(c, f"macro {full}")
        else:
            self.emit(c, f"{kind} {full}")

    def impls(self, impl_ids, full):
        for iid in impl_ids:
            imp = self.item(iid)
            if imp is None:
                continue
            v = imp["inner"]["impl"]
            if v.get("is_synthetic") or v.get("blanket_impl") is not None:
                continue
            if v.get("trait") is None:
                bounds = generics_str(v.get("generics", {}), self.k)
                on = f"  [impl{bounds}]" if bounds else ""
                for mid in v["items"]:
                    m = self.item(mid)
                    if m is None or m["visibility"] != "public":
                        continue
                    (mk, mv), = m["inner"].items()
                    if mk == "function":
                        self.emit(m, f"{full}::{fn_str(m['name'], mv, self.k)}{on}")
                    elif mk == "assoc_const":
                        self.emit(m, f"const {full}::{m['name']}: {type_str(mv['type'], self.k)}")
            else:
                neg = "!" if v.get("is_negative") else ""
                self.emit(imp, f"impl {neg}{path_str(v['trait'], self.k)} for {type_str(v['for'], self.k)}")


def listing(json_path):
    with open(json_path, encoding="utf-8") as f:
        krate = json.load(f)
    lister = Lister(krate)
    root = lister.item(krate["root"])
    lister.walk_module(krate["root"], root["name"])
    return sorted(lister.lines)


def compare(old_path, new_path, allow_path=None):
    def read(p):
        with open(p, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if line.strip()]

    old, new = read(old_path), read(new_path)
    dep = "  #deprecated"
    new_plain = {line.removesuffix(dep) for line in new}
    old_plain = {line.removesuffix(dep) for line in old}
    allowed = {}
    if allow_path:
        for line in read(allow_path):
            if line.startswith("#"):
                continue
            item, _, why = line.partition("  # ")
            allowed[item.rstrip()] = why
    broken, retired, acknowledged = [], [], []
    for line in old:
        plain = line.removesuffix(dep)
        if plain in new_plain:
            continue
        if line.endswith(dep):
            retired.append(plain)
        elif plain in allowed:
            acknowledged.append(plain)
        else:
            broken.append(plain)
    stale = sorted(a for a in allowed if a not in old_plain or a in new_plain)
    added = sorted(line for line in new if line.removesuffix(dep) not in old_plain)
    deprecated_now = sorted(line.removesuffix(dep) for line in new
                            if line.endswith(dep) and line.removesuffix(dep) + dep not in old)
    print(f"{len(old)} items before, {len(new)} now: {len(added)} added, "
          f"{len(deprecated_now)} deprecated since, {len(retired)} deprecated ones removed, "
          f"{len(acknowledged)} acknowledged breaks, {len(broken)} unacknowledged breaks")
    for line in broken:
        print(f"  BROKEN: {line}")
    for line in stale:
        print(f"  STALE ACKNOWLEDGEMENT (breaks nothing now): {line}")
    return 1 if broken or stale else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "list":
        for line in listing(argv[2]):
            print(line)
        return 0
    if len(argv) >= 4 and argv[1] == "compare":
        allow = None
        if len(argv) == 6 and argv[4] == "--allow":
            allow = argv[5]
        return compare(argv[2], argv[3], allow)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
