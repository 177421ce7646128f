//! The planning bot against the chase bot (`Policy::Explore`) over the same seeds: wins,
//! deaths, games cut off, mean turns and the time each took.
//!
//! ```sh
//! cargo run --release -p alembic-rl-rats --no-default-features --example plan_vs_chase
//! cargo run --release -p alembic-rl-rats --no-default-features --example plan_vs_chase -- 50 1500 3 4
//! ```
//!
//! Arguments: seeds (1..=N, default 50), then the planner's budget in nodes, depth and
//! samples (default 1,500, 3, 4).

use std::time::Instant;

use alembic::Game;
use alembic_rats::{Command, PlanningBot, Rats};
use alembic_session::ruleset::{Bot, Policy};
use alembic_session::{Ruleset, Status};

/// A game is cut off after this many commands.
const MAX_COMMANDS: u64 = 3_000;

#[derive(Default)]
struct Tally {
    won: u32,
    died: u32,
    cut: u32,
    turns: u64,
    nodes_secs: f64,
}

fn play(rules: &Rats, seed: u64, bot: &mut dyn Bot<Command>, tally: &mut Tally) {
    let mut g: Game = rules.new_game(seed).expect("a game");
    let mut tries = 0;
    while rules.status(&g) == Status::Playing && tries < MAX_COMMANDS {
        tries += 1;
        let Some(c) = bot.choose(&g) else { break };
        match rules.apply(&g, &c) {
            Ok(o) => g = o.game,
            Err(_) => bot.refused(),
        }
    }
    tally.turns += g.turn();
    match rules.status(&g) {
        Status::Over(e) if e.won => tally.won += 1,
        Status::Over(_) => tally.died += 1,
        Status::Playing => tally.cut += 1,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = |i: usize, d: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(d)
    };
    let (seeds, budget) = (arg(1, 50), arg(2, 1_500));
    let (depth, samples) = (arg(3, 3) as u32, arg(4, 4) as u32);
    let rules = Rats::new()?;
    let mut rows = Vec::new();
    for name in ["chase (Policy::Explore)", "planning (PlanningBot)"] {
        let mut tally = Tally::default();
        let start = Instant::now();
        for seed in 1..=seeds {
            if name.starts_with("chase") {
                let mut bot = rules.bot(seed, Policy::Explore).expect("the rats' bot");
                play(&rules, seed, &mut *bot, &mut tally);
            } else {
                let mut bot = PlanningBot::new(&rules, seed)
                    .budget(budget)
                    .depth(depth)
                    .samples(samples);
                play(&rules, seed, &mut bot, &mut tally);
                if let Some(e) = bot.error() {
                    return Err(e.into());
                }
            }
        }
        tally.nodes_secs = start.elapsed().as_secs_f64();
        rows.push((name, tally));
    }
    println!("seeds 1..={seeds}; planner: budget {budget} nodes, depth {depth}, samples {samples}");
    println!("| bot | won | died | cut off | win rate | mean turns | seconds |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, t) in rows {
        let n = seeds as f64;
        println!(
            "| {name} | {} | {} | {} | {:.0}% | {:.0} | {:.1} |",
            t.won,
            t.died,
            t.cut,
            100.0 * f64::from(t.won) / n,
            t.turns as f64 / n,
            t.nodes_secs
        );
    }
    Ok(())
}
