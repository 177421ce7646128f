//! The rows issue 56 asks to see beside last turn's code in the same run, in one file that
//! compiles in three trees: ours, `9d0bad5` (the anchor) and `a1fc3a3` (last turn's code),
//! whose benches have none of these rows. `scripts/bench-table.sh` copies it into each
//! anchor's worktree and runs it there, then here; so it uses only API that all three have.
//!
//! - `anchor_rows/own_table_set`: a persistent `Game::set` of one property on a thing with
//!   its own 28-property table (no prototype), 10,000 such things on a 100 × 100 level.
//! - `anchor_rows/arrival`: the first turn after 10,000 rats arrive on another level of an
//!   Alchemy game in play, and the game's next turn (the hero alone on a 250 × 100 floor);
//!   and the first turn of a game that never took one with the same rats (every level
//!   awake until then: the fixture of the figure issue 56 quotes, 0.85–1.3 ms).
//!
//! `cargo bench -p alembic-benches --bench anchor_rows -- --warm-up-time 1 --measurement-time 2`

use std::hint::black_box;

use alembic::{
    Game, HookCtx, Loc, LocBox, Place, Prop, Props, Thing, ThingId, library::IS_CONTAINER,
    props::PropKey, props::Value,
};
use criterion::{Criterion, criterion_group, criterion_main};
use paths::{Command, HERO, Rules, apply, base_library, hero_view, randomise, remember};

/// Alchemy's items, as this tree names them. `scripts/bench-table.sh` rewrites the one `pub
/// use` line below for an anchor whose Alchemy lived elsewhere (`alembic_content::alchemy`
/// at `a1fc3a3`): the only line that differs between the trees.
#[rustfmt::skip]
mod paths {
    pub use alembic_games::alchemy::{Command, Rules, apply, library::{base_library, randomise}, props::HERO, rules::{hero_view, remember}};
}

const ST: Prop<i32> = Prop::new("st");
const HPS: Prop<i32> = Prop::new("hps");
const HOSTILE: Prop<bool> = Prop::with_default("is_hostile", false);
const N: usize = 10_000;

/// 10,000 things over a 100 × 100 level, each with its own 28-property table (the fixture
/// of `things/set_own_table`).
fn own_tables() -> (Game, Vec<ThingId>) {
    let mut g = Game::new(1);
    let mut ids = Vec::with_capacity(N);
    for i in 0..N {
        let mut props = Props::new()
            .with(&ST, 10)
            .with(&HPS, i as i32)
            .with(&HOSTILE, i % 2 == 1)
            .with(&IS_CONTAINER, true);
        for k in 0..24 {
            props = props.with_raw(
                &PropKey::new(&format!("extra{k}")),
                Value::Int((k + i) as i64),
            );
        }
        let at = Loc::new((i % 100) as i32, (i / 100 % 100) as i32, -1);
        ids.push(g.add_thing_mut(at, Thing::new(props)).expect("add"));
    }
    (g, ids)
}

fn own_table_set(c: &mut Criterion) {
    let (own, ids) = own_tables();
    let mut group = c.benchmark_group("anchor_rows/own_table_set");
    let mut i = 0;
    group.bench_function("game_set_persistent", |b| {
        b.iter(|| {
            i = (i + 7919) % N;
            // Thing i holds i: write another value (an equal one changes nothing).
            black_box(own.set(ids[i], &HPS, i as i32 + 1))
        })
    });
    group.finish();
}

/// The hero alone at (0, 0, -1) on a 250 × 100 floor, with a second 250 × 100 floor at -2
/// (the fixture of the `alchemy` bench's `arena`).
fn arena(rules: &Rules) -> Game {
    let mut g = Game::new(12);
    let mut lib = base_library().expect("library");
    randomise(&mut lib, g.rng()).expect("randomise");
    g = g.with_library(lib);
    let floor = g.library().tile_id("floor").expect("floor");
    for z in [-1, -2] {
        g.fill_tiles_mut(LocBox::rect(-125, -50, 250, 100, z), floor)
            .expect("fill");
    }
    let hero = g
        .spawn_mut(
            &mut HookCtx::new(rules.hooks()),
            "you",
            Place::Map(Loc::new(0, 0, -1)),
        )
        .expect("hero");
    g.set_var_mut(&HERO, hero);
    let view = hero_view(&g).expect("view");
    remember(&mut g, &view);
    g
}

fn arrival(c: &mut Criterion) {
    let rules = Rules::new().expect("rules");
    let with_rats = |g: &Game| {
        let mut g = g.clone();
        for l in LocBox::rect(-125, -50, 250, 100, -2).iter().take(10_000) {
            g.spawn_mut(&mut HookCtx::new(rules.hooks()), "rat", Place::Map(l))
                .expect("rat");
        }
        g
    };
    // A game in play (it has taken a turn, so only the hero's level is awake), then 10,000
    // rats on the other level, one a cell from its corner.
    let base = arena(&rules);
    let first = with_rats(&apply(&base, &rules, Command::Wait).expect("turn").game);
    // The same rats in a game that never took a turn (every level awake until its first
    // turn, which puts theirs to sleep): the fixture whose first turn issue 56 quotes.
    let never_played = with_rats(&base);
    let second = apply(&first, &rules, Command::Wait)
        .expect("first turn")
        .game;
    let mut group = c.benchmark_group("anchor_rows/arrival");
    group.sample_size(20);
    group.bench_function("first_turn", |b| {
        b.iter(|| black_box(apply(&first, &rules, Command::Wait).expect("turn")));
    });
    group.bench_function("second_turn", |b| {
        b.iter(|| black_box(apply(&second, &rules, Command::Wait).expect("turn")));
    });
    group.bench_function("first_turn_ever", |b| {
        b.iter(|| black_box(apply(&never_played, &rules, Command::Wait).expect("turn")));
    });
    group.finish();
}

criterion_group!(benches, own_table_set, arrival);
criterion_main!(benches);
