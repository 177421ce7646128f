//! Rats in a maze: fetch the cheese from the far end of the maze and bring it back to the
//! way out, past the rats, who smell it once you carry it.
//!
//! The smallest complete game on the game contract: it implements the headless
//! [`Ruleset`], its [`Board`] (one key and the maze's drawing) and the optional
//! [`Journeys`] (explore and travel; the hero never heals, so there is no rest), and gets
//! saves, recordings, `--replay`, `--practice` with `U`, `--wizard`, the morgue file and the
//! score table from `alembic-session`.
//!
//! ```
//! use alembic_rats::{Command, Rats};
//! use alembic_session::Ruleset;
//!
//! let rats = Rats::new()?;
//! let g0 = rats.new_game(7)?;
//! let out = rats.apply(&g0, &Command::Wait).map_err(|e| e.to_string())?;
//! assert_eq!(out.game.turn(), 1);
//! assert_eq!(g0.turn(), 0); // the older value is untouched
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod cunning;
mod planning;
pub use planning::PlanningBot;

use alembic::hook::{HookCall, ON_ACTION};
use alembic::props::Hook;
use alembic::schedule::{NORMAL_ACTION, TurnEnd};
use alembic::wizard::{Args, WizardCommands, WizardError, WizardOutcome, WizardSpec};
use alembic::{Dir, Error, Game, HookCtx, Hooks, Library, Loc, LocBox, Prop, Props, ThingId};
use alembic::{layer::Layer, library::TileId, mapgen::TileMap, path::Search, path::astar};
use alembic_session::launch::Cause;
use alembic_session::ruleset::{Bot, Foe, Goal, Journeys, KeyBot, Policy};
use alembic_session::savefile::{self, Saved};
#[cfg(feature = "board")]
use alembic_session::{
    Board,
    keymap::{Binding, bind},
    mapview::MapView,
    ruleset::View,
};
use alembic_session::{Ending, Outcome, Rejected, Ruleset, Status, Summary};
#[cfg(feature = "board")]
use alembic_ui::{Frame, Key, Rect, put_clipped};
use serde::{Deserialize, Serialize};

/// The maze's width and height, walls included (odd: cells sit on odd coordinates).
pub const WIDTH: i32 = 41;
/// See [`WIDTH`].
pub const HEIGHT: i32 = 19;
/// How far the hero sees along the corridors.
pub const SIGHT: u32 = 7;
const RATS: usize = 9;
const MAZE: LocBox = LocBox::rect(0, 0, WIDTH, HEIGHT, 0);

const HP: Prop<i32> = Prop::with_default("rats.hp", 1);
const GLYPH: Prop<char> = Prop::new("rats.glyph");
const WALK: Prop<bool> = Prop::with_default("rats.walk", false);
const HERO: Prop<ThingId> = Prop::new("rats.hero");
const CHEESE: Prop<ThingId> = Prop::new("rats.cheese");
/// The hero's hit points at the start (the most they have: the hero does not heal).
const HERO_HP: i32 = 10;
const KILLS: Prop<i32> = Prop::with_default("rats.kills", 0);
const ALIVE: Prop<bool> = Prop::with_default("rats.alive", false);
const RAT_TURN: &str = "rats.rat";
const SEEN: Layer<bool> = Layer::new("rats.seen");
/// Set in a game of [`Rats::cunning`]: its rats plan their moves.
const CUNNING: Prop<bool> = Prop::with_default("rats.cunning", false);

/// What the player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// Step (into a rat: bite it back).
    Move(Dir),
    /// Let a turn pass.
    Wait,
    /// Leave the maze: refused anywhere but on the way out with the cheese (where stepping
    /// already wins), so `<` travels to the way out (the session's travel to stairs).
    Leave,
}

/// What happened, typed; the English is [`Rats::describe`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The hero hit a rat for this much, and whether it died of it.
    Hit(i32, bool),
    /// Rats bit the hero for this much in all.
    Bitten(i32),
    /// The hero picked up the cheese: every rat smells it now.
    Cheese,
    /// The hero stands at the way out without the cheese.
    NotYet,
}

/// What [`Rats::apply`] answers.
type Ruled = Result<Outcome<Event>, Rejected<Refusal>>;

/// Why a step was refused, typed (the session says it with `Display`); nothing changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A wall is in the way.
    Wall,
    /// The maze has no diagonal ways.
    Diagonal,
    /// Leaving from anywhere but the way out.
    NotTheWayOut,
    /// Leaving without the cheese.
    NoCheese,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::Wall => "A wall is in the way.",
            Refusal::Diagonal => "The maze has no diagonal ways.",
            Refusal::NotTheWayOut => "The way out is not here (< travels there).",
            Refusal::NoCheese => "You will not leave without the cheese.",
        })
    }
}

/// The rules, with their library and hooks.
#[derive(Clone, Debug)]
pub struct Rats {
    library: Library,
    hooks: Hooks,
    wall: TileId,
    floor: TileId,
    exit: TileId,
    wizard: WizardCommands<Game>,
    /// Whether its rats plan their moves ([`Rats::cunning`]).
    cunning: bool,
}

#[cfg(feature = "board")]
#[rustfmt::skip]
const KEYS: &[Binding<Command>] = &[
    bind(&[Key::Char('.')], ".", Command::Wait, "Keys", "wait a turn"),
    bind(
        &[Key::Char('<')],
        "<",
        Command::Leave,
        "Keys",
        "travel to the way out (step on it with the cheese to win)",
    ),
];

fn reveal(g: &Game, _: &Args) -> Result<WizardOutcome<Game>, WizardError> {
    let mut g = g.clone();
    for l in MAZE.iter() {
        g.set_layer_mut(&SEEN, l, true);
    }
    Ok(WizardOutcome::new(g).line("You know the whole maze."))
}

/// A rat's turn, on the engine's scheduler: bite the hero beside it, else step towards the
/// hero when it smells the cheese on them or is within five steps, else wander.
/// In a game of [`Rats::cunning`] a rat near the hero plans instead (`cunning::rat_turn`).
fn rat_turn(g: &mut Game, ctx: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    if g.var(&CUNNING).unwrap_or(false) {
        return cunning::rat_turn(g, ctx, call);
    }
    plain_rat_turn(g, call.this)
}

/// The plain rules of a rat's turn ([`rat_turn`]'s).
fn plain_rat_turn(g: &mut Game, rat: ThingId) -> Result<(), Error> {
    let (me, hero) = (g.things().location(rat)?, g.var(&HERO)?);
    let at = g.things().location(hero)?;
    let (dx, dy) = (at.x - me.x, at.y - me.y);
    if dx.abs() + dy.abs() == 1 {
        return rat_bites(g, hero);
    }
    let smells = Rats::carried(g) || dx.abs() + dy.abs() <= 5;
    let mut ways: Vec<Loc> = me.neighbours4().filter(|&l| open(g, l)).collect();
    if smells {
        ways.sort_by_key(|l| (at.x - l.x).abs() + (at.y - l.y).abs());
        ways.truncate(1);
    }
    if !ways.is_empty() {
        let pick = ways[g.rng().below(ways.len() as u64) as usize];
        g.move_thing_mut(rat, pick)?;
    }
    Ok(())
}

/// A rat bites the hero: 1 or 2 hit points.
fn rat_bites(g: &mut Game, hero: ThingId) -> Result<(), Error> {
    let bite = 1 + i32::from(g.rng().one_in(1, 2));
    g.set_mut(hero, &HP, g.query(hero, &HP)? - bite)
}

/// The hero bites `rat`: 1 to 3 hit points; a rat left with none dies (and counts as a
/// kill). The bite and whether it killed.
fn hero_bites(g: &mut Game, rat: ThingId) -> Result<(i32, bool), Error> {
    let hit = 1 + g.rng().below(3) as i32;
    let hp = g.query(rat, &HP)? - hit;
    if hp <= 0 {
        g.remove_thing_mut(rat)?;
        g.set_var_mut(&KILLS, g.var(&KILLS)? + 1);
    } else {
        g.set_mut(rat, &HP, hp)?;
    }
    Ok((hit, hp <= 0))
}

/// Floor (what the eye sees through).
fn walk(g: &Game, l: Loc) -> bool {
    g.tile_def(l).is_ok_and(|t| t.is(&WALK))
}

/// Floor with nobody on it (the cheese does not block).
fn open(g: &Game, l: Loc) -> bool {
    walk(g, l) && g.things().at(l).iter().all(|&t| !g.is(t, &ALIVE))
}

impl Rats {
    /// The rules.
    ///
    /// # Errors
    /// The library could not be built, or it names a hook the rules do not register (a bug).
    pub fn new() -> Result<Rats, Error> {
        let creature = |g: char, hp: i32| {
            Props::new()
                .with(&GLYPH, g)
                .with(&HP, hp)
                .with(&ALIVE, true)
        };
        let hero = creature('@', HERO_HP).with(&alembic::library::IS_CONTAINER, true);
        let rat = creature('r', 3).with(&ON_ACTION, Hook::new(RAT_TURN));
        let mut library = Library::new()
            .proclaim("hero", None, hero)?
            .proclaim("rat", None, rat)?
            .proclaim("cheese", None, Props::new().with(&GLYPH, '%'))?;
        let wall = library.define_tile_mut("wall", Props::new().with(&GLYPH, '#'))?;
        let floor =
            library.define_tile_mut("floor", Props::new().with(&GLYPH, '.').with(&WALK, true))?;
        let exit =
            library.define_tile_mut("exit", Props::new().with(&GLYPH, '>').with(&WALK, true))?;
        let hooks = Hooks::new().register(RAT_TURN, rat_turn)?;
        let check = Game::new(0).with_library(library.clone());
        hooks.check(&check)?; // no name the library gives is unregistered
        let wizard = WizardCommands::new()
            .register(WizardSpec::new("map", "See the whole maze."), reveal)
            .map_err(Error::msg)?;
        Ok(Rats {
            library,
            hooks,
            wall,
            floor,
            exit,
            wizard,
            cunning: false,
        })
    }

    /// The rules with cunning rats: a rat within five steps of the hero chooses its move by
    /// trying each on copies of the game (`cunning.rs`, the guide's "a monster that plans").
    /// Not a game of the registry: its games differ from the plain rats' from the first
    /// turn.
    ///
    /// # Errors
    /// As [`Rats::new`].
    pub fn cunning() -> Result<Rats, Error> {
        Ok(Rats {
            cunning: true,
            ..Rats::new()?
        })
    }

    fn chase(g: &Game) -> Option<Command> {
        let (_, at) = Rats::hero(g).ok()?;
        let rat = |l: &Loc| g.things().at(*l).iter().any(|&t| g.is(t, &ALIVE));
        if let Some(r) = at.neighbours4().find(rat) {
            return at.dir_to(r).map(Command::Move);
        }
        let goal = match Rats::carried(g) {
            true => Loc::new(1, 1, 0),
            false => g.things().location(g.var(&CHEESE).ok()?).ok()?,
        };
        let step = |a: Loc, b: Loc| (a.x == b.x || a.y == b.y) && walk(g, b);
        let path = astar(at, goal, &Search::new(MAZE), |a, b| step(a, b).then_some(1)).ok()?;
        path.first_step()
            .and_then(|l| at.dir_to(l))
            .map(Command::Move)
    }

    fn hero(g: &Game) -> Result<(ThingId, Loc), Error> {
        let h = g.var(&HERO)?;
        Ok((h, g.things().location(h)?))
    }

    /// Mark what the hero sees as seen.
    fn look(g: &mut Game) -> Result<(), Error> {
        let (at, walls) = (Rats::hero(g)?.1, g.clone());
        for l in alembic::fov::field_of_view(at, SIGHT, |l| walk(&walls, l)).iter() {
            g.set_layer_mut(&SEEN, l, true);
        }
        Ok(())
    }

    /// Why a game read from a save cannot be played, if it cannot: the hero and the cheese
    /// the rules look up by their variables must be there, the hero on the maze's level
    /// and the cheese on the floor or carried by the hero.
    fn unplayable(g: &Game) -> Option<String> {
        let Ok(hero) = g.var(&HERO) else {
            return Some(format!("it has no hero (no {} variable)", HERO.name()));
        };
        let is_hero = g
            .things()
            .get(hero)
            .is_ok_and(|t| t.proto() == Some("hero"));
        if !is_hero {
            return Some(format!(
                "its {} variable names {hero}, which is not the hero",
                HERO.name()
            ));
        }
        match g.things().location(hero) {
            Ok(at)
                if MAZE.contains(at)
                    && matches!(g.things().place(hero), Ok(alembic::Place::Map(_))) => {}
            _ => return Some("its hero is not in the maze".to_owned()),
        }
        let Ok(cheese) = g.var(&CHEESE) else {
            return Some(format!("it has no cheese (no {} variable)", CHEESE.name()));
        };
        let is_cheese = g
            .things()
            .get(cheese)
            .is_ok_and(|t| t.proto() == Some("cheese"));
        let placed = match g.things().place(cheese) {
            Ok(alembic::Place::Map(l)) => MAZE.contains(l),
            Ok(alembic::Place::In(c)) => c == hero,
            _ => false,
        };
        if !is_cheese || !placed {
            return Some(format!(
                "its {} variable names {cheese}, which is not the cheese in the maze",
                CHEESE.name()
            ));
        }
        None
    }

    /// The rats the hero can see.
    fn rats_in_view(g: &Game) -> usize {
        Rats::rats_seen(g).len()
    }

    /// The live rats the hero sees, and where.
    fn rats_seen(g: &Game) -> Vec<(ThingId, Loc)> {
        let Ok((hero, at)) = Rats::hero(g) else {
            return Vec::new();
        };
        let sees = alembic::fov::field_of_view(at, SIGHT, |l| walk(g, l));
        sees.iter()
            .flat_map(|l| g.things().at(l).iter().map(move |&t| (t, l)))
            .filter(|&(t, _)| t != hero && g.is(t, &ALIVE))
            .collect()
    }

    /// Whether the cheese lies in the hero's view.
    fn cheese_in_view(g: &Game) -> bool {
        let (Ok((_, at)), Ok(cheese)) = (Rats::hero(g), g.var(&CHEESE)) else {
            return false;
        };
        let Ok(alembic::Place::Map(l)) = g.things().place(cheese) else {
            return false;
        };
        at.chebyshev(l) <= SIGHT
            && alembic::fov::field_of_view(at, SIGHT, |c| walk(g, c)).contains(l)
    }

    fn carried(g: &Game) -> bool {
        g.var(&CHEESE)
            .is_ok_and(|c| matches!(g.things().place(c), Ok(alembic::Place::In(_))))
    }
}

impl Ruleset for Rats {
    const NAME: &'static str = "rats";
    const TITLE: &'static str = "R A T S   I N   A   M A Z E";
    const INTRO: &'static [&'static str] = &[
        "The cheese lies at the far end of the maze. Bring it back to the way out (>).",
        "The rats bite; once you carry the cheese, every one of them smells it.",
    ];
    type Command = Command;
    type Event = Event;
    type Refusal = Refusal;

    fn library(&self) -> &Library {
        &self.library
    }

    fn hooks(&self) -> Hooks {
        self.hooks.clone()
    }

    fn new_game(&self, seed: u64) -> Result<Game, Error> {
        let mut g = Game::new(seed).with_library(self.library.clone());
        g.fill_tiles_mut(MAZE, self.wall)?;
        // A maze with ways round (the engine's backtracker, then one opening per column).
        let maze = TileMap::maze(WIDTH, HEIGHT, WIDTH as usize, g.rng()).map_err(Error::msg)?;
        for (l, _) in maze.iter().filter(|(_, floor)| **floor) {
            g.set_tile_mut(l, self.floor)?;
        }
        let start = Loc::new(1, 1, 0);
        g.set_tile_mut(start, self.exit)?;
        let hooks = self.hooks();
        let mut ctx = HookCtx::new(&hooks);
        let hero = g.spawn_mut(&mut ctx, "hero", start)?;
        let cheese = g.spawn_mut(&mut ctx, "cheese", Loc::new(WIDTH - 2, HEIGHT - 2, 0))?;
        g.set_var_mut(&HERO, hero);
        g.set_var_mut(&CHEESE, cheese);
        // Rats anywhere on the floor but near the way in.
        let floor: Vec<Loc> = MAZE
            .iter()
            .filter(|&l| l.x + l.y > 12 && open(&g, l))
            .collect();
        for _ in 0..RATS {
            let i = g.rng().below(floor.len() as u64) as usize;
            let l = *floor
                .get(i)
                .ok_or_else(|| Error::msg("no floor for the rats"))?;
            g.spawn_mut(&mut ctx, "rat", l)?;
        }
        g.scheduler().set_awake_levels([0])?;
        if self.cunning {
            g.set_var_mut(&CUNNING, true);
        }
        Rats::look(&mut g)?;
        Ok(g)
    }

    fn apply(&self, game: &Game, command: &Command) -> Ruled {
        let mut g = game.clone();
        let mut events = Vec::new();
        let (hero, at) = Rats::hero(&g)?;
        if *command == Command::Leave {
            // On the way out with the cheese the step there has won already.
            return Err(Rejected::Refused(if g.tile(at) == self.exit {
                Refusal::NoCheese
            } else {
                Refusal::NotTheWayOut
            }));
        }
        if let Command::Move(d) = *command {
            let to = at + d;
            if to.x != at.x && to.y != at.y {
                return Err(Rejected::Refused(Refusal::Diagonal));
            }
            let rat = g.things().at(to).iter().copied().find(|&t| g.is(t, &ALIVE));
            if let Some(rat) = rat {
                let (hit, killed) = hero_bites(&mut g, rat)?;
                events.push(Event::Hit(hit, killed));
            } else if !g.tile_def(to)?.is(&WALK) {
                return Err(Rejected::Refused(Refusal::Wall));
            } else {
                g.move_thing_mut(hero, to)?;
                let cheese = g.var(&CHEESE)?;
                if g.things().place(cheese)? == alembic::Place::Map(to) {
                    g.move_thing_mut(cheese, hero)?;
                    events.push(Event::Cheese);
                }
                if g.tile(to) == self.exit && !Rats::carried(&g) {
                    events.push(Event::NotYet);
                }
            }
        }
        let before = g.query(hero, &HP)?;
        if !matches!(self.status(&g), Status::Over(_)) {
            let hooks = &self.hooks;
            let over = |g: &Game| g.query(hero, &HP).is_ok_and(|hp| hp <= 0);
            let _: TurnEnd =
                g.end_turn_mut(&mut HookCtx::new(hooks), hero, NORMAL_ACTION, 1000, over)?;
        }
        let bitten = before - g.query(hero, &HP)?;
        if bitten > 0 {
            events.push(Event::Bitten(bitten));
        }
        Rats::look(&mut g)?;
        Ok(Outcome { game: g, events })
    }

    fn describe(&self, _: &Game, event: &Event) -> Option<String> {
        Some(match event {
            Event::Hit(n, false) => format!("You bite the rat ({n})."),
            Event::Hit(n, true) => format!("You bite the rat ({n}). It dies."),
            Event::Bitten(n) => format!("A rat bites you ({n})."),
            Event::Cheese => "You take the cheese. Somewhere, whiskers twitch.".into(),
            Event::NotYet => "The way out. You came for the cheese, though.".into(),
        })
    }

    fn status(&self, g: &Game) -> Status {
        let over = |won, cause| Status::Over(Ending::new(won, cause));
        match Rats::hero(g) {
            Ok((h, _)) if g.query(h, &HP).is_ok_and(|hp| hp <= 0) => over(false, "eaten by rats"),
            Ok((_, at)) if g.tile(at) == self.exit && Rats::carried(g) => {
                over(true, "escaped with the cheese")
            }
            _ => Status::Playing,
        }
    }

    /// The session's save, then what the rules need to play it: a save edited by hand so
    /// that it has no hero (or no cheese) is refused here, in a sentence, not met later as
    /// an internal error on every move.
    fn load_text(&self, text: &str) -> Result<Saved, Cause> {
        let saved = savefile::from_text(
            Self::NAME,
            Self::SAVE_VERSION,
            &self.library,
            &self.hooks,
            text,
        )?;
        match Rats::unplayable(&saved.game) {
            None => Ok(saved),
            Some(why) => Err(format!("not a valid rats save: {why}").into()),
        }
    }

    fn bot(&self, seed: u64, p: Policy) -> Option<Box<dyn Bot<Command> + '_>> {
        Some(match p {
            Policy::Explore => Box::new(Rats::chase),
            Policy::Plan => Box::new(crate::PlanningBot::new(self, seed)),
            // The fuzzer presses the wait key (`.`) and the steps.
            Policy::Random => {
                let mut keys = vec![Command::Wait];
                keys.extend(Dir::COMPASS.iter().filter_map(|&d| self.step(d)));
                Box::new(KeyBot::from_commands(keys, seed))
            }
        })
    }

    fn journeys(&self) -> Option<&dyn Journeys<Command>> {
        Some(self)
    }

    fn step(&self, dir: Dir) -> Option<Command> {
        let o = dir.offset();
        ((o.x == 0 || o.y == 0) && o.z == 0).then_some(Command::Move(dir))
    }

    fn wizard(&self) -> Option<&WizardCommands<Game>> {
        Some(&self.wizard)
    }

    fn summary(&self, g: &Game) -> Summary {
        let kills = g.var(&KILLS).unwrap_or(0);
        let won = matches!(self.status(g), Status::Over(Ending { won: true, .. }));
        // 10 a rat, and for escaping 1,000 less a point a turn (at least 100).
        let score = kills as u64 * 10 + u64::from(won) * 1000u64.saturating_sub(g.turn()).max(100);
        Summary {
            score,
            depth: 1,
            deepest: 1,
            kills: i64::from(kills),
            lines: vec![
                format!("Rats killed: {kills}"),
                match (won, Rats::carried(g)) {
                    (true, _) => "The cheese: carried out of the maze".to_owned(),
                    (false, true) => "The cheese: taken, but never carried out".to_owned(),
                    (false, false) => "The cheese: still where it lay".to_owned(),
                },
            ],
        }
    }

    fn epitaph(&self, g: &Game) -> Option<String> {
        // One maze, no depths: "eaten by rats on depth 1" would be odd.
        match self.status(g) {
            Status::Over(e) if e.won => Some("You escaped with the cheese!".to_owned()),
            Status::Over(_) if Rats::carried(g) => {
                Some("You were eaten by rats, the cheese still in your jaws.".to_owned())
            }
            Status::Over(_) => Some("You were eaten by rats in the maze.".to_owned()),
            Status::Playing => None,
        }
    }
}

/// The rats are their own board: one key, the maze and a status line.
#[cfg(feature = "board")]
impl Board<Rats> for Rats {
    fn keymap(&self) -> &'static [Binding<Command>] {
        KEYS
    }

    fn play_area(&self) -> Option<(u16, u16)> {
        Some((WIDTH as u16, HEIGHT as u16 + 1))
    }

    /// The maze cell under the pointer, as drawn: a click there travels.
    fn cell_at(&self, g: &Game, area: Rect, x: u16, y: u16) -> Option<Loc> {
        let (_, eye) = Rats::hero(g).ok()?;
        let map = area.split_bottom(1).0;
        MapView::new(MAZE, eye, SIGHT, &SEEN)
            .viewport(map)
            .loc_at(x, y)
    }

    /// What the pointer rests on: what the player has seen there.
    fn describe_cell(&self, g: &Game, l: Loc) -> Option<String> {
        if !g.layers().get(&SEEN).get(l) {
            return None;
        }
        let cheese = g.var(&CHEESE).ok();
        let lit = Rats::hero(g).is_ok_and(|(_, at)| {
            alembic::fov::field_of_view(at, SIGHT, |c| walk(g, c)).contains(l)
        });
        let what = g.things().at(l).iter().rev().find_map(|&t| {
            if Some(t) == cheese {
                Some("the cheese")
            } else if lit && g.is(t, &ALIVE) {
                Some(if g.var(&HERO).ok() == Some(t) {
                    "you"
                } else {
                    "a rat"
                })
            } else {
                None
            }
        });
        Some(match what {
            Some(w) => w.to_owned(),
            None if g.tile(l) == self.exit => "the way out".to_owned(),
            None if walk(g, l) => "a passage".to_owned(),
            None => "a wall".to_owned(),
        })
    }

    fn draw(&self, g: &Game, frame: &mut Frame, area: Rect, _: &View) {
        let Ok((hero, eye)) = Rats::hero(g) else {
            return;
        };
        let (map, bar) = area.split_bottom(1);
        let cheese = g.var(&CHEESE).ok();
        let seen = g.layers().get(&SEEN);
        let look = |l: Loc, lit: bool| {
            // The cheese never moves: once seen, it is remembered where it lay.
            let thing = g
                .things()
                .at(l)
                .last()
                .filter(|&&t| lit || (Some(t) == cheese && seen.get(l)));
            let ch = match thing {
                Some(&t) => g.query(t, &GLYPH).ok()?,
                None => g.tile_def(l).ok()?.get(&GLYPH).ok()?,
            };
            let fg = match (ch, lit) {
                ('r', _) => alembic::Rgb::new(200, 120, 90),
                (_, true) if thing.is_some() => alembic::Rgb::new(255, 220, 120),
                (_, true) => alembic::Rgb::new(200, 200, 190),
                _ => alembic::Rgb::new(90, 90, 100),
            };
            Some((ch, fg))
        };
        MapView::new(MAZE, eye, SIGHT, &SEEN).draw(g, frame, map, look, |l| walk(g, l));
        let (hp, kills) = (
            g.query(hero, &HP).unwrap_or(0).max(0),
            g.var(&KILLS).unwrap_or(0),
        );
        let cheese = ["", "  carrying the cheese"][usize::from(Rats::carried(g))];
        let text = format!(
            "HP {hp}/{HERO_HP}  Turn {}  Rats killed {kills}{cheese}",
            g.turn()
        );
        put_clipped(
            frame,
            bar,
            bar.x,
            bar.y,
            &text,
            alembic::Rgb::WHITE,
            alembic::Rgb::BLACK,
        );
    }
}

/// Explore (`o`) and travel (a click) over the maze the hero has seen. The hero does not heal
/// and nothing is hidden, so there is no rest and no search.
impl Journeys<Command> for Rats {
    fn route(&self, g: &Game, goal: Goal) -> Option<Dir> {
        let (_, at) = Rats::hero(g).ok()?;
        let seen = g.layers().get(&SEEN);
        let known = |l: Loc| MAZE.contains(l) && seen.get(l) && walk(g, l);
        let arrived = |l: Loc| match goal {
            // A seen floor cell beside one not yet seen.
            Goal::Explore => l.neighbours4().any(|n| MAZE.contains(n) && !seen.get(n)),
            Goal::Stairs { .. } => g.tile(l) == self.exit,
            Goal::Cell(c) => l == c,
        };
        // Through the rats too: a step into one bites it, which ends the journey there (a
        // rat in a corridor is the way, not the end of it).
        first_step(at, known, |l| l == at || walk(g, l), arrived)
    }

    fn fights(&self) -> bool {
        true
    }

    /// The rats in view, nearest by the maze first; the way to one goes through the others
    /// (a step into a rat bites it).
    fn foes(&self, g: &Game) -> Vec<Foe> {
        let Ok((_, at)) = Rats::hero(g) else {
            return Vec::new();
        };
        let seen = g.layers().get(&SEEN);
        let known = |l: Loc| MAZE.contains(l) && seen.get(l) && walk(g, l);
        let mut foes: Vec<(usize, Foe)> = Rats::rats_seen(g)
            .into_iter()
            .filter_map(|(rat, l)| {
                let (step, far) = way(at, known, |c| c == at || walk(g, c), |c| c == l)?;
                let name = "a rat".to_owned();
                Some((
                    far,
                    Foe {
                        id: rat,
                        name,
                        step,
                    },
                ))
            })
            .collect();
        foes.sort_by_key(|(far, f)| (*far, f.id));
        foes.into_iter().map(|(_, f)| f).collect()
    }

    fn health(&self, g: &Game) -> Option<(i64, i64)> {
        let (hero, _) = Rats::hero(g).ok()?;
        Some((
            i64::from(g.query(hero, &HP).ok()?.max(0)),
            i64::from(HERO_HP),
        ))
    }

    fn interrupt(&self, before: &Game, after: &Game) -> Option<String> {
        if Rats::rats_in_view(after) > Rats::rats_in_view(before) {
            return Some("A rat comes into view.".to_owned());
        }
        (Rats::cheese_in_view(after) && !Rats::cheese_in_view(before))
            .then(|| "You see the cheese.".to_owned())
    }
}

/// The first step of a shortest way from `from` over `known` cells that are `free` to the
/// nearest cell where `arrived` holds (breadth first, four ways, in the compass's order so
/// the same maze gives the same way); `None` when none can be reached or `from` is one.
fn first_step(
    from: Loc,
    known: impl Fn(Loc) -> bool,
    free: impl Fn(Loc) -> bool,
    arrived: impl Fn(Loc) -> bool,
) -> Option<Dir> {
    way(from, known, free, arrived).map(|(d, _)| d)
}

/// [`first_step`], with the way's length in steps.
fn way(
    from: Loc,
    known: impl Fn(Loc) -> bool,
    free: impl Fn(Loc) -> bool,
    arrived: impl Fn(Loc) -> bool,
) -> Option<(Dir, usize)> {
    if arrived(from) {
        return None;
    }
    let mut came: std::collections::HashMap<Loc, Loc> = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    came.insert(from, from);
    while let Some(l) = queue.pop_front() {
        for n in l.neighbours4() {
            if came.contains_key(&n) || !known(n) || !free(n) {
                continue;
            }
            came.insert(n, l);
            if arrived(n) {
                let (mut step, mut far) = (n, 1);
                while came[&step] != from {
                    step = came[&step];
                    far += 1;
                }
                return from.dir_to(step).map(|d| (d, far));
            }
            queue.push_back(n);
        }
    }
    None
}

/// This crate's README, whose code is compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
