//! Plain rats against cunning rats (`Rats::cunning`: a rat near the hero plans its move on
//! copies of the game, `src/cunning.rs`), each met by the chase bot (`Policy::Explore`)
//! over the same seeds: wins, deaths, games cut off, rats killed, mean turns and the
//! time each took.
//!
//! ```sh
//! cargo run --release -p alembic-rl-rats --no-default-features --example cunning_rats
//! cargo run --release -p alembic-rl-rats --no-default-features --example cunning_rats -- 20
//! ```
//!
//! The argument is the number of seeds (1..=N, default 50).

use std::time::Instant;

use alembic::{Game, Prop};
use alembic_rats::Rats;
use alembic_session::ruleset::Policy;
use alembic_session::{Ruleset, Status};

/// A game is cut off after this many commands.
const MAX_COMMANDS: u64 = 3_000;
/// The rats' kill count, by name.
const KILLS: Prop<i32> = Prop::with_default("rats.kills", 0);

/// Wins, deaths, cut off, rats killed, turns, seconds over `seeds` with `policy`.
fn tally(rules: &Rats, seeds: u64, policy: Policy) -> (u32, u32, u32, i64, u64, f64) {
    let (mut won, mut died, mut cut, mut kills, mut turns) = (0, 0, 0, 0, 0);
    let start = Instant::now();
    for seed in 1..=seeds {
        let mut g: Game = rules.new_game(seed).expect("a game");
        let mut bot = rules.bot(seed, policy).expect("a bot");
        let mut tries = 0;
        while rules.status(&g) == Status::Playing && tries < MAX_COMMANDS {
            tries += 1;
            let Some(c) = bot.choose(&g) else { break };
            match rules.apply(&g, &c) {
                Ok(o) => g = o.game,
                Err(_) => bot.refused(),
            }
        }
        turns += g.turn();
        kills += i64::from(g.var(&KILLS).unwrap_or(0));
        match rules.status(&g) {
            Status::Over(e) if e.won => won += 1,
            Status::Over(_) => died += 1,
            Status::Playing => cut += 1,
        }
    }
    let secs = start.elapsed().as_secs_f64();
    (won, died, cut, kills, turns, secs)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    println!("| rats | chase bot won | died | cut off | rats killed | mean turns | seconds |");
    println!("|---|---|---|---|---|---|---|");
    for (name, rules) in [("plain", Rats::new()?), ("cunning", Rats::cunning()?)] {
        let (won, died, cut, kills, turns, secs) = tally(&rules, seeds, Policy::Explore);
        let mean = turns as f64 / seeds as f64;
        println!("| {name} | {won} | {died} | {cut} | {kills} | {mean:.0} | {secs:.2} |");
    }
    Ok(())
}
