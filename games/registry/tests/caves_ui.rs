//! Headless UI tests of the Caves through the engine's `TestFrontend`: the screens a player
//! sees, driven by scripted key presses. The Caves play in the session every ruleset gets
//! (`alembic_session::play`): nothing here is written for the Caves alone.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::Arc;

use alembic::{Dir, Game, Loc};
use alembic_games::caves::{self, Caves, HP, arena};
use alembic_games::play::{self, Session};
use alembic_games::{LaunchOptions, launch};
use alembic_ui::{App, Frame, Input, Key, ScreenStack, TestFrontend, run};

type CavesUi = Session<Caves>;

/// A Caves session from `seed`, saving nowhere.
fn session(seed: u64) -> CavesUi {
    Session::new(Arc::new(Caves::new().unwrap()), seed)
}

/// A Caves session from `seed` saving to `save`.
fn saving(seed: u64, save: PathBuf) -> CavesUi {
    session(seed).with_save(save)
}

/// A Caves session over `game`, made elsewhere (an arena).
fn with_game(seed: u64, game: Game) -> CavesUi {
    session(seed).with_game(game)
}

fn app(seed: u64) -> ScreenStack<CavesUi> {
    play::app(session(seed))
}

fn app_with(s: CavesUi) -> ScreenStack<CavesUi> {
    play::app(s)
}

/// The session's load, unwrapped.
fn load(save: &std::path::Path) -> Result<CavesUi, alembic_games::Cause> {
    Session::load(Arc::new(Caves::new().unwrap()), save)
}

fn vi_key(d: Dir) -> Input {
    Input::ch(match d {
        Dir::West => 'h',
        Dir::South => 'j',
        Dir::North => 'k',
        Dir::East => 'l',
        Dir::NorthWest => 'y',
        Dir::NorthEast => 'u',
        Dir::SouthWest => 'b',
        _ => 'n',
    })
}

fn player_at(g: &Game) -> Loc {
    g.things().location(caves::player(g).unwrap()).unwrap()
}

/// A direction from the player's start into diggable rock with nothing in it.
fn rock_beside_start(g: &Game) -> Dir {
    let at = player_at(g);
    Dir::COMPASS
        .into_iter()
        .find(|&d| {
            let l = at + d;
            caves::is_inner(l, caves::DEFAULT_LEVELS)
                && g.tile_def(l).unwrap().name() == caves::WALL
                && caves::creature_at(g, l).is_none()
        })
        .expect("the start has rock beside it")
}

fn frames_with<'a>(fe: &'a TestFrontend, text: &str) -> Vec<&'a Frame> {
    fe.frames()
        .iter()
        .filter(|f| f.contains_text(text))
        .collect()
}

#[test]
fn start_dig_walk_toggle_regions_help_and_quit() {
    let seed = 1;
    let start = session(seed).game().clone();
    let from = player_at(&start);
    let d = rock_beside_start(&start);
    let script = vec![
        Input::key(Key::Enter), // title → play
        vi_key(d),              // dig
        vi_key(d),              // walk into the dug cell
        Input::ch('R'),         // overlay on
        Input::ch('R'),         // overlay off
        Input::ch('?'),
        Input::key(Key::Esc),
        Input::ch('Q'),
        Input::ch('n'),
        Input::ch('Q'),
        Input::ch('y'),
        Input::ch('q'), // the summary, then leave
    ];
    let mut fe = TestFrontend::new(100, 35, script);
    let mut a = app(seed);
    run(&mut fe, &mut a).unwrap();
    let f = fe.frames();
    assert!(f[0].contains_text("T H E   C A V E S"));
    assert!(f[0].contains_text("seed 1"));
    assert!(f[1].contains_text("@"));
    assert!(f[1].contains_text("Caves  Level 1/5  HP 40/40  Turn 0  Kills 0"));
    assert!(f[2].contains_text("Turn 1"), "digging takes a turn");
    assert!(f[3].contains_text("Turn 2"));
    let ui = a.ctx();
    let g = ui.game();
    assert_eq!(player_at(g), from + d);
    assert_eq!(g.tile_def(from + d).unwrap().name(), caves::FLOOR);
    // The overlay: region numbers in the map and the count in the status line.
    let regions = caves::walkable_regions(g, 0).unwrap().len();
    assert!(
        f[4].contains_text(&format!("Regions {regions}")),
        "{}",
        f[4].to_text()
    );
    assert!(f[4].contains_text("0"));
    assert!(!f[5].contains_text("Regions"));
    assert!(f[6].contains_text("walking into rock digs it"));
    assert!(f[8].contains_text("Quit this game?"));
    assert!(!f[9].contains_text("Quit this game?"));
    assert!(f[10].contains_text("Quit this game?"));
}

#[test]
fn the_overlay_recounts_after_digging() {
    let g = arena(1, &[&["#######", "#..#..#", "#.@#..#", "#######"]]).unwrap();
    let script = vec![
        Input::key(Key::Enter),
        Input::ch('R'),
        Input::ch('l'), // dig the wall between the two rooms
        Input::ch('Q'),
        Input::ch('y'),
        Input::ch('q'), // the summary, then leave
    ];
    let mut fe = TestFrontend::new(80, 24, script);
    let mut a = app_with(with_game(1, g));
    run(&mut fe, &mut a).unwrap();
    let f = fe.frames();
    assert!(f[2].contains_text("Regions 2"), "{}", f[2].to_text());
    assert!(f[2].contains_text("1"), "the second room is numbered 1");
    assert!(f[3].contains_text("Regions 1"), "{}", f[3].to_text());
}

#[test]
fn winning_shows_the_win_screen_and_plays_again() {
    let g = arena(40, &[&["#####", "#@X.#", "#####"]]).unwrap();
    let script = vec![
        Input::key(Key::Enter),
        Input::ch('l'),
        Input::ch('r'),
        Input::ch('Q'),
        Input::ch('y'),
        Input::ch('q'), // the summary, then leave
    ];
    let mut fe = TestFrontend::new(80, 24, script);
    let mut a = app_with(with_game(40, g));
    run(&mut fe, &mut a).unwrap();
    let won = frames_with(&fe, "You won!");
    assert_eq!(won.len(), 1);
    assert!(won[0].contains_text("You escaped from the caves."));
    let f = fe.frames();
    assert!(
        f[3].contains_text("Level 1/5  HP 40/40  Turn 0"),
        "a new cave"
    );
    assert_eq!(a.ctx().seed(), 41);
}

#[test]
fn dying_shows_the_lose_screen_and_quits() {
    let mut g = arena(2, &[&["#####", "#@Z.#", "#####"]]).unwrap();
    let p = caves::player(&g).unwrap();
    g.set_mut(p, &HP, 1).unwrap();
    let script = vec![
        Input::key(Key::Enter),
        Input::ch('.'),
        Input::ch('x'),
        Input::ch('q'),
    ];
    let mut fe = TestFrontend::new(80, 24, script);
    let mut a = app_with(with_game(2, g));
    run(&mut fe, &mut a).unwrap();
    let last = fe.last_frame().unwrap();
    assert!(last.contains_text("You died"));
    assert!(last.contains_text("You were killed by a zombie on depth 1."));
    assert_eq!(fe.remaining_inputs(), 0);
}

#[test]
fn odd_sizes_and_stray_keys_never_panic() {
    let mut script = vec![Input::key(Key::Enter)];
    for (w, h) in [(1, 1), (0, 0), (10, 3), (200, 80), (80, 24)] {
        script.push(Input::Resize {
            width: w,
            height: h,
        });
        for c in ['h', 'j', 'R', 'x', '>', '<', '5', 'm'] {
            script.push(Input::ch(c));
        }
        script.push(Input::key(Key::Esc));
        script.push(Input::key(Key::F(3)));
    }
    script.extend([Input::ch('Q'), Input::ch('y'), Input::ch('q')]);
    let mut fe = TestFrontend::new(80, 24, script);
    run(&mut fe, &mut app(3)).unwrap();
    assert!(fe.frames().len() > 40);
}

#[test]
fn launch_knows_the_caves() {
    let opts = LaunchOptions {
        game: "caves".to_string(),
        seed: Some(9),
        load: None,
        tiles: None,
        practice: false,
        replay: None,
        wizard: false,
        data: Default::default(),
    };
    let mut app = launch(&opts).unwrap();
    let mut f = Frame::new(80, 24);
    app.render(&mut f);
    assert!(f.contains_text("T H E   C A V E S"));
    assert!(f.contains_text("seed 9"), "{}", f.to_text());
    let err = launch(&LaunchOptions {
        load: Some("/nonexistent".into()),
        ..opts
    })
    .err()
    .unwrap();
    assert!(err.to_string().contains("/nonexistent"), "{err}");
}

/// Caves saves and continues like Alchemy, and records every game beside its save.
#[test]
fn caves_saves_continues_and_records() {
    use alembic_ui::App as _;
    let dir = std::env::temp_dir().join(format!("alembic-caves-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The data directory does not exist yet, as on a fresh machine: the recording that
    // starts with play must make it.
    let save = dir.join("fresh").join(caves::save::SAVE_FILE);
    let mut app = app_with(saving(6, save.clone()));
    let mut keys = vec![Input::ch(' ')];
    keys.extend("llllljjjjjhhh....".chars().map(Input::ch));
    keys.push(Input::ch('S'));
    run(&mut TestFrontend::new(100, 30, keys), &mut app).unwrap();
    let played = app.ctx().game().clone();
    assert!(played.turn() > 5);
    assert!(save.is_file(), "S saved");
    assert!(app.farewell().unwrap().unwrap().contains("saved to"));
    // Continue: the same game, and the recording goes on.
    let back = load(&save).unwrap();
    assert_eq!(back.game().state_hash(), played.state_hash());
    assert!(
        back.recording().is_some(),
        "the recording is the save's own"
    );
    // The recording replays to the saved game.
    let rec = alembic_games::record::read::<play::Step<caves::Command>>(
        &alembic_games::record::beside(&save),
        caves::save::GAME_NAME,
    )
    .unwrap();
    let start = caves::new_game(rec.header.seed).unwrap();
    let done = rec
        .verify(
            start,
            |g, c| match c {
                play::Step::Play(c) => caves::act(g, *c),
                play::Step::Wizard { .. } => panic!("no wizard here"),
            },
            alembic::Game::state_hash,
            alembic::Game::turn,
        )
        .unwrap();
    assert_eq!(done.final_hash, played.state_hash());
    // The replay viewer: End shows the last turn, Left steps back one, q quits.
    let rules = Arc::new(Caves::new().unwrap());
    let mut viewer =
        play::replay_app(rules.clone(), &alembic_games::record::beside(&save)).unwrap();
    let keys = vec![
        Input::key(alembic_ui::Key::End),
        Input::key(alembic_ui::Key::Left),
        Input::ch('q'),
    ];
    let mut fe = TestFrontend::new(100, 30, keys);
    run(&mut fe, &mut viewer).unwrap();
    let last = played.turn();
    let bars: Vec<String> = fe.frames().iter().map(|f| f.row_text(0)).collect();
    assert!(
        bars[0].contains(&format!("REPLAY  turn 0/{last}")),
        "{}",
        bars[0]
    );
    assert!(
        bars.iter()
            .any(|b| b.contains(&format!("turn {last}/{last}")))
    );
    assert!(
        bars.iter()
            .any(|b| b.contains(&format!("turn {}/{last}", last - 1)))
    );
    assert_eq!(
        viewer.ctx().game().turn(),
        last - 1,
        "the view follows the steps"
    );
    assert!(
        viewer.farewell().unwrap().is_none(),
        "a replay saves nothing"
    );
    // A recording whose checkpoint disagrees is refused, naming the turn.
    let rec_path = alembic_games::record::beside(&save);
    let text = std::fs::read_to_string(&rec_path).unwrap();
    let bad: String = text
        .lines()
        .map(|l| match l.find("\"hash\":\"") {
            Some(i) if l.starts_with("{\"turn\"") => {
                format!("{}\"hash\":\"0123456789abcdef\"}}\n", &l[..i])
            }
            _ => format!("{l}\n"),
        })
        .collect();
    assert_ne!(bad, text, "a checkpoint was changed");
    std::fs::write(dir.join("bad.replay"), &bad).unwrap();
    // Every checkpoint changed, the first one too: refused when opened (the viewer checks
    // the checkpoints before the first command; later ones stop it where they are reached).
    let err = play::replay_app(rules, &dir.join("bad.replay"))
        .err()
        .unwrap();
    assert!(err.to_string().contains("diverges at turn"), "{err}");
    // A damaged save is refused, never half-loaded.
    let mut text = std::fs::read_to_string(&save).unwrap();
    text = text.replacen("\"turn\":", "\"turn\":1", 1);
    std::fs::write(&save, text).unwrap();
    assert!(load(&save).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Caves' slot (session/src/slot.rs, shared with Alchemy): a new game with nothing
/// saved saves itself at once and every 100 commands (the first brought forward by its
/// seed), with its recording on disk; a new
/// game where that save waits writes nothing of it until saved, and quitting it leaves the
/// saved game and its recording byte for byte as they were.
#[test]
fn the_caves_autosave_and_keep_a_waiting_save_untouched() {
    use alembic_ui::App;
    let dir = std::env::temp_dir().join(format!("alembic-caves-slot-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("caves.save");
    let rec = dir.join("caves.replay");
    let turn_saved = || caves::save::load(&save).unwrap().turn();
    let press = |s: &mut ScreenStack<CavesUi>, i: Input| {
        s.handle(i);
    };
    // Nothing saved: saved at once, then first at the 97th command (100 less the seed's
    // stagger, 3: games started together do not all save on one move), not before.
    let mut s = app_with(saving(3, save.clone()));
    press(&mut s, Input::key(Key::Enter));
    assert_eq!(turn_saved(), 0, "saved at its start");
    let mut played = 0;
    while s.ctx().game().turn() < 96 {
        press(&mut s, Input::ch('.'));
        played += 1;
        assert!(played < 200, "waiting plays");
    }
    assert_eq!(turn_saved(), 0, "no autosave before 97 commands");
    press(&mut s, Input::ch('.'));
    assert_eq!(turn_saved(), 97, "the autosave");
    assert!(std::fs::read_to_string(&rec).unwrap().lines().count() > 100);
    // Saved by the player, then a new game where that save waits.
    press(&mut s, Input::ch('S'));
    drop(s);
    let before = (std::fs::read(&save).unwrap(), std::fs::read(&rec).unwrap());
    let mut s = app_with(saving(4, save.clone()));
    press(&mut s, Input::ch('n'));
    assert!(
        s.ctx().game().turn() == 0 && s.names().len() == 2,
        "asked first: {:?}",
        s.names()
    );
    press(&mut s, Input::ch('y'));
    for _ in 0..150 {
        press(&mut s, Input::ch('.'));
    }
    assert!(
        s.ctx().game().turn() > 100,
        "played past an autosave's count"
    );
    assert!(
        s.emergency_save().is_none(),
        "no last-resort save over another game's"
    );
    press(&mut s, Input::ch('Q'));
    press(&mut s, Input::ch('y'));
    drop(s);
    assert_eq!(
        (std::fs::read(&save).unwrap(), std::fs::read(&rec).unwrap()),
        before,
        "the waiting save and its recording are untouched"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
/// Quitting ends a Caves game as it ends an Alchemy one: the save goes, the recording is
/// kept, a morgue is written and the game is scored once, for what it achieved.
#[test]
fn caves_quit_is_final_and_scored_once() {
    use alembic_games::caves::morgue::SCORES_FILE;
    use alembic_games::scores::read_table;
    let dir = std::env::temp_dir().join(format!("alembic-caves-quit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join(caves::save::SAVE_FILE);
    // Play a little and save.
    let mut a = app_with(saving(6, save.clone()));
    let keys: Vec<Input> = [' ', '.', '.', 'S'].into_iter().map(Input::ch).collect();
    run(&mut TestFrontend::new(100, 30, keys), &mut a).unwrap();
    assert!(save.is_file());
    // Continue it, then quit: the title offers to continue it.
    let mut a = app_with(saving(7, save.clone()));
    let keys: Vec<Input> = ['c', 'Q', 'y', 'q'].into_iter().map(Input::ch).collect();
    let mut fe = TestFrontend::new(100, 30, keys);
    run(&mut fe, &mut a).unwrap();
    // Quitting ends on the summary, as dying does.
    let summary = fe.last_frame().unwrap().to_text();
    assert!(summary.contains("G A M E   O V E R"), "{summary}");
    assert!(summary.contains("You quit."), "{summary}");
    assert!(summary.contains("Enter: the start screen"), "{summary}");
    let title = fe.frames()[0].to_text();
    assert!(title.contains("Continue the saved game"), "{title}");
    assert!(!save.exists(), "a quit game cannot be continued");
    let records = std::fs::read_dir(dir.join("records")).unwrap().count();
    assert_eq!(records, 1, "the recording is kept");
    let morgues = std::fs::read_dir(dir.join("morgue")).unwrap().count();
    assert_eq!(morgues, 1, "a morgue is written");
    let scores = read_table(&dir, SCORES_FILE).unwrap();
    assert_eq!(scores.len(), 1);
    assert_eq!(scores[0].cause, "quit");
    assert_eq!(scores[0].turns, 2);
    assert_eq!(scores[0].score, 0, "nothing achieved, nothing scored");
    // With no save, there is nothing to continue; closing the window saves nothing.
    let mut a = app_with(saving(7, save.clone()));
    let mut fe = TestFrontend::new(100, 30, vec![Input::key(Key::Esc)]);
    run(&mut fe, &mut a).unwrap();
    assert!(fe.frames()[0].contains_text("Continue (no saved game)"));
    assert!(!save.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rest (`Z`) in the Caves: one key rests to full, turn by turn, and says so; at full health
/// it spends no turn; search (`s`) takes five turns and says it found nothing.
#[test]
fn caves_rest_heals_to_full_with_one_key() {
    let mut g = arena(1, &[&["#######", "#.....#", "#..@..#", "#######"]]).unwrap();
    let me = caves::player(&g).unwrap();
    g.set_mut(me, &HP, 30).unwrap();
    let t0 = g.turn();
    let mut a = app_with(with_game(1, g));
    let keys = vec![Input::ch(' '), Input::ch('Z'), Input::ch('?')];
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut a);
    let s = caves::status(a.ctx().game()).unwrap();
    assert_eq!(s.hp, s.max_hp, "rested to full");
    assert!(s.turn >= t0 + 90, "ten turns a hit point: {}", s.turn);
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("You feel rested.")),
        "says why it stopped: {}",
        fe.frames().last().unwrap().to_text()
    );
    // Full: no turn. Search: five.
    let g = a.ctx().game().clone();
    let mut a = app_with(with_game(1, g.clone()));
    let keys = vec![
        Input::ch(' '),
        Input::ch('Z'),
        Input::ch('s'),
        Input::ch('?'),
    ];
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut a);
    assert_eq!(a.ctx().game().turn(), g.turn() + 5);
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("You are not hurt"))
    );
    assert!(
        fe.frames()
            .iter()
            .any(|f| f.contains_text("find nothing hidden"))
    );
}

/// A key, then the ticks of whatever journey it began (as the play screen shows them).
fn press(a: &mut ScreenStack<CavesUi>, input: Input) {
    let _ = a.handle_input(input);
    let mut ticks = 0;
    while a.tick_interval().is_some() && ticks < 5_000 {
        let _ = a.tick();
        ticks += 1;
    }
}

fn screen(a: &mut ScreenStack<CavesUi>) -> String {
    let mut f = Frame::new(100, 35);
    a.render(&mut f);
    f.to_text()
}

/// Issue 54: a lichen (which never walks) coming into view does not stop explore; when
/// explore has nothing left, the game says where the stairs are, and `>` digs the way to
/// them through the rock, in one press.
#[test]
fn lichens_do_not_stop_explore_and_the_stairs_behind_rock_are_sensed() {
    let g = arena(
        3,
        &[
            &[
                "##################",
                "#@.###############",
                "##.###############",
                "##..........####>#",
                "###########.######",
                "###########F######",
                "##################",
            ],
            // The stairs lead down to the same place on the level below.
            &[
                "##################",
                "#################.",
                "##############...#",
                "##############..<#",
                "##################",
            ],
        ],
    )
    .unwrap();
    let mut a = app_with(with_game(3, g));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::ch('o'));
    let text = screen(&mut a);
    assert!(!text.contains("comes into view"), "{text}");
    assert!(text.contains("Done exploring."), "{text}");
    assert!(
        text.contains("You sense the stairs down 5 paces to the east, behind rock: > digs there."),
        "{text}"
    );
    // Explore walked the corridor to the lichen's nook, past the lichen's coming into view.
    let g = a.ctx().game().clone();
    assert_eq!(player_at(&g), Loc::new(11, 4, 0), "{text}");
    // `>` here is refused (no stairs), so the session travels to them: through the rock.
    press(&mut a, Input::ch('>'));
    let g = a.ctx().game().clone();
    assert_eq!(player_at(&g), Loc::new(16, 3, 0), "{}", screen(&mut a));
    press(&mut a, Input::ch('>'));
    assert!(screen(&mut a).contains("Level 2/2"), "{}", screen(&mut a));
}

/// Issue 54: whenever explore has nothing left, `>` has a way down to dig (or takes the
/// stairs). A creature on the stairs, or four round the hero, used to wall the dig off, and
/// `>` answered "There are no stairs down here." (seeds 3, 10 and 11 among these).
#[test]
fn when_explore_is_done_the_way_down_can_always_be_dug_to() {
    use alembic_session::{Goal, Ruleset, Status, ruleset::Policy};
    let rules = Caves::new().unwrap();
    let journeys = rules.journeys().unwrap();
    let mut checked = 0;
    for seed in 1..=12u64 {
        let mut g = rules.new_game(seed).unwrap();
        let mut bot = rules.bot(seed, Policy::Explore).unwrap();
        for _ in 0..1_500 {
            if rules.status(&g) != Status::Playing {
                break;
            }
            if journeys.route(&g, Goal::Explore).is_none() {
                checked += 1;
                let down = journeys.route(&g, Goal::Stairs { down: true }).is_some()
                    || rules.apply(&g, &caves::Command::Descend).is_ok();
                assert!(down, "seed {seed}, turn {}: no way down", g.turn());
            }
            let Some(c) = bot.choose(&g) else { break };
            match rules.apply(&g, &c) {
                Ok(o) => g = o.game,
                Err(_) => bot.refused(),
            }
        }
    }
    assert!(checked > 50, "explore ran out only {checked} times");
}

/// Issue 54: auto-fight (`Tab`) in the session's journey: one press walks to the nearest
/// monster and fights it until it dies or the hero is badly hurt; with nothing to fight it
/// says so and takes no turn.
#[test]
fn one_tab_settles_a_fight_in_the_caves() {
    let art: &[&[&str]] = &[&[
        "############",
        "#@.........#",
        "#..........#",
        "#.....Z....#",
        "#..........#",
        "############",
    ]];
    let mut a = app_with(with_game(3, arena(3, art).unwrap()));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::key(Key::Tab));
    let text = screen(&mut a);
    let g = a.ctx().game().clone();
    let s = caves::status(&g).unwrap();
    let won = s.kills == 1;
    let hurt = text.contains("You stop fighting: you are badly hurt.");
    assert!(won || hurt, "{text}");
    // It walked there and traded blows: many turns for one press.
    assert!(g.turn() >= 4, "turn {}: {text}", g.turn());
    if won {
        // Nothing left: Tab says so and takes no turn.
        let turn = g.turn();
        press(&mut a, Input::key(Key::Tab));
        let text = screen(&mut a);
        assert!(
            text.contains("There is nothing in view you can fight."),
            "{text}"
        );
        assert_eq!(a.ctx().game().turn(), turn);
    }
    // The help lists the key.
    press(&mut a, Input::ch('?'));
    assert!(screen(&mut a).contains("Tab"), "{}", screen(&mut a));
}

/// Issue 54: auto-fight's stop is configurable (`Session::with_fight_until`): at 100% the
/// first wound stops it, with the reason; the same fight at 0% goes on to the kill.
#[test]
fn auto_fight_stops_when_the_hero_is_hurt_past_the_threshold() {
    let art: &[&[&str]] = &[&["#######", "#@..Z.#", "#######"]];
    let mut a = app_with(with_game(3, arena(3, art).unwrap()).with_fight_until(100));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::key(Key::Tab));
    let text = screen(&mut a);
    let s = caves::status(a.ctx().game()).unwrap();
    assert!(
        text.contains("You stop fighting: you are badly hurt."),
        "{text}"
    );
    assert!(s.hp < s.max_hp && s.kills == 0, "{text}");

    let mut a = app_with(with_game(3, arena(3, art).unwrap()).with_fight_until(0));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::key(Key::Tab));
    let text = screen(&mut a);
    assert_eq!(caves::status(a.ctx().game()).unwrap().kills, 1, "{text}");
    assert!(!text.contains("You stop fighting"), "{text}");
}

/// Issue 54: a foe that comes while auto-fight is under way stops it, named.
#[test]
fn auto_fight_stops_when_another_foe_comes() {
    let art: &[&[&str]] = &[&[
        "###############",
        "#@.......Z....#",
        "####.##########",
        "####.##########",
        "####Z##########",
        "###############",
    ]];
    let mut a = app_with(with_game(3, arena(3, art).unwrap()));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::key(Key::Tab));
    let text = screen(&mut a);
    assert!(
        text.contains("You stop fighting: a zombie comes."),
        "{text}"
    );
}

/// Issue 54: explore (`o`) goes for a gem it has seen, past the unexplored, and picks it up.
#[test]
fn explore_picks_up_the_gems_it_sees() {
    let art: &[&[&str]] = &[&[
        "#########",
        "#@.....*#",
        "#.#######",
        "#.#######",
        "#########",
    ]];
    let mut a = app_with(with_game(3, arena(3, art).unwrap()));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::ch('o'));
    let text = screen(&mut a);
    assert!(text.contains("You pick up a glittering gem."), "{text}");
    assert!(text.contains("Gems 1"), "{text}");
    assert_eq!(player_at(a.ctx().game()), Loc::new(7, 1, 0), "{text}");
}

/// Issue 54: `>` digs on to the stairs it senses in one press, through a cave it breaks
/// into on the way (it used to stop there, silently, and `>` then said "There are no stairs
/// down here." until that cave was explored).
#[test]
fn the_dig_to_the_stairs_goes_on_through_a_cave_it_breaks_into() {
    let art: &[&[&str]] = &[
        &[
            "####################",
            "#@..#####...######>#",
            "#...#####...########",
            "####################",
        ],
        &[
            "####################",
            "##################<#",
            "####################",
        ],
    ];
    let mut a = app_with(with_game(3, arena(3, art).unwrap()));
    press(&mut a, Input::key(Key::Enter));
    press(&mut a, Input::ch('o'));
    assert!(
        screen(&mut a).contains("> digs there."),
        "{}",
        screen(&mut a)
    );
    press(&mut a, Input::ch('>'));
    let text = screen(&mut a);
    assert_eq!(player_at(a.ctx().game()), Loc::new(18, 1, 0), "{text}");
}

/// "Low HP!" once, when a blow takes the hero below a quarter of their health (the
/// session's, for any game that tells its health), and not again while they stay low.
#[test]
fn a_fall_below_a_quarter_warns_once() {
    let mut g = arena(1, &[&["#####", "#@Z.#", "#####"]]).unwrap();
    let me = caves::player(&g).unwrap();
    let most = caves::status(&g).unwrap().max_hp;
    // Just above a quarter: the zombie's next blow takes the hero below it.
    g.set_mut(me, &HP, most / 4 + 1).unwrap();
    let mut a = play::app_playing(with_game(1, g));
    let (mut warned, mut after) = (0, 0);
    for _ in 0..40 {
        press(&mut a, Input::ch('.'));
        let s = caves::status(a.ctx().game()).unwrap();
        warned = a
            .ctx()
            .messages()
            .filter(|m| m.starts_with("Low HP!"))
            .count();
        // A few more turns while low: no second warning.
        if warned > 0 {
            after += 1;
        }
        if s.hp <= 0 || after > 3 {
            break;
        }
    }
    assert_eq!(warned, 1, "{:?}", a.ctx().messages().collect::<Vec<_>>());
    let low: Vec<&str> = a
        .ctx()
        .messages()
        .filter(|m| m.starts_with("Low HP!"))
        .collect();
    assert!(low[0].ends_with(&format!("/{most})")), "{low:?}");
    assert!(play::low_health(1, 5) && !play::low_health(2, 5));
}
