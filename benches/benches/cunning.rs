//! Alchemy's cunning monsters (issue 58): the planner on a real depth-5 position, and a
//! planning monster's turn beside a plain one, in the same run.
//!
//! The position: a wizard-mode game of seed 1 taken to depth 5 (`depth 5`), an orc
//! champion summoned beside the hero and told where the hero is (it has noticed them); the
//! level's own monsters are there too. Measured:
//! - `cunning/plan`: the champion's whole plan ([`monster_plan`]: 16 sampled futures of
//!   each candidate, at most 256 nodes, each node a clone, the champion's action and the
//!   world's step after it);
//! - `cunning/turn_plain`: the hero's `Wait` and the world's turn with planning off
//!   (`FORESIGHT_OFF`): the champion plays by the cheap rules (the baseline);
//! - `cunning/turn_planning`: the same turn with planning on: the champion plans;
//! - `cunning/node`: one node by hand, beside `turn_plain`: a clone of the game, the
//!   champion's chosen action ([`perform`]) and the planner's value of the result
//!   ([`value`]); a node of the plan also plays the world's step after the action.
//!
//! Then, outside criterion, 2,000 timed turns of each (alternating) give the median and the
//! 99th percentile of a plain and of a planning turn, and the nodes per second of the plan.
//!
//! `cargo bench -p alembic-benches --bench cunning -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Instant;

use alembic::{Game, HookCtx};
use alembic_games::alchemy::{
    self as alchemy, Command, Rules,
    props::{FORESIGHT_OFF, LAST_SEEN},
    rules::{
        cunning::{perform, value},
        hero, monster_plan,
    },
    view::look_at,
};
use criterion::Criterion;

/// The depth-5 position and the champion.
fn position(rules: &Rules) -> (Game, alembic::ThingId) {
    let g = alchemy::new_game_in_modes(
        1,
        rules,
        &alembic_session::Modes {
            wizard: true,
            ..alembic_session::Modes::default()
        },
    )
    .expect("game");
    let console = alchemy::wizard::commands(rules).expect("wizard commands");
    let wiz = |g: &Game, line: &str| console.run(g, line).expect(line).state;
    let g = wiz(&g, "depth 5");
    let before: Vec<_> = g.things().iter().filter_map(|t| t.id()).collect();
    let mut g = wiz(&g, "summon orc champion");
    let champion = g
        .things()
        .iter()
        .filter_map(|t| t.id())
        .find(|id| !before.contains(id))
        .expect("the champion");
    let h = hero(&g).expect("hero");
    let at = g.things().location(h).expect("hero's place");
    g.set_mut(champion, &LAST_SEEN, at).expect("noticed");
    let text = look_at(&g, g.things().location(champion).expect("placed"))
        .expect("look")
        .text;
    assert!(text.contains("plans ahead"), "{text}");
    (g, champion)
}

fn turn(g: &Game, rules: &Rules) -> Game {
    alchemy::apply(g, rules, Command::Wait).expect("wait").game
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let rules = Rules::new().expect("rules");
    let (planning, champion) = position(&rules);
    let mut plain = planning.clone();
    plain.set_var_mut(&FORESIGHT_OFF, true);
    let plan = monster_plan(&planning, rules.hooks(), champion)
        .expect("plan")
        .expect("the champion is next to act in the world's step");
    println!(
        "cunning: depth {} position, turn {}, the champion chooses {:?} (value {:.3}, {} nodes)",
        alchemy::view::status(&planning).expect("status").depth,
        planning.turn(),
        plan.command,
        plan.value,
        plan.nodes
    );
    let mut group = c.benchmark_group("cunning");
    group.bench_function("turn_plain", |b| {
        b.iter(|| black_box(turn(black_box(&plain), &rules)))
    });
    group.bench_function("turn_planning", |b| {
        b.iter(|| black_box(turn(black_box(&planning), &rules)))
    });
    group.bench_function("plan", |b| {
        b.iter(|| black_box(monster_plan(black_box(&planning), rules.hooks(), champion)))
    });
    // One node of the plan by hand, beside `turn_plain` (a plain `apply`): a clone of the
    // game, the champion's chosen action played by the rules on it, and the planner's value
    // of the result (the world's step after the action, which a node of the plan also
    // plays, is not in it: the rules keep it private).
    let h = hero(&planning).expect("hero");
    group.bench_function("node", |b| {
        b.iter(|| {
            let mut g = black_box(&planning).clone();
            let mut ctx = HookCtx::new(rules.hooks());
            let cost = perform(&mut g, &mut ctx, champion, &plan.command).expect("act");
            black_box((cost, value(&g, champion, h)))
        })
    });
    group.finish();
    c.final_summary();

    // Median and 99th percentile, plain and planning turns alternating.
    let n = 2_000;
    let (mut a, mut b) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let t = Instant::now();
        let _ = black_box(turn(&plain, &rules));
        a.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        let _ = black_box(turn(&planning, &rules));
        b.push(t.elapsed().as_secs_f64() * 1e6);
    }
    let stats = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[v.len() * 99 / 100])
    };
    let (pm, p99) = stats(&mut a);
    let (qm, q99) = stats(&mut b);
    println!("\n== a turn with an orc champion beside the hero, depth 5 ({n} each, µs) ==");
    println!("plain (cheap rules)   median {pm:>9.1}   p99 {p99:>9.1}");
    println!("planning              median {qm:>9.1}   p99 {q99:>9.1}");
    let m = 200;
    let t = Instant::now();
    let mut nodes = 0;
    for _ in 0..m {
        nodes += monster_plan(&planning, rules.hooks(), champion)
            .expect("plan")
            .map_or(0, |p| p.nodes);
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "planner: {nodes} nodes in {:.1} ms: {:.0} nodes/s ({:.1} µs a node; a plain turn {pm:.1} µs)",
        secs * 1e3,
        nodes as f64 / secs,
        secs * 1e6 / nodes as f64
    );
}
