#!/usr/bin/env bash
# API stability: the public API of each library that was in the last release, compared
# with that release's (api/<release>/<lib>.txt, made by `--baseline`). A public item goes
# away or changes its signature only after one minor release as a `#[deprecated]` item;
# anything else is a break, and the check fails unless api/<release>/<lib>.allow
# acknowledges it (one line per item, with the CHANGELOG migration that covers it).
#
#   scripts/api-check.sh                  compare this checkout with the last release
#   scripts/api-check.sh --baseline REV   write api/<release>/ from the commit REV
#   scripts/api-check.sh --self-test      show that the check fails on a removed item
#
# The listing comes from rustdoc's JSON output (nightly: `cargo +nightly rustdoc -- -Z
# unstable-options --output-format json`), read by scripts/api-check.py, which says what it
# sees and what it does not (it is a smaller cargo-semver-checks: removed items and changed
# signatures, not auto traits or layouts). The JSON build goes to its own target directory
# under the usual one; a check-level build of four crates, about a minute cold here.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RELEASE=0.2.0
# library name, package now, package in the release
LIBS=("alembic alembic-rl alembic" "alembic_ui alembic-rl-ui alembic-ui"
  "alembic_tui alembic-rl-tui alembic-tui" "alembic_pixels alembic-rl-pixels alembic-pixels")
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
JSON_TARGET="$TARGET/api-check"

if ! cargo +nightly --version >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "api-check: CI needs the nightly toolchain (rustup toolchain install nightly)" >&2
    exit 1
  fi
  echo "SKIP: api-check needs the nightly toolchain for rustdoc's JSON (rustup toolchain install nightly)"
  exit 0
fi

# json DIR PKG LIB: build rustdoc JSON for PKG's library in the workspace at DIR; print the file.
json() {
  (cd "$1" && CARGO_TARGET_DIR="$JSON_TARGET" cargo +nightly rustdoc --quiet -p "$2" --lib \
    -- -Z unstable-options --output-format json 2>&1 >/dev/null | grep -v '^warning' >&2 || true)
  echo "$JSON_TARGET/doc/$3.json"
}

case "${1:-}" in
--baseline)
  rev=${2:?usage: scripts/api-check.sh --baseline REV}
  tree=$(mktemp -d)
  trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || rm -rf "$tree"' EXIT
  git worktree add --detach "$tree" "$rev" >/dev/null
  mkdir -p "api/$RELEASE"
  for entry in "${LIBS[@]}"; do
    read -r lib _ old_pkg <<<"$entry"
    rm -f "$JSON_TARGET/doc/$lib.json"
    python3 scripts/api-check.py list "$(json "$tree" "$old_pkg" "$lib")" >"api/$RELEASE/$lib.txt"
    echo "api/$RELEASE/$lib.txt: $(wc -l <"api/$RELEASE/$lib.txt") items from $rev"
  done
  ;;
--self-test)
  # A crate with two public functions; the second is removed, then only deprecated.
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/src"
  printf '[package]\nname = "api-fixture"\nversion = "0.1.0"\nedition = "2024"\n[workspace]\n' >"$work/Cargo.toml"
  printf '//! A fixture.\n/// Kept.\npub fn kept() {}\n/// Removed next.\npub fn removed(x: u8) -> u8 { x }\n' >"$work/src/lib.rs"
  python3 scripts/api-check.py list "$(json "$work" api-fixture api_fixture)" >"$work/old.txt"
  printf '//! A fixture.\n/// Kept.\npub fn kept() {}\n' >"$work/src/lib.rs"
  python3 scripts/api-check.py list "$(json "$work" api-fixture api_fixture)" >"$work/removed.txt"
  printf '//! A fixture.\n/// Kept.\npub fn kept() {}\n/// Changed.\npub fn removed(x: u16) -> u8 { x as u8 }\n' >"$work/src/lib.rs"
  python3 scripts/api-check.py list "$(json "$work" api-fixture api_fixture)" >"$work/changed.txt"
  printf '//! A fixture.\n/// Kept.\npub fn kept() {}\n/// Going.\n#[deprecated(note = "use kept")]\npub fn removed(x: u8) -> u8 { x }\n' >"$work/src/lib.rs"
  python3 scripts/api-check.py list "$(json "$work" api-fixture api_fixture)" >"$work/deprecated.txt"
  fails=0
  if python3 scripts/api-check.py compare "$work/old.txt" "$work/removed.txt"; then
    echo "FAIL: a removed public function passed the check"; fails=1
  else echo "ok:   a removed public function fails the check"; fi
  if python3 scripts/api-check.py compare "$work/old.txt" "$work/changed.txt"; then
    echo "FAIL: a changed signature passed the check"; fails=1
  else echo "ok:   a changed signature fails the check"; fi
  if python3 scripts/api-check.py compare "$work/old.txt" "$work/deprecated.txt"; then
    echo "ok:   a deprecated function passes"
  else echo "FAIL: a deprecated function failed the check"; fails=1; fi
  if python3 scripts/api-check.py compare "$work/deprecated.txt" "$work/removed.txt"; then
    echo "ok:   removing it a release after its deprecation passes"
  else echo "FAIL: removing a deprecated function failed the check"; fails=1; fi
  exit "$fails"
  ;;
"")
  now=$(mktemp -d)
  trap 'rm -rf "$now"' EXIT
  fails=0
  for entry in "${LIBS[@]}"; do
    read -r lib pkg _ <<<"$entry"
    rm -f "$JSON_TARGET/doc/$lib.json"
    python3 scripts/api-check.py list "$(json "$ROOT" "$pkg" "$lib")" >"$now/$lib.txt"
    allow=()
    [ -f "api/$RELEASE/$lib.allow" ] && allow=(--allow "api/$RELEASE/$lib.allow")
    echo "== $lib against $RELEASE"
    python3 scripts/api-check.py compare "api/$RELEASE/$lib.txt" "$now/$lib.txt" "${allow[@]}" || fails=1
  done
  [ "$fails" = 0 ] && echo "api-check: ok" || echo "api-check: FAILED (a break needs a deprecated path, or a line in api/$RELEASE/<lib>.allow with its migration)"
  exit "$fails"
  ;;
*)
  echo "usage: scripts/api-check.sh [--baseline REV | --self-test]" >&2
  exit 2
  ;;
esac
