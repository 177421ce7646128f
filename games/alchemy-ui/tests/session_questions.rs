#![allow(clippy::unwrap_used)]
//! Alchemy on the shared session: quaff, wield, throw (the targeting cursor with its path)
//! and craft are the session's questions, answered by the rules
//! (`alembic_alchemy::asks`), played through the session's one play screen; the recording
//! of those replies replays to the same final hash.

use std::path::PathBuf;
use std::sync::Arc;

use alembic::Game;
use alembic_alchemy::Command;
use alembic_alchemy_ui::ruleset::{Alchemy, AlchemyBoard};
use alembic_session::play::{self, Session, Step};
use alembic_session::record;
use alembic_session::run::apply_step_quietly;
use alembic_session::{Goal, Ruleset, Status, View};
use alembic_ui::{Frame, Input, Key, ScreenStack, TestFrontend, TestFrontendError, run};

/// Big enough for the whole level beside the side panel, under the messages.
const W: u16 = 120;
const H: u16 = 56;

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-alchemy-ask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Press `keys` on `app`; the frames drawn.
fn press(app: &mut ScreenStack<Session<Alchemy>>, keys: Vec<Input>) -> Vec<Frame> {
    let mut fe = TestFrontend::new(W, H, keys);
    match run(&mut fe, app) {
        Ok(()) | Err(TestFrontendError::ScriptExhausted { .. }) => {}
    }
    fe.frames().to_vec()
}

fn typed(line: &str) -> Vec<Input> {
    let mut k: Vec<Input> = line.chars().map(Input::ch).collect();
    k.push(Input::key(Key::Enter));
    k
}

/// A wizard game of Alchemy from seed 11 on the shared session, saving in `d`.
fn wizard_game(d: &std::path::Path) -> (Arc<Alchemy>, ScreenStack<Session<Alchemy>>) {
    let rules = Arc::new(Alchemy::new().unwrap());
    let session = Session::with_board(rules.clone(), AlchemyBoard::shared(), 11)
        .with_modes(false, true)
        .with_save(d.join("alchemy.save"));
    (rules, play::app_playing(session))
}

/// The letter a list on `frame` shows before the line holding `what` ("c) …").
fn letter_of(frame: &Frame, what: &str) -> char {
    let text = frame.to_text();
    let line = text
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no {what:?} in\n{text}"));
    let at = line.find(") ").unwrap();
    line[..at].chars().last().unwrap()
}

#[test]
fn quaff_wield_throw_and_craft_through_the_sessions_questions() {
    let d = dir("all");
    let (rules, mut app) = wizard_game(&d);

    // The wizard console: know every recipe, carry a potion, a short sword and three of every
    // ingredient, and have a workbench beside the hero. Each line is recorded.
    let mut keys = vec![Input::ch('~')];
    keys.extend(typed("identify"));
    keys.extend(typed("give potion of healing"));
    keys.extend(typed("give short sword"));
    for herb in [
        "bloodwort",
        "silverleaf",
        "wolfsbane",
        "mandrake root",
        "feverfew",
        "fly agaric",
        "inkcap",
        "puffball",
        "shrieker cap",
    ] {
        for _ in 0..3 {
            keys.extend(typed(&format!("give {herb}")));
        }
    }
    keys.extend(typed("summon alchemy workbench"));
    keys.push(Input::key(Key::Esc));
    press(&mut app, keys);
    let start = app.ctx().game().turn();

    // Quaff: a lettered list of the potions.
    let f = press(&mut app, vec![Input::ch('q')]);
    let list = f.last().unwrap();
    assert!(
        list.contains_text("Quaff which potion?"),
        "{}",
        list.to_text()
    );
    let p = letter_of(list, "of healing");
    let f = press(&mut app, vec![Input::ch(p)]);
    assert!(app.ctx().game().turn() > start, "the quaff took a turn");
    let after_quaff = app.ctx().game().turn();
    assert!(!f.last().unwrap().contains_text("Quaff which potion?"));

    // Wield: the short sword, by its pack letter.
    let f = press(&mut app, vec![Input::ch('w')]);
    let list = f.last().unwrap();
    assert!(
        list.contains_text("Wield or wear what?"),
        "{}",
        list.to_text()
    );
    let sword = letter_of(list, "short sword");
    press(&mut app, vec![Input::ch(sword)]);
    assert!(
        app.ctx().game().turn() > after_quaff,
        "wielding took a turn"
    );
    let f = press(&mut app, vec![Input::ch('w')]);
    assert!(
        f.last().unwrap().contains_text("short sword (wielded)"),
        "{}",
        f.last().unwrap().to_text()
    );
    press(&mut app, vec![Input::key(Key::Esc)]);

    // Throw: an item, then the targeting cursor, with the path from the hero drawn.
    let f = press(&mut app, vec![Input::ch('t')]);
    let list = f.last().unwrap();
    assert!(list.contains_text("Throw what?"), "{}", list.to_text());
    let herb = letter_of(list, "puffball");
    let before_throw = app.ctx().game().turn();
    let f = press(&mut app, vec![Input::ch(herb)]);
    assert!(
        f.last().unwrap().contains_text("where?"),
        "{}",
        f.last().unwrap().to_text()
    );
    // From wherever the cursor starts (the nearest mark), three cells south.
    let f = press(
        &mut app,
        vec![Input::ch('j'), Input::ch('j'), Input::ch('j')],
    );
    let aimed = f.last().unwrap();
    let path_bg = play::TARGET_PATH_BG;
    let painted = (0..W)
        .flat_map(|x| (0..H).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            aimed
                .get(i32::from(x), i32::from(y))
                .is_some_and(|c| c.bg == path_bg)
        })
        .count();
    assert!(painted > 0, "no path drawn:\n{}", aimed.to_text());
    press(&mut app, vec![Input::key(Key::Enter)]);
    assert!(
        app.ctx().game().turn() > before_throw,
        "the throw took a turn"
    );

    // Craft: the known recipes; one whose ingredients are all carried ("[OK]").
    let before_craft = app.ctx().game().turn();
    let f = press(&mut app, vec![Input::ch('c')]);
    let list = f.last().unwrap();
    assert!(
        list.contains_text("Craft which potion?"),
        "{}",
        list.to_text()
    );
    let ok = letter_of(list, "[OK]");
    let f = press(&mut app, vec![Input::ch(ok)]);
    assert!(
        app.ctx().game().turn() > before_craft,
        "crafting took a turn: {}",
        f.last().unwrap().to_text()
    );
    assert_eq!(app.ctx().rules().status(app.ctx().game()), Status::Playing);

    // Look is a query: a place, its description, and no turn.
    let before_look = app.ctx().game().turn();
    press(&mut app, vec![Input::ch('x'), Input::key(Key::Enter)]);
    assert_eq!(app.ctx().game().turn(), before_look, "looking took no turn");

    // Save; the recording holds the commands the replies made, and replays to the same hash.
    let final_hash = app.ctx().game().state_hash();
    press(&mut app, vec![Input::ch('S')]);
    let rec = record::read::<Step<Command>>(&d.join("alchemy.replay"), "alchemy").unwrap();
    let made: Vec<&Step<Command>> = rec.commands().map(|(_, c)| c).collect();
    for want in ["Quaff", "Wield", "Throw", "Craft"] {
        assert!(
            made.iter().any(|c| format!("{c:?}").contains(want)),
            "no {want} in {made:?}"
        );
    }
    let verified = rec
        .verify(
            rules
                .new_game_in_modes(
                    rec.header.seed,
                    &alembic_session::Modes::parse(&rec.header.modes).unwrap(),
                )
                .unwrap(),
            |g: &Game, c| apply_step_quietly(&*rules, g, c),
            Game::state_hash,
            Game::turn,
        )
        .unwrap();
    assert_eq!(verified.final_hash, final_hash);
}

#[test]
fn alchemy_on_the_session_explores_refuses_a_needless_rest_and_fights() {
    let d = dir("journeys");
    let (rules, mut app) = wizard_game(&d);
    let journeys = rules.journeys().unwrap();

    // The game opens with Alchemy's own first line.
    let f = press(&mut app, vec![]);
    assert!(
        f[0].contains_text("You enter the dungeon."),
        "{}",
        f[0].to_text()
    );

    // `G`: the cursor on the hero, Tab to the first place remembered, Enter travels there.
    let f = press(
        &mut app,
        vec![Input::ch('G'), Input::key(Key::Tab), Input::key(Key::Enter)],
    );
    assert!(
        f.iter().any(|f| f.contains_text("Travel to where?")),
        "{}",
        f[1].to_text()
    );
    let travelled = app.ctx().game().turn();
    assert!(
        travelled > 0,
        "G travelled: {}",
        f.last().unwrap().to_text()
    );

    // `Z` at full health says why not, and no time passes.
    let f = press(&mut app, vec![Input::ch('Z')]);
    assert!(
        f.last().unwrap().contains_text("You are not hurt"),
        "{}",
        f.last().unwrap().to_text()
    );
    assert_eq!(app.ctx().game().turn(), travelled);

    // `o` explores until something stops it, and says what.
    press(&mut app, vec![Input::ch('o')]);
    let walked = app.ctx().game().turn();
    assert!(walked > travelled, "explore walked");

    // `Tab` with nothing to fight takes no turn; with a goblin beside the hero, one press
    // fights it until it is gone.
    let none = journeys.foes(app.ctx().game()).is_empty();
    let f = press(&mut app, vec![Input::key(Key::Tab)]);
    if none {
        assert!(
            f.last()
                .unwrap()
                .contains_text("nothing in view you can fight"),
            "{}",
            f.last().unwrap().to_text()
        );
        assert_eq!(app.ctx().game().turn(), walked);
    } else {
        assert!(
            app.ctx().game().turn() > walked,
            "Tab fought what explore met"
        );
    }
    let mut keys = vec![Input::ch('~')];
    keys.extend(typed("summon goblin"));
    keys.extend(typed("wound 1"));
    keys.push(Input::key(Key::Esc));
    press(&mut app, keys);
    let foes = journeys.foes(app.ctx().game());
    assert_eq!(foes.len(), 1, "{foes:?}");
    let before = app.ctx().game().turn();
    press(&mut app, vec![Input::key(Key::Tab)]);
    assert!(app.ctx().game().turn() > before, "the fight took turns");
    assert!(
        journeys
            .foes(app.ctx().game())
            .iter()
            .all(|f| f.id != foes[0].id),
        "the goblin is gone"
    );
}

#[test]
fn autopickup_is_a_view_switch_that_explore_obeys() {
    let d = dir("autopickup");
    let (rules, mut app) = wizard_game(&d);
    let carried = |app: &ScreenStack<Session<Alchemy>>| {
        alembic_alchemy::view::inventory_entries(app.ctx().game())
            .unwrap()
            .iter()
            .any(|e| e.name.contains("short sword"))
    };
    let mut keys = vec![Input::ch('~')];
    keys.extend(typed("summon short sword"));
    keys.push(Input::key(Key::Esc));
    press(&mut app, keys);
    // Off (as at first): explore's route is the plain one, and it picks nothing up.
    let journeys = rules.journeys().unwrap();
    let (g, off) = (app.ctx().game().clone(), View::default());
    assert_eq!(
        journeys.route_in(&g, Goal::Explore, &off),
        journeys.route(&g, Goal::Explore)
    );
    assert_eq!(journeys.explore_here(&g, &off), None);
    // F2 switches tiles (the board draws them), and says so.
    let f = press(&mut app, vec![Input::key(Key::F(2))]);
    assert!(
        f.last().unwrap().contains_text("Tiles (on"),
        "{}",
        f.last().unwrap().to_text()
    );
    // `A` says so; then explore goes to the sword it sees and picks it up.
    let f = press(&mut app, vec![Input::ch('A')]);
    assert!(
        f.last().unwrap().contains_text("Autopickup (on)."),
        "{}",
        f.last().unwrap().to_text()
    );
    for _ in 0..5 {
        press(&mut app, vec![Input::ch('o')]);
        if carried(&app) {
            break;
        }
    }
    assert!(carried(&app), "explore did not pick up the sword it saw");
}

/// Opening a door on the way is no reason to stop a journey; a threat in view is a reason
/// not to start one.
#[test]
fn a_door_on_the_way_does_not_stop_explore_and_a_threat_stops_it_starting() {
    use alembic_alchemy::view::{DoorState, door_at, hero_id};
    let rules = Alchemy::new().unwrap();
    let journeys = rules.journeys().unwrap();
    let mut g = rules.new_game(5).unwrap();
    let at = |g: &Game| g.things().location(hero_id(g).unwrap()).unwrap();
    let mut opened = false;
    let mut plain = false;
    for _ in 0..400 {
        let Some(d) = journeys.route(&g, Goal::Explore) else {
            break;
        };
        let door = door_at(&g, at(&g) + d) == Some(DoorState::Closed);
        let Ok(next) = rules.apply(&g, &Command::Move(d)) else {
            break;
        };
        let quiet = journeys.says_nothing_new(&g, &next.game);
        if door {
            assert!(
                quiet,
                "opening the door at {:?} stopped explore",
                at(&g) + d
            );
            opened = true;
        } else if at(&next.game) != at(&g) {
            assert!(!quiet, "a step that moved was taken for a door");
            plain = true;
        }
        g = next.game;
        if opened && plain {
            break;
        }
    }
    assert!(opened && plain, "seed 5's explore opened no door");
    // A game with a goblin that has seen the hero: no journey starts.
    let g = alembic_session::run::apply_step_quietly(
        &rules,
        &rules
            .new_game_in_modes(
                5,
                &alembic_session::Modes::new(false, true, Default::default()),
            )
            .unwrap(),
        &Step::Wizard {
            wizard: "summon goblin".into(),
        },
    )
    .unwrap();
    let g = rules.apply(&g, &Command::Wait).unwrap().game;
    let refused = journeys.may_go(&g).unwrap_err().to_string();
    assert!(refused.starts_with("Not with a"), "{refused}");
}

/// A death pauses on the map (`--More--`) before the end screen, as Alchemy's own screen
/// did; the next key goes on.
#[test]
fn a_death_pauses_on_the_map_before_the_end_screen() {
    let d = dir("death");
    let (_, mut app) = wizard_game(&d);
    let mut keys = vec![Input::ch('~')];
    for _ in 0..4 {
        keys.extend(typed("summon giant bear"));
    }
    keys.push(Input::key(Key::Esc));
    press(&mut app, keys);
    let mut waited = 0;
    while app.ctx().rules().status(app.ctx().game()) == Status::Playing && waited < 200 {
        press(&mut app, vec![Input::ch('.')]);
        waited += 1;
    }
    assert_ne!(
        app.ctx().rules().status(app.ctx().game()),
        Status::Playing,
        "four giant bears did not kill the hero in {waited} turns"
    );
    let f = press(&mut app, vec![]);
    let paused = f.last().unwrap();
    assert!(paused.contains_text("--More--"), "{}", paused.to_text());
    let f = press(&mut app, vec![Input::ch(' ')]);
    let end = f.last().unwrap();
    assert!(!end.contains_text("--More--"), "{}", end.to_text());
    assert!(
        end.contains_text("You were killed by a giant bear"),
        "{}",
        end.to_text()
    );
}
