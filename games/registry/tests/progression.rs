//! Issue 54, 9: progression the player feels in the first three depths. The explore bot
//! plays seeds 1–20 until it first stands on depth 3, and the hero's level is taken on
//! arriving at depth 2 and at depth 3: the hero must have gained a level on depth 1 in
//! most of them, and be level 2 or more at depth 3 in all. (On the old curve, 120
//! experience for level 2, the bot gained its first level on depth 1 in 6 of the 20, and a
//! player who reached depth 3 with 49 was still level 1; level 2 is now 40.)
//!
//! The table it prints (`cargo test -p alembic-rl-games --test progression -- --nocapture`)
//! is the measurement the README gives.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alembic_games::alchemy::{
    self, Rules,
    bot::Bot,
    rules::progress::{experience, level},
    view::{hero_depth, summary},
};

/// The seeds played.
const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;
/// The most turns a seed is given to reach depth 3.
const MAX_TURNS: u64 = 6_000;

/// The hero on arriving at a depth: (turn, level, experience, kills).
type Arrival = (u64, i32, i64, i64);

/// The explore bot's game of `seed` up to its first turn on depth 3: the hero on first
/// arriving at depth 2 and at depth 3, or `None` if it died or ran out of turns first.
fn arrivals(seed: u64, rules: &Rules) -> Option<(Arrival, Arrival)> {
    let mut g = alchemy::new_game(seed, rules).expect("game");
    let mut bot = Bot::new(seed);
    let mut second = None;
    let here = |g: &alembic::Game| {
        let kills = summary(g).map_or(0, |s| s.kills);
        (g.turn(), level(g), experience(g), kills)
    };
    while g.turn() < MAX_TURNS {
        let depth = hero_depth(&g).unwrap_or(1);
        if depth >= 2 && second.is_none() {
            second = Some(here(&g));
        }
        if depth >= 3 {
            return second.map(|s| (s, here(&g)));
        }
        if summary(&g).is_ok_and(|s| s.outcome.is_over()) {
            return None;
        }
        match alchemy::apply(&g, rules, bot.choose(&g)) {
            Ok(o) => g = o.game,
            Err(_) => bot.refused(),
        }
    }
    None
}

/// Most heroes gain a level on depth 1, and every one has by depth 3.
#[test]
fn the_hero_gains_levels_in_the_first_three_depths() {
    let rules = Rules::new().expect("rules");
    let (mut reached, mut up_on_1, mut up_by_3, mut twice_by_3) = (0, 0, 0, 0);
    for seed in SEEDS {
        let Some((two, three)) = arrivals(seed, &rules) else {
            println!("seed {seed:>2}: did not reach depth 3");
            continue;
        };
        println!(
            "seed {seed:>2}: depth 2 at turn {:>5}, level {}, {:>3} XP; depth 3 at turn {:>5}, \
             level {}, {:>3} XP, {:>2} kills",
            two.0, two.1, two.2, three.0, three.1, three.2, three.3
        );
        reached += 1;
        up_on_1 += i32::from(two.1 >= 2);
        up_by_3 += i32::from(three.1 >= 2);
        twice_by_3 += i32::from(three.1 >= 3);
    }
    println!(
        "{reached} reached depth 3; {up_on_1} had gained a level on depth 1, {twice_by_3} two \
         levels by depth 3"
    );
    assert!(reached >= 15, "only {reached} reached depth 3");
    assert!(
        up_on_1 * 4 >= reached * 3,
        "{up_on_1} of {reached} gained a level on depth 1"
    );
    assert_eq!(up_by_3, reached, "every hero is level 2 or more at depth 3");
    // The player: depth 3 with 49 experience.
    assert!(alembic_games::alchemy::rules::progress::xp_for(2) <= 49);
}
