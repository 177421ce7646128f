//! The Caves on the game contract ([`Ruleset`]): everything else (the start screen and its
//! scores, saves, recordings, practice with `U` and the rewind on death, the wizard console,
//! the morgue file, the replay viewer, resting, running, travel, auto-explore and the mouse)
//! comes from `alembic-session`, written once for every game.

use std::sync::Arc;

#[cfg(feature = "board")]
use alembic::Rgb;
use alembic::path::{DijkstraMap, explore_targets};
use alembic::wizard::WizardCommands;
use alembic::{Dir, Game, Hooks, Library, Loc};
use alembic_session::gamedata::DataIdentity;
#[cfg(feature = "board")]
use alembic_session::keymap::{Binding, bind};
#[cfg(feature = "board")]
use alembic_session::mapview::{Scroll, Viewport};
use alembic_session::ruleset::{Bot, Ending, Goal, Outcome as Done, Policy, Rejected, Status};
use alembic_session::ruleset::{Foe, Journeys, RestRefused, Summary};
#[cfg(feature = "board")]
use alembic_session::{Board, ruleset::View};

use crate::bot::SimPolicy;
use alembic_session::savefile::{SaveError, Saved};
use alembic_session::{Cause, Modes, Ruleset};
#[cfg(feature = "board")]
use alembic_ui::{Cell, Frame, Key, Palette, Rect, Tile, TileSupport, fill, put_clipped};

use crate::command::{Command, play};
use crate::error::{Refusal, RuleError};
use crate::events::Event;
use crate::geometry::level_box;
#[cfg(feature = "board")]
use crate::geometry::{HEIGHT, WIDTH};
use crate::kinds::Outcome;
use crate::library::CavesData;
use crate::props::{EXIT, GEM, STAIRS, WALKABLE};
#[cfg(feature = "board")]
use crate::props::{FG, GLYPH, NAME};
use crate::view::{creature_at, is_hostile, name_of, remembered, status, visible};
#[cfg(feature = "board")]
use crate::world::walkable_regions;

/// The bit of [`View::toggles`] that shows the flood-fill regions (`R`).
pub const REGIONS: u32 = 0;
#[cfg(feature = "board")]
const BG: Rgb = Rgb::new(0, 0, 0);

/// The Caves' rules on their data (shipped, or a data directory and mods).
#[derive(Clone, Debug)]
pub struct Caves {
    data: Arc<CavesData>,
    hooks: Hooks,
    wizard: WizardCommands<Game>,
}

impl Caves {
    /// The Caves on their shipped data.
    ///
    /// # Errors
    /// The shipped data does not load (a bug).
    pub fn new() -> Result<Caves, Cause> {
        Caves::on(Arc::new(CavesData::shipped()?))
    }

    /// The Caves on `data`: every game of the session is played, saved and recorded on it.
    ///
    /// # Errors
    /// The hooks or wizard commands could not be registered (a bug).
    pub fn on(data: Arc<CavesData>) -> Result<Caves, Cause> {
        Ok(Caves {
            data,
            hooks: crate::hooks()?,
            wizard: crate::wizard_commands()?,
        })
    }
}

#[cfg(feature = "board")]
#[rustfmt::skip]
const KEYS: &[Binding<Command>] = &[
    bind(&[Key::Char('.'), Key::Char('5'), Key::Keypad(5)], ".  or  5", Command::Wait, "Keys", "wait a turn (walking into rock digs it, into a creature attacks it)"),
    bind(&[Key::Char('>')], ">", Command::Descend, "Keys", "go down the stairs (on the bottom level the golden > is the way out); elsewhere, travel to the nearest known stairs down, or dig towards the stairs you sense"),
    bind(&[Key::Char('<')], "<", Command::Ascend, "Keys", "go up the stairs; elsewhere, travel to the nearest known stairs up"),
];

#[cfg(feature = "board")]
#[rustfmt::skip]
const TOGGLES: &[Binding<u32>] = &[
    bind(&[Key::Char('R')], "R", REGIONS, "View", "show the connected areas (the engine's flood fill) as numbers"),
];

/// The picture for `l` in tiles mode: terrain by its letter, creatures by kind; `None`
/// keeps the letter (never-seen cells, anything without a picture).
#[cfg(feature = "board")]
fn tile_at(g: &Game, l: Loc, lit: bool) -> Option<Tile> {
    if lit && let Some(c) = creature_at(g, l) {
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
    let tile = if lit {
        Some(g.tile(l))
    } else {
        remembered(g, l)
    }?;
    match g.library().tile(tile).ok()?.get(&GLYPH).ok()? {
        '.' => Some(Tile::Floor),
        '#' => Some(Tile::Wall),
        '>' => Some(Tile::StairsDown),
        '<' => Some(Tile::StairsUp),
        '*' => Some(Tile::Gem),
        _ => None,
    }
}

/// Whether the player knows `l` as ground to walk on.
fn known_walkable(g: &Game, l: Loc) -> bool {
    remembered(g, l)
        .and_then(|t| g.library().tile(t).ok())
        .is_some_and(|d| d.is(&WALKABLE))
}

/// Whether creature `c` stays where it is: a lichen spreads but never walks, and stings only
/// what walks into it, so it stops no journey and no rest (its hook says so, and a mod's
/// creature made from it with `copy-from` keeps it).
fn stays_put(g: &Game, c: alembic::ThingId) -> bool {
    g.query(c, &alembic::hook::ON_ACTION)
        .is_ok_and(|h| h.name() == "caves.lichen")
}

/// Where the way down of the player's level really is (its stairs down, or on the last
/// level the way out), whether or not the player has seen it.
fn way_down(g: &Game, here: Loc) -> Option<Loc> {
    level_box(here.z).iter().find(|&l| {
        g.tile_def(l)
            .is_ok_and(|d| d.get(&STAIRS).ok() == Some(1) || d.is(&EXIT))
    })
}

/// The next cell towards `goal` over ground the player knows, never through a creature.
fn known_step(g: &Game, here: Loc, goal: Goal) -> Option<Loc> {
    let area = level_box(here.z);
    let goals: Vec<Loc> = match goal {
        // The unexplored, and the gems the player has seen and not yet picked up.
        Goal::Explore => {
            let mut targets = explore_targets(
                area,
                |l| remembered(g, l).is_some(),
                |l| known_walkable(g, l),
            );
            targets.extend(area.iter().filter(|&l| {
                remembered(g, l)
                    .and_then(|t| g.library().tile(t).ok())
                    .is_some_and(|d| d.is(&GEM))
            }));
            targets
        }
        Goal::Stairs { down } => area
            .iter()
            .filter(|&l| {
                remembered(g, l)
                    .and_then(|t| g.library().tile(t).ok())
                    .is_some_and(|d| {
                        d.get(&STAIRS).ok() == Some(if down { 1 } else { -1 })
                            || (down && d.is(&EXIT))
                    })
            })
            .collect(),
        Goal::Cell(l) if known_walkable(g, l) => vec![l],
        Goal::Cell(_) => Vec::new(),
    };
    if goals.contains(&here) {
        return None;
    }
    // Over known ground only, never through a creature.
    let cost = |_: Loc, to: Loc| {
        (known_walkable(g, to) && (to == here || creature_at(g, to).is_none())).then_some(1)
    };
    if goals.is_empty() {
        return None;
    }
    DijkstraMap::build(area, &goals, cost).next_step(here, cost)
}

/// The next step towards the way down, through rock, when no known ground leads there: the
/// player senses the stairs ([`Journeys::explored_out`] says where, once explore has nothing
/// left) and digs a way (a cell of rock costs a dig and a step; a creature is gone round
/// when the way round is short, and fought when it is not). Any time, not only once explore
/// is done: a dig that broke into a new cave used to stop there, silently, and `>` then
/// answered "There are no stairs down here." until that cave was explored. Exploring is for
/// the gems; diving is the player's choice.
fn dig_towards_way_down(g: &Game, here: Loc) -> Option<Dir> {
    let way = way_down(g, here)?;
    let levels = g.var(&crate::props::LEVELS).ok()?;
    let cost = |_: Loc, to: Loc| {
        let def = g.tile_def(to).ok()?;
        let ground = if def.is(&WALKABLE) {
            1
        } else if def.is(&crate::props::DIGGABLE) && crate::geometry::is_inner(to, levels) {
            2
        } else {
            return None;
        };
        // A creature costs more but never walls the way off: one on the stairs, or four
        // round the hero, left `>` answering "There are no stairs down here." (issue 54).
        Some(if to != here && creature_at(g, to).is_some() {
            ground + 6
        } else {
            ground
        })
    };
    let map = DijkstraMap::build(level_box(here.z), &[way], cost);
    here.dir_to(map.next_step(here, cost)?)
}

/// A compass word for the way from `a` to `b` ("south-east").
fn compass(a: Loc, b: Loc) -> &'static str {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    // Within about 22.5 degrees of an axis, the axis alone.
    let (ns, ew) = (dy.abs() * 5 > dx.abs() * 2, dx.abs() * 5 > dy.abs() * 2);
    match (ns.then_some(dy > 0), ew.then_some(dx > 0)) {
        (Some(true), Some(true)) => "south-east",
        (Some(true), Some(false)) => "south-west",
        (Some(false), Some(true)) => "north-east",
        (Some(false), Some(false)) => "north-west",
        (Some(true), None) => "south",
        (Some(false), None) => "north",
        (None, Some(true)) => "east",
        (None, Some(false)) => "west",
        (None, None) => "here",
    }
}

/// The creatures other than the player in view.
fn in_view(g: &Game) -> Vec<alembic::ThingId> {
    let Ok(seen) = visible(g) else {
        return Vec::new();
    };
    let me = crate::view::player(g).ok();
    seen.iter()
        .filter_map(|l| creature_at(g, l))
        .filter(|&c| Some(c) != me)
        .collect()
}

/// The hostile creatures in view that the hero can walk to over known ground, nearest first,
/// each with the hero's next step (into it when beside it).
fn foes(g: &Game) -> Vec<Foe> {
    let Ok(here) = status(g).map(|s| s.at) else {
        return Vec::new();
    };
    let mut found: Vec<(i64, Foe)> = in_view(g)
        .into_iter()
        .filter(|&c| is_hostile(g, c))
        .filter_map(|c| {
            let at = g.things().location(c).ok()?;
            let cost = |_: Loc, to: Loc| {
                let free = to == here || to == at || creature_at(g, to).is_none();
                (known_walkable(g, to) && free).then_some(1)
            };
            let map = DijkstraMap::build(level_box(here.z), &[at], cost);
            let far = map.get(here)?;
            let step = here.dir_to(map.next_step(here, cost)?)?;
            let name = crate::text::with_article(&name_of(g, c));
            Some((far, Foe { id: c, name, step }))
        })
        .collect();
    found.sort_by_key(|(far, f)| (*far, f.id));
    found.into_iter().map(|(_, f)| f).collect()
}

/// A colour per region number, so neighbouring regions differ.
#[cfg(feature = "board")]
fn region_colour(r: usize) -> Rgb {
    const COLOURS: [Rgb; 6] = [
        Rgb::new(90, 170, 255),
        Rgb::new(120, 220, 120),
        Rgb::new(240, 200, 90),
        Rgb::new(220, 120, 220),
        Rgb::new(255, 170, 80),
        Rgb::new(200, 200, 200),
    ];
    COLOURS[r % COLOURS.len()]
}

#[cfg(feature = "board")]
impl Caves {
    fn cell(g: &Game, l: Loc, lit: bool, regions: Option<&alembic::mapgen::Regions>) -> Cell {
        let blank = Cell::blank(BG, BG);
        if !(0..WIDTH).contains(&l.x) || !(0..HEIGHT).contains(&l.y) {
            return blank;
        }
        let tile = if lit {
            Some(g.tile(l))
        } else {
            remembered(g, l)
        };
        let Some(def) = tile.and_then(|t| g.library().tile(t).ok()) else {
            return blank;
        };
        let mut cell = Cell {
            ch: def.get(&GLYPH).unwrap_or('?'),
            fg: if lit {
                def.get(&FG).unwrap_or(Rgb::WHITE)
            } else {
                Rgb::new(70, 70, 80)
            },
            bg: BG,
        };
        if let Some(r) = regions.and_then(|r| r.label(l)) {
            cell.ch = char::from_digit((r % 36) as u32, 36).unwrap_or('?');
            cell.fg = region_colour(r);
            if !lit {
                cell.fg = cell.fg.scale(0.55);
            }
        }
        if lit && let Some(c) = creature_at(g, l) {
            cell.ch = g.query(c, &GLYPH).unwrap_or('?');
            cell.fg = g.query(c, &FG).unwrap_or(Rgb::WHITE);
        }
        cell
    }

    /// Where the hero's level lands in the map's rectangle `map` (the session's viewport:
    /// centred when it fits, else following the hero and kept inside the level).
    fn viewport(g: &Game, map: Rect) -> Option<Viewport> {
        let at = status(g).ok()?.at;
        Some(Viewport::new(map, level_box(at.z), at, 1, Scroll::Clamped))
    }
}

impl Ruleset for Caves {
    const NAME: &'static str = crate::save::GAME_NAME;
    const TITLE: &'static str = "T H E   C A V E S";
    const INTRO: &'static [&'static str] = &[
        "Somewhere below, a crack in the rock leads back to the daylight.",
        "Dig, fight or sneak your way down through the levels and find it.",
        "",
        "Lichens sting. Bats bite. Zombies do not give up.",
    ];
    type Command = Command;
    type Event = Event;
    type Refusal = Refusal;

    fn library(&self) -> &Library {
        &self.data.library
    }

    fn hooks(&self) -> Hooks {
        self.hooks.clone()
    }

    fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
        crate::new_game_on(seed, &self.data.library)
    }

    fn apply(&self, game: &Game, c: &Command) -> Result<Done<Event>, Rejected<Refusal>> {
        match play(game, *c) {
            Ok((game, events)) => Ok(Done { game, events }),
            Err(RuleError::Refused(r)) => Err(Rejected::Refused(r)),
            Err(RuleError::Engine(e)) => Err(Rejected::Engine(e)),
        }
    }

    fn describe(&self, _: &Game, event: &Event) -> Option<String> {
        Some(crate::text::describe(event))
    }

    fn status(&self, g: &Game) -> Status {
        match status(g) {
            Ok(s) if s.outcome == Outcome::Won => Status::Over(Ending {
                won: true,
                cause: s.cause,
            }),
            Ok(s) if s.outcome == Outcome::Dead => Status::Over(Ending {
                won: false,
                cause: if s.cause.is_empty() {
                    "died".into()
                } else {
                    s.cause
                },
            }),
            _ => Status::Playing,
        }
    }

    fn summary(&self, g: &Game) -> Summary {
        let Ok(s) = status(g) else {
            return Summary::default();
        };
        Summary {
            score: crate::morgue::score_of(&s),
            depth: s.depth + 1,
            deepest: s.deepest + 1,
            kills: s.kills,
            lines: vec![
                format!(
                    "Level:    {} of {} (deepest {})",
                    s.depth + 1,
                    s.levels,
                    s.deepest + 1
                ),
                format!("Turns:    {}", s.turn),
                format!("Kills:    {}", s.kills),
                format!("Gems:     {}", s.gems),
                format!("HP:       {}/{}", s.hp, s.max_hp),
            ],
        }
    }

    fn bot(&self, seed: u64, policy: Policy) -> Option<Box<dyn Bot<Command> + '_>> {
        let policy = match policy {
            Policy::Random => SimPolicy::Wander,
            // The Caves have no planning bot: they play their explorer.
            Policy::Explore | Policy::Plan => SimPolicy::Descend,
        };
        let mut bot = crate::bot::Bot::new(seed);
        Some(Box::new(move |g: &Game| bot.choose(g, policy).ok()))
    }

    fn wizard(&self) -> Option<&WizardCommands<Game>> {
        Some(&self.wizard)
    }

    fn journeys(&self) -> Option<&dyn Journeys<Command>> {
        Some(self)
    }

    fn step(&self, dir: Dir) -> Option<Command> {
        Some(Command::Move(dir))
    }

    fn data(&self) -> DataIdentity {
        self.data.identity.clone()
    }

    fn save_text(&self, game: &Game, _seed: u64, modes: &Modes) -> Result<String, SaveError> {
        crate::save::to_text_with(game, &self.data, &modes.to_strings()).map_err(|e| {
            SaveError::Corrupt {
                game: Self::NAME,
                why: e.to_string(),
            }
        })
    }

    fn load_text(&self, text: &str) -> Result<Saved, Cause> {
        let (game, modes) = crate::save::from_text_with(text, &self.data)?;
        let modes = Modes::parse(&modes).map_err(|why| SaveError::Modes {
            game: Self::NAME,
            why,
        })?;
        // The Caves keep their seed in the game value (caves.seed, under the checksum,
        // written as `seed as i64`).
        let seed = game.var(&crate::props::SEED).ok().map(i64::cast_unsigned);
        Ok(Saved { game, seed, modes })
    }
}

/// The Caves on screen: the map with its viewport, the status, the pointer.
#[cfg(feature = "board")]
impl Board<Caves> for Caves {
    fn keymap(&self) -> &'static [Binding<Command>] {
        KEYS
    }

    fn draw(&self, g: &Game, frame: &mut Frame, area: Rect, view: &View) {
        let (map, bar) = area.split_bottom(1);
        let Some(v) = Caves::viewport(g, map) else {
            put_clipped(
                frame,
                map,
                map.x,
                map.y,
                "Cannot draw: not a Caves game.",
                Rgb::WHITE,
                BG,
            );
            return;
        };
        let seen = visible(g).ok();
        let regions = (view.toggles & (1 << REGIONS) != 0)
            .then(|| walkable_regions(g, v.origin.z).ok())
            .flatten();
        let tiles = if view.tiles && frame.tiles() == TileSupport::Single && regions.is_none() {
            TileSupport::Single
        } else {
            TileSupport::None
        };
        let drawn = v.draw_cells(frame, tiles, |l| {
            let lit = seen.as_ref().is_some_and(|s| s.contains(l));
            let cell = Caves::cell(g, l, lit, regions.as_ref());
            let tile = (tiles != TileSupport::None)
                .then(|| tile_at(g, l, lit))
                .flatten();
            Ok::<_, std::convert::Infallible>(Some((cell, tile)))
        });
        let Ok(()) = drawn;
        let p = Palette::DEFAULT;
        let bar_bg = Rgb::new(30, 26, 22);
        fill(frame, bar, Cell::blank(p.text, bar_bg));
        let Ok(s) = status(g) else { return };
        let mut left = format!(
            " Caves  Level {}/{}  HP {}/{}  Turn {}  Kills {}  Gems {}",
            s.depth + 1,
            s.levels,
            s.hp,
            s.max_hp,
            s.turn,
            s.kills,
            s.gems
        );
        if let Some(r) = &regions {
            left.push_str(&format!("  Regions {}", r.len()));
        }
        let fg = if s.hp * 4 <= s.max_hp {
            Rgb::new(255, 90, 80)
        } else {
            p.text
        };
        put_clipped(frame, bar, bar.x, bar.y, &left, fg, bar_bg);
        let right = "? help  R regions  Q quit ";
        let (lw, rw) = (left.chars().count(), right.chars().count());
        if lw + 1 + rw <= usize::from(bar.width) {
            let rx = bar.right().saturating_sub(rw as u16);
            put_clipped(frame, bar, rx, bar.y, right, p.dim, bar_bg);
        }
    }

    fn play_area(&self) -> Option<(u16, u16)> {
        let w = u16::try_from(WIDTH).unwrap_or(u16::MAX);
        let h = u16::try_from(HEIGHT).unwrap_or(u16::MAX);
        Some((w, h.saturating_add(1)))
    }

    fn cell_at(&self, g: &Game, area: Rect, x: u16, y: u16) -> Option<Loc> {
        Caves::viewport(g, area.split_bottom(1).0)?.loc_at(x, y)
    }

    fn describe_cell(&self, g: &Game, l: Loc) -> Option<String> {
        let lit = visible(g).ok()?.contains(l);
        if lit && let Some(c) = creature_at(g, l) {
            return Some(crate::text::with_article(&name_of(g, c)));
        }
        let t = if lit {
            Some(g.tile(l))
        } else {
            remembered(g, l)
        }?;
        let def = g.library().tile(t).ok()?;
        let name = def
            .get(&NAME)
            .map_or_else(|_| def.name().to_string(), |n| n.to_string());
        Some(if lit {
            name
        } else {
            format!("{name} (remembered)")
        })
    }

    fn view_toggles(&self) -> &'static [Binding<u32>] {
        TOGGLES
    }

    fn has_tiles(&self) -> bool {
        true
    }
}

/// Rest, search, explore and travel in the Caves.
impl Journeys<Command> for Caves {
    fn wait(&self) -> Option<Command> {
        Some(Command::Wait)
    }

    fn may_rest(&self, g: &Game, search: bool) -> Result<(), RestRefused> {
        let s = status(g).map_err(|e| RestRefused(e.to_string()))?;
        if !search && s.hp >= s.max_hp {
            return Err(RestRefused(
                "You are not hurt: nothing to rest for (s searches, . waits).".into(),
            ));
        }
        if let Some(&c) = in_view(g)
            .iter()
            .find(|&&c| is_hostile(g, c) && !stays_put(g, c))
        {
            let name = crate::text::with_article(&name_of(g, c));
            return Err(RestRefused(format!("Not with {name} in view.")));
        }
        Ok(())
    }

    fn rested(&self, g: &Game) -> bool {
        status(g).is_ok_and(|s| s.hp >= s.max_hp)
    }

    /// A hostile creature (never a lichen, which stays put) coming into view, or a wound.
    /// Bunnies and silverfish, which never attack, do not stop a journey.
    fn interrupt(&self, before: &Game, after: &Game) -> Option<String> {
        let old = in_view(before);
        if let Some(&c) = in_view(after)
            .iter()
            .find(|&&c| !old.contains(&c) && is_hostile(after, c) && !stays_put(after, c))
        {
            let name = crate::text::with_article(&name_of(after, c));
            let mut chars = name.chars();
            let first = chars.next().map(|f| f.to_uppercase().to_string());
            return Some(format!(
                "{}{} comes into view.",
                first.unwrap_or_default(),
                chars.as_str()
            ));
        }
        match (status(before), status(after)) {
            (Ok(b), Ok(a)) if a.hp < b.hp => Some("You are hurt!".into()),
            _ => None,
        }
    }

    fn fights(&self) -> bool {
        true
    }

    fn foes(&self, g: &Game) -> Vec<Foe> {
        foes(g)
    }

    fn health(&self, g: &Game) -> Option<(i64, i64)> {
        status(g)
            .ok()
            .map(|s| (i64::from(s.hp), i64::from(s.max_hp)))
    }

    fn explored_out(&self, g: &Game) -> Option<String> {
        let here = status(g).ok()?.at;
        let way = way_down(g, here)?;
        let known = remembered(g, way).is_some();
        let paces = here.chebyshev(way);
        let what = if g.tile_def(way).is_ok_and(|d| d.is(&EXIT)) {
            "the way out"
        } else {
            "the stairs down"
        };
        Some(if known {
            format!("You know where {what} are: > takes you there.")
        } else {
            format!(
                "You sense {what} {paces} paces to the {}, behind rock: > digs there.",
                compass(here, way)
            )
        })
    }

    fn route(&self, g: &Game, goal: Goal) -> Option<Dir> {
        let here = status(g).ok()?.at;
        match known_step(g, here, goal) {
            Some(next) => here.dir_to(next),
            None if goal == (Goal::Stairs { down: true }) => dig_towards_way_down(g, here),
            None => None,
        }
    }
}
