//! `alembic-pixels`: play an Alembic game in a native window
//! ([`alembic_pixels::run_games`] over the built-in games).

use std::process::ExitCode;

fn main() -> ExitCode {
    alembic_pixels::run_games("alembic-pixels", alembic_games::GAMES)
}
