//! Why a command did not happen: a [`Refusal`] names the rule that said no (its `Display` is
//! the English the player reads), and [`RuleError`] adds the game being over, a wizard line
//! the console rejected, and engine errors (bugs, never rules). Refusals cost no time.

use alembic::Error;

/// A game rule that refused a command. Small and `Copy`, so tests and the bot can match on
/// the rule; the English is its `Display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum Refusal {
    /// Moving up or down without stairs.
    #[error("Use the stairs to go up or down.")]
    UseStairs,
    /// A wall, pillar or rock in the way.
    #[error("There is a wall in the way.")]
    Wall,
    /// A deadly tile (lava, a chasm) in the way.
    #[error("You would not survive that.")]
    Deadly,
    /// Opening or closing where there is no door.
    #[error("There is no door there.")]
    NoDoor,
    /// Opening an open door.
    #[error("It is already open.")]
    AlreadyOpen,
    /// Closing a closed door.
    #[error("It is already closed.")]
    AlreadyClosed,
    /// Closing a door on a creature or an item.
    #[error("Something is in the way.")]
    DoorwayBusy,
    /// Scenery that cannot be used stands in the way.
    #[error("That is in the way.")]
    SceneryInTheWay,
    /// Going down where there are no stairs down.
    #[error("There are no stairs down here.")]
    NoStairsDown,
    /// Going up where there are no stairs up.
    #[error("There are no stairs up here.")]
    NoStairsUp,
    /// Leaving the dungeon without the Stone.
    #[error("You cannot leave without the Philosopher's Stone.")]
    NeedStone,
    /// The stairs lead nowhere (their far end is blocked).
    #[error("The way is blocked.")]
    WayBlocked,
    /// Using an item the hero does not carry.
    #[error("You are not carrying that.")]
    NotCarried,
    /// Picking up an item that is not here.
    #[error("That is not here.")]
    NotHere,
    /// Picking up where nothing lies.
    #[error("There is nothing here to pick up.")]
    NothingHere,
    /// Dropping none of a stack.
    #[error("You drop nothing.")]
    DropNothing,
    /// Drinking what is no potion.
    #[error("You cannot drink that.")]
    NotDrinkable,
    /// Eating what is neither food nor an ingredient.
    #[error("You cannot eat that.")]
    NotEdible,
    /// Throwing at the hero's own cell or another level.
    #[error("You need to pick a target on this level.")]
    NoTarget,
    /// Throwing beyond the range.
    #[error("That is too far away to throw.")]
    TooFar,
    /// Wielding what is neither weapon nor armour.
    #[error("You cannot wield that.")]
    NotWieldable,
    /// Wielding what is already in use.
    #[error("You are already using that.")]
    AlreadyUsing,
    /// Taking off what is not in use.
    #[error("You are not using that.")]
    NotUsing,
    /// Analysing away from an analysis lab.
    #[error("You need to stand beside an analysis lab.")]
    NeedLab,
    /// Analysing what is neither potion nor ingredient.
    #[error("Only potions and ingredients can be analysed.")]
    NotAnalysable,
    /// Analysing a kind already known.
    #[error("You already know what that is.")]
    AlreadyKnown,
    /// Crafting a recipe for no potion.
    #[error("There is no such potion.")]
    NoSuchPotion,
    /// Crafting a potion whose kind is not yet known.
    #[error("You do not know how to make that potion yet.")]
    UnknownRecipe,
    /// Crafting away from a workbench.
    #[error("You need to stand beside an alchemy workbench.")]
    NeedWorkbench,
    /// Crafting without the ingredients (the recipe list shows which are missing).
    #[error("You lack the ingredients.")]
    MissingIngredients,
}

/// Why a command was refused. Refusals cost no time.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuleError {
    /// A game rule says no.
    #[error("{0}")]
    Refused(#[from] Refusal),
    /// The game has ended; no more commands.
    #[error("The game is over.")]
    GameOver,
    /// An engine error: a bug or corrupt data, never a rule.
    #[error("internal error: {0}")]
    Engine(#[from] Error),
}

/// Refuse by `rule`.
pub(crate) fn refuse<T>(rule: Refusal) -> Result<T, RuleError> {
    Err(RuleError::Refused(rule))
}
