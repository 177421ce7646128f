//! The Caves' English: every line the player reads is made here, from an
//! [`Event`](super::Event).

use super::events::Event;

/// "a zombie", "an owl".
#[must_use]
pub fn with_article(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// How the game ended for a player killed by `killer` ("killed by a zombie").
#[must_use]
pub fn death_cause(killer: &str) -> String {
    format!("killed by {}", with_article(killer))
}

/// How a won game ended.
pub const ESCAPE_CAUSE: &str = "escaped from the caves";

/// The line the player reads for `event`.
#[must_use]
pub fn describe(event: &Event) -> String {
    match event {
        Event::Arrived => "You descend into the caves. Find the way out at the bottom.".into(),
        Event::YouHit { target, damage } => {
            format!("You hit the {target} for {damage} damage.")
        }
        Event::HitYou {
            attacker,
            verb,
            damage,
        } => format!("The {attacker} {verb} you for {damage} damage."),
        Event::Struck {
            attacker,
            verb,
            target,
        } => format!("The {attacker} {verb} the {target}."),
        Event::YouDied { killer } => format!("You die, {}.", death_cause(killer)),
        Event::YouKilled { victim } => format!("You kill the {victim}."),
        Event::Died { victim } => format!("The {victim} dies."),
        Event::Escaped => "You climb out of the caves into the daylight!".into(),
        Event::WentDown { level, levels } => {
            format!("You go down the stairs to level {level} of {levels}.")
        }
        Event::WentUp { level, levels } => {
            format!("You climb the stairs to level {level} of {levels}.")
        }
        Event::LichenGrew => "The lichen grows.".into(),
        Event::FoundGem { gems: 1 } => "You pick up a glittering gem.".into(),
        Event::FoundGem { gems } => format!("You pick up a glittering gem ({gems} now)."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_and_lines() {
        assert_eq!(with_article("owl"), "an owl");
        assert_eq!(with_article("zombie"), "a zombie");
        assert_eq!(
            describe(&Event::YouDied {
                killer: "zombie".into()
            }),
            "You die, killed by a zombie."
        );
        assert_eq!(
            describe(&Event::WentDown {
                level: 2,
                levels: 5
            }),
            "You go down the stairs to level 2 of 5."
        );
    }
}
