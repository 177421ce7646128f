//! Alchemy on the game contract: [`Alchemy`] implements [`Ruleset`] with Alchemy's
//! commands, typed events and refusals, its data, save format, wizard commands and bot, so
//! the generic parts of [`alembic_session`] (the headless runner `alembic-sim --game
//! alchemy`, recordings and their verification) run it as they run every game. These are
//! the rules alone: Alchemy's screens (`alembic-rl-alchemy-ui`) give it its board.

use std::sync::Arc;

use crate::{self as alchemy, Command, Event, RuleError, Rules};
use alembic::rng::GameRng;
use alembic::wizard::WizardCommands;
use alembic::{Dir, Game, Hooks, Library};
use alembic_session::gamedata::DataIdentity;
use alembic_session::ruleset::{
    Bot, Ending, GameEnd, Outcome, Policy, Rejected, Ruleset, Status, Summary,
};
use alembic_session::savefile::{SaveError, Saved};
use alembic_session::{Cause, Modes};

/// Alchemy's rules on the contract, with the wizard commands built once.
#[derive(Clone)]
pub struct Alchemy {
    rules: Rules,
    wizard: Arc<WizardCommands<Game>>,
}

/// What happened in a command, as the contract carries it: the game's typed events.
pub type Happened = Event;

impl Alchemy {
    /// Alchemy on the shipped data.
    ///
    /// # Errors
    /// The data or the hooks could not be built (a bug in the shipped data).
    pub fn new() -> Result<Alchemy, Cause> {
        Alchemy::on(Rules::new()?)
    }

    /// Alchemy on `rules` (a data directory, mods).
    ///
    /// # Errors
    /// The wizard commands could not be registered (a bug).
    pub fn on(rules: Rules) -> Result<Alchemy, Cause> {
        let wizard = alchemy::wizard::commands(&rules)?;
        Ok(Alchemy {
            rules,
            wizard: Arc::new(wizard),
        })
    }

    /// Alchemy on `rules`, with the wizard commands if they register, else none (the
    /// console then says the game has none; registering fails only on a bug, which the
    /// tests catch, so a player never meets it).
    #[must_use]
    pub fn or_without_wizard(rules: Rules) -> Alchemy {
        Alchemy::on(rules.clone()).unwrap_or_else(|_| Alchemy {
            rules,
            wizard: Arc::default(),
        })
    }

    /// The rules underneath.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

impl Ruleset for Alchemy {
    const NAME: &'static str = "alchemy";
    const TITLE: &'static str = "A L C H E M Y";
    const SAVE_VERSION: u32 = alchemy::save::SAVE_VERSION;
    type Command = Command;
    type Event = Happened;
    type Refusal = RuleError;

    fn library(&self) -> &Library {
        self.rules.base_library()
    }

    fn is_wizard_game(&self, game: &Game) -> Option<bool> {
        Some(game.var(&alchemy::props::WIZARD_MODE).unwrap_or(false))
    }

    fn reloads(&self) -> bool {
        true
    }

    fn reloaded(&self) -> Result<Self, Cause> {
        Alchemy::on(self.rules.reloaded()?)
    }

    fn hooks(&self) -> Hooks {
        self.rules.hooks().clone()
    }

    fn new_game(&self, seed: u64) -> Result<Game, alembic::Error> {
        alchemy::new_game(seed, &self.rules)
    }

    fn new_game_in_modes(&self, seed: u64, modes: &Modes) -> Result<Game, alembic::Error> {
        alchemy::new_game_in_modes(seed, &self.rules, modes)
    }

    fn apply(&self, game: &Game, c: &Command) -> Result<Outcome<Happened>, Rejected<RuleError>> {
        match alchemy::apply(game, &self.rules, c.clone()) {
            Ok(o) => Ok(Outcome {
                game: o.game,
                events: o.events,
            }),
            Err(RuleError::Engine(e)) => Err(Rejected::Engine(e)),
            Err(e) => Err(Rejected::Refused(e)),
        }
    }

    fn describe(&self, game: &Game, event: &Happened) -> Option<String> {
        let lines = alchemy::text::lines(game, event);
        (!lines.is_empty()).then(|| lines.join(" "))
    }

    fn status(&self, game: &Game) -> Status {
        match alchemy::view::summary(game) {
            Ok(s) if s.outcome.is_over() => Status::Over(Ending::new(
                s.outcome == alchemy::props::Fate::Won,
                if s.cause.is_empty() {
                    s.outcome.to_string()
                } else {
                    s.cause
                },
            )),
            _ => Status::Playing,
        }
    }

    fn epitaph(&self, game: &Game) -> Option<String> {
        let s = alchemy::view::summary(game).ok()?;
        (s.outcome == alchemy::props::Fate::Won)
            .then(|| "You climbed out of the dungeon with the Philosopher's Stone!".to_owned())
    }

    fn summary(&self, game: &Game) -> Summary {
        let Ok(s) = alchemy::view::summary(game) else {
            return Summary::default();
        };
        Summary {
            score: crate::morgue::score_of(&s),
            depth: s.depth,
            deepest: s.deepest,
            kills: s.kills,
            lines: vec![
                format!("Depth:    {} (deepest {})", s.depth, s.deepest),
                format!("Turns:    {}", s.turns),
                format!("Kills:    {}", s.kills),
            ],
        }
    }

    fn step(&self, dir: Dir) -> Option<Command> {
        Some(Command::Move(dir))
    }

    fn data(&self) -> DataIdentity {
        self.rules.data_identity().clone()
    }

    fn save_text(&self, game: &Game, _: u64, modes: &Modes) -> Result<String, SaveError> {
        let engine = |e: String| SaveError::Engine(alembic::Error::Msg(e.into()));
        let text = alchemy::save::to_text_with_modes(game, modes, &self.rules)
            .map_err(|e| engine(e.to_string()))?;
        // Never written unless it loads back: a save that would not load is no save.
        let _loaded = alchemy::save::from_text(&text, &self.rules)
            .map_err(|e| engine(format!("not saved, it would not load back ({e})")))?;
        Ok(text)
    }

    fn load_text(&self, text: &str) -> Result<Saved, Cause> {
        let game = alchemy::save::from_text(text, &self.rules)?;
        let modes = Modes::parse(alchemy::save::modes_of(text))
            .map_err(|e| alchemy::save::SaveError::Corrupt(e.to_string()))?;
        // Alchemy's saves do not keep the seed (the game value carries its own generator):
        // the recording beside the save knows it, else it is unknown.
        Ok(Saved {
            seed: None,
            game,
            modes,
        })
    }

    fn morgue(&self, end: &GameEnd<'_>) -> Option<String> {
        let messages: Vec<String> = end.messages.iter().map(|(_, m)| m.clone()).collect();
        let ending = crate::morgue::Ending {
            game: end.game,
            seed: end.seed,
            modes: end.modes,
            quit: end.quit,
            recording: end.recording,
            messages: &messages,
            said: end.messages,
            unix_secs: end.unix_secs,
        };
        crate::morgue::morgue_text(&ending).ok()
    }

    fn scores_file(&self) -> String {
        crate::morgue::SCORES_FILE.to_owned()
    }

    fn opening(&self, game: &Game) -> Vec<String> {
        alchemy::text::lines(game, &Event::Entered)
    }

    fn journeys(&self) -> Option<&dyn alembic_session::Journeys<Command>> {
        Some(self)
    }

    fn questions(&self) -> Option<&dyn alembic_session::ask::Questions<Command>> {
        Some(self)
    }

    fn wizard(&self) -> Option<&WizardCommands<Game>> {
        Some(&*self.wizard)
    }

    fn bot(&self, seed: u64, policy: Policy) -> Option<Box<dyn Bot<Command> + '_>> {
        Some(match policy {
            Policy::Explore => Box::new(Explorer {
                bot: alchemy::bot::Bot::new(seed),
                rules: self.rules.clone(),
            }),
            Policy::Plan => Box::new(Planner {
                bot: alchemy::planbot::PlanBot::new(seed, self.rules.clone()),
                rules: self.rules.clone(),
            }),
            Policy::Random => {
                let mut rng = GameRng::seed_from(seed ^ 0x9E37_79B9_7F4A_7C15);
                Box::new(move |g: &Game| Some(random_command(g, &mut rng)))
            }
        })
    }
}

/// Alchemy's exploring bot, which plans routes and forgets them when refused. It shares
/// the rules the games are played with, to take the hero's view of the game the last
/// command returned from them instead of working it out again.
struct Explorer {
    bot: alchemy::bot::Bot,
    rules: Rules,
}

impl Bot<Command> for Explorer {
    fn choose(&mut self, game: &Game) -> Option<Command> {
        let seen = self.rules.last_hero_view(game);
        Some(self.bot.choose_seeing(game, seen))
    }

    fn refused(&mut self) {
        self.bot.refused();
    }
}

/// Alchemy's planning bot ([`alchemy::planbot`]): the explorer, with its fights chosen by
/// search.
struct Planner {
    bot: alchemy::planbot::PlanBot,
    rules: Rules,
}

impl Bot<Command> for Planner {
    fn choose(&mut self, game: &Game) -> Option<Command> {
        let seen = self.rules.last_hero_view(game);
        Some(self.bot.choose(game, seen))
    }

    fn refused(&mut self) {
        self.bot.refused();
    }
}

/// A random command for the fuzzer: mostly moves, sometimes anything the hero could try.
#[must_use]
pub fn random_command(game: &Game, rng: &mut GameRng) -> Command {
    let inv = alchemy::view::hero_id(game)
        .map(|h| alchemy::rules::inventory(game, h))
        .unwrap_or_default();
    let item = |rng: &mut GameRng| inv.get(rng.index(inv.len()).unwrap_or(0)).copied();
    let dir = |rng: &mut GameRng| Dir::COMPASS[rng.below(8) as usize];
    let roll = rng.below(100);
    let with_item = |rng: &mut GameRng, f: fn(alembic::ThingId) -> Command| match item(rng) {
        Some(i) => f(i),
        None => Command::Wait,
    };
    match roll {
        0..=59 => Command::Move(dir(rng)),
        60..=63 => Command::Wait,
        64..=67 => Command::PickUp(None),
        68..=70 => with_item(rng, Command::Drop),
        71..=74 => with_item(rng, Command::Quaff),
        75..=77 => with_item(rng, Command::Eat),
        78..=80 => with_item(rng, Command::Wield),
        81 => with_item(rng, Command::Unwield),
        82..=84 => match (
            item(rng),
            alchemy::view::hero_id(game).and_then(|h| game.things().location(h)),
        ) {
            (Some(i), Ok(at)) => {
                let dx = rng.range(-6, 6) as i32;
                let dy = rng.range(-6, 6) as i32;
                Command::Throw(i, alembic::Loc::new(at.x + dx, at.y + dy, at.z))
            }
            _ => Command::Wait,
        },
        85..=86 => Command::Open(dir(rng)),
        87 => Command::Close(dir(rng)),
        88..=89 => with_item(rng, Command::Analyse),
        90 => Command::Craft("potion of healing".into()),
        91..=94 => Command::Descend,
        95..=97 => Command::Ascend,
        // What was a look (a query now, not a command): its draws are kept, so the games
        // the fuzzer plays stay the same, and another roll is made.
        _ => match alchemy::view::hero_id(game).and_then(|h| game.things().location(h)) {
            Ok(_) => {
                let _ = dir(rng);
                random_command(game, rng)
            }
            Err(_) => Command::Wait,
        },
    }
}
