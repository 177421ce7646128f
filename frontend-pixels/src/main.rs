//! `alembic-pixels`: play an Alembic game in a native window.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use alembic_games::{GameArgs, LaunchError, launch};
use alembic_pixels::{Font, PixelsFrontend, PixelsOptions};
use alembic_ui::App;
use clap::Parser;

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

/// The game comes from `alembic-games`; this frontend contains no game code.
fn make_app(args: &Args) -> Result<Box<dyn App>, LaunchError> {
    launch(&args.game.launch_options(Some(args.tiles)))
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.game.list {
        return alembic_games::print_games("alembic-pixels");
    }
    if args.scale.is_some() && args.font == FontArg::Noto {
        eprintln!(
            "alembic-pixels: --scale applies to the bitmap fonts (--font 8x8 or 8x16); \
             Noto sizes itself to the window"
        );
        return ExitCode::from(2);
    }
    // The game is built before any window opens: a bad --game/--load never shows one.
    let app = match make_app(&args) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("alembic-pixels: {e}");
            return ExitCode::FAILURE;
        }
    };
    let font = match args.font {
        FontArg::Noto => Font::Noto,
        FontArg::Bitmap8x8 => Font::Bitmap8x8,
        FontArg::Bitmap8x16 => Font::Bitmap8x16,
    };
    let opts = PixelsOptions {
        title: format!("Alembic: {}", args.game.game_name()),
        scale: args.scale,
        font,
        ..PixelsOptions::default()
    };
    let frontend = match PixelsFrontend::open(&opts) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("alembic-pixels: {e}");
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
            eprintln!("alembic-pixels: cannot handle signals: {e}");
            return ExitCode::FAILURE;
        }
    }
    let mut frontend = frontend.with_stop_flag(Arc::clone(&stop));
    // Should the X connection die, Xlib's I/O error handler saves the game before the
    // process ends (alembic_pixels::xlost).
    let app = alembic_pixels::SaveOnXLoss::new(app);
    let ended = alembic_ui::run_to_end(&mut frontend, app, |a| a.into_inner().farewell());
    drop(frontend);
    let (farewell, result) = match ended {
        Ok(farewell) => (farewell, Ok(())),
        Err(e) => (e.output, Err(e.error)),
    };
    if stop.load(Ordering::SeqCst) != 0 {
        eprintln!(
            "alembic-pixels: stopped by signal {}.",
            stop.load(Ordering::SeqCst)
        );
    }
    if alembic_games::report_session_end("alembic-pixels", farewell, result) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
