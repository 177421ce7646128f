//! The session every [`Ruleset`] gets: the start screen (continue, new game, scores), the
//! play screen (the message log above the game's own drawing), saves with their lock and
//! autosave, the recording that is the save's journal, practice (`U` takes a move back, a
//! death offers to rewind), the wizard console (`~`), the end screen with the morgue file and
//! the score table, and the replay viewer. It knows no frontend: [`launch`] hands back an
//! [`App`] for any of them.
//!
//! The message log is made from the game's typed events ([`Ruleset::describe`]) and kept
//! here, outside the game value: its English is never hashed, saved or recorded.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use alembic::wizard::WizardCommands;
use alembic::{Dir, Game, Loc, Rgb, ThingId};
use alembic_ui::{
    App, Cell, Confirm, Frame, Input, Key, MessageLogScreen, MouseButton, MouseKind, Palette, Rect,
    Screen, ScreenStack, TextScreen, Transition, direction_key, fill, plain_key, put_clipped,
    run_key, wrap_text,
};

use crate::ask::{Asked, Question, Reply};
use crate::board::Board;
use crate::console::{ConsoleHost, LineRefused, WizardConsole};
use crate::end::{AfterEnd, EndScreen, rewind_question};
use crate::journey::{Auto, End, Journey, JourneyRefused, Walker};
use crate::keymap::{self, Binding};
use crate::launch::{LaunchError, LaunchOptions, clock_seed, save_dir};
use crate::layout::{MESSAGE_ROWS, play_area};
use crate::playback::{Playback, Viewer, Watch};
use crate::question::{MapHost, QuestionScreen};
use crate::record;
#[cfg(doc)]
use crate::ruleset::Journeys;
use crate::ruleset::{Goal, Ruleset, Status, View};
use crate::run::{CannotSave, Run, StepRefusal};
pub use crate::run::{PRACTICE, Step, WIZARD, apply_step, read_save, save_file, write_save};
use crate::slot;
use crate::start::{ContinueError, Heading, NewGameError, StartHost, StartReply, StartScreen};
use crate::{savefile, storage};

pub use crate::end::REWIND;
/// Lines the message log keeps.
pub const LOG_KEEP: usize = 500;
pub use crate::layout::{TARGET_BEYOND_BG, TARGET_PATH_BG};
const BG: Rgb = Rgb::new(0, 0, 0);
/// How long a rest, run or travel waits between steps (the player sees time pass and can
/// stop it with any key).
const AUTO_DELAY: Duration = Duration::from_millis(8);

/// The state every screen of a game's session shares (see the module docs): the game in
/// play ([`Run`]) and what the screens keep beside it.
pub struct Session<R: Ruleset> {
    /// The game in play: its save slot, recording and practice history.
    run: Run<R>,
    /// How the game is shown and played: its keys and its drawing.
    board: Arc<dyn Board<R>>,
    /// Where this session's games save (the run's own save path once it has begun).
    save_to: Option<PathBuf>,
    /// `n` on the start screen starts practice games (launched with `--practice`).
    practice_default: bool,
    /// The run has begun (saved and recorded), or was continued from a save.
    begun: bool,
    lock: Option<storage::SessionLock>,
    log: Vec<(u64, String)>,
    notice: Option<String>,
    exit_note: Option<Result<String, String>>,
    broken: Option<String>,
    /// What filing the ended game said (morgue, score, recording).
    filed: Vec<String>,
    /// What could not be kept of the games that ended in this session (a morgue, a score,
    /// a recording): said again on leaving, and the exit status is a failure.
    record_problems: Vec<String>,
    /// The replay viewer's session: nothing is saved or recorded.
    replay: bool,
    /// Tiles and the view toggles.
    view: View,
    /// What the pointer is over.
    hover: Option<String>,
    /// Auto-fight stops below this share of the hero's health, in percent.
    fight_until: i64,
    /// What journeys were told where ([`Journeys::place`]): the same words on the same
    /// place stop a journey once (at most [`TOLD_KEEP`] kept; not saved).
    told: HashSet<(Loc, String)>,
    /// The things journeys have announced in this game ([`Journeys::interrupt_told`]).
    announced: HashSet<ThingId>,
}

/// Below this share of the hero's health, in percent, the session warns "Low HP!" once
/// ([`Journeys::health`]).
pub const LOW_HEALTH_PERCENT: i64 = 25;

/// Whether `hp` of `most` is below [`LOW_HEALTH_PERCENT`].
#[must_use]
pub fn low_health(hp: i64, most: i64) -> bool {
    hp * 100 < most.max(1) * LOW_HEALTH_PERCENT
}

/// The most (place, sentence) pairs a session remembers telling a journey.
const TOLD_KEEP: usize = 4096;

impl<R: Ruleset> Session<R> {
    /// A session over a new game from `seed` (not saved anywhere until [`Session::with_save`]).
    #[must_use]
    pub fn new(rules: Arc<R>, seed: u64) -> Self
    where
        R: Board<R>,
    {
        let board: Arc<dyn Board<R>> = rules.clone();
        Session::in_modes(rules, board, seed, false, false)
    }

    /// A session over a new game from `seed`, shown and played on `board` (a game whose
    /// screens are not its rules' type).
    #[must_use]
    pub fn with_board(rules: Arc<R>, board: Arc<dyn Board<R>>, seed: u64) -> Self {
        Session::in_modes(rules, board, seed, false, false)
    }

    /// A session over a new game from `seed` in these modes.
    fn in_modes(
        rules: Arc<R>,
        board: Arc<dyn Board<R>>,
        seed: u64,
        practice: bool,
        wizard: bool,
    ) -> Self {
        match Run::new_game(rules.clone(), seed, practice, wizard) {
            Ok(run) => Session::over(run, board),
            Err(e) => Session {
                broken: Some(e.to_string()),
                ..Session::over(Run::with_game(rules, seed, Game::new(seed)), board)
            },
        }
    }

    /// A session over `run`, with nothing said yet.
    fn over(run: Run<R>, board: Arc<dyn Board<R>>) -> Self {
        Session {
            run,
            board,
            save_to: None,
            practice_default: false,
            begun: false,
            lock: None,
            log: Vec::new(),
            notice: None,
            exit_note: None,
            broken: None,
            filed: Vec::new(),
            record_problems: Vec::new(),
            replay: false,
            view: View::default(),
            hover: None,
            fight_until: crate::journey::FIGHT_UNTIL_PERCENT,
            told: HashSet::new(),
            announced: HashSet::new(),
        }
    }

    /// New games are practice games (`U` takes a move back; never scored) and/or wizard
    /// games (`~` opens the console; never scored).
    #[must_use]
    pub fn with_modes(self, practice: bool, wizard: bool) -> Self {
        let fresh = Session::in_modes(
            self.run.rules_arc().clone(),
            self.board.clone(),
            self.run.seed(),
            practice,
            wizard,
        );
        Session {
            run: fresh.run,
            broken: fresh.broken,
            practice_default: practice,
            ..self
        }
    }

    /// Auto-fight (`Tab`) stops when the hero falls below `percent` of their health (DCSS's
    /// `autofight_stop`; default [`FIGHT_UNTIL_PERCENT`](crate::journey::FIGHT_UNTIL_PERCENT),
    /// clamped to 0–100; 0 fights to the end).
    #[must_use]
    pub fn with_fight_until(mut self, percent: u8) -> Self {
        self.fight_until = i64::from(percent.min(100));
        self
    }

    /// A session over a game made elsewhere (a test arena, a game played headlessly first),
    /// from the start screen; `seed` stays what "play again" counts on from.
    #[must_use]
    pub fn with_game(mut self, game: Game) -> Self {
        let (practice, wizard) = (self.run.is_practice(), self.run.is_wizard());
        let (flush, cadence) = (self.run.flushing_appends(), self.run.cadence());
        self.run = Run::with_game(self.run.rules_arc().clone(), self.run.seed(), game)
            .in_modes(practice, wizard);
        self.run.set_flush_appends(flush);
        self.run.set_cadence(cadence);
        self.broken = None;
        self
    }

    /// Whether its games' recordings are flushed to the disk at each append (yes by
    /// default; [`Run::set_flush_appends`] says who may turn it off), for this game and the
    /// next ones it starts.
    #[must_use]
    pub fn with_flush_appends(mut self, on: bool) -> Self {
        self.run.set_flush_appends(on);
        self
    }

    /// Save and checkpoint at `cadence` ([`Run::set_cadence`]), for this game and the next
    /// ones it starts.
    #[must_use]
    pub fn with_cadence(mut self, cadence: crate::run::Cadence) -> Self {
        self.run.set_cadence(cadence);
        self
    }

    /// Draw the map in pictures on frontends that show tiles (`--tiles`).
    #[must_use]
    pub fn with_tiles(mut self, tiles: bool) -> Self {
        self.view.tiles = tiles;
        self
    }

    /// Save to `path` (`S`, closing the window, autosaves) and record beside it; the start
    /// screen offers to continue a save already there.
    #[must_use]
    pub fn with_save(mut self, path: PathBuf) -> Self {
        self.save_to = Some(path);
        self
    }

    /// Continue the game saved at `path`: its recording brings back the moves made after
    /// the save.
    ///
    /// # Errors
    /// What is wrong with the save ([`read_save`]): the file is untouched.
    pub fn load(rules: Arc<R>, path: &Path) -> Result<Self, crate::launch::Cause>
    where
        R: Board<R>,
    {
        let board: Arc<dyn Board<R>> = rules.clone();
        Self::load_reporting(rules, board, path, &mut |_, _| {})
    }

    /// [`Session::load`], telling `report` how far a long journal has been brought back
    /// ([`Run::load_reporting`]).
    ///
    /// # Errors
    /// As [`Session::load`].
    pub fn load_reporting(
        rules: Arc<R>,
        board: Arc<dyn Board<R>>,
        path: &Path,
        report: &mut dyn FnMut(usize, usize),
    ) -> Result<Self, crate::launch::Cause> {
        let (run, continued) = Run::load_reporting(rules, path, report)?;
        let mut s = Session::over(run, board);
        // The messages are not saved (English is not state): the recording says them
        // again, as the game went up to here.
        if continued.unrecorded.is_none() {
            s.log = past_messages(s.run.rules(), &record::beside(path), s.run.game());
        }
        s.save_to = Some(path.to_path_buf());
        s.begun = true;
        let mut notice = vec!["Welcome back.".to_owned()];
        notice.extend(continued.notes());
        // Death is final: a game that is over when continued (its window closed at the
        // death prompt) is filed now, its save removed, whatever the player does next.
        let over = s.run.status() != Status::Playing;
        if over {
            notice.push(ENDED_BEFORE.to_owned());
        }
        s.notice = Some(notice.join(" "));
        if over {
            s.finish(false);
        }
        Ok(s)
    }

    /// Whether the game is over (it ended, or a continued game had ended and is filed).
    fn ended(&self) -> bool {
        self.run.status() != Status::Playing
    }

    /// How the game in play ended, once it is over and filed (its save removed, its
    /// recording, morgue file and score kept); `None` while it goes on, and in the replay
    /// viewer. A frontend that shows the end its own way reads this instead of drawing the
    /// end screen (the browser's page links to what the server kept).
    #[must_use]
    pub fn ending(&self) -> Option<crate::end::EndSummary> {
        (self.run.is_ended() && !self.replay)
            .then(|| crate::end::EndSummary::of(self.rules(), self.game()))
    }

    /// Hold `lock` (on this session's save) until the session ends.
    pub fn hold_lock(&mut self, lock: storage::SessionLock) {
        self.lock = Some(lock);
    }

    /// The game value.
    pub fn game(&self) -> &Game {
        self.run.game()
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &R {
        self.run.rules()
    }

    /// How the game is shown and played.
    #[must_use]
    pub fn board(&self) -> &dyn Board<R> {
        &*self.board
    }

    /// The seed of the game in play.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.run.seed()
    }

    /// Where the game saves, if anywhere.
    #[must_use]
    pub fn save_path(&self) -> Option<&Path> {
        self.run.save_path().or(self.save_to.as_deref())
    }

    /// The recording of the game in play, if it is being recorded.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.run.recording()
    }

    /// Why the recording's last moves wait in memory, if they do ([`Run::journal_behind`]:
    /// written first, now).
    pub fn journal_behind(&mut self) -> Option<String> {
        self.run.journal_behind()
    }

    /// The game's state hash, if the recording's last checkpoint is of the game as it is
    /// now ([`Run::checkpointed`]). Θ(1).
    #[must_use]
    pub fn checkpointed(&self) -> Option<u64> {
        self.run.checkpointed()
    }

    /// The message log, oldest first: English made from events, never part of the game.
    pub fn messages(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.log.iter().map(|(_, m)| m.as_str())
    }

    /// The modes of the game in play, as saves and recordings carry them.
    #[must_use]
    pub fn modes(&self) -> crate::Modes {
        self.run.modes()
    }

    fn status(&self) -> Status {
        self.run.status()
    }

    fn say(&mut self, line: String) {
        self.log.push((self.run.game().turn(), line));
        if self.log.len() > LOG_KEEP {
            self.log.drain(..self.log.len() - LOG_KEEP);
        }
    }

    /// Show what went wrong in the run (the last problem is the notice).
    fn show_problems(&mut self) {
        if let Some(p) = self.run.take_problems().pop() {
            self.notice = Some(p);
        }
    }

    /// A new game begins: recorded beside the save (in memory while another game's save
    /// waits there), saved at once when the slot is its own.
    fn start_recording(&mut self) {
        self.run.begin(self.save_to.clone());
        self.begun = true;
        self.show_problems();
    }

    /// Save the game in play.
    ///
    /// # Errors
    /// [`CannotSave`] (its `Display` is the sentence for the player); the old save is
    /// untouched.
    pub fn save(&mut self) -> Result<PathBuf, CannotSave> {
        if !self.begun {
            // A game that never began (made elsewhere and played at once): begin it here.
            self.start_recording();
        }
        let r = self.run.save();
        self.show_problems();
        r
    }

    /// Play `step`: on success the game moves on, the step is recorded, the events said.
    /// Play `step`; a refusal is said in the notice line and handed back, typed.
    fn play(&mut self, step: Step<R::Command>) -> Result<(), StepRefusal<R::Refusal>> {
        self.notice = None;
        let health = |s: &Self| s.rules().journeys().and_then(|j| j.health(s.game()));
        let before = health(self);
        match self.run.play(&step) {
            Ok(played) => {
                for line in played.said {
                    self.say(line);
                }
                // Once a fall below a quarter of the hero's health (not again until healed
                // above it), as DCSS's hp_warning: for games that tell their health.
                if let (Some((b, most_b)), Some((a, most))) = (before, health(self))
                    && !low_health(b, most_b)
                    && low_health(a, most)
                    && a > 0
                {
                    self.say(format!("Low HP! ({a}/{most})"));
                }
                self.show_problems();
                Ok(())
            }
            Err(why) => {
                self.notice = Some(why.to_string());
                Err(why)
            }
        }
    }

    /// Take back up to `n` moves of a practice game; how many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        match self.run.undo(n) {
            Ok(done) => {
                let now = self.run.game().turn();
                self.log.retain(|(t, _)| *t <= now);
                self.show_problems();
                let moves = if done == 1 { "a move" } else { "moves" };
                self.say(format!("You take back {moves} (turn {now})."));
                done
            }
            Err(why) => {
                self.notice = Some(why.to_string());
                0
            }
        }
    }

    /// The game ended (over, or quit): its own save is deleted, its recording kept in
    /// `records/`, its morgue file written and, unless practice or wizard, its score
    /// entered. Once; problems are said, never fatal.
    fn finish(&mut self, quit: bool) {
        if self.replay {
            return;
        }
        let Some(filed) = self.run.finish(quit, &self.log) else {
            return;
        };
        self.filed = filed.lines;
        self.record_problems.extend(filed.problems);
        if quit {
            self.exit_note = Some(Ok(self.filed.join(" ")));
        }
    }

    /// A new game from `seed`, in the same save slot and modes.
    fn restart(&mut self, seed: u64) {
        let practice = self.run.is_practice();
        if let Err(why) = StartHost::new_game(self, Some(seed), practice) {
            self.notice = Some(why.0);
        }
    }

    /// The last-resort save (see [`App::emergency_save`]).
    #[must_use]
    pub fn emergency_save(&self) -> Option<alembic_ui::EmergencySave> {
        if self.replay {
            return None;
        }
        self.run.emergency_save().map(record::for_frontend)
    }

    /// What to print once the frontend has closed.
    ///
    /// # Errors
    /// Why the save on close failed, and what of an ended game could not be kept (its
    /// morgue, its score, its recording): the frontend prints it and exits with a failure,
    /// as every game does.
    pub fn farewell(&self) -> Result<Option<String>, alembic_ui::FarewellError> {
        let (mut said, failed) = match &self.exit_note {
            None => (Vec::new(), false),
            Some(Ok(line)) => (vec![line.clone()], false),
            Some(Err(e)) => (vec![e.clone()], true),
        };
        // A quit's note already holds what filing said; the problems are not said twice.
        for p in &self.record_problems {
            if !said.iter().any(|l| l.contains(p.as_str())) {
                said.push(p.clone());
            }
        }
        said.retain(|l| !l.is_empty());
        let line = said.join(" ");
        if failed || !self.record_problems.is_empty() {
            Err(alembic_ui::FarewellError(line))
        } else {
            Ok((!line.is_empty()).then_some(line))
        }
    }

    /// What could not be kept of the games that ended in this session (see
    /// [`Session::farewell`]).
    #[must_use]
    pub fn record_problems(&self) -> &[String] {
        &self.record_problems
    }

    fn preferred_grid(&self) -> Option<(u16, u16)> {
        self.board
            .play_area()
            .map(|(w, h)| (w, h.saturating_add(MESSAGE_ROWS)))
    }

    fn title(&self) -> Option<String> {
        let what = if self.replay { " replay" } else { "" };
        let mut name = R::NAME.chars();
        let name: String = name
            .next()
            .map(|c| c.to_uppercase().chain(name).collect())
            .unwrap_or_default();
        let turn = self.run.game().turn();
        // A game with levels names the depth, as a player tells where they are; the
        // replay viewer's title also follows its turn.
        Some(match self.rules().summary(self.run.game()).depth {
            0 => format!("Alembic: {name}{what}, turn {turn}"),
            d if self.replay => format!("Alembic: {name}{what}, depth {d}, turn {turn}"),
            d => format!("Alembic: {name}, depth {d}"),
        })
    }
}

/// At most this many commands are replayed to say a continued game's past messages
/// again ([`past_messages`]): a longer game starts from a whole state of its recording
/// (one every [`record::STATE_EVERY`] commands), and one with no such state near enough
/// starts with an empty message log.
pub const MESSAGES_REPLAY_MAX: usize = 20_000;

/// Commands replayed before the game `upto` at least, when [`past_messages`] can start from
/// a whole state: enough for the log's [`LOG_KEEP`] lines in an ordinary game.
pub const MESSAGES_CONTEXT: usize = 2_000;

/// The last [`LOG_KEEP`] messages of the game `upto` as its recording at `path` says them
/// (each with the turn it was said on, oldest first): the game is replayed until it reaches
/// `upto` (its turn and state hash), from the recording's start or, for a long one, from
/// the last whole state at least [`MESSAGES_CONTEXT`] commands before it (read back with
/// the game's `load_text` and checked against its checkpoint). Empty when the recording
/// cannot be read, does not reach `upto`, or would need more than [`MESSAGES_REPLAY_MAX`]
/// commands. Θ(file) to read, then at most that many steps.
#[must_use]
pub fn past_messages<R: Ruleset>(rules: &R, path: &Path, upto: &Game) -> Vec<(u64, String)> {
    use alembic::replay::Entry;
    let Ok(rec) = record::read::<Step<R::Command>>(path, R::NAME) else {
        return Vec::new();
    };
    let want = (upto.turn(), upto.state_hash());
    // Where the game reaches `upto`: the commands before its last checkpoint.
    let Some(end) = rec
        .entries
        .iter()
        .rposition(|e| e.checkpoint() == Some(want))
    else {
        return Vec::new();
    };
    let is_command = |e: &Entry<Step<R::Command>>| matches!(e, Entry::Command { .. });
    let before_end = rec.entries[..end].iter().filter(|e| is_command(e)).count();
    // The latest whole state far enough back, that reads back as its checkpoint says.
    let mut start: Option<(usize, Game)> = None;
    let mut commands = 0;
    let mut last_check = None;
    for (i, e) in rec.entries[..end].iter().enumerate() {
        match e {
            Entry::Command { .. } => commands += 1,
            Entry::State { turn, state } if commands + MESSAGES_CONTEXT <= before_end => {
                if let Some((t, h)) = last_check.filter(|(t, _)| t == turn)
                    && let Ok(saved) = rules.load_text(state)
                    && (saved.game.turn(), saved.game.state_hash()) == (t, h)
                {
                    start = Some((i, saved.game));
                }
            }
            _ => {}
        }
        last_check = e.checkpoint().or(last_check.filter(|_| !is_command(e)));
    }
    let (from, mut game) = match start {
        Some((i, g)) => (i, g),
        None => {
            let modes = crate::Modes::parse(&rec.header.modes).map_err(alembic::Error::from);
            match modes.and_then(|m| rules.new_game_in_modes(rec.header.seed, &m)) {
                Ok(g) => (0, g),
                Err(_) => return Vec::new(),
            }
        }
    };
    let steps: Vec<&Step<R::Command>> = rec.entries[from..end]
        .iter()
        .filter_map(|e| match e {
            Entry::Command { command, .. } => Some(command),
            _ => None,
        })
        .collect();
    if steps.len() > MESSAGES_REPLAY_MAX {
        return Vec::new();
    }
    let mut log: std::collections::VecDeque<(u64, String)> = std::collections::VecDeque::new();
    let reached = |g: &Game| g.turn() == want.0 && g.state_hash() == want.1;
    if reached(&game) {
        return Vec::new();
    }
    for step in steps {
        let Ok((next, said)) = apply_step(rules, &game, step) else {
            return Vec::new();
        };
        game = next;
        for line in said {
            log.push_back((game.turn(), line));
            if log.len() > LOG_KEEP {
                log.pop_front();
            }
        }
        if reached(&game) {
            return log.into();
        }
    }
    Vec::new()
}

/// The help screen's lines: the game's keys, then the session's (the game's own lines,
/// [`Board::help_lines`], follow them on the screen, where a game is in play).
#[must_use]
pub fn help_lines<R: Ruleset + Board<R>>(rules: &R) -> Vec<String> {
    board_help(rules, rules, None)
}

/// The session's own keys that `rules` are offered: the journeys' only when the game
/// answers them ([`Ruleset::journeys`]), running only when it has steps.
fn session_keys<R: Ruleset>(
    rules: &R,
    board: &dyn Board<R>,
) -> impl Iterator<Item = &'static Binding<Own>> + use<R> {
    let tiles = board.has_tiles();
    let journeys = rules.journeys();
    let (travel, rest) = (
        journeys.is_some(),
        journeys.and_then(|j| j.wait()).is_some(),
    );
    let steps = rules.step(Dir::North).is_some();
    let fights = journeys.is_some_and(|j| j.fights());
    SESSION_KEYS.iter().filter(move |b| match b.action {
        Own::Rest | Own::Search => rest,
        Own::Explore => travel,
        Own::Fight => fights,
        Own::Run => steps,
        Own::Tiles => tiles,
        _ => true,
    })
}

/// The keys of `board` that ask questions: none unless the rules answer
/// [`Ruleset::questions`].
fn asks<'a, R: Ruleset>(rules: &R, board: &'a dyn Board<R>) -> &'a [Binding<u32>] {
    if rules.questions().is_some() {
        board.asks()
    } else {
        &[]
    }
}

/// What backing out of a question says.
const NEVER_MIND: &str = "Okay, then.";

/// [`help_lines`] for rules shown on `board`.
fn board_help<R: Ruleset>(rules: &R, board: &dyn Board<R>, game: Option<&Game>) -> Vec<String> {
    let keys = board.keymap();
    let asking = asks(rules, board);
    let mut sections: Vec<&str> = Vec::new();
    for section in keys
        .iter()
        .map(|b| b.section)
        .chain(asking.iter().map(|b| b.section))
    {
        if !sections.contains(&section) {
            sections.push(section);
        }
    }
    let mut lines = Vec::new();
    let toggles = board.view_toggles();
    if rules.step(Dir::North).is_some() {
        // Only the ways the game steps: a game without diagonals does not list them.
        let diagonals = rules.step(Dir::NorthEast).is_some();
        let moving = if diagonals {
            keymap::bind(
                alembic_ui::DIRECTION_KEYS,
                "h j k l y u b n",
                (),
                "Moving",
                "step (arrow keys, and 1-9 as on a numpad, too)",
            )
        } else {
            keymap::bind(
                ORTHOGONAL_KEYS,
                "h j k l",
                (),
                "Moving",
                "step (arrow keys too; no diagonal steps in this game)",
            )
        };
        lines.extend(keymap::help_section(&[moving], "Moving"));
        lines.push(String::new());
    }
    for s in sections {
        lines.extend(keymap::help_section(keys, s));
        let asked = asking
            .iter()
            .filter(|b| b.section == s)
            .map(keymap::help_line);
        lines.extend(asked);
        lines.push(String::new());
    }
    if !toggles.is_empty() {
        lines.extend(keymap::help_section(toggles, "View"));
        lines.push(String::new());
    }
    // "> and < away from stairs travel to them" only for a game whose keys have them.
    let stairs_keys = [Key::Char('>'), Key::Char('<')];
    let has_stairs = stairs_keys
        .iter()
        .all(|s| keys.iter().any(|b| b.keys.contains(s)));
    let own: Vec<Binding<Own>> = session_keys(rules, board)
        .map(|b| match b.action {
            Own::Explore if !has_stairs => EXPLORE_NO_STAIRS,
            _ => *b,
        })
        .collect();
    lines.extend(keymap::help_section(&own, "Session"));
    // The game's own lines last (its goal, its map's legend).
    let theirs = game.map(|g| board.help_lines(g)).unwrap_or_default();
    if !theirs.is_empty() {
        lines.push(String::new());
        lines.extend(theirs);
    }
    lines
}

/// Whether `key` does anything on the play screen of game `R`: a step or a run, a key of
/// the game's keymap or view toggles, or one of the session's own (the help lists exactly
/// these).
#[must_use]
pub fn is_bound<R: Ruleset + Board<R>>(rules: &R, key: Key) -> bool {
    let listed = |keys: &[Key]| keys.contains(&key);
    let input = Input::key(key);
    let steps = |d: Option<Dir>| d.is_some_and(|d| rules.step(d).is_some());
    steps(direction_key(&input))
        || steps(run_key(&input))
        || rules.keymap().iter().any(|b| listed(b.keys))
        || rules.view_toggles().iter().any(|b| listed(b.keys))
        || asks(rules, rules).iter().any(|b| listed(b.keys))
        || session_keys(rules, rules).any(|b| listed(b.keys))
}

/// What the session's own keys do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Own {
    Save,
    Quit,
    Undo,
    Wizard,
    Help,
    Messages,
    Rest,
    Search,
    Explore,
    Fight,
    Run,
    Tiles,
}

/// The direction keys of a game without diagonal steps.
const ORTHOGONAL_KEYS: &[Key] = &[
    Key::Char('h'),
    Key::Char('j'),
    Key::Char('k'),
    Key::Char('l'),
    Key::Left,
    Key::Down,
    Key::Up,
    Key::Right,
];

/// `o`'s help line for a game without stairs keys.
const EXPLORE_NO_STAIRS: Binding<Own> = keymap::bind(
    &[Key::Char('o')],
    "o",
    Own::Explore,
    "Session",
    "explore until something happens; a click travels",
);

#[rustfmt::skip]
const SESSION_KEYS: &[Binding<Own>] = &[
    keymap::bind(&[Key::Char('Z')], "Z", Own::Rest, "Session", "rest until healed or something happens (any key stops)"),
    keymap::bind(&[Key::Char('s')], "s", Own::Search, "Session", "search for 5 turns"),
    keymap::bind(&[Key::Char('o')], "o", Own::Explore, "Session", "explore until something happens; a click travels; > and < away from stairs travel to them"),
    keymap::bind(&[Key::Tab], "Tab", Own::Fight, "Session", "fight the nearest monster in view until it dies, you are badly hurt or another comes"),
    keymap::bind(&[], "Shift+dir", Own::Run, "Session", "run (Shift+arrows too)"),
    keymap::bind(&[Key::Char('S')], "S", Own::Save, "Session", "save and leave"),
    keymap::bind(&[Key::Char('Q')], "Q", Own::Quit, "Session", "quit this game (it ends here)"),
    keymap::bind(&[Key::Char('U')], "U", Own::Undo, "Session", "take a move back (practice games)"),
    keymap::bind(&[Key::Char('~'), Key::Char('&')], "~ &", Own::Wizard, "Session", "wizard console (wizard games)"),
    keymap::bind(&[Key::Char('?'), Key::F(1)], "? F1", Own::Help, "Session", "this help"),
    keymap::bind(&[Key::Char('P'), Key::Char('m')], "P m", Own::Messages, "Session", "earlier messages"),
    keymap::bind(&[Key::F(2)], "F2", Own::Tiles, "Session", "tiles or letters on the map (where the frontend draws tiles: the window)"),
];

// ----- start ---------------------------------------------------------------------------------

impl<R: Ruleset> StartHost for Session<R> {
    fn heading(&self) -> Heading {
        Heading {
            name: R::NAME,
            title: R::TITLE,
            lines: R::INTRO,
            art: &[],
            title_colour: Palette::DEFAULT.accent,
            art_colours: (Palette::DEFAULT.text, None),
        }
    }

    fn save_place(&self) -> Option<&Path> {
        self.save_to.as_deref()
    }

    fn scores_file(&self) -> String {
        self.rules().scores_file()
    }

    fn help(&self) -> (String, Vec<String>) {
        (
            format!("{}: help", R::NAME),
            board_help(self.rules(), self.board(), Some(self.game())),
        )
    }

    fn practice_by_default(&self) -> bool {
        self.practice_default
    }

    fn next_game(&self) -> Option<String> {
        if let Some(why) = &self.broken {
            return Some(format!("The game could not be made: {why}"));
        }
        if self.begun {
            return None;
        }
        let mut next = format!("seed {}", self.run.seed());
        for m in self.run.modes().to_strings() {
            next += &format!(" · {m}");
        }
        Some(next)
    }

    fn new_game(&mut self, seed: Option<u64>, practice: bool) -> Result<(), NewGameError> {
        // The game made at launch (its seed from the command line) is the first one played.
        let launch_game = !self.begun
            && self.broken.is_none()
            && seed.is_none_or(|s| s == self.run.seed())
            && practice == self.run.is_practice();
        if !launch_game {
            let seed = match seed {
                Some(s) => s,
                None if !self.begun => self.run.seed(),
                None => clock_seed(),
            };
            let rules = self.run.rules_arc().clone();
            let board = self.board.clone();
            let fresh = Session::in_modes(rules, board, seed, practice, self.run.is_wizard());
            if let Some(why) = fresh.broken {
                return Err(NewGameError(format!("The game could not be made: {why}")));
            }
            let (flush, cadence) = (self.run.flushing_appends(), self.run.cadence());
            self.run = fresh.run;
            self.run.set_flush_appends(flush);
            self.run.set_cadence(cadence);
        }
        self.log.clear();
        self.notice = None;
        self.filed.clear();
        self.hover = None;
        self.announced.clear();
        self.told.clear();
        self.start_recording();
        for line in self.rules().opening(self.game()) {
            self.say(line);
        }
        if self.run.is_practice() {
            // Said once, as Alchemy says it: the game opens straight on the map now.
            self.say(PRACTICE_HELLO.to_owned());
        }
        Ok(())
    }

    fn continue_moves(&self) -> Option<usize> {
        let path = self.save_to.as_deref()?;
        let save = || read_save(self.rules(), path).ok().map(|s| s.game);
        record::moves_after::<Step<R::Command>>(&record::beside(path), R::NAME, save)
    }

    fn continue_game(&mut self) -> Result<(), ContinueError> {
        let Some(path) = self.save_to.clone() else {
            return Err(ContinueError("there is no save directory".into()));
        };
        let (rules, board) = (self.run.rules_arc().clone(), self.board.clone());
        let mut loaded = Session::load_reporting(rules, board, &path, &mut |_, _| {})
            .map_err(|e| ContinueError(e.to_string()))?;
        loaded.lock = self.lock.take();
        loaded.view = self.view;
        loaded.practice_default = self.practice_default;
        loaded.fight_until = self.fight_until;
        loaded.run.set_flush_appends(self.run.flushing_appends());
        loaded.run.set_cadence(self.run.cadence());
        let ended = loaded.ended();
        *self = loaded;
        if ended {
            // Filed as it loaded: nothing to play, and the start screen says why.
            self.notice = None;
            return Err(ContinueError(ENDED_BEFORE.to_owned()));
        }
        Ok(())
    }

    fn close_game(&mut self) {
        self.hover = None;
        self.notice = None;
    }

    fn play(&mut self) -> Transition<Self, StartScreen> {
        Transition::ask(PlayScreen::default(), |()| StartReply::GameOver)
    }
}

// ----- play ----------------------------------------------------------------------------------

/// The play screen: the last messages, then the game's own drawing.
#[derive(Default)]
struct PlayScreen {
    /// A rest, run or travel under way (its memo: the log's length before a step).
    auto: Option<Journey<Trip>>,
    /// The frame's area at the last drawing (for the mouse).
    area: Rect,
    /// The death of the game in play was paused on (`--More--`) and read.
    death_read: bool,
}

/// Draw the messages and the game: the play screen and the replay viewer share it.
fn draw_play<R: Ruleset>(s: &Session<R>, frame: &mut Frame, area: Rect) {
    let p = Palette::DEFAULT;
    fill(frame, area, Cell::blank(p.text, BG));
    let (msgs, rest) = area.split_top(MESSAGE_ROWS);
    let now = s.game().turn();
    // The newest lines, each wrapped to the width (a long sentence is read to its end), the
    // notice last. What does not fit goes off the top (`m` shows the whole log); a notice
    // longer than the rows goes on over the top of the map, drawn after it.
    let width = usize::from(msgs.width).max(1);
    let wrap = |text: &str, fg: Rgb| -> Vec<(String, Rgb)> {
        wrap_text(text, width)
            .into_iter()
            .map(|l| (l, fg))
            .collect()
    };
    let mut said: Vec<(&str, Rgb)> = s
        .log
        .iter()
        .rev()
        .take(usize::from(MESSAGE_ROWS))
        .map(|(t, m)| {
            let fresh = t.saturating_add(1) >= now;
            (m.as_str(), if fresh { p.text } else { p.dim })
        })
        .collect();
    said.reverse();
    let mut lines: Vec<(String, Rgb)> = said.into_iter().flat_map(|(t, fg)| wrap(t, fg)).collect();
    let notice = s
        .notice
        .as_deref()
        .map(|n| wrap(n, p.accent))
        .unwrap_or_default();
    let rows = usize::from(msgs.height);
    let over_map = notice.len() > rows;
    if over_map {
        lines.clear();
    } else {
        lines.extend(notice.iter().cloned());
    }
    let skip = lines.len().saturating_sub(rows);
    for (row, (text, fg)) in lines.iter().skip(skip).enumerate() {
        put_clipped(frame, msgs, msgs.x, msgs.y + row as u16, text, *fg, BG);
    }
    s.board().draw(s.game(), frame, rest, &s.view);
    if over_map {
        for (row, (text, fg)) in notice.iter().enumerate() {
            let y = msgs
                .y
                .saturating_add(u16::try_from(row).unwrap_or(u16::MAX));
            if y >= area.bottom() {
                break;
            }
            let line = Rect::new(area.x, y, area.width, 1);
            fill(frame, line, Cell::blank(*fg, BG));
            put_clipped(frame, line, line.x, y, text, *fg, BG);
        }
    }
    if let Some(h) = &s.hover {
        let row = rest.y + rest.height.saturating_sub(1);
        put_clipped(frame, rest, rest.x, row, h, p.accent, BG);
    }
}

/// The pointer and the look line of a question over the play screen: the board's.
impl<R: Ruleset> MapHost for Session<R> {
    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<alembic::Loc> {
        self.board().cell_at(self.game(), area, x, y)
    }

    fn describe_cell(&self, cell: alembic::Loc) -> Option<String> {
        self.board().describe_cell(self.game(), cell)
    }
}

impl<R: Ruleset> Screen<Session<R>> for PlayScreen {
    type Output = ();
    /// The answer to "quit?" or "rewind?".
    type Reply = Answer;

    fn render(&mut self, s: &Session<R>, frame: &mut Frame, area: Rect) {
        self.area = area;
        draw_play(s, frame, area);
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.auto.is_some().then_some(AUTO_DELAY)
    }

    fn tick(&mut self, s: &mut Session<R>) -> Transition<Session<R>, Self> {
        self.auto_step(s);
        self.after_turn(s)
    }

    fn handle(&mut self, s: &mut Session<R>, input: Input) -> Transition<Session<R>, Self> {
        // Any key stops a rest, a run or a travel (and does nothing else).
        if self.auto.is_some() && matches!(input, Input::Key { .. }) {
            self.auto = None;
            s.notice = Some("You stop.".into());
            return Transition::Stay;
        }
        if let Input::Mouse { kind, x, y, .. } = input {
            self.mouse(s, kind, x, y);
            return self.after_turn(s);
        }
        if let Some(d) = run_key(&input)
            && s.rules().step(d).is_some()
        {
            self.begin(s, Auto::Run(d));
            return self.after_turn(s);
        }
        let Some(key) = plain_key(&input) else {
            return Transition::Stay;
        };
        s.hover = None;
        let step = direction_key(&input)
            .filter(|_| keymap::find(s.board().keymap(), key).is_none())
            .and_then(|d| s.rules().step(d));
        if let Some(c) = step {
            let _ = s.play(Step::Play(c));
        } else if let Some(c) = keymap::find(s.board().keymap(), key) {
            let refused = s.play(Step::Play(c));
            // A `>` or `<` the rules refuse (away from stairs) travels to the nearest known
            // ones; an engine error never does.
            if let Err(StepRefusal::Rule(_)) = refused
                && let Key::Char(k @ ('>' | '<')) = key
                && s.rules()
                    .journeys()
                    .and_then(|j| j.route(s.game(), Goal::Stairs { down: k == '>' }))
                    .is_some()
            {
                s.notice = None;
                self.begin(s, Auto::Travel(Goal::Stairs { down: k == '>' }));
            }
        } else if let Some(id) = keymap::find(asks(s.rules(), s.board()), key) {
            return self.pose(s, id, Vec::new());
        } else if let Some(b) = s
            .board()
            .view_toggles()
            .iter()
            .find(|b| b.keys.contains(&key))
        {
            s.view.toggles ^= 1 << b.action;
            // Said, since some switches show nothing at once (autopickup).
            let on = s.view.toggles & (1 << b.action) != 0;
            let what = b.help.split(':').next().unwrap_or(b.help);
            let mut what = what.chars();
            let first = what.next().map(|c| c.to_uppercase().collect::<String>());
            s.notice = Some(format!(
                "{}{} ({}).",
                first.unwrap_or_default(),
                what.as_str(),
                if on { "on" } else { "off" }
            ));
        } else if let Some(own) = session_keys(s.rules(), s.board())
            .find(|b| b.keys.contains(&key))
            .map(|b| b.action)
        {
            match own {
                Own::Help => {
                    let help = board_help(s.rules(), s.board(), Some(s.game()));
                    return Transition::push(TextScreen::new("Help", help));
                }
                Own::Messages => {
                    let all = s.log.iter().map(|(_, m)| m.clone()).collect();
                    return Transition::push(MessageLogScreen::new("Messages", all));
                }
                Own::Quit => {
                    return Transition::ask(
                        Confirm::new(slot::quit_question(s.run.owns_save())),
                        Answer::Quit,
                    );
                }
                Own::Save => match s.save() {
                    Ok(p) => {
                        s.run.mark_player_saved();
                        s.exit_note = Some(Ok(format!("Your game was saved to {}.", p.display())));
                        return Transition::Quit;
                    }
                    Err(e) => s.notice = Some(e.to_string()),
                },
                Own::Undo => {
                    s.undo(1);
                }
                Own::Wizard if s.run.is_wizard() => {
                    return Transition::push(WizardConsole::new(CONSOLE_HELLO));
                }
                Own::Wizard => {
                    s.notice = Some(
                        "Only wizard games have the console (start one with --wizard).".into(),
                    );
                }
                Own::Rest => self.begin(s, Auto::Rest),
                Own::Search => self.begin(s, Auto::Search),
                Own::Explore => self.begin(s, Auto::Travel(Goal::Explore)),
                Own::Fight => self.begin(s, Auto::Fight),
                // Running has no key of its own (Shift+direction, above).
                Own::Run => {}
                Own::Tiles => {
                    s.view.tiles = !s.view.tiles;
                    s.notice = Some(
                        if s.view.tiles {
                            "Tiles (on, where the frontend draws them)."
                        } else {
                            "Tiles (off): letters."
                        }
                        .into(),
                    );
                }
            }
        } else if let Key::Char(c) = key
            && !c.is_control()
        {
            s.notice = Some(format!("Unknown key '{c}'. Press ? for help."));
        }
        self.after_turn(s)
    }

    fn on_result(&mut self, s: &mut Session<R>, reply: Answer) -> Transition<Session<R>, Self> {
        match reply {
            // Quitting ends the game as dying does, and shows the same summary (Enter: the
            // start screen, `q`: leave).
            Answer::Quit(true) => {
                s.finish(true);
                end_screen(s)
            }
            Answer::Rewind(true) => {
                s.undo(REWIND);
                Transition::Stay
            }
            Answer::Rewind(false) => {
                s.finish(false);
                end_screen(s)
            }
            Answer::Quit(false) => Transition::Stay,
            Answer::DeathRead => self.after_turn(s),
            Answer::Replied { reply: None, .. } => {
                s.notice = Some(NEVER_MIND.into());
                Transition::Stay
            }
            Answer::Replied {
                key,
                mut replies,
                question,
                reply: Some(reply),
            } => {
                if !question.accepts(&reply) {
                    s.notice = Some(format!("That does not answer \"{}\".", question.prompt()));
                    return Transition::Stay;
                }
                replies.push(reply);
                self.pose(s, key, replies)
            }
            Answer::End(AfterEnd::Menu) => Transition::Pop(()),
            Answer::End(AfterEnd::Again) => {
                let next = s.seed().wrapping_add(1);
                s.restart(next);
                Transition::Stay
            }
        }
    }

    fn on_quit(&mut self, s: &mut Session<R>) {
        if s.save_path().is_some() && !s.run.is_ended() && s.status() == Status::Playing {
            let r = s.save();
            s.exit_note = Some(
                r.map(|p| format!("Your game was saved to {}.", p.display()))
                    .map_err(|e| e.to_string()),
            );
        }
    }

    fn name(&self) -> &str {
        "play"
    }
}

impl PlayScreen {
    /// Ask what the game asks for the key `key` after `replies`: the next question, a word,
    /// or the command made of the replies, played.
    fn pose<R: Ruleset>(
        &mut self,
        s: &mut Session<R>,
        key: u32,
        replies: Vec<Reply>,
    ) -> Transition<Session<R>, Self> {
        let Some(asked) = s
            .rules()
            .questions()
            .map(|q| q.ask(s.game(), key, &replies))
        else {
            return Transition::Stay;
        };
        match asked {
            Asked::Play(c) => {
                let _ = s.play(Step::Play(c));
                self.after_turn(s)
            }
            Asked::Say(text) => match text.split_once('\n') {
                Some((title, rest)) => Transition::push(TextScreen::new(title, rest.lines())),
                None => {
                    s.notice = Some(text);
                    Transition::Stay
                }
            },
            Asked::Travel(cell) if s.rules().journeys().is_some() => {
                self.begin(s, Auto::Travel(Goal::Cell(cell)));
                self.after_turn(s)
            }
            Asked::Travel(_) => {
                s.notice = Some("This game has no travel.".into());
                Transition::Stay
            }
            Asked::Ask(question) => {
                let screen = QuestionScreen::new(question.clone());
                Transition::ask(screen, move |reply| Answer::Replied {
                    key,
                    replies,
                    question,
                    reply,
                })
            }
        }
    }

    /// Begin a rest, run or travel: its first step now, the rest one a tick.
    fn begin<R: Ruleset>(&mut self, s: &mut Session<R>, auto: Auto) {
        self.auto = Some(Journey::new(auto));
        self.auto_step(s);
    }

    /// One step of the rest, run or travel under way ([`Journey::step`]); when it ends, the
    /// player is told why.
    fn auto_step<R: Ruleset>(&mut self, s: &mut Session<R>) {
        let Some(journey) = &mut self.auto else {
            return;
        };
        if let Some(end) = journey.step(s) {
            self.auto = None;
            if let Some(why) = end.sentence() {
                s.notice = Some(why.to_owned());
            }
        }
    }

    /// The pointer: hovering says what is there; a left click travels there.
    fn mouse<R: Ruleset>(&mut self, s: &mut Session<R>, kind: MouseKind, x: u16, y: u16) {
        let area = play_area(self.area);
        let Some(cell) = s.board().cell_at(s.game(), area, x, y) else {
            s.hover = None;
            return;
        };
        match kind {
            MouseKind::Move => s.hover = s.board().describe_cell(s.game(), cell),
            MouseKind::Down(MouseButton::Left) if s.rules().journeys().is_some() => {
                s.hover = None;
                self.begin(s, Auto::Travel(Goal::Cell(cell)));
            }
            _ => {}
        }
    }

    /// After a move: the end screen, or in practice the offer to rewind a death.
    fn after_turn<R: Ruleset>(&mut self, s: &mut Session<R>) -> Transition<Session<R>, Self> {
        match s.status() {
            Status::Playing => {
                self.death_read = false;
                Transition::Stay
            }
            // A death first pauses on the map, its last words in view, as in DCSS.
            Status::Over(e) if !e.won && s.board().pause_on_death() && !self.death_read => {
                self.auto = None;
                self.death_read = true;
                Transition::ask(DeathPause, |()| Answer::DeathRead)
            }
            Status::Over(e) if !e.won && s.run.is_practice() && s.run.undo_depth() > 0 => {
                self.auto = None;
                Transition::ask(Confirm::new(rewind_question(&e.cause)), Answer::Rewind)
            }
            Status::Over(_) => {
                self.auto = None;
                s.finish(false);
                end_screen(s)
            }
        }
    }
}

/// What the session remembers during one journey: the log's length before the step, and in
/// a fight its foe, the foes it began with and the hit points it stops below.
#[derive(Clone, Debug, Default)]
pub struct Trip {
    said: usize,
    /// The step under way is explore's own doing where the hero stands (a pick-up): what
    /// it says does not stop the journey.
    here: bool,
    foe: Option<ThingId>,
    seen: Vec<ThingId>,
    floor: Option<i64>,
}

/// The session's answers to a journey: the ruleset's ([`Journeys::route`],
/// [`Journeys::interrupt`], [`Journeys::rested`], and for a fight [`Journeys::foes`] and
/// [`Journeys::health`]); a step that is refused or says anything ends it, except in a fight,
/// which ends when its foe is gone, the hero is badly hurt
/// ([`FIGHT_UNTIL_PERCENT`](crate::journey::FIGHT_UNTIL_PERCENT)) or another foe comes.
impl<R: Ruleset> Walker for Session<R> {
    type Command = R::Command;
    type Memo = Trip;

    fn game(&self) -> Option<&Game> {
        Some(self.run.game())
    }

    fn begin(&mut self, auto: Auto, trip: &mut Trip) -> Result<(), JourneyRefused> {
        let search = match auto {
            Auto::Rest => false,
            Auto::Search => true,
            Auto::Fight => return self.begin_fight(trip),
            Auto::Travel(_) | Auto::Run(_) => {
                return match self.rules().journeys() {
                    Some(j) => j.may_go(self.game()).map_err(|e| JourneyRefused(e.0)),
                    None => Ok(()),
                };
            }
        };
        match self.rules().journeys() {
            Some(j) if j.wait().is_some() => j
                .may_rest(self.game(), search)
                .map_err(|e| JourneyRefused(e.0)),
            _ => Err(JourneyRefused("This game has no resting.".into())),
        }
    }

    fn next(&mut self, auto: Auto, first: bool, trip: &mut Trip) -> Result<R::Command, End> {
        let rules = self.run.rules_arc().clone();
        let journeys = rules.journeys();
        trip.here = false;
        if auto == Auto::Fight {
            // The foe's step while it is still a foe; gone (dead, fled), the fight is over.
            let foes = journeys.map(|j| j.foes(self.game())).unwrap_or_default();
            let foe = foes.iter().find(|f| Some(f.id) == trip.foe);
            return foe.and_then(|f| rules.step(f.step)).ok_or(End::Arrived);
        }
        let command = match auto {
            Auto::Rest | Auto::Search => journeys.and_then(|j| j.wait()),
            Auto::Run(d) => rules.step(d),
            Auto::Travel(Goal::Explore) => journeys.and_then(|j| {
                let here = j.explore_here(self.game(), &self.view);
                trip.here = here.is_some();
                here.or_else(|| {
                    j.route_in(self.game(), Goal::Explore, &self.view)
                        .and_then(|d| rules.step(d))
                })
            }),
            Auto::Travel(goal) => journeys
                .and_then(|j| j.route_in(self.game(), goal, &self.view))
                .and_then(|d| rules.step(d)),
            _ => None,
        };
        if let Some(c) = command {
            return Ok(c);
        }
        // Explore ran out: said, then the game's hint on a line of its own, if it has one.
        let mut explored_out = |done: &str| match journeys.and_then(|j| j.explored_out(self.game()))
        {
            Some(hint) => {
                self.say(done.to_owned());
                hint
            }
            None => done.to_owned(),
        };
        Err(match auto {
            Auto::Travel(goal) if first => End::Interrupted(match goal {
                Goal::Explore => explored_out("There is nothing left to explore from here."),
                Goal::Stairs { .. } => "You know of no such stairs you can reach.".into(),
                Goal::Cell(_) => "You know no way there.".into(),
            }),
            Auto::Travel(Goal::Explore) => End::Interrupted(explored_out("Done exploring.")),
            Auto::Travel(_) => End::Arrived,
            _ => End::Interrupted(String::new()),
        })
    }

    fn take(&mut self, command: R::Command, trip: &mut Trip) -> Option<End> {
        trip.said = self.log.len();
        let _ = self.play(Step::Play(command));
        (self.status() != Status::Playing).then_some(End::GameOver)
    }

    fn interrupt(&mut self, auto: Auto, before: &Game, trip: &mut Trip) -> Option<End> {
        if self.game().turn() == before.turn() {
            return Some(End::Interrupted(String::new()));
        }
        if auto == Auto::Fight {
            return self.fight_interrupted(trip);
        }
        let quiet = trip.here
            || self
                .rules()
                .journeys()
                .is_some_and(|j| j.says_nothing_new(before, self.game()));
        if self.log.len() > trip.said && !quiet && !self.told_before(before, trip.said) {
            return Some(End::Interrupted(String::new()));
        }
        self.run
            .rules()
            .journeys()
            .and_then(|j| j.interrupt_told(before, self.run.game(), &mut self.announced))
            .map(End::Interrupted)
    }

    fn rested(&self) -> bool {
        self.rules()
            .journeys()
            .is_some_and(|j| j.rested(self.game()))
    }
}

impl<R: Ruleset> Session<R> {
    /// Whether a journey's step that moved the hero says only what it said on an earlier
    /// arrival at the same place (the lines from `said` on): remembering them otherwise.
    fn told_before(&mut self, before: &Game, said: usize) -> bool {
        let Some(j) = self.rules().journeys() else {
            return false;
        };
        let (Some(was), Some(at)) = (j.place(before), j.place(self.game())) else {
            return false;
        };
        if was == at {
            return false;
        }
        let lines = self.log.get(said..).unwrap_or_default();
        if lines
            .iter()
            .all(|(_, l)| self.told.contains(&(at, l.clone())))
        {
            return true;
        }
        if self.told.len() + lines.len() > TOLD_KEEP {
            self.told.clear();
        }
        let new: Vec<(Loc, String)> = lines.iter().map(|(_, l)| (at, l.clone())).collect();
        self.told.extend(new);
        false
    }

    /// A fight's start: its foe (the nearest), the foes in view, the hit points it stops
    /// below.
    fn begin_fight(&mut self, trip: &mut Trip) -> Result<(), JourneyRefused> {
        let Some(j) = self.rules().journeys().filter(|j| j.fights()) else {
            return Err(JourneyRefused("This game has no auto-fight.".into()));
        };
        let foes = j.foes(self.game());
        let foe = foes
            .first()
            .ok_or_else(|| JourneyRefused("There is nothing in view you can fight.".to_owned()))?;
        trip.foe = Some(foe.id);
        trip.seen = foes.iter().map(|f| f.id).collect();
        trip.floor = j.health(self.game()).map(|(hp, most)| {
            let floor = most * self.fight_until / 100;
            // Already below it: fight on, but stop at any further loss.
            if hp < floor { hp } else { floor }
        });
        Ok(())
    }

    /// Whether a blow or a step of a fight ends it: the hero badly hurt, or a foe that was
    /// not there when it began. (What the blows say does not stop it.)
    fn fight_interrupted(&self, trip: &Trip) -> Option<End> {
        let j = self.rules().journeys()?;
        if let (Some(floor), Some((hp, _))) = (trip.floor, j.health(self.game()))
            && hp < floor
        {
            return Some(End::Interrupted(
                "You stop fighting: you are badly hurt.".to_owned(),
            ));
        }
        let new = j
            .foes(self.game())
            .into_iter()
            .find(|f| !trip.seen.contains(&f.id))?;
        Some(End::Interrupted(format!(
            "You stop fighting: {} comes.",
            new.name
        )))
    }
}

/// What the play screen asked.
#[derive(Clone, Debug)]
enum Answer {
    Quit(bool),
    Rewind(bool),
    End(AfterEnd),
    /// The `--More--` after a death was read.
    DeathRead,
    /// The reply to a game's question: the key that began the asking, the replies before
    /// it, the question, and the reply (`None`: backed out).
    Replied {
        key: u32,
        replies: Vec<Reply>,
        question: Question,
        reply: Option<Reply>,
    },
}

/// The pause after a death (`--More--` under the last messages); any key or click goes on.
struct DeathPause;

impl<R: Ruleset> Screen<Session<R>> for DeathPause {
    type Output = ();
    type Reply = std::convert::Infallible;

    fn render(&mut self, _: &Session<R>, frame: &mut Frame, area: Rect) {
        // A box in the middle, so the last messages above stay in view.
        let p = Palette::DEFAULT;
        let inside = alembic_ui::draw_box(frame, area.centred(24, 4), &p, None);
        put_clipped(
            frame,
            inside,
            inside.x + 1,
            inside.y,
            "You die...",
            Rgb::new(230, 80, 70),
            p.bg,
        );
        put_clipped(
            frame,
            inside,
            inside.x + 1,
            inside.y + 1,
            "--More-- (any key)",
            p.accent,
            p.bg,
        );
    }

    fn handle(&mut self, _: &mut Session<R>, input: Input) -> Transition<Session<R>, Self> {
        match input {
            Input::Key { .. }
            | Input::Mouse {
                kind: MouseKind::Down(_),
                ..
            } => Transition::Pop(()),
            _ => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "more"
    }
}

/// The first line of a practice game.
const PRACTICE_HELLO: &str = "A practice game: U takes back a move.";

/// What a continue of a game that had ended says: it is filed, its save removed.
const ENDED_BEFORE: &str =
    "This game had ended before its window closed: it is filed now, and its save removed.";

/// The end screen of the session's game, which is over and filed.
fn end_screen<R: Ruleset>(s: &Session<R>) -> Transition<Session<R>, PlayScreen> {
    let messages: Vec<String> = s.log.iter().map(|(_, m)| m.clone()).collect();
    let end = EndScreen::of(s.rules(), s.game(), s.run.known_seed(), &messages, &s.filed);
    Transition::ask(end, Answer::End)
}

// ----- wizard --------------------------------------------------------------------------------

/// What the console says first.
const CONSOLE_HELLO: &str = "Wizard mode. Type help for the commands; Tab completes; Esc closes.";

impl<R: Ruleset> ConsoleHost for Session<R> {
    fn wizard_commands(&self) -> Option<(&WizardCommands<Game>, &Game)> {
        self.rules().wizard().map(|w| (w, self.game()))
    }

    fn run_line(&mut self, line: &str) -> Result<(Vec<String>, bool), LineRefused> {
        self.notice = None;
        let played = self
            .run
            .play(&Step::Wizard {
                wizard: line.to_owned(),
            })
            .map_err(|e| LineRefused(e.to_string()))?;
        // What the line said is the console's: it never goes into the game's message log.
        self.show_problems();
        Ok((played.said, played.over))
    }

    fn own_words(&self) -> &'static [(&'static str, &'static str)] {
        if self.rules().reloads() {
            &[RELOAD]
        } else {
            &[]
        }
    }

    fn run_own(&mut self, word: &str) -> Vec<String> {
        if word != RELOAD.0 {
            return vec![format!("Unknown word: {word}.")];
        }
        match self.reload_data() {
            Ok(lines) => lines,
            Err(why) => why.lines().map(str::to_owned).collect(),
        }
    }
}

/// The console's own word for games whose data can be read again ([`Ruleset::reloads`]):
/// it reads files, so it is not a command a recording could replay.
const RELOAD: (&str, &str) = (
    "reload",
    "Read the data files and mods again; things take the new values.",
);

/// The names of the prototypes that differ between `old` and `new` (changed, added or
/// gone), sorted.
fn changed_prototypes(old: &alembic::Library, new: &alembic::Library) -> Vec<String> {
    let mut names: Vec<String> = new
        .prototypes()
        .filter(|p| old.get(p.name()).ok() != Some(*p))
        .chain(old.prototypes().filter(|p| new.get(p.name()).is_err()))
        .map(|p| p.name().to_string())
        .collect();
    names.sort();
    names.dedup();
    names
}

impl<R: Ruleset> Session<R> {
    /// The wizard console's `reload`: the rules' data read again, the game moved onto it
    /// (its recording so far kept as a finished game's, since it replays on the old data),
    /// and saved. What it did, a sentence a line; `Err` when nothing changed.
    fn reload_data(&mut self) -> Result<Vec<String>, String> {
        if self.replay {
            return Err("A recording cannot reload its data.".into());
        }
        if !self.run.is_wizard() {
            return Err("Only a wizard game can reload its data (start with --wizard).".into());
        }
        let old = self.run.rules_arc().clone();
        let new = old.reloaded().map_err(|e| {
            format!("The data was not reloaded; nothing changed. Its mistakes:\n{e}")
        })?;
        let saved = alembic::save::SavedGame::of(self.game(), old.library())
            .map_err(|e| format!("The data was not reloaded: {e}"))?;
        let rebased = saved
            .link(new.library(), &new.hooks())
            .map_err(|e| format!("The data was not reloaded; nothing changed: {e}"))?;
        let changed = changed_prototypes(old.library(), new.library());
        let mut lines = vec![match changed.as_slice() {
            [] => "Reloaded the data: no prototype changed.".to_string(),
            [one] => format!("Reloaded the data: {one} changed."),
            many => format!(
                "Reloaded the data: {} prototypes changed ({}).",
                many.len(),
                many.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ),
        }];
        match self.run.rebase(Arc::new(new), rebased) {
            Some(Ok(p)) => lines.push(format!(
                "The recording up to now is kept as {}; the rest of this game is not recorded.",
                p.display()
            )),
            Some(Err(e)) => {
                lines.push("The rest of this game is not recorded.".into());
                self.record_problems.push(e.to_string());
            }
            None => {}
        }
        if self.run.owns_save() && self.run.save_path().is_some() {
            match self.run.save() {
                Ok(p) => lines.push(format!("Saved on the new data to {}.", p.display())),
                Err(e) => lines.push(format!("The game could not be saved: {e}")),
            }
        }
        Ok(lines)
    }
}

// ----- replay --------------------------------------------------------------------------------

impl<R: Ruleset> Watch for Session<R> {
    fn show_state(&mut self, game: &Game, said: &[String]) {
        self.run.show(game.clone());
        self.log.clear();
        for l in said {
            self.say(l.clone());
        }
    }

    fn draw_state(&self, frame: &mut Frame, area: Rect) {
        draw_play(self, frame, area);
    }

    fn leave_replay(&mut self) -> bool {
        true
    }
}

/// Watch the recording at `path` of game `R`, with step back.
///
/// # Errors
/// [`crate::playback::ReplayOpenError`]: unreadable, another game's, too long, or diverging.
pub fn replay_app<R: Ruleset + Board<R>>(
    rules: Arc<R>,
    path: &Path,
) -> Result<ScreenStack<Session<R>>, crate::playback::ReplayOpenError> {
    let board: Arc<dyn Board<R>> = rules.clone();
    replay_app_with(rules, board, path)
}

/// [`replay_app`] for rules shown on `board`.
///
/// # Errors
/// As [`replay_app`].
pub fn replay_app_with<R: Ruleset>(
    rules: Arc<R>,
    board: Arc<dyn Board<R>>,
    path: &Path,
) -> Result<ScreenStack<Session<R>>, crate::playback::ReplayOpenError> {
    replay_app_kept(rules, board, path, None)
}

/// [`replay_app_with`], seeking also from the whole states `kept` by the process that
/// writes the recording (a live game's past, watched while it is played:
/// [`Playback::with_kept`]).
///
/// # Errors
/// As [`replay_app`].
pub fn replay_app_kept<R: Ruleset>(
    rules: Arc<R>,
    board: Arc<dyn Board<R>>,
    path: &Path,
    kept: Option<&Arc<crate::playback::KeptStates>>,
) -> Result<ScreenStack<Session<R>>, crate::playback::ReplayOpenError> {
    let start = {
        let rules = rules.clone();
        move |h: &alembic::replay::ReplayHeader| {
            rules.new_game_in_modes(h.seed, &crate::Modes::parse(&h.modes)?)
        }
    };
    let step = {
        let rules = rules.clone();
        move |g: &Game, c: &Step<R::Command>| apply_step(&*rules, g, c)
    };
    let restore = {
        let rules = rules.clone();
        move |text: &str| {
            rules
                .load_text(text)
                .map(|saved| saved.game)
                .map_err(|e| e.to_string())
        }
    };
    let data = rules.data();
    let playback = match kept {
        // A live game's past: parsed once, each look adding the lines written since.
        Some(kept) => Playback::open_kept(path, R::NAME, &data, kept, start, step)?,
        None => Playback::open_saying(path, R::NAME, &data, start, step)?,
    }
    .with_states(restore);
    // The viewer shows the recording's own states: no game is made for the session.
    let mut s = Session::over(Run::with_game(rules, 0, Game::new(0)), board);
    s.replay = true;
    s.view.replaying = true;
    let viewer = Viewer::saying(&mut s, playback, Rgb::new(240, 200, 90));
    Ok(ScreenStack::new(s, viewer)
        .with_title(Session::title)
        .with_grid(Session::preferred_grid))
}

/// The app of a session, starting at the start screen.
#[must_use]
pub fn app<R: Ruleset>(session: Session<R>) -> ScreenStack<Session<R>> {
    let start = StartScreen::new(&session);
    dressed(ScreenStack::new(session, start))
}

/// A session's stack opened on its play screen, with the start screen under it (where the
/// game's end leads): a new session's game begins at once, a loaded one goes on. This is
/// what `--seed` starts with in every game, and what the browser serves: no menu before
/// the game the player asked for.
pub fn app_playing<R: Ruleset>(mut session: Session<R>) -> ScreenStack<Session<R>> {
    if !session.begun {
        let practice = session.run.is_practice();
        if let Err(why) = StartHost::new_game(&mut session, None, practice) {
            let start = StartScreen::new(&session).with_note(why.0);
            return dressed(ScreenStack::new(session, start));
        }
    }
    let start = StartScreen::new(&session);
    let first = StartHost::play(&mut session);
    dressed(ScreenStack::opening(session, start, first))
}

/// A session's stack with its farewell, window grid, title and emergency save.
fn dressed<R: Ruleset>(stack: ScreenStack<Session<R>>) -> ScreenStack<Session<R>> {
    stack
        .with_farewell(Session::farewell)
        .with_grid(Session::preferred_grid)
        .with_title(Session::title)
        .with_emergency_save(Session::emergency_save)
}

/// Start game `R` as `opts` ask (watch a recording, continue a save, or a new game, with
/// the save's lock taken): what a game's entry in the registry of games calls, with `rules`
/// made on the data `opts` name ([`Ruleset::data`]).
///
/// # Errors
/// [`LaunchError`]: a bad save or recording, a save open elsewhere. Nothing is touched then.
pub fn launch<R: Ruleset + Board<R>>(
    rules: R,
    opts: &LaunchOptions,
) -> Result<Box<dyn App>, LaunchError> {
    let rules = Arc::new(rules);
    let board: Arc<dyn Board<R>> = rules.clone();
    launch_with(rules, board, opts)
}

/// [`launch`] for rules shown on `board` (a game whose screens are not its rules' type).
///
/// # Errors
/// As [`launch`].
pub fn launch_with<R: Ruleset>(
    rules: Arc<R>,
    board: Arc<dyn Board<R>>,
    opts: &LaunchOptions,
) -> Result<Box<dyn App>, LaunchError> {
    if let Some(path) = &opts.replay {
        let app = replay_app_with(rules, board, path).map_err(|e| LaunchError::BadReplay {
            path: path.clone(),
            source: Box::new(e),
        })?;
        return Ok(Box::new(app));
    }
    let save_path = save_dir().map(|d| d.join(save_file::<R>()));
    // What processes that died while saving left: beside the default save, and beside the
    // save `--load` names.
    for dir in [save_path.as_deref(), opts.load.as_deref()]
        .into_iter()
        .flatten()
        .filter_map(Path::parent)
    {
        storage::sweep_leftovers(dir);
    }
    // Nothing is read or written before the save's lock is held: a refused second window
    // never replays (and so rewrites) the journal of the game the first one plays.
    let lock_path = opts.load.clone().or_else(|| save_path.clone());
    let lock = match &lock_path {
        Some(path) => {
            if opts.load.is_none()
                && let Some(dir) = path.parent()
            {
                let _ = std::fs::create_dir_all(dir);
            }
            match storage::SessionLock::acquire(path) {
                Ok(lock) => Some(lock),
                // A save that is not there (or not a file) is said as such, below.
                Err(_) if opts.load.is_some() && !path.is_file() => None,
                Err(e) => return Err(LaunchError::Busy(e)),
            }
        }
        None => None,
    };
    let mut session = match &opts.load {
        Some(path) => {
            Session::load_reporting(rules, board, path, &mut crate::launch::continue_progress)
                .map_err(|e| match e.downcast::<savefile::SaveError>() {
                    Ok(e) => match *e {
                        savefile::SaveError::Storage(storage::StorageError::Io {
                            path,
                            source,
                        }) => LaunchError::ReadSave { path, source },
                        other => LaunchError::BadSave {
                            path: path.clone(),
                            game: opts.game.clone(),
                            source: Box::new(other),
                        },
                    },
                    Err(other) => LaunchError::BadSave {
                        path: path.clone(),
                        game: opts.game.clone(),
                        source: other,
                    },
                })?
        }
        None => {
            let s = Session::with_board(rules, board, opts.seed.unwrap_or_else(clock_seed))
                .with_modes(opts.practice, opts.wizard)
                .with_tiles(opts.tiles == Some(true));
            match save_path {
                Some(p) => s.with_save(p),
                None => s,
            }
        }
    };
    if let Some(lock) = lock {
        session.hold_lock(lock);
    }
    // A continued game that had ended was filed as it loaded: the start screen says so
    // (there is nothing to play).
    if opts.load.is_some() && session.ended() {
        let start = StartScreen::new(&session).with_note(ENDED_BEFORE);
        return Ok(Box::new(dressed(ScreenStack::new(session, start))));
    }
    session.view.tiles = opts.tiles == Some(true);
    // A new game asked for by seed over a waiting save asks first: saving it would
    // replace that save.
    if opts.load.is_none()
        && let Some(seed) = opts.seed
        && session.save_exists()
    {
        let (start, question) = StartScreen::asking(&session, Some(seed));
        let stack = ScreenStack::opening(session, start, question);
        return Ok(Box::new(dressed(stack)));
    }
    // A new game by seed begins at once, as in every game; so does the game `--load`
    // continues (the start screen is under it).
    if opts.load.is_some() || opts.seed.is_some() {
        return Ok(Box::new(app_playing(session)));
    }
    Ok(Box::new(app(session)))
}
