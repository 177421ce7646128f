#!/usr/bin/env bash
# No module of a game (or of the session, or of the web server) imports a module that imports it back:
# scripts/module-cycles.py reads every `crate::`/`super::` path and reports each cycle.
set -euo pipefail
exec python3 "$(dirname "$0")/module-cycles.py"
