//! The window binary's whole `main`, for any table of games: `alembic-pixels` runs
//! [`alembic_games::GAMES`], and an outside crate runs its own games with the same flags,
//! signal handling and save on a lost X connection (feature `bin`).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use alembic_games::{GameArgs, GameEntry, LaunchError, launch_of};
use alembic_ui::App;
use clap::{CommandFactory, FromArgMatches, Parser};

use crate::{Font, PixelsFrontend, PixelsOptions};

/// Play Alembic in a native window.
#[derive(Debug, Parser)]
#[command(name = "alembic-pixels", version, about)]
struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// The font: `noto` (anti-aliased Noto Sans Mono, sized to show the whole level, or at
    /// least 80×24 cells on a small window), or the retro bitmaps `8x8` (square cells) and
    /// `8x16`.
    #[arg(long, value_enum, default_value_t = FontArg::Noto)]
    font: FontArg,
    /// A fixed integer scale, 1–6, for the bitmap fonts (default: the largest that shows
    /// 80×24 cells; Noto always picks its size from the window).
    #[arg(long, value_name = "1..6", value_parser = clap::value_parser!(u8).range(1..=6))]
    scale: Option<u8>,
    /// Start with graphical tiles on the map instead of letters (F2 switches in game).
    #[arg(long)]
    tiles: bool,
}

/// `--font` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FontArg {
    /// Noto Sans Mono, anti-aliased.
    Noto,
    /// 8×8 bitmaps, square cells.
    #[value(name = "8x8")]
    Bitmap8x8,
    /// 8×8 bitmaps with rows doubled: 8×16 cells.
    #[value(name = "8x16")]
    Bitmap8x16,
}

/// The game comes from the table; this frontend contains no game code.
fn make_app(args: &Args, table: &[GameEntry]) -> Result<Box<dyn App>, LaunchError> {
    launch_of(table, &args.game.launch_options_of(table, Some(args.tiles)))
}

/// Run the window frontend over the games of `table` as `alembic-pixels` runs the built-in
/// ones: `--game` takes their names (the first is the default), the shared game flags and
/// the window's (`--font`, `--scale`, `--tiles`), the stop signals, and the save when the X
/// connection dies. `program` names the binary in its help and errors.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     alembic_pixels::run_games("my-game", alembic_games::GAMES) // or a table of your own
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
    if args.scale.is_some() && args.font == FontArg::Noto {
        eprintln!(
            "{program}: --scale applies to the bitmap fonts (--font 8x8 or 8x16); \
             Noto sizes itself to the window"
        );
        return ExitCode::from(2);
    }
    // The game is built before any window opens: a bad --game/--load never shows one.
    let app = match make_app(&args, table) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("{program}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let font = match args.font {
        FontArg::Noto => Font::Noto,
        FontArg::Bitmap8x8 => Font::Bitmap8x8,
        FontArg::Bitmap8x16 => Font::Bitmap8x16,
    };
    let opts = PixelsOptions {
        title: format!("Alembic: {}", args.game.game_name_of(table)),
        scale: args.scale,
        font,
        ..PixelsOptions::default()
    };
    let frontend = match PixelsFrontend::open(&opts) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{program}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stop = Arc::new(AtomicUsize::new(0));
    #[cfg(unix)]
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGQUIT,
        signal_hook::consts::SIGINT,
    ] {
        if let Err(e) =
            signal_hook::flag::register_usize(sig, Arc::clone(&stop), sig.unsigned_abs() as usize)
        {
            eprintln!("{program}: cannot handle signals: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut frontend = frontend.with_stop_flag(Arc::clone(&stop));
    // Should the X connection die, Xlib's I/O error handler saves the game before the
    // process ends (crate::xlost).
    let app = crate::SaveOnXLoss::new(app);
    let ended = alembic_ui::run_to_end(&mut frontend, app, |a| a.into_inner().farewell());
    drop(frontend);
    let (farewell, result) = match ended {
        Ok(farewell) => (farewell, Ok(())),
        Err(e) => (e.output, Err(e.error)),
    };
    if stop.load(Ordering::SeqCst) != 0 {
        eprintln!(
            "{program}: stopped by signal {}.",
            stop.load(Ordering::SeqCst)
        );
    }
    if alembic_games::report_session_end(program, farewell, result) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
