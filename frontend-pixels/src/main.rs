//! `alembic-pixels`: play an Alembic game in a native window.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use alembic::App;
use alembic_content::{LaunchOptions, launch};
use alembic_pixels::{Face, PixelsFrontend, PixelsOptions};
use clap::Parser;

/// Play Alembic in a native window with bitmap glyphs.
#[derive(Debug, Parser)]
#[command(name = "alembic-pixels", version, about)]
struct Args {
    /// Which game to play.
    #[arg(long, value_name = "NAME", default_value_t = alembic_content::default_game().to_string())]
    game: String,
    /// Seed for a new game: a number, or any word (as on the start screen); random when
    /// omitted. With a saved game waiting, the start screen asks before replacing it.
    #[arg(long, value_name = "SEED")]
    seed: Option<String>,
    /// Continue the saved game in FILE.
    #[arg(long, value_name = "FILE")]
    load: Option<PathBuf>,
    /// Integer pixel scale, 1–4 (default: the largest that fits the screen).
    #[arg(long, value_name = "1..4", value_parser = clap::value_parser!(u8).range(1..=4))]
    scale: Option<u8>,
    /// Cell shape: `square` 8×8 glyphs, or `tall` 8×16 (rows doubled, terminal-like).
    #[arg(long, value_enum, default_value_t = FaceArg::Square)]
    face: FaceArg,
}

/// `--face` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FaceArg {
    /// 8×8 cells.
    Square,
    /// 8×16 cells.
    Tall,
}

/// The game comes from `alembic-content`; this frontend contains no game code.
fn make_app(args: &Args) -> Result<Box<dyn App>, String> {
    let opts = LaunchOptions {
        game: args.game.clone(),
        seed: args
            .seed
            .as_deref()
            .map(alembic_content::alchemy_ui::seed_from_text),
        load: args.load.clone(),
    };
    launch(&opts).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args = Args::parse();
    // The game is built before any window opens: a bad --game/--load never shows one.
    let mut app = match make_app(&args) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("alembic-pixels: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Start at 80×50 square cells or 80×25 tall ones: about 640×400 pixels at 1×.
    let (face, rows) = match args.face {
        FaceArg::Square => (Face::Square8x8, 50),
        FaceArg::Tall => (Face::Tall8x16, 25),
    };
    let opts = PixelsOptions {
        title: format!("Alembic — {}", args.game),
        scale: args.scale,
        face,
        rows,
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
    let result = alembic::run(&mut frontend, app.as_mut());
    drop(frontend);
    if stop.load(Ordering::SeqCst) != 0 {
        eprintln!(
            "alembic-pixels: stopped by signal {}.",
            stop.load(Ordering::SeqCst)
        );
    }
    if alembic_content::report_session_end("alembic-pixels", app.farewell(), result) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
