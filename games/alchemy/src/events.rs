//! What happens in Alchemy, as typed [`Event`]s.
//!
//! A command is first checked (a [`Refusal`](super::Refusal) if it cannot be done), then the
//! rules execute it into events: every rule, and every hook the rules fire, emits into the
//! one [`HookCtx`] of the command. At the end of the command `apply` takes the events
//! ([`take`]), [`text`](super::text) turns them into the English of the message log, and the
//! [`Outcome`](super::Outcome) hands them to the caller. No English is made here: an event
//! names things by [`Noun`]s and kinds, and text decides the words.

use std::sync::Arc;

use alembic::{Game, HookCtx, Loc, ThingId};
use serde::{Deserialize, Serialize};

use super::kinds::{DamageType, Stat};
use super::props::{IS_IDENTIFIED, IS_POTION, NUMBER, UNKNOWN_NAME};

/// Whether the kind of `id` is identified (read from its prototype, so identifying one
/// potion identifies every potion of its kind).
#[must_use]
pub(crate) fn is_identified(game: &Game, id: ThingId) -> bool {
    let Ok(t) = game.things().get(id) else {
        return false;
    };
    if let Some(p) = t.proto().and_then(|p| game.library().get(p).ok()) {
        if p.is(&IS_IDENTIFIED) {
            return true;
        }
        // Kinds with no unknown form are always known.
        return p.get(&UNKNOWN_NAME).is_err() && !p.is(&IS_POTION);
    }
    t.is(&IS_IDENTIFIED) || t.get_opt(&UNKNOWN_NAME).ok().flatten().is_none()
}

/// A thing as the hero knew it when the event happened: enough to name it afterwards, even
/// once it is gone (killed, drunk) or its kind has become known since.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Noun {
    /// The thing.
    pub id: ThingId,
    /// Its prototype in the game's library (`None` for a thing made without one).
    pub kind: Option<Arc<str>>,
    /// How many it stood for (a stack's number; 1 otherwise).
    pub count: u32,
    /// Whether its kind was identified then.
    pub known: bool,
}

impl Noun {
    /// `id` as it is now in `game` (a thing no longer in the game keeps its id only).
    #[must_use]
    pub fn of(game: &Game, id: ThingId) -> Noun {
        let kind = game
            .things()
            .get(id)
            .ok()
            .and_then(|t| t.proto().map(Arc::<str>::from));
        let count = game.query(id, &NUMBER).unwrap_or(1).max(1);
        Noun {
            id,
            kind,
            count: u32::try_from(count).unwrap_or(1),
            known: is_identified(game, id),
        }
    }

    /// The same noun standing for `count` things.
    #[must_use]
    pub fn counted(mut self, count: u32) -> Noun {
        self.count = count.max(1);
        self
    }
}

/// How an attack went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strike {
    /// Dodged.
    Missed,
    /// Blocked (skill or shield).
    Blocked,
    /// It hit (the damage follows as a [`Event::Damaged`]).
    Hit,
    /// A critical hit: double damage.
    Critical,
}

/// What killed someone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// A creature (`None`: one no longer in the game).
    Creature(Option<Noun>),
    /// A potion with nobody to blame (drunk or splashed by the victim).
    Potion,
    /// An effect's periodic damage: `kind` is the effect's prototype; `undone` when healing
    /// magic burned an undead creature.
    Effect {
        /// The effect's prototype.
        kind: Arc<str>,
        /// Healing that hurt the undead rather than a harmful effect.
        undone: bool,
    },
}

/// Which effects a cure removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cure {
    /// Poisons.
    Poison,
    /// Every harmful effect.
    Harm,
    /// Draining effects.
    Drain,
}

/// How a kind became known without the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Learned {
    /// By drinking it.
    Drinking,
    /// By eating it (an ingredient).
    Tasting,
}

/// Something that happened during a command. Events that only the hero could notice carry
/// `seen`: whether the hero saw it happen (text says nothing for what went unseen).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// The hero arrived in a new game.
    Entered,
    /// The hero stepped to `to`.
    Moved {
        /// The hero.
        who: ThingId,
        /// Where to.
        to: Loc,
    },
    /// A confused hero stumbled; `bumped` when into something (the move was lost).
    Stumbled {
        /// Whether the stumble went into a wall or danger.
        bumped: bool,
    },
    /// The hero stands on stairs.
    StandingOn {
        /// The stairs.
        what: Noun,
    },
    /// The hero noticed items where they now stand.
    Noticed {
        /// The items, in arrival order.
        items: Vec<Noun>,
    },
    /// An attack.
    Attacked {
        /// Who attacked.
        attacker: Noun,
        /// Who was attacked.
        target: Noun,
        /// How it went.
        strike: Strike,
        /// The attack's verb as the library's data names it (`bite`), for text to conjugate.
        verb: Arc<str>,
        /// The damage rolled (before resistance and armour; 0 unless it hit).
        damage: i32,
        /// The damage type.
        kind: DamageType,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// Someone took damage after resistance and armour.
    Damaged {
        /// Who.
        who: ThingId,
        /// Hit points lost.
        amount: i32,
        /// The damage type.
        kind: DamageType,
    },
    /// An invincible creature took no damage.
    Unharmed {
        /// Who.
        who: Noun,
    },
    /// An immortal creature stayed at 1 hit point.
    RefusedToDie {
        /// Who.
        who: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// Someone died.
    Died {
        /// Who.
        who: Noun,
        /// Of what.
        cause: Cause,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// A dead creature rose again as another.
    RoseAgain {
        /// The creature that died.
        was: Noun,
        /// What it became.
        now: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// Items were picked up (a pile of look-alikes counts as one event).
    PickedUp {
        /// Who.
        who: ThingId,
        /// The first item, counted as the whole pile.
        items: Noun,
    },
    /// An item was dropped.
    Dropped {
        /// Who.
        who: ThingId,
        /// What (as it left the pack).
        item: Noun,
    },
    /// A potion was drunk.
    Drank {
        /// Who.
        who: ThingId,
        /// The potion.
        potion: Noun,
    },
    /// A monster drank a potion it carried (a cunning monster's choice).
    MonsterDrank {
        /// Who.
        who: Noun,
        /// The potion.
        potion: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// A monster threw an item it carried at the hero (a cunning monster's choice); what
    /// the item did follows ([`Event::Shattered`], [`Event::Splashed`]…).
    MonsterThrew {
        /// Who.
        who: Noun,
        /// What.
        item: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// Food or an ingredient was eaten.
    Ate {
        /// Who.
        who: ThingId,
        /// The food.
        food: Noun,
    },
    /// A kind became known by using it.
    Identified {
        /// The item, as it is now known.
        item: Noun,
        /// How.
        how: Learned,
    },
    /// An item was analysed at a lab (and used up).
    Analysed {
        /// The item as it was.
        item: Noun,
        /// What it turned out to be (`None`: nothing was learned).
        learned: Option<Noun>,
    },
    /// A potion was brewed.
    Crafted {
        /// The potion's prototype.
        potion: Arc<str>,
        /// How many.
        count: u32,
    },
    /// An item was thrown.
    Threw {
        /// Who.
        who: ThingId,
        /// What.
        item: Noun,
        /// At where.
        at: Loc,
    },
    /// A thrown potion shattered.
    Shattered {
        /// The potion.
        item: Noun,
        /// The creature it splashed, if any.
        over: Option<Noun>,
        /// Whether it struck a wall (else the floor), when it splashed nobody.
        wall: bool,
    },
    /// A thrown item hit a creature.
    ThrownHit {
        /// The item.
        item: Noun,
        /// The creature.
        target: Noun,
    },
    /// A thrown item bounced off a wall.
    Bounced {
        /// The item.
        item: Noun,
    },
    /// What a potion shattering over a creature did, when nothing else said it: the hit
    /// points it cost, or nothing the hero could see.
    Splashed {
        /// Who.
        who: Noun,
        /// Hit points lost to the splash (0: none).
        damage: i32,
        /// Nothing else was said about it.
        silent: bool,
    },
    /// A weapon was wielded or armour put on.
    Wielded {
        /// The item.
        item: Noun,
        /// What came out of its slot.
        replaced: Option<Noun>,
        /// Whether it is a weapon (else armour).
        weapon: bool,
    },
    /// A weapon was put away or armour taken off.
    Unwielded {
        /// The item.
        item: Noun,
        /// Whether it is a weapon (else armour).
        weapon: bool,
    },
    /// A door was opened.
    DoorOpened {
        /// By whom.
        by: Noun,
        /// The door.
        door: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// The hero could not force a stuck door.
    DoorStuck {
        /// The door.
        door: Noun,
    },
    /// A door was closed.
    DoorClosed {
        /// The door.
        door: Noun,
    },
    /// The hero used scenery that only has something to say.
    Used {
        /// The scenery.
        what: Noun,
    },
    /// The hero drank from a fountain.
    FountainDrunk {
        /// Who.
        who: ThingId,
    },
    /// A fountain dried up.
    FountainDried {
        /// Whether the hero saw it.
        seen: bool,
    },
    /// The hero went down to `depth`.
    Descended {
        /// The new depth.
        depth: i32,
    },
    /// The hero climbed up to `depth`.
    Ascended {
        /// The new depth.
        depth: i32,
    },
    /// The hero left the dungeon with the Stone.
    Won,
    /// The hero reached a new level.
    LevelUp {
        /// The new level.
        level: i32,
        /// Maximum hit points gained.
        hp: i32,
        /// Whether skill rose by 1.
        skill: bool,
    },
    /// An effect began on someone.
    EffectStarted {
        /// Who.
        who: Noun,
        /// The effect's prototype.
        effect: Arc<str>,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// An effect wore off.
    EffectEnded {
        /// Who.
        who: Noun,
        /// The effect's prototype.
        effect: Arc<str>,
    },
    /// Healing magic burned an undead creature.
    Writhed {
        /// Who.
        who: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// A healing potion worked.
    Healed {
        /// Who.
        who: Noun,
        /// Whether the hero saw it.
        seen: bool,
    },
    /// A potion raised a statistic for good.
    GainedStat {
        /// Who.
        who: Noun,
        /// Which.
        stat: Stat,
    },
    /// A potion raised maximum health.
    GainedHealth {
        /// Who.
        who: Noun,
    },
    /// A potion raised speed for good.
    GainedSpeed {
        /// Who.
        who: Noun,
    },
    /// A cure was drunk; `any` when it removed something.
    Cured {
        /// Who.
        who: Noun,
        /// What kind of cure.
        cure: Cure,
        /// Whether any effect went.
        any: bool,
    },
    /// Food healed the eater.
    Nourished {
        /// Who.
        who: Noun,
    },
    /// A magic mushroom took hold.
    Shimmered {
        /// Who.
        who: Noun,
    },
}

/// The events of one command so far, each with the game turn it happened on: the typed
/// scratch entry of the command's [`HookCtx`].
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Pending(pub Vec<(u64, Event)>);

/// Record that `event` happened now.
pub(crate) fn emit(game: &Game, ctx: &mut HookCtx<'_>, event: Event) {
    ctx.scratch::<Pending>().0.push((game.turn(), event));
}

/// How many events `ctx` holds so far (a rule compares before and after a step).
pub(crate) fn pending_len(ctx: &mut HookCtx<'_>) -> usize {
    ctx.scratch::<Pending>().0.len()
}

/// The events recorded in `ctx` from the `from`-th on (see [`pending_len`]).
pub(crate) fn pending_since(ctx: &mut HookCtx<'_>, from: usize) -> Vec<Event> {
    ctx.scratch::<Pending>()
        .0
        .iter()
        .skip(from)
        .map(|(_, e)| e.clone())
        .collect()
}

/// Take the events recorded in `ctx` so far, oldest first.
pub fn take(ctx: &mut HookCtx<'_>) -> Vec<(u64, Event)> {
    std::mem::take(&mut ctx.scratch::<Pending>().0)
}
