//! The play screen: the messages on top, the map (centred on the hero, scrolling with it,
//! lit by the hero's torch, remembered terrain dimmed) and the status panel; every command
//! key of the game.

use alembic::{Loc, Rgb, ThingId};
use alembic_ui::{
    Confirm, Frame, Input, ItemList, Key, ListEntry, MessageLogScreen, MouseButton, MouseKind,
    Rect, Screen, TextScreen, Transition, plain_key,
};

use super::colours::{self, PALETTE};
use super::keymap::{Action, action_of};
use super::map::draw_hover;
use super::prompts::{ActionMenu, CountPrompt, DirectionPrompt, LookScreen, MorePrompt};
use super::travel::{Auto, Journey};
use super::{AlchemyCtx, Tone};
use alembic_alchemy::{
    self as alchemy,
    rules::items_at,
    text::a_name,
    view::{Apparatus, DoorState, InventoryEntry, ItemKind, Stairs, hero_id},
};
use alembic_alchemy::{Command, view::summary};
use alembic_session::Goal;
use alembic_session::end::AfterEnd;

pub use super::keymap::help_lines;
pub use super::map::{
    Layout, MapView, contrast, draw_map, health_colour, layout, lit_wall_face, luminance, map_view,
    memory_colours, tile_mode, wall_mark,
};
pub use super::status::{draw_messages, draw_play};

// ---------------------------------------------------------------------------------------------
// Commands

/// What can be done with an item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemAction {
    /// Drink.
    Quaff,
    /// Eat.
    Eat,
    /// Drop.
    Drop,
    /// Throw (then target).
    Throw,
    /// Wield or wear; take off when already in use.
    Wield,
    /// Analyse at a lab.
    Analyse,
}

impl ItemAction {
    fn title(self) -> &'static str {
        match self {
            ItemAction::Quaff => "Quaff which potion?",
            ItemAction::Eat => "Eat what?",
            ItemAction::Drop => "Drop what? (what you wear or wield comes off first: w)",
            ItemAction::Throw => "Throw what? (what you wear or wield comes off first: w)",
            ItemAction::Wield => "Wield or wear what? (again to take off)",
            ItemAction::Analyse => "Analyse what?",
        }
    }

    fn none(self) -> &'static str {
        match self {
            ItemAction::Quaff => "You have no potions to drink.",
            ItemAction::Eat => "You have nothing to eat.",
            ItemAction::Drop => "You are carrying nothing.",
            ItemAction::Throw => "You have nothing to throw.",
            ItemAction::Wield => "You have nothing to wield or wear.",
            ItemAction::Analyse => "You have nothing to analyse: only potions and ingredients.",
        }
    }

    fn fits(self, e: &InventoryEntry) -> bool {
        match self {
            ItemAction::Quaff => e.kind == ItemKind::Potion,
            ItemAction::Eat => matches!(e.kind, ItemKind::Food | ItemKind::Ingredient),
            // What is worn or wielded must come off first (w), as in DCSS.
            ItemAction::Drop | ItemAction::Throw => !e.wielded,
            ItemAction::Wield => matches!(e.kind, ItemKind::Weapon | ItemKind::Armour),
            ItemAction::Analyse => matches!(e.kind, ItemKind::Potion | ItemKind::Ingredient),
        }
    }

    /// The key that does this (the same as on the play screen).
    fn key(self) -> char {
        match self {
            ItemAction::Quaff => 'q',
            ItemAction::Eat => 'e',
            ItemAction::Drop => 'd',
            ItemAction::Throw => 't',
            ItemAction::Wield => 'w',
            ItemAction::Analyse => 'a',
        }
    }

    fn label(self, e: &InventoryEntry) -> &'static str {
        match self {
            ItemAction::Quaff => "quaff",
            ItemAction::Eat => "eat",
            ItemAction::Drop => "drop",
            ItemAction::Throw => "throw",
            ItemAction::Wield => match (e.wielded, e.kind) {
                (true, ItemKind::Weapon) => "put away",
                (true, _) => "take off",
                (false, ItemKind::Weapon) => "wield",
                (false, _) => "wear",
            },
            ItemAction::Analyse => "analyse (beside an analysis lab)",
        }
    }

    const ALL: [ItemAction; 6] = [
        ItemAction::Quaff,
        ItemAction::Eat,
        ItemAction::Wield,
        ItemAction::Throw,
        ItemAction::Analyse,
        ItemAction::Drop,
    ];
}

/// What the play screen hears back from the screens it asks, each with what it needs to
/// remember meanwhile (`None`, `false`: the player backed out).
#[derive(Clone, Debug)]
pub enum PlayReply {
    /// An item for an action: the ids behind each list entry (and whether it is in use), and
    /// the entry chosen.
    Item(ItemAction, Vec<(ThingId, bool)>, Option<usize>),
    /// An inventory entry, to show its actions.
    Inventory(Vec<InventoryEntry>, Option<usize>),
    /// An action for an inventory entry.
    InventoryAction(InventoryEntry, Vec<ItemAction>, Option<usize>),
    /// Where to throw this item.
    Throw(ThingId, Option<Loc>),
    /// How many of this stack to drop.
    DropSome(ThingId, Option<usize>),
    /// A recipe to craft.
    Craft(Vec<alchemy::props::RecipeId>, Option<usize>),
    /// One of the items here to pick up.
    PickUp(Vec<ThingId>, Option<usize>),
    /// The direction to open or close a door.
    Door(Option<alembic::Dir>),
    /// The place to travel to.
    Travel(Option<Loc>),
    /// Quit (end) this game?
    Quit(bool),
    /// Analyse (and so use up) this item?
    Analyse(ThingId, bool),
    /// The game was saved and the player has read where: quit.
    SavedQuit,
    /// The --More-- after a death was read: on to the end (or the practice rewind).
    DeathRead,
    /// Rewind after a practice death?
    Rewind(bool),
    /// What the player chose on the end screen.
    End(AfterEnd),
}

/// The play screen.
#[derive(Debug, Default)]
pub struct PlayScreen {
    /// The map cell under the mouse pointer (hover to look).
    hover: Option<Loc>,
    /// The map view as last drawn, so a mouse position maps back to the cell the player saw
    /// there. Render output, written by `render` only.
    drawn: Option<MapView>,
    /// Travel, explore or a run under way: one step per tick, any key stops it.
    journey: Option<Journey>,
}

/// The pause between two steps of travel, explore and running, so the player sees the hero
/// walk (and can stop it with any key).
pub const STEP_DELAY: std::time::Duration = std::time::Duration::from_millis(8);

impl PlayScreen {
    /// Start moving towards `goal`: the first step now (a refusal, such as a monster in
    /// view, is said at once), the rest one per tick.
    fn begin(&mut self, ctx: &mut AlchemyCtx, auto: Auto) -> Transition<AlchemyCtx, Self> {
        let mut journey = Journey::new(auto);
        self.go_on(ctx, &mut journey).unwrap_or_else(|| {
            self.journey = Some(journey);
            Transition::Stay
        })
    }

    /// One step of `journey`: `Some` when it ended (and was reported).
    fn go_on(
        &mut self,
        ctx: &mut AlchemyCtx,
        journey: &mut Journey,
    ) -> Option<Transition<AlchemyCtx, Self>> {
        journey.step(ctx).map(|end| Self::report(ctx, end))
    }

    /// Whether travel, explore or a run is under way.
    #[must_use]
    pub fn is_moving(&self) -> bool {
        self.journey.is_some()
    }

    /// A play screen for the context's game.
    #[must_use]
    pub fn new() -> Self {
        PlayScreen::default()
    }

    /// The mouse on the play screen: hover looks, a left click travels there (or attacks
    /// next to the hero), the wheel opens the message log.
    fn mouse(
        &mut self,
        ctx: &mut AlchemyCtx,
        kind: MouseKind,
        x: u16,
        y: u16,
    ) -> Transition<AlchemyCtx, Self> {
        let at = self.drawn.and_then(|v| v.loc_at(x, y));
        match kind {
            MouseKind::Move => {
                // Only places the hero knows: hovering the dark says nothing.
                self.hover =
                    at.filter(|l| ctx.game().is_some_and(|g| alchemy::rules::explored(g, *l)));
                Transition::Stay
            }
            MouseKind::Down(MouseButton::Left) => {
                let Some(target) = at else {
                    return Transition::Stay;
                };
                self.hover = None;
                let Some(hero_at) = ctx
                    .game()
                    .and_then(|g| g.things().location(hero_id(g).ok()?).ok())
                else {
                    return Transition::Stay;
                };
                if hero_at.chebyshev(target) == 1
                    && let Some(d) = hero_at.dir_to(target)
                {
                    return Self::act(ctx, Command::Move(d));
                }
                self.begin(ctx, Auto::Travel(Goal::Cell(target)))
            }
            MouseKind::Down(MouseButton::Right) => {
                self.hover = at;
                Transition::Stay
            }
            MouseKind::ScrollUp => {
                let lines = ctx.log().iter().map(super::LogLine::shown).collect();
                Transition::push(MessageLogScreen::new("Messages", lines))
            }
            _ => Transition::Stay,
        }
    }

    /// Tell the player how a travel, run or exploration ended.
    fn report(ctx: &mut AlchemyCtx, end: super::travel::TravelEnd) -> Transition<AlchemyCtx, Self> {
        if end == super::travel::TravelEnd::GameOver {
            return end_game(ctx);
        }
        if let Some(why) = end.sentence() {
            ctx.note(Tone::Note, why.to_owned());
        }
        Transition::Stay
    }

    /// Run a command; if it ends the game, swap to the end screen.
    fn act(ctx: &mut AlchemyCtx, cmd: Command) -> Transition<AlchemyCtx, Self> {
        match ctx.act(cmd) {
            Some(true) => end_game(ctx),
            _ => Transition::Stay,
        }
    }

    fn entries(ctx: &mut AlchemyCtx) -> Option<Vec<InventoryEntry>> {
        let game = ctx.game()?;
        match alchemy::view::inventory_entries(game) {
            Ok(e) => Some(e),
            Err(e) => {
                ctx.note(Tone::Error, format!("internal error: {e}"));
                None
            }
        }
    }

    fn choose_item(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: ItemAction,
    ) -> Transition<AlchemyCtx, Self> {
        let Some(all) = Self::entries(ctx) else {
            return Transition::Stay;
        };
        let fit: Vec<&InventoryEntry> = all.iter().filter(|e| action.fits(e)).collect();
        if fit.is_empty() {
            let in_use = matches!(action, ItemAction::Drop | ItemAction::Throw)
                && all.iter().any(|e| e.wielded);
            if in_use {
                ctx.note(
                    Tone::Note,
                    "You carry only what you wear or wield: take it off or put it away first (w).",
                );
            } else {
                ctx.note(Tone::Note, action.none());
            }
            return Transition::Stay;
        }
        let ids = fit
            .iter()
            .filter_map(|e| e.ids.first().map(|&id| (id, e.wielded)))
            .collect();
        let list = item_list(action.title(), &fit);
        Transition::ask(list, move |i| PlayReply::Item(action, ids, i))
    }

    fn do_item(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: ItemAction,
        id: ThingId,
        in_use: bool,
    ) -> Transition<AlchemyCtx, Self> {
        match action {
            ItemAction::Quaff => Self::act(ctx, Command::Quaff(id)),
            ItemAction::Eat => Self::act(ctx, Command::Eat(id)),
            ItemAction::Drop => {
                let n = ctx.game().map_or(1, |g| alchemy::view::stack_size(g, id));
                if n > 1 {
                    let prompt = CountPrompt::new("Drop how many?", n.unsigned_abs());
                    Transition::ask(prompt, move |n| PlayReply::DropSome(id, n))
                } else {
                    Self::act(ctx, Command::Drop(id))
                }
            }
            ItemAction::Analyse if !at_lab(ctx) => {
                ctx.note(Tone::Note, NO_LAB);
                Transition::Stay
            }
            ItemAction::Analyse => {
                let name = ctx
                    .game()
                    .and_then(|g| alchemy::view::the_name(g, id).ok())
                    .unwrap_or_else(|| "it".to_owned());
                let prompt = format!(
                    "Analysing {name} uses it up, whether or not you learn what it is. Analyse it?"
                );
                Transition::ask(Confirm::new(prompt), move |yes| PlayReply::Analyse(id, yes))
            }
            ItemAction::Wield if in_use => Self::act(ctx, Command::Unwield(id)),
            ItemAction::Wield => Self::act(ctx, Command::Wield(id)),
            ItemAction::Throw => match LookScreen::target(ctx) {
                Some(screen) => Transition::ask(screen, move |at| PlayReply::Throw(id, at)),
                None => Transition::Stay,
            },
        }
    }

    fn craft(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(game) = ctx.game() else {
            return Transition::Stay;
        };
        let recipes = match alchemy::view::known_recipes(game) {
            Ok(r) => r,
            Err(e) => {
                ctx.note(Tone::Error, format!("internal error: {e}"));
                return Transition::Stay;
            }
        };
        if recipes.is_empty() {
            ctx.note(
                Tone::Note,
                "You know no recipes yet: identify a potion (drink or analyse it) to learn how it is made.",
            );
            return Transition::Stay;
        }
        let bench = recipes.iter().any(|r| r.at_workbench);
        let entries = recipes
            .iter()
            .map(|r| {
                let (tag, fg) = if r.missing.is_empty() {
                    ("[OK]", colours::GOOD)
                } else {
                    ("[ingredients missing]", colours::BAD)
                };
                ListEntry::new(format!("{}: {} {tag}", r.name, r.ingredients.join(", ")))
                    .with_fg(fg)
            })
            .collect();
        let title = if bench {
            "Craft which potion?"
        } else {
            "Recipes (stand beside an alchemy workbench to craft)"
        };
        let names = recipes.into_iter().map(|r| r.potion).collect();
        Transition::ask(
            ItemList::new(title, entries).with_palette(PALETTE),
            move |i| PlayReply::Craft(names, i),
        )
    }

    fn pick_up(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(game) = ctx.game() else {
            return Transition::Stay;
        };
        let here = hero_id(game)
            .and_then(|h| game.things().location(h))
            .map(|at| items_at(game, at))
            .unwrap_or_default();
        if here.len() <= 1 {
            return Self::act(ctx, Command::PickUp(None));
        }
        let entries = here
            .iter()
            .map(|&t| ListEntry::new(a_name(game, t).unwrap_or_else(|_| "something".into())))
            .collect();
        Transition::ask(
            ItemList::new("Pick up what?", entries).with_palette(PALETTE),
            move |i| PlayReply::PickUp(here, i),
        )
    }

    fn inventory(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(all) = Self::entries(ctx) else {
            return Transition::Stay;
        };
        if all.is_empty() {
            ctx.note(Tone::Note, "You are carrying nothing.");
            return Transition::Stay;
        }
        let refs: Vec<&InventoryEntry> = all.iter().collect();
        let list = item_list("Inventory (choose an item for its actions)", &refs);
        Transition::ask(list, move |i| PlayReply::Inventory(all, i))
    }

    fn door(ctx: &mut AlchemyCtx, d: alembic::Dir) -> Transition<AlchemyCtx, Self> {
        let open_door_there = ctx.game().and_then(|g| {
            let at = g.things().location(hero_id(g).ok()?).ok()? + d;
            alchemy::view::door_at(g, at)
        });
        match open_door_there {
            Some(DoorState::Open) => Self::act(ctx, Command::Close(d)),
            _ => Self::act(ctx, Command::Open(d)),
        }
    }
}

/// An item list over inventory entries, each in its glyph's colour.
fn item_list(title: &str, entries: &[&InventoryEntry]) -> ItemList {
    let rows = entries
        .iter()
        .map(|e| {
            let fg = if e.glyph.fg == Rgb::BLACK {
                PALETTE.text
            } else {
                e.glyph.fg
            };
            let row = ListEntry::new(format!("{} {}", e.glyph.ch, e.name)).with_fg(fg);
            // The item's own pack letter, the same in every list.
            match e.letter {
                Some(c) => row.with_letter(c),
                None => row,
            }
        })
        .collect();
    ItemList::new(title, rows).with_palette(PALETTE)
}

/// What `a` says away from a lab.
const NO_LAB: &str = "You need to stand beside an analysis lab (&) to analyse anything.";

/// Whether an analysis lab is within the hero's reach.
fn at_lab(ctx: &AlchemyCtx) -> bool {
    ctx.game().is_some_and(|g| {
        hero_id(g)
            .and_then(|h| g.things().location(h))
            .is_ok_and(|at| alchemy::view::apparatus_at_hand(g, at, Apparatus::Lab))
    })
}

/// Whether the hero stands on stairs down (or up).
fn on_stairs(ctx: &AlchemyCtx, down: bool) -> bool {
    ctx.game().is_some_and(|g| {
        hero_id(g)
            .ok()
            .and_then(|h| g.things().location(h).ok())
            .is_some_and(|l| alchemy::view::stairs_at(g, l, Stairs::down(down)))
    })
}

/// The game just ended: delete its save (roguelike rules) and show the summary.
fn end_game(ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, PlayScreen> {
    // A practice game offers to rewind a death before it ends.
    let died = ctx
        .game()
        .and_then(|g| summary(g).ok())
        .filter(|s| s.outcome == alchemy::props::Fate::Died);
    // A death first pauses on the map with the last messages in view: --More--.
    if died.is_some() && ctx.death_pause == super::DeathPause::NotYet {
        ctx.death_pause = super::DeathPause::Showing;
        return Transition::ask(
            MorePrompt::new(vec![("You die...".to_owned(), colours::BAD)]),
            |()| PlayReply::DeathRead,
        );
    }
    if let Some(s) = died
        && ctx.is_practice()
        && !ctx.rewind_declined()
        && !ctx.is_filed()
    {
        return Transition::ask(
            Confirm::new(alembic_session::end::rewind_question(&s.cause)),
            PlayReply::Rewind,
        );
    }
    ctx.finish_game(false);
    match ctx.end_screen() {
        Some(end) => Transition::ask(end, PlayReply::End),
        None => Transition::Pop(()),
    }
}

impl Screen<AlchemyCtx> for PlayScreen {
    type Output = ();
    type Reply = PlayReply;

    fn render(&mut self, ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        draw_play(ctx, frame, area);
        let view = ctx
            .shown()
            .and_then(|shown| map_view(&shown, area, frame.tiles()));
        self.drawn = view;
        if let (Some(v), Some(l), Some(game)) = (view, self.hover, ctx.game()) {
            draw_hover(game, frame, &v, l);
        }
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        let Some(game) = ctx.game() else {
            return Transition::Pop(());
        };
        if summary(game).is_ok_and(|s| s.outcome.is_over()) {
            return end_game(ctx);
        }
        // Any key or click stops travel, explore or a run (and does nothing else).
        if self.journey.is_some()
            && matches!(
                input,
                Input::Key { .. }
                    | Input::Mouse {
                        kind: MouseKind::Down(_),
                        ..
                    }
            )
        {
            self.journey = None;
            ctx.note(Tone::Note, "You stop.");
            return Transition::Stay;
        }
        if let Input::Mouse { kind, x, y, .. } = input {
            return self.mouse(ctx, kind, x, y);
        }
        if matches!(input, Input::Key { .. }) {
            self.hover = None;
        }
        let Some((action, dir)) = action_of(&input) else {
            return match plain_key(&input) {
                Some(Key::Char(c)) if !c.is_control() => {
                    ctx.note(Tone::Note, format!("Unknown key '{c}'. Press ? for help."));
                    Transition::Stay
                }
                Some(other) => {
                    ctx.note(
                        Tone::Note,
                        format!("Unknown key {other:?}. Press ? for help."),
                    );
                    Transition::Stay
                }
                None => Transition::Stay,
            };
        };
        self.perform(ctx, action, dir)
    }

    fn on_result(
        &mut self,
        ctx: &mut AlchemyCtx,
        reply: PlayReply,
    ) -> Transition<AlchemyCtx, Self> {
        match reply {
            PlayReply::DeathRead => {
                ctx.death_pause = super::DeathPause::Done;
                end_game(ctx)
            }
            PlayReply::Rewind(true) => {
                ctx.undo_moves(super::REWIND_MOVES);
                Transition::Stay
            }
            PlayReply::Rewind(false) => {
                ctx.decline_rewind();
                end_game(ctx)
            }
            PlayReply::End(AfterEnd::Menu) => Transition::Pop(()),
            PlayReply::End(AfterEnd::Again) => {
                let next = ctx
                    .seed()
                    .map_or_else(alembic_session::clock_seed, |s| s.wrapping_add(1));
                match ctx.new_game(next) {
                    Ok(()) => Transition::Stay,
                    Err(e) => {
                        ctx.note(Tone::Error, e.to_string());
                        Transition::Pop(())
                    }
                }
            }
            PlayReply::Item(action, ids, Some(i)) => match ids.get(i) {
                Some(&(id, in_use)) => self.do_item(ctx, action, id, in_use),
                None => Transition::Stay,
            },
            PlayReply::Inventory(all, Some(i)) => {
                let Some(e) = all.get(i).cloned() else {
                    return Transition::Stay;
                };
                let actions: Vec<ItemAction> = ItemAction::ALL
                    .iter()
                    .copied()
                    .filter(|a| a.fits(&e))
                    .collect();
                // The item's description first, then what can be done with it.
                let text = match (ctx.game(), e.ids.first()) {
                    (Some(game), Some(&id)) => match alchemy::view::describe(game, id) {
                        Ok(d) => d.lines,
                        Err(err) => vec![format!("internal error: {err}")],
                    },
                    _ => Vec::new(),
                };
                let keys = actions
                    .iter()
                    .map(|a| (a.key(), a.label(&e).to_string()))
                    .collect();
                let menu = ActionMenu::new(format!("{} {}", e.glyph.ch, e.name), text, keys);
                Transition::ask(menu, move |i| PlayReply::InventoryAction(e, actions, i))
            }
            PlayReply::InventoryAction(e, actions, Some(i)) => {
                match (actions.get(i), e.ids.first()) {
                    (Some(&a), Some(&id)) => self.do_item(ctx, a, id, e.wielded),
                    _ => Transition::Stay,
                }
            }
            PlayReply::Throw(id, Some(l)) => Self::act(ctx, Command::Throw(id, l)),
            PlayReply::DropSome(id, Some(n)) => Self::act(
                ctx,
                Command::DropSome(id, u32::try_from(n).unwrap_or(u32::MAX)),
            ),
            PlayReply::Craft(names, Some(i)) => match names.get(i) {
                Some(p) => Self::act(ctx, Command::Craft(p.clone())),
                None => Transition::Stay,
            },
            PlayReply::PickUp(ids, Some(i)) => match ids.get(i) {
                Some(&id) => Self::act(ctx, Command::PickUp(Some(id))),
                None => Transition::Stay,
            },
            PlayReply::Door(Some(d)) => Self::door(ctx, d),
            PlayReply::Travel(Some(l)) => self.begin(ctx, Auto::Travel(Goal::Cell(l))),
            PlayReply::SavedQuit => Transition::Quit,
            PlayReply::Analyse(id, true) => Self::act(ctx, Command::Analyse(id)),
            PlayReply::Quit(true) => {
                // Quitting ends the game, as dying does: a morgue, one score, the recording
                // kept in `records/`, and the save removed (it is this game's; another game's
                // save is never touched), so it is never continued or scored again.
                // The summary follows, as after a death (Enter: the start screen, `q`: leave).
                ctx.finish_game(true);
                ctx.remove_save();
                match ctx.end_screen() {
                    Some(end) => Transition::ask(end, PlayReply::End),
                    None => Transition::Quit,
                }
            }
            // Backed out.
            PlayReply::Item(_, _, None)
            | PlayReply::Inventory(_, None)
            | PlayReply::InventoryAction(_, _, None)
            | PlayReply::Throw(_, None)
            | PlayReply::DropSome(_, None)
            | PlayReply::Craft(_, None)
            | PlayReply::PickUp(_, None)
            | PlayReply::Door(None)
            | PlayReply::Travel(None)
            | PlayReply::Analyse(_, false)
            | PlayReply::Quit(false) => Transition::Stay,
        }
    }

    fn tick_interval(&self) -> Option<std::time::Duration> {
        self.journey.is_some().then_some(STEP_DELAY)
    }

    fn tick(&mut self, ctx: &mut AlchemyCtx) -> Transition<AlchemyCtx, Self> {
        let Some(mut journey) = self.journey.take() else {
            return Transition::Stay;
        };
        self.go_on(ctx, &mut journey).unwrap_or_else(|| {
            self.journey = Some(journey);
            Transition::Stay
        })
    }

    fn on_quit(&mut self, ctx: &mut AlchemyCtx) {
        // The window is closing: keep the player's progress (unless the game is over).
        ctx.save_on_exit();
    }

    fn name(&self) -> &str {
        "alchemy-play"
    }
}

impl PlayScreen {
    /// Carry out a play action from the keymap: the game's own actions here, the rest
    /// (messages, help, tiles, saving, quitting…) in [`Self::perform_meta`].
    fn perform(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: Action,
        dir: Option<alembic::Dir>,
    ) -> Transition<AlchemyCtx, Self> {
        match action {
            Action::Run => match dir {
                Some(d) => self.begin(ctx, Auto::Run(d)),
                None => Transition::Stay,
            },
            Action::Move => match dir {
                Some(d) => Self::act(ctx, Command::Move(d)),
                None => Transition::Stay,
            },
            Action::Wait => Self::act(ctx, Command::Wait),
            Action::Rest => self.begin(ctx, Auto::Rest),
            Action::Search => self.begin(ctx, Auto::Search),
            Action::TravelTo => match LookScreen::travel(ctx) {
                Some(s) => Transition::ask(s, PlayReply::Travel),
                None => Transition::Stay,
            },
            Action::Fight => self.begin(ctx, Auto::Fight),
            Action::Stairs { down } if !on_stairs(ctx, down) => {
                self.begin(ctx, Auto::Travel(Goal::Stairs { down }))
            }
            Action::Stairs { down: false } => Self::act(ctx, Command::Ascend),
            Action::Stairs { down: true } => Self::act(ctx, Command::Descend),
            Action::PickUp => self.pick_up(ctx),
            // First the lab, then the item: no list to choose from where nothing can be done.
            Action::Analyse if !at_lab(ctx) => {
                ctx.note(Tone::Note, NO_LAB);
                Transition::Stay
            }
            Action::Analyse => self.choose_item(ctx, ItemAction::Analyse),
            Action::Craft => self.craft(ctx),
            Action::Drop => self.choose_item(ctx, ItemAction::Drop),
            Action::Eat => self.choose_item(ctx, ItemAction::Eat),
            Action::Inventory => self.inventory(ctx),
            // `l` is east (vi keys), so look is `x` (as in Crawl) or `;` (as in NetHack).
            Action::Look => match LookScreen::look(ctx) {
                Some(s) => Transition::push(s),
                None => Transition::Stay,
            },
            Action::Explore => self.begin(ctx, Auto::Travel(Goal::Explore)),
            Action::Door => Transition::ask(
                DirectionPrompt::new("Open or close a door: which way?"),
                PlayReply::Door,
            ),
            Action::Quaff => self.choose_item(ctx, ItemAction::Quaff),
            Action::Throw => self.choose_item(ctx, ItemAction::Throw),
            Action::Wield => self.choose_item(ctx, ItemAction::Wield),
            other => self.perform_meta(ctx, other),
        }
    }

    /// The actions about the session rather than the game world.
    fn perform_meta(
        &mut self,
        ctx: &mut AlchemyCtx,
        action: Action,
    ) -> Transition<AlchemyCtx, Self> {
        match action {
            Action::Autopickup => {
                let on = ctx.toggle_autopickup();
                ctx.note(
                    Tone::Note,
                    if on {
                        "Explore picks up the items it sees (A to stop)."
                    } else {
                        "Explore leaves items where they lie (A to pick them up)."
                    },
                );
                Transition::Stay
            }
            Action::Messages => {
                let lines = ctx.log().iter().map(super::LogLine::shown).collect();
                Transition::push(MessageLogScreen::new("Messages", lines))
            }
            Action::Wizard => {
                if ctx.is_wizard() {
                    return Transition::push(super::wizard_console());
                }
                ctx.note(
                    Tone::Note,
                    "Wizard mode is off: start a game with --wizard (it is never scored).",
                );
                Transition::Stay
            }
            Action::Undo => {
                ctx.undo();
                Transition::Stay
            }
            Action::Tiles => {
                match ctx.toggle_tiles() {
                    Some(true) => ctx.note(Tone::Note, "Tiles on (F2 for letters)."),
                    Some(false) => ctx.note(Tone::Note, "Letters on (F2 for tiles)."),
                    None => ctx.note(
                        Tone::Note,
                        "This frontend draws letters only; tiles need alembic-pixels.",
                    ),
                }
                Transition::Stay
            }
            Action::Help => Transition::push(TextScreen::new("Alchemy: help", help_lines(ctx))),
            // Saved: say where before the screen goes (the window's farewell may be unseen).
            Action::Save => match ctx.save_and_leave() {
                Ok(path) => Transition::ask(
                    MorePrompt::new(vec![
                        (
                            format!("Your game was saved to {}.", path.display()),
                            colours::VALUE,
                        ),
                        (
                            "Continue it from the start screen next time.".to_owned(),
                            PALETTE.text,
                        ),
                    ]),
                    |()| PlayReply::SavedQuit,
                ),
                Err(e) => {
                    ctx.note(Tone::Error, e.to_string());
                    Transition::Stay
                }
            },
            Action::Quit => {
                let prompt = alembic_session::slot::quit_question(ctx.owns_save());
                Transition::ask(Confirm::new(prompt), PlayReply::Quit)
            }
            _ => Transition::Stay,
        }
    }
}
