//! `alembic-tui`: play an Alembic game in the terminal ([`alembic_tui::run_games`] over the
//! built-in games).

use std::process::ExitCode;

fn main() -> ExitCode {
    alembic_tui::run_games("alembic-tui", alembic_games::GAMES)
}
