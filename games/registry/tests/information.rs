//! Information and warnings: descriptions of monsters and items, stable inventory letters,
//! careful throws and drops, the analysis prompt, health warnings, quiet bumps, items kept
//! off apparatus and the map legend. Alchemy plays on the shared session
//! (`alembic_session::play`); its questions are answered by `alembic_alchemy::asks`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use alembic_games::alchemy::ui::{self as alchemy_ui, ruleset::Alchemy};
use alembic_games::alchemy::{
    props::{HPS, HPS_MAX, LAST_SEEN},
    view::{describe, hero_id, inventory_entries, legend, status, thing_glyph, tile_glyph},
};
use alembic_games::play::Session;
use alembic_ui::{App, Frame, Input, Key, ScreenStack};
use common::{arena, at, give, put, wield};

type AlchemyUi = ScreenStack<Session<Alchemy>>;

/// Alchemy on the shared session, straight into play on `g`, saving to `save`.
fn app(g: alembic::Game, save: Option<std::path::PathBuf>) -> AlchemyUi {
    alchemy_ui::session_with_game(g, save, false, false).unwrap()
}

fn render(app: &mut AlchemyUi) -> Frame {
    let mut f = Frame::new(100, 30);
    app.render(&mut f);
    f
}

fn all(lines: &[String]) -> String {
    lines.join("\n")
}

/// A monster's description: level, health band, speed, attack with dice and damage type, and
/// whether it has noticed the hero; each part follows the monster's state.
#[test]
fn monster_description_follows_its_state() {
    let (mut g, _rules, _hero) = arena(1);
    let rules = alembic_games::alchemy::Rules::new().unwrap();
    let rat = put(&mut g, &rules, "giant rat", 2, 0);
    let d = describe(&g, rat).unwrap();
    assert_eq!(d.title, "a giant rat");
    let text = all(&d.lines);
    assert!(text.contains("Level 2. It is unhurt."), "{text}");
    assert!(text.contains("Speed: normal (100)."), "{text}");
    assert!(text.contains("for 1d3 normal damage"), "{text}");
    assert!(text.contains("It has not noticed you."), "{text}");

    let max = g.query(rat, &HPS_MAX).unwrap();
    g.set_mut(rat, &HPS, max / 2).unwrap();
    g.set_mut(rat, &LAST_SEEN, at(0, 0)).unwrap();
    let text = all(&describe(&g, rat).unwrap().lines);
    assert!(
        text.contains("It is wounded.") || text.contains("It is badly wounded."),
        "{text}"
    );
    assert!(text.contains("It has noticed you."), "{text}");

    let bat = put(&mut g, &rules, "bat", -2, 0);
    let text = all(&describe(&g, bat).unwrap().lines);
    assert!(text.contains("fast (150)"), "{text}");
}

/// A weapon's damage dice beside the wielded one's; armour beside what is worn in its slot,
/// with what the swap would change.
#[test]
fn item_description_compares_with_what_you_use() {
    let (mut g, _rules, hero) = arena(2);
    let dagger = wield(&mut g, hero, "dagger");
    let sword = give(&mut g, hero, "short sword");
    let text = all(&describe(&g, sword).unwrap().lines);
    assert!(
        text.contains("Damage 1d6 normal (you wield a dagger: 1d4 normal)."),
        "{text}"
    );
    // The dagger's skill bonus would go.
    assert!(text.contains("skill"), "{text}");
    let d = describe(&g, dagger).unwrap();
    assert_eq!(d.title, "a dagger (wielded)");

    let cap = wield(&mut g, hero, "leather cap");
    let helm = give(&mut g, hero, "iron helm");
    let text = all(&describe(&g, helm).unwrap().lines);
    assert!(
        text.contains("Armour 2, worn on the head (you wear a leather cap: armour 1)."),
        "{text}"
    );
    let armour = g
        .query(hero, &alembic_games::alchemy::props::ARMOUR)
        .unwrap();
    assert!(
        text.contains(&format!("armour {armour} → {}", armour + 1)),
        "{text}"
    );
    let text = all(&describe(&g, cap).unwrap().lines);
    assert!(text.contains("Wearing it gives you"), "{text}");

    // A bare-handed hero compares with bare hands.
    let (mut g, _rules, hero) = arena(3);
    let club = give(&mut g, hero, "club");
    let text = all(&describe(&g, club).unwrap().lines);
    assert!(
        text.contains("Damage 1d5 impact (you fight bare-handed: 1d3"),
        "{text}"
    );
}

/// Potions say what they do only once identified.
#[test]
fn potion_description_waits_for_identification() {
    let (mut g, _rules, hero) = arena(4);
    let p = give(&mut g, hero, "potion of healing");
    let text = all(&describe(&g, p).unwrap().lines);
    assert!(
        text.contains("You do not know what this potion does"),
        "{text}"
    );
    alembic_games::alchemy::rules::identify(&mut g, p).unwrap();
    let text = all(&describe(&g, p).unwrap().lines);
    assert!(text.contains("It heals 20 HP."), "{text}");
    let food = give(&mut g, hero, "apple");
    assert!(all(&describe(&g, food).unwrap().lines).contains("restores 2 HP"));
}

/// Through the keys: the look cursor on a monster says what it is, Enter opens its full
/// description; the inventory's item menu shows the item's description before its actions.
#[test]
fn look_and_inventory_show_descriptions() {
    let (mut g, rules, hero) = arena(5);
    put(&mut g, &rules, "giant rat", 3, 0);
    give(&mut g, hero, "short sword");
    let mut a = app(g, None);
    a.handle(Input::ch('x'));
    a.handle(Input::key(Key::Tab));
    let f = render(&mut a);
    assert!(f.contains_text("giant rat (unhurt)"), "{}", f.to_text());
    a.handle(Input::key(Key::Enter));
    assert_eq!(a.names().last().copied(), Some("text"));
    let f = render(&mut a);
    assert!(f.contains_text("Level 2. It is unhurt."), "{}", f.to_text());
    assert!(
        f.contains_text("It has not noticed you."),
        "{}",
        f.to_text()
    );
    assert!(f.contains_text("normal damage"), "{}", f.to_text());
    a.handle(Input::key(Key::Esc));
    assert_eq!(a.names().last().copied(), Some("play"));

    // The inventory lists each item with its description.
    a.handle(Input::ch('i'));
    let f = render(&mut a);
    assert!(
        f.contains_text("Damage 1d6 normal (you fight bare-handed"),
        "{}",
        f.to_text()
    );
    let _ = hero_id(a.ctx().game()).unwrap();
}

fn letter_of(g: &alembic::Game, id: alembic::ThingId) -> Option<char> {
    inventory_entries(g)
        .unwrap()
        .into_iter()
        .find(|e| e.ids.contains(&id))
        .and_then(|e| e.letter)
}

/// Pack letters stay with their items: across turns, after another item leaves the pack,
/// for look-alikes picked up later, in every list, and through a save.
#[test]
fn inventory_letters_are_stable() {
    use alembic_games::alchemy::Command;
    use alembic_games::alchemy::props::INV_LETTER;
    let (mut g, rules, hero) = arena(6);
    let dagger = give(&mut g, hero, "dagger");
    let potion = give(&mut g, hero, "potion of healing");
    let herb = give(&mut g, hero, "bloodwort");
    // Lettered as they arrived, on the first turn.
    g = common::run(&g, &rules, Command::Wait);
    assert_eq!(
        [dagger, potion, herb].map(|t| g.query_opt(t, &INV_LETTER).unwrap()),
        [Some('a'), Some('b'), Some('c')]
    );
    // Drinking the potion frees b; the herb keeps c.
    g = common::run(&g, &rules, Command::Quaff(potion));
    assert_eq!(letter_of(&g, herb), Some('c'));
    assert_eq!(letter_of(&g, dagger), Some('a'));
    // A look-alike picked up later joins its stack and letter; a new kind takes the free b.
    let floor_herb = g.library().create("bloodwort").unwrap();
    let floor_herb = g.add_thing_mut(at(0, 0), floor_herb).unwrap();
    g = common::run(&g, &rules, Command::PickUp(Some(floor_herb)));
    assert!(!g.things().contains(floor_herb), "merged into the stack");
    assert_eq!(alembic_games::alchemy::rules::number(&g, herb), 2);
    assert_eq!(letter_of(&g, herb), Some('c'));
    let sword = g.library().create("short sword").unwrap();
    let sword = g.add_thing_mut(at(0, 0), sword).unwrap();
    g = common::run(&g, &rules, Command::PickUp(Some(sword)));
    assert_eq!(letter_of(&g, sword), Some('b'));
    // Dropped, an item loses its letter.
    g = common::run(&g, &rules, Command::Drop(sword));
    assert_eq!(g.query_opt(sword, &INV_LETTER).unwrap(), None);

    // A save keeps the letters.
    let dir = std::env::temp_dir().join(format!("alembic-info-letters-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("alchemy.save");
    alembic_games::alchemy::save::save(&g, &file).unwrap();
    let back = alembic_games::alchemy::save::load(&file, &rules).unwrap();
    assert_eq!(letter_of(&back, herb), Some('c'));
    assert_eq!(letter_of(&back, dagger), Some('a'));
    std::fs::remove_dir_all(&dir).unwrap();

    // Every list letters the herb c: the inventory, eat, analyse (beside a lab), drop and
    // throw lists.
    let lab = g.library().create("analysis lab").unwrap();
    g.add_thing_mut(at(1, 1), lab).unwrap();
    let mut a = app(g, None);
    for key in ['i', 'e', 'a', 'd', 't'] {
        a.handle(Input::ch(key));
        let f = render(&mut a);
        assert!(f.contains_text("c) % 2 "), "{key}: {}", f.to_text());
        a.handle(Input::key(Key::Esc));
    }
    // And c in the eat list eats the herb, whatever lies before it in the list.
    a.handle(Input::ch('e'));
    a.handle(Input::ch('c'));
    assert!(render(&mut a).contains_text("You eat"));
}

/// The letters a command leaves are the letters the rules would give the pack afresh: over
/// whole bot games, giving them again changes nothing, on the turns whose command skipped
/// them (the pack and everything its letters come from unchanged) and on the others. Both
/// kinds of turn occur.
#[test]
fn kept_letters_match_letters_given_afresh() {
    use alembic_games::alchemy::{apply, bot::Bot, new_game, rules};
    let rules_book = alembic_games::alchemy::Rules::new().unwrap();
    let (mut skipped, mut given) = (0u32, 0u32);
    for seed in 1..=2 {
        let mut g = new_game(seed, &rules_book).unwrap();
        let mut bot = Bot::new(seed);
        let mut attempts = 0;
        while g.turn() < 3_000 && attempts < 12_000 {
            attempts += 1;
            let cmd = bot.choose(&g);
            let Ok(o) = apply(&g, &rules_book, cmd) else {
                bot.refused();
                continue;
            };
            let Ok(h) = hero_id(&o.game) else { break };
            if rules::letters_unchanged(&g, &o.game, h) {
                skipped += 1;
            } else {
                given += 1;
            }
            let mut afresh = o.game.clone();
            rules::assign_letters(&mut afresh, h).unwrap();
            assert!(
                afresh == o.game,
                "seed {seed}, turn {}: the letters kept differ from the letters given afresh",
                o.game.turn()
            );
            g = o.game;
            if o.over {
                break;
            }
        }
    }
    assert!(skipped > 0 && given > 0, "skipped {skipped}, given {given}");
}

/// What the letters are derived from: the pack's contents and order, each item's record and
/// its kind in the library. A change to any of them, or an item without a letter, means
/// the letters must be given again.
#[test]
fn letters_are_given_again_when_what_they_come_from_changes() {
    use alembic_games::alchemy::Command;
    use alembic_games::alchemy::props::{DURATION, INV_LETTER, IS_ITEM};
    use alembic_games::alchemy::rules::{assign_letters, identify, letters_unchanged};
    let (mut g, rules, hero) = arena(6);
    let herb = give(&mut g, hero, "bloodwort");
    let other = give(&mut g, hero, "silverleaf");
    // Not lettered yet (given by hand): the next command must letter them.
    assert!(!letters_unchanged(&g, &g.clone(), hero));
    g = common::run(&g, &rules, Command::Wait);
    // Two strange herbs look alike: one group, one letter.
    assert_eq!(g.query_opt(herb, &INV_LETTER).unwrap(), Some('a'));
    assert_eq!(g.query_opt(other, &INV_LETTER).unwrap(), Some('a'));
    assert!(letters_unchanged(&g, &g.clone(), hero));
    // A turn that touches nothing in the pack keeps them.
    let next = common::run(&g, &rules, Command::Wait);
    assert!(letters_unchanged(&g, &next, hero));

    // Identifying the bloodwort writes only the library, yet splits the group.
    let mut known = g.clone();
    identify(&mut known, herb).unwrap();
    assert!(!letters_unchanged(&g, &known, hero));
    let mut lettered = known.clone();
    assign_letters(&mut lettered, hero).unwrap();
    assert_eq!(lettered.query_opt(other, &INV_LETTER).unwrap(), Some('b'));

    // An item's own record changing (wielded), an item arriving, or one without a letter
    // of the pack's.
    let mut wielded = g.clone();
    wielded
        .set_mut(other, &alembic_games::alchemy::props::IS_WIELDED, true)
        .unwrap();
    assert!(!letters_unchanged(&g, &wielded, hero));
    let mut more = g.clone();
    give(&mut more, hero, "dagger");
    assert!(!letters_unchanged(&g, &more, hero));
    let mut bare = g.clone();
    bare.set_mut(herb, &INV_LETTER, '?').unwrap();
    assert!(!letters_unchanged(&bare, &bare.clone(), hero));

    // An effect the hero carries is no item: its duration ticking leaves the letters, but
    // the same thing turned into an item does not.
    let mut sick = g.clone();
    let effect = give(&mut sick, hero, "sick");
    assert!(!sick.is(effect, &IS_ITEM));
    sick = common::run(&sick, &rules, Command::Wait);
    let mut ticked = sick.clone();
    ticked.set_mut(effect, &DURATION, 3).unwrap();
    assert!(letters_unchanged(&sick, &ticked, hero));
    let mut now_an_item = sick.clone();
    now_an_item.set_mut(effect, &IS_ITEM, true).unwrap();
    assert!(!letters_unchanged(&sick, &now_an_item, hero));
}

/// Switching weapons says what is wielded and what is put away (never "take off" for a
/// weapon); armour says what comes off and what goes on.
#[test]
fn switching_weapons_and_armour_says_so() {
    use alembic_games::alchemy::Command;
    let (mut g, rules, hero) = arena(7);
    wield(&mut g, hero, "dagger");
    let sword = give(&mut g, hero, "short sword");
    wield(&mut g, hero, "leather cap");
    let helm = give(&mut g, hero, "iron helm");
    let (g, log) = common::said(&g, &rules, Command::Wield(sword));
    assert!(
        log.contains(&"You wield the short sword, putting away the dagger.".to_owned()),
        "{log:?}"
    );
    assert!(
        !log.iter().any(|m| m.contains("take off the dagger")),
        "{log:?}"
    );
    let (g, log) = common::said(&g, &rules, Command::Wield(helm));
    assert!(log.contains(&"You take off the leather cap and put on the iron helm.".to_owned()));
    let (_, log) = common::said(&g, &rules, Command::Unwield(sword));
    assert!(log.contains(&"You put away the short sword.".to_owned()));
}

/// The throw and drop lists leave out what is worn or wielded; with nothing else carried,
/// they say how to take it off instead of opening an empty list.
#[test]
fn throw_and_drop_leave_out_what_you_use() {
    let (mut g, _rules, hero) = arena(8);
    wield(&mut g, hero, "dagger");
    wield(&mut g, hero, "leather cap");
    let mut a = app(g.clone(), None);
    for key in ['d', 't'] {
        a.handle(Input::ch(key));
        assert_eq!(a.names().last().copied(), Some("play"));
        assert!(render(&mut a).contains_text("take it off or put it away first (w)"));
    }
    give(&mut g, hero, "apple");
    let mut a = app(g, None);
    for key in ['d', 't'] {
        a.handle(Input::ch(key));
        let f = render(&mut a);
        assert!(f.contains_text("apple"), "{}", f.to_text());
        assert!(!f.contains_text("dagger"), "{}", f.to_text());
        assert!(!f.contains_text("leather cap"), "{}", f.to_text());
        // The dagger's own letter does nothing here.
        a.handle(Input::ch('a'));
        assert_eq!(a.names().last().copied(), Some("question"));
        a.handle(Input::key(Key::Esc));
    }
    // The inventory's menu for the dagger offers no drop or throw.
    a.handle(Input::ch('i'));
    a.handle(Input::ch('a'));
    let f = render(&mut a);
    assert!(f.contains_text("w) put away"), "{}", f.to_text());
    assert!(!f.contains_text("d) drop"), "{}", f.to_text());
}

/// Analysing: away from a lab `a` says so before asking for an item; beside one it asks
/// which item, warns that the item is used up and waits for y/n.
#[test]
fn analyse_checks_the_lab_first_and_asks() {
    let (mut g, _rules, hero) = arena(9);
    let potion = give(&mut g, hero, "potion of healing");
    let mut a = app(g.clone(), None);
    a.handle(Input::ch('a'));
    assert_eq!(
        a.names().last().copied(),
        Some("play"),
        "no list away from a lab"
    );
    assert!(render(&mut a).contains_text("You need to stand beside an analysis lab"));

    let lab = g.library().create("analysis lab").unwrap();
    g.add_thing_mut(at(1, 0), lab).unwrap();
    let mut a = app(g, None);
    let before = a.ctx().game().clone();
    a.handle(Input::ch('a'));
    assert_eq!(a.names().last().copied(), Some("question"));
    a.handle(Input::ch('a'));
    assert_eq!(a.names().last().copied(), Some("question"));
    let f = render(&mut a);
    assert!(f.contains_text("uses it up"), "{}", f.to_text());
    a.handle(Input::ch('n'));
    assert!(*a.ctx().game() == before, "no: nothing happened");
    a.handle(Input::ch('a'));
    a.handle(Input::ch('a'));
    a.handle(Input::ch('y'));
    assert!(
        !a.ctx().game().things().contains(potion),
        "yes: analysed and used up"
    );
    assert!(render(&mut a).contains_text("You analyse"));
}

/// The colour of the HP bar's first cell.
fn bar_colour(f: &Frame) -> alembic::Rgb {
    for y in 0..30 {
        for x in 0..100 {
            if let Some(c) = f.get(x, y)
                && c.ch == '█'
            {
                return c.fg;
            }
        }
    }
    panic!("no HP bar:\n{}", f.to_text());
}

/// The HP bar turns yellow below half and red below a quarter.
#[test]
fn health_bar_colours() {
    use alembic_games::alchemy::ui::colours;
    let (mut g, _rules, hero) = arena(10);
    let max = g.query(hero, &HPS_MAX).unwrap();
    let mut colour_at = |hp: i32| {
        g.set_mut(hero, &HPS, hp).unwrap();
        let mut a = app(g.clone(), None);
        bar_colour(&render(&mut a))
    };
    assert_eq!(colour_at(max), colours::GOOD);
    assert_eq!(colour_at(max / 2), colours::GOOD);
    assert_eq!(colour_at(max / 2 - 1), colours::FAIR);
    assert_eq!(colour_at(max / 4), colours::FAIR);
    assert_eq!(colour_at(max / 4 - 1), colours::BAD);
}

/// "Low HP!" appears once when HP falls below a quarter, not again while it stays low, and
/// again after a new fall.
#[test]
fn health_warnings() {
    // A poisoned hero at 30% loses HP each turn: one warning on the way down.
    let (mut g, rules, hero) = arena(11);
    let max = g.query(hero, &HPS_MAX).unwrap();
    g.set_mut(hero, &HPS, max * 3 / 10).unwrap();
    let mut ctx = alembic::HookCtx::new(rules.hooks());
    alembic_games::alchemy::rules::add_effect(&mut g, &mut ctx, hero, "badly poisoned").unwrap();
    let mut a = app(g, None);
    let mut said = Vec::new();
    for _ in 0..8 {
        a.handle(Input::ch('.'));
        // What the message rows show after each turn (the log, and the notice line).
        let f = render(&mut a);
        said.extend(
            f.to_text()
                .lines()
                .take(3)
                .filter(|l| l.contains("Low HP!"))
                .map(|l| (a.ctx().game().turn(), l.trim().to_owned())),
        );
    }
    let hp = status(a.ctx().game()).unwrap().hp;
    // Below a quarter of the most.
    assert!(hp * 4 < max, "poison took the hero low: {hp}/{max}");
    let warnings = a
        .ctx()
        .messages()
        .filter(|l| l.starts_with("Low HP!"))
        .count();
    assert_eq!(warnings, 1, "{said:?}");
    assert!(render(&mut a).contains_text("Low HP!"));
}

/// `S` saves and leaves; leaving says where (the frontend prints it once the window has
/// closed).
#[test]
fn save_and_quit_says_where() {
    let dir = std::env::temp_dir().join(format!("alembic-info-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("alchemy.save");
    let (g, _rules, _hero) = arena(12);
    let mut a = app(g, Some(file.clone()));
    assert_eq!(a.handle(Input::ch('S')), alembic_ui::Control::Quit);
    assert!(file.is_file());
    let said = a.farewell().unwrap().unwrap_or_default();
    assert!(
        said.contains(&format!("saved to {}", file.display())),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Walking into a wall again and again costs no turn and logs the refusal once: no growing
/// "(x32)".
#[test]
fn bumping_a_wall_is_logged_once() {
    let (g, _rules, _hero) = arena(13);
    let mut g = g;
    // The hero stands at the arena's west wall.
    let h = hero_id(&g).unwrap();
    g.move_thing_mut(h, alembic::Place::Map(at(-7, 0))).unwrap();
    let mut a = app(g, None);
    let turn = a.ctx().game().turn();
    let logged = a.ctx().messages().count();
    // The lines the message rows show that say so.
    let shown = |a: &mut AlchemyUi| {
        render(a)
            .to_text()
            .lines()
            .take(3)
            .filter(|l| l.contains("in the way"))
            .count()
    };
    for _ in 0..32 {
        a.handle(Input::ch('h'));
        assert!(shown(&mut a) <= 1, "{}", render(&mut a).to_text());
    }
    assert_eq!(a.ctx().game().turn(), turn, "no turn passed");
    // A refusal is said in the notice line, never logged: the log is the game's.
    assert_eq!(a.ctx().messages().count(), logged);
    let f = render(&mut a);
    assert!(f.contains_text("in the way."), "{}", f.to_text());
    assert!(!f.contains_text("(x"), "{}", f.to_text());
    assert_eq!(shown(&mut a), 1);
    // Something else said in between: the next bump is said again, once.
    a.handle(Input::ch('Z'));
    assert_eq!(shown(&mut a), 0, "{}", render(&mut a).to_text());
    a.handle(Input::ch('h'));
    a.handle(Input::ch('h'));
    assert_eq!(shown(&mut a), 1, "{}", render(&mut a).to_text());
}

/// Every glyph the map shows, on every level of several dungeons (terrain, and each thing
/// as drawn), is in the map's legend with a name; the glyphs that were missing or shared
/// are there, each for one kind of thing.
#[test]
fn map_legend_is_complete_and_unambiguous() {
    use alembic_games::alchemy::rules::{LEVELS, level_box};
    let rules = alembic_games::alchemy::Rules::new().unwrap();
    let (g, _rules, _hero) = arena(14);
    let legend = legend(g.library()).unwrap();
    let glyphs: Vec<char> = legend
        .iter()
        .flat_map(|(_, es)| es.iter().map(|e| e.glyph))
        .collect();
    // Every glyph on the maps of three dungeons (doors both shut and open).
    for seed in [1, 2, 3] {
        let mut game = alembic_games::alchemy::new_game(seed, &rules).unwrap();
        for z in 1..=LEVELS {
            for l in level_box(-z).iter() {
                let tile = tile_glyph(&game, game.tile(l)).unwrap().ch;
                assert!(
                    glyphs.contains(&tile),
                    "seed {seed}: tile {tile:?} not in the legend"
                );
                for t in game.things().at(l).to_vec() {
                    if game.is(t, &alembic_games::alchemy::props::IS_DOOR) {
                        alembic_games::alchemy::rules::set_open(&mut game, t, true).unwrap();
                    }
                    let ch = thing_glyph(&game, t).unwrap().ch;
                    assert!(
                        glyphs.contains(&ch),
                        "seed {seed}: {ch:?} not in the legend"
                    );
                }
            }
        }
    }
    // What the legend says a glyph stands for ("(blank)": solid rock).
    let line = |glyph: &str| {
        let ch = if glyph == "(blank)" {
            ' '
        } else {
            glyph.chars().next().unwrap()
        };
        let names: Vec<String> = legend
            .iter()
            .flat_map(|(_, es)| es.iter())
            .filter(|e| e.glyph == ch)
            .flat_map(|e| e.names.iter().cloned())
            .collect();
        assert!(
            !names.is_empty(),
            "no legend entry for {glyph}: {legend:#?}"
        );
        names.join(", ")
    };
    assert!(line("O").contains("pillar"));
    assert!(line("\"").contains("moss"));
    assert!(line("'").contains("open door"));
    assert!(line("(blank)").contains("solid rock"));
    // One kind of thing per glyph where they used to be shared.
    let plus = line("+");
    assert!(
        plus.contains("door") && !plus.contains("gravestone"),
        "{plus}"
    );
    assert!(line("|").contains("gravestone"));
    let amp = line("&");
    assert!(
        !amp.contains("workbench") && !amp.contains("lab") && !amp.contains("statue"),
        "{amp}"
    );
    assert!(line("=").contains("alchemy workbench"));
    assert!(line("(").contains("analysis lab"));
    assert!(line("8").contains("statue"));
}

/// The help (`?`) shows the map's legend, a line a glyph, as Alchemy's own help did.
#[test]
fn help_shows_the_map_legend() {
    use alembic_session::start::StartHost as _;
    let (g, _rules, _hero) = arena(14);
    let a = app(g, None);
    let (_, help) = a.ctx().help();
    let line = |glyph: &str| {
        help.iter()
            .find(|l| l.trim_start().starts_with(&format!("{glyph} ")))
            .unwrap_or_else(|| panic!("no legend line for {glyph}: {help:#?}"))
            .clone()
    };
    assert!(line("O").contains("pillar"));
    assert!(line("\"").contains("moss"));
    assert!(line("'").contains("open door"));
    assert!(line("(blank)").contains("solid rock"));
    assert!(line("=").contains("alchemy workbench"));
}

/// `?` in play opens the same help, the map's legend at its end.
#[test]
fn help_in_play_ends_with_the_legend() {
    let (g, _rules, _hero) = arena(15);
    let mut a = app(g, None);
    a.handle(Input::ch('?'));
    // The page learns its height when drawn: draw it, then jump to its end.
    let _ = render(&mut a);
    a.handle(Input::key(alembic_ui::Key::End));
    let f = render(&mut a);
    assert!(f.contains_text("Help"), "{}", f.to_text());
    assert!(f.contains_text("golem"), "{}", f.to_text());
}
