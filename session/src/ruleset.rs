//! The game contract: what a game implements once to get saves, recordings, the replay
//! viewer, practice with undo, the wizard console, the morgue file and the score table in
//! every frontend ([`crate::play`]), and the headless runner.
//!
//! The shape follows zemeroth's: a command is checked and executed by the game's
//! [`Ruleset::apply`], which answers the new state and typed events, or a refusal; the
//! session turns events into English ([`Ruleset::describe`]) and keeps that English out of
//! the game value, so rewording a message never changes a game's hash or breaks a recording.
//!
//! ```
//! use alembic::{Game, Hooks, Library};
//! use alembic_session::ruleset::{Ending, Outcome, Rejected, Ruleset, Status};
//!
//! /// Count to three.
//! struct Count { library: Library }
//!
//! #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
//! enum Cmd { Up }
//!
//! /// Why a count was refused, typed: the session says it with `Display`.
//! #[derive(Debug, PartialEq)]
//! enum Refusal { Done }
//! impl std::fmt::Display for Refusal {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         f.write_str("You have counted to three already.")
//!     }
//! }
//!
//! impl Ruleset for Count {
//!     const NAME: &'static str = "count";
//!     const TITLE: &'static str = "C O U N T";
//!     type Command = Cmd;
//!     type Event = u64;
//!     type Refusal = Refusal;
//!
//!     fn library(&self) -> &Library { &self.library }
//!     fn hooks(&self) -> Hooks { Hooks::new() }
//!     fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
//!         Ok(Game::new(seed).with_library(self.library.clone()))
//!     }
//!     fn apply(&self, game: &Game, _: &Cmd) -> Result<Outcome<u64>, Rejected<Refusal>> {
//!         if game.turn() >= 3 {
//!             return Err(Rejected::Refused(Refusal::Done));
//!         }
//!         let mut g = game.clone();
//!         g.set_turn_mut(g.turn() + 1);
//!         Ok(Outcome { events: vec![g.turn()], game: g })
//!     }
//!     fn describe(&self, _: &Game, n: &u64) -> Option<String> { Some(format!("{n}!")) }
//!     fn status(&self, game: &Game) -> Status {
//!         if game.turn() >= 3 {
//!             Status::Over(Ending { won: true, cause: "counted to three".into() })
//!         } else {
//!             Status::Playing
//!         }
//!     }
//! }
//!
//! let rules = Count { library: Library::new() };
//! let g = rules.new_game(1)?;
//! let out = rules.apply(&g, &Cmd::Up).map_err(|e| e.to_string())?;
//! assert_eq!(rules.describe(&out.game, &out.events[0]).as_deref(), Some("1!"));
//! let mut g = out.game;
//! for _ in 0..2 {
//!     g = rules.apply(&g, &Cmd::Up).map_err(|e| e.to_string())?.game;
//! }
//! assert!(matches!(rules.apply(&g, &Cmd::Up), Err(Rejected::Refused(Refusal::Done))));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! These rules need no screen: the headless runner, bots and tests play them as they are.
//! To be played in a frontend, a game adds a board ([`crate::board::Board`]: its keys and
//! its drawing), usually on the same type.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use alembic::{Dir, Game, Hooks, Library, Loc, ThingId, rng::GameRng, wizard::WizardCommands};
use serde::{Serialize, de::DeserializeOwned};

use crate::gamedata::DataIdentity;
use crate::launch::Cause;
use crate::modes::Modes;
use crate::savefile::{SaveError, Saved};

/// What a command did: the new state and what happened, as typed events (the screen and the
/// message log are made from them).
#[derive(Clone, Debug)]
pub struct Outcome<E> {
    /// The game after the command.
    pub game: Game,
    /// What happened, in order.
    pub events: Vec<E>,
}

/// Why a command was not applied. Nothing changed either way.
#[derive(Debug)]
pub enum Rejected<F> {
    /// A rule said no ("There is a wall in the way."): no time passed.
    Refused(F),
    /// The engine refused a call: a bug in the game's rules or data, never the player's.
    Engine(alembic::Error),
}

impl<F: fmt::Display> fmt::Display for Rejected<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejected::Refused(r) => r.fmt(f),
            Rejected::Engine(e) => write!(f, "internal error: {e}"),
        }
    }
}

impl<F> From<alembic::Error> for Rejected<F> {
    fn from(e: alembic::Error) -> Self {
        Rejected::Engine(e)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Whether the player won.
    pub won: bool,
    /// How, as the end screen and the score table say it: "killed by a rat", "escaped
    /// with the cheese".
    pub cause: String,
}

impl Ending {
    /// An ending: won or not, and how.
    #[must_use]
    pub fn new(won: bool, cause: impl Into<String>) -> Self {
        Ending {
            won,
            cause: cause.into(),
        }
    }
}

/// Whether a game goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The player is still playing.
    Playing,
    /// The game is over.
    Over(Ending),
}

/// A game at its end (or as it stands), for the morgue file and the score table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The points the score table ranks by.
    pub score: u64,
    /// The depth where the game ended (0 for a game without levels).
    pub depth: i32,
    /// The deepest level reached (0 for a game without levels).
    pub deepest: i32,
    /// Monsters the player killed.
    pub kills: i64,
    /// The morgue file's lines about the game (the session adds the heading, how it ended
    /// and the last messages).
    pub lines: Vec<String>,
}

/// A game's end as its morgue file is written ([`Ruleset::morgue`]).
#[derive(Clone, Copy, Debug)]
pub struct GameEnd<'a> {
    /// The game at its end.
    pub game: &'a Game,
    /// Its seed; `None` when it is not known (a game continued from a save that does not
    /// keep it, without its recording).
    pub seed: Option<u64>,
    /// Its modes (practice, wizard, data).
    pub modes: &'a Modes,
    /// The player quit.
    pub quit: bool,
    /// How it ended ("quit" when the player quit).
    pub ending: &'a Ending,
    /// Where its recording was kept.
    pub recording: Option<&'a Path>,
    /// The message log with the turn of each line, oldest first.
    pub messages: &'a [(u64, String)],
    /// Seconds since 1970.
    pub unix_secs: u64,
}

/// How the play screen is asked to draw, beyond the game itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// Draw pictures where the frontend shows tiles (`--tiles`).
    pub tiles: bool,
    /// The view toggles on ([`crate::board::Board::view_toggles`]), one bit each.
    pub toggles: u32,
    /// The game shown is a recording's (the replay viewer, whose bar has its own key
    /// hints): a board leaves out the hints of its play keys.
    pub replaying: bool,
}

/// Where the player asks to go, many steps at once: the game answers the next step
/// ([`Journeys::route`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The nearest place not yet explored (`o`).
    Explore,
    /// The nearest known stairs (`>` or `<` away from stairs).
    Stairs {
        /// Down rather than up.
        down: bool,
    },
    /// A cell the player clicked.
    Cell(Loc),
}

/// A game, as the session, the frontends and the headless runner see it. Implement it and
/// the game gets, with no code of its own: a start screen (continue, new game, scores),
/// saves with their lock and autosave, recordings that are the save's journal, `--practice`
/// with `U` and the rewind on death, `--wizard` with its console, `--replay` with step back,
/// a morgue file and a top-20 score table, in the terminal, the window and the browser.
///
/// The state is the engine's [`Game`] value: the session keeps it in a
/// [`History`](alembic::history::History) for undo, saves it as a
/// [`SavedGame`](alembic::save::SavedGame) linked to [`Ruleset::library`] and
/// [`Ruleset::hooks`], and checks recordings with [`Game::state_hash`].
pub trait Ruleset: Send + Sync + 'static {
    /// The game's name on command lines, in save files and recordings (`--game NAME`).
    const NAME: &'static str;
    /// The start screen's heading.
    const TITLE: &'static str;
    /// The start screen's lines under the heading.
    const INTRO: &'static [&'static str] = &[];
    /// The save format's version, written in every save; a save of another version is
    /// refused with a sentence.
    const SAVE_VERSION: u32 = 1;

    /// What the player asks for: one key, one command; recorded in the recordings.
    type Command: Clone
        + fmt::Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + 'static;
    /// What happened, typed: the log's English is made from these.
    type Event: Clone + fmt::Debug + 'static;
    /// Why a rule said no, for the player.
    type Refusal: fmt::Display + fmt::Debug;

    /// The prototypes and tiles games are made from (saves refer to it by name and version).
    fn library(&self) -> &Library;
    /// The hooks the game's things name (a save is linked to them on load).
    fn hooks(&self) -> Hooks;
    /// A new game from `seed`. Deterministic: the same seed, the same game.
    ///
    /// # Errors
    /// The engine refused a call (a bug in the game's data or rules).
    fn new_game(&self, seed: u64) -> Result<Game, alembic::Error>;
    /// A new game from `seed` in `modes`, as a save or a recording lists them
    /// ([`Modes::parse`] reads a header's strings). Default: [`Ruleset::new_game`], after
    /// checking that the modes' data ([`Modes::data`], the `mod:NAME` and `data:HASH`
    /// strings) is this ruleset's ([`Ruleset::data`]); a game with wizard commands reads
    /// [`Modes::wizard`] here.
    ///
    /// # Errors
    /// [`alembic::Error::Msg`] with one sentence when the modes name other data; as
    /// [`Ruleset::new_game`].
    fn new_game_in_modes(&self, seed: u64, modes: &Modes) -> Result<Game, alembic::Error> {
        self.data()
            .check_save(&modes.data)
            .map_err(|e| alembic::Error::Msg(e.to_string().into()))?;
        self.new_game(seed)
    }
    /// Check and execute one command. Deterministic, and `game` is untouched.
    ///
    /// # Errors
    /// [`Rejected::Refused`] when a rule says no; [`Rejected::Engine`] for a bug.
    fn apply(
        &self,
        game: &Game,
        command: &Self::Command,
    ) -> Result<Outcome<Self::Event>, Rejected<Self::Refusal>>;
    /// The English of `event` for the message log (`None`: nothing to say), with `game`
    /// the state after the command.
    fn describe(&self, game: &Game, event: &Self::Event) -> Option<String>;
    /// Whether the game goes on.
    fn status(&self, game: &Game) -> Status;
    /// The end screen's first line, in the game's own words ("You climbed out of the
    /// dungeon with the Philosopher's Stone!"). Default: none, and the end screen says
    /// "You {cause}." for a win and "You were {cause} on depth N." for a death.
    fn epitaph(&self, game: &Game) -> Option<String> {
        let _ = game;
        None
    }
    /// What the messages say when a new game begins ("You enter the dungeon."). Default:
    /// nothing.
    fn opening(&self, game: &Game) -> Vec<String> {
        let _ = game;
        Vec::new()
    }
    /// The game at its end, for the morgue file and the score table. Default: no points.
    fn summary(&self, game: &Game) -> Summary {
        Summary {
            score: 0,
            depth: 0,
            deepest: 0,
            kills: 0,
            lines: vec![format!("Turns: {}", game.turn())],
        }
    }
    /// The command that steps once in `dir`, for running (Shift+direction) and travel.
    /// Default: none (the game has no steps; running and travel are off).
    fn step(&self, dir: Dir) -> Option<Self::Command> {
        let _ = dir;
        None
    }
    /// The data this game plays with, as saves and recordings name it (shipped, or mods).
    fn data(&self) -> DataIdentity {
        DataIdentity::shipped()
    }
    /// The save text of `game`. Default: [`crate::savefile::to_text`] (the envelope around
    /// the engine's `SavedGame`).
    ///
    /// # Errors
    /// [`SaveError`].
    fn save_text(&self, game: &Game, seed: u64, modes: &Modes) -> Result<String, SaveError>
    where
        Self: Sized,
    {
        crate::savefile::to_text(
            Self::NAME,
            Self::SAVE_VERSION,
            self.library(),
            game,
            seed,
            modes,
        )
    }
    /// A save read back, checked. Default: [`crate::savefile::from_text`].
    ///
    /// # Errors
    /// The sentence of what is wrong; nothing is half-loaded.
    fn load_text(&self, text: &str) -> Result<Saved, Cause>
    where
        Self: Sized,
    {
        let (name, version) = (Self::NAME, Self::SAVE_VERSION);
        crate::savefile::from_text(name, version, self.library(), &self.hooks(), text)
            .map_err(|e| Box::new(e) as Cause)
    }
    /// The morgue file of a game's end. Default: `None`, and the session writes its own
    /// (how it ended, the seed and modes, [`Ruleset::summary`], the last messages).
    fn morgue(&self, end: &GameEnd<'_>) -> Option<String> {
        let _ = end;
        None
    }
    /// The score table's file name in the data directory. Default: `NAME-scores.json`.
    fn scores_file(&self) -> String {
        format!("{}-scores.json", Self::NAME)
    }
    /// Whether `game` was made in wizard mode, when the game keeps that in its value (a
    /// recording's wizard line is then refused in a game that was not: a scored game never
    /// replays wizard lines). Default: unknown, and only the session's own modes decide.
    fn is_wizard_game(&self, game: &Game) -> Option<bool> {
        let _ = game;
        None
    }
    /// The wizard console's commands (the engine's registry: typed arguments, usage and
    /// help for free). Default: none.
    fn wizard(&self) -> Option<&WizardCommands<Game>> {
        None
    }
    /// Whether [`Ruleset::reloaded`] reads the game's data again: the wizard console then
    /// offers `reload`. Default: no.
    fn reloads(&self) -> bool {
        false
    }
    /// The same rules on their data read again from its files (a data directory, mods),
    /// for the wizard console's `reload`: the game in play is moved onto the new library
    /// and things take the new values.
    ///
    /// # Errors
    /// The data's mistakes, or a game that does not reload ([`Ruleset::reloads`]); nothing
    /// changes then.
    fn reloaded(&self) -> Result<Self, crate::launch::Cause>
    where
        Self: Sized,
    {
        Err(format!("{} has no data to read again.", Self::NAME).into())
    }
    /// The game's answers for journeys: rest (`Z`), search (`s`), explore (`o`), travel
    /// and auto-fight. Default: `None`, and the session offers none of them (no key, no help
    /// line); a game that answers returns `Some(self)` and implements [`Journeys`].
    fn journeys(&self) -> Option<&dyn Journeys<Self::Command>> {
        None
    }
    /// The questions the game asks before a command (which item, which direction, where,
    /// yes or no, how many, what text), asked by the keys of its board's `asks` table.
    /// Default: `None`, and those keys do nothing; a game that asks returns `Some(self)` and
    /// implements [`crate::ask::Questions`].
    fn questions(&self) -> Option<&dyn crate::ask::Questions<Self::Command>> {
        None
    }
    /// The game's bot for `policy`, started from `seed` (the headless runner, `alembic-sim`,
    /// and the bot harness play with it). Default: `None`, and the runner presses random
    /// waits and steps ([`KeyBot`]).
    fn bot(&self, seed: u64, policy: Policy) -> Option<Box<dyn Bot<Self::Command> + '_>> {
        let _ = (seed, policy);
        None
    }
}

/// Why a rest or a search may not begin ([`Journeys::may_rest`]): its `Display` is the
/// sentence for the player ("Not with a bat in view.").
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RestRefused(pub String);

/// The optional capability behind rest (`Z`), search (`s`), explore (`o`), travel (a
/// click, `>` and `<` away from stairs) and auto-fight: a game that implements it and returns
/// it from [`Ruleset::journeys`] gets those keys in every frontend, and a game that does not
/// is never offered them. Running (Shift+direction) needs only [`Ruleset::step`]; rest and
/// search need [`Journeys::wait`] too.
pub trait Journeys<C>: Send + Sync {
    /// The next step towards `goal`, over ground the player knows; `None` when there is no
    /// way (or nothing left to explore).
    fn route(&self, game: &Game, goal: Goal) -> Option<Dir>;
    /// [`Journeys::route`] under the player's view toggles (a game's options, such as
    /// autopickup: explore goes to the items it sees too). Default: `route`.
    fn route_in(&self, game: &Game, goal: Goal, view: &View) -> Option<Dir> {
        let _ = view;
        self.route(game, goal)
    }
    /// What explore does where the hero stands before it steps on, under the view toggles
    /// (autopickup: pick up what lies here, when it can be picked up). Default: nothing.
    fn explore_here(&self, game: &Game, view: &View) -> Option<C> {
        let _ = (game, view);
        None
    }
    /// The command that lets a turn pass, for resting (`Z`) and searching (`s`). Default:
    /// none, and neither is offered (a game where the hero does not heal and nothing is
    /// hidden).
    fn wait(&self) -> Option<C> {
        None
    }
    /// Whether a rest is over (healed): a rest also ends when [`Journeys::interrupt`]
    /// says so, a step is refused or says anything. Default: never.
    fn rested(&self, game: &Game) -> bool {
        let _ = game;
        false
    }
    /// Whether a rest (or with `search`, a search) may begin now: `Err` says why not ("Not
    /// with a bat in view."). Default: yes.
    ///
    /// # Errors
    /// [`RestRefused`]: the sentence for the player.
    fn may_rest(&self, game: &Game, search: bool) -> Result<(), RestRefused> {
        let _ = (game, search);
        Ok(())
    }
    /// Whether a travel, an explore or a run may begin now: `Err` says why not ("Not with
    /// a goblin in view."), and no step is taken. Default: yes (a step that meets trouble
    /// stops by [`Journeys::interrupt`]).
    ///
    /// # Errors
    /// The sentence for the player.
    fn may_go(&self, game: &Game) -> Result<(), RestRefused> {
        let _ = game;
        Ok(())
    }
    /// What to add when explore finds nothing left to explore (the session says "There is
    /// nothing left to explore from here."): a hint at where to go on, such as the Caves'
    /// sense of the stairs behind rock. Default: nothing.
    fn explored_out(&self, game: &Game) -> Option<String> {
        let _ = game;
        None
    }
    /// Whether the game has auto-fight (`Tab`): it answers [`Journeys::foes`] and
    /// [`Journeys::health`]. Default: no, and the session offers no `Tab` (no key, no help
    /// line).
    fn fights(&self) -> bool {
        false
    }
    /// The hostile creatures in view that the hero can fight, nearest first, each with the
    /// hero's next step to it (into it when beside it: a bump attacks). A creature that
    /// cannot reach the hero and cannot be reached (across water, behind a gate) is left
    /// out: it blocks nothing. Default: none.
    fn foes(&self, game: &Game) -> Vec<Foe> {
        let _ = game;
        Vec::new()
    }
    /// The hero's hit points and their most, for auto-fight's stop
    /// ([`FIGHT_UNTIL_PERCENT`](crate::journey::FIGHT_UNTIL_PERCENT)) and the "Low HP!"
    /// warning ([`LOW_HEALTH_PERCENT`](crate::play::LOW_HEALTH_PERCENT)). Default: unknown,
    /// and a fight stops only when its foe is gone or another comes into view.
    fn health(&self, game: &Game) -> Option<(i64, i64)> {
        let _ = game;
        None
    }
    /// Whether what a journey's step said (it took the game from `before` to `after`) is no
    /// reason to stop, such as opening a door on the way. Default: no, and a step that says
    /// anything stops a run, a rest or a travel.
    fn says_nothing_new(&self, before: &Game, after: &Game) -> bool {
        let _ = (before, after);
        false
    }
    /// Where the hero stands, for the session's memory of what a journey was told where:
    /// walking onto a place again that says what it said the first time ("You see a
    /// buckler.") does not stop a journey twice. Default: unknown, and every time stops.
    fn place(&self, game: &Game) -> Option<Loc> {
        let _ = game;
        None
    }
    /// Why a run, a rest or a travel must stop after one of its steps took the game from
    /// `before` to `after` ("A bat comes into view."); the session also stops when a step is
    /// refused or says anything. Default: never.
    fn interrupt(&self, before: &Game, after: &Game) -> Option<String> {
        let _ = (before, after);
        None
    }
    /// [`Journeys::interrupt`] with the session's memory of what it has announced in this
    /// game (`told`, things by id, kept beside the game and never saved): a game that says
    /// "A goblin comes into view." once a creature adds it there, and stops for it again
    /// only for another reason (it is after the hero). Default: `interrupt`, with no memory.
    fn interrupt_told(
        &self,
        before: &Game,
        after: &Game,
        told: &mut HashSet<ThingId>,
    ) -> Option<String> {
        let _ = told;
        self.interrupt(before, after)
    }
}

/// A creature auto-fight (`Tab`) may go for ([`Journeys::foes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foe {
    /// Which creature: the fight is over when it is no longer among the foes (dead, fled).
    pub id: ThingId,
    /// Its name with an article, for the player ("a giant rat").
    pub name: String,
    /// The hero's next step: towards it, or into it when beside it.
    pub step: Dir,
}

/// How a bot plays: the game's explorer, its planner, or a fuzzer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Random commands (a fuzzer).
    Random,
    /// The game's exploring bot, playing to win.
    Explore,
    /// The game's planning bot, playing to win by search on clones of the game
    /// ([`plan`](crate::plan)); a game without one plays its exploring bot.
    Plan,
}

/// A bot: chooses a game's commands one at a time, keeping whatever plan it likes.
///
/// Any `FnMut(&Game) -> Option<C>` is a bot that never plans.
pub trait Bot<C> {
    /// The next command; `None` when the bot has nothing to do.
    fn choose(&mut self, game: &Game) -> Option<C>;
    /// The last command was refused (it took no time): forget whatever plan led to it.
    fn refused(&mut self) {}
}

impl<C, F: FnMut(&Game) -> Option<C>> Bot<C> for F {
    fn choose(&mut self, game: &Game) -> Option<C> {
        self(game)
    }
}

/// The bot every ruleset has: a random wait ([`Journeys::wait`]) or a random step
/// ([`Ruleset::step`]), from a seeded generator (the same seed presses the same keys).
pub struct KeyBot<C> {
    keys: Vec<C>,
    rng: GameRng,
}

impl<C: Clone + 'static> KeyBot<C> {
    /// The random keys of `rules`, seeded with `seed`.
    pub fn new<R: Ruleset<Command = C>>(rules: &R, seed: u64) -> Self {
        let mut keys: Vec<C> = rules
            .journeys()
            .and_then(|j| j.wait())
            .into_iter()
            .collect();
        keys.extend(Dir::COMPASS.iter().filter_map(|&d| rules.step(d)));
        KeyBot::from_commands(keys, seed)
    }

    /// A bot that presses one of `commands` at random, seeded with `seed` (a game's fuzzer
    /// over a list of its own).
    #[must_use]
    pub fn from_commands(commands: Vec<C>, seed: u64) -> Self {
        KeyBot {
            keys: commands,
            rng: GameRng::seed_from(seed ^ 0x05EE_DB07),
        }
    }
}

impl<C: Clone> Bot<C> for KeyBot<C> {
    fn choose(&mut self, _: &Game) -> Option<C> {
        let i = usize::try_from(self.rng.below(self.keys.len().max(1) as u64)).ok()?;
        self.keys.get(i).cloned()
    }
}
