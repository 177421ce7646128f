//! [`LineInput`]: the state of a one-line text field (a prompt for a number, a seed, a
//! console command), and how keys edit it.

use crate::input::{Input, Key};

/// What a key did to a [`LineInput`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEvent {
    /// Enter was pressed: the caller takes the text (or refuses it and keeps editing).
    Enter,
    /// The text changed: a character was typed or Backspace took one back.
    Edited,
    /// Nothing changed: another key, a character the field does not accept, a full field,
    /// Backspace on an empty field, or a key with Ctrl or Alt held.
    Ignored,
}

/// The text typed into a one-line field, at most `max` characters, each one passing the
/// field's rule (any printable character, or only digits).
///
/// Keys edit it through [`handle`](LineInput::handle): a plain character the rule accepts is
/// appended while there is room, Backspace removes the last character, Enter is reported so
/// the caller decides what to do with the text. Escape and everything else are left to the
/// caller. Drawing is the caller's too (`text()` plus a cursor), since prompts differ.
///
/// ```
/// use alembic_ui::{Input, Key, LineEvent, LineInput};
/// let mut count = LineInput::digits(3);
/// assert_eq!(count.handle(&Input::ch('4')), LineEvent::Edited);
/// assert_eq!(count.handle(&Input::ch('x')), LineEvent::Ignored); // not a digit
/// count.handle(&Input::ch('2'));
/// count.handle(&Input::ch('7'));
/// assert_eq!(count.handle(&Input::ch('1')), LineEvent::Ignored); // full
/// assert_eq!(count.handle(&Input::key(Key::Backspace)), LineEvent::Edited);
/// assert_eq!(count.handle(&Input::key(Key::Enter)), LineEvent::Enter);
/// assert_eq!(count.take(), "42");
/// assert!(count.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineInput {
    text: String,
    max: usize,
    accepts: Accepts,
}

/// Which characters a field takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Accepts {
    /// Anything but a control character.
    Printable,
    /// ASCII digits.
    Digits,
}

impl Accepts {
    fn takes(self, c: char) -> bool {
        match self {
            Accepts::Printable => !c.is_control(),
            Accepts::Digits => c.is_ascii_digit(),
        }
    }
}

impl LineInput {
    /// An empty field for up to `max` printable characters.
    #[must_use]
    pub fn new(max: usize) -> Self {
        LineInput {
            text: String::new(),
            max,
            accepts: Accepts::Printable,
        }
    }

    /// An empty field for up to `max` ASCII digits.
    #[must_use]
    pub fn digits(max: usize) -> Self {
        LineInput {
            accepts: Accepts::Digits,
            ..LineInput::new(max)
        }
    }

    /// What is typed so far.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether nothing is typed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Replace the text (a completion, a remembered line); characters the rule refuses are
    /// dropped and the rest cut at the limit.
    pub fn set_text(&mut self, text: &str) {
        self.text = text
            .chars()
            .filter(|c| self.accepts.takes(*c))
            .take(self.max)
            .collect();
    }

    /// Take the text out, leaving the field empty.
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// Apply a key: see the type's documentation.
    pub fn handle(&mut self, input: &Input) -> LineEvent {
        let Input::Key { key, mods } = *input else {
            return LineEvent::Ignored;
        };
        if mods.ctrl || mods.alt {
            return LineEvent::Ignored;
        }
        match key {
            Key::Enter => LineEvent::Enter,
            Key::Backspace => match self.text.pop() {
                Some(_) => LineEvent::Edited,
                None => LineEvent::Ignored,
            },
            Key::Char(c) if self.accepts.takes(c) && self.text.chars().count() < self.max => {
                self.text.push(c);
                LineEvent::Edited
            }
            _ => LineEvent::Ignored,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Mods;

    #[test]
    fn printable_field_counts_characters_not_bytes() {
        let mut f = LineInput::new(3);
        for c in ['é', 'ß', '→'] {
            assert_eq!(f.handle(&Input::ch(c)), LineEvent::Edited);
        }
        assert_eq!(f.handle(&Input::ch('x')), LineEvent::Ignored);
        assert_eq!(f.text(), "éß→");
        assert_eq!(f.handle(&Input::ch('\u{7}')), LineEvent::Ignored);
    }

    #[test]
    fn modified_keys_and_empty_backspace_change_nothing() {
        let mut f = LineInput::new(10);
        assert_eq!(f.handle(&Input::key(Key::Backspace)), LineEvent::Ignored);
        let ctrl_a = Input::Key {
            key: Key::Char('a'),
            mods: Mods {
                ctrl: true,
                ..Mods::NONE
            },
        };
        assert_eq!(f.handle(&ctrl_a), LineEvent::Ignored);
        assert_eq!(f.handle(&Input::key(Key::Esc)), LineEvent::Ignored);
        assert!(f.is_empty());
    }

    #[test]
    fn set_text_keeps_the_rule_and_the_limit() {
        let mut f = LineInput::digits(4);
        f.set_text("a1b2c3d4e5");
        assert_eq!(f.text(), "1234");
        let mut g = LineInput::new(5);
        g.set_text("spawn potion");
        assert_eq!(g.text(), "spawn");
    }
}
