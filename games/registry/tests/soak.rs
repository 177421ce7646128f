//! Soak: random commands on many seeds with `check_invariants()` after every turn and
//! save/load round trips that must not change the game.
//!
//! `cargo test -p alembic-rl-games --test soak` runs a small soak (debug-friendly). The full
//! 100 seeds × 2,000 commands is ignored by default:
//! `cargo test --release -p alembic-rl-games --test soak -- --ignored`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alembic::rng::GameRng;
use alembic_games::alchemy::{RuleError, Rules, apply, bot::Bot, new_game, save};
use alembic_games::sim::random_command;

fn soak(seeds: std::ops::Range<u64>, commands: usize, round_trip_every: usize, bot_share: u64) {
    let rules = Rules::new().unwrap();
    for seed in seeds {
        let mut g = new_game(seed, &rules).unwrap();
        g.check_invariants().unwrap();
        let mut rng = GameRng::seed_from(seed.wrapping_mul(31) + 1);
        let mut bot = Bot::new(seed);
        for i in 0..commands {
            // Mostly random commands, some from the bot so play reaches deeper levels.
            let cmd = if rng.below(100) < bot_share {
                bot.choose(&g)
            } else {
                random_command(&g, &mut rng)
            };
            match apply(&g, &rules, cmd.clone()) {
                Ok(o) => {
                    g = o.game;
                    if let Err(e) = g.check_invariants() {
                        panic!("seed {seed}, command {i} ({cmd:?}): {e}");
                    }
                    if o.over {
                        break;
                    }
                }
                Err(RuleError::Refused(_)) => bot.refused(),
                Err(RuleError::GameOver) => break,
                Err(e @ RuleError::Engine(_)) => {
                    panic!("seed {seed}, command {i} ({cmd:?}): {e}")
                }
            }
            if i % round_trip_every == 0 {
                let back = save::from_text(&save::to_text(&g).unwrap(), &rules).unwrap();
                assert!(
                    back == g,
                    "seed {seed}: the round trip changed the game at command {i}"
                );
            }
        }
        let back = save::from_text(&save::to_text(&g).unwrap(), &rules).unwrap();
        assert_eq!(back.state_hash(), g.state_hash(), "seed {seed}");
    }
}

#[test]
fn small_soak() {
    soak(0..4, 250, 50, 30);
}

#[test]
#[ignore = "the full soak: run with --release -- --ignored"]
fn full_soak_100_seeds_2000_commands() {
    soak(0..100, 2000, 250, 30);
}
