#![allow(clippy::unwrap_used)]
//! The rats get every feature of the session through the contract alone: practice with undo
//! and the rewind on death, saves and continuing, the morgue file and the score table,
//! recordings that replay, and English that is not state.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic::Game;
use alembic_rats::{Command, Event, Rats};
use alembic_session::play::{self, Session, Step, apply_step};
use alembic_session::ruleset::{Policy, Summary};
use alembic_session::{Board, Outcome, Rejected, Ruleset, Status, keymap::Binding};
use alembic_ui::{Frame, Input, Key, Rect, TestFrontend, TestFrontendError, run};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("alembic-rats-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The key of `c`: the vi keys step, `.` waits.
fn key_of(c: Command) -> Input {
    Input::ch(match c {
        Command::Move(alembic::Dir::North) => 'k',
        Command::Move(alembic::Dir::South) => 'j',
        Command::Move(alembic::Dir::West) => 'h',
        Command::Move(alembic::Dir::East) => 'l',
        Command::Move(d) => panic!("the rats walk in four directions, not {d:?}"),
        Command::Wait => '.',
        Command::Leave => '<',
    })
}

/// The bot's commands from `seed` until the game ends.
fn bot_game(seed: u64) -> Vec<Command> {
    let rats = Rats::new().unwrap();
    let mut g = rats.new_game(seed).unwrap();
    let mut bot = rats.bot(seed, Policy::Explore).unwrap();
    let mut out = Vec::new();
    while rats.status(&g) == Status::Playing {
        let c = bot.choose(&g).unwrap();
        if let Ok(o) = rats.apply(&g, &c) {
            g = o.game;
            out.push(c);
        }
    }
    out
}

fn play_keys(
    session: Session<Rats>,
    keys: impl IntoIterator<Item = Input>,
) -> (TestFrontend, Session<Rats>) {
    let mut app = play::app(session);
    let mut fe = TestFrontend::new(100, 30, keys);
    match run(&mut fe, &mut app) {
        Ok(()) | Err(TestFrontendError::ScriptExhausted { .. }) => {}
    }
    (fe, app.into_ctx())
}

fn new_session(d: &Path, seed: u64, practice: bool) -> Session<Rats> {
    Session::new(Arc::new(Rats::new().unwrap()), seed)
        .with_modes(practice, false)
        .with_save(d.join("rats.save"))
}

#[test]
fn practice_takes_moves_back_with_u() {
    let d = dir("undo");
    let wait = key_of(Command::Wait);
    let keys = [Input::ch(' '), wait, wait, wait, wait]
        .into_iter()
        .chain([Input::ch('U'), Input::ch('U')]);
    let (fe, s) = play_keys(new_session(&d, 4, true), keys);
    assert_eq!(s.game().turn(), 2, "four waits, two taken back");
    assert!(
        fe.last_frame()
            .unwrap()
            .contains_text("You take back a move (turn 2).")
    );
    // Not in a normal game: U says so and changes nothing.
    let d2 = dir("no-undo");
    let (fe, s) = play_keys(
        new_session(&d2, 4, false),
        [Input::ch(' '), Input::ch('.'), Input::ch('U')],
    );
    assert_eq!(s.game().turn(), 1);
    assert!(
        fe.last_frame()
            .unwrap()
            .contains_text("Only practice games can take moves back")
    );
}

#[test]
fn dying_in_practice_offers_the_rewind() {
    let moves = bot_game(1);
    let rats = Rats::new().unwrap();
    let d = dir("rewind");
    let keys: Vec<Input> = std::iter::once(Input::ch(' '))
        .chain(moves.iter().map(|&c| key_of(c)))
        .collect();
    let (fe, s) = play_keys(
        new_session(&d, 1, true),
        keys.iter().copied().chain([Input::ch('y')]),
    );
    let asked = fe
        .frames()
        .iter()
        .any(|f| f.contains_text("You died (eaten by rats). This is a practice game"));
    assert!(
        asked,
        "the rewind is offered: {}",
        fe.frames().last().unwrap().to_text()
    );
    assert_eq!(s.game().turn(), moves.len() as u64 - play::REWIND as u64);
    assert_eq!(rats.status(s.game()), Status::Playing, "alive again");
    // Declined: the end screen, a morgue file, and practice games are not scored.
    let d = dir("no-rewind");
    let (fe, _) = play_keys(
        new_session(&d, 1, true),
        keys.into_iter().chain([Input::ch('n')]),
    );
    assert!(fe.last_frame().unwrap().contains_text("You died"));
    assert_eq!(std::fs::read_dir(d.join("morgue")).unwrap().count(), 1);
    assert!(!d.join("rats-scores.json").exists());
}

/// The one file in `dir` (a game's recording in `records/`, its morgue in `morgue/`).
fn only_file(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// The bot's game from seed 1 played to its end through the keys of a normal session saving
/// in a fresh folder `name`: its commands, the folder and the session's frontend.
fn bot_played(name: &str) -> (Vec<Command>, PathBuf, TestFrontend) {
    let moves = bot_game(1);
    let d = dir(name);
    let keys = std::iter::once(Input::ch(' ')).chain(moves.iter().map(|&c| key_of(c)));
    let (fe, _) = play_keys(new_session(&d, 1, false), keys);
    (moves, d, fe)
}

#[test]
fn a_death_writes_the_morgue_and_the_score_shows_on_the_start_screen() {
    let (moves, d, fe) = bot_played("morgue");
    assert!(fe.last_frame().unwrap().contains_text("eaten by rats"));
    let text = std::fs::read_to_string(only_file(&d.join("morgue"))).unwrap();
    assert!(text.contains("Died: eaten by rats"), "{text}");
    assert!(
        text.contains("A rat bites you"),
        "the last messages: {text}"
    );
    // The next session's start screen lists it (H).
    let (fe, _) = play_keys(new_session(&d, 9, false), [Input::ch('H')]);
    let f = fe.last_frame().unwrap();
    assert!(f.contains_text("eaten by rats"), "{}", f.to_text());
    // The recording kept in records/ replays to the same end.
    let rec = only_file(&d.join("records"));
    let rats = Arc::new(Rats::new().unwrap());
    let states = alembic_session::playback::rebuild(
        &rec,
        Rats::NAME,
        &alembic_session::gamedata::DataIdentity::shipped(),
        |h| rats.new_game(h.seed),
        |g, c: &Step<Command>| apply_step(&*rats, g, c).map(|(g, _)| g),
    )
    .unwrap();
    assert_eq!(states.last().unwrap().turn(), moves.len() as u64);
}

#[test]
fn save_and_continue_and_bad_saves_change_nothing() {
    let d = dir("save");
    let wait = key_of(Command::Wait);
    let (_, s) = play_keys(
        new_session(&d, 6, false),
        [Input::ch(' '), wait, wait, Input::ch('S')],
    );
    assert_eq!(
        s.farewell().unwrap().unwrap(),
        format!("Your game was saved to {}.", d.join("rats.save").display())
    );
    let rats = Arc::new(Rats::new().unwrap());
    let back = Session::load(rats.clone(), &d.join("rats.save")).unwrap();
    assert_eq!(back.game().turn(), 2);
    assert_eq!(back.game().state_hash(), s.game().state_hash());
    // A damaged save is refused with a sentence, and left as it was.
    let bad = d.join("bad.save");
    let mut text = std::fs::read_to_string(d.join("rats.save")).unwrap();
    text = text.replacen("\"seed\":6", "\"seed\":7", 1);
    std::fs::write(&bad, &text).unwrap();
    let err = Session::load(rats.clone(), &bad).err().unwrap().to_string();
    assert!(err.contains("checksum does not match"), "{err}");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), text);
    std::fs::write(
        &bad,
        "{\"game\":\"caves\",\"version\":1,\"seed\":1,\"checksum\":1,\"state\":{}}",
    )
    .unwrap();
    let err = Session::load(rats, &bad).err().unwrap().to_string();
    assert!(err.contains("a save of \"caves\""), "{err}");
}

#[test]
fn a_continued_game_shows_the_messages_it_had() {
    let moves = bot_game(1);
    let d = dir("messages");
    // Saved a few moves before the end, when bites and kills have been said.
    let n = moves.len() - 3;
    let keys = std::iter::once(Input::ch(' '))
        .chain(moves[..n].iter().map(|&c| key_of(c)))
        .chain([Input::ch('S')]);
    let (_, s) = play_keys(new_session(&d, 1, false), keys);
    let said: Vec<String> = s.messages().map(str::to_owned).collect();
    assert!(said.len() > 3, "{said:?}");
    let rats = Arc::new(Rats::new().unwrap());
    let back = Session::load(rats.clone(), &d.join("rats.save")).unwrap();
    assert_eq!(back.game().state_hash(), s.game().state_hash());
    let again: Vec<String> = back.messages().map(str::to_owned).collect();
    assert_eq!(
        again, said,
        "the log after continuing is the log before saving"
    );
    // Without its recording the game still continues, with an empty log.
    std::fs::remove_file(alembic_session::record::beside(&d.join("rats.save"))).unwrap();
    let bare = Session::load(rats, &d.join("rats.save")).unwrap();
    assert_eq!(bare.game().state_hash(), s.game().state_hash());
    assert_eq!(bare.messages().count(), 0);
}

/// The rats with every message reworded: the English is not state, so nothing else differs.
struct Reworded(Rats);

impl Ruleset for Reworded {
    const NAME: &'static str = Rats::NAME;
    const TITLE: &'static str = Rats::TITLE;
    type Command = Command;
    type Event = Event;
    type Refusal = alembic_rats::Refusal;
    fn library(&self) -> &alembic::Library {
        self.0.library()
    }
    fn hooks(&self) -> alembic::Hooks {
        self.0.hooks()
    }
    fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
        self.0.new_game(seed)
    }
    fn apply(
        &self,
        g: &Game,
        c: &Command,
    ) -> Result<Outcome<Event>, Rejected<alembic_rats::Refusal>> {
        self.0.apply(g, c)
    }
    fn describe(&self, _: &Game, e: &Event) -> Option<String> {
        Some(format!("[reworded] {e:?}"))
    }
    fn status(&self, g: &Game) -> Status {
        self.0.status(g)
    }
    fn summary(&self, g: &Game) -> Summary {
        self.0.summary(g)
    }
    fn wizard(&self) -> Option<&alembic::wizard::WizardCommands<Game>> {
        self.0.wizard()
    }
}
impl Board<Reworded> for Reworded {
    fn keymap(&self) -> &'static [Binding<Command>] {
        self.0.keymap()
    }
    fn draw(&self, g: &Game, f: &mut Frame, a: Rect, v: &alembic_session::ruleset::View) {
        self.0.draw(g, f, a, v)
    }
}

#[test]
fn rewording_a_message_breaks_no_recording() {
    let (moves, d, _) = bot_played("reword");
    let rec = only_file(&d.join("records"));
    let reworded = Reworded(Rats::new().unwrap());
    let mut said = Vec::new();
    let states = alembic_session::playback::rebuild(
        &rec,
        Rats::NAME,
        &alembic_session::gamedata::DataIdentity::shipped(),
        |h| reworded.new_game(h.seed),
        |g, c: &Step<Command>| {
            apply_step(&reworded, g, c).map(|(g, lines)| {
                said.extend(lines);
                g
            })
        },
    )
    .expect("every checkpoint matches with the reworded messages");
    assert_eq!(states.len(), moves.len() + 1);
    assert!(
        said.iter().any(|l| l.starts_with("[reworded] Bitten")),
        "{said:?}"
    );
}

#[test]
fn the_wizard_console_runs_commands_that_are_recorded_and_replayed() {
    let d = dir("wizard");
    let walls = |f: &Frame| f.to_text().matches('#').count();
    // Tab completes "ma" to "map"; Enter runs it; the console stays open until Esc.
    let typed = "ma"
        .chars()
        .map(Input::ch)
        .chain([Input::key(Key::Tab), Input::key(Key::Enter)])
        .chain([Input::key(Key::Esc)]);
    let keys = [Input::ch(' '), Input::ch('~')]
        .into_iter()
        .chain(typed)
        .chain([Input::ch('S')]);
    let session = Session::new(Arc::new(Rats::new().unwrap()), 5)
        .with_modes(false, true)
        .with_save(d.join("rats.save"));
    let (fe, _) = play_keys(session, keys);
    let first = fe
        .frames()
        .iter()
        .find(|f| f.contains_text("HP 10/10"))
        .unwrap();
    let last_play = fe
        .frames()
        .iter()
        .rev()
        .find(|f| f.contains_text("HP 10/10"))
        .unwrap();
    assert!(
        walls(last_play) > 3 * walls(first),
        "the whole maze is shown"
    );
    // Continued, the recording (the save's journal) holds the wizard step by name.
    let rec = std::fs::read_to_string(d.join("rats.replay")).unwrap();
    assert!(rec.contains("{\"wizard\":\"map\"}"), "{rec}");
    let back = Session::load(Arc::new(Rats::new().unwrap()), &d.join("rats.save")).unwrap();
    assert_eq!(back.modes().to_strings(), vec!["wizard".to_owned()]);
}

/// The replay viewer shows a state with the same messages however it came to it: End, then
/// Left and Right again, is the screen End showed.
#[test]
fn a_replayed_state_reads_the_same_whichever_way_it_was_reached() {
    let (_, d, _) = bot_played("replay-same");
    let rec = only_file(&d.join("records"));
    let mut viewer = play::replay_app(Arc::new(Rats::new().unwrap()), &rec).unwrap();
    let keys = [Key::End, Key::Left, Key::Right].map(Input::key);
    let mut fe = TestFrontend::new(100, 30, keys);
    let _ = run(&mut fe, &mut viewer);
    let frames = fe.frames();
    let (end, back, again) = (&frames[1], &frames[2], &frames[3]);
    assert!(end.contains_text("A rat bites you"), "{}", end.to_text());
    assert_ne!(end.to_text(), back.to_text(), "Left steps back");
    assert_eq!(
        end.to_text(),
        again.to_text(),
        "Right comes back to the same screen"
    );
}

#[test]
fn the_library_names_only_registered_hooks_and_a_misspelt_one_is_refused() {
    use alembic::{Props, hook::ON_ACTION, props::Hook};
    let rats = Rats::new().unwrap();
    let check =
        |lib: &alembic::Library| rats.hooks().check(&Game::new(0).with_library(lib.clone()));
    check(rats.library()).unwrap();
    let hook = Props::new().with(&ON_ACTION, Hook::new("rats.rta"));
    let typo = rats
        .library()
        .proclaim("rat king", Some("rat"), hook)
        .unwrap();
    assert_eq!(
        check(&typo).unwrap_err().to_string(),
        "unknown hook \"rats.rta\""
    );
}

/// The start screen every game gets: `s` asks for a seed and starts that game, `p` starts a
/// practice game, and an ended game's score shows below the menu.
#[test]
fn the_start_screen_starts_from_a_seed_practises_and_shows_the_scores() {
    let d = dir("start");
    let save = d.join("rats.save");
    let rats = || Arc::new(Rats::new().unwrap());
    // `s`, a seed, Enter: the game of that seed (not the launch seed 5).
    let keys = [Input::ch('s')]
        .into_iter()
        .chain("12".chars().map(Input::ch))
        .chain([Input::key(Key::Enter)]);
    let (fe, s) = play_keys(Session::new(rats(), 5).with_save(save.clone()), keys);
    assert!(
        fe.frames()[0].contains_text("seed 5"),
        "{}",
        fe.frames()[0].to_text()
    );
    assert!(fe.frames()[1].contains_text("Seed (a number or any word):"));
    assert_eq!(s.seed(), 12);
    assert_eq!(
        s.game().state_hash(),
        Rats::new().unwrap().new_game(12).unwrap().state_hash()
    );
    drop(s);
    let _ = std::fs::remove_file(&save);
    // `p`: a practice game, where `U` takes a move back.
    let keys = [
        Input::ch('p'),
        Input::ch('.'),
        Input::ch('.'),
        Input::ch('U'),
    ];
    let (_, s) = play_keys(Session::new(rats(), 5).with_save(save.clone()), keys);
    assert_eq!(s.modes().to_strings(), vec!["practice".to_owned()]);
    assert_eq!(s.game().turn(), 1, "two waits, one taken back");
    drop(s);
    let _ = std::fs::remove_file(&save);
    // A game quit at once is scored; the next start screen shows the table below the menu.
    let keys = [Input::ch(' '), Input::ch('Q'), Input::ch('y')];
    let _ = play_keys(Session::new(rats(), 7).with_save(save.clone()), keys);
    let (fe, _) = play_keys(
        Session::new(rats(), 8).with_save(save.clone()),
        [Input::ch('q')],
    );
    let first = fe.frames()[0].to_text();
    assert!(first.contains("High scores"), "{first}");
    assert!(first.contains("quit"), "{first}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Explore (`o`) walks the rats' maze from turn 0 until something happens (a rat comes into
/// view, or nothing is left), and the help offers it; rest (`Z`) and search (`s`) are not
/// offered, since the hero never heals and nothing is hidden.
#[test]
fn the_rats_explore_from_turn_0_and_offer_no_rest() {
    let d = dir("explore");
    let (fe, s) = play_keys(new_session(&d, 5, false), [Input::ch(' '), Input::ch('o')]);
    let walked = s.game().turn();
    assert!(walked > 3, "explore walks a while from turn 0: {walked}");
    let said = fe.last_frame().unwrap().to_text();
    assert!(
        !said.contains("nothing left to explore"),
        "explore found the maze: {said}"
    );
    let rats = Rats::new().unwrap();
    let help = play::help_lines(&rats).join("\n");
    assert!(help.contains("explore until something happens"), "{help}");
    assert!(!help.contains("rest until healed"), "{help}");
    assert!(!help.contains("search for 5 turns"), "{help}");
    for k in ['Z', 's'] {
        assert!(!play::is_bound(&rats, Key::Char(k)), "{k} is not offered");
    }
    // Every key the help shows works: no diagonals, no stairs keys in the maze.
    assert!(
        help.contains("h j k l ") && !help.contains("y u b n"),
        "{help}"
    );
    assert!(!help.contains("> and <"), "{help}");
    assert!(!play::is_bound(&rats, Key::Char('y')), "no diagonal steps");
    assert!(play::is_bound(&rats, Key::Char('h')));
    // Pressed anyway, they are unknown keys that spend no turn.
    let d = dir("explore-no-rest");
    let (fe, s) = play_keys(new_session(&d, 6, false), [Input::ch(' '), Input::ch('Z')]);
    let last = fe.last_frame().unwrap().to_text();
    assert_eq!(s.game().turn(), 0, "{last}");
    assert!(last.contains("Unknown key 'Z'"), "{last}");
}

/// Explore goes on, press by press, until the whole maze is known: every press either
/// walks or says why it stopped, and at the end it says there is nothing left.
#[test]
fn exploring_the_rats_maze_ends_with_all_of_it_known() {
    let rats = Arc::new(Rats::new().unwrap());
    let mut g = rats.new_game(5).unwrap();
    let journeys = rats.journeys().expect("the rats answer journeys");
    let mut steps = 0;
    while let Some(d) = journeys.route(&g, alembic_session::Goal::Explore) {
        let c = rats.step(d).unwrap();
        match rats.apply(&g, &c) {
            Ok(o) => g = o.game,
            Err(e) => panic!("explore stepped into a refusal: {e}"),
        }
        steps += 1;
        if rats.status(&g) != Status::Playing || steps > 2_000 {
            break;
        }
    }
    assert!(steps > 50, "explore walked the maze: {steps} steps");
}

/// A step the rules refuse reaches the session typed: the rats' own refusal (`Refusal`),
/// not a sentence to be guessed at; a wizard line in a game without the console is
/// refused as a wizard line; nothing changed either way.
#[test]
fn a_refusal_reaches_the_session_typed() {
    use alembic_session::run::{Run, StepRefusal};
    let rats = Arc::new(Rats::new().unwrap());
    let mut run = Run::new_game(rats.clone(), 5, false, false).unwrap();
    let before = run.game().state_hash();
    // The hero starts in the maze's corner: north is a wall.
    match run.play(&Step::Play(Command::Move(alembic::Dir::North))) {
        Err(StepRefusal::Rule(why)) => {
            assert_eq!(why, alembic_rats::Refusal::Wall);
            assert_eq!(why.to_string(), "A wall is in the way.");
        }
        other => panic!("expected the rats' own refusal, got {other:?}"),
    }
    match run.play(&Step::Play(Command::Move(alembic::Dir::NorthEast))) {
        Err(StepRefusal::Rule(why)) => assert_eq!(why, alembic_rats::Refusal::Diagonal),
        other => panic!("expected the rats' own refusal, got {other:?}"),
    }
    assert_eq!(run.game().state_hash(), before, "nothing changed");
    assert_eq!(run.game().turn(), 0);
}

/// The screen as the player sees it at 100 × 30.
fn screen(a: &mut alembic_ui::ScreenStack<Session<Rats>>) -> Frame {
    use alembic_ui::App;
    let mut f = Frame::new(100, 30);
    a.render(&mut f);
    f
}

/// Where `ch` is on the map (below the message lines, above the status bar), if it is.
fn find_on_screen(f: &Frame, ch: char) -> Option<(u16, u16)> {
    let bar = (0..f.height())
        .find(|&y| f.row_text(y).contains("HP "))
        .unwrap_or(f.height());
    (3..bar).find_map(|y| {
        let row: Vec<char> = f.row_text(y).chars().collect();
        row.iter().position(|&c| c == ch).map(|x| (x as u16, y))
    })
}

/// A key, then the ticks of whatever journey it began (as the play screen shows them).
fn press(a: &mut alembic_ui::ScreenStack<Session<Rats>>, input: Input) {
    use alembic_ui::App;
    let _ = a.handle_input(input);
    let mut ticks = 0;
    while a.tick_interval().is_some() && ticks < 5_000 {
        let _ = a.tick();
        ticks += 1;
    }
}

/// Issue 54: the rats played by hand, as a player would, with the presses counted: `o`
/// explores, a rat next to the hero is bitten back (its direction key), a rat in view that
/// is not yet next to the hero is waited for (`.`), the cheese seen is clicked (travel), and
/// with the cheese `<` travels to the way out, where stepping wins.
#[test]
fn the_rats_are_won_by_hand_in_under_60_presses() {
    use alembic_ui::{MouseButton, MouseKind};
    let mut won = 0;
    let mut counts = Vec::new();
    for seed in 1..=10 {
        let mut a = play::app(Session::new(Arc::new(Rats::new().unwrap()), seed));
        press(&mut a, Input::key(Key::Enter));
        let mut presses = 0;
        let mut waited = 0;
        while presses < 200 {
            let g = a.ctx().game().clone();
            let rules = Rats::new().unwrap();
            if rules.status(a.ctx().game()) != Status::Playing {
                break;
            }
            let f = screen(&mut a);
            let text = f.to_text();
            let hero = find_on_screen(&f, '@');
            let rat = hero.and_then(|(hx, hy)| {
                [(0i32, -1i32, 'k'), (0, 1, 'j'), (-1, 0, 'h'), (1, 0, 'l')]
                    .into_iter()
                    .find(|&(dx, dy, _)| {
                        let (x, y) = (i32::from(hx) + dx, i32::from(hy) + dy);
                        x >= 0
                            && y >= 0
                            && f.row_text(y as u16).chars().nth(x as usize) == Some('r')
                    })
            });
            let carried = text.contains("carrying the cheese");
            let key = if let Some((_, _, k)) = rat {
                waited = 0;
                Input::ch(k)
            } else if carried {
                Input::ch('<')
            } else if g.turn() > 0 && find_on_screen(&f, 'r').is_some() && waited < 2 {
                // A rat in view: let it come (twice at most; then go on).
                waited += 1;
                Input::ch('.')
            } else if let (false, Some((x, y))) = (carried, find_on_screen(&f, '%')) {
                Input::Mouse {
                    kind: MouseKind::Down(MouseButton::Left),
                    x,
                    y,
                    mods: alembic_ui::Mods::NONE,
                }
            } else {
                waited = 0;
                Input::ch('o')
            };
            press(&mut a, key);
            presses += 1;
        }
        let over = Rats::new().unwrap().status(a.ctx().game());
        if matches!(&over, Status::Over(e) if e.won) {
            won += 1;
        }
        counts.push((seed, presses, over));
    }
    eprintln!("the rats by hand, seeds 1-10 (seed, presses, end): {counts:?}");
    for (seed, presses, end) in &counts {
        assert!(
            *presses <= 60 && *end != Status::Playing,
            "seed {seed}: {presses} presses, {end:?}"
        );
    }
    assert!(won >= 5, "won {won} of 10: {counts:?}");
}

/// Issue 54: auto-fight (`Tab`) in the rats, through the session's journey. After `o` stops
/// for a rat, one `Tab` walks to it and bites until it dies (or the hero is badly hurt, or
/// another rat comes); with no rat in view it says so and takes no turn.
#[test]
fn one_tab_settles_a_fight_with_a_rat() {
    let rules = Rats::new().unwrap();
    let journeys = rules.journeys().unwrap();
    let (mut settled, mut fights) = (0, 0);
    for seed in 1..=10 {
        let mut a = play::app(Session::new(Arc::new(Rats::new().unwrap()), seed));
        press(&mut a, Input::key(Key::Enter));
        // At the start no rat is in view: Tab refuses and takes no turn.
        press(&mut a, Input::key(Key::Tab));
        assert!(
            screen(&mut a)
                .to_text()
                .contains("There is nothing in view you can fight."),
            "seed {seed}: {}",
            screen(&mut a).to_text()
        );
        assert_eq!(a.ctx().game().turn(), 0, "seed {seed}");
        let mut presses = 0;
        while journeys.foes(a.ctx().game()).is_empty() && presses < 20 {
            press(&mut a, Input::ch('o'));
            presses += 1;
        }
        let Some(foe) = journeys.foes(a.ctx().game()).first().cloned() else {
            continue;
        };
        fights += 1;
        let before = a.ctx().game().turn();
        press(&mut a, Input::key(Key::Tab));
        let g = a.ctx().game().clone();
        let text = screen(&mut a).to_text();
        let dead = !journeys.foes(&g).iter().any(|f| f.id == foe.id);
        let stopped = text.contains("You stop fighting");
        let over = rules.status(&g) != Status::Playing;
        assert!(dead || stopped || over, "seed {seed}: {text}");
        assert!(g.turn() > before, "seed {seed}: no turn taken");
        if dead && g.turn() > before + 1 {
            settled += 1;
        }
    }
    eprintln!("{settled} of {fights} fights settled by one Tab");
    // Most fights are several bites, all from the one press.
    assert!(
        fights >= 8 && settled * 2 > fights,
        "{settled} of {fights} settled by one Tab"
    );
}

/// Issue 52: the rats' typed refusal reaches the play screen as the game's own sentence,
/// and the refused key spends no turn.
#[test]
fn a_refusal_shows_on_the_play_screen_and_spends_no_turn() {
    let mut a = play::app(Session::new(Arc::new(Rats::new().unwrap()), 5));
    press(&mut a, Input::key(Key::Enter));
    assert_eq!(a.ctx().game().turn(), 0);
    // The hero starts in the maze's corner: north is a wall.
    press(&mut a, Input::ch('k'));
    let text = screen(&mut a).to_text();
    assert!(text.contains("A wall is in the way."), "{text}");
    assert_eq!(a.ctx().game().turn(), 0, "a refused move spends no turn");
}
