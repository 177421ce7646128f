//! Experience and levels: the hero grows stronger with what it achieves. Experience comes
//! from kills (half the victim's maximum hit points, at least 1) and from discoveries (each
//! kind of potion or ingredient identified: [`DISCOVERY_XP`]); each level reached raises
//! maximum hit points by [`HP_PER_LEVEL`] (and heals as much) and, every [`SKILL_EVERY`]
//! levels, skill (to hit, to block, to strike hard) by 1. Levels are checked at the end of each turn.

use alembic::{Error, Game, HookCtx, ThingId};

use crate::events::{Event, emit};
use crate::props::{HPS, HPS_MAX, MAX_HIT_POINTS, SK, XL, XP};

/// The highest level.
pub const MAX_LEVEL: i32 = 15;
/// Experience for identifying a kind of potion or ingredient.
pub const DISCOVERY_XP: i64 = 10;
/// Maximum hit points gained at each level.
pub const HP_PER_LEVEL: i32 = 1;
/// Skill rises by 1 at every this many levels.
pub const SKILL_EVERY: i32 = 5;
/// Experience per level step from level 4 on: level `n` needs `XP_STEP * n * (n - 1)` in
/// all.
pub const XP_STEP: i64 = 60;
/// The experience levels 2 and 3 need in all: small, so the hero feels a level within the
/// first depth and another within the first few (the steps after them are as before: 720
/// for level 4, 1,200 for level 5).
pub const FIRST_LEVELS: [i64; 2] = [40, 280];

/// The experience needed in all to reach `level` (0 for level 1).
#[must_use]
pub fn xp_for(level: i32) -> i64 {
    let n = i64::from(level.clamp(1, MAX_LEVEL + 1));
    match n {
        1 => 0,
        2 => FIRST_LEVELS[0],
        3 => FIRST_LEVELS[1],
        _ => XP_STEP * n * (n - 1),
    }
}

/// The hero's level (1 at the start).
#[must_use]
pub fn level(game: &Game) -> i32 {
    game.var(&XL).unwrap_or(1).clamp(1, MAX_LEVEL)
}

/// The hero's experience.
#[must_use]
pub fn experience(game: &Game) -> i64 {
    game.var(&XP).unwrap_or(0).max(0)
}

/// Add `amount` of experience (levels follow at the end of the turn: [`level_up`]).
pub fn gain(game: &mut Game, amount: i64) {
    let xp = experience(game).saturating_add(amount.max(0));
    game.set_var_mut(&XP, xp);
}

/// The experience a kill of `victim` is worth: half its maximum hit points, at least 1.
#[must_use]
pub fn kill_xp(game: &Game, victim: ThingId) -> i64 {
    (i64::from(game.query(victim, &HPS_MAX).unwrap_or(2)) / 2).max(1)
}

/// Raise the hero `h` to every level its experience has reached, saying each.
///
/// # Errors
/// An engine error reading or setting the hero's hit points or skill (a bug).
pub fn level_up(game: &mut Game, ctx: &mut HookCtx<'_>, h: ThingId) -> Result<(), Error> {
    let xp = experience(game);
    let mut now = level(game);
    while now < MAX_LEVEL && xp >= xp_for(now + 1) {
        now += 1;
        let max = game.query(h, &HPS_MAX)?;
        let up = |n: i32| n.max(n.saturating_add(HP_PER_LEVEL).min(MAX_HIT_POINTS));
        game.set_mut(h, &HPS_MAX, up(max))?;
        let hp = game.query(h, &HPS)?;
        game.set_mut(h, &HPS, up(hp))?;
        let skill = now % SKILL_EVERY == 0;
        if skill {
            let sk = game.query(h, &SK)?;
            game.set_mut(h, &SK, sk.saturating_add(1))?;
        }
        game.set_var_mut(&XL, now);
        emit(
            game,
            ctx,
            Event::LevelUp {
                level: now,
                hp: HP_PER_LEVEL,
                skill,
            },
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_needs_more() {
        assert_eq!(xp_for(1), 0);
        assert_eq!(xp_for(2), FIRST_LEVELS[0]);
        assert_eq!(xp_for(3), FIRST_LEVELS[1]);
        assert_eq!(xp_for(4), 12 * XP_STEP);
        assert!((2..=MAX_LEVEL).all(|l| xp_for(l + 1) - xp_for(l) > xp_for(l) - xp_for(l - 1)));
    }
}
