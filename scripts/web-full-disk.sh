#!/usr/bin/env bash
# The disk fills while a web game saves (frontend-web/tests/full_disk.rs): a 24 MB tmpfs is
# mounted for the server's data directory and its SQLite database, filled, and emptied
# again. Mounting needs root: otherwise this prints SKIP and exits 0 (scripts/test.sh
# counts it as skipped, never as passed).
#
# Usage: scripts/web-full-disk.sh   (exit 0 = pass or skipped)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MNT="$(mktemp -d)"
if ! mount -t tmpfs -o size=24m tmpfs "$MNT" 2>/dev/null; then
    rmdir "$MNT"
    echo "SKIP (cannot mount a tmpfs: not root?): a full disk while saving"
    exit 0
fi
trap 'umount "$MNT" 2>/dev/null || true; rmdir "$MNT" 2>/dev/null || true' EXIT
# `--workspace`, as scripts/test.sh's run: the same features, so its build is reused.
if ALEMBIC_FULL_DIR="$MNT" cargo test --manifest-path "$ROOT/Cargo.toml" --workspace --color never \
    --test full_disk -- --ignored 2>&1 | tail -n 3; then
    echo "ok:   a full disk while saving: a clear message, the game plays on, nothing saved damaged, continued after"
else
    echo "FAIL: a full disk while saving (cargo test --workspace --test full_disk)"
    exit 1
fi
