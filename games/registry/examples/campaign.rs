//! The reliability campaign past the checksum, on the stable toolchain: structure-aware
//! edits of a real Alchemy save and a real recording (see `alembic_games::campaign`),
//! steered by a seeded generator, each case timed (a hang is 10 s) and its panics caught.
//! Prints the table: cases, panics, hangs, games lost, corrupt accepted (and how many were
//! accepted or refused), one row per target; exits 1 if any panic, hang, lost game or corrupt
//! accepted save was found.
//!
//! ```text
//! cargo run --release -p alembic-rl-games --example campaign -- CASES [SEED]
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use alembic::replay::Recording;
use alembic_games::alchemy::{self, Command, Rules, save};
use alembic_games::campaign::{self, Verdict};
use alembic_games::sim::{self, Policy};

#[derive(Default)]
struct Row {
    cases: u64,
    panics: u64,
    hangs: u64,
    lost: u64,
    corrupt: u64,
    accepted: u64,
    refused: u64,
}

impl Row {
    fn add(&mut self, outcome: Result<Result<Verdict, ()>, ()>, what: &str) {
        self.cases += 1;
        match outcome {
            Err(()) => {
                self.hangs += 1;
                eprintln!("hang: {what}");
            }
            Ok(Err(())) => {
                self.panics += 1;
                eprintln!("panic: {what}");
            }
            Ok(Ok(Verdict::Refused)) => self.refused += 1,
            Ok(Ok(Verdict::Accepted)) => self.accepted += 1,
            Ok(Ok(Verdict::Lost(why))) => {
                self.lost += 1;
                eprintln!("lost: {what}: {why}");
            }
            Ok(Ok(Verdict::CorruptAccepted(why))) => {
                self.corrupt += 1;
                eprintln!("corrupt accepted: {what}: {why}");
            }
        }
    }

    fn line(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            self.cases,
            self.panics,
            self.hangs,
            self.lost,
            self.corrupt,
            self.accepted,
            self.refused
        )
    }

    fn bad(&self) -> bool {
        self.panics + self.hangs + self.lost + self.corrupt > 0
    }
}

/// Run `f` on its own thread: `Err(())` if it takes over 10 s, `Ok(Err(()))` if it panics.
fn timed<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<Result<T, ()>, ()> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|_| ());
        let _ = tx.send(r);
    });
    rx.recv_timeout(Duration::from_secs(10)).map_err(|_| ())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(100);
    let mut seed: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    // Panics are counted, not printed with a backtrace each.
    std::panic::set_hook(Box::new(|_| {}));
    let dir = std::env::temp_dir().join(format!("alembic-campaign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let rules = Rules::new().unwrap();
    // A real save: a game some way in.
    let (_, rec_text) = sim::find("alchemy")
        .unwrap()
        .record(3, 300, Policy::Explore)
        .unwrap();
    let base_rec: Recording<Command> = Recording::parse(&rec_text).unwrap();
    let start = alchemy::new_game(3, &rules).unwrap();
    let mut g = start.clone();
    for (_, c) in base_rec.commands().take(150) {
        g = alchemy::apply(&g, &rules, c.clone()).unwrap().game;
    }
    let base_save = save::to_text(&g).unwrap();

    let mut saves = Row::default();
    let mut recs = Row::default();
    let mut next = move || {
        // xorshift64*
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for case in 0..cases {
        let data: Vec<u8> = (0..8).flat_map(|_| next().to_le_bytes()).collect();
        if case % 2 == 0 {
            let Some(text) = campaign::mutate_save(&base_save, &data) else {
                continue;
            };
            let rules = rules.clone();
            let scratch: PathBuf = dir.join(format!("case-{case}.save"));
            saves.add(
                timed(move || campaign::check_save(&text, &rules, &scratch)),
                &format!("save case {case}"),
            );
        } else {
            let text = campaign::mutate_recording(&base_rec, &data, &rules);
            let path = dir.join(format!("case-{case}.replay"));
            std::fs::write(&path, text).unwrap();
            let start = start.clone();
            recs.add(
                timed(move || campaign::check_recording(&path, &start)),
                &format!("recording case {case}"),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "| target | cases | panics | hangs | games lost | corrupt accepted | accepted | refused |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    println!("{}", saves.line("save, structure-aware (resealed)"));
    println!(
        "{}",
        recs.line("recording, structure-aware (checkpoints recomputed)")
    );
    if saves.bad() || recs.bad() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
