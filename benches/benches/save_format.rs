//! The save format, measured on a real Alchemy game at depth 5 (the explore bot plays until
//! it gets there):
//! - JSON version 3, what Alchemy writes: the library by reference (`alembic::save::SavedGame`);
//! - JSON version 2, the whole game value with its library (what it wrote before), the
//!   baseline for the by-reference bar (size ≤ 0.5×);
//! - postcard, a compact binary serde format, with the version 2 envelope.
//!
//! Encoding, and decoding plus the loader's checks (checksum, linking, validation), for each.
//! The sizes are printed once.
//!
//! `cargo bench -p alembic-benches --bench save_format -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use alembic::Game;
use alembic_games::alchemy::save::Envelope;
use alembic_games::alchemy::{Rules, apply, bot::Bot, new_game, props::DEEPEST, save};
use criterion::{Criterion, criterion_group, criterion_main};

/// A game the explore bot has taken to depth 5 (the first seed that gets there).
fn depth5(rules: &Rules) -> Game {
    for seed in 1..40 {
        let mut game = new_game(seed, rules).expect("game");
        let mut bot = Bot::new(seed);
        for _ in 0..20_000 {
            match apply(&game, rules, bot.choose(&game)) {
                Ok(o) => {
                    game = o.game;
                    if o.over {
                        break;
                    }
                }
                Err(_) => bot.refused(),
            }
            if game.var(&DEEPEST).unwrap_or(1) >= 5 {
                return game;
            }
        }
    }
    panic!("no seed reached depth 5");
}

fn formats(c: &mut Criterion) {
    let rules = Rules::new().expect("rules");
    let game = depth5(&rules);
    let json = save::to_text(&game).expect("json");
    let env = Envelope::of(&game);
    let whole = serde_json::to_string(&env).expect("whole json");
    assert_eq!(save::from_text(&whole, &rules).expect("v2 loads"), game);
    assert_eq!(save::from_text(&json, &rules).expect("v3 loads"), game);
    let bin = postcard::to_allocvec(&env).expect("postcard");
    let back: Envelope<Game> = postcard::from_bytes(&bin).expect("postcard decodes");
    assert!(back.state == game && back.checksum == Some(game.state_hash()));
    assert!(back.game == "alchemy" && back.version == 2);
    println!(
        "save size at depth 5 (turn {}, {} things): json v3 {} bytes, json v2 (whole) {} bytes \
         (v3/v2 = {:.2}x), postcard v2 {} bytes",
        game.turn(),
        game.things().count(),
        json.len(),
        whole.len(),
        json.len() as f64 / whole.len() as f64,
        bin.len(),
    );
    let mut g = c.benchmark_group("save format, depth-5 Alchemy game");
    g.sample_size(20);
    g.bench_function("json v3: encode", |b| {
        b.iter(|| black_box(save::to_text(&game).expect("json")));
    });
    g.bench_function("json v2 (whole) baseline: encode", |b| {
        b.iter(|| black_box(serde_json::to_string(&env).expect("json")));
    });
    g.bench_function("postcard: encode", |b| {
        b.iter(|| black_box(postcard::to_allocvec(&env).expect("postcard")));
    });
    g.bench_function("json v3: decode + checksum + link + validate", |b| {
        b.iter(|| black_box(save::from_text(&json, &rules).expect("load")));
    });
    g.bench_function(
        "json v2 (whole) baseline: decode + checksum + validate",
        |b| {
            b.iter(|| black_box(save::from_text(&whole, &rules).expect("load")));
        },
    );
    g.bench_function("postcard: decode + checksum + validate", |b| {
        b.iter(|| {
            let e: Envelope<Game> = postcard::from_bytes(&bin).expect("decode");
            assert_eq!(Some(e.state.state_hash()), e.checksum);
            save::validate(&e.state, rules.hooks()).expect("valid");
            black_box(e.state)
        });
    });
    g.finish();
}

criterion_group!(benches, formats);
criterion_main!(benches);
