//! `alembic-sim`: play a game headless and print one JSON line.
//!
//! ```text
//! alembic-sim --game alchemy --seed 7 --turns 2000 --policy explore
//! alembic-sim --game alchemy --library
//! alembic-sim --list
//! alembic-sim --game caves --seed 3 --record caves-3.replay
//! alembic-sim --replay caves-3.replay --verify
//! alembic-sim --game caves --check-data games/caves/data/caves.toml my-mod/
//! alembic-sim --game alchemy --check-data games/alchemy/data/alchemy.toml
//! alembic-sim --game alchemy --list-keys
//! ```
//!
//! Exit codes: 0 success; 1 a game error (a bug); 2 bad input (unknown game, unreadable or
//! foreign recording, or one whose header does not match its header hash: a seed, mode or
//! version edited after it was recorded); 3 a recording that does not replay (the turn and both hashes are
//! printed); 4 a recording that replays but is not complete (it stops before the game's
//! end, its last line is cut off, commands follow its last checkpoint, or another version
//! made it: what was seen is said on stderr), unless `--partial` accepts that.

/// The allocator of bot games: mimalloc (the `mimalloc` feature, on by default), which
/// runs the same games about 7% faster than the system allocator (benches/README.md).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::ExitCode;

use alembic_sim::{self as sim, Policy};
use clap::{Parser, ValueEnum};

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PolicyArg {
    Random,
    Explore,
    Plan,
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
    /// Also write the run's recording to FILE (the engine's replay format).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["library", "replay"])]
    record: Option<std::path::PathBuf>,
    /// Replay the recording in FILE instead of playing (its header names the game).
    #[arg(long, value_name = "FILE", conflicts_with = "library")]
    replay: Option<std::path::PathBuf>,
    /// With --replay: check every checkpoint and exit 3 at the first divergence; exit 4
    /// when it replays but is not complete (see --partial).
    #[arg(long, requires = "replay")]
    verify: bool,
    /// With --verify: a recording that replays as far as it goes is enough (exit 0), such
    /// as the recording of a game in play, or a bot's run that stopped after --turns.
    #[arg(long, requires = "verify")]
    partial: bool,
    /// List every game it plays (the frontends' table, less the games that play only in a
    /// frontend) and exit.
    #[arg(long)]
    list: bool,
    /// Check the game's data files (a `.toml` file, or a directory read by file name; more
    /// paths are mods loaded after it): print every error and exit 2, or one JSON line.
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with_all = ["library", "replay", "record"])]
    check_data: Vec<std::path::PathBuf>,
    /// Print the game's data schema: every key with its type, default and meaning.
    #[arg(long, conflicts_with_all = ["library", "replay", "record"])]
    list_keys: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(path) = &args.replay {
        return replay(path, args.partial);
    }
    if args.list {
        return match sim::list_games() {
            Ok(lines) => out(&lines.join("\n")),
            Err(e) => {
                eprintln!("alembic-sim: error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.list_keys {
        return match sim::data_schema(&args.game) {
            Ok(schema) => out(schema.describe().trim_end()),
            Err(e) => {
                eprintln!("alembic-sim: {e}");
                ExitCode::from(2)
            }
        };
    }
    if !args.check_data.is_empty() {
        return check_data(&args.game, &args.check_data);
    }
    if args.library {
        return match sim::library_json(&args.game) {
            Ok(v) => out(&v.to_string()),
            Err(e @ sim::SimError::UnknownGame { .. }) => {
                eprintln!("alembic-sim: {e}");
                ExitCode::from(2)
            }
            Err(e) => {
                eprintln!("alembic-sim: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let game = match sim::find(&args.game) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("alembic-sim: {e}");
            return ExitCode::from(2);
        }
    };
    let line = if let Some(path) = &args.record {
        let policy = match args.policy {
            PolicyArg::Random => Policy::Random,
            PolicyArg::Explore => Policy::Explore,
            PolicyArg::Plan => Policy::Plan,
        };
        match game.record(args.seed, args.turns, policy) {
            Ok((report, text)) => {
                if let Err(e) = alembic_session::storage::write_atomic(path, text.as_bytes()) {
                    eprintln!("alembic-sim: cannot write {}: {e}", path.display());
                    return ExitCode::from(2);
                }
                serde_json::to_string(&report).map_err(sim::SimError::from)
            }
            Err(e) => Err(e),
        }
    } else {
        let policy = match args.policy {
            PolicyArg::Random => Policy::Random,
            PolicyArg::Explore => Policy::Explore,
            PolicyArg::Plan => Policy::Plan,
        };
        game.run(args.seed, args.turns, policy)
            .and_then(|r| serde_json::to_string(&r).map_err(sim::SimError::from))
    };
    match line {
        Ok(l) => out(&l),
        Err(e) => {
            eprintln!("alembic-sim: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--check-data PATH…`: every error on stderr and exit 2, or the report on stdout.
fn check_data(game: &str, paths: &[std::path::PathBuf]) -> ExitCode {
    match sim::check_data(game, paths) {
        Ok(report) => match serde_json::to_string(&report) {
            Ok(line) => out(&line),
            Err(e) => {
                eprintln!("alembic-sim: {e}");
                ExitCode::FAILURE
            }
        },
        Err(Ok(errors)) => {
            for e in errors.errors() {
                eprintln!("{e}");
            }
            let n = errors.errors().len();
            eprintln!(
                "alembic-sim: {n} error{} in the {game} data",
                if n == 1 { "" } else { "s" }
            );
            ExitCode::from(2)
        }
        Err(Err(e)) => {
            eprintln!("alembic-sim: {e}");
            ExitCode::from(2)
        }
    }
}

/// `--replay FILE [--verify]`: replay a recording, checking every checkpoint.
fn replay(path: &std::path::Path, partial: bool) -> ExitCode {
    // The header names the game: read it first, then let that game verify.
    let name = match alembic_session::storage::read_bounded(path, 1 << 28)
        .map_err(|e| e.to_string())
        .and_then(|b| {
            alembic::replay::Recording::<serde_json::Value>::parse_bytes(&b)
                .map_err(|e| e.to_string())
        }) {
        Ok(rec) => rec.header.game,
        Err(e) => {
            eprintln!("alembic-sim: cannot replay {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let game = match sim::find(&name) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("alembic-sim: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    match game.verify(path) {
        Ok(report) if report.checkpoints == 0 => {
            eprintln!(
                "alembic-sim: cannot replay {}: it holds no checkpoint to verify (truncated?)",
                path.display()
            );
            ExitCode::from(2)
        }
        Ok(report) => match serde_json::to_string(&report) {
            Ok(line) => {
                if out(&line) != ExitCode::SUCCESS {
                    ExitCode::FAILURE
                } else if report.verified {
                    ExitCode::SUCCESS
                } else if partial {
                    eprintln!("alembic-sim: {}: {}", path.display(), report.summary);
                    ExitCode::SUCCESS
                } else {
                    eprintln!(
                        "alembic-sim: {}: {} (--partial accepts that)",
                        path.display(),
                        report.summary
                    );
                    ExitCode::from(4)
                }
            }
            Err(e) => {
                eprintln!("alembic-sim: {e}");
                ExitCode::FAILURE
            }
        },
        Err(sim::VerifyError::Diverged(e)) => {
            eprintln!("alembic-sim: {}: {e}", path.display());
            ExitCode::from(3)
        }
        Err(e) => {
            eprintln!("alembic-sim: cannot replay {}: {e}", path.display());
            ExitCode::from(2)
        }
    }
}

/// Write `line` and a newline to stdout. A reader that went away (`alembic-sim … | head`)
/// ends the run quietly with a failure status, as a Unix tool killed by `SIGPIPE` would,
/// where `println!` panicked; any other write error is reported.
fn out(line: &str) -> ExitCode {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{line}").and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("alembic-sim: cannot write the result: {e}");
            ExitCode::FAILURE
        }
    }
}
