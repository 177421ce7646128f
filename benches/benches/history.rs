//! Time as a value: what keeping every turn of a real Alchemy game costs, how fast undo and
//! redo are, and how fast a whole recorded game replays with every checkpoint verified.
//!
//! `cargo bench -p alembic-benches --bench history -- --warm-up-time 1 --measurement-time 3`
//!
//! - **Bytes per kept turn** (printed once, counted by an allocator wrapper): 1,000 explore-bot
//!   turns of Alchemy (seed 1) with every `Game` kept in a `History`, against a deep-copied
//!   baseline (each value decoded afresh from postcard, so it shares nothing) for the first
//!   50 turns. Bar (issue 11): ≤ 16 KiB per kept turn; issue 32: ≤ 5 KiB.
//! - **Undo and redo** with the values held: one undo plus one redo, against indexing a
//!   `Vec<Game>` and cloning the value (`Game::clone` is Θ(1)). Bar: ≤ 1 µs each.
//! - **Replay speed**: `Recording::verify` over a whole recorded bot game (checkpoints every
//!   100 commands), against applying the same commands with no hashing. Bar: ≥ 20,000
//!   turns/s.

use std::alloc::System;
use std::hint::black_box;

use alembic::{Game, history::History, replay::Recording, replay::ReplayHeader};
use alembic_games::alchemy::{Command, Rules, apply, bot::Bot, new_game};
use criterion::{Criterion, criterion_group, criterion_main};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Play the explore bot from `seed` for at most `turns` accepted commands; every accepted
/// command with its turn, and every value.
fn bot_game(rules: &Rules, seed: u64, turns: usize) -> (Vec<(u64, Command)>, Vec<Game>) {
    let mut game = new_game(seed, rules).expect("game");
    let mut bot = Bot::new(seed);
    let mut commands = Vec::new();
    let mut values = vec![game.clone()];
    let mut attempts = 0;
    while commands.len() < turns && attempts < turns * 4 {
        attempts += 1;
        let cmd = bot.choose(&game);
        let turn = game.turn();
        match apply(&game, rules, cmd.clone()) {
            Ok(o) => {
                game = o.game;
                commands.push((turn, cmd));
                values.push(game.clone());
                if o.over {
                    break;
                }
            }
            Err(_) => bot.refused(),
        }
    }
    (commands, values)
}

fn live(region: &Region<'_, System>) -> i64 {
    let s = region.change();
    s.bytes_allocated as i64 - s.bytes_deallocated as i64
}

fn memory_report(rules: &Rules) {
    let (commands, values) = bot_game(rules, 1, 1000);
    let first = values[0].clone();
    drop(values);
    // Replay into a History, measuring what the kept values add.
    let region = Region::new(GLOBAL);
    let mut h: History<Game, (u64, Command)> = History::new(first.clone());
    let mut g = first.clone();
    for (turn, c) in &commands {
        g = apply(&g, rules, c.clone()).expect("replays").game;
        h.push((*turn, c.clone()), g.clone());
    }
    drop(g);
    let kept = live(&region);
    let per_turn = kept as f64 / commands.len() as f64;
    black_box(&h);
    drop(h);

    // Baseline: deep copies (decoded from postcard: nothing shared) of the first 50.
    let n = 50.min(commands.len());
    let mut g = first;
    let mut copies = Vec::with_capacity(n);
    let region = Region::new(GLOBAL);
    for (_, c) in commands.iter().take(n) {
        g = apply(&g, rules, c.clone()).expect("replays").game;
        let bytes = postcard::to_allocvec(&g).expect("encode");
        let copy: Game = postcard::from_bytes(&bytes).expect("decode");
        drop(bytes);
        copies.push(copy);
    }
    drop(g);
    let deep = live(&region) as f64 / n as f64;
    black_box(&copies);
    println!(
        "history: {} turns kept: {:.0} B per kept turn ({:.1} KiB; bar 5 KiB, issue 32); deep copies: \
         {:.0} B per turn ({:.0}x more)",
        commands.len(),
        per_turn,
        per_turn / 1024.0,
        deep,
        deep / per_turn.max(1.0)
    );
}

fn bench(c: &mut Criterion) {
    let rules = Rules::new().expect("rules");
    memory_report(&rules);

    // Undo and redo with every value held.
    let (commands, values) = bot_game(&rules, 1, 1000);
    let mut h: History<Game, (u64, Command)> = History::new(values[0].clone());
    for (cmd, v) in commands.iter().zip(values.iter().skip(1)) {
        h.push(cmd.clone(), v.clone());
    }
    let mut group = c.benchmark_group("history");
    group.bench_function("undo_then_redo", |b| {
        b.iter(|| {
            black_box(h.undo().map(Game::turn));
            black_box(h.redo().map(Game::turn));
        });
    });
    let mut i = 0usize;
    group.bench_function("baseline_vec_index_clone_x2", |b| {
        b.iter(|| {
            i = (i + 1) % values.len();
            let _ = black_box(values[i].clone());
            let _ = black_box(values[values.len() - 1 - i].clone());
        });
    });

    // Replay speed over a whole bot game.
    let (commands, _) = bot_game(&rules, 2, 20_000);
    let start = new_game(2, &rules).expect("game");
    let mut rec: Recording<Command> = Recording::new(ReplayHeader::new("alchemy", "bench", 2));
    rec.push_checkpoint(start.turn(), start.state_hash());
    let mut g = start.clone();
    for (n, (turn, c)) in commands.iter().enumerate() {
        rec.push_command(*turn, c.clone());
        g = apply(&g, &rules, c.clone()).expect("replays").game;
        if (n + 1) % 100 == 0 {
            rec.push_checkpoint(g.turn(), g.state_hash());
        }
    }
    rec.push_checkpoint(g.turn(), g.state_hash());
    let turns = g.turn();
    println!(
        "replay: a bot game of {} commands, {turns} turns, {} checkpoints",
        commands.len(),
        rec.entries.len() - commands.len()
    );
    group.bench_function("state_hash_end_of_replayed_game", |b| {
        b.iter(|| black_box(g.state_hash()));
    });
    group.sample_size(10);
    group.bench_function("replay_verify_whole_game", |b| {
        b.iter(|| {
            let step = |g: &Game, c: &Command| apply(g, &rules, c.clone()).map(|o| o.game);
            black_box(
                rec.verify(start.clone(), step, Game::state_hash, Game::turn)
                    .expect("verifies")
                    .final_hash,
            );
        });
    });
    group.bench_function("baseline_apply_without_hashing", |b| {
        b.iter(|| {
            let mut g = start.clone();
            for (_, c) in &commands {
                g = apply(&g, &rules, c.clone()).expect("replays").game;
            }
            black_box(g.turn());
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
