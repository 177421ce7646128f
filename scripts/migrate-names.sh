#!/usr/bin/env bash
# Ports code written against the engine's old names to the naming rule of issue 10:
# in-place methods end in `_mut`, property keys are passed by reference, and the crate
# root keeps only the core types (the rest is reached through `alembic::<module>` or
# `alembic::prelude`). Written to be run again on branches merged after the rename:
# every rule is idempotent (running the script twice changes nothing the second time).
#
#   scripts/migrate-names.sh            # the default paths below, from the workspace root
#   scripts/migrate-names.sh some/dir   # or just these files and directories
#
# It is a textual port, not a refactoring tool: what it cannot tell apart by spelling
# (a `PropMap::insert` among other maps' `insert`s) the compiler reports afterwards, and
# `cargo check --workspace --all-targets` is the last step of every run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
if (($# == 0)); then
    set -- content ui frontend-tui frontend-pixels benches engine/examples engine/tests README.md
fi
mapfile -t FILES < <(find "$@" \( -name '*.rs' -o -name '*.md' \) -type f 2>/dev/null | sort)
((${#FILES[@]})) || exit 0

# 1. In place ends in `_mut`; keys by reference.
perl -0pi -e '
    # A property key as written in code: a SCREAMING_CASE constant, perhaps behind a path.
    my $K = qr/(?:(?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Z][A-Z0-9_]*|[A-Za-z_][\w:]*\.prop\(\))/; # or Stat::Ag.prop()
    s/\.with\((\s*)($K\s*,)/.with($1&$2/g;                       # Props::with(&KEY, v)
    s/\bModifier::(add|set|scale)\((\s*)($K\s*,)/Modifier::$1($2&$3/g;
    s/\.while_flag\((\s*)($K\s*\))/.while_flag($1&$2/g;
    s/\.with_raw\((\s*)(?!&)/.with_raw($1&/g;                    # Props::with_raw(&key, v)
    s/\bModifier::raw\((\s*)(?!&)/Modifier::raw($1&/g;
    s/\.set_raw\((\s*)(\w+)\.clone\(\)/.set_raw_mut($1$2/g;      # Thing::set_raw_mut(&key, v)
    s/\.set_raw\((\s*)(?!&)/.set_raw_mut($1&/g;
    s/\.set\((\s*)&/.set_mut($1&/g;                              # Thing::set_mut(&KEY, v)
    s/^(\s*)(\w+)\.set\((?![^\n]*&)/$1$2.set_mut(/mg;              # TileMap::set_mut(l, v): a statement
    s/\.insert\((\s*)([\w:]+)\.key\(\)\.clone\(\),/.insert_mut($1$2.key(),/g;  # PropMap::insert_mut(&key, v)
    s/\.remove\((\s*)([\w:]+)\.key\(\)\)/.remove_mut($1$2.key())/g;
    s/\.remove_prop\(/.remove_prop_mut(/g;
    s/\.set_modifiers\(/.set_modifiers_mut(/g;
    s/\bdefine_tile\(/define_tile_mut(/g;
    s/\bset_proto_prop\(/set_proto_prop_mut(/g;
    s/\brename_prototype\(/rename_prototype_mut(/g;
' "${FILES[@]}"
