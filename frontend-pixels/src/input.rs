//! Turning minifb's key callbacks into the engine's [`Input`]s, without a window.
//!
//! minifb reports two streams through its `InputCallback`: `add_char` (text, already shifted
//! and laid out by the OS, auto-repeated by the OS) and `set_key_state` (every physical key
//! going down or up). The [`Translator`] consumes both, in arrival order, as [`RawEvent`]s:
//!
//! - text comes from `add_char` → [`Key::Char`] (control characters are dropped: Enter, Tab,
//!   Esc, Backspace and Ctrl+letter arrive as key states instead, so nothing is reported twice);
//! - non-text keys (Enter, Esc, arrows, F-keys, keypad digits…) come from `set_key_state`,
//!   with modifiers tracked from the same stream;
//! - Ctrl+letter/digit/punctuation come from `set_key_state` as [`Key::Char`] with `ctrl`
//!   (the text stream only has a control character for them);
//! - a keypad digit is reported as [`Key::Keypad`] and the digit the OS also types for it is
//!   swallowed;
//! - every held key, text or not, repeats on the translator's own timer ([`RepeatTiming`]),
//!   the same on every platform (Wayland has no server-side repeat). The OS's auto-repeat
//!   (under X11 a repeated key-down, and its repeated text) is ignored, so one physical press
//!   is exactly one input until the hold passes the repeat delay.
//!
//! Because every press is queued when minifb calls back (inside `update`), a key pressed and
//! released between two frames is never lost. A repeat is only made when the game asks for
//! input and nothing is queued ([`Translator::poll_repeat`] is polled last), so repeats never
//! pile up behind a slow turn: releasing the key stops the hero at once (no input lag).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use alembic_ui::{Input, Key, Mods};
use minifb::Key as Mk;

/// One callback from minifb, in arrival order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawEvent {
    /// `InputCallback::add_char`: a Unicode scalar value (maybe invalid, maybe a control char).
    Char(u32),
    /// `InputCallback::set_key_state`.
    Key {
        /// Which key.
        key: Mk,
        /// Pressed (`true`) or released.
        down: bool,
    },
}

/// A modifier key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// Either Shift.
    Shift,
    /// Either Ctrl.
    Ctrl,
    /// Either Alt.
    Alt,
    /// Super, Caps/Num/Scroll Lock: tracked nowhere, never reported.
    Other,
}

/// What a physical minifb key means to the translator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyClass {
    /// A non-text key, reported from key states.
    Named(Key),
    /// A key that types this (unshifted, US-layout) character; its text arrives through
    /// `add_char`, and only Ctrl chords are reported from the key state.
    Printable(char),
    /// A modifier.
    Modifier(Modifier),
    /// Anything else (Menu, Pause, Unknown): ignored.
    Other,
}

/// The mapping table from minifb keys: named keys first ([`named_key`]), then printable
/// characters and modifiers.
#[must_use]
pub fn classify(key: Mk) -> KeyClass {
    use KeyClass::{Modifier as M, Other as O, Printable as P};
    if let Some(k) = named_key(key) {
        return KeyClass::Named(k);
    }
    match key {
        Mk::Key0 => P('0'),
        Mk::Key1 => P('1'),
        Mk::Key2 => P('2'),
        Mk::Key3 => P('3'),
        Mk::Key4 => P('4'),
        Mk::Key5 => P('5'),
        Mk::Key6 => P('6'),
        Mk::Key7 => P('7'),
        Mk::Key8 => P('8'),
        Mk::Key9 => P('9'),
        Mk::A => P('a'),
        Mk::B => P('b'),
        Mk::C => P('c'),
        Mk::D => P('d'),
        Mk::E => P('e'),
        Mk::F => P('f'),
        Mk::G => P('g'),
        Mk::H => P('h'),
        Mk::I => P('i'),
        Mk::J => P('j'),
        Mk::K => P('k'),
        Mk::L => P('l'),
        Mk::M => P('m'),
        Mk::N => P('n'),
        Mk::O => P('o'),
        Mk::P => P('p'),
        Mk::Q => P('q'),
        Mk::R => P('r'),
        Mk::S => P('s'),
        Mk::T => P('t'),
        Mk::U => P('u'),
        Mk::V => P('v'),
        Mk::W => P('w'),
        Mk::X => P('x'),
        Mk::Y => P('y'),
        Mk::Z => P('z'),
        Mk::Space => P(' '),
        Mk::Apostrophe => P('\''),
        Mk::Backquote => P('`'),
        Mk::Backslash => P('\\'),
        Mk::Comma => P(','),
        Mk::Equal => P('='),
        Mk::LeftBracket => P('['),
        Mk::Minus => P('-'),
        Mk::Period => P('.'),
        Mk::RightBracket => P(']'),
        Mk::Semicolon => P(';'),
        Mk::Slash => P('/'),
        Mk::NumPadDot => P('.'),
        Mk::NumPadSlash => P('/'),
        Mk::NumPadAsterisk => P('*'),
        Mk::NumPadMinus => P('-'),
        Mk::NumPadPlus => P('+'),
        Mk::LeftShift | Mk::RightShift => M(Modifier::Shift),
        Mk::LeftCtrl | Mk::RightCtrl => M(Modifier::Ctrl),
        Mk::LeftAlt | Mk::RightAlt => M(Modifier::Alt),
        Mk::LeftSuper | Mk::RightSuper | Mk::CapsLock | Mk::NumLock | Mk::ScrollLock => {
            M(Modifier::Other)
        }
        // Menu, Pause, Unknown, Count; the named keys were handled above.
        _ => O,
    }
}

/// The engine's [`Key`] for a minifb key that is not a character: Enter, arrows, function
/// keys, the numpad's digits…
#[must_use]
pub fn named_key(key: Mk) -> Option<Key> {
    Some(match key {
        Mk::Enter | Mk::NumPadEnter => Key::Enter,
        Mk::Escape => Key::Esc,
        Mk::Backspace => Key::Backspace,
        Mk::Tab => Key::Tab,
        Mk::Delete => Key::Delete,
        Mk::Insert => Key::Insert,
        Mk::Up => Key::Up,
        Mk::Down => Key::Down,
        Mk::Left => Key::Left,
        Mk::Right => Key::Right,
        Mk::Home => Key::Home,
        Mk::End => Key::End,
        Mk::PageUp => Key::PageUp,
        Mk::PageDown => Key::PageDown,
        Mk::F1 => Key::F(1),
        Mk::F2 => Key::F(2),
        Mk::F3 => Key::F(3),
        Mk::F4 => Key::F(4),
        Mk::F5 => Key::F(5),
        Mk::F6 => Key::F(6),
        Mk::F7 => Key::F(7),
        Mk::F8 => Key::F(8),
        Mk::F9 => Key::F(9),
        Mk::F10 => Key::F(10),
        Mk::F11 => Key::F(11),
        Mk::F12 => Key::F(12),
        Mk::F13 => Key::F(13),
        Mk::F14 => Key::F(14),
        Mk::F15 => Key::F(15),
        Mk::NumPad0 => Key::Keypad(0),
        Mk::NumPad1 => Key::Keypad(1),
        Mk::NumPad2 => Key::Keypad(2),
        Mk::NumPad3 => Key::Keypad(3),
        Mk::NumPad4 => Key::Keypad(4),
        Mk::NumPad5 => Key::Keypad(5),
        Mk::NumPad6 => Key::Keypad(6),
        Mk::NumPad7 => Key::Keypad(7),
        Mk::NumPad8 => Key::Keypad(8),
        Mk::NumPad9 => Key::Keypad(9),
        _ => return None,
    })
}

/// Whether `input` asks for fullscreen: `F11`, or `Alt+Enter` (as in most games). The
/// window takes these itself; the game never sees them.
#[must_use]
pub fn is_fullscreen_toggle(input: &Input) -> bool {
    match input {
        Input::Key {
            key: Key::F(11),
            mods,
        } => !mods.ctrl && !mods.alt,
        Input::Key {
            key: Key::Enter,
            mods,
        } => mods.alt && !mods.ctrl && !mods.shift,
        _ => false,
    }
}

/// When a held key starts repeating, and how fast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepeatTiming {
    /// Hold time before the first repeat.
    pub delay: Duration,
    /// Time between repeats.
    pub interval: Duration,
}

impl Default for RepeatTiming {
    /// 500 ms, then 25 per second: the usual desktop defaults (GNOME's delay, X11's rate).
    fn default() -> Self {
        RepeatTiming {
            delay: Duration::from_millis(500),
            interval: Duration::from_millis(40),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Repeat {
    key: Mk,
    input: Input,
    next: Instant,
}

/// Stateful translation of [`RawEvent`]s into [`Input`]s; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct Translator {
    timing: RepeatTiming,
    /// Non-modifier keys currently held (to tell OS auto-repeat from a fresh press).
    down: Vec<Mk>,
    /// Modifier keys currently held.
    mods_down: Vec<Mk>,
    repeat: Option<Repeat>,
    /// The digit the OS will also type for the keypad key just reported.
    swallow: Option<char>,
    /// The text key just pressed (not a repeat): the char it types starts its repeat.
    typing: Option<Mk>,
    /// The OS just repeated a held key: the text that comes with it is dropped.
    os_repeat: bool,
}

impl Translator {
    /// A translator with the given repeat timing.
    #[must_use]
    pub fn new(timing: RepeatTiming) -> Self {
        Translator {
            timing,
            ..Translator::default()
        }
    }

    /// Modifiers held right now (as far as the event stream says).
    #[must_use]
    pub fn mods(&self) -> Mods {
        let held = |m: Modifier| {
            self.mods_down
                .iter()
                .any(|&k| classify(k) == KeyClass::Modifier(m))
        };
        Mods {
            shift: held(Modifier::Shift),
            ctrl: held(Modifier::Ctrl),
            alt: held(Modifier::Alt),
        }
    }

    /// Consume one callback; push the resulting inputs (zero or one) onto `out`.
    pub fn feed(&mut self, event: RawEvent, now: Instant, out: &mut VecDeque<Input>) {
        match event {
            RawEvent::Char(code) => self.text(code, now, out),
            RawEvent::Key { key, down: true } => self.press(key, now, out),
            RawEvent::Key { key, down: false } => self.release(key),
        }
    }

    fn text(&mut self, code: u32, now: Instant, out: &mut VecDeque<Input>) {
        let typing = self.typing.take();
        if std::mem::take(&mut self.os_repeat) {
            // The OS's auto-repeat of a held key: our own timer repeats it.
            return;
        }
        let Some(ch) = char::from_u32(code) else {
            return;
        };
        if ch.is_control() {
            // Enter, Tab, Esc, Backspace, Delete, Ctrl+letter: reported from key states.
            return;
        }
        if self.swallow.take() == Some(ch) {
            return;
        }
        let mods = self.mods();
        if mods.ctrl && !mods.alt {
            // A Ctrl chord: reported from the key state (some OSes also type the char).
            return;
        }
        // Ctrl+Alt together is AltGr on some systems: that text is plain text.
        let alt = mods.alt && !mods.ctrl;
        let input = Input::Key {
            key: Key::Char(ch),
            mods: Mods {
                shift: false,
                ctrl: false,
                alt,
            },
        };
        out.push_back(input);
        // The text of a fresh press repeats while its key is held.
        if let Some(key) = typing.filter(|k| self.down.contains(k)) {
            self.repeat = Some(Repeat {
                key,
                input,
                next: now + self.timing.delay,
            });
        }
    }

    fn press(&mut self, key: Mk, now: Instant, out: &mut VecDeque<Input>) {
        let class = classify(key);
        if let KeyClass::Modifier(_) = class {
            if !self.mods_down.contains(&key) {
                self.mods_down.push(key);
            }
            return;
        }
        self.typing = None;
        if self.down.contains(&key) {
            // The OS repeating a held key: our own timer does the repeating, and the text
            // this repeat types is dropped too.
            self.os_repeat = true;
            return;
        }
        self.os_repeat = false;
        self.down.push(key);
        self.swallow = None;
        let mods = self.mods();
        let input = match class {
            KeyClass::Named(k) => {
                if let Key::Keypad(n) = k {
                    self.swallow = char::from_digit(u32::from(n), 10);
                }
                Some(Input::Key { key: k, mods })
            }
            KeyClass::Printable(c) if mods.ctrl && !mods.alt => {
                let letter = c.is_ascii_lowercase();
                let ch = if letter && mods.shift {
                    c.to_ascii_uppercase()
                } else {
                    c
                };
                Some(Input::Key {
                    key: Key::Char(ch),
                    mods: Mods {
                        shift: mods.shift && !letter,
                        ctrl: true,
                        alt: false,
                    },
                })
            }
            KeyClass::Printable(_) => {
                // Its text arrives next, through `add_char`, and starts the repeat.
                self.typing = Some(key);
                None
            }
            _ => None,
        };
        // A new key takes over repeating, as an OS keyboard does.
        self.repeat = input.map(|input| {
            out.push_back(input);
            Repeat {
                key,
                input,
                next: now + self.timing.delay,
            }
        });
    }

    fn release(&mut self, key: Mk) {
        self.typing = None;
        self.os_repeat = false;
        self.down.retain(|&k| k != key);
        self.mods_down.retain(|&k| k != key);
        if self.repeat.is_some_and(|r| r.key == key) {
            self.repeat = None;
        }
    }

    /// The auto-repeat of the held key, if one is due at `now`.
    pub fn poll_repeat(&mut self, now: Instant) -> Option<Input> {
        let interval = self.timing.interval;
        let r = self.repeat.as_mut()?;
        if now < r.next {
            return None;
        }
        r.next += interval;
        if r.next < now {
            // We were not polled for a while: do not burst to catch up.
            r.next = now + interval;
        }
        Some(r.input)
    }

    /// When the next auto-repeat is due, if a repeating key is held.
    #[must_use]
    pub fn next_repeat(&self) -> Option<Instant> {
        self.repeat.map(|r| r.next)
    }

    /// Forget every held key (the window lost focus: releases will not arrive).
    pub fn release_all(&mut self) {
        self.down.clear();
        self.mods_down.clear();
        self.repeat = None;
        self.swallow = None;
        self.typing = None;
        self.os_repeat = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: &[RawEvent]) -> Vec<Input> {
        let mut t = Translator::default();
        let mut out = VecDeque::new();
        let now = Instant::now();
        for &e in events {
            t.feed(e, now, &mut out);
        }
        out.into_iter().collect()
    }

    fn down(key: Mk) -> RawEvent {
        RawEvent::Key { key, down: true }
    }
    fn up(key: Mk) -> RawEvent {
        RawEvent::Key { key, down: false }
    }
    fn ch(c: char) -> RawEvent {
        RawEvent::Char(u32::from(c))
    }
    fn with(key: Key, shift: bool, ctrl: bool, alt: bool) -> Input {
        Input::Key {
            key,
            mods: Mods { shift, ctrl, alt },
        }
    }

    #[test]
    fn mapping_table() {
        let named = [
            (Mk::Enter, Key::Enter),
            (Mk::NumPadEnter, Key::Enter),
            (Mk::Escape, Key::Esc),
            (Mk::Backspace, Key::Backspace),
            (Mk::Tab, Key::Tab),
            (Mk::Delete, Key::Delete),
            (Mk::Insert, Key::Insert),
            (Mk::Up, Key::Up),
            (Mk::Down, Key::Down),
            (Mk::Left, Key::Left),
            (Mk::Right, Key::Right),
            (Mk::Home, Key::Home),
            (Mk::End, Key::End),
            (Mk::PageUp, Key::PageUp),
            (Mk::PageDown, Key::PageDown),
            (Mk::F1, Key::F(1)),
            (Mk::F12, Key::F(12)),
            (Mk::F15, Key::F(15)),
            (Mk::NumPad0, Key::Keypad(0)),
            (Mk::NumPad5, Key::Keypad(5)),
            (Mk::NumPad9, Key::Keypad(9)),
        ];
        for (mk, key) in named {
            assert_eq!(classify(mk), KeyClass::Named(key), "{mk:?}");
        }
        assert_eq!(classify(Mk::H), KeyClass::Printable('h'));
        assert_eq!(classify(Mk::Key7), KeyClass::Printable('7'));
        assert_eq!(classify(Mk::Period), KeyClass::Printable('.'));
        assert_eq!(
            classify(Mk::RightShift),
            KeyClass::Modifier(Modifier::Shift)
        );
        assert_eq!(classify(Mk::LeftCtrl), KeyClass::Modifier(Modifier::Ctrl));
        assert_eq!(classify(Mk::RightAlt), KeyClass::Modifier(Modifier::Alt));
        assert_eq!(classify(Mk::Unknown), KeyClass::Other);
    }

    #[test]
    fn text_comes_from_chars_and_key_states_of_text_keys_are_silent() {
        // X11 order: key state first, then the typed char.
        let got = run(&[
            down(Mk::H),
            ch('h'),
            up(Mk::H),
            down(Mk::LeftShift),
            down(Mk::Period),
            ch('>'),
            up(Mk::Period),
            up(Mk::LeftShift),
        ]);
        assert_eq!(got, vec![Input::ch('h'), Input::ch('>')]);
    }

    #[test]
    fn named_keys_are_reported_once_with_modifiers() {
        // Enter and Esc also arrive as control chars: those are dropped.
        let got = run(&[
            down(Mk::Enter),
            ch('\r'),
            up(Mk::Enter),
            down(Mk::Escape),
            ch('\u{1b}'),
            up(Mk::Escape),
            down(Mk::LeftShift),
            down(Mk::Tab),
            ch('\t'),
            up(Mk::Tab),
            up(Mk::LeftShift),
            down(Mk::RightCtrl),
            down(Mk::Left),
            up(Mk::Left),
            up(Mk::RightCtrl),
            down(Mk::F5),
        ]);
        assert_eq!(
            got,
            vec![
                Input::key(Key::Enter),
                Input::key(Key::Esc),
                with(Key::Tab, true, false, false),
                with(Key::Left, false, true, false),
                Input::key(Key::F(5)),
            ]
        );
    }

    #[test]
    fn keypad_digits_are_keypad_keys_not_doubled() {
        let got = run(&[
            down(Mk::NumPad8),
            ch('8'),
            up(Mk::NumPad8),
            // Num Lock off: no char at all.
            down(Mk::NumPad2),
            up(Mk::NumPad2),
            // A top-row digit is text.
            down(Mk::Key8),
            ch('8'),
            up(Mk::Key8),
        ]);
        assert_eq!(
            got,
            vec![
                Input::key(Key::Keypad(8)),
                Input::key(Key::Keypad(2)),
                Input::ch('8')
            ]
        );
    }

    #[test]
    fn ctrl_and_alt_chords() {
        let got = run(&[
            down(Mk::LeftCtrl),
            down(Mk::C),
            ch('\u{3}'),
            up(Mk::C),
            down(Mk::Key1),
            ch('1'), // some systems type the digit under Ctrl: not doubled
            up(Mk::Key1),
            down(Mk::LeftShift),
            down(Mk::S),
            ch('\u{13}'),
            up(Mk::S),
            up(Mk::LeftShift),
            up(Mk::LeftCtrl),
            down(Mk::LeftAlt),
            down(Mk::X),
            ch('x'),
            up(Mk::X),
            up(Mk::LeftAlt),
            // Ctrl+Alt (AltGr on Windows) typing '@' is plain text.
            down(Mk::LeftCtrl),
            down(Mk::RightAlt),
            down(Mk::Q),
            ch('@'),
        ]);
        assert_eq!(
            got,
            vec![
                with(Key::Char('c'), false, true, false),
                with(Key::Char('1'), false, true, false),
                with(Key::Char('S'), false, true, false),
                with(Key::Char('x'), false, false, true),
                Input::ch('@'),
            ]
        );
    }

    #[test]
    fn presses_inside_one_batch_are_all_kept() {
        // Press and release of several keys between two frames.
        let got = run(&[
            down(Mk::Right),
            up(Mk::Right),
            down(Mk::Right),
            up(Mk::Right),
            down(Mk::L),
            ch('l'),
            up(Mk::L),
        ]);
        assert_eq!(
            got,
            vec![
                Input::key(Key::Right),
                Input::key(Key::Right),
                Input::ch('l')
            ]
        );
    }

    #[test]
    fn held_named_keys_repeat_on_our_timer_and_os_repeats_are_ignored() {
        let timing = RepeatTiming {
            delay: Duration::from_millis(200),
            interval: Duration::from_millis(50),
        };
        let mut t = Translator::new(timing);
        let mut out = VecDeque::new();
        let t0 = Instant::now();
        t.feed(down(Mk::Down), t0, &mut out);
        assert_eq!(out.len(), 1);
        // The OS sends repeated key-downs: ignored.
        t.feed(down(Mk::Down), t0 + Duration::from_millis(100), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(t.next_repeat(), Some(t0 + timing.delay));
        assert_eq!(t.poll_repeat(t0 + Duration::from_millis(199)), None);
        assert_eq!(
            t.poll_repeat(t0 + Duration::from_millis(200)),
            Some(Input::key(Key::Down))
        );
        assert_eq!(t.poll_repeat(t0 + Duration::from_millis(220)), None);
        assert_eq!(
            t.poll_repeat(t0 + Duration::from_millis(250)),
            Some(Input::key(Key::Down))
        );
        // A long stall yields one repeat, not a burst.
        assert!(t.poll_repeat(t0 + Duration::from_secs(5)).is_some());
        assert_eq!(t.poll_repeat(t0 + Duration::from_secs(5)), None);
        // Release stops it.
        t.feed(up(Mk::Down), t0 + Duration::from_secs(6), &mut out);
        assert_eq!(t.next_repeat(), None);
        assert_eq!(t.poll_repeat(t0 + Duration::from_secs(7)), None);
    }

    #[test]
    fn a_new_key_takes_over_and_text_keys_stop_repeats() {
        let mut t = Translator::default();
        let mut out = VecDeque::new();
        let t0 = Instant::now();
        t.feed(down(Mk::Up), t0, &mut out);
        t.feed(down(Mk::Left), t0, &mut out);
        let late = t0 + Duration::from_secs(1);
        assert_eq!(t.poll_repeat(late), Some(Input::key(Key::Left)));
        // Releasing the older key does not stop the newer one.
        t.feed(up(Mk::Up), late, &mut out);
        assert!(t.next_repeat().is_some());
        // A text key pressed meanwhile stops the repeat; its text starts its own.
        t.feed(down(Mk::A), late, &mut out);
        assert_eq!(t.next_repeat(), None);
        t.feed(ch('a'), late, &mut out);
        assert_eq!(
            t.poll_repeat(late + Duration::from_secs(1)),
            Some(Input::ch('a'))
        );
        // Modifiers do not.
        t.feed(down(Mk::PageDown), late, &mut out);
        t.feed(down(Mk::LeftShift), late, &mut out);
        assert!(t.next_repeat().is_some());
        t.release_all();
        assert_eq!(t.next_repeat(), None);
        assert_eq!(t.mods(), Mods::NONE);
    }

    #[test]
    fn os_auto_repeat_is_ignored_for_text_and_named_keys() {
        // X11 with detectable auto-repeat: a held key sends key-downs (and their text) with
        // no key-up between them. One press, one input.
        let got = run(&[
            down(Mk::Period),
            ch('.'),
            down(Mk::Period),
            ch('.'),
            down(Mk::Period),
            ch('.'),
            up(Mk::Period),
            down(Mk::LeftShift),
            down(Mk::H),
            ch('H'),
            down(Mk::H),
            ch('H'),
            up(Mk::H),
            up(Mk::LeftShift),
            down(Mk::Down),
            down(Mk::Down),
            up(Mk::Down),
            // Without detectable auto-repeat the OS sends up/down pairs: those are presses
            // and cannot be told apart, so they count (minifb turns detection on).
            down(Mk::J),
            ch('j'),
            up(Mk::J),
        ]);
        assert_eq!(
            got,
            vec![
                Input::ch('.'),
                Input::ch('H'),
                Input::key(Key::Down),
                Input::ch('j'),
            ]
        );
    }

    #[test]
    fn held_text_keys_repeat_on_our_timer_until_released() {
        let timing = RepeatTiming::default();
        let mut t = Translator::new(timing);
        let mut out = VecDeque::new();
        let t0 = Instant::now();
        t.feed(down(Mk::LeftShift), t0, &mut out);
        t.feed(down(Mk::K), t0, &mut out);
        t.feed(ch('K'), t0, &mut out);
        assert_eq!(out, [Input::ch('K')]);
        assert_eq!(t.next_repeat(), Some(t0 + timing.delay));
        // A hold shorter than the delay gives nothing more, even with the OS repeating.
        let early = t0 + timing.delay - Duration::from_millis(1);
        t.feed(down(Mk::K), early, &mut out);
        t.feed(ch('K'), early, &mut out);
        assert_eq!(t.poll_repeat(early), None);
        assert_eq!(out.len(), 1);
        let at = t0 + timing.delay;
        assert_eq!(t.poll_repeat(at), Some(Input::ch('K')));
        assert_eq!(t.poll_repeat(at + timing.interval), Some(Input::ch('K')));
        t.feed(up(Mk::K), at + timing.interval, &mut out);
        assert_eq!(t.poll_repeat(at + 10 * timing.interval), None);
        // A text char with no key-down before it (an input method) never repeats.
        t.feed(ch('é'), at, &mut out);
        assert_eq!(t.next_repeat(), None);
        // A key released before its text arrives does not start a repeat either.
        t.feed(down(Mk::L), at, &mut out);
        t.feed(up(Mk::L), at, &mut out);
        t.feed(ch('l'), at, &mut out);
        assert_eq!(t.next_repeat(), None);
    }

    #[test]
    fn f11_and_alt_enter_toggle_fullscreen_and_nothing_else_does() {
        let got = run(&[
            down(Mk::F11),
            up(Mk::F11),
            down(Mk::LeftAlt),
            down(Mk::Enter),
            ch('\r'),
            up(Mk::Enter),
            up(Mk::LeftAlt),
            down(Mk::Enter),
            up(Mk::Enter),
            down(Mk::F10),
            down(Mk::LeftCtrl),
            down(Mk::F11),
        ]);
        let toggles: Vec<bool> = got.iter().map(is_fullscreen_toggle).collect();
        assert_eq!(toggles, [true, true, false, false, false]);
        assert!(!is_fullscreen_toggle(&Input::ch('f')));
    }

    #[test]
    fn invalid_and_control_chars_are_dropped() {
        assert!(
            run(&[
                RawEvent::Char(0xD800),
                RawEvent::Char(0x11_0000),
                ch('\u{7f}')
            ])
            .is_empty()
        );
        assert_eq!(run(&[ch('é')]), vec![Input::ch('é')]);
    }
}
