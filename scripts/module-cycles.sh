#!/usr/bin/env bash
# No module of any workspace crate (the engine, the session, the games, the frontends, the
# benches: every member of the root Cargo.toml) imports a module that imports it back:
# scripts/module-cycles.py reads every `crate::`/`super::` path and reports each cycle.
set -euo pipefail
exec python3 "$(dirname "$0")/module-cycles.py"
