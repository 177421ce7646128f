#!/usr/bin/env bash
# Build every binary and example of the workspace in one Cargo invocation: the profile
# `$ALEMBIC_PROFILE` names (release when unset; `./scripts/test.sh` sets debug, so that one
# build serves its tests and its end-to-end scripts), or the one given: `scripts/build.sh
# debug`, `scripts/build.sh release`. The binaries land in $CARGO_TARGET_DIR/<profile>/.
#
# The end-to-end scripts call this rather than `cargo build -p <their crate>`. Cargo turns on
# the features of shared dependencies (memchr, smallvec, rand_core, serde_core…) per
# selection of packages, so `-p alembic-rl-tui`, then `-p alembic-rl-pixels`, then `-p alembic-web`
# each compiled the engine and the games again with other features: CI built the whole
# release stack about five times over. With one selection everywhere, the first script
# builds it and every later one finds it fresh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${1:-${ALEMBIC_PROFILE:-release}}" in
    release) profile=(--release) ;;
    debug) profile=() ;;
    *) echo "usage: scripts/build.sh [release|debug]" >&2; exit 2 ;;
esac
cargo build "${profile[@]}" --quiet --manifest-path "$ROOT/Cargo.toml" --workspace --bins --examples
