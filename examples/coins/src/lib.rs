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

use alembic::{Dir, Error, Game, HookCtx, Hooks, Library, Loc, LocBox, Prop, Props, Rgb, ThingId};
use alembic_games::{GameEntry, LaunchError, LaunchOptions};
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

/// What the player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Step (onto a coin: pick it up).
    Move(Dir),
    /// Let a turn pass.
    Wait,
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
}

impl Ruleset for Coins {
    const NAME: &'static str = "coins";
    const TITLE: &'static str = "C O I N S";
    type Command = Command;
    type Event = i32;
    type Refusal = &'static str;

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
                g.spawn_mut(&mut ctx, "coin", l)?;
                placed += 1;
            }
        }
        Ok(g)
    }

    fn apply(&self, game: &Game, c: &Command) -> Result<Outcome<i32>, Rejected<&'static str>> {
        let mut g = game.clone();
        let mut events = Vec::new();
        if let Command::Move(d) = *c {
            let (hero, at) = Coins::hero(&g)?;
            let to = at + d;
            if !ROOM.contains(to) || to.x == 0 || to.y == 0 || to.x == 19 || to.y == 9 {
                return Err(Rejected::Refused("The wall is in the way."));
            }
            for t in g.things().at(to).to_vec() {
                g.remove_thing_mut(t)?;
                g.set_var_mut(&TAKEN, g.var(&TAKEN)? + 1);
                events.push(g.var(&TAKEN)?);
            }
            g.move_thing_mut(hero, to)?;
        }
        g.set_turn_mut(g.turn() + 1);
        Ok(Outcome { game: g, events })
    }

    fn describe(&self, _: &Game, n: &i32) -> Option<String> {
        Some(format!("You pick up a coin ({n} of {COINS})."))
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

/// The room and the coins, drawn.
impl Board<Coins> for Coins {
    fn keymap(&self) -> &'static [Binding<Command>] {
        KEYS
    }

    fn draw(&self, g: &Game, frame: &mut Frame, area: Rect, _: &View) {
        for l in ROOM.iter() {
            let edge = l.x == 0 || l.y == 0 || l.x == 19 || l.y == 9;
            let ch = match g.things().at(l).last() {
                Some(&t) => g.query(t, &GLYPH).unwrap_or('?'),
                None if edge => '#',
                None => '.',
            };
            let (x, y) = (area.x + l.x as u16, area.y + l.y as u16);
            frame.put_str(x, y, &ch.to_string(), Rgb::WHITE, Rgb::BLACK);
        }
        let taken = g.var(&TAKEN).unwrap_or(0);
        let line = format!("Coins {taken}/{COINS}  Turn {}", g.turn());
        frame.put_str(area.x, area.y + 11, &line, Rgb::WHITE, Rgb::BLACK);
    }

    fn play_area(&self) -> Option<(u16, u16)> {
        Some((20, 12))
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
