//! Item stacks, as in the original (`:number`): look-alikes are one thing with a count,
//! merged when picked up or brewed, split when some are dropped, drunk or thrown; the
//! inventory shows the count, and a save holds one thing per stack.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use alembic::{Game, ThingId};
use alembic_games::alchemy::{
    Command,
    props::NUMBER,
    rules::{inventory, items_at as items_here, number, split, stacks_with},
    view::inventory_entries,
};
use common::{arena, at, give, run, said};

/// A stack of `n` items of `kind` lying at (x, y).
fn pile(game: &mut Game, kind: &str, n: i32, x: i32, y: i32) -> ThingId {
    let t = game.library().create(kind).unwrap().with(&NUMBER, n);
    game.add_thing_mut(at(x, y), t).unwrap()
}

#[test]
fn picking_up_look_alikes_makes_one_stack() {
    let (mut g, rules, hero) = arena(1);
    let mine = give(&mut g, hero, "bloodwort");
    let a = pile(&mut g, "bloodwort", 2, 0, 0);
    let b = pile(&mut g, "bloodwort", 3, 0, 0);
    let (next, log) = said(&g, &rules, Command::PickUp(None));
    g = next;
    let inv = inventory(&g, hero);
    assert_eq!(inv, vec![mine], "one thing in the pack");
    assert_eq!(number(&g, mine), 6);
    assert!(!g.things().contains(a) && !g.things().contains(b));
    assert!(
        log.iter().any(|m| m.starts_with("You pick up 5 ")),
        "{log:?}"
    );
    let entry = &inventory_entries(&g).unwrap()[0];
    assert_eq!(entry.count, 6);
    assert!(entry.name.starts_with("6 "), "{}", entry.name);
}

#[test]
fn dropping_part_of_a_stack_splits_it_and_the_floor_pile_merges() {
    let (mut g, rules, hero) = arena(2);
    let herbs = give(&mut g, hero, "bloodwort");
    g.set_mut(herbs, &NUMBER, 5).unwrap();
    g = run(&g, &rules, Command::DropSome(herbs, 2));
    assert_eq!(number(&g, herbs), 3);
    let floor = items_here(&g, at(0, 0));
    assert_eq!(floor.len(), 1);
    assert_eq!(number(&g, floor[0]), 2);
    // Another one dropped joins the pile on the floor.
    g = run(&g, &rules, Command::DropSome(herbs, 1));
    let floor = items_here(&g, at(0, 0));
    assert_eq!(floor.len(), 1);
    assert_eq!(number(&g, floor[0]), 3);
    // Dropping more than there are drops them all; nothing is left in the pack.
    g = run(&g, &rules, Command::DropSome(herbs, 99));
    assert!(inventory(&g, hero).is_empty());
    assert_eq!(number(&g, items_here(&g, at(0, 0))[0]), 5);
    // Zero is refused.
    let herbs = give(&mut g, hero, "bloodwort");
    assert!(alembic_games::alchemy::apply(&g, &rules, Command::DropSome(herbs, 0)).is_err());
}

#[test]
fn drinking_or_throwing_takes_one_off_the_stack() {
    let (mut g, rules, hero) = arena(3);
    let potions = give(&mut g, hero, "potion of healing");
    g.set_mut(potions, &NUMBER, 3).unwrap();
    g = run(&g, &rules, Command::Quaff(potions));
    assert_eq!(number(&g, potions), 2);
    g = run(&g, &rules, Command::Throw(potions, at(3, 0)));
    assert_eq!(number(&g, potions), 1);
    assert_eq!(inventory(&g, hero), vec![potions]);
}

#[test]
fn weapons_never_stack_and_unlike_items_do_not_merge() {
    let (mut g, _rules, hero) = arena(4);
    let a = give(&mut g, hero, "dagger");
    let b = give(&mut g, hero, "dagger");
    assert!(!stacks_with(&g, a, b));
    let h = give(&mut g, hero, "bloodwort");
    let p = give(&mut g, hero, "potion of healing");
    assert!(!stacks_with(&g, h, p));
    let h2 = give(&mut g, hero, "bloodwort");
    assert!(stacks_with(&g, h, h2));
    // A split-off part is a look-alike of what it came from.
    g.set_mut(h, &NUMBER, 4).unwrap();
    let part = split(&mut g, h, 1).unwrap();
    assert_ne!(part, h);
    assert_eq!((number(&g, h), number(&g, part)), (3, 1));
    assert!(stacks_with(&g, h, part));
    g.check_invariants().unwrap();
}

#[test]
fn a_stack_saves_as_one_thing() {
    let (mut g, _rules, hero) = arena(5);
    let herbs = give(&mut g, hero, "bloodwort");
    g.set_mut(herbs, &NUMBER, 40).unwrap();
    let one = serde_json::to_string(&g).unwrap().len();
    let (mut h, _, hero2) = arena(5);
    for _ in 0..40 {
        give(&mut h, hero2, "bloodwort");
    }
    let forty = serde_json::to_string(&h).unwrap().len();
    assert!(one < forty, "stacked {one} bytes, separate {forty} bytes");
}

/// Dropping a stack from the play screen asks how many: digits and Enter drop that many, and
/// Enter alone drops them all; a single item is dropped without asking.
#[test]
fn the_play_screen_asks_how_many_to_drop() {
    use alembic_games::alchemy::ui::{self as alchemy_ui, ruleset::Alchemy};
    use alembic_games::play::Session;
    use alembic_ui::{App, Frame, Input, Key, ScreenStack};
    let (mut g, _rules, hero) = arena(6);
    let herbs = give(&mut g, hero, "bloodwort");
    g.set_mut(herbs, &NUMBER, 5).unwrap();
    let mut a = alchemy_ui::session_with_game(g, None, false, false).unwrap();
    let screen = |a: &mut ScreenStack<Session<Alchemy>>| {
        let mut f = Frame::new(100, 30);
        a.render(&mut f);
        f
    };
    a.handle(Input::ch('d'));
    a.handle(Input::ch('a'));
    assert!(
        screen(&mut a).contains_text("Drop how many? (1-5)"),
        "{}",
        screen(&mut a).to_text()
    );
    a.handle(Input::ch('2'));
    a.handle(Input::key(Key::Enter));
    let g = a.ctx().game().clone();
    assert_eq!(number(&g, herbs), 3);
    assert_eq!(number(&g, items_here(&g, at(0, 0))[0]), 2);
    // Enter alone: all of them.
    a.handle(Input::ch('d'));
    a.handle(Input::ch('a'));
    a.handle(Input::key(Key::Enter));
    let g = a.ctx().game().clone();
    assert!(inventory(&g, hero).is_empty());
    assert_eq!(number(&g, items_here(&g, at(0, 0))[0]), 5);
}
