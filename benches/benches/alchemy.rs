//! Alchemy benchmarks, each beside a baseline in the same run:
//! - generating all 11 levels (target ≤ 50 ms median) beside the engine toolkit's bare
//!   `bsp_dungeon` for 11 levels of the same size;
//! - one full turn on a generated dungeon — hero action, every monster on the level, FOV,
//!   effects, map memory (target ≤ 200 µs median) — beside the same turn on an empty level;
//! - the explore bot playing 300 turns, for turns per second (target ≥ 5,000).
//!
//! `cargo bench -p alembic-benches --bench alchemy -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use alembic::{GameRng, HookCtx, Loc, LocBox, Place, bsp_dungeon};
use alembic_content::alchemy::bot::Bot;
use alembic_content::alchemy::props::HERO;
use alembic_content::alchemy::{Command, Rules, apply, library, new_game};
use criterion::{Criterion, criterion_group, criterion_main};

fn generation(c: &mut Criterion) {
    let rules = Rules::new().expect("rules");
    let mut g = c.benchmark_group("dungeon");
    let mut seed = 0u64;
    g.bench_function("alchemy new_game (11 levels, furnished)", |b| {
        b.iter(|| {
            seed += 1;
            black_box(new_game(seed, &rules).expect("game"))
        });
    });
    g.bench_function("baseline: bsp_dungeon x11 (71x51, bare)", |b| {
        b.iter(|| {
            seed += 1;
            let mut rng = GameRng::seed_from(seed);
            for _ in 0..11 {
                let _ = black_box(bsp_dungeon(71, 51, &mut rng));
            }
        });
    });
    g.finish();
}

fn turn(c: &mut Criterion) {
    let rules = Rules::new().expect("rules");
    let game = new_game(12, &rules).expect("game");
    // An empty level with only the hero, for the baseline.
    let mut empty = alembic::Game::new(12);
    let mut lib = library::base_library().expect("library");
    library::randomise(&mut lib, empty.rng()).expect("randomise");
    empty = empty.with_library(lib);
    let floor = empty.library().tile_id("floor").expect("floor");
    empty
        .fill_tiles_mut(LocBox::rect(-34, -24, 69, 49, -1), floor)
        .expect("fill");
    let hero = empty
        .spawn_mut(
            &mut HookCtx::new(rules.hooks()),
            "you",
            Place::Map(Loc::new(0, 0, -1)),
        )
        .expect("hero");
    empty.set_var_mut(&HERO, hero);
    let view = alembic_content::alchemy::rules::world::hero_view(&empty).expect("view");
    alembic_content::alchemy::rules::memory::remember(&mut empty, &view);

    // Every cell of level 1 read once, as field of view and path costs do.
    let mut g = c.benchmark_group("things_at");
    let level = alembic_content::alchemy::rules::world::level_box(-1);
    g.bench_function("alchemy level 1, every cell (71x51)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for l in level.iter() {
                n += game.things_at(l).len();
            }
            black_box(n)
        });
    });
    g.finish();

    let mut g = c.benchmark_group("turn");
    g.bench_function(
        "alchemy full turn (wait, level 1 of a generated dungeon)",
        |b| {
            b.iter(|| black_box(apply(&game, &rules, Command::Wait).expect("turn")));
        },
    );
    // Deeper, busier level: play the bot until it reaches depth 2 or more, then time a turn.
    g.bench_function("baseline: turn on an empty level (hero only)", |b| {
        b.iter(|| black_box(apply(&empty, &rules, Command::Wait).expect("turn")));
    });
    g.finish();
}

fn bot(c: &mut Criterion) {
    let rules = Rules::new().expect("rules");
    let start = new_game(3, &rules).expect("game");
    let mut g = c.benchmark_group("sim");
    g.sample_size(10);
    g.bench_function("explore bot, 300 commands", |b| {
        b.iter(|| {
            let mut game = start.clone();
            let mut bot = Bot::new(3);
            for _ in 0..300 {
                match apply(&game, &rules, bot.choose(&game)) {
                    Ok(o) => {
                        game = o.game;
                        if o.over {
                            break;
                        }
                    }
                    Err(_) => bot.refused(),
                }
            }
            black_box(game.turn())
        });
    });
    g.finish();
}

criterion_group!(benches, generation, turn, bot);
criterion_main!(benches);
