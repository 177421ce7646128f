//! The Caves' screens on the engine's screen-stack toolkit: start, play (map, messages,
//! status, region overlay), win/lose, help, message log and quit confirmation.

mod keymap;
pub mod morgue;
mod replay;

pub use keymap::{Action, Binding, KEYMAP, action_of, help_line, help_lines};
pub use replay::{replay_app, replay_app_on};

use alembic::{Game, Loc, Rgb, grid::Grid, library::TileId, mapgen::Regions};
use alembic_ui::{
    Cell, Confirm, Frame, Input, Key, MessageLogScreen, Palette, Rect, Screen, ScreenStack,
    TextScreen, Tile, TileSupport, Transition, draw_box, fill, plain_key, put_centred, put_clipped,
};
use std::convert::Infallible;

use crate::command::{Command, play_mut};
use crate::error::RuleError;
use crate::kinds::Outcome;
use crate::props::{FG, GLYPH};
use crate::view::{creature_at, outcome, remembered, status, visible};
use crate::world::{HEIGHT, WIDTH, walkable_regions};
use std::path::{Path, PathBuf};

use crate::save::{self, GAME_NAME};
use alembic_session::record::{self, Recorder};
use alembic_session::slot::{self, Slot};

/// The context the screens share: the game value plus UI-only state (nothing here changes
/// the game's rules or its hash).
pub struct CavesUi {
    seed: u64,
    game: Game,
    /// Where `S` and closing the window save (none: the game is not saved).
    save_path: Option<PathBuf>,
    /// A saved game waits at `save_path` (the title screen offers to continue it).
    saved_waiting: bool,
    /// The recording of the game in play.
    recorder: Option<Recorder<Command>>,
    /// What saving on the way out said, for the farewell line.
    exit_note: Option<Result<String, String>>,
    /// Why the world could not be made, if it could not.
    broken: Option<String>,
    show_regions: bool,
    /// Draw the map in pictures where the frontend can (`--tiles`).
    tiles: bool,
    regions: Option<RegionCache>,
    /// A UI-only note (unknown key, internal error), cleared by the next command.
    notice: Option<String>,
    /// The lock on the save in use, held for the whole session (one window per save).
    lock: Option<alembic_session::storage::SessionLock>,
    /// Whether the save file is this game's, and when the autosave is due: a new game where
    /// another game's save waits writes nothing there until it is saved ([`alembic_session::slot`]).
    slot: Slot,
    /// The player continued this game or saved it: quitting keeps the save. A game only
    /// ever saved by itself (its first save, the autosaves) is lost on quit.
    player_saved: bool,
    /// The game in play ended (death, escape or a quit) and was filed: never saved again.
    ended: bool,
    /// The data the session plays with (shipped, or a data directory and mods).
    data: std::sync::Arc<crate::CavesData>,
}

/// The flood-fill regions of one level, kept until the terrain changes. The terrain grid is
/// persistent, so "has it changed?" is a pointer comparison.
struct RegionCache {
    z: i32,
    terrain: Grid<TileId>,
    regions: Regions,
}

impl CavesUi {
    /// A fresh game from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        match crate::CavesData::shipped() {
            Ok(data) => CavesUi::new_on(seed, std::sync::Arc::new(data)),
            Err(e) => {
                let mut ui = CavesUi::with_game(seed, Game::new(seed));
                ui.broken = Some(e.to_string());
                ui
            }
        }
    }

    /// A fresh game from `seed` on `data` (a data directory, mods): every game of the
    /// session is played, saved and recorded on it.
    #[must_use]
    pub fn new_on(seed: u64, data: std::sync::Arc<crate::CavesData>) -> Self {
        let (game, broken) = match crate::new_game_on(seed, &data.library) {
            Ok(g) => (g, None),
            Err(e) => (Game::new(seed), Some(e.to_string())),
        };
        CavesUi {
            data,
            seed,
            game,
            save_path: None,
            saved_waiting: false,
            recorder: None,
            exit_note: None,
            broken,
            show_regions: false,
            tiles: false,
            regions: None,
            notice: None,
            lock: None,
            slot: Slot::default(),
            player_saved: false,
            ended: false,
        }
    }

    /// Save to `path` on `S` and when the window closes, and record every game beside it.
    /// When a save already waits there, the title screen offers to continue it.
    #[must_use]
    pub fn with_save(mut self, path: PathBuf) -> Self {
        self.saved_waiting = path.is_file();
        self.save_path = Some(path);
        // The recording starts with play, so a title screen left at once writes nothing.
        self
    }

    /// Continue the game saved at `path` (later saves go back there).
    ///
    /// # Errors
    /// The file is missing, unreadable, damaged, or not a Caves save.
    pub fn load(path: &Path) -> Result<Self, save::CavesSaveError> {
        CavesUi::load_on(path, std::sync::Arc::new(crate::CavesData::shipped()?))
    }

    /// [`CavesUi::load`] on `data`: a save made on other data is refused, saying how.
    ///
    /// # Errors
    /// As [`CavesUi::load`].
    pub fn load_on(
        path: &Path,
        data: std::sync::Arc<crate::CavesData>,
    ) -> Result<Self, save::CavesSaveError> {
        let saved = save::load_on(path, &data)?;
        // The recording is the save's journal: the moves made after the save come back.
        let journal = Recorder::journal(&record::beside(path), GAME_NAME, &saved, |g, c| {
            crate::command::act(g, *c)
        });
        let (game, recorder, notice) = match journal {
            Ok(j) => {
                let mut notice = "Welcome back.".to_owned();
                if !j.replayed.is_empty() {
                    notice += &format!(
                        " The recording brought back {} moves made after the last save.",
                        j.replayed.len()
                    );
                }
                if let Some(d) = j.dropped {
                    notice += &format!(" {d}");
                }
                (j.game, Some(j.recorder), notice)
            }
            Err(e) => (
                saved,
                None,
                format!(
                    "Welcome back. This game's recording cannot go on ({e}); you play on from the save, unrecorded."
                ),
            ),
        };
        let seed = recorder.as_ref().map_or(0, |r| r.header().seed);
        let mut ui = CavesUi::with_game(seed, game);
        ui.data = data;
        ui.save_path = Some(path.to_path_buf());
        ui.recorder = recorder;
        ui.notice = Some(notice);
        ui.slot = Slot::loaded();
        ui.player_saved = true;
        Ok(ui)
    }

    /// The game starts being played: its recording begins beside its save (held in memory
    /// when another game's save is there), and a game whose slot is its own is saved at
    /// once, so a crash from now on costs nothing.
    fn start_recording(&mut self) {
        self.recorder = None;
        self.slot = Slot::new_game(self.save_path.as_deref());
        self.player_saved = false;
        let Some(p) = self.save_path.clone() else {
            return;
        };
        // A game on other data than the shipped data says which in its recording.
        let modes = self.data.identity.to_modes();
        let modes: Vec<&str> = modes.iter().map(String::as_str).collect();
        match slot::begin_recording(
            &self.slot,
            &record::beside(&p),
            GAME_NAME,
            self.seed,
            &modes,
            &self.game,
        ) {
            Ok(r) => self.recorder = Some(r),
            Err(e) => {
                self.notice = Some(format!("This game is not being recorded: {e}"));
                return;
            }
        }
        if self.slot.owns()
            && let Err(e) = self.save()
        {
            self.notice = Some(format!("The game could not be saved: {e}"));
        }
    }

    /// Hold `lock` (on the save this session plays) until this UI is dropped.
    pub fn hold_lock(&mut self, lock: alembic_session::storage::SessionLock) {
        self.lock = Some(lock);
    }

    /// Where `S` and closing the window save, if anywhere.
    #[must_use]
    pub fn save_path(&self) -> Option<&Path> {
        self.save_path.as_deref()
    }

    /// Show `game`, a recorded state, in a UI that neither saves nor records (the replay
    /// viewer's).
    pub(super) fn show_replay_state(&mut self, game: Game) {
        self.game = game;
        self.notice = None;
    }

    /// The recording of the game in play, if it is being recorded.
    #[must_use]
    pub fn recording(&self) -> Option<&Path> {
        self.recorder.as_ref().map(Recorder::path)
    }

    /// Save the game in play to its save path.
    ///
    /// # Errors
    /// A sentence for the player.
    pub fn save(&mut self) -> Result<PathBuf, String> {
        let Some(path) = self.save_path.clone() else {
            return Err("Cannot save: no data directory (set HOME or XDG_DATA_HOME).".into());
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("Cannot save: cannot create {}: {e}", dir.display()))?;
        }
        // The checkpoint first: at every instant the recording holds one equal to the save on
        // disk, so a crash at any moment leaves a save its recording continues.
        if let Some(problem) = slot::before_save(&mut self.recorder, &self.game) {
            self.notice = Some(problem);
        }
        save::save_on(&self.game, &path, &self.data).map_err(|e| format!("Cannot save: {e}"))?;
        self.slot.saved();
        Ok(path)
    }

    /// The game ended (died, escaped, or the player quit): delete its save when it is this
    /// game's own (the end is the end; another game's save is never touched), keep its
    /// recording in `records/`, write its morgue and enter it in the score table, once.
    /// Problems are said, never fatal.
    fn finish(&mut self, quit: bool) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        if let Some(p) = &self.save_path
            && self.slot.owns()
        {
            let _ = std::fs::remove_file(p);
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut said = Vec::new();
        let recording = match self.recorder.take().map(|r| r.finish(&self.game, now)) {
            Some(Ok(p)) => {
                said.push(format!("The recording is kept in {}.", p.display()));
                Some(p)
            }
            Some(Err(e)) => {
                said.push(format!("The recording could not be kept: {e}"));
                None
            }
            None => None,
        };
        if let Some(dir) = self.save_path.as_deref().and_then(Path::parent) {
            let ending = morgue::Ending {
                game: &self.game,
                seed: self.seed,
                quit,
                recording: recording.as_deref(),
                unix_secs: now,
            };
            match morgue::file(dir, &ending) {
                Ok(line) => said.push(line),
                Err(e) => said.push(e),
            }
        }
        let line = said.join(" ");
        if quit {
            self.exit_note = Some(Ok(line));
        } else {
            self.notice = Some(line);
        }
    }

    /// A UI over a game made elsewhere (an [`arena`](crate::arena), a game played headlessly
    /// first). `seed` is what "play again" counts on from.
    #[must_use]
    pub fn with_game(seed: u64, game: Game) -> Self {
        let data = std::sync::Arc::new(crate::CavesData {
            library: game.library().clone(),
            identity: alembic_session::gamedata::DataIdentity::shipped(),
        });
        CavesUi {
            data,
            seed,
            game,
            save_path: None,
            saved_waiting: false,
            recorder: None,
            exit_note: None,
            broken: None,
            show_regions: false,
            tiles: false,
            regions: None,
            notice: None,
            lock: None,
            slot: Slot::default(),
            player_saved: false,
            ended: false,
        }
    }

    /// The game value.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seed of the current world.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Whether the region overlay is on.
    #[must_use]
    pub fn show_regions(&self) -> bool {
        self.show_regions
    }

    /// The number of regions on the player's level as the overlay shows them (`None` while
    /// the overlay is off).
    #[must_use]
    pub fn region_count(&self) -> Option<usize> {
        self.regions
            .as_ref()
            .filter(|_| self.show_regions)
            .map(|r| r.regions.len())
    }

    fn restart(&mut self, seed: u64) {
        let show = self.show_regions;
        let save_path = self.save_path.take();
        let lock = self.lock.take();
        *self = CavesUi::new_on(seed, self.data.clone());
        self.save_path = save_path;
        self.lock = lock;
        self.start_recording();
        self.show_regions = show;
        self.refresh_regions();
    }

    fn command(&mut self, c: Command) {
        self.notice = None;
        let turn = self.game.turn();
        match play_mut(&mut self.game, c) {
            Ok(_) => {
                if let Some(r) = self.recorder.as_mut()
                    && let Err(e) = r.command(turn, &c, &self.game)
                {
                    self.recorder = None;
                    self.notice = Some(format!("The recording stopped: {e}"));
                }
                let over = !matches!(outcome(&self.game), Ok(Outcome::Playing));
                // A game with nowhere to save (a test arena, a tool) has no autosave.
                if self.slot.counted(over)
                    && self.save_path.is_some()
                    && let Err(e) = self.save()
                {
                    self.notice = Some(format!("The autosave failed: {e}"));
                }
            }
            // A rule said no: no time passed; say why (the game's log is untouched).
            Err(RuleError::Refused(r)) => self.notice = Some(r.to_string()),
            Err(RuleError::Engine(e)) => {
                self.notice = Some(format!("Internal error (the turn was undone): {e}"));
            }
        }
        self.refresh_regions();
    }

    /// Recompute the overlay's regions if the overlay is on and the level or its terrain
    /// changed (digging).
    fn refresh_regions(&mut self) {
        if !self.show_regions {
            return;
        }
        let Ok(z) = status(&self.game).map(|s| s.at.z) else {
            return;
        };
        let fresh = self
            .regions
            .as_ref()
            .is_some_and(|c| c.z == z && c.terrain.ptr_eq(self.game.terrain()));
        if fresh {
            return;
        }
        match walkable_regions(&self.game, z) {
            Ok(regions) => {
                self.regions = Some(RegionCache {
                    z,
                    terrain: self.game.terrain().clone(),
                    regions,
                });
            }
            Err(e) => self.notice = Some(format!("Cannot compute regions: {e}")),
        }
    }
}

/// The picture for `l` in tiles mode: terrain by its letter, creatures by kind; `None`
/// keeps the letter (never-seen cells, anything without a picture).
fn tile_at(g: &Game, l: Loc, in_view: bool) -> Option<Tile> {
    if in_view && let Some(c) = creature_at(g, l) {
        return Some(match g.query(c, &GLYPH).unwrap_or('?') {
            '@' => Tile::Hero,
            'F' => Tile::Fungus,
            'v' => Tile::Rabbit,
            '~' => Tile::Insect,
            'b' => Tile::Bat,
            'Z' => Tile::Undead,
            other => Tile::Creature(other),
        });
    }
    let tile = if in_view {
        Some(g.tile(l))
    } else {
        remembered(g, l)
    }?;
    let def = g.library().tile(tile).ok()?;
    match def.get(&GLYPH).ok()? {
        '.' => Some(Tile::Floor),
        '#' => Some(Tile::Wall),
        '>' => Some(Tile::StairsDown),
        '<' => Some(Tile::StairsUp),
        _ => None,
    }
}

/// A new Caves app from `seed`, starting at the title screen.
#[must_use]
pub fn app(seed: u64) -> ScreenStack<CavesUi> {
    app_with(CavesUi::new(seed))
}

/// A Caves app over `ui`, starting at the title screen.
#[must_use]
pub fn app_with(ui: CavesUi) -> ScreenStack<CavesUi> {
    ScreenStack::new(ui, StartScreen)
        .with_farewell(CavesUi::farewell)
        .with_grid(CavesUi::whole_level)
        .with_emergency_save(CavesUi::emergency_save)
}

impl CavesUi {
    /// The same, drawing the map in pictures on frontends that show tiles one cell wide
    /// (`--tiles` in the window).
    #[must_use]
    pub fn with_tiles(mut self, tiles: bool) -> Self {
        self.tiles = tiles;
        self
    }

    /// The grid that shows a whole level: three message rows, the level, the status bar
    /// ([`alembic_ui::App::preferred_grid`]).
    #[must_use]
    pub fn whole_level(&self) -> Option<(u16, u16)> {
        let w = u16::try_from(crate::world::WIDTH).unwrap_or(u16::MAX);
        let h = u16::try_from(crate::world::HEIGHT).unwrap_or(u16::MAX);
        Some((w, h.saturating_add(4)))
    }

    /// The last-resort save of the game in play (see [`alembic_ui::App::emergency_save`]):
    /// what [`CavesUi::save`] would write, from a clone of the game as it stands. `None`
    /// with nowhere to save, a game over, before play (the title screen), or a game whose
    /// save is not its own yet (another game's save is kept as it is).
    #[must_use]
    pub fn emergency_save(&self) -> Option<alembic_ui::EmergencySave> {
        let path = self.save_path.clone()?;
        if !self.slot.owns() || outcome(&self.game) != Ok(Outcome::Playing) {
            return None;
        }
        let recording = self.recorder.as_ref().map(|r| r.path().to_path_buf());
        let data = self.data.clone();
        Some(record::emergency_save(
            self.game.clone(),
            recording,
            path,
            move |game, path| save::save_on(game, path, &data).map_err(|e| e.to_string()),
        ))
    }

    /// What to print once the frontend has closed: where the game was saved, or why saving
    /// failed (see [`alembic_ui::App::farewell`]).
    ///
    /// # Errors
    /// The reason the save on close failed.
    pub fn farewell(&self) -> Result<Option<String>, String> {
        match &self.exit_note {
            None => Ok(None),
            Some(Ok(line)) => Ok(Some(line.clone())),
            Some(Err(e)) => Err(e.clone()),
        }
    }
}

const BG: Rgb = Rgb::new(0, 0, 0);

const TITLE: &[&str] = &[
    "T H E   C A V E S",
    "",
    "Somewhere below, a crack in the rock leads back to the daylight.",
    "Dig, fight or sneak your way down through the levels and find it.",
    "",
    "Lichens sting. Bats bite. Zombies do not give up.",
];

/// The title's last line: what the keys do, which depends on whether a save waits.
fn title_keys(saved_waiting: bool) -> &'static str {
    if saved_waiting {
        "A saved game waits: c continues it, n starts anew.  ? help,  Esc quits."
    } else {
        "Press any key to begin,  ? for help,  Esc to quit."
    }
}

// ----- start ---------------------------------------------------------------------------------

struct StartScreen;

impl Screen<CavesUi> for StartScreen {
    type Output = ();
    /// The answer to the replace question.
    type Reply = bool;

    fn render(&mut self, ui: &CavesUi, frame: &mut Frame, area: Rect) {
        let p = Palette::DEFAULT;
        fill(frame, area, Cell::blank(p.text, BG));
        let top = area.y + area.height.saturating_sub(TITLE.len() as u16 + 6) / 2;
        for (i, line) in TITLE.iter().enumerate() {
            let fg = if i == 0 { p.accent } else { p.text };
            put_centred(frame, area, top + i as u16, line, fg, BG);
        }
        let keys = title_keys(ui.saved_waiting);
        put_centred(frame, area, top + TITLE.len() as u16 + 1, keys, p.text, BG);
        if !ui.saved_waiting {
            let foot = format!("seed {}", ui.seed);
            put_centred(frame, area, top + TITLE.len() as u16 + 2, &foot, p.dim, BG);
        }
        if let Some(e) = &ui.broken {
            let msg = format!("The caves could not be made: {e}. Press any key to quit.");
            put_centred(
                frame,
                area,
                top + TITLE.len() as u16 + 4,
                &msg,
                p.accent,
                BG,
            );
        }
    }

    fn handle(&mut self, ui: &mut CavesUi, input: Input) -> Transition<CavesUi, Self> {
        let Some(key) = plain_key(&input) else {
            return Transition::Stay;
        };
        if ui.broken.is_some() {
            return Transition::Quit;
        }
        match key {
            Key::Esc | Key::Char('Q') => Transition::Quit,
            Key::Char('?') => Transition::push(TextScreen::new("Help", help_lines())),
            Key::Char('c') if ui.saved_waiting => {
                let Some(path) = ui.save_path.clone() else {
                    return Transition::Stay;
                };
                match CavesUi::load(&path) {
                    Ok(loaded) => {
                        let show = ui.show_regions;
                        *ui = loaded;
                        ui.show_regions = show;
                        Transition::replace(PlayScreen::default())
                    }
                    Err(e) => {
                        ui.notice = Some(format!("Cannot continue: {e}"));
                        Transition::Stay
                    }
                }
            }
            Key::Char('n') if ui.saved_waiting => {
                Transition::ask(Confirm::new(slot::REPLACE_QUESTION), |yes| yes)
            }
            // With a save waiting only c or n choose; a stray key must not replace it.
            _ if ui.saved_waiting => Transition::Stay,
            _ => {
                // A new game begins here; a continued one (whose recording could not go on)
                // plays on from its save, unrecorded, its slot its own.
                if ui.recorder.is_none() && ui.game.turn() == 0 && !ui.player_saved {
                    ui.start_recording();
                }
                Transition::replace(PlayScreen::default())
            }
        }
    }

    /// The answer to the replace question: a new game, the saved one left as it is.
    fn on_result(&mut self, ui: &mut CavesUi, yes: bool) -> Transition<CavesUi, Self> {
        if !yes {
            return Transition::Stay;
        }
        ui.saved_waiting = false;
        ui.start_recording();
        Transition::replace(PlayScreen::default())
    }

    fn name(&self) -> &str {
        "caves-start"
    }
}

// ----- play ----------------------------------------------------------------------------------

/// The play screen: messages, map and status bar (the replay viewer draws it too).
#[derive(Default)]
pub(super) struct PlayScreen {
    /// A rest or search under way: one turn a tick, any key stops it.
    rest: Option<Rest>,
}

/// A rest (`Z`) or a search (`s`) under way.
struct Rest {
    /// Searching (a fixed number of turns) rather than resting until healed.
    search: bool,
    /// Turns taken so far.
    turns: usize,
    /// The creatures in view so far: a new one stops it.
    seen: Vec<alembic::ThingId>,
}

/// The turns one search takes.
pub const SEARCH_TURNS: usize = 5;
/// The most turns one rest takes.
pub const MAX_REST: usize = 1_000;
/// How long a rest waits between turns (the player sees time pass and can stop it).
const REST_DELAY: std::time::Duration = std::time::Duration::from_millis(8);

/// The creatures other than the player in view.
fn creatures_in_view(g: &Game) -> Vec<alembic::ThingId> {
    let me = crate::view::player(g).ok();
    let Ok(seen) = visible(g) else {
        return Vec::new();
    };
    seen.iter()
        .filter_map(|l| creature_at(g, l))
        .filter(|&t| Some(t) != me)
        .collect()
}

/// The world coordinate shown at the view's first column: centred when the view is wider
/// than the world, else following `focus` and clamped to the world's edges.
fn view_origin(view: i32, world: i32, focus: i32) -> i32 {
    if view >= world {
        -(view - world) / 2
    } else {
        (focus - view / 2).clamp(0, world - view)
    }
}

/// A colour per region number, so neighbouring regions differ.
fn region_colour(r: usize) -> Rgb {
    const COLOURS: [Rgb; 8] = [
        Rgb::new(255, 120, 120),
        Rgb::new(120, 220, 120),
        Rgb::new(120, 160, 255),
        Rgb::new(240, 220, 100),
        Rgb::new(220, 130, 240),
        Rgb::new(100, 220, 220),
        Rgb::new(255, 170, 80),
        Rgb::new(200, 200, 200),
    ];
    COLOURS[r % COLOURS.len()]
}

impl PlayScreen {
    fn draw_map(ui: &CavesUi, frame: &mut Frame, area: Rect) -> Result<(), alembic::Error> {
        let g = &ui.game;
        let me = status(g)?;
        let seen = visible(g)?;
        let (vw, vh) = (i32::from(area.width), i32::from(area.height));
        let ox = view_origin(vw, WIDTH, me.at.x);
        let oy = view_origin(vh, HEIGHT, me.at.y);
        let regions = ui
            .regions
            .as_ref()
            .filter(|c| ui.show_regions && c.z == me.at.z);
        let tiles = ui.tiles && frame.tiles() == TileSupport::Single && regions.is_none();
        for sy in 0..vh {
            for sx in 0..vw {
                let l = Loc::new(ox + sx, oy + sy, me.at.z);
                let mut cell = Self::cell_at(g, l, seen.contains(l), regions.map(|c| &c.regions));
                if tiles && let Some(t) = tile_at(g, l, seen.contains(l)) {
                    cell.ch = t.to_char();
                }
                frame.put(i32::from(area.x) + sx, i32::from(area.y) + sy, cell);
            }
        }
        Ok(())
    }

    fn cell_at(g: &Game, l: Loc, in_view: bool, regions: Option<&Regions>) -> Cell {
        let blank = Cell::blank(BG, BG);
        if !(0..WIDTH).contains(&l.x) || !(0..HEIGHT).contains(&l.y) {
            return blank;
        }
        let tile = if in_view {
            Some(g.tile(l))
        } else {
            remembered(g, l)
        };
        let Some(tile) = tile else { return blank };
        let Ok(def) = g.library().tile(tile) else {
            return blank;
        };
        let mut cell = Cell {
            ch: def.get(&GLYPH).unwrap_or('?'),
            fg: def.get(&FG).unwrap_or(Rgb::WHITE),
            bg: BG,
        };
        if !in_view {
            cell.fg = Rgb::new(70, 70, 80);
        }
        if let Some(r) = regions.and_then(|r| r.label(l)) {
            cell.ch = char::from_digit((r % 36) as u32, 36).unwrap_or('?');
            cell.fg = region_colour(r);
            if !in_view {
                cell.fg = cell.fg.scale(0.55);
            }
        }
        if in_view && let Some(c) = creature_at(g, l) {
            cell.ch = g.query(c, &GLYPH).unwrap_or('?');
            cell.fg = g.query(c, &FG).unwrap_or(Rgb::WHITE);
        }
        cell
    }

    fn draw_status(ui: &CavesUi, frame: &mut Frame, area: Rect) {
        let p = Palette::DEFAULT;
        let bar = Rgb::new(30, 26, 22);
        fill(frame, area, Cell::blank(p.text, bar));
        let left = match status(&ui.game) {
            Ok(s) => {
                let mut t = format!(
                    " Caves  Level {}/{}  HP {}/{}  Turn {}  Kills {}",
                    s.depth + 1,
                    s.levels,
                    s.hp,
                    s.max_hp,
                    s.turn,
                    s.kills
                );
                if let Some(n) = ui.region_count() {
                    t.push_str(&format!("  Regions {n}"));
                }
                t
            }
            Err(e) => format!(" Caves: {e}"),
        };
        let hp_low = status(&ui.game).is_ok_and(|s| s.hp * 4 <= s.max_hp);
        let fg = if hp_low {
            Rgb::new(255, 90, 80)
        } else {
            p.text
        };
        put_clipped(frame, area, area.x, area.y, &left, fg, bar);
        // The key hint, where it fits beside the numbers.
        let right = "? help  R regions  Q quit ";
        let (lw, rw) = (left.chars().count(), right.chars().count());
        if lw + 1 + rw <= usize::from(area.width) {
            let rx = area.right().saturating_sub(rw as u16);
            put_clipped(frame, area, rx, area.y, right, p.dim, bar);
        }
    }
}

impl PlayScreen {
    /// Begin a rest or a search: refused at full health (rest) or with a creature in view.
    fn begin_rest(&mut self, ui: &mut CavesUi, search: bool) {
        let Ok(s) = status(&ui.game) else {
            return;
        };
        if !search && s.hp >= s.max_hp {
            ui.notice =
                Some("You are not hurt: nothing to rest for (s searches, . waits).".to_owned());
            return;
        }
        let seen = creatures_in_view(&ui.game);
        if let Some(&c) = seen.iter().find(|&&c| crate::view::is_hostile(&ui.game, c)) {
            let name = crate::text::with_article(&crate::view::name_of(&ui.game, c));
            ui.notice = Some(format!("Not with {name} in view."));
            return;
        }
        self.rest = Some(Rest {
            search,
            turns: 0,
            seen,
        });
    }

    /// One turn of a rest or search; says why when it ends.
    fn rest_turn(&mut self, ui: &mut CavesUi) -> Transition<CavesUi, Self> {
        let Some(mut rest) = self.rest.take() else {
            return Transition::Stay;
        };
        let before = status(&ui.game).ok();
        let said = ui.game.messages().count();
        ui.command(Command::Wait);
        rest.turns += 1;
        if let Some(t) = self.after_turn(ui) {
            return t;
        }
        let Ok(now) = status(&ui.game) else {
            return Transition::Stay;
        };
        let fresh = creatures_in_view(&ui.game);
        let why = if let Some(&c) = fresh.iter().find(|c| !rest.seen.contains(c)) {
            let name = crate::text::with_article(&crate::view::name_of(&ui.game, c));
            let mut name = name.chars();
            let first = name.next().map(|f| f.to_uppercase().to_string());
            Some(format!(
                "{}{} comes into view.",
                first.unwrap_or_default(),
                name.as_str()
            ))
        } else if before.is_some_and(|b| now.hp < b.hp) {
            Some("You are hurt!".to_owned())
        } else if ui.game.messages().count() > said || ui.notice.is_some() {
            Some(String::new())
        } else if rest.search && rest.turns >= SEARCH_TURNS {
            Some(format!(
                "You search for {SEARCH_TURNS} turns and find nothing hidden (the caves hide nothing)."
            ))
        } else if !rest.search && now.hp >= now.max_hp {
            Some("You feel rested.".to_owned())
        } else if rest.turns >= MAX_REST {
            Some("You stop resting: it is taking too long.".to_owned())
        } else {
            None
        };
        match why {
            Some(w) => {
                if !w.is_empty() {
                    ui.notice = Some(w);
                }
            }
            None => {
                rest.seen = fresh;
                self.rest = Some(rest);
            }
        }
        Transition::Stay
    }

    /// After a turn: the end screen when the game is over.
    fn after_turn(&mut self, ui: &mut CavesUi) -> Option<Transition<CavesUi, Self>> {
        match outcome(&ui.game) {
            Ok(Outcome::Playing) | Err(_) => None,
            Ok(o) => {
                self.rest = None;
                ui.finish(false);
                Some(Transition::push(EndScreen { outcome: o }))
            }
        }
    }
}

impl Screen<CavesUi> for PlayScreen {
    type Output = ();
    type Reply = bool;

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.rest.is_some().then_some(REST_DELAY)
    }

    fn tick(&mut self, ui: &mut CavesUi) -> Transition<CavesUi, Self> {
        self.rest_turn(ui)
    }

    fn render(&mut self, ui: &CavesUi, frame: &mut Frame, area: Rect) {
        let p = Palette::DEFAULT;
        fill(frame, area, Cell::blank(p.text, BG));
        let (msgs, rest) = area.split_top(3);
        let (map, bar) = rest.split_bottom(1);
        // The last messages, bright if said during the last turn, dim if older.
        let now = ui.game.turn();
        let mut lines: Vec<(String, Rgb)> = ui
            .game
            .messages()
            .rev()
            .take(3)
            .map(|m| {
                let fresh = m.turn + 1 >= now;
                (m.text.to_string(), if fresh { p.text } else { p.dim })
            })
            .collect();
        lines.reverse();
        if let Some(n) = &ui.notice {
            lines.push((n.clone(), p.accent));
        }
        let skip = lines.len().saturating_sub(usize::from(msgs.height));
        for (row, (text, fg)) in lines.iter().skip(skip).enumerate() {
            put_clipped(frame, msgs, msgs.x, msgs.y + row as u16, text, *fg, BG);
        }
        if let Err(e) = Self::draw_map(ui, frame, map) {
            put_clipped(
                frame,
                map,
                map.x,
                map.y,
                &format!("Cannot draw: {e}"),
                p.accent,
                BG,
            );
        }
        Self::draw_status(ui, frame, bar);
    }

    fn handle(&mut self, ui: &mut CavesUi, input: Input) -> Transition<CavesUi, Self> {
        // Any key stops a rest or a search (and does nothing else).
        if self.rest.is_some() && matches!(input, Input::Key { .. }) {
            self.rest = None;
            ui.notice = Some("You stop.".to_owned());
            return Transition::Stay;
        }
        let Some((action, dir)) = action_of(&input) else {
            if let Some(Key::Char(c)) = plain_key(&input)
                && !c.is_control()
            {
                ui.notice = Some(format!("Unknown key '{c}'. Press ? for help."));
            }
            return Transition::Stay;
        };
        match action {
            Action::Move => {
                if let Some(d) = dir {
                    ui.command(Command::Move(d));
                }
            }
            Action::Wait => ui.command(Command::Wait),
            Action::Rest | Action::Search => {
                self.begin_rest(ui, action == Action::Search);
                return Transition::Stay;
            }
            Action::Descend => ui.command(Command::Descend),
            Action::Ascend => ui.command(Command::Ascend),
            Action::Regions => {
                ui.show_regions = !ui.show_regions;
                ui.refresh_regions();
                return Transition::Stay;
            }
            Action::Help => return Transition::push(TextScreen::new("Help", help_lines())),
            Action::Messages => {
                let all = ui.game.messages().map(|m| m.text.to_string()).collect();
                return Transition::push(MessageLogScreen::new("Messages", all));
            }
            Action::Quit => {
                return Transition::ask(Confirm::new(slot::quit_question(ui.slot.owns())), |yes| {
                    yes
                });
            }
            Action::Save => match ui.save() {
                Ok(p) => {
                    ui.player_saved = true;
                    ui.exit_note = Some(Ok(format!("Your game was saved to {}.", p.display())));
                    return Transition::Quit;
                }
                Err(e) => {
                    ui.notice = Some(e);
                    return Transition::Stay;
                }
            },
        }
        match outcome(&ui.game) {
            Ok(Outcome::Playing) | Err(_) => Transition::Stay,
            Ok(o) => {
                ui.finish(false);
                Transition::push(EndScreen { outcome: o })
            }
        }
    }

    /// The answer to "Quit this game?".
    fn on_result(&mut self, ui: &mut CavesUi, quit: bool) -> Transition<CavesUi, Self> {
        if quit {
            // Quitting ends the game as dying does: filed once, its save gone.
            ui.finish(true);
            Transition::Quit
        } else {
            Transition::Stay
        }
    }

    fn on_quit(&mut self, ui: &mut CavesUi) {
        // The window is closing: keep the player's progress (unless the game is over).
        if ui.save_path.is_some() && !ui.ended && matches!(outcome(&ui.game), Ok(Outcome::Playing))
        {
            let r = ui.save();
            ui.exit_note = Some(r.map(|p| format!("Your game was saved to {}.", p.display())));
        }
    }

    fn name(&self) -> &str {
        "caves-play"
    }
}

// ----- win and lose --------------------------------------------------------------------------

struct EndScreen {
    outcome: Outcome,
}

impl Screen<CavesUi> for EndScreen {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, ui: &CavesUi, frame: &mut Frame, area: Rect) {
        let p = Palette::DEFAULT;
        let (title, colour) = match self.outcome {
            Outcome::Won => ("You escaped!", Rgb::new(255, 215, 90)),
            _ => ("You died", Rgb::new(255, 100, 90)),
        };
        let mut lines = vec![title.to_string(), String::new()];
        if let Ok(s) = status(&ui.game) {
            lines.push(match self.outcome {
                Outcome::Won => format!("You {}.", s.cause),
                _ if s.cause.is_empty() => "You died.".to_string(),
                _ => format!("You were {}.", s.cause),
            });
            lines.push(format!(
                "Turns: {}   Deepest level: {} of {}   Kills: {}",
                s.turn,
                s.deepest + 1,
                s.levels,
                s.kills
            ));
        }
        lines.push(String::new());
        lines.push("r or Enter: a new cave    q or Esc: quit".to_string());
        let w = lines.iter().map(|l| l.chars().count()).max().unwrap_or(10) + 6;
        let h = lines.len() + 2;
        let inside = draw_box(frame, area.centred(w as u16, h as u16), &p, None);
        for (i, line) in lines.iter().enumerate() {
            let fg = if i == 0 { colour } else { p.text };
            put_centred(frame, inside, inside.y + i as u16, line, fg, p.bg);
        }
    }

    fn handle(&mut self, ui: &mut CavesUi, input: Input) -> Transition<CavesUi, Self> {
        match plain_key(&input) {
            Some(Key::Char('r') | Key::Enter) => {
                let next = ui.seed.wrapping_add(1);
                ui.restart(next);
                Transition::Pop(())
            }
            Some(Key::Char('q' | 'Q') | Key::Esc) => Transition::Quit,
            _ => Transition::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        match self.outcome {
            Outcome::Won => "caves-won",
            _ => "caves-lost",
        }
    }
}
