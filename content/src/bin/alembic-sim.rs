//! `alembic-sim`: play a game headless and print one JSON line.
//!
//! ```text
//! alembic-sim --game alchemy --seed 7 --turns 2000 --policy explore
//! alembic-sim --game alchemy --library
//! ```

use std::process::ExitCode;

use alembic_content::sim::{self, Policy};
use clap::{Parser, ValueEnum};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PolicyArg {
    Random,
    Explore,
}

/// Play a game without a screen and report the result as one JSON line.
#[derive(Parser, Debug)]
#[command(name = "alembic-sim", version)]
struct Args {
    /// The game to play.
    #[arg(long, default_value = "alchemy")]
    game: String,
    /// The seed of the new game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many turns to play at most.
    #[arg(long, default_value_t = 1000)]
    turns: u64,
    /// Who plays.
    #[arg(long, value_enum, default_value = "explore")]
    policy: PolicyArg,
    /// Print the object library's counts by category instead of playing.
    #[arg(long)]
    library: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let game = match sim::find(&args.game) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("alembic-sim: {e}");
            return ExitCode::from(2);
        }
    };
    let line = if args.library {
        game.library_counts().map(|v| v.to_string())
    } else {
        let policy = match args.policy {
            PolicyArg::Random => Policy::Random,
            PolicyArg::Explore => Policy::Explore,
        };
        game.run(args.seed, args.turns, policy)
            .and_then(|r| serde_json::to_string(&r).map_err(|e| sim::SimError::Game(e.to_string())))
    };
    match line {
        Ok(l) => {
            println!("{l}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("alembic-sim: {e}");
            ExitCode::FAILURE
        }
    }
}
