//! One game as it is played, whatever screens show it: the game value, its save slot and
//! autosave, the recording that is the save's journal, the practice history behind `U`,
//! and the filing when it ends (the recording kept, the morgue file, the score table).
//!
//! [`crate::play::Session`] (the generic screens every [`Ruleset`] gets) and a game's own
//! screens (Alchemy's prompts and panels) both keep their game in a [`Run`], so none of
//! this is written twice. A [`Run`] draws nothing and says nothing on screen: what goes
//! wrong along the way (a recording that stopped, an autosave that failed) waits in
//! [`Run::take_problems`] for the screens to show.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use alembic::Game;
use alembic::history::{Budget, History};

use serde::{Deserialize, Serialize};

use crate::launch::Cause;
use crate::modes::Modes;
use crate::record::{self, JournalError, RecordError, Recorder};
use crate::ruleset::{Ending, GameEnd, Outcome, Rejected, Ruleset, Status};
use crate::slot::{self, Slot};
use crate::storage::StorageError;
use crate::{savefile, scores, storage};

/// How much of a practice game is kept whole for `U`: the newest 2,000 states, then one in
/// every 100 (the states between are rebuilt from the commands when undo reaches them).
pub const PRACTICE_BUDGET: Budget = Budget::new(2_000, 100);

pub use crate::modes::{PRACTICE, WIZARD};

/// One line of a recording: a command of the game, or a wizard command by name (so a wizard
/// game replays too). Written as the command itself, or `{"wizard": NAME}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Step<C> {
    /// The game's own command.
    Play(C),
    /// A line of the wizard console ([`Ruleset::wizard`]), such as `depth 3`.
    Wizard {
        /// The line.
        wizard: String,
    },
}

/// A practice game's states, each with the turn and step that led to it.
type Undo<C> = History<Game, (u64, Step<C>)>;

/// Why a game could not be saved ([`Run::save`]); the save on disk is as it was. Its
/// `Display` is the sentence for the player.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CannotSave {
    /// No data directory to save in.
    #[error("Cannot save: no data directory (set HOME or XDG_DATA_HOME).")]
    NoDirectory,
    /// The save's directory could not be made.
    #[error("Cannot save: cannot create {}: {source}", dir.display())]
    CreateDir {
        /// The directory.
        dir: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The recording (the save's journal) cannot be written, so no save may get ahead of it.
    #[error("Cannot save: the recording cannot be written ({why}). The last save ({}) is as it was.", path.display())]
    JournalBehind {
        /// What the system said of the recording.
        why: String,
        /// The save, unchanged.
        path: PathBuf,
    },
    /// The save file could not be written.
    #[error("Cannot save: {source}. The last save ({}) is as it was.", path.display())]
    Io {
        /// The save, unchanged.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The game could not be made into a save (a bug in the game's save format).
    #[error("Cannot save: {0}")]
    Save(savefile::SaveError),
}

/// Why a game's recording could not be kept in `records/` ([`Run::keep_recording`]).
#[derive(Debug, thiserror::Error)]
#[error("This game's recording could not be kept: {0}")]
pub struct NotKept(#[source] pub record::RecordError);

/// What one step did.
#[derive(Clone, Debug)]
pub struct Played<E> {
    /// The game's typed events (empty for a wizard line).
    pub events: Vec<E>,
    /// Their English ([`Ruleset::describe`]), or a wizard line's output.
    pub said: Vec<String>,
    /// Whether the game is over now.
    pub over: bool,
}

/// How a continued game was brought back ([`Run::load`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Continued {
    /// Moves the recording brought back after the save.
    pub replayed: usize,
    /// The save's turn.
    pub from_turn: u64,
    /// The turn the recording brought the game to.
    pub to_turn: u64,
    /// A sentence when part of the recording after the save was dropped.
    pub dropped: Option<String>,
    /// Why the game goes on unrecorded, when its recording cannot go on.
    pub unrecorded: Option<String>,
}

impl Continued {
    /// The sentences a player reads on continuing, after "Welcome back.".
    #[must_use]
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.replayed > 0 {
            notes.push(format!(
                "The recording brought back {} move{} made after the last save (turn {} to {}).",
                self.replayed,
                if self.replayed == 1 { "" } else { "s" },
                self.from_turn,
                self.to_turn
            ));
        }
        notes.extend(self.dropped.clone());
        if let Some(why) = &self.unrecorded {
            notes.push(format!(
                "{why}; you play on from the save, unrecorded (quit with Q to give it up)."
            ));
        }
        notes
    }
}

/// Why [`Run::undo`] took nothing back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UndoError {
    /// Not a practice game.
    NotPractice,
    /// The game is at its first state.
    Nothing,
    /// A state could not be rebuilt (a bug); the sentence says what the engine said.
    Failed(String),
}

impl std::fmt::Display for UndoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UndoError::NotPractice => {
                f.write_str("Only practice games can take moves back (start one with --practice).")
            }
            UndoError::Nothing => f.write_str("There is nothing to take back."),
            UndoError::Failed(why) => write!(f, "Cannot take the move back: {why}"),
        }
    }
}

impl std::error::Error for UndoError {}

/// What ending a game kept ([`Run::finish`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filed {
    /// Where its recording went.
    pub recording: Option<PathBuf>,
    /// Where its morgue file went.
    pub morgue: Option<PathBuf>,
    /// Its rank in the score table (`None`: not scored, or below the table).
    pub rank: Option<usize>,
    /// Whether it was scored at all (practice and wizard games are not).
    pub scored: bool,
    /// Whether the game's own save was removed.
    pub save_removed: bool,
    /// Where an unreadable score table was moved aside (a new one was started).
    pub set_aside: Option<PathBuf>,
    /// What went wrong keeping its records, a sentence each (the session ends with a
    /// non-zero exit when this is not empty).
    pub problems: Vec<String>,
    /// What the end screen says, a sentence a line.
    pub lines: Vec<String>,
}

/// How often a game in play is saved and its recording vouches for it: an autosave every
/// `autosave_every` commands ([`slot::AUTOSAVE_EVERY`] by default), a checkpoint (the
/// state hash, which hashes the whole game) every `checkpoint_every`
/// ([`record::CHECKPOINT_EVERY`]). Every save is also a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cadence {
    /// Commands between autosaves.
    pub autosave_every: usize,
    /// Commands between checkpoints.
    pub checkpoint_every: usize,
}

impl Default for Cadence {
    fn default() -> Self {
        Cadence {
            autosave_every: slot::AUTOSAVE_EVERY,
            checkpoint_every: record::CHECKPOINT_EVERY,
        }
    }
}

/// One game in play: see the module docs.
pub struct Run<R: Ruleset> {
    rules: Arc<R>,
    seed: u64,
    /// Whether `seed` is the game's (not a stand-in for a seed nothing kept).
    seed_known: bool,
    game: Game,
    practice: bool,
    wizard: bool,
    history: Option<Undo<R::Command>>,
    save_path: Option<PathBuf>,
    recorder: Option<Recorder<Step<R::Command>>>,
    /// The recording's appends are flushed to the disk ([`Run::set_flush_appends`]).
    flush_appends: bool,
    /// How often saves and checkpoints come ([`Run::set_cadence`]).
    cadence: Cadence,
    slot: Slot,
    player_saved: bool,
    ended: bool,
    problems: Vec<String>,
    /// The player was told the recording's lines wait in memory (its file could not be
    /// written); cleared once they are written.
    told_behind: bool,
}

impl<R: Ruleset> Run<R> {
    /// A new game from `seed` in these modes ([`Ruleset::new_game_in_modes`]), not saved or
    /// recorded until [`Run::begin`].
    ///
    /// # Errors
    /// The engine refused to make it (a bug in the game's rules or data).
    pub fn new_game(
        rules: Arc<R>,
        seed: u64,
        practice: bool,
        wizard: bool,
    ) -> Result<Self, alembic::Error> {
        let mut run = Run::with_game(rules, seed, Game::new(seed));
        run.practice = practice;
        run.wizard = wizard;
        run.game = run.rules.new_game_in_modes(seed, &run.modes())?;
        Ok(run)
    }

    /// A run over a game made elsewhere (a test arena, a recording's state shown in the
    /// replay viewer): no modes, not saved or recorded.
    #[must_use]
    pub fn with_game(rules: Arc<R>, seed: u64, game: Game) -> Self {
        Run {
            rules,
            seed,
            seed_known: true,
            game,
            practice: false,
            wizard: false,
            history: None,
            save_path: None,
            recorder: None,
            flush_appends: true,
            cadence: Cadence::default(),
            slot: Slot::default(),
            player_saved: false,
            ended: false,
            problems: Vec::new(),
            told_behind: false,
        }
    }

    /// Start playing: saves go to `save_path` and the game is recorded beside it (held in
    /// memory while another game's save waits there), with a first save at once when the
    /// slot is the game's own. Practice games start their history for `U`.
    pub fn begin(&mut self, save_path: Option<PathBuf>) {
        self.recorder = None;
        self.save_path = save_path;
        self.slot = Slot::new_game(self.save_path.as_deref())
            .every(self.cadence.autosave_every)
            .staggered(self.seed);
        self.player_saved = false;
        self.ended = false;
        self.history = self
            .practice
            .then(|| History::with_budget(self.game.clone(), PRACTICE_BUDGET));
        let Some(p) = self.save_path.clone() else {
            return;
        };
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        let modes = self.modes();
        match slot::begin_recording(
            &self.slot,
            &record::beside(&p),
            R::NAME,
            self.seed,
            &modes,
            &self.game,
        ) {
            Ok(mut r) => {
                r.set_flush(self.flush_appends);
                r.set_checkpoint_every(self.cadence.checkpoint_every);
                self.recorder = Some(r);
            }
            Err(e) => {
                self.problems
                    .push(format!("This game is not being recorded: {e}"));
                return;
            }
        }
        if self.slot.owns()
            && let Err(e) = self.save()
        {
            self.problems
                .push(format!("The game could not be saved: {e}"));
        }
    }

    /// The same game, marked as a practice and/or wizard game (its save and recording
    /// carry the modes; practice starts its history at [`Run::begin`]).
    #[must_use]
    pub fn in_modes(mut self, practice: bool, wizard: bool) -> Self {
        self.practice = practice;
        self.wizard = wizard;
        self
    }

    /// Saves go to `path`, unrecorded: for a game made elsewhere (a test arena), whose
    /// recording could not replay from its seed. The slot is the game's when nothing is
    /// there yet.
    #[must_use]
    pub fn saving_to(mut self, path: Option<PathBuf>) -> Self {
        self.slot = Slot::new_game(path.as_deref())
            .every(self.cadence.autosave_every)
            .staggered(self.seed);
        self.save_path = path;
        self
    }

    /// How many moves `U` can take back now.
    #[must_use]
    pub fn undo_depth(&self) -> usize {
        self.history.as_ref().map_or(0, History::position)
    }

    /// Continue the game saved at `path`: its recording brings back the moves made after
    /// the save (a practice game can take them back too). Later saves go back to `path`.
    ///
    /// # Errors
    /// What is wrong with the save ([`read_save`]): the file is untouched.
    pub fn load(rules: Arc<R>, path: &Path) -> Result<(Self, Continued), Cause> {
        Self::load_reporting(rules, path, &mut |_, _| {})
    }

    /// [`Run::load`], telling `report` how far the recording's moves after the save have
    /// been brought back (done, of how many), every 1,000 moves and at the end: for a
    /// launcher to show on a long continue (a recording that a crash left far past its
    /// save). Not called when nothing follows the save.
    ///
    /// # Errors
    /// As [`Run::load`].
    pub fn load_reporting(
        rules: Arc<R>,
        path: &Path,
        report: &mut dyn FnMut(usize, usize),
    ) -> Result<(Self, Continued), Cause> {
        let saved = read_save(&*rules, path)?;
        let mut run = Run::with_game(rules, saved.seed.unwrap_or(0), saved.game.clone());
        run.seed_known = saved.seed.is_some();
        run.practice = saved.modes.practice;
        run.wizard = saved.modes.wizard;
        // The moves brought back are not shown: no English is made for them.
        let step = {
            let rules = run.rules.clone();
            move |g: &Game, c: &Step<R::Command>| apply_step_quietly(&*rules, g, c)
        };
        let mut continued = Continued {
            from_turn: saved.game.turn(),
            to_turn: saved.game.turn(),
            ..Continued::default()
        };
        let mut relabelled = false;
        let mut history = run
            .practice
            .then(|| History::with_budget(saved.game.clone(), PRACTICE_BUDGET));
        match Recorder::journal_reporting(
            &record::beside(path),
            R::NAME,
            &saved.game,
            &step,
            report,
        ) {
            Ok(j) => {
                continued.replayed = j.replayed.len();
                continued.to_turn = j.game.turn();
                continued.dropped = j.dropped;
                if let Some(h) = history.as_mut() {
                    let mut g = saved.game.clone();
                    for (turn, c) in j.replayed {
                        match step(&g, &c) {
                            Ok(next) => g = next,
                            Err(_) => break,
                        }
                        h.push((turn, c), g.clone());
                    }
                }
                run.game = j.game;
                // The recording's header knows the seed even when the save format does not,
                // and its modes are sealed (its header hash) where an older save's are not
                // (Alchemy's version 3 kept them outside its checksum): a sealed header's
                // practice and wizard marks are the game's, and the save is written again
                // under its own seal.
                let header = j.recorder.header();
                run.seed = header.seed;
                run.seed_known = true;
                if header.hash_checked
                    && (header.has_mode(PRACTICE), header.has_mode(WIZARD))
                        != (run.practice, run.wizard)
                {
                    run.practice = header.has_mode(PRACTICE);
                    run.wizard = header.has_mode(WIZARD);
                    relabelled = true;
                }
                run.recorder = Some(j.recorder);
            }
            Err(e) => {
                continued.unrecorded = Some(match &e {
                    JournalError::Read(RecordError::Storage(StorageError::Io {
                        source, ..
                    })) if source.kind() == std::io::ErrorKind::NotFound => {
                        "This game has no recording".to_owned()
                    }
                    other => format!("This game's recording cannot go on: {other}"),
                });
            }
        }
        if relabelled {
            history = run
                .practice
                .then(|| History::with_budget(run.game.clone(), PRACTICE_BUDGET));
            run.problems.push(
                "The save's practice or wizard mark differed from its recording's; the recording's (sealed) is kept.".to_owned(),
            );
        }
        run.history = history;
        run.save_path = Some(path.to_path_buf());
        run.slot = Slot::loaded()
            .every(run.cadence.autosave_every)
            .staggered(run.seed);
        run.player_saved = true;
        // The moves the recording brought back are saved at once: the next continue starts
        // from here (a game that crashes again and again never replays more than it played
        // since), and a game the recording brought to its end is saved over, never alive.
        if (continued.replayed > 0 || relabelled)
            && let Err(e) = run.save()
        {
            run.problems
                .push(format!("The game could not be saved: {e}"));
        }
        Ok((run, continued))
    }

    /// The game value.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The state hash of the game as it is now, if the recording's last checkpoint is of
    /// this very version ([`Recorder::checkpointed`]): Θ(1) instead of hashing the world
    /// again. `None` when it is not (or nothing is recorded).
    #[must_use]
    pub fn checkpointed(&self) -> Option<u64> {
        self.recorder.as_ref()?.checkpointed(&self.game)
    }

    /// Show `game` instead (the replay viewer's states): nothing is recorded.
    pub fn show(&mut self, game: Game) {
        self.game = game;
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The rules, shared.
    #[must_use]
    pub fn rules_arc(&self) -> &Arc<R> {
        &self.rules
    }

    /// The game's seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The game's seed when it is known: `None` for a game continued from a save that
    /// does not keep its seed (Alchemy's), without the recording that does. Morgues and
    /// scores say "unknown" then, never a seed the game was not played from.
    #[must_use]
    pub fn known_seed(&self) -> Option<u64> {
        self.seed_known.then_some(self.seed)
    }

    /// Whether this is a practice game.
    #[must_use]
    pub fn is_practice(&self) -> bool {
        self.practice
    }

    /// Whether this is a wizard game.
    #[must_use]
    pub fn is_wizard(&self) -> bool {
        self.wizard
    }

    /// Whether the recording's appends are flushed to the disk before a move counts as
    /// recorded: yes by default. Only a host that holds every move durably elsewhere first
    /// turns it off (the web server, whose store commits each move before it is answered).
    pub fn set_flush_appends(&mut self, on: bool) {
        self.flush_appends = on;
        if let Some(r) = self.recorder.as_mut() {
            r.set_flush(on);
        }
    }

    /// Whether the recording's appends are flushed ([`Run::set_flush_appends`]).
    #[must_use]
    pub fn flushing_appends(&self) -> bool {
        self.flush_appends
    }

    /// Save and checkpoint at `cadence` ([`Cadence`]), for this game and the next ones;
    /// the first autosave brought forward by the seed ([`Slot::staggered`]). Only a host
    /// that holds every move durably elsewhere (the web server's store) makes them rarer:
    /// a save then only bounds the moves a continue replays.
    pub fn set_cadence(&mut self, cadence: Cadence) {
        self.cadence = Cadence {
            autosave_every: cadence.autosave_every.max(1),
            checkpoint_every: cadence.checkpoint_every.max(1),
        };
        self.slot = self
            .slot
            .clone()
            .every(self.cadence.autosave_every)
            .staggered(self.seed);
        if let Some(r) = self.recorder.as_mut() {
            r.set_checkpoint_every(self.cadence.checkpoint_every);
        }
    }

    /// How often saves and checkpoints come ([`Run::set_cadence`]).
    #[must_use]
    pub fn cadence(&self) -> Cadence {
        self.cadence
    }

    /// Where the game saves.
    #[must_use]
    pub fn save_path(&self) -> Option<&Path> {
        self.save_path.as_deref()
    }

    /// The recording of the game, while it is being recorded.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.recorder.as_ref().map(Recorder::path)
    }

    /// Whether the save file is this game's own: only then is it autosaved or removed when
    /// the game ends (see [`crate::slot`]).
    #[must_use]
    pub fn owns_save(&self) -> bool {
        self.slot.owns()
    }

    /// Whether the player saved the game or continued it from a save: quitting keeps that
    /// save then.
    #[must_use]
    pub fn player_saved(&self) -> bool {
        self.player_saved
    }

    /// The player saved (`S`) or the game was saved on close.
    pub fn mark_player_saved(&mut self) {
        self.player_saved = true;
    }

    /// Whether the game was filed ([`Run::finish`]): it is never saved again.
    #[must_use]
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// Whether the game goes on.
    #[must_use]
    pub fn status(&self) -> Status {
        self.rules.status(&self.game)
    }

    /// The modes the game carries in its save and recording: practice, wizard and the
    /// rules' data ([`Modes::to_strings`] writes the data's, then practice and wizard).
    #[must_use]
    pub fn modes(&self) -> Modes {
        Modes::new(self.practice, self.wizard, self.rules.data())
    }

    /// Why the recording's last lines wait in memory, if they do (its file could not be
    /// written: a full disk, a read-only directory): they are written first, now, and
    /// `None` answers that nothing waits any more. A game that must not answer a move
    /// before its journal holds it (the web server's) asks after every command.
    pub fn journal_behind(&mut self) -> Option<String> {
        let rec = self.recorder.as_mut()?;
        rec.behind()?;
        match rec.catch_up() {
            Ok(()) => {
                self.told_behind = false;
                None
            }
            Err(e) => Some(e.to_string()),
        }
    }

    /// Tell the player once that the recording's lines wait in memory.
    fn tell_behind(&mut self) {
        match self.recorder.as_ref().and_then(Recorder::behind) {
            Some(why) if !self.told_behind => {
                self.told_behind = true;
                self.problems.push(format!(
                    "The recording cannot be written ({why}): its moves wait in memory and are written as soon as it can be."
                ));
            }
            Some(_) => {}
            None => self.told_behind = false,
        }
    }

    /// What went wrong since last asked (a recording stopped, an autosave failed), a
    /// sentence each, oldest first.
    pub fn take_problems(&mut self) -> Vec<String> {
        std::mem::take(&mut self.problems)
    }

    /// Play `step`: on success the game moves on, the step is recorded and kept for `U`,
    /// and every [`slot::AUTOSAVE_EVERY`] steps the game is saved.
    ///
    /// # Errors
    /// [`StepRefusal`]: the game's own refusal (typed), a refused wizard line, or an engine
    /// error. Nothing changed.
    pub fn play(
        &mut self,
        step: &Step<R::Command>,
    ) -> Result<Played<R::Event>, StepRefusal<R::Refusal>> {
        if matches!(step, Step::Wizard { .. }) && !self.wizard {
            return Err(StepRefusal::Wizard(NOT_WIZARD.into()));
        }
        let turn = self.game.turn();
        let (next, events, said) = apply_step_typed(&*self.rules, &self.game, step)?;
        if let Some(h) = self.history.as_mut() {
            h.push((turn, step.clone()), next.clone());
        }
        self.game = next;
        if let Some(mut written) = self
            .recorder
            .as_mut()
            .map(|r| r.command(turn, step, &self.game))
        {
            // Now and then the whole state, for the replay viewer to seek from; a state
            // the game cannot write is only a slower seek, never a stopped recording.
            if written.is_ok()
                && self.recorder.as_ref().is_some_and(Recorder::state_due)
                && let Ok(text) = self.rules.save_text(&self.game, self.seed, &self.modes())
                && let Some(r) = self.recorder.as_mut()
            {
                written = r.state(&self.game, &text);
            }
            if let Err(e) = written {
                self.recorder = None;
                self.problems.push(format!("The recording stopped: {e}"));
            }
            self.tell_behind();
        }
        let over = self.status() != Status::Playing;
        // Death is final: the game that just ended is saved as it is, over, before anything
        // asks the player anything, so a window closed (or killed) at the death prompt
        // leaves a save that continues to its filing, never to the hero alive.
        let due = self.slot.counted(over) || (over && self.slot.owns());
        if due
            && self.save_path.is_some()
            && let Err(e) = self.save()
        {
            self.problems.push(format!("The autosave failed: {e}"));
        }
        Ok(Played { events, said, over })
    }

    /// Take back up to `n` moves of a practice game; how many were taken back. The
    /// recording is rewritten to the moves kept, and the game saved again.
    ///
    /// # Errors
    /// [`UndoError`]: not a practice game, nothing to take back, or a state that could not
    /// be rebuilt.
    pub fn undo(&mut self, n: usize) -> Result<usize, UndoError> {
        let Some(history) = self.history.as_mut() else {
            return Err(UndoError::NotPractice);
        };
        let rules = self.rules.clone();
        let step =
            |g: &Game, (_, c): &(u64, Step<R::Command>)| apply_step(&*rules, g, c).map(|(g, _)| g);
        let mut done = 0;
        let mut failed = None;
        for _ in 0..n {
            match history.undo_with(step) {
                Ok(Some(_)) => done += 1,
                Ok(None) => break,
                Err(e) => {
                    failed = Some(UndoError::Failed(e.to_string()));
                    break;
                }
            }
        }
        if done == 0 {
            return Err(failed.unwrap_or(UndoError::Nothing));
        }
        self.problems.extend(failed.map(|f| f.to_string()));
        let game = history.current().clone();
        let start = history.get(0).cloned();
        let commands: Vec<(u64, Step<R::Command>)> = history.commands().to_vec();
        if let (Some(rec), Some(start)) = (self.recorder.as_mut(), start)
            && let Err(e) = rec.rewrite(&start, commands.iter().map(|(t, c)| (*t, c)), &game)
        {
            self.recorder = None;
            self.problems.push(format!("The recording stopped: {e}"));
        }
        self.game = game;
        // The rewritten recording no longer holds the save's checkpoint: save again, so a
        // crash still finds the save in its journal.
        if self.slot.owns()
            && self.save_path.is_some()
            && let Err(e) = self.save()
        {
            self.problems.push(format!("The autosave failed: {e}"));
        }
        Ok(done)
    }

    /// Save the game: the recording is marked with a checkpoint first, then the save is
    /// written atomically, so at every instant the recording holds a checkpoint equal to the
    /// save on disk. A recording held in memory is written beside the save now.
    ///
    /// # Errors
    /// [`CannotSave`], whose `Display` is the sentence for the player; the old save is
    /// untouched.
    pub fn save(&mut self) -> Result<PathBuf, CannotSave> {
        let Some(path) = self.save_path.clone() else {
            return Err(CannotSave::NoDirectory);
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| CannotSave::CreateDir {
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        if let Some(problem) = slot::before_save(&mut self.recorder, &self.game) {
            self.problems.push(problem);
        }
        // A save the recording does not reach (its checkpoint waits in memory) would be a
        // save no continue could check its journal against: refused until it is written.
        if let Some(why) = self.recorder.as_ref().and_then(Recorder::behind) {
            return Err(CannotSave::JournalBehind {
                why: why.to_string(),
                path,
            });
        }
        write_save(&*self.rules, &self.game, self.seed, &self.modes(), &path).map_err(|e| {
            match e {
                // What the system said comes first (the temporary file's name is of no use
                // to a player); the save on disk is whole, as the atomic write leaves it.
                savefile::SaveError::Storage(StorageError::Io { source, .. }) => CannotSave::Io {
                    path: path.clone(),
                    source,
                },
                other => CannotSave::Save(other),
            }
        })?;
        self.slot.saved();
        Ok(path)
    }

    /// Mark the recording with the game as it stands (a continued game proves the
    /// recording is its own by such a checkpoint).
    pub fn checkpoint(&mut self) {
        if let Some(rec) = self.recorder.as_mut()
            && let Err(e) = rec.checkpoint(&self.game)
        {
            self.recorder = None;
            self.problems.push(format!("The recording stopped: {e}"));
        }
    }

    /// End the recording here and keep it in `records/`: where it went, or why it could
    /// not be kept ([`NotKept`], whose `Display` is the sentence for the player). `None`
    /// when the game was not being recorded.
    pub fn keep_recording(&mut self) -> Option<Result<PathBuf, NotKept>> {
        let rec = self.recorder.take()?;
        Some(rec.finish(&self.game, unix_now()).map_err(NotKept))
    }

    /// Go on with `game` under `rules` (the wizard's data reload): the recording so far
    /// replays with the old data, so it ends here and is kept (returned, as
    /// [`Run::keep_recording`]); a practice history starts again; the game is saved at once
    /// when the slot is its own.
    pub fn rebase(&mut self, rules: Arc<R>, game: Game) -> Option<Result<PathBuf, NotKept>> {
        let kept = self.keep_recording();
        self.rules = rules;
        self.game = game;
        if self.practice {
            self.history = Some(History::with_budget(self.game.clone(), PRACTICE_BUDGET));
        }
        kept
    }

    /// Remove the game's own save (the game ended), also when it was over already when
    /// continued (a window closed at the death prompt): death is final, and the game is
    /// scored once ([`scores::enter`] keeps one row a game). Another game's save is never
    /// touched. Whether a file went.
    pub fn remove_save(&self) -> bool {
        if !self.slot.owns() {
            return false;
        }
        match &self.save_path {
            Some(p) if p.is_file() => std::fs::remove_file(p).is_ok(),
            _ => false,
        }
    }

    /// File the ended game (over, or `quit`): its own save is removed, its recording kept
    /// in `records/`, its morgue file written ([`Ruleset::morgue`]) and, unless practice or
    /// wizard, its score entered ([`Ruleset::scores_file`]). Once: `None` after the first
    /// time. Problems are said in [`Filed::problems`], never fatal.
    pub fn finish(&mut self, quit: bool, messages: &[(u64, String)]) -> Option<Filed> {
        if std::mem::replace(&mut self.ended, true) {
            return None;
        }
        let now = unix_now();
        let mut filed = Filed {
            save_removed: self.remove_save(),
            ..Filed::default()
        };
        if filed.save_removed {
            filed.lines.push(
                "Your save file has been deleted: in a roguelike, the end is the end.".into(),
            );
        }
        match self.keep_recording() {
            Some(Ok(p)) => {
                filed
                    .lines
                    .push(format!("The recording is kept in {}.", p.display()));
                filed.recording = Some(p);
            }
            Some(Err(e)) => {
                filed.lines.push(e.to_string());
                filed.problems.push(e.to_string());
            }
            None => {}
        }
        let ending = match (quit, self.status()) {
            (false, Status::Over(e)) => e,
            _ => Ending::new(false, "quit"),
        };
        let Some(dir) = self.save_path.as_deref().and_then(Path::parent) else {
            return Some(filed);
        };
        let modes = self.modes();
        let seed = self.known_seed();
        let end = GameEnd {
            game: &self.game,
            seed,
            modes: &modes,
            quit,
            ending: &ending,
            recording: filed.recording.as_deref(),
            messages,
            unix_secs: now,
        };
        let text = self
            .rules
            .morgue(&end)
            .unwrap_or_else(|| morgue_text(&*self.rules, &end));
        match scores::write_morgue(dir, R::NAME, seed, now, &text) {
            Ok(p) => {
                filed.lines.push(format!("Morgue file: {}.", p.display()));
                filed.morgue = Some(p);
            }
            Err(e) => {
                let e = format!("This game's morgue could not be kept: {e}");
                filed.lines.push(e.clone());
                filed.problems.push(e);
            }
        }
        if self.practice || self.wizard {
            filed
                .lines
                .push("Practice and wizard games are not scored.".into());
            return Some(filed);
        }
        filed.scored = true;
        let summary = self.rules.summary(&self.game);
        let entry = scores::Score {
            score: summary.score,
            seed,
            cause: ending.cause.clone(),
            depth: summary.depth,
            turns: self.game.turn(),
            date: scores::date_of(now),
            game: Some(scores::game_id(R::NAME, seed, &self.game)),
        };
        match scores::enter(dir, &self.rules.scores_file(), entry, now) {
            Ok(s) => {
                if let Some(aside) = &s.set_aside {
                    filed.lines.push(format!(
                        "The score table could not be read; it was kept as {} and a new one started.",
                        aside.display()
                    ));
                }
                filed.rank = s.rank;
                filed.set_aside = s.set_aside;
                filed.lines.push(match s.rank {
                    Some(r) => format!("Your score is number {r} of the table."),
                    None => "Your score did not make the table.".into(),
                });
            }
            Err(e) => {
                let e = format!("This game's score could not be kept: {e}");
                filed.lines.push(e.clone());
                filed.problems.push(e);
            }
        }
        Some(filed)
    }

    /// The last-resort save (see `alembic_ui::App::emergency_save`): `None` when the game
    /// is over or filed, or the save slot is not its own yet.
    #[must_use]
    pub fn emergency_save(&self) -> Option<record::EmergencySave> {
        let path = self.save_path.clone()?;
        if !self.slot.owns() || self.ended || self.status() != Status::Playing {
            return None;
        }
        let recording = self.recorder.as_ref().map(|r| r.path().to_path_buf());
        let rules = self.rules.clone();
        let (seed, modes) = (self.seed, self.modes());
        Some(record::emergency_save(
            self.game.clone(),
            recording,
            path,
            move |game, path| {
                write_save(&*rules, game, seed, &modes, path).map_err(|e| e.to_string())
            },
        ))
    }
}

/// Seconds since 1970 (0 if the clock is before it).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A step applied: the new game, its typed events and their English.
pub type Applied<E> = (Game, Vec<E>, Vec<String>);

/// Why a step was not played; nothing changed. The game's own refusal stays typed, so a
/// screen can tell a rule's "no" from a bug without reading a sentence; `Display` is the
/// sentence for the player.
#[derive(Debug)]
#[non_exhaustive]
pub enum StepRefusal<F> {
    /// A rule of the game said no ("There is a wall in the way."): no time passed.
    Rule(F),
    /// A wizard line was refused: the game has no wizard commands, or the line is unknown or
    /// malformed (the console's sentence).
    Wizard(String),
    /// The engine refused a call: a bug in the game's rules or data, never the player's.
    Engine(alembic::Error),
}

impl<F: std::fmt::Display> std::fmt::Display for StepRefusal<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepRefusal::Rule(r) => r.fmt(f),
            StepRefusal::Wizard(w) => f.write_str(w),
            StepRefusal::Engine(e) => write!(f, "internal error: {e}"),
        }
    }
}

impl<F: std::fmt::Display + std::fmt::Debug> std::error::Error for StepRefusal<F> {}

impl<F> From<Rejected<F>> for StepRefusal<F> {
    fn from(r: Rejected<F>) -> Self {
        match r {
            Rejected::Refused(f) => StepRefusal::Rule(f),
            Rejected::Engine(e) => StepRefusal::Engine(e),
        }
    }
}

/// Why a wizard line is refused in a game not started in wizard mode.
const NOT_WIZARD: &str = "Wizard commands need a game started with --wizard.";

/// Apply one recorded step: the new game, its typed events and their English.
///
/// # Errors
/// [`StepRefusal`]: the game's own refusal, a refused wizard line, or an engine error.
pub fn apply_step_typed<R: Ruleset>(
    rules: &R,
    game: &Game,
    step: &Step<R::Command>,
) -> Result<Applied<R::Event>, StepRefusal<R::Refusal>> {
    match step {
        Step::Play(c) => {
            let Outcome { game: next, events } = rules.apply(game, c)?;
            let said = events
                .iter()
                .filter_map(|e| rules.describe(&next, e))
                .collect();
            Ok((next, events, said))
        }
        Step::Wizard { wizard } => {
            if rules.is_wizard_game(game) == Some(false) {
                return Err(StepRefusal::Wizard(NOT_WIZARD.into()));
            }
            let cmds = rules
                .wizard()
                .ok_or_else(|| StepRefusal::Wizard("This game has no wizard commands.".into()))?;
            let out = cmds
                .run(game, wizard)
                .map_err(|e| StepRefusal::Wizard(e.to_string()))?;
            let mut said = vec![format!("(wizard) {wizard}")];
            said.extend(out.lines);
            Ok((out.state, Vec::new(), said))
        }
    }
}

/// Apply one recorded step, making no English (a journal brought back unseen).
///
/// # Errors
/// As [`apply_step_typed`].
pub fn apply_step_quietly<R: Ruleset>(
    rules: &R,
    game: &Game,
    step: &Step<R::Command>,
) -> Result<Game, StepRefusal<R::Refusal>> {
    match step {
        Step::Play(c) => Ok(rules.apply(game, c)?.game),
        Step::Wizard { .. } => apply_step(rules, game, step).map(|(g, _)| g),
    }
}

/// Apply one recorded step: the new game and the English of what happened.
///
/// # Errors
/// As [`apply_step_typed`].
pub fn apply_step<R: Ruleset>(
    rules: &R,
    game: &Game,
    step: &Step<R::Command>,
) -> Result<(Game, Vec<String>), StepRefusal<R::Refusal>> {
    apply_step_typed(rules, game, step).map(|(g, _, said)| (g, said))
}

/// The generic morgue file: who, how it ended, the game's own summary, the last messages.
#[must_use]
pub fn morgue_text<R: Ruleset>(rules: &R, end: &GameEnd<'_>) -> String {
    let mut t = format!("{} — {}\n\n", R::TITLE, scores::date_of(end.unix_secs));
    let how = if end.quit {
        "Quit".to_owned()
    } else if end.ending.won {
        format!("Won: {}", end.ending.cause)
    } else {
        format!("Died: {}", end.ending.cause)
    };
    let seed = end.seed.map_or_else(
        || "unknown (continued without its recording)".to_owned(),
        |s| s.to_string(),
    );
    t += &format!("{how}, on turn {}.\nSeed: {seed}\n", end.game.turn());
    if !end.modes.is_empty() {
        t += &format!("Modes: {}\n", end.modes);
    }
    let summary = rules.summary(end.game);
    t += &format!("Score: {}\n", summary.score);
    for l in &summary.lines {
        t += l;
        t.push('\n');
    }
    if let Some(r) = end.recording {
        t += &format!("Recording: {}\n", r.display());
    }
    t += "\nLast messages:\n";
    let skip = end.messages.len().saturating_sub(20);
    for (_, m) in end.messages.iter().skip(skip) {
        t += "  ";
        t += m;
        t.push('\n');
    }
    t
}

/// Write the save of `game` to `path` in the ruleset's format ([`Ruleset::save_text`]),
/// atomically (the old file stays whole until the new one is complete).
///
/// # Errors
/// [`savefile::SaveError`].
pub fn write_save<R: Ruleset>(
    rules: &R,
    game: &Game,
    seed: u64,
    modes: &Modes,
    path: &Path,
) -> Result<(), savefile::SaveError> {
    let text = rules.save_text(game, seed, modes)?;
    storage::write_atomic(path, text.as_bytes())?;
    Ok(())
}

/// Read the save at `path` through the bounded reader, checked by the ruleset
/// ([`Ruleset::load_text`]). A file that cannot be read is a [`savefile::SaveError`]
/// inside the error (downcast it).
///
/// # Errors
/// What is wrong, typed; nothing is half-loaded.
pub fn read_save<R: Ruleset>(
    rules: &R,
    path: &Path,
) -> Result<savefile::Saved, crate::launch::Cause> {
    let bytes =
        storage::read_bounded(path, savefile::MAX_SAVE_BYTES).map_err(savefile::SaveError::from)?;
    let text = String::from_utf8(bytes).map_err(|_| savefile::SaveError::Corrupt {
        game: R::NAME,
        why: "not UTF-8 text".to_owned(),
    })?;
    rules.load_text(&text)
}

/// The save file's name of game `R` in the data directory.
#[must_use]
pub fn save_file<R: Ruleset>() -> String {
    format!("{}.save", R::NAME)
}
