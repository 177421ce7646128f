#!/usr/bin/env bash
# scripts/migrate-names.sh on two outside games: scripts/fixtures/migrate-0.1 (written
# against 0.1: root paths, the UI in the engine, keys by value, `set` in place, a "base"
# prototype, `run_app(Cellar::new(seed)?, |_| ())`) and scripts/fixtures/migrate-0.2early
# (early 0.2: `run_app(Treasure::new(Game::new(3))?, |_| ())`, Alchemy's flat crate root,
# the old package names). Each is copied to a scratch directory, migrated, migrated again
# (which must change nothing), then tested against this repository's crates: the copy's
# Cargo.toml gets a `[patch.crates-io]` naming every publishable package by path, so the
# dependency lines the script wrote (`alembic = { package = "alembic-rl", version = "0.2" }`)
# resolve as they will on crates.io, and the workspace's profiles, so the shared target
# directory's build of the stack is reused.
#
# Usage: scripts/migrate-test.sh   (exit 0 = both migrated, built and passed their tests)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
target="${CARGO_TARGET_DIR:-$ROOT/target}"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/migrate-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# `name = { path = "…" }` for every publishable package of the workspace.
patches=$(cargo metadata --no-deps --format-version 1 --offline | python3 -c '
import json, os, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] is None or p["publish"]:
        print("%s = { path = \"%s\" }" % (p["name"], os.path.dirname(p["manifest_path"])))
')

failed=0
for fixture in scripts/fixtures/migrate-0.1 scripts/fixtures/migrate-0.2early; do
    name=$(basename "$fixture")
    copy="$scratch/$name"
    cp -r "$fixture" "$copy"
    echo "== $name: scripts/migrate-names.sh"
    (cd "$copy" && bash "$ROOT/scripts/migrate-names.sh" 2>&1)
    diff -ru "$fixture" "$copy" >"$scratch/$name.diff" || true
    if ! [ -s "$scratch/$name.diff" ]; then
        echo "FAIL: $name: the script changed nothing"
        failed=$((failed + 1))
        continue
    fi
    grep -E '^[-+][^-+]' "$scratch/$name.diff" | sed 's/^/    /' || true
    cp -r "$copy" "$scratch/$name.once"
    (cd "$copy" && bash "$ROOT/scripts/migrate-names.sh" 2>/dev/null)
    if ! diff -r "$scratch/$name.once" "$copy" >/dev/null; then
        echo "FAIL: $name: a second run changed the migrated code again"
        failed=$((failed + 1))
        continue
    fi
    {
        echo
        echo "# Added by scripts/migrate-test.sh: this repository's crates under their crates.io names."
        echo "[patch.crates-io]"
        echo "$patches"
        echo
        sed -n '/^\[profile\./,$p' Cargo.toml
    } >>"$copy/Cargo.toml"
    cp Cargo.lock "$copy/Cargo.lock"
    echo "== $name: cargo test (against the workspace's crates)"
    if cargo test --offline --color never --manifest-path "$copy/Cargo.toml" --target-dir "$target" 2>&1 \
        | tee "$scratch/$name.log" | grep -E '^(test |error|warning: unused)|test result'; [ "${PIPESTATUS[0]}" -eq 0 ]; then
        echo "ok: $name migrated, built and passed its tests"
    else
        tail -n 40 "$scratch/$name.log"
        echo "FAIL: $name does not build or pass its tests after the migration"
        failed=$((failed + 1))
    fi
done
if ((failed)); then
    echo "migrate-test: $failed of 2 fixtures failed"
    exit 1
fi
echo "migrate-test: both fixtures migrated, built and passed their tests"
