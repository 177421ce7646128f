//! Coins in a terminal: the outside game through `alembic_tui::run_games`.

fn main() -> std::process::ExitCode {
    alembic_tui::run_games("coins-tui", alembic_example_coins::GAMES)
}
