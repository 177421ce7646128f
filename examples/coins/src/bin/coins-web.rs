//! Coins in the browser: the outside game through `alembic_web::run_games`.

fn main() -> std::process::ExitCode {
    alembic_web::run_games("coins-web", alembic_example_coins::GAMES)
}
