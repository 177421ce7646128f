//! `alembic-web`: the server over the registry's games. Prints its address, serves until
//! SIGTERM or Ctrl-C, then saves every game and exits. An outside crate's games take the
//! same path: [`alembic_web::run_games`] with their own table.

fn main() -> std::process::ExitCode {
    alembic_web::run_games("alembic-web", alembic_games::GAMES)
}
