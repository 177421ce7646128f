#!/usr/bin/env bash
# Ports a game written against alembic 0.1 to 0.2 (see CHANGELOG.md, "Migrating from 0.1"):
# in-place methods end in `_mut`, property keys are passed by reference, the crate root keeps
# only the core types (the rest is reached through `alembic::<module>` or `alembic::prelude`),
# the UI names live in the `alembic-ui` crate (`alembic::Frame` is `alembic_ui::Frame`),
# `run_app(app, |_| ())` is `run_app(app)` (any argument shape), and "base …" prototypes are
# flagged ABSTRACT; then early 0.2 to now (CHANGELOG.md, "Unreleased"): the paths that moved
# (`alembic-content`, Alchemy's screens and modules, the session's journey constants), the
# crates.io package names in Cargo.toml (`alembic = { package = "alembic-rl", … }`) and
# `Game`'s methods that moved into views (`game.things().get(id)`, `game.schedule()…`).
# Every rule is idempotent (running the script twice changes nothing the second time).
# scripts/migrate-test.sh ports two fixture games (0.1 and early 0.2) and builds them.
#
# It works on any Rust project, not only this repository: copy it anywhere and run it from
# the root of the project to port (it needs bash, perl and find).
# What no spelling can tell (the CHANGELOG's migrations 4, 5, 6, 8, 9, 11 and the changed
# signatures under "Unreleased") is left to the compiler, and the CHANGELOG says what to write.
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
    s/\.(query|set|set_mut)\((\s*[^,()&]+?,\s*)($K\s*[,)])/.$1($2&$3/g;  # Game::query(id, &KEY), set(id, &KEY, v)
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
#    Any argument shape: `run_app(Game::new(seed), |_| ())`, `run_app(app, |_stack| {})`,
#    over several lines with a trailing comma, as `alembic_tui::run_app` or `run_app` alone
#    (in a file that names alembic_tui or alembic_pixels). The arguments are found by
#    balancing brackets, not by a pattern, so nested calls and closures are kept whole.
perl -0pi -e '
    next unless /\balembic_(?:tui|pixels)\b/;
    our $B = qr/(?:\((?:[^()]++|(??{$B}))*+\))/;              # one balanced (...)
    # Top-level arguments of an argument list (brackets and strings kept whole).
    sub args {
        my ($text) = @_;
        my @out; my ($cur, $depth, $q) = ("", 0, "");
        for my $ch (split //, $text) {
            if ($q) { $q = "" if $ch eq "\"" && $cur !~ /\\\z/; $cur .= $ch; next }
            if ($ch eq "\"") { $q = 1 }
            elsif ($ch =~ /[(\[{]/) { $depth++ }
            elsif ($ch =~ /[)\]}]/) { $depth-- }
            elsif ($ch eq "," && $depth == 0) { push @out, $cur; $cur = ""; next }
            $cur .= $ch;
        }
        push @out, $cur;
        pop @out if @out > 1 && $out[-1] =~ /^\s*\z/;           # a trailing comma
        return @out;
    }
    my $then = 0;
    s{\b((?:alembic_(?:tui|pixels)::)?)run_app(\s*)($B)}{
        my ($path, $ws, $all) = ($1, $2, $3);
        my @a = args(substr($all, 1, -1));
        if (@a != 2) { "${path}run_app$ws$all" }                 # 0.2 already
        elsif ($a[1] =~ /^\s*\|\s*_\w*\s*(?::[^|]*)?\|\s*(?:\(\s*\)|\{\s*\})\s*\z/) {
            (my $app = $a[0]) =~ s/^\s+|\s+\z//g;
            "${path}run_app$ws($app)"                            # the output thrown away
        } else {
            $then++ unless $path;
            "${path}run_app_then$ws$all"
        }
    }ge;
    # A bare `run_app_then` needs its import beside (or instead of) `run_app`.
    if ($then && !/\buse\s+alembic_(?:tui|pixels)::[^;]*\brun_app_then\b/) {
        my $still = () = /(?<![:\w])run_app\s*\(/g;
        s~\b(use\s+alembic_(?:tui|pixels)::)run_app;~$still ? "$1\{run_app, run_app_then\};" : "$1run_app_then;"~e
            or s~\b(use\s+alembic_(?:tui|pixels)::\{[^\}]*)\brun_app\b(?!_)~$still ? "$1run_app, run_app_then" : "$1run_app_then"~e;
    }
' "${FILES[@]}"

# 6. Early 0.2 to now (CHANGELOG.md, "Unreleased"): the paths that moved. `alembic-content`
#    is `alembic-games` (which re-exports `alchemy` and `caves`); Alchemy's screens are the
#    `alembic_alchemy_ui` crate; Alchemy's crate root keeps its entry points and the rest is
#    `alchemy::<module>::X` (renamed: `take_events`, `load_data`, `wizard_commands`); the
#    session's journey constants left `play`. Applied to `alembic_alchemy::X`,
#    `alembic_games::alchemy::X` and, in a file that names either crate, `alchemy::X`.
ALCHEMY='
    AG props AGGRO props APPEARANCE props ARMOUR props ATTACKS_MONSTERS props ATT_DAMAGE
    props ATT_TYPE props ATT_VERB props AWAY_SINCE props Apparatus view BG props BLOCK props
    Bot bot CR props Cause events CellView view Choice bot Cure events DATA library
    DATA_FILE library DEATH_TRANSFORM props DEATH_TRANSFORM_CHANCE props DEEPEST props
    DESCRIPTION props DESTINATION props DOOR_STRENGTH props DROP_CHANCE props DRY_CHANCE
    props DURATION props DamageType props DataError library Description view DoorState view
    END_MSG props Envelope save FAMILY props FG props FOE props Fate props GAIN_AMOUNT props
    GAIN_STAT props GAME_NAME save GAME_OVER props GIVES_EFFECT props GLYPH props Glyph view
    HEAL_AMOUNT props HERO props HIT_EFFECT props HIT_EFFECT_CHANCE props HPS props HPS_MAX
    props HP_PER_TURN props IN props INV_LETTER props IS_APPARATUS props IS_ARMOUR props
    IS_BLOCKING props IS_CONFUSED props IS_CREATURE props IS_DANGEROUS props IS_DECORATION
    props IS_DOOR props IS_DRAIN props IS_EFFECT props IS_EXIT props IS_FLOOR props
    IS_FLYING props IS_FOOD props IS_HARMFUL props IS_HERB props IS_HERO props IS_HOSTILE
    props IS_IDENTIFIED props IS_IMMORTAL props IS_INGREDIENT props IS_INTELLIGENT props
    IS_INVINCIBLE props IS_ITEM props IS_LAB props IS_LIVING props IS_MUSHROOM props IS_OPEN
    props IS_POISON props IS_POTION props IS_PROPER props IS_SCENERY props IS_STAIRS props
    IS_STAIRS_DOWN props IS_STAIRS_UP props IS_STONE props IS_UNDEAD props IS_VIEW_BLOCKING
    props IS_WATER props IS_WEAPON props IS_WIELDED props IS_WORKBENCH props InventoryEntry
    view ItemKind view KILLS props LAST_SEEN props LEVELS rules LIBRARY_NAME library
    LIBRARY_VERSION library LIGHT_COLOUR props LIGHT_RADIUS props Learned events LegendEntry
    view LibraryCounts library LookInfo view MAX_HIT_POINTS props MAX_MESSAGE_BYTES save
    MAX_SAVE_BYTES save MSG_COUNT props NAME props NUMBER props Noun events OTHER_MSG props
    OUTCOME props PLAN bot RECIPE props REGEN_ACC props RES_FIRE props RES_ICE props
    RES_IMPACT props RES_NORMAL props RES_POISON props Reach rules Reason bot RecipeId props
    RecipeInfo view SAVE_VERSION save SK props SPEED props ST props START_MSG props
    STONE_LEVEL rules SaveError save Situation bot Slot props Source rules Stairs view Stat
    props Status view Strike events Summary view TG props THROW_RANGE view TILE_DAMAGE props
    TILE_DAMAGE_TYPE props TIME props Tactic bot TacticFn bot TileTable view UNKNOWN_NAME
    props USE_MESSAGE props WHOLE_GAME_VERSION save WIELD_SLOT props XL props XP props
    Z_ORDER props a_name text add_effect rules all_lines text apparatus_at_hand view article
    text assign_letters rules attack rules base_library library blocking_thing_at view
    capitalise text cell_tile view cell_view view closed_door_at view counts library
    creature_at rules creatures_on_level rules damage rules data_files library describe view
    die rules door_at view effect_list rules end_turn rules end_turn_with rules ending_cause
    text expected_damage rules explored rules explored_cells rules flies view from_text save
    has_noticed view hero rules hero_depth view hero_sees rules hero_view rules hit_points
    view identified_potions view identify rules inventory rules inventory_entries view
    is_creature view is_hero view is_hostile view is_wizard_game view items_at rules
    known_recipes view known_stairs_at view legend view letters_unchanged rules level_box
    rules level_map_text view library_from library light_map view lines text list_items text
    load_with_modes save look_at view modes_of save names_with library number rules
    randomise library reachable rules recent_messages view remember rules remembered_thing
    view reseal save save save save_checked save scenery_here view schema library set_open
    rules split rules stack_size view stacks_with rules stairs_at view status view
    stops_throw view summary view the_name text thing_glyph view tile_blocks rules
    tile_dangerous rules tile_glyph view to_text save to_text_with_modes save top_thing view
    validate save visible view
' perl -0pi -e '
    s/\balembic_content::(alchemy|caves)::ui::/alembic_${1}_ui::/g;      # before the crate
    s/\balembic_alchemy::ui::/alembic_alchemy_ui::/g;
    s/\balembic_content\b/alembic_games/g;
    s/\b(alembic_session::play|play)::SEARCH_TURNS\b/alembic_session::journey::SEARCH_TURNS/g;
    s/\b(alembic_session::play|play)::MAX_AUTO\b/alembic_session::journey::MAX_STEPS/g;
    next unless /\balembic_(?:alchemy|games)\b/;
    my %M = split " ", $ENV{ALCHEMY};
    my %R = (take_events => "events::take", load_data => "library::load",
             wizard_commands => "wizard::commands");
    my $names = join "|", sort { length($b) <=> length($a) } (keys %M, keys %R);
    my $P = qr/(?:\balembic_alchemy|\balembic_games::alchemy|(?<![\w:])alchemy)/;
    sub fix {
        my ($i) = @_;
        return $i unless $i =~ /^(\w+)(\s+as\s+\w+)?$/;
        my ($n, $as) = ($1, $2 // "");
        return "$R{$n}$as" if exists $R{$n};
        return exists $M{$n} ? "$M{$n}::$i" : $i;
    }
    s{($P)::\{([^{}]*)\}}{
        "$1::{" . join(", ", map { fix($_) } grep { length } map { s{^\s+|\s+$}{}gr } split /,/, $2) . "}"
    }ge;
    s{($P)::($names)\b(?!::)}{"$1::" . (exists $R{$2} ? $R{$2} : "$M{$2}::$2")}ge;
' "${FILES[@]}"

# 8. 0.3: `Game`'s reads of one part moved into `&self` views and its writes of the
#    schedule and the levels into `&mut` views (CHANGELOG.md, "Unreleased"): `game.get_thing(id)`
#    is `game.things().get(id)`, `game.next_actor()` is `game.schedule().next_actor()`,
#    `game.schedule_mut(id, 0)` is `game.scheduler().add(id, 0)`, `game.link_stairs_mut(a, b)`
#    is `game.levels_mut().link_stairs(a, b)`. The old names still build (deprecated until
#    0.4). Only on a receiver spelt as a game (`game`, `g`, `g2`, `self.game`, `world`…):
#    `contains`, `place` or `level` on anything else is some other type's.
#    `game.run_hook_mut(ctx, e, c)` is `ctx.run(game, e, c)` and `game.check_hooks(h)` is
#    `h.check(game)`, left to the compiler's deprecation notes.
perl -0pi -e '
    my %m = (
        get_thing => "things().get", contains => "things().contains",
        thing_count => "things().count", all_things => "things().iter",
        things_at => "things().at", cell_view => "things().cursor",
        things_in_box => "things().in_box", things_on_level => "things().on_level",
        ids_on_level => "things().ids_on_level", contents => "things().contents",
        place => "things().place", location => "things().location",
        outermost => "things().outermost", next_id => "things().next_id",
        clock => "schedule().clock", is_scheduled => "schedule().is_scheduled",
        actors => "schedule().actors", next_actor => "schedule().next_actor",
        action_delay => "schedule().action_delay", takes_turns => "schedule().takes_turns",
        awake_levels => "schedule().awake_levels", level => "levels().get",
        stairs_at => "levels().stairs_at", stair_links => "levels().stair_links",
        is_indexed => "indexes().is_indexed", things_with => "indexes().things_with",
        things_with_on_level => "indexes().things_with_on_level",
        layer => "layers().get", layer_get => "layers().at", layer_names => "layers().names",
        set_level_mut => "levels_mut().set", link_stairs_mut => "levels_mut().link_stairs",
        link_stairs_both_mut => "levels_mut().link_stairs_both",
        paint_mut => "levels_mut().paint", schedule_mut => "scheduler().add",
        unschedule_mut => "scheduler().remove",
        set_awake_levels_mut => "scheduler().set_awake_levels",
        advance_until_mut => "scheduler().advance_until",
        take_turns_mut => "scheduler().take_turns",
    );
    my $names = join "|", sort { length($b) <=> length($a) } keys %m;
    s/\b((?:self\.)?(?:\w*_game|game|g\d?|world))\.($names)\(/"$1.$m{$2}("/ge;
' "${FILES[@]}"

# 7. The packages are `alembic-rl`, `alembic-rl-ui`, … on crates.io (CHANGELOG.md,
#    "Unreleased"): each dependency keeps its key (so the code's crate names stay) and names
#    its package. `alembic-content` is `alembic-games`. A project whose code now names
#    `alembic_ui` gets the dependency. Every Cargo.toml under the arguments.
mapfile -t MANIFESTS < <(find "$@" \( -name target -o -name .git \) -prune -o -name Cargo.toml -type f -print 2>/dev/null | sort)
if ((${#MANIFESTS[@]})); then
    uses_ui=0
    grep -lq 'alembic_ui::' "${FILES[@]}" 2>/dev/null && uses_ui=1
    USES_UI=$uses_ui VERSION=0.2 perl -0pi -e "$(cat <<'PERL'
        my $v = $ENV{VERSION};
        my $c = qr/alembic(?:-(?:ui|data|session|tui|pixels|games|alchemy-ui|alchemy|caves|rats|content))?/;
        sub key { $_[0] eq 'alembic-content' ? 'alembic-games' : $_[0] }
        sub pkg { my $k = key($_[0]); $k =~ s/^alembic/alembic-rl/; $k }
        # `key = "0.1"` and `key = { version = …, … }` (never one that names its package).
        s#^($c)(\s*=\s*)"[^"]*"#key($1) . qq($2\{ package = "@{[pkg($1)]}", version = "$v" \})#gme;
        s#^($c)(\s*=\s*)\{(?![^}\n]*\bpackage\s*=)([^}\n]*)\}#
            my ($k, $eq, $rest) = ($1, $2, $3);
            $rest =~ s/\bversion\s*=\s*"[^"]*"/version = "$v"/;
            $rest =~ s/^\s*//;
            key($k) . qq($eq\{ package = "@{[pkg($k)]}", $rest\})
        #gme;
        # `[dependencies.alembic]` tables.
        s#^(\[(?:[\w.-]*\.)?(?:dev-|build-)?dependencies\.)($c)\]\n(?![^\[]*^package\s*=)#
            "$1" . key($2) . qq(]\npackage = "@{[pkg($2)]}"\n)
        #gme;
        if ($ENV{USES_UI} && /^\[dependencies\]/m && !/^alembic-ui\b|dependencies\.alembic-ui\]/m) {
            s#^(\[dependencies\]\n)#$1alembic-ui = { package = "alembic-rl-ui", version = "$v" }\n#m;
        }
PERL
)" "${MANIFESTS[@]}"
fi

echo "migrate-names: done; now run cargo fmt --all and cargo check --workspace --all-targets" >&2
