//! Keymaps as tables, shared by both games: each game lists its keys once as [`Binding`]s,
//! dispatches through [`find`], and makes its help screen with [`help_section`], so the help
//! cannot list a key that does nothing, nor leave out a key that does something.

use alembic_ui::Key;

/// One line of a keymap: the keys, how help shows them, what they do.
#[derive(Clone, Copy, Debug)]
pub struct Binding<A: 'static> {
    /// Every key that does this.
    pub keys: &'static [Key],
    /// The keys as the help screen shows them.
    pub shown: &'static str,
    /// What they do, in the game's own action type.
    pub action: A,
    /// The help text.
    pub help: &'static str,
    /// The heading the help screen lists it under.
    pub section: &'static str,
}

/// A [`Binding`], for `const` tables.
pub const fn bind<A>(
    keys: &'static [Key],
    shown: &'static str,
    action: A,
    section: &'static str,
    help: &'static str,
) -> Binding<A> {
    Binding {
        keys,
        shown,
        action,
        help,
        section,
    }
}

/// The width of the key column on help screens.
pub const KEY_COLUMN: usize = 18;

/// A binding's help line: the keys, then the text in the second column (text screens wrap
/// long text at that column, so an entry never breaks into the key column).
#[must_use]
pub fn help_line<A>(b: &Binding<A>) -> String {
    format!("  {:<KEY_COLUMN$} {}", b.shown, b.help)
}

/// The action `key` is bound to in `table`, if any. Θ(table).
#[must_use]
pub fn find<A: Clone>(table: &[Binding<A>], key: Key) -> Option<A> {
    table
        .iter()
        .find(|b| b.keys.contains(&key))
        .map(|b| b.action.clone())
}

/// The help lines of one section: its heading, then one [`help_line`] per binding in it.
#[must_use]
pub fn help_section<A>(table: &[Binding<A>], section: &str) -> Vec<String> {
    std::iter::once(section.to_owned())
        .chain(table.iter().filter(|b| b.section == section).map(help_line))
        .collect()
}
