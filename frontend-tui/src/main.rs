//! `alembic-tui`: play an Alembic game in the terminal.
//!
//! Everything that can fail on bad input (flags, the game name, the save file) is checked
//! before the terminal enters raw mode, so errors print plainly and the shell is untouched.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use alembic::{App, Control, Frame, Frontend, Input, MinSize};
use alembic_content::{LaunchOptions, default_game, games, launch};
use alembic_tui::{MIN_HEIGHT, MIN_WIDTH, TuiFrontend, detect_colour_depth};
use clap::Parser;
use clap::builder::PossibleValuesParser;

/// Play an Alembic roguelike in the terminal.
#[derive(Parser, Debug)]
#[command(name = "alembic-tui", version, about)]
struct Args {
    /// Seed for a new game (random when omitted).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Continue the game saved in FILE.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Which game to play.
    #[arg(long, value_name = "NAME", value_parser = PossibleValuesParser::new(games()))]
    game: Option<String>,
}

/// Test hook: with `ALEMBIC_TEST_PANIC=1` the app panics on its first input, so the end-to-end
/// script can check that a crash still restores the terminal.
struct PanicOnFirstInput<A>(A);

impl<A: App> App for PanicOnFirstInput<A> {
    fn render(&self, frame: &mut Frame) {
        self.0.render(frame);
    }

    fn handle(&mut self, _input: Input) -> Control {
        panic!("ALEMBIC_TEST_PANIC: deliberate crash to test terminal restoration");
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let game = args.game.unwrap_or_else(|| default_game().to_string());
    let opts = LaunchOptions {
        game: game.clone(),
        seed: args.seed,
        load: args.load,
    };
    let app = match launch(&opts) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("alembic-tui: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!("alembic-tui: error: needs an interactive terminal (stdin and stdout)");
        return ExitCode::FAILURE;
    }
    let depth = detect_colour_depth(std::env::var("COLORTERM").ok().as_deref());
    let app = MinSize::new(app, MIN_WIDTH, MIN_HEIGHT).with_noun("terminal");

    // Raw mode + alternate screen + a panic hook that restores both.
    let terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            eprintln!("alembic-tui: error: cannot set up the terminal: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut frontend = TuiFrontend::new(terminal, depth);
    let _ = frontend.set_title(&format!("Alembic - {game}"));
    let result = if std::env::var_os("ALEMBIC_TEST_PANIC").is_some_and(|v| v == "1") {
        alembic::run(&mut frontend, &mut PanicOnFirstInput(app))
    } else {
        let mut app = app;
        alembic::run(&mut frontend, &mut app)
    };
    drop(frontend);
    ratatui::restore();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("alembic-tui: error: {e}");
            ExitCode::FAILURE
        }
    }
}
