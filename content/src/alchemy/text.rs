//! English: names with articles and plurals, counts, verb agreement, capitals.

use alembic::{Error, Game, ThingId};

use super::props::{
    APPEARANCE, IS_HERO, IS_IDENTIFIED, IS_POTION, IS_PROPER, NAME, NUMBER, UNKNOWN_NAME,
};

/// Whether the kind of `id` is identified (read from its prototype, so identifying one
/// potion identifies every potion of its kind).
#[must_use]
pub fn is_identified(game: &Game, id: ThingId) -> bool {
    let Ok(t) = game.get_thing(id) else {
        return false;
    };
    if let Some(p) = t.proto().and_then(|p| game.library().get(p).ok()) {
        if p.is(&IS_IDENTIFIED) {
            return true;
        }
        // Kinds with no unknown form are always known.
        return p.get(&UNKNOWN_NAME).is_err() && !p.is(&IS_POTION);
    }
    t.is(&IS_IDENTIFIED) || t.get_opt(&UNKNOWN_NAME).ok().flatten().is_none()
}

/// The singular name of `id` as the hero knows it, without an article: "rat",
/// "murky violet potion", "potion of healing", "strange herb".
pub fn base_name(game: &Game, id: ThingId) -> Result<String, Error> {
    let t = game.get_thing(id)?;
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
pub fn plural(name: &str) -> String {
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
pub fn count_name(n: usize, singular: &str) -> String {
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
pub fn third_person(verb: &str) -> String {
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

/// The verb agreeing with `subject`: "you bite" / "the rat bites".
#[must_use]
pub fn verb_for(game: &Game, subject: ThingId, verb: &str) -> String {
    if game.is(subject, &IS_HERO) {
        match verb {
            "be" => "are".to_string(),
            v => v.to_string(),
        }
    } else {
        third_person(verb)
    }
}

/// "The rat bites you." from subject, verb and the rest: `sentence(g, rat, "bite", "you")`.
pub fn sentence(game: &Game, subject: ThingId, verb: &str, rest: &str) -> Result<String, Error> {
    let s = the_name(game, subject)?;
    let v = verb_for(game, subject, verb);
    let body = if rest.is_empty() {
        format!("{s} {v}")
    } else {
        format!("{s} {v} {rest}")
    };
    Ok(format!("{}.", capitalise(&body)))
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

#[cfg(test)]
mod tests {
    use super::*;

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
