//! The planner of issue 58 (`alembic_session::plan`) on a rats position, beside a plain
//! `apply` of the same command in the same run:
//! - `plan_rats/apply`: one `Rats::apply` of the command the planner chooses (the
//!   baseline: what a node costs at least);
//! - `plan_rats/node`: one node by hand: a clone, its generator reseeded, one `apply` and
//!   the planning bot's value of the result;
//! - `plan_rats/planner`: one `Planner::plan` at the planning bot's settings (depth 3, 4
//!   samples, a budget of 1,500 nodes) with its value function;
//! - `plan_rats/bot_choose`: the planning bot's whole decision (its two distance maps and
//!   the plan).
//!
//! The position: seed 1 after 40 commands of the chase bot (`Policy::Explore`). The run
//! ends with nodes per second (the plan's nodes over its time) and the time per node over
//! the baseline `apply`'s, counting every node and then only those whose command the rules
//! accepted (a step into a wall is refused after a check and costs no turn).
//!
//! `cargo bench -p alembic-benches --bench plan -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::path::PathBuf;

use alembic::{Game, rng::GameRng};
use alembic_games::rats::{Command, PlanningBot, Rats};
use alembic_session::plan::Planner;
use alembic_session::ruleset::{Bot, Policy};
use alembic_session::{Ruleset, Status};
use criterion::Criterion;
use std::sync::atomic::{AtomicU64, Ordering};

/// The rats, counting the commands they accept: a node whose command is refused (a step
/// into a wall) costs a check, not a turn, so the summary gives both rates.
struct Counting(Rats, AtomicU64);

impl Ruleset for Counting {
    const NAME: &'static str = "rats";
    const TITLE: &'static str = "";
    type Command = Command;
    type Event = <Rats as Ruleset>::Event;
    type Refusal = <Rats as Ruleset>::Refusal;

    fn library(&self) -> &alembic::Library {
        self.0.library()
    }
    fn hooks(&self) -> alembic::Hooks {
        self.0.hooks()
    }
    fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
        self.0.new_game(seed)
    }
    fn apply(
        &self,
        game: &Game,
        command: &Command,
    ) -> Result<alembic_session::Outcome<Self::Event>, alembic_session::Rejected<Self::Refusal>>
    {
        let out = self.0.apply(game, command);
        if out.is_ok() {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
        out
    }
    fn describe(&self, game: &Game, event: &Self::Event) -> Option<String> {
        self.0.describe(game, event)
    }
    fn status(&self, game: &Game) -> Status {
        self.0.status(game)
    }
}

const CANDIDATES: [Command; 5] = [
    Command::Move(alembic::Dir::North),
    Command::Move(alembic::Dir::East),
    Command::Move(alembic::Dir::South),
    Command::Move(alembic::Dir::West),
    Command::Wait,
];

/// Seed 1 after 40 commands of the chase bot.
fn position(rules: &Rats) -> Game {
    let mut g = rules.new_game(1).expect("game");
    let mut bot = rules.bot(1, Policy::Explore).expect("bot");
    while g.turn() < 40 && rules.status(&g) == Status::Playing {
        let c = bot.choose(&g).expect("a command");
        match rules.apply(&g, &c) {
            Ok(o) => g = o.game,
            Err(_) => bot.refused(),
        }
    }
    g
}

fn benches(c: &mut Criterion) -> (u64, u64) {
    let rules = Rats::new().expect("rules");
    let g = position(&rules);
    let mut bot = PlanningBot::new(&rules, 1);
    let chosen = bot.choose(&g).expect("a command"); // builds the bot's distance maps
    let value = |g: &Game| bot.value(g);
    let planner = Planner::new(&rules)
        .depth(3)
        .samples(4)
        .budget(1_500)
        .seed(1);
    let plan = planner
        .plan(&g, &CANDIDATES, value)
        .expect("plan")
        .expect("a command");
    println!(
        "plan_rats: turn {}, {:?} chosen, value {:.2}, depth {}, {} nodes",
        g.turn(),
        plan.command,
        plan.value,
        plan.depth,
        plan.nodes
    );
    let counting = Counting(rules.clone(), AtomicU64::new(0));
    let counted = Planner::new(&counting)
        .depth(3)
        .samples(4)
        .budget(1_500)
        .seed(1);
    assert_eq!(
        counted.plan(&g, &CANDIDATES, value).expect("plan"),
        Some(plan.clone())
    );
    let accepted = counting.1.load(Ordering::Relaxed);
    println!(
        "plan_rats: {accepted} of the {} nodes' commands accepted",
        plan.nodes
    );
    let mut group = c.benchmark_group("plan_rats");
    group.bench_function("apply", |b| {
        b.iter(|| black_box(rules.apply(black_box(&g), &plan.command).expect("apply")))
    });
    group.bench_function("node", |b| {
        b.iter(|| {
            let mut clone = black_box(&g).clone();
            *clone.rng() = GameRng::seed_from(black_box(7));
            let out = rules.apply(&clone, &plan.command).expect("apply");
            black_box(value(&out.game))
        })
    });
    group.bench_function("planner", |b| {
        b.iter(|| {
            black_box(
                planner
                    .plan(black_box(&g), &CANDIDATES, value)
                    .expect("plan"),
            )
        })
    });
    let mut fresh = PlanningBot::new(&rules, 1);
    assert_eq!(fresh.choose(&g), Some(chosen));
    group.bench_function("bot_choose", |b| {
        b.iter(|| black_box(fresh.choose(black_box(&g))))
    });
    group.finish();
    (plan.nodes, accepted)
}

/// Criterion's estimate (ns) for `group/id`, from its JSON output.
fn mean_ns(group: &str, id: &str) -> Option<f64> {
    let dir = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR").map(|t| PathBuf::from(t).join("criterion"))
        })
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/criterion"));
    let text = std::fs::read_to_string(dir.join(group).join(id).join("new/estimates.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["slope"]["point_estimate"]
        .as_f64()
        .or_else(|| v["mean"]["point_estimate"].as_f64())
}

fn summary(nodes: u64, accepted: u64) {
    let us = |id: &str| mean_ns("plan_rats", id).map(|ns| ns / 1000.0);
    println!("\n== the planner on a rats position (mean per call, µs) ==");
    for id in ["apply", "node", "planner", "bot_choose"] {
        match us(id) {
            Some(t) => println!("{id:<12} {t:>12.2}"),
            None => println!("{id:<12} {:>12}", "n/a"),
        }
    }
    if let (Some(apply), Some(plan)) = (us("apply"), us("planner")) {
        let per_node = plan / nodes as f64;
        println!(
            "planner: {nodes} nodes in {plan:.0} µs: {:.0} nodes/s, {per_node:.2} µs a node, \
             {:.2}× a plain apply ({apply:.2} µs)",
            1e6 / per_node,
            per_node / apply
        );
        let per_accepted = plan / accepted as f64;
        println!(
            "  counting only the {accepted} nodes whose command was accepted: {:.0} nodes/s, \
             {per_accepted:.2} µs a node, {:.2}× a plain apply",
            1e6 / per_accepted,
            per_accepted / apply
        );
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let (nodes, accepted) = benches(&mut c);
    c.final_summary();
    summary(nodes, accepted);
}
