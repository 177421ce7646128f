#!/usr/bin/env bash
# The crates.io dry run: every publishable crate packages, and the packages build together
# from their tarballs alone (libraries and binaries), each path dependency resolved by name
# and version as crates.io would resolve it.
#
# `cargo package` on its own verifies the crates one at a time, each build selecting its
# own features of the shared dependencies, so it compiled the stack eleven times: eleven
# minutes of a CI run. Here `cargo package --no-verify` makes the tarballs, and one
# workspace of the unpacked tarballs, each standing in for its crates.io name
# (`[patch.crates-io]`), builds them all at once. The unpacked files are touched, so a build
# never takes them for the last run's.
#
# Usage: scripts/package-check.sh   (exit 0 = every crate packaged and built)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
target="${CARGO_TARGET_DIR:-$ROOT/target}"
crates=(alembic alembic-data alembic-ui alembic-session alembic-alchemy alembic-alchemy-ui
    alembic-caves alembic-rats alembic-games alembic-tui alembic-pixels)
selected=()
for c in "${crates[@]}"; do selected+=(-p "$c"); done
cargo package --no-verify "${selected[@]}"

check="$target/package-check"
rm -rf "$check"
mkdir -p "$check"
members=()
patches=()
for c in "${crates[@]}"; do
    version="$(cargo pkgid -p "$c")"
    version="${version##*[@#]}"
    tar --touch -xzf "$target/package/$c-$version.crate" -C "$check"
    members+=("\"$c-$version\"")
    patches+=("$c = { path = \"$c-$version\" }")
done
{
    echo "# Made by scripts/package-check.sh: the packaged crates, built from their tarballs."
    echo "[workspace]"
    echo "members = [$(IFS=,; echo "${members[*]}")]"
    echo 'resolver = "3"'
    echo
    echo "[profile.dev]"
    echo 'debug = "line-tables-only"'
    echo
    echo "[patch.crates-io]"
    printf '%s\n' "${patches[@]}"
} > "$check/Cargo.toml"
# The repository's lock file: the same versions of every dependency as the tests use.
cp Cargo.lock "$check/Cargo.lock"
cargo build --manifest-path "$check/Cargo.toml" --workspace --target-dir "$target"
echo "package-check: ${#crates[@]} crates packaged and built from their tarballs"
