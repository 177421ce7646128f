//! Alchemy's questions on the contract ([`Questions`]): which potion to quaff, what to eat,
//! drop (and how many of a stack), throw (and where: the targeting cursor from the hero,
//! foes in range first), wield or take off, analyse (and a y/n, since it uses the item up),
//! which recipe to craft, which way a door is, what to pick up, the inventory's actions, and
//! look (a query: it answers with words and takes no turn).
//!
//! Headless, like the rest of the rules: the session's play screen asks each question in
//! any frontend, and the command made of the replies is what is played and recorded. The
//! board names the keys ([`key`]).

use alembic::{Game, Loc, ThingId};
use alembic_session::ask::{Asked, Choice, Question, Questions, Reply};

use crate::contract::Alchemy;
use crate::rules::items::THROW_RANGE;
use crate::rules::world::{items_at, level_box};
use crate::view::{
    self, Apparatus, DoorState, InventoryEntry, ItemKind, hero_id, is_creature, is_hostile,
};
use crate::{Command, text};

/// The ids of the keys that ask (the board binds its keys to them).
pub mod key {
    /// Quaff a potion.
    pub const QUAFF: u32 = 0;
    /// Eat.
    pub const EAT: u32 = 1;
    /// Drop.
    pub const DROP: u32 = 2;
    /// Throw, then where.
    pub const THROW: u32 = 3;
    /// Wield or wear, or take off.
    pub const WIELD: u32 = 4;
    /// Analyse at a lab.
    pub const ANALYSE: u32 = 5;
    /// Craft a potion from a known recipe.
    pub const CRAFT: u32 = 6;
    /// Open or close a door, then which way.
    pub const DOOR: u32 = 7;
    /// Look around with the cursor.
    pub const LOOK: u32 = 8;
    /// Pick up (a list when several things lie here).
    pub const PICK_UP: u32 = 9;
    /// The inventory: an item, then what to do with it.
    pub const INVENTORY: u32 = 10;
    /// Travel to a place picked with the cursor.
    pub const TRAVEL: u32 = 11;
}

/// What can be done with a carried item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Quaff,
    Eat,
    Wield,
    Throw,
    Analyse,
    Drop,
}

impl Use {
    /// In the inventory's order of actions.
    const ALL: [Use; 6] = [
        Use::Quaff,
        Use::Eat,
        Use::Wield,
        Use::Throw,
        Use::Analyse,
        Use::Drop,
    ];

    fn of_key(k: u32) -> Option<Use> {
        Some(match k {
            key::QUAFF => Use::Quaff,
            key::EAT => Use::Eat,
            key::DROP => Use::Drop,
            key::THROW => Use::Throw,
            key::WIELD => Use::Wield,
            key::ANALYSE => Use::Analyse,
            _ => return None,
        })
    }

    fn title(self) -> &'static str {
        match self {
            Use::Quaff => "Quaff which potion?",
            Use::Eat => "Eat what?",
            Use::Drop => "Drop what? (what you wear or wield comes off first: w)",
            Use::Throw => "Throw what? (what you wear or wield comes off first: w)",
            Use::Wield => "Wield or wear what? (again to take off)",
            Use::Analyse => "Analyse what?",
        }
    }

    fn none(self) -> &'static str {
        match self {
            Use::Quaff => "You have no potions to drink.",
            Use::Eat => "You have nothing to eat.",
            Use::Drop => "You are carrying nothing.",
            Use::Throw => "You have nothing to throw.",
            Use::Wield => "You have nothing to wield or wear.",
            Use::Analyse => "You have nothing to analyse: only potions and ingredients.",
        }
    }

    fn fits(self, e: &InventoryEntry) -> bool {
        match self {
            Use::Quaff => e.kind == ItemKind::Potion,
            Use::Eat => matches!(e.kind, ItemKind::Food | ItemKind::Ingredient),
            // What is worn or wielded must come off first (w), as in DCSS.
            Use::Drop | Use::Throw => !e.wielded,
            Use::Wield => matches!(e.kind, ItemKind::Weapon | ItemKind::Armour),
            Use::Analyse => matches!(e.kind, ItemKind::Potion | ItemKind::Ingredient),
        }
    }

    /// Its key on the play screen, the letter of its line in the inventory's actions.
    fn letter(self) -> char {
        match self {
            Use::Quaff => 'q',
            Use::Eat => 'e',
            Use::Drop => 'd',
            Use::Throw => 't',
            Use::Wield => 'w',
            Use::Analyse => 'a',
        }
    }

    fn label(self, e: &InventoryEntry) -> &'static str {
        match self {
            Use::Quaff => "quaff",
            Use::Eat => "eat",
            Use::Drop => "drop",
            Use::Throw => "throw",
            Use::Wield => match (e.wielded, e.kind) {
                (true, ItemKind::Weapon) => "put away",
                (true, _) => "take off",
                (false, ItemKind::Weapon) => "wield",
                (false, _) => "wear",
            },
            Use::Analyse => "analyse (beside an analysis lab)",
        }
    }
}

/// What `a` says away from a lab.
pub const NO_LAB: &str = "You need to stand beside an analysis lab (&) to analyse anything.";
/// What any question says when the game cannot answer it (a bug: the hero is missing).
const LOST: &str = "You cannot do that now.";

/// The hero's place.
fn hero_at(g: &Game) -> Option<Loc> {
    g.things().location(hero_id(g).ok()?).ok()
}

/// A carried item as a choice: its pack letter, glyph and name, and the first line of its
/// description.
fn choice(g: &Game, e: &InventoryEntry) -> Choice {
    let about = e
        .ids
        .first()
        .and_then(|&id| view::describe(g, id).ok())
        .and_then(|d| d.lines.into_iter().next())
        .unwrap_or_default();
    let c = Choice::new(format!("{} {}", e.glyph.ch, e.name)).with_about(about);
    match e.letter {
        Some(l) => c.with_letter(l),
        None => c,
    }
}

/// The places a cursor offers first from `at`: foes, then other creatures, then items, in
/// view, nearest first (the hero's own place left out).
fn marks(g: &Game, at: Loc) -> Vec<Loc> {
    let Ok(seen) = view::visible(g) else {
        return Vec::new();
    };
    let mut marks: Vec<(u8, u64, Loc)> = seen
        .iter()
        .filter(|&l| l != at)
        .filter_map(|l| {
            let mut things = g.things().at(l).to_vec();
            if view::hidden_in_dark(g, l) {
                things.retain(|&t| !is_creature(g, t));
            }
            let foe = things
                .iter()
                .any(|&t| is_creature(g, t) && is_hostile(g, t));
            let creature = things.iter().any(|&t| is_creature(g, t));
            let rank = match (foe, creature, things.is_empty()) {
                (true, _, _) => 0,
                (false, true, _) => 1,
                (false, false, false) => 2,
                (false, false, true) => return None,
            };
            Some((rank, at.euclidean_sq(l), l))
        })
        .collect();
    marks.sort_by_key(|&(r, d, l)| (r, d, l.y, l.x));
    marks.into_iter().map(|(_, _, l)| l).collect()
}

/// What is asked after `u` was chosen for the item of `e`, given the replies since.
fn use_item(g: &Game, u: Use, e: &InventoryEntry, replies: &[Reply]) -> Asked<Command> {
    let Some(&id) = e.ids.first() else {
        return Asked::Say(LOST.into());
    };
    match (u, replies) {
        (Use::Quaff, []) => Asked::Play(Command::Quaff(id)),
        (Use::Eat, []) => Asked::Play(Command::Eat(id)),
        (Use::Wield, []) if e.wielded => Asked::Play(Command::Unwield(id)),
        (Use::Wield, []) => Asked::Play(Command::Wield(id)),
        (Use::Drop, []) => match view::stack_size(g, id) {
            n if n > 1 => Asked::Ask(Question::number("Drop how many?", 1, n.unsigned_abs())),
            _ => Asked::Play(Command::Drop(id)),
        },
        (Use::Drop, [Reply::Number(n)]) => Asked::Play(Command::DropSome(id, *n)),
        (Use::Analyse, _) if !at_lab(g) => Asked::Say(NO_LAB.into()),
        (Use::Analyse, []) => {
            let name = text::the_name(g, id).unwrap_or_else(|_| "it".to_owned());
            Asked::Ask(Question::confirm(format!(
                "Analysing {name} uses it up, whether or not you learn what it is. Analyse it?"
            )))
        }
        (Use::Analyse, [Reply::Confirm(true)]) => Asked::Play(Command::Analyse(id)),
        (Use::Throw, []) => {
            let Some(at) = hero_at(g) else {
                return Asked::Say(LOST.into());
            };
            let mut marks = marks(g, at);
            // The cursor starts on the nearest foe in range.
            if let Some(i) = marks.iter().position(|&l| at.chebyshev(l) <= THROW_RANGE) {
                marks[..=i].rotate_right(1);
            }
            let name = text::the_name(g, id).unwrap_or_else(|_| "it".to_owned());
            // Where the hero knows a throw would stop: walls, closed doors, blocking things.
            let stops = level_box(at.z)
                .iter()
                .filter(|&l| crate::rules::explored(g, l) && view::stops_throw(g, l))
                .collect();
            Asked::Ask(
                Question::target(format!("Throw {name} where?"), at, marks, level_box(at.z))
                    .with_stops(stops),
            )
        }
        (Use::Throw, [Reply::Target(l)]) => Asked::Play(Command::Throw(id, *l)),
        _ => Asked::Say("Okay, then.".into()),
    }
}

/// Whether an analysis lab is within the hero's reach.
fn at_lab(g: &Game) -> bool {
    hero_at(g).is_some_and(|at| view::apparatus_at_hand(g, at, Apparatus::Lab))
}

/// `q`, `e`, `d`, `t`, `w`, `a`: an item that fits, then what the use asks.
fn choose_item(g: &Game, u: Use, replies: &[Reply]) -> Asked<Command> {
    let all = view::inventory_entries(g).unwrap_or_default();
    let fit: Vec<&InventoryEntry> = all.iter().filter(|e| u.fits(e)).collect();
    match replies {
        // First the lab, then the item: no list to choose from where nothing can be done.
        [] if u == Use::Analyse && !at_lab(g) => Asked::Say(NO_LAB.into()),
        [] if fit.is_empty() => {
            let in_use = matches!(u, Use::Drop | Use::Throw) && all.iter().any(|e| e.wielded);
            Asked::Say(if in_use {
                "You carry only what you wear or wield: take it off or put it away first (w)."
                    .into()
            } else {
                u.none().into()
            })
        }
        [] => Asked::Ask(Question::item(
            u.title(),
            fit.iter().map(|e| choice(g, e)).collect(),
        )),
        [Reply::Item(i), rest @ ..] => match fit.get(*i) {
            Some(e) => use_item(g, u, e, rest),
            None => Asked::Say(LOST.into()),
        },
        _ => Asked::Say(LOST.into()),
    }
}

/// `i`: an item, then one of its uses.
fn inventory(g: &Game, replies: &[Reply]) -> Asked<Command> {
    let all = view::inventory_entries(g).unwrap_or_default();
    match replies {
        [] if all.is_empty() => Asked::Say("You are carrying nothing.".into()),
        [] => Asked::Ask(Question::item(
            "Inventory (choose an item for its actions)",
            all.iter().map(|e| choice(g, e)).collect(),
        )),
        [Reply::Item(i), rest @ ..] => {
            let Some(e) = all.get(*i) else {
                return Asked::Say(LOST.into());
            };
            let uses: Vec<Use> = Use::ALL.into_iter().filter(|u| u.fits(e)).collect();
            match rest {
                [] => Asked::Ask(Question::item(
                    format!("{} {}", e.glyph.ch, e.name),
                    uses.iter()
                        .map(|u| Choice::new(u.label(e)).with_letter(u.letter()))
                        .collect(),
                )),
                [Reply::Item(j), more @ ..] => match uses.get(*j) {
                    Some(&u) => use_item(g, u, e, more),
                    None => Asked::Say(LOST.into()),
                },
                _ => Asked::Say(LOST.into()),
            }
        }
        _ => Asked::Say(LOST.into()),
    }
}

/// `c`: a known recipe.
fn craft(g: &Game, replies: &[Reply]) -> Asked<Command> {
    let recipes = view::known_recipes(g).unwrap_or_default();
    match replies {
        [] if recipes.is_empty() => Asked::Say(
            "You know no recipes yet: identify a potion (drink or analyse it) to learn how it is made."
                .into(),
        ),
        [] => {
            let bench = recipes.iter().any(|r| r.at_workbench);
            let choices = recipes
                .iter()
                .map(|r| {
                    let tag = if r.missing.is_empty() {
                        "[OK]"
                    } else {
                        "[ingredients missing]"
                    };
                    Choice::new(format!("{}: {} {tag}", r.name, r.ingredients.join(", ")))
                })
                .collect();
            let title = if bench {
                "Craft which potion?"
            } else {
                "Recipes (stand beside an alchemy workbench to craft)"
            };
            Asked::Ask(Question::item(title, choices))
        }
        [Reply::Item(i)] => match recipes.get(*i) {
            Some(r) => Asked::Play(Command::Craft(r.potion.clone())),
            None => Asked::Say(LOST.into()),
        },
        _ => Asked::Say(LOST.into()),
    }
}

/// `C`: which way; an open door there closes, else the door there opens.
fn door(g: &Game, replies: &[Reply]) -> Asked<Command> {
    match replies {
        [] => Asked::Ask(Question::direction(
            "Open or close a door in which direction?",
        )),
        [Reply::Direction(d)] => {
            let open = hero_at(g).and_then(|at| view::door_at(g, at + *d)) == Some(DoorState::Open);
            Asked::Play(if open {
                Command::Close(*d)
            } else {
                Command::Open(*d)
            })
        }
        _ => Asked::Say(LOST.into()),
    }
}

/// The map cursor asking `prompt`, on the hero at `at` first, then Tab through `marks`.
fn from_hero(prompt: &str, at: Loc, mut marks: Vec<Loc>) -> Asked<Command> {
    marks.insert(0, at);
    Asked::Ask(Question::target(prompt, at, marks, level_box(at.z)))
}

/// `x`: a place, then what the hero knows of it (a query: no command, no turn). The cursor
/// starts on the hero, as Alchemy's own look did (and DCSS's `x`); Tab goes to the marks.
fn look(g: &Game, replies: &[Reply]) -> Asked<Command> {
    let Some(at) = hero_at(g) else {
        return Asked::Say(LOST.into());
    };
    match replies {
        [] => from_hero("Look at what? (Enter describes it)", at, marks(g, at)),
        // Enter: the place's sentence, then the whole description of the thing on top
        // (the hero aside) on a page of its own.
        [Reply::Target(l)] => match view::look_at(g, *l) {
            Ok(info) => {
                let top = info.things.iter().find(|&&t| !view::is_hero(g, t));
                match top.and_then(|&t| view::describe(g, t).ok()) {
                    Some(d) => Asked::Say(format!(
                        "{}\n{}\n{}",
                        text::capitalise(&d.title),
                        info.text,
                        d.lines.join("\n")
                    )),
                    None => Asked::Say(info.text),
                }
            }
            Err(_) => Asked::Say(LOST.into()),
        },
        _ => Asked::Say(LOST.into()),
    }
}

/// `G`: a place the hero has seen, then the session's travel there. The cursor starts on
/// the hero and cycles through the stairs and the features the hero remembers.
fn travel(g: &Game, replies: &[Reply]) -> Asked<Command> {
    let Some(at) = hero_at(g) else {
        return Asked::Say(LOST.into());
    };
    match replies {
        [] => {
            let mut marks: Vec<(bool, u32, Loc)> = level_box(at.z)
                .iter()
                .filter(|&l| l != at && crate::rules::explored(g, l))
                .filter(|&l| view::remembered_thing(g, l).is_some())
                .map(|l| {
                    let stairs = view::known_stairs_at(g, l, view::Stairs::Down)
                        || view::known_stairs_at(g, l, view::Stairs::Up);
                    (!stairs, at.chebyshev(l), l)
                })
                .collect();
            marks.sort_by_key(|&(s, d, l)| (s, d, l.y, l.x));
            let marks: Vec<Loc> = marks.into_iter().map(|(_, _, l)| l).collect();
            from_hero(
                "Travel to where? (Tab: stairs and places you remember)",
                at,
                marks,
            )
        }
        [Reply::Target(l)] if *l == at => Asked::Say("You are there already.".into()),
        [Reply::Target(l)] if !crate::rules::explored(g, *l) => {
            Asked::Say("You have not seen that place.".into())
        }
        [Reply::Target(l)] => Asked::Travel(*l),
        _ => Asked::Say(LOST.into()),
    }
}

/// `,`: the only item here at once; a list when several lie here.
fn pick_up(g: &Game, replies: &[Reply]) -> Asked<Command> {
    let here: Vec<ThingId> = hero_at(g).map(|at| items_at(g, at)).unwrap_or_default();
    match replies {
        [] if here.len() <= 1 => Asked::Play(Command::PickUp(None)),
        [] => Asked::Ask(Question::item(
            "Pick up what?",
            here.iter()
                .map(|&t| Choice::new(text::a_name(g, t).unwrap_or_else(|_| "something".into())))
                .collect(),
        )),
        [Reply::Item(i)] => match here.get(*i) {
            Some(&t) => Asked::Play(Command::PickUp(Some(t))),
            None => Asked::Say(LOST.into()),
        },
        _ => Asked::Say(LOST.into()),
    }
}

impl Questions<Command> for Alchemy {
    fn ask(&self, game: &Game, k: u32, replies: &[Reply]) -> Asked<Command> {
        if let Some(u) = Use::of_key(k) {
            return choose_item(game, u, replies);
        }
        match k {
            key::INVENTORY => inventory(game, replies),
            key::CRAFT => craft(game, replies),
            key::DOOR => door(game, replies),
            key::LOOK => look(game, replies),
            key::PICK_UP => pick_up(game, replies),
            key::TRAVEL => travel(game, replies),
            _ => Asked::Say(LOST.into()),
        }
    }
}
