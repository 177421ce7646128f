#!/usr/bin/env bash
# Ports a game written against alembic 0.1 to 0.2 (see CHANGELOG.md, "Migrating from 0.1"):
# in-place methods end in `_mut`, property keys are passed by reference, the crate root keeps
# only the core types (the rest is reached through `alembic::<module>` or `alembic::prelude`),
# the UI names live in the `alembic-ui` crate (`alembic::Frame` is `alembic_ui::Frame`),
# `run_app(app, |_| ())` is `run_app(app)`, and "base …" prototypes are flagged ABSTRACT.
# Every rule is idempotent (running the script twice changes nothing the second time).
#
# It works on any Rust project, not only this repository: copy it anywhere and run it from
# the root of the project to port (it needs bash, perl and find).
#
#   path/to/migrate-names.sh            # every .rs and .md file under the current directory
#   path/to/migrate-names.sh some/dir   # or just these files and directories
#
# It is a textual port, not a refactoring tool: what it cannot tell apart by spelling
# (a `PropMap::insert` among other maps' `insert`s) the compiler reports afterwards, and
# `cargo check --workspace --all-targets` is the last step of every run.
set -euo pipefail
if (($# == 0)); then
    set -- .
fi
# Never the engine's own sources (they define the names), build output or VCS data.
mapfile -t FILES < <(find "$@" \( -name target -o -name .git -o -path '*/engine/src' \) -prune -o \
    \( -name '*.rs' -o -name '*.md' \) -type f -print 2>/dev/null | sort)
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
    s/::(rename_prototype|define_tile|set_proto_prop|remove_prop|set_modifiers|set_raw)\b(?!_mut)/::$1_mut/g;  # doc links
' "${FILES[@]}"

# 2. The crate root keeps the core types (those of `alembic::prelude`); every other name moved
#    to its module: `alembic::GameRng` is `alembic::rng::GameRng`. Rewrites `use alembic::{…}`
#    groups item by item and every other `alembic::Name` path. (`crate::Name` inside the
#    engine too, when the script is given engine/src; never run that on engine/src/lib.rs.)
MOVED='
    ABSTRACT library Adjacency mapgen Advance schedule Arg wizard Args wizard BoxIter grid
    BranchInfo history Bsp mapgen BspDungeon mapgen BspSplit mapgen Budget history Cave mapgen
    Dice dice DiceError dice DijkstraMap path Disconnected mapgen Entry replay FREQ library
    Fov fov GameError error GameRng rng Grid grid GridView grid HandlerFn wizard
    History history HistoryError history Hook props HookCall hook HookFn hook
    IS_CONTAINER library IdList thing InvariantError error LEVEL library Layer layer
    LayerGrid layer LayerValue layer LevelMap level LibraryId library LightMap light
    LightSource light LoadError save MAX_FOV_RADIUS fov MAX_REPLAY_BYTES replay
    MAX_REPLAY_ENTRIES replay MAX_REPLAY_LINE replay MAX_SEARCH_CELLS path MapGenError mapgen
    Message game ModOp props Modifier props NORMAL_ACTION schedule ON_ACTION hook
    ON_CONSUME hook ON_CREATE hook ON_DEATH hook ON_HIT hook ON_TICK hook ON_USE hook
    Owner error Param wizard ParamKind wizard Path path PathError path Pathfinder path
    PropKey props PropMap props PropType props Prototype library REPLAY_FORMAT replay
    REPLAY_VERSION replay Recording replay Regions mapgen ReplayError replay
    ReplayHeader replay SAVED_GAME_FORMAT save SAVE_FORMAT game SPEED schedule SavedGame save
    Search path StableHasher hash TileDef library TileId library TileMap mapgen Value props
    ValueKind props Verified replay VisibleSet fov WizardCommands wizard WizardError wizard
    WizardOutcome wizard WizardSpec wizard WordsFn wizard astar path bsp_dungeon mapgen d dice
    explore_targets path field_of_view fov poisson dice random_room mapgen retry mapgen
    weighted_choice dice weighted_index dice
' perl -0pi -e '
    my %M = split " ", $ENV{MOVED};
    my $names = join "|", sort { length($b) <=> length($a) } keys %M;
    sub fix {
        my ($i) = @_;
        return ($i =~ /^(\w+)(\s+as\s+\w+)?$/ && exists $M{$1}) ? "$M{$1}::$i" : $i;
    }
    s{\b(alembic|crate)::\{([^{}]*)\}}{
        "$1::{" . join(", ", map { fix($_) } grep { length } map { s{^\s*(?://[/!])?\s*|\s+$}{}gr } split /,/, $2) . "}"
    }ge;
    s{\b(alembic|crate)::($names)\b(?!::\{)}{$1::$M{$2}::$2}g;
' "${FILES[@]}"

# 3. Abstract prototypes are flagged `ABSTRACT`, no longer told by a "base " name: Alchemy's
#    "base …" prototypes (proclaimed as `"base x", parent, named("x")…`) get the flag and the
#    import. A new abstract prototype written another way needs `.with(&ABSTRACT, true)` by hand.
perl -0pi -e '
    my $n = 0;
    $n += s/("base [a-z ]+",\s*(?:Some\("[^"]*"\)|None),\s*named\("[^"]*"\))(?!\s*\.with\(&ABSTRACT)/$1.with(&ABSTRACT, true)/g;
    $n += s/(proclaim(?:_mut)?\(\s*"base [^"]*",\s*(?:Some\("[^"]*"\)|None),\s*Props::new\(\))(?!\s*\.with\(&ABSTRACT)/$1.with(&ABSTRACT, true)/g;
    if (/&ABSTRACT\b/ && !/^use [^;]*\bABSTRACT\b[^;]*;/m) {
        s/^use alembic::\{/use alembic::{library::ABSTRACT, /m
            or s/^(use alembic::)/use alembic::library::ABSTRACT;\n$1/m;
    }
' "${FILES[@]}"
# 4. The UI moved out of the engine into the `alembic-ui` crate (0.2): `alembic::Frame` and
#    the other frame, input, frontend, screen and widget names are `alembic_ui::…`.
UI='App Cell ColourDepth Confirm Control DIRECTION_KEYS Farewell Frame Frontend Input ItemList
    Key ListEntry MessageLogScreen MinSize Mods MouseButton MouseKind Palette Rect Screen
    ScreenStack ScreenValue TEST_TICK_LIMIT TestFrontend TestFrontendError TextScreen Tile
    TileSpan TileSupport Title Transition direction_key draw_box draw_item_list
    draw_message_log draw_too_small fade_for_age is_cancel item_letter page_count plain_char
    plain_key put_centred put_clipped run wheel_key wrap_text' perl -0pi -e '
    my %U = map { $_ => 1 } split " ", $ENV{UI};
    my $names = join "|", sort { length($b) <=> length($a) } keys %U;
    # A `use alembic::{…}` group: UI names go to their own `use alembic_ui::{…};` line.
    s{^(\s*)use alembic::\{([^{}]*)\};}{
        my ($ind, @items) = ($1, grep { length } map { s{^\s+|\s+$}{}gr } split /,/, $2);
        my @ui = grep { /^(\w+)/ && $U{$1} } @items;
        my @core = grep { !(/^(\w+)/ && $U{$1}) } @items;
        my $out = "";
        $out .= "${ind}use alembic::{" . join(", ", @core) . "};" if @core;
        $out .= ($out ? "\n" : "") . "${ind}use alembic_ui::{" . join(", ", @ui) . "};" if @ui;
        $out
    }gme;
    s{\balembic::($names)\b}{alembic_ui::$1}g;
' "${FILES[@]}"

# 5. `run_app` plays an app and returns nothing (0.2); `run_app_then` returns its output.
perl -0pi -e '
    s/\b(alembic_(?:tui|pixels)::)run_app\((\s*[^,()]+?),\s*\|_\|\s*\(\)\s*\)/$1run_app($2)/g;
    s/\b(alembic_(?:tui|pixels)::)run_app\((\s*[^,()]+?),(?=\s*[\w:|])/$1run_app_then($2,/g;
' "${FILES[@]}"

if grep -lq 'alembic_ui::' "${FILES[@]}" 2>/dev/null && [ -f Cargo.toml ] && ! grep -q 'alembic-ui' Cargo.toml; then
    echo "migrate-names: the code now names alembic_ui: add alembic-ui = \"0.2\" to Cargo.toml" >&2
fi
echo "migrate-names: done; now run cargo fmt --all and cargo check --workspace --all-targets" >&2
