//! The wizard console (`~` in a game started with `--wizard`): type a wizard command, Tab
//! completes command names and arguments (prototype names for `summon` and `give`), Enter
//! runs it, Esc closes. `help` lists the commands.
//!
//! Each line runs as [`Command::Wizard`], through the game's one funnel: it is recorded and
//! replayed like any other command, and a game that was not started in wizard mode refuses
//! it.

use std::convert::Infallible;

use alembic_ui::{
    Frame, Input, Key, LineInput, Rect, Screen, Transition, draw_box, fill, put_clipped,
};

use super::colours::{self, PALETTE};
use super::{AlchemyCtx, LogLine};
use alembic_alchemy::{Command, wizard::commands as wizard_commands};

/// Lines of output kept.
const KEEP: usize = 200;

/// The console.
#[derive(Debug)]
pub struct WizardConsole {
    input: LineInput,
    lines: Vec<String>,
}

impl Default for WizardConsole {
    fn default() -> Self {
        WizardConsole::new()
    }
}

impl WizardConsole {
    /// An empty console.
    #[must_use]
    pub fn new() -> Self {
        WizardConsole {
            input: LineInput::new(200),
            lines: vec![
                "Wizard mode. Type help for the commands; Tab completes; reload re-reads the data."
                    .to_owned(),
            ],
        }
    }

    fn say(&mut self, line: impl Into<String>) {
        self.lines.push(line.into());
        let extra = self.lines.len().saturating_sub(KEEP);
        self.lines.drain(..extra);
    }

    fn complete(&mut self, ctx: &AlchemyCtx) {
        let (Some(game), Ok(cmds)) = (ctx.game(), wizard_commands(ctx.rules())) else {
            return;
        };
        let mut options = cmds.complete(game, self.input.text());
        let typed = self.input.text().trim_start();
        if !typed.is_empty() && RELOAD.starts_with(typed) {
            options.push(RELOAD.to_string());
            options.sort();
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
                let shown: Vec<&str> = many.iter().take(12).map(String::as_str).collect();
                let more = if many.len() > 12 {
                    format!(" … and {} more", many.len() - 12)
                } else {
                    String::new()
                };
                self.say(format!("{}{more}", shown.join("   ")));
            }
        }
    }
}

/// The console's own command (see [`AlchemyCtx::reload_data`]).
const RELOAD: &str = "reload";

impl Screen<AlchemyCtx> for WizardConsole {
    type Output = ();
    type Reply = Infallible;

    fn render(&mut self, _ctx: &AlchemyCtx, frame: &mut Frame, area: Rect) {
        let h = (area.height / 2).max(6).min(area.height);
        let r = Rect::new(area.x, area.bottom().saturating_sub(h), area.width, h);
        fill(frame, r, alembic_ui::Cell::blank(PALETTE.text, PALETTE.bg));
        let inside = draw_box(
            frame,
            r,
            &PALETTE,
            Some("Wizard console: Tab completes, Enter runs, Esc closes"),
        );
        if inside.is_empty() {
            return;
        }
        let rows = usize::from(inside.height.saturating_sub(1));
        let from = self.lines.len().saturating_sub(rows);
        for (i, l) in self.lines[from..].iter().enumerate() {
            put_clipped(
                frame,
                inside,
                inside.x,
                inside.y + i as u16,
                l,
                PALETTE.text,
                PALETTE.bg,
            );
        }
        let prompt = format!("> {}_", self.input.text());
        put_clipped(
            frame,
            inside,
            inside.x,
            inside.bottom().saturating_sub(1),
            &prompt,
            colours::NOTE,
            PALETTE.bg,
        );
    }

    fn handle(&mut self, ctx: &mut AlchemyCtx, input: Input) -> Transition<AlchemyCtx, Self> {
        let Input::Key { key, mods } = input else {
            return Transition::Stay;
        };
        if mods.ctrl || mods.alt {
            return Transition::Stay;
        }
        match key {
            Key::Esc => return Transition::Pop(()),
            Key::Tab => self.complete(ctx),
            Key::Enter => {
                let line = self.input.take();
                if line.trim().is_empty() {
                    return Transition::Stay;
                }
                self.say(format!("> {line}"));
                // `reload` is the session's, not the game's: it reads files, so it is not a
                // command a recording could replay.
                if line.trim() == RELOAD {
                    let lines = match ctx.reload_data() {
                        Ok(lines) => lines,
                        Err(e) => vec![e],
                    };
                    for l in lines.iter().flat_map(|l| l.lines()) {
                        self.say(l.to_string());
                    }
                    return Transition::Stay;
                }
                let before = ctx.log().len();
                let asked_help = line.trim() == "help";
                let over = ctx.act(Command::Wizard(line));
                let new: Vec<String> = ctx.log()[before.min(ctx.log().len())..]
                    .iter()
                    .map(LogLine::shown)
                    .collect();
                for l in new {
                    self.say(l);
                }
                if asked_help {
                    self.say(format!(
                        "{RELOAD} - Read the data files and mods again; things take the new values."
                    ));
                }
                if over == Some(true) {
                    return Transition::Pop(());
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
