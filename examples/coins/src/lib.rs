//! A game from outside this repository's registry, run by the frontends' public API: in the
//! terminal (`cargo run -p alembic-example-coins --bin coins-tui -- --seed 3`) and in a window
//! (`--bin coins-pixels`) and in the browser (`--bin coins-web -- --data-dir DIR`, then
//! <http://127.0.0.1:8080/>), each binary three lines.
//!
//! Coins in a room: walk over the five coins (`hjkl`, arrows) and the game is won. It
//! implements the contract (`Ruleset`, `Board`) and one table entry, and gets everything the
//! built-in games get: the start screen with scores, saves, recordings and `--replay`,
//! `--practice` with `U`, the morgue file, `--list`, `--help`, the stop signals that save the
//! game and restore the terminal.
//!
//! It also shows the session's questions ([`alembic_session::ask`]): `d` drops coins (which
//! metal from a lettered list, how many, and a y/n before the last one), `t` throws one
//! (which metal, then where, with the targeting cursor and its path), `f` flicks a coin in a
//! direction and `E` writes a line in the dust. The replies end up in the commands, so a
//! recording replays them exactly.

use std::fmt;
use std::sync::Arc;

use alembic::{Dir, Error, Game, HookCtx, Hooks, Library, Loc, LocBox, Prop, Props, Rgb, ThingId};
use alembic_games::{GameEntry, LaunchError, LaunchOptions};
use alembic_session::ask::{Asked, Choice, Question, Questions, Reply};
use alembic_session::keymap::{Binding, bind};
use alembic_session::ruleset::View;
use alembic_session::{Board, Ending, Outcome, Rejected, Ruleset, Status};
use alembic_ui::{App, Frame, Key, Rect};
use serde::{Deserialize, Serialize};

const ROOM: LocBox = LocBox::rect(0, 0, 20, 10, 0);
const COINS: i32 = 5;
const GLYPH: Prop<char> = Prop::new("coins.glyph");
const HERO: Prop<ThingId> = Prop::new("coins.hero");
const TAKEN: Prop<i32> = Prop::with_default("coins.taken", 0);
/// A coin's metal (its index in [`Metal::ALL`]).
const METAL: Prop<i32> = Prop::with_default("coins.metal", 0);
/// How many coins of each metal the hero carries.
const PURSE: [Prop<i32>; 3] = [
    Prop::with_default("coins.copper", 0),
    Prop::with_default("coins.silver", 0),
    Prop::with_default("coins.gold", 0),
];
/// The last words written in the dust, and where.
const WRITTEN: Prop<Arc<str>> = Prop::new("coins.written");
const WRITTEN_AT: Prop<Loc> = Prop::new("coins.written_at");
/// The floor: the room inside its walls.
const FLOOR: LocBox = LocBox::rect(1, 1, 18, 8, 0);
/// The most characters written in the dust at once.
const WRITE_MAX: usize = 40;

/// What a coin is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Metal {
    /// Worth 1.
    Copper,
    /// Worth 5.
    Silver,
    /// Worth 10.
    Gold,
}

impl Metal {
    /// Every metal, in the purse's order.
    pub const ALL: [Metal; 3] = [Metal::Copper, Metal::Silver, Metal::Gold];

    fn index(self) -> usize {
        self as usize
    }

    fn of(i: i32) -> Metal {
        Metal::ALL[usize::try_from(i).unwrap_or(0).min(2)]
    }

    fn name(self) -> &'static str {
        match self {
            Metal::Copper => "copper",
            Metal::Silver => "silver",
            Metal::Gold => "gold",
        }
    }

    fn worth(self) -> i32 {
        match self {
            Metal::Copper => 1,
            Metal::Silver => 5,
            Metal::Gold => 10,
        }
    }

    fn colour(self) -> Rgb {
        match self {
            Metal::Copper => Rgb::new(205, 127, 50),
            Metal::Silver => Rgb::new(200, 200, 210),
            Metal::Gold => Rgb::new(255, 215, 0),
        }
    }
}

/// What the player asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Step (onto a coin: pick it up).
    Move(Dir),
    /// Let a turn pass.
    Wait,
    /// Put this many coins of a metal down where the hero stands.
    Drop(Metal, u32),
    /// Throw a coin of a metal at a place: it flies along the line and lands before a wall.
    Throw(Metal, Loc),
    /// Flick the coins next to the hero in a direction: they slide to the wall.
    Flick(Dir),
    /// Write a line in the dust where the hero stands.
    Write(String),
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A coin of this metal was picked up: this many of the room's are in the purse now.
    Took(Metal, i32),
    /// This many coins of a metal were put down.
    Dropped(Metal, u32),
    /// A thrown coin landed this many cells away.
    Landed(Metal, usize),
    /// This many coins slid to the wall.
    Slid(usize),
    /// Words were written in the dust.
    Wrote,
}

/// Why a command did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A wall is in the way.
    Wall,
    /// Not that many coins of that metal in the purse.
    TooFew,
    /// Nothing lies there to flick.
    NothingThere,
    /// A coin thrown at the hero's own feet, or outside the room.
    BadTarget,
    /// Nothing, too much, or unprintable text to write.
    BadText,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::Wall => "The wall is in the way.",
            Refusal::TooFew => "You do not have that many.",
            Refusal::NothingThere => "There is no coin there to flick.",
            Refusal::BadTarget => "You cannot throw there.",
            Refusal::BadText => "That cannot be written in the dust.",
        })
    }
}

/// The rules.
#[derive(Debug)]
pub struct Coins {
    library: Library,
}

impl Coins {
    /// The rules, with their library.
    ///
    /// # Errors
    /// The library could not be built (a bug).
    pub fn new() -> Result<Coins, Error> {
        let library = Library::new()
            .proclaim("hero", None, Props::new().with(&GLYPH, '@'))?
            .proclaim("coin", None, Props::new().with(&GLYPH, '$'))?;
        Ok(Coins { library })
    }

    fn hero(g: &Game) -> Result<(ThingId, Loc), Error> {
        let h = g.var(&HERO)?;
        Ok((h, g.things().location(h)?))
    }

    /// How many coins of each metal the hero carries.
    fn purse(g: &Game) -> [i32; 3] {
        PURSE.map(|p| g.var(&p).unwrap_or(0))
    }

    /// The coins lying at `l`.
    fn coins_at(g: &Game, l: Loc) -> Vec<ThingId> {
        let hero = g.var(&HERO).ok();
        g.things()
            .at(l)
            .iter()
            .copied()
            .filter(|t| Some(*t) != hero)
            .collect()
    }

    /// Put a coin of `metal` at `l`, out of the purse.
    fn put_down(g: &mut Game, metal: Metal, l: Loc) -> Result<(), Error> {
        let hooks = Hooks::new();
        let mut ctx = HookCtx::new(&hooks);
        let c = g.spawn_mut(&mut ctx, "coin", l)?;
        g.set_mut(c, &METAL, metal as i32)?;
        let p = &PURSE[metal.index()];
        g.set_var_mut(p, g.var(p)? - 1);
        g.set_var_mut(&TAKEN, g.var(&TAKEN)? - 1);
        Ok(())
    }

    /// The purse's metals that are not empty, as a list to choose from.
    fn held(g: &Game) -> Vec<(Metal, i32)> {
        let purse = Coins::purse(g);
        Metal::ALL
            .into_iter()
            .filter(|m| purse[m.index()] > 0)
            .map(|m| (m, purse[m.index()]))
            .collect()
    }
}

/// The question keys' ids.
const DROP: u32 = 0;
const THROW: u32 = 1;
const FLICK: u32 = 2;
const WRITE: u32 = 3;

/// Choose a metal from the purse (its letter is its initial).
fn which_metal(prompt: &str, held: &[(Metal, i32)]) -> Question {
    let choices = held
        .iter()
        .map(|(m, n)| {
            let plural = if *n == 1 { "coin" } else { "coins" };
            Choice::new(format!("{n} {} {plural}", m.name()))
                .with_letter(m.name().chars().next().unwrap_or('?'))
                .with_about(format!("worth {} each", m.worth()))
        })
        .collect();
    Question::item(prompt, choices)
}

impl Questions<Command> for Coins {
    fn ask(&self, g: &Game, key: u32, replies: &[Reply]) -> Asked<Command> {
        let held = Coins::held(g);
        let metal = |i: &usize| held.get(*i).copied();
        match (key, replies) {
            (DROP | THROW, []) if held.is_empty() => Asked::Say("Your purse is empty.".into()),
            (DROP, []) => Asked::Ask(which_metal("Drop which coins?", &held)),
            (DROP, [Reply::Item(i)]) => match metal(i) {
                Some((m, 1)) if held.len() == 1 => Asked::Ask(Question::confirm(format!(
                    "Drop your last coin, the {} one?",
                    m.name()
                ))),
                Some((m, 1)) => Asked::Play(Command::Drop(m, 1)),
                Some((m, n)) => Asked::Ask(Question::number(
                    format!("Drop how many {} coins?", m.name()),
                    1,
                    n.unsigned_abs(),
                )),
                None => Asked::Say("You have no such coins.".into()),
            },
            (DROP, [Reply::Item(i), Reply::Number(n)]) => match metal(i) {
                Some((m, have)) if held.len() == 1 && *n == have.unsigned_abs() => Asked::Ask(
                    Question::confirm(format!("Drop every coin you have ({n} {})?", m.name())),
                ),
                Some((m, _)) => Asked::Play(Command::Drop(m, *n)),
                None => Asked::Say("You have no such coins.".into()),
            },
            (DROP, [Reply::Item(i), .., Reply::Confirm(yes)]) => match (metal(i), replies) {
                (_, _) if !yes => Asked::Say("You keep your coins.".into()),
                (Some((m, _)), [_, Reply::Number(n), _]) => Asked::Play(Command::Drop(m, *n)),
                (Some((m, _)), _) => Asked::Play(Command::Drop(m, 1)),
                (None, _) => Asked::Say("You have no such coins.".into()),
            },
            (THROW, []) => Asked::Ask(which_metal("Throw which coin?", &held)),
            (THROW, [Reply::Item(i)]) => match (metal(i), Coins::hero(g)) {
                (Some((m, _)), Ok((_, at))) => {
                    let mut marks: Vec<Loc> = FLOOR
                        .iter()
                        .filter(|l| !Coins::coins_at(g, *l).is_empty())
                        .collect();
                    marks.sort_by_key(|l| at.chebyshev(*l));
                    Asked::Ask(Question::target(
                        format!("Throw the {} coin where?", m.name()),
                        at,
                        marks,
                        FLOOR,
                    ))
                }
                _ => Asked::Say("You have no such coins.".into()),
            },
            (THROW, [Reply::Item(i), Reply::Target(l)]) => match (metal(i), Coins::hero(g)) {
                (_, Ok((_, at))) if at == *l => {
                    Asked::Say("You toss the coin from hand to hand.".into())
                }
                (Some((m, _)), _) => Asked::Play(Command::Throw(m, *l)),
                _ => Asked::Say("You have no such coins.".into()),
            },
            (FLICK, []) => Asked::Ask(Question::direction("Flick a coin in which direction?")),
            (FLICK, [Reply::Direction(d)]) => Asked::Play(Command::Flick(*d)),
            (WRITE, []) => Asked::Ask(Question::text("Write what in the dust?", WRITE_MAX)),
            (WRITE, [Reply::Text(t)]) if t.trim().is_empty() => {
                Asked::Say("You write nothing.".into())
            }
            (WRITE, [Reply::Text(t)]) => Asked::Play(Command::Write(t.trim().to_owned())),
            _ => Asked::Say("Okay, then.".into()),
        }
    }
}

impl Ruleset for Coins {
    const NAME: &'static str = "coins";
    const TITLE: &'static str = "C O I N S";
    type Command = Command;
    type Event = Event;
    type Refusal = Refusal;

    fn library(&self) -> &Library {
        &self.library
    }

    fn hooks(&self) -> Hooks {
        Hooks::new()
    }

    fn new_game(&self, seed: u64) -> Result<Game, Error> {
        let mut g = Game::new(seed).with_library(self.library.clone());
        let hooks = Hooks::new();
        let mut ctx = HookCtx::new(&hooks);
        let hero = g.spawn_mut(&mut ctx, "hero", Loc::new(1, 1, 0))?;
        g.set_var_mut(&HERO, hero);
        let mut placed = 0;
        while placed < COINS {
            // Inside the walls (`range` includes both ends): every coin can be reached.
            let l = Loc::new(g.rng().range(2, 18) as i32, g.rng().range(1, 8) as i32, 0);
            if g.things().at(l).is_empty() {
                let c = g.spawn_mut(&mut ctx, "coin", l)?;
                g.set_mut(c, &METAL, placed % 3)?;
                placed += 1;
            }
        }
        Ok(g)
    }

    fn apply(&self, game: &Game, c: &Command) -> Result<Outcome<Event>, Rejected<Refusal>> {
        let mut g = game.clone();
        let mut events = Vec::new();
        let (hero, at) = Coins::hero(&g)?;
        let purse = Coins::purse(&g);
        match c {
            Command::Wait => {}
            Command::Move(d) => {
                let to = at + *d;
                if !FLOOR.contains(to) {
                    return Err(Rejected::Refused(Refusal::Wall));
                }
                for t in Coins::coins_at(&g, to) {
                    let metal = Metal::of(g.query(t, &METAL)?);
                    g.remove_thing_mut(t)?;
                    let p = &PURSE[metal.index()];
                    g.set_var_mut(p, g.var(p)? + 1);
                    g.set_var_mut(&TAKEN, g.var(&TAKEN)? + 1);
                    events.push(Event::Took(metal, g.var(&TAKEN)?));
                }
                g.move_thing_mut(hero, to)?;
            }
            Command::Drop(m, n) => {
                if *n == 0 || i64::from(*n) > i64::from(purse[m.index()]) {
                    return Err(Rejected::Refused(Refusal::TooFew));
                }
                for _ in 0..*n {
                    Coins::put_down(&mut g, *m, at)?;
                }
                events.push(Event::Dropped(*m, *n));
            }
            Command::Throw(m, target) => {
                if purse[m.index()] < 1 {
                    return Err(Rejected::Refused(Refusal::TooFew));
                }
                if *target == at || !FLOOR.contains(*target) {
                    return Err(Rejected::Refused(Refusal::BadTarget));
                }
                let flight: Vec<Loc> = at.line_to(*target).into_iter().skip(1).collect();
                let lands = flight
                    .iter()
                    .take_while(|l| FLOOR.contains(**l))
                    .last()
                    .copied()
                    .unwrap_or(at);
                Coins::put_down(&mut g, *m, lands)?;
                events.push(Event::Landed(*m, at.chebyshev(lands) as usize));
            }
            Command::Flick(d) => {
                let from = at + *d;
                let coins = Coins::coins_at(&g, from);
                if d.offset().z != 0 || coins.is_empty() {
                    return Err(Rejected::Refused(Refusal::NothingThere));
                }
                let mut to = from;
                while FLOOR.contains(to + *d) {
                    to += *d;
                }
                for t in &coins {
                    g.move_thing_mut(*t, to)?;
                }
                events.push(Event::Slid(coins.len()));
            }
            Command::Write(text) => {
                let n = text.chars().count();
                if n == 0 || n > WRITE_MAX || text.chars().any(char::is_control) {
                    return Err(Rejected::Refused(Refusal::BadText));
                }
                g.set_var_mut(&WRITTEN, Arc::from(text.as_str()));
                g.set_var_mut(&WRITTEN_AT, at);
                events.push(Event::Wrote);
            }
        }
        g.set_turn_mut(g.turn() + 1);
        Ok(Outcome { game: g, events })
    }

    fn describe(&self, _: &Game, e: &Event) -> Option<String> {
        Some(match e {
            Event::Took(m, n) => format!("You pick up a {} coin ({n} of {COINS}).", m.name()),
            Event::Dropped(m, 1) => format!("You drop a {} coin.", m.name()),
            Event::Dropped(m, n) => format!("You drop {n} {} coins.", m.name()),
            Event::Landed(m, 1) => format!("The {} coin lands next to you.", m.name()),
            Event::Landed(m, n) => format!("The {} coin lands {n} steps away.", m.name()),
            Event::Slid(1) => "The coin slides to the wall.".into(),
            Event::Slid(n) => format!("{n} coins slide to the wall."),
            Event::Wrote => "You write in the dust.".into(),
        })
    }

    fn questions(&self) -> Option<&dyn Questions<Command>> {
        Some(self)
    }

    fn status(&self, g: &Game) -> Status {
        match g.var(&TAKEN) {
            Ok(n) if n >= COINS => Status::Over(Ending::new(true, "picked up every coin")),
            _ => Status::Playing,
        }
    }

    fn step(&self, dir: Dir) -> Option<Command> {
        (dir.offset().z == 0).then_some(Command::Move(dir))
    }
}

const KEYS: &[Binding<Command>] = &[bind(&[Key::Char('.')], ".", Command::Wait, "Keys", "wait")];

#[rustfmt::skip]
const ASKS: &[Binding<u32>] = &[
    bind(&[Key::Char('d')], "d", DROP, "Keys", "drop coins (which, how many)"),
    bind(&[Key::Char('t')], "t", THROW, "Keys", "throw a coin (which, where)"),
    bind(&[Key::Char('f')], "f", FLICK, "Keys", "flick a coin next to you across the room"),
    bind(&[Key::Char('E')], "E", WRITE, "Keys", "write in the dust"),
];

/// The room and the coins, drawn.
impl Board<Coins> for Coins {
    fn keymap(&self) -> &'static [Binding<Command>] {
        KEYS
    }

    fn asks(&self) -> &'static [Binding<u32>] {
        ASKS
    }

    fn draw(&self, g: &Game, frame: &mut Frame, area: Rect, _: &View) {
        for l in ROOM.iter() {
            let (ch, fg) = match g.things().at(l).last() {
                Some(&t) => (
                    g.query(t, &GLYPH).unwrap_or('?'),
                    g.query(t, &METAL)
                        .map_or(Rgb::WHITE, |m| Metal::of(m).colour()),
                ),
                None if !FLOOR.contains(l) => ('#', Rgb::WHITE),
                None if g.var(&WRITTEN_AT).ok() == Some(l) => ('~', Rgb::new(150, 150, 150)),
                None => ('.', Rgb::WHITE),
            };
            let fg = if g.var(&HERO).ok() == g.things().at(l).last().copied() {
                Rgb::WHITE
            } else {
                fg
            };
            let (x, y) = (area.x + l.x as u16, area.y + l.y as u16);
            frame.put_str(x, y, &ch.to_string(), fg, Rgb::BLACK);
        }
        let taken = g.var(&TAKEN).unwrap_or(0);
        let line = format!("Coins {taken}/{COINS}  Turn {}", g.turn());
        frame.put_str(area.x, area.y + 11, &line, Rgb::WHITE, Rgb::BLACK);
        let purse = Coins::purse(g);
        let worth: i32 = Metal::ALL
            .iter()
            .map(|m| purse[m.index()] * m.worth())
            .sum();
        let line = format!(
            "Purse: {} copper, {} silver, {} gold (worth {worth})",
            purse[0], purse[1], purse[2]
        );
        frame.put_str(area.x, area.y + 12, &line, Rgb::WHITE, Rgb::BLACK);
        if let (Ok(text), Ok(at)) = (g.var(&WRITTEN), g.var(&WRITTEN_AT))
            && Coins::hero(g).is_ok_and(|(_, h)| h == at)
        {
            let line = format!("Written here: \"{text}\"");
            frame.put_str(area.x, area.y + 13, &line, Rgb::WHITE, Rgb::BLACK);
        }
    }

    fn play_area(&self) -> Option<(u16, u16)> {
        Some((48, 14))
    }

    fn cell_at(&self, _: &Game, area: Rect, x: u16, y: u16) -> Option<Loc> {
        let l = Loc::new(
            i32::from(x) - i32::from(area.x),
            i32::from(y) - i32::from(area.y),
            0,
        );
        ROOM.contains(l).then_some(l)
    }

    fn describe_cell(&self, g: &Game, l: Loc) -> Option<String> {
        let coins = Coins::coins_at(g, l);
        Some(if Coins::hero(g).is_ok_and(|(_, h)| h == l) {
            "You are here.".into()
        } else if let Some(&c) = coins.first() {
            let metal = Metal::of(g.query(c, &METAL).unwrap_or(0));
            match coins.len() {
                1 => format!("A {} coin.", metal.name()),
                n => format!("{n} coins."),
            }
        } else if !FLOOR.contains(l) {
            "A wall.".into()
        } else {
            "The floor.".into()
        })
    }
}

fn launch(opts: &LaunchOptions) -> Result<Box<dyn App>, LaunchError> {
    let rules = Coins::new().map_err(|e| LaunchError::Setup {
        game: opts.game.clone(),
        source: Box::new(e),
    })?;
    alembic_session::play::launch(rules, opts)
}

/// This crate's own table of games: one.
pub const GAMES: &[GameEntry] = &[GameEntry {
    name: "coins",
    about: "coins in a room: an outside game on the contract",
    launch,
    sim: None,
    library_counts: || Ok(Vec::new()),
    replay: true,
    host: Some(|o| alembic_games::host::host_session(Coins::new(), o)),
}];
