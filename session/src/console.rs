//! The wizard console every game with wizard commands gets (`~` in a game started with
//! `--wizard`): type a command, Tab completes command names and arguments (the engine's
//! [`WizardCommands::complete`]: prototype names for `summon` and `give`), Enter runs it,
//! Esc closes. `help` lists the commands. The console keeps the last lines it said.
//!
//! It runs over any screen context that is a [`ConsoleHost`]: the session's
//! [`Session`](crate::play::Session), and a game's own screens (Alchemy's). A line runs
//! through the game's funnel, so it is recorded and replayed like any other command; the
//! host's own words (Alchemy's `reload`, which reads files and so is never recorded) run
//! beside them.

use std::convert::Infallible;

use alembic::Game;
use alembic::wizard::WizardCommands;
use alembic_ui::{
    Cell, Frame, Input, Key, LineInput, Palette, Rect, Screen, Transition, draw_box, fill,
    put_clipped,
};

/// Lines of output kept.
const KEEP: usize = 200;
/// Completions listed at most.
const LISTED: usize = 12;

/// Why the game refused a console line ([`ConsoleHost::run_line`]): its `Display` is the
/// sentence the console shows (an unknown command, a bad argument, the game's refusal).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LineRefused(pub String);

/// What the wizard console needs of the screens it opens over.
pub trait ConsoleHost {
    /// The wizard commands and the game they complete against; `None` without either.
    fn wizard_commands(&self) -> Option<(&WizardCommands<Game>, &Game)>;
    /// Run one line through the game's funnel (recorded): what it said and whether the
    /// game is over now.
    ///
    /// # Errors
    /// [`LineRefused`]: why the line was refused; nothing changed and nothing was recorded.
    fn run_line(&mut self, line: &str) -> Result<(Vec<String>, bool), LineRefused>;
    /// The host's own words beyond the game's commands, each with its help line.
    fn own_words(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// Run one of [`ConsoleHost::own_words`]: what it said, a sentence a line.
    fn run_own(&mut self, word: &str) -> Vec<String> {
        vec![format!("Unknown word {word:?}.")]
    }
    /// The console's colours.
    fn palette(&self) -> Palette {
        Palette::DEFAULT
    }
}

/// The console screen.
#[derive(Debug)]
pub struct WizardConsole {
    input: LineInput,
    lines: Vec<String>,
}

impl WizardConsole {
    /// An empty console, greeting with `hello`.
    #[must_use]
    pub fn new(hello: impl Into<String>) -> Self {
        WizardConsole {
            input: LineInput::new(200),
            lines: vec![hello.into()],
        }
    }

    /// What the console says, oldest first.
    #[must_use]
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    fn say(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
        let extra = self.lines.len().saturating_sub(KEEP);
        self.lines.drain(..extra);
    }

    fn complete<C: ConsoleHost>(&mut self, host: &C) {
        let Some((cmds, game)) = host.wizard_commands() else {
            self.say("This game has no wizard commands.");
            return;
        };
        let mut options = cmds.complete(game, self.input.text());
        let typed = self.input.text().trim_start();
        if !typed.is_empty() {
            let own = host.own_words().iter().map(|(w, _)| *w);
            options.extend(own.filter(|w| w.starts_with(typed)).map(str::to_owned));
            options.sort();
            options.dedup();
        }
        match options.as_slice() {
            [] => self.say(format!("Nothing completes {:?}.", self.input.text())),
            [one] => self.input.set_text(one),
            many => {
                // The longest common prefix, then the list.
                let first = &many[0];
                let common = many.iter().skip(1).fold(first.len(), |n, s| {
                    first
                        .char_indices()
                        .zip(s.chars())
                        .take_while(|((_, a), b)| a == b)
                        .last()
                        .map_or(0, |((i, a), _)| (i + a.len_utf8()).min(n))
                });
                if common > self.input.text().len() {
                    self.input.set_text(&first[..common]);
                }
                let shown: Vec<&str> = many.iter().take(LISTED).map(String::as_str).collect();
                let more = if many.len() > LISTED {
                    format!(" … and {} more", many.len() - LISTED)
                } else {
                    String::new()
                };
                self.say(format!("{}{more}", shown.join("   ")));
            }
        }
    }
}

impl<C: ConsoleHost> Screen<C> for WizardConsole {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, host: &C, frame: &mut Frame, area: Rect) {
        let p = host.palette();
        let h = (area.height / 2).max(6).min(area.height);
        let r = Rect::new(area.x, area.bottom().saturating_sub(h), area.width, h);
        fill(frame, r, Cell::blank(p.text, p.bg));
        let inside = draw_box(
            frame,
            r,
            &p,
            Some("Wizard console: Tab completes, Enter runs, Esc closes"),
        );
        if inside.is_empty() {
            return;
        }
        let rows = usize::from(inside.height.saturating_sub(1));
        // Long lines (a command's help) wrap at the box's width, never clipped: the newest
        // rows that fit are shown.
        let width = usize::from(inside.width).max(1);
        let wrapped: Vec<String> = self
            .lines
            .iter()
            .flat_map(|l| alembic_ui::wrap_text(l, width))
            .collect();
        let from = wrapped.len().saturating_sub(rows);
        for (i, l) in wrapped[from..].iter().enumerate() {
            put_clipped(
                frame,
                inside,
                inside.x,
                inside.y + i as u16,
                l,
                p.text,
                p.bg,
            );
        }
        let prompt = format!("> {}_", self.input.text());
        let row = inside.bottom().saturating_sub(1);
        put_clipped(frame, inside, inside.x, row, &prompt, p.accent, p.bg);
    }

    fn handle(&mut self, host: &mut C, input: Input) -> Transition<C, Self> {
        let Input::Key { key, mods } = input else {
            return Transition::Stay;
        };
        if mods.ctrl || mods.alt {
            return Transition::Stay;
        }
        match key {
            Key::Esc => return Transition::Pop(()),
            Key::Tab => self.complete(host),
            Key::Enter => {
                let line = self.input.take();
                let word = line.trim().to_owned();
                if word.is_empty() {
                    return Transition::Stay;
                }
                self.say(format!("> {line}"));
                if host.own_words().iter().any(|(w, _)| *w == word) {
                    for l in host.run_own(&word) {
                        for part in l.lines() {
                            self.say(part.to_owned());
                        }
                    }
                    return Transition::Stay;
                }
                match host.run_line(&word) {
                    Ok((said, over)) => {
                        for l in said {
                            self.say(l);
                        }
                        if word == "help" {
                            for (w, help) in host.own_words() {
                                self.say(format!("{w} - {help}"));
                            }
                        }
                        if over {
                            return Transition::Pop(());
                        }
                    }
                    Err(why) => self.say(why.to_string()),
                }
            }
            _ => {
                self.input.handle(&input);
            }
        }
        Transition::Stay
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "wizard-console"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Bare;

    impl ConsoleHost for Bare {
        fn wizard_commands(&self) -> Option<(&WizardCommands<Game>, &Game)> {
            None
        }
        fn run_line(&mut self, _: &str) -> Result<(Vec<String>, bool), LineRefused> {
            Ok((Vec::new(), false))
        }
    }

    /// A line longer than the box wraps onto the next rows: its tail is on screen, inside
    /// the console, not cut off (issue 54: a clipped help line).
    #[test]
    fn long_lines_wrap_inside_the_box() {
        let hello = format!("{} the very end of a long help line", "word ".repeat(20));
        let mut console = WizardConsole::new(hello);
        let mut frame = Frame::new(40, 20);
        Screen::<Bare>::render(&mut console, &Bare, &mut frame, Rect::new(0, 0, 40, 20));
        let text = frame.to_text();
        // Clipped, the line would stop at the box's edge, in its fourth "word".
        assert!(text.contains("end of a long help line"), "{text}");
    }
}
