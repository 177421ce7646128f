#!/usr/bin/env bash
# The reliability campaign past the checksum (games/registry/src/campaign.rs): structure-aware
# edits of a real Alchemy save (resealed with a fresh checksum) and of a real recording
# (checkpoints recomputed), each loaded, played, saved back, replayed, watched and continued
# as a journal. Prints the table of cases, panics, hangs, games lost and corrupt accepted;
# exits 1 on any panic, hang, lost game or corrupt accepted file.
#
# Usage: scripts/campaign.sh [CASES] [SEED]
#   quick profile (scripts/test.sh): 400 cases, about 30 s
#   long run:                        scripts/campaign.sh 20000 7   (about 25 minutes)
# The same cases under libFuzzer: fuzz/README.md (load_save_sealed, recording).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
CASES="${1:-400}"
SEED="${2:-1}"
bash "$ROOT/scripts/build.sh"
start=$(date +%s)
"$TARGET/${ALEMBIC_PROFILE:-release}/examples/campaign" "$CASES" "$SEED"
echo "campaign: $CASES cases, seed $SEED, $(($(date +%s) - start)) s"
