//! English: names with articles and plurals, counts, verb agreement, capitals — and the
//! one place where what happened ([`Event`]s) becomes the sentences of the message log
//! ([`lines`], [`all_lines`]).

use std::sync::Arc;

use alembic::{Error, Game, ThingId};

pub(crate) use super::events::is_identified;
use super::events::{Cause, Cure, Event, Learned, Noun, Strike};
use super::props::{
    APPEARANCE, CAUSE, DESCRIPTION, END_MSG, ENDING, IS_HERO, IS_POTION, IS_PROPER, NAME, NUMBER,
    OTHER_MSG, START_MSG, UNKNOWN_NAME, USE_MESSAGE,
};

/// The singular name of `id` as the hero knows it, without an article: "rat",
/// "murky violet potion", "potion of healing", "strange herb".
pub(crate) fn base_name(game: &Game, id: ThingId) -> Result<String, Error> {
    let t = game.things().get(id)?;
    if !is_identified(game, id) {
        if game.is(id, &IS_POTION) {
            let look = t
                .proto()
                .and_then(|p| game.library().get(p).ok())
                .and_then(|p| p.get(&APPEARANCE).ok());
            return Ok(match look {
                Some(l) => format!("{l} potion"),
                None => "potion".to_string(),
            });
        }
        if let Some(u) = t.get_opt(&UNKNOWN_NAME)? {
            return Ok(u.to_string());
        }
    }
    Ok(game.query(id, &NAME)?.to_string())
}

/// English plural of a noun phrase: "rats", "potions of healing", "wolves", "boxes".
#[must_use]
pub(crate) fn plural(name: &str) -> String {
    if let Some(i) = name.find(" of ") {
        return format!("{}{}", plural(&name[..i]), &name[i..]);
    }
    let (head, last) = match name.rfind(' ') {
        Some(i) => (&name[..=i], &name[i + 1..]),
        None => ("", name),
    };
    let word = match last {
        "mouse" => "mice".to_string(),
        "man" => "men".to_string(),
        "staff" => "staves".to_string(),
        w if w.ends_with("ss")
            || w.ends_with("sh")
            || w.ends_with("ch")
            || w.ends_with('x')
            || w.ends_with('s') =>
        {
            format!("{w}es")
        }
        w if w.ends_with('y') && !w.ends_with("ay") && !w.ends_with("ey") && !w.ends_with("oy") => {
            format!("{}ies", &w[..w.len() - 1])
        }
        w if w.ends_with("lf") => format!("{}lves", &w[..w.len() - 2]),
        w => format!("{w}s"),
    };
    format!("{head}{word}")
}

/// "a" or "an" for a word.
#[must_use]
pub fn article(word: &str) -> &'static str {
    match word.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

fn proper(game: &Game, id: ThingId) -> bool {
    game.is(id, &IS_PROPER)
}

/// How many items a stack stands for (1 for anything else).
fn stack_size(game: &Game, id: ThingId) -> usize {
    usize::try_from(game.query(id, &NUMBER).unwrap_or(1).max(1)).unwrap_or(1)
}

/// "a rat", "an adder", "you", "the Philosopher's Stone", "3 strange herbs" (a stack).
pub fn a_name(game: &Game, id: ThingId) -> Result<String, Error> {
    let n = base_name(game, id)?;
    if proper(game, id) {
        return Ok(n);
    }
    Ok(count_name(stack_size(game, id), &n))
}

/// "the rat", "you", "the Philosopher's Stone", "the 3 strange herbs" (a stack).
pub fn the_name(game: &Game, id: ThingId) -> Result<String, Error> {
    let n = base_name(game, id)?;
    if proper(game, id) {
        return Ok(n);
    }
    match stack_size(game, id) {
        1 => Ok(format!("the {n}")),
        k => Ok(format!("the {k} {}", plural_with(&n))),
    }
}

/// "a strange herb", "2 strange herbs" — a count with a noun phrase.
#[must_use]
pub(crate) fn count_name(n: usize, singular: &str) -> String {
    match n {
        0 => format!("no {}", plural(singular)),
        1 => format!("{} {singular}", article(singular)),
        _ => format!("{n} {}", plural_with(singular)),
    }
}

fn plural_with(singular: &str) -> String {
    plural(singular)
}

/// Third person singular of a verb phrase: "bite" → "bites", "touch" → "touches",
/// "breathe fire at" → "breathes fire at", "fly" → "flies", "be" → "is", "have" → "has".
#[must_use]
pub(crate) fn third_person(verb: &str) -> String {
    let (first, rest) = match verb.find(' ') {
        Some(i) => (&verb[..i], &verb[i..]),
        None => (verb, ""),
    };
    let conj = match first {
        "be" => "is".to_string(),
        "have" => "has".to_string(),
        "do" => "does".to_string(),
        "go" => "goes".to_string(),
        w if w.ends_with("ss")
            || w.ends_with("sh")
            || w.ends_with("ch")
            || w.ends_with('x')
            || w.ends_with('o') =>
        {
            format!("{w}es")
        }
        w if w.ends_with('y') && !w.ends_with("ay") && !w.ends_with("ey") && !w.ends_with("oy") => {
            format!("{}ies", &w[..w.len() - 1])
        }
        w => format!("{w}s"),
    };
    format!("{conj}{rest}")
}

/// Upper-case the first letter.
#[must_use]
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// "2 strange herbs and a dagger": items grouped by their displayed name.
pub fn list_items(game: &Game, items: &[ThingId]) -> Result<String, Error> {
    let nouns: Vec<Noun> = items.iter().map(|&i| Noun::of(game, i)).collect();
    for &i in items {
        // A missing item is an error, as naming it would be.
        base_name(game, i)?;
    }
    Ok(list_nouns(game, &nouns))
}

/// A look sentence for a thing (its description or its name).
pub(crate) fn describe_thing(game: &Game, t: ThingId) -> Result<String, Error> {
    if let Some(d) = game.query_opt(t, &DESCRIPTION)? {
        return Ok(d.to_string());
    }
    let n = a_name(game, t)?;
    Ok(capitalise(&n))
}

// ----- naming things as they were -----------------------------------------------------------

fn proto_of<'g>(game: &'g Game, n: &Noun) -> Option<&'g alembic::library::Prototype> {
    n.kind.as_deref().and_then(|k| game.library().get(k).ok())
}

/// The singular name of a noun as the hero knew it then, without an article.
fn noun_base(game: &Game, n: &Noun) -> String {
    let Some(p) = proto_of(game, n) else {
        return base_name(game, n.id).unwrap_or_else(|_| "something".to_string());
    };
    if !n.known {
        if p.is(&IS_POTION) {
            return match p.get(&APPEARANCE) {
                Ok(l) => format!("{l} potion"),
                Err(_) => "potion".to_string(),
            };
        }
        if let Ok(u) = p.get(&UNKNOWN_NAME) {
            return u.to_string();
        }
    }
    match p.get(&NAME) {
        Ok(name) => name.to_string(),
        Err(_) => "something".to_string(),
    }
}

fn noun_flag(game: &Game, n: &Noun, flag: &alembic::Prop<bool>) -> bool {
    match proto_of(game, n) {
        Some(p) => p.is(flag),
        None => game.is(n.id, flag),
    }
}

fn noun_is_hero(game: &Game, n: &Noun) -> bool {
    noun_flag(game, n, &IS_HERO)
}

fn count_of(n: &Noun) -> usize {
    usize::try_from(n.count.max(1)).unwrap_or(1)
}

/// "a rat", "you", "3 strange herbs" for a noun.
fn noun_a(game: &Game, n: &Noun) -> String {
    let b = noun_base(game, n);
    if noun_flag(game, n, &IS_PROPER) {
        return b;
    }
    count_name(count_of(n), &b)
}

/// "the rat", "you", "the 3 strange herbs" for a noun.
fn noun_the(game: &Game, n: &Noun) -> String {
    let b = noun_base(game, n);
    if noun_flag(game, n, &IS_PROPER) {
        return b;
    }
    match count_of(n) {
        1 => format!("the {b}"),
        k => format!("the {k} {}", plural_with(&b)),
    }
}

/// "The rat bites you." for a noun subject.
fn noun_sentence(game: &Game, subject: &Noun, verb: &str, rest: &str) -> String {
    let s = noun_the(game, subject);
    let v = if noun_is_hero(game, subject) {
        match verb {
            "be" => "are".to_string(),
            v => v.to_string(),
        }
    } else {
        third_person(verb)
    };
    let body = if rest.is_empty() {
        format!("{s} {v}")
    } else {
        format!("{s} {v} {rest}")
    };
    format!("{}.", capitalise(&body))
}

fn list_nouns(game: &Game, items: &[Noun]) -> String {
    let mut groups: Vec<(String, usize, &Noun)> = Vec::new();
    for n in items {
        let b = noun_base(game, n);
        match groups.iter_mut().find(|g| g.0 == b) {
            Some(g) => g.1 += 1,
            None => groups.push((b, 1, n)),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(b, k, n)| {
            if *k == 1 {
                noun_a(game, n)
            } else {
                count_name(*k, b)
            }
        })
        .collect();
    match parts.len() {
        0 => "nothing".to_string(),
        1 => parts[0].clone(),
        n => format!("{} and {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

fn proto_text(game: &Game, kind: &str, key: &alembic::Prop<Arc<str>>) -> Option<Arc<str>> {
    game.library()
        .get(kind)
        .ok()
        .and_then(|p| p.get(key).ok())
        .filter(|m| !m.is_empty())
}

// ----- events into English ------------------------------------------------------------------

/// The message lines `event` makes (none for what the hero did not notice or that goes
/// without saying, such as a step or the damage behind a hit).
#[must_use]
pub fn lines(game: &Game, event: &Event) -> Vec<String> {
    let one = |s: String| vec![s];
    let hero_only = |who: &Noun, s: &str| {
        if noun_is_hero(game, who) {
            vec![s.to_string()]
        } else {
            Vec::new()
        }
    };
    match event {
        Event::Entered => {
            one("You enter the dungeon. Somewhere below lies the Philosopher's Stone.".into())
        }
        Event::Moved { .. } | Event::Damaged { .. } => Vec::new(),
        Event::Stumbled { bumped: true } => one("You stumble and bump into something.".into()),
        Event::Stumbled { bumped: false } => one("You stumble.".into()),
        Event::StandingOn { what } => one(format!("There is {} here.", noun_a(game, what))),
        Event::Noticed { items } => one(format!("You see {}.", list_nouns(game, items))),
        Event::Attacked {
            attacker,
            target,
            strike,
            verb,
            seen,
            ..
        } => {
            if !seen {
                return Vec::new();
            }
            let def = noun_the(game, target);
            one(match strike {
                Strike::Missed => noun_sentence(game, attacker, "miss", &def),
                Strike::Blocked => {
                    let whose = if noun_is_hero(game, attacker) {
                        "your attack".to_string()
                    } else {
                        format!("{}'s attack", noun_the(game, attacker))
                    };
                    noun_sentence(game, target, "block", &whose)
                }
                Strike::Hit => noun_sentence(game, attacker, verb, &def),
                Strike::Critical => {
                    let mut t = noun_sentence(game, attacker, verb, &def);
                    t.pop();
                    t.push_str(" critically!");
                    t
                }
            })
        }
        Event::Unharmed { who } => hero_only(who, "You are unharmed."),
        Event::RefusedToDie { who, seen } => {
            if noun_is_hero(game, who) {
                one("You refuse to die!".into())
            } else if *seen {
                one(format!(
                    "{} refuses to die!",
                    capitalise(&noun_the(game, who))
                ))
            } else {
                Vec::new()
            }
        }
        Event::Died { who, seen, .. } => {
            if noun_is_hero(game, who) {
                one("You die...".into())
            } else if *seen {
                one(noun_sentence(game, who, "die", ""))
            } else {
                Vec::new()
            }
        }
        Event::RoseAgain { was, now, seen } => {
            if *seen {
                one(format!(
                    "{} rises again as {}!",
                    capitalise(&noun_the(game, was)),
                    noun_a(game, now)
                ))
            } else {
                Vec::new()
            }
        }
        Event::PickedUp { items, .. } => one(format!(
            "You pick up {}.",
            count_name(count_of(items), &noun_base(game, items))
        )),
        Event::Dropped { item, .. } => one(format!("You drop {}.", noun_the(game, item))),
        Event::Drank { potion, .. } => one(format!("You drink {}.", noun_the(game, potion))),
        Event::Ate { food, .. } => one(format!("You eat {}.", noun_the(game, food))),
        Event::Identified {
            item,
            how: Learned::Drinking,
        } => one(format!("It was {}.", noun_a(game, item))),
        Event::Identified {
            item,
            how: Learned::Tasting,
        } => one(format!(
            "It tastes bitter. That was {}.",
            noun_the(game, item)
        )),
        Event::Analysed { item, learned } => one(match learned {
            Some(k) => format!(
                "You analyse {}: it is {}.",
                noun_the(game, item),
                noun_a(game, k)
            ),
            None => format!(
                "You analyse {} but learn nothing: the analysis failed its intelligence check{}.",
                noun_the(game, item),
                analysis_odds(game)
            ),
        }),
        Event::Crafted { potion, count } => {
            let name = game
                .library()
                .get(potion)
                .ok()
                .and_then(|p| p.get(&NAME).ok())
                .map_or_else(|| potion.to_string(), |n| n.to_string());
            let n = usize::try_from(*count).unwrap_or(1);
            one(format!("You brew {}.", count_name(n, &name)))
        }
        Event::Threw { item, .. } => one(format!("You throw {}.", noun_the(game, item))),
        Event::Shattered { item, over, wall } => {
            let name = noun_the(game, item);
            one(capitalise(&match over {
                Some(c) => format!("{name} shatters over {}!", noun_the(game, c)),
                None if *wall => format!("{name} shatters against the wall."),
                None => format!("{name} shatters on the floor."),
            }))
        }
        Event::ThrownHit { item, target } => one(capitalise(&format!(
            "{} hits {}.",
            noun_the(game, item),
            noun_the(game, target)
        ))),
        Event::LevelUp { level, hp, skill } => one(format!(
            "You reach level {level}! Maximum HP +{hp}{}.",
            if *skill { ", skill +1" } else { "" }
        )),
        Event::Splashed { who, damage, .. } if *damage > 0 => one(capitalise(&format!(
            "{} is hurt by the splash ({damage} hit point{}).",
            noun_the(game, who),
            if *damage == 1 { "" } else { "s" }
        ))),
        Event::Splashed { who, silent, .. } => {
            if *silent {
                one(format!(
                    "Nothing you can see happens to {}.",
                    noun_the(game, who)
                ))
            } else {
                Vec::new()
            }
        }
        Event::MonsterDrank { who, potion, seen } => {
            if *seen {
                one(noun_sentence(game, who, "drink", &noun_a(game, potion)))
            } else {
                Vec::new()
            }
        }
        Event::MonsterThrew { who, item, seen } => {
            if *seen {
                one(noun_sentence(game, who, "throw", &noun_a(game, item)))
            } else {
                Vec::new()
            }
        }
        Event::Bounced { item } => one(capitalise(&format!(
            "{} bounces off the wall.",
            noun_the(game, item)
        ))),
        Event::Wielded {
            item,
            replaced,
            weapon,
        } => {
            let n = noun_the(game, item);
            let old = replaced.as_ref().map(|o| noun_the(game, o));
            // One sentence: a weapon is put away (not "taken off"), armour is swapped.
            one(match (weapon, old) {
                (true, Some(old)) => format!("You wield {n}, putting away {old}."),
                (true, None) => format!("You wield {n}."),
                (false, Some(old)) => format!("You take off {old} and put on {n}."),
                (false, None) => format!("You put on {n}."),
            })
        }
        Event::Unwielded { item, weapon } => {
            let n = noun_the(game, item);
            one(if *weapon {
                format!("You put away {n}.")
            } else {
                format!("You take off {n}.")
            })
        }
        Event::DoorOpened { by, door, seen } => {
            if noun_is_hero(game, by) {
                one(format!("You open {}.", noun_the(game, door)))
            } else if *seen {
                one(noun_sentence(game, by, "open", "a door"))
            } else {
                Vec::new()
            }
        }
        Event::DoorStuck { door } => one(format!(
            "You strain against {}, but it does not budge.",
            noun_the(game, door)
        )),
        Event::DoorClosed { door } => one(format!("You close {}.", noun_the(game, door))),
        Event::Used { what } => {
            let m = match what.kind.as_deref() {
                Some(k) => game
                    .library()
                    .get(k)
                    .ok()
                    .and_then(|p| p.get(&USE_MESSAGE).ok()),
                None => game.query_opt(what.id, &USE_MESSAGE).ok().flatten(),
            };
            m.map(|m| vec![m.to_string()]).unwrap_or_default()
        }
        Event::FountainDrunk { .. } => {
            one("You drink from the fountain. You feel refreshed.".into())
        }
        Event::FountainDried { seen } => {
            if *seen {
                one("The fountain dries up.".into())
            } else {
                Vec::new()
            }
        }
        Event::Descended { depth } => one(format!("You descend to depth {depth}.")),
        Event::Ascended { depth } => one(format!("You climb up to depth {depth}.")),
        Event::Won => {
            one("You climb out of the dungeon with the Philosopher's Stone. You win!".into())
        }
        Event::EffectStarted { who, effect, seen } => {
            if noun_is_hero(game, who) {
                proto_text(game, effect, &START_MSG)
                    .map(|m| vec![m.to_string()])
                    .unwrap_or_default()
            } else if *seen {
                proto_text(game, effect, &OTHER_MSG)
                    .map(|m| vec![m.replace("{}", &capitalise(&noun_the(game, who)))])
                    .unwrap_or_default()
            } else {
                Vec::new()
            }
        }
        Event::EffectEnded { who, effect } => {
            if noun_is_hero(game, who) {
                proto_text(game, effect, &END_MSG)
                    .map(|m| vec![m.to_string()])
                    .unwrap_or_default()
            } else {
                Vec::new()
            }
        }
        Event::Writhed { who, seen } => {
            if *seen {
                one(noun_sentence(game, who, "writhe", "in agony"))
            } else {
                Vec::new()
            }
        }
        Event::Healed { who, seen } => {
            if noun_is_hero(game, who) {
                one("You feel much better.".into())
            } else if *seen {
                one(noun_sentence(game, who, "look", "healthier"))
            } else {
                Vec::new()
            }
        }
        Event::GainedStat { who, stat } => {
            hero_only(who, &format!("Your {} increases!", stat.word()))
        }
        Event::GainedHealth { who } => hero_only(who, "You feel amazingly good..."),
        Event::GainedSpeed { who } => hero_only(who, "You feel permanently quicker."),
        Event::Cured { who, cure, any } => {
            let what = match cure {
                Cure::Poison => "the poison leave your body",
                Cure::Harm => "cleansed",
                Cure::Drain => "restored",
            };
            if *any {
                hero_only(who, &format!("You feel {what}."))
            } else {
                hero_only(who, "You feel much the same.")
            }
        }
        Event::Nourished { who } => hero_only(who, "That tasted good."),
        Event::Shimmered { who } => hero_only(who, "The world shimmers."),
    }
}

/// Every message line `events` make, in order (as the game's log has them).
#[must_use]
pub fn all_lines(game: &Game, events: &[Event]) -> Vec<String> {
    events.iter().flat_map(|e| lines(game, e)).collect()
}

/// Why the game ended, as the summary and the morgue say it ("killed by a rat").
#[must_use]
pub(crate) fn cause_of(game: &Game, event: &Event) -> Option<String> {
    match event {
        Event::Won => Some("escaped with the Philosopher's Stone".to_string()),
        Event::Died { who, cause, .. } if noun_is_hero(game, who) => {
            let by = match cause {
                Cause::Creature(Some(c)) => noun_a(game, c),
                Cause::Creature(None) => "a creature".to_string(),
                Cause::Potion => "a potion".to_string(),
                Cause::Effect { kind, undone } => {
                    let name = game
                        .library()
                        .get(kind)
                        .ok()
                        .and_then(|p| p.get(&NAME).ok())
                        .map_or_else(|| kind.to_string(), |n| n.to_string());
                    if *undone {
                        format!("undone by {name} magic")
                    } else {
                        format!("being {name}")
                    }
                }
            };
            Some(format!("killed by {by}"))
        }
        _ => None,
    }
}

/// The hero's odds of a successful analysis, as " (your intelligence of 9 gives 75%)"; empty
/// when the hero cannot be read.
fn analysis_odds(game: &Game) -> String {
    let hero = game.var(&super::props::HERO).ok();
    match hero.and_then(|h| game.query(h, &super::props::IN).ok()) {
        Some(int) => format!(
            " (your intelligence of {int} gives {}%)",
            ((int + 6).clamp(0, 20) * 5)
        ),
        None => String::new(),
    }
}

/// Keep the ending among `events` in the game, typed: the event that won or lost it
/// ([`ENDING`], as JSON), from which [`ending_cause`] makes the English. The message log is
/// never written here: the screens make it from the events ([`all_lines`]), outside the
/// game value, so rewording a line changes no game's hash.
pub(crate) fn record(game: &mut Game, events: &[(u64, Event)]) {
    for (_, e) in events {
        if cause_of(game, e).is_some()
            && let Ok(json) = serde_json::to_string(e)
        {
            game.set_var_mut(&ENDING, Arc::from(json));
        }
    }
}

/// How the game ended, in English made now from the ending kept typed (see `text::record`); games
/// saved before 0.3 kept the sentence itself. Empty while the game goes on.
#[must_use]
pub fn ending_cause(game: &Game) -> String {
    game.var(&ENDING)
        .ok()
        .and_then(|json| serde_json::from_str::<Event>(&json).ok())
        .and_then(|e| cause_of(game, &e))
        .or_else(|| game.var(&CAUSE).ok().map(|c| c.to_string()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Strike;
    use crate::kinds::DamageType;
    use crate::rules::world::hero;
    use crate::{Rules, new_game};
    use alembic::Loc;

    /// A new game with things of `kinds` made beside the hero.
    fn with_things(kinds: &[&str]) -> (Game, ThingId, Vec<ThingId>, Loc) {
        let rules = Rules::new().expect("rules");
        let mut g = new_game(3, &rules).expect("game");
        let h = hero(&g).expect("hero");
        let at = g.things().location(h).expect("hero placed");
        let mut ids = Vec::new();
        for k in kinds {
            let t = g.library().create(k).expect("kind");
            ids.push(g.add_thing_mut(at, t).expect("placed"));
        }
        (g, h, ids, at)
    }

    #[test]
    fn items_seen_are_grouped_and_counted() {
        let (g, _, ids, _) = with_things(&["bloodwort", "bloodwort", "dagger"]);
        let items = ids.iter().map(|&i| Noun::of(&g, i)).collect();
        assert_eq!(
            lines(&g, &Event::Noticed { items }),
            vec!["You see 2 strange herbs and a dagger.".to_string()]
        );
        assert_eq!(
            list_items(&g, &ids).expect("named"),
            "2 strange herbs and a dagger"
        );
    }

    #[test]
    fn attacks_agree_with_their_subject() {
        let (g, h, ids, _) = with_things(&["giant rat"]);
        let (you, rat) = (Noun::of(&g, h), Noun::of(&g, ids[0]));
        let attack = |attacker: &Noun, target: &Noun, strike, verb: &str| Event::Attacked {
            attacker: attacker.clone(),
            target: target.clone(),
            strike,
            verb: Arc::from(verb),
            damage: 2,
            kind: DamageType::Normal,
            seen: true,
        };
        let said = |e: Event| lines(&g, &e).join(" ");
        assert_eq!(
            said(attack(&you, &rat, Strike::Critical, "hit")),
            "You hit the giant rat critically!"
        );
        assert_eq!(
            said(attack(&you, &rat, Strike::Blocked, "hit")),
            "The giant rat blocks your attack."
        );
        assert_eq!(
            said(attack(&rat, &you, Strike::Hit, "bite")),
            "The giant rat bites you."
        );
        assert_eq!(
            said(attack(&rat, &you, Strike::Missed, "bite")),
            "The giant rat misses you."
        );
        // What the hero did not see goes unsaid.
        let mut unseen = attack(&rat, &you, Strike::Hit, "bite");
        if let Event::Attacked { seen, .. } = &mut unseen {
            *seen = false;
        }
        assert!(lines(&g, &unseen).is_empty());
    }

    #[test]
    fn names_are_as_they_were_when_it_happened() {
        let (mut g, h, ids, _) = with_things(&["potion of speed"]);
        let before = Noun::of(&g, ids[0]);
        let look = g
            .library()
            .get("potion of speed")
            .and_then(|p| p.get(&APPEARANCE))
            .expect("a look");
        crate::rules::items::identify(&mut g, ids[0]).expect("identified");
        let after = Noun::of(&g, ids[0]);
        // Gone from the game: the nouns still name it, each as the hero knew it then.
        g.remove_thing_mut(ids[0]).expect("removed");
        let drank = Event::Drank {
            who: h,
            potion: before,
        };
        assert_eq!(
            lines(&g, &drank),
            vec![format!("You drink the {look} potion.")]
        );
        let learned = Event::Identified {
            item: after,
            how: Learned::Drinking,
        };
        assert_eq!(
            lines(&g, &learned),
            vec!["It was a potion of speed.".to_string()]
        );
    }

    #[test]
    fn deaths_and_their_causes() {
        let (g, h, ids, _) = with_things(&["giant rat"]);
        let (you, rat) = (Noun::of(&g, h), Noun::of(&g, ids[0]));
        let died = |who: &Noun, cause: Cause, seen| Event::Died {
            who: who.clone(),
            cause,
            seen,
        };
        assert_eq!(
            lines(&g, &died(&rat, Cause::Potion, true)),
            vec!["The giant rat dies.".to_string()]
        );
        assert!(lines(&g, &died(&rat, Cause::Potion, false)).is_empty());
        let poison = Cause::Effect {
            kind: Arc::from("deadly poisoned"),
            undone: false,
        };
        let e = died(&you, poison, true);
        assert_eq!(lines(&g, &e), vec!["You die...".to_string()]);
        assert_eq!(
            cause_of(&g, &e).as_deref(),
            Some("killed by being deadly poisoned")
        );
        let bitten = died(&you, Cause::Creature(Some(rat)), true);
        assert_eq!(
            cause_of(&g, &bitten).as_deref(),
            Some("killed by a giant rat")
        );
    }

    #[test]
    #[allow(deprecated)] // the message log, deprecated: English is not state
    fn record_keeps_the_ending_typed_and_no_english() {
        let (mut g, _, _, _) = with_things(&[]);
        let logged = g.messages().len();
        let now = g.turn();
        let events = [
            (now, Event::Descended { depth: 2 }),
            (now + 1, Event::Stumbled { bumped: false }),
            (now + 1, Event::Won),
        ];
        record(&mut g, &events);
        assert_eq!(g.messages().len(), logged, "no English in the game value");
        let said: Vec<String> = events.iter().flat_map(|(_, e)| lines(&g, e)).collect();
        assert_eq!(
            said,
            vec![
                "You descend to depth 2.".to_string(),
                "You stumble.".to_string(),
                "You climb out of the dungeon with the Philosopher's Stone. You win!".to_string(),
            ]
        );
        assert_eq!(ending_cause(&g), "escaped with the Philosopher's Stone");
        assert_eq!(g.turn(), now, "recording does not move time");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural("rat"), "rats");
        assert_eq!(plural("strange herb"), "strange herbs");
        assert_eq!(plural("potion of healing"), "potions of healing");
        assert_eq!(plural("pair of iron boots"), "pairs of iron boots");
        assert_eq!(plural("fly agaric"), "fly agarics");
        assert_eq!(plural("giant bat"), "giant bats");
        assert_eq!(plural("wolf"), "wolves");
        assert_eq!(plural("box"), "boxes");
        assert_eq!(plural("puppy"), "puppies");
        assert_eq!(count_name(2, "strange herb"), "2 strange herbs");
        assert_eq!(count_name(1, "adder"), "an adder");
    }

    #[test]
    fn verbs() {
        assert_eq!(third_person("bite"), "bites");
        assert_eq!(third_person("touch"), "touches");
        assert_eq!(third_person("smash"), "smashes");
        assert_eq!(third_person("breathe fire at"), "breathes fire at");
        assert_eq!(third_person("fly"), "flies");
        assert_eq!(third_person("be"), "is");
        assert_eq!(capitalise("the rat bites you."), "The rat bites you.");
    }
}
