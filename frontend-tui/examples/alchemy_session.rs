//! Alchemy on the session every game plays on, in the terminal: the rules answer the
//! session's questions (quaff, throw with the targeting cursor, wield, craft…) and journeys
//! (explore, travel, rest, auto-fight), and the session's one play screen shows them. A
//! preview of issue 52's one session: `alembic-tui --game alchemy` still plays Alchemy's
//! own screens until this path has everything they have.
//!
//! ```text
//! cargo run -p alembic-rl-tui --example alchemy_session -- --seed 11
//! ```
//!
//! The whole `main` is the frontend's public API over a one-game table, as an outside game's
//! would be: `--help`, `--seed`, `--replay`, `--practice`, `--wizard`, saves and the stop
//! signals work as in the binary.

use std::process::ExitCode;

use alembic_games::GameEntry;

/// Alchemy's entry of the built-in table, launched on the shared session.
const TABLE: &[GameEntry] = &[GameEntry {
    launch: alembic_games::alchemy::ui::launch_shared,
    ..alembic_games::GAMES[0]
}];

fn main() -> ExitCode {
    alembic_tui::run_games("alchemy-session", TABLE)
}
