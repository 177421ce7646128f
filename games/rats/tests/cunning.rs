//! Cunning rats (`Rats::cunning`: a rat near the hero plans its move on copies of the game)
//! against plain ones: the same chase bot, the same seeds.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alembic::Game;
use alembic_rats::Rats;
use alembic_session::ruleset::Policy;
use alembic_session::{Ruleset, Status};

/// The chase bot's game of `seed` against `rules`, to its end (or 3,000 commands).
fn chased(rules: &Rats, seed: u64) -> Game {
    let mut g = rules.new_game(seed).unwrap();
    let mut bot = rules.bot(seed, Policy::Explore).unwrap();
    for _ in 0..3_000 {
        if rules.status(&g) != Status::Playing {
            break;
        }
        let Some(c) = bot.choose(&g) else { break };
        match rules.apply(&g, &c) {
            Ok(o) => g = o.game,
            Err(_) => bot.refused(),
        }
    }
    g
}

fn won(rules: &Rats, g: &Game) -> bool {
    matches!(rules.status(g), Status::Over(e) if e.won)
}

#[test]
fn cunning_rats_kill_the_chase_bot_more_often_than_plain_ones() {
    let (plain, cunning) = (Rats::new().unwrap(), Rats::cunning().unwrap());
    let seeds = 1..=20;
    let plain_wins = seeds
        .clone()
        .filter(|&s| won(&plain, &chased(&plain, s)))
        .count();
    let cunning_wins = seeds
        .filter(|&s| won(&cunning, &chased(&cunning, s)))
        .count();
    eprintln!(
        "the chase bot won {plain_wins} of 20 against plain rats, {cunning_wins} against cunning ones"
    );
    assert!(cunning_wins < plain_wins, "{cunning_wins} vs {plain_wins}");
}

#[test]
fn a_game_with_cunning_rats_plays_the_same_from_the_same_seed() {
    let cunning = Rats::cunning().unwrap();
    let (a, b) = (chased(&cunning, 7), chased(&cunning, 7));
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(a.turn(), b.turn());
    // And not the plain rats' game.
    let plain = Rats::new().unwrap();
    assert_ne!(chased(&plain, 7).state_hash(), a.state_hash());
}
