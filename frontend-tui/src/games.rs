//! The terminal binary's whole `main`, for any table of games: `alembic-tui` runs
//! [`alembic_games::GAMES`], and an outside crate runs its own games with the same flags,
//! signal handling and terminal restore (feature `bin`).
//!
//! Everything that can fail on bad input (flags, the game name, the save file) is checked
//! before the terminal enters raw mode, so errors print plainly and the shell is untouched.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use alembic_games::{GameArgs, GameEntry, launch_of};
use alembic_ui::{App, Control, Frame, Input, MinSize};
use clap::{CommandFactory, FromArgMatches, Parser};

use crate::{MIN_HEIGHT, MIN_WIDTH, Tui};

/// Play an Alembic roguelike in the terminal.
#[derive(Parser, Debug)]
#[command(name = "alembic-tui", version, about)]
struct Args {
    #[command(flatten)]
    game: GameArgs,
}

/// Test hook: with `ALEMBIC_TEST_PANIC=1` the app panics on its first input, so the end-to-end
/// script can check that a crash still restores the terminal.
struct PanicOnFirstInput<A>(A);

impl<A: App> App for PanicOnFirstInput<A> {
    fn render(&mut self, frame: &mut Frame) {
        self.0.render(frame);
    }

    fn handle(&mut self, _input: Input) -> Control {
        panic!("ALEMBIC_TEST_PANIC: deliberate crash to test terminal restoration");
    }

    fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
        self.0.farewell()
    }
}

/// The signals that end a session the way closing it does (save, restore the terminal).
#[cfg(unix)]
const STOP_SIGNALS: [(i32, &str); 4] = [
    (signal_hook::consts::SIGTERM, "SIGTERM"),
    (signal_hook::consts::SIGHUP, "SIGHUP"),
    (signal_hook::consts::SIGQUIT, "SIGQUIT"),
    (signal_hook::consts::SIGINT, "SIGINT"),
];

/// Route the stop signals into `flag` (it then holds the signal's number).
fn register_stop_signals(flag: &Arc<AtomicUsize>) -> Result<(), std::io::Error> {
    #[cfg(unix)]
    for (sig, _) in STOP_SIGNALS {
        signal_hook::flag::register_usize(sig, Arc::clone(flag), sig.unsigned_abs() as usize)?;
    }
    let _ = flag;
    Ok(())
}

/// The name of the signal number held in the stop flag.
fn signal_name(n: usize) -> &'static str {
    #[cfg(unix)]
    for (sig, name) in STOP_SIGNALS {
        if sig.unsigned_abs() as usize == n {
            return name;
        }
    }
    let _ = n;
    "a signal"
}

/// Run the terminal frontend over the games of `table` as `alembic-tui` runs the built-in
/// ones: `--game` takes their names (the first is the default), `--seed`, `--load`,
/// `--practice`, `--wizard`, `--replay`, `--list` and `--help` work as they do there, the
/// stop signals save the game and restore the terminal, and the exit status says whether
/// everything the session kept was kept. `program` names the binary in its help and errors.
///
/// ```no_run
/// # fn my_launch(_: &alembic_games::LaunchOptions)
/// #     -> Result<Box<dyn alembic_ui::App>, alembic_games::LaunchError> { unimplemented!() }
/// use alembic_games::GameEntry;
///
/// const MY_GAMES: &[GameEntry] = &[GameEntry {
///     name: "mine",
///     about: "my game on the contract",
///     launch: my_launch, // `alembic_session::play::launch(MyGame::new()?, opts)`
///     sim: None,
///     library_counts: || Ok(Vec::new()),
///     replay: true,
///     host: None, // or `Some(|o| alembic_games::host::host_session(MyGame::new(), o))`
/// }];
///
/// fn main() -> std::process::ExitCode {
///     alembic_tui::run_games("my-game", MY_GAMES)
/// }
/// ```
#[must_use]
pub fn run_games(program: &'static str, table: &'static [GameEntry]) -> ExitCode {
    let command = GameArgs::for_games(Args::command(), table).name(program);
    let args = match Args::from_arg_matches(&command.get_matches()) {
        Ok(args) => args,
        Err(e) => e.exit(),
    };
    if args.game.list {
        return alembic_games::print_games_of(table, program);
    }
    let game = args.game.game_name_of(table);
    let opts = args.game.launch_options_of(table, None);
    let app = match launch_of(table, &opts) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("{program}: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        eprintln!("{program}: error: needs an interactive terminal (stdin and stdout)");
        return ExitCode::FAILURE;
    }
    let app = MinSize::new(app, MIN_WIDTH, MIN_HEIGHT).with_noun("terminal");

    let stop = Arc::new(AtomicUsize::new(0));
    if let Err(e) = register_stop_signals(&stop) {
        eprintln!("{program}: error: cannot handle signals: {e}");
        return ExitCode::FAILURE;
    }
    // Raw mode + alternate screen + mouse, restored on quit, error and panic. A terminal
    // that hangs up, with or without a SIGHUP, ends the session as an error once the game
    // is saved (`TuiFrontend` watches for it).
    let tui = Tui::new()
        .with_stop_flag(Arc::clone(&stop))
        .with_title(format!("Alembic - {game}"));
    let ended = if std::env::var_os("ALEMBIC_TEST_PANIC").is_some_and(|v| v == "1") {
        tui.run_to_end(PanicOnFirstInput(app), |a| a.farewell())
    } else {
        tui.run_to_end(app, |a| a.farewell())
    };
    let (farewell, result) = match ended {
        Ok(farewell) => (farewell, Ok(())),
        Err(e) => (e.output, Err(e.error)),
    };
    let signal = stop.load(Ordering::SeqCst);
    if signal != 0 {
        // Not `eprintln!`: it panics when stderr is a terminal that is gone.
        let _ = writeln!(
            std::io::stderr(),
            "{program}: stopped by {}.",
            signal_name(signal)
        );
    }
    if alembic_games::report_session_end(program, farewell, result) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
