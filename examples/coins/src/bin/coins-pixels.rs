//! Coins in a window: the outside game through `alembic_pixels::run_games`.

fn main() -> std::process::ExitCode {
    alembic_pixels::run_games("coins-pixels", alembic_example_coins::GAMES)
}
