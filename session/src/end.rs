//! The end of a game, the same in every game: in practice, the offer to rewind a death
//! ([`rewind_question`], [`REWIND`] moves); then the end screen, as in Brogue CE: how the game ended, the game's own
//! summary ([`Ruleset::summary`]), the seed, the last messages, and what was filed (the
//! recording, the morgue file, the rank in the score table). Enter, Space or Esc goes back
//! to the start screen, `r` plays again from the next seed, `q` quits.
//!
//! The lines are made once, when the game ends ([`EndScreen::of`]); the screen shows them
//! over any context, so the session's play screen and a game's own play screen both use it.

use std::convert::Infallible;

use alembic::{Game, Rgb};
use alembic_ui::{
    Cell, Frame, Input, Key, Palette, Rect, Screen, Transition, draw_box, fill, plain_key,
    put_centred, put_clipped, wrap_text,
};

use crate::ruleset::{Ruleset, Status};

/// How many moves the rewind offered after a death in practice takes back.
pub const REWIND: usize = 10;

/// The question after a death in practice (answered `y`: take back [`REWIND`] moves).
#[must_use]
pub fn rewind_question(cause: &str) -> String {
    let cause = if cause.is_empty() { "died" } else { cause };
    format!("You died ({cause}). This is a practice game: rewind {REWIND} moves and play on?")
}

/// How many of the last messages the end screen shows.
pub const LAST_MESSAGES: usize = 6;

/// What the player chose on the end screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterEnd {
    /// Back to the start screen (Enter, Space, Esc).
    Menu,
    /// A new game from the next seed (`r`).
    Again,
}

/// Colours of the end screen's lines.
const GOLD: Rgb = Rgb::new(255, 215, 90);
const RED: Rgb = Rgb::new(255, 100, 90);
const LABEL: Rgb = Rgb::new(150, 170, 210);

/// A game's end in a few facts, for a frontend that shows it its own way (the browser's
/// page): how it ended, where, after how many turns, and its score. It names no file: what
/// filing kept is the frontend's to link to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndSummary {
    /// Whether the game was won.
    pub won: bool,
    /// The player ended the game (`Q`): neither won nor died.
    pub quit: bool,
    /// The end screen's first line: "You were killed by a rat on depth 3.", "You quit.",
    /// or the game's epitaph ([`Ruleset::epitaph`]).
    pub headline: String,
    /// How, as the score table says it ("killed by a rat"); "quit" when the player quit.
    pub cause: String,
    /// The depth where it ended (0 for a game without levels).
    pub depth: i32,
    /// The game's turn at its end.
    pub turns: u64,
    /// The points the score table ranks by ([`crate::ruleset::Summary::score`]).
    pub score: u64,
}

impl EndSummary {
    /// The end of `game` under `rules`, as [`EndScreen::of`] heads it.
    #[must_use]
    pub fn of<R: Ruleset>(rules: &R, game: &Game) -> Self {
        let summary = rules.summary(game);
        let status = rules.status(game);
        let quit = status == Status::Playing;
        let (won, cause, head) = match status {
            Status::Over(e) if e.won => (true, e.cause.clone(), format!("You {}.", e.cause)),
            Status::Over(e) => {
                let how = if e.cause == "died" || e.cause.is_empty() {
                    "You died".to_owned()
                } else {
                    format!("You were {}", e.cause)
                };
                let depth = if summary.depth > 0 {
                    format!(" on depth {}", summary.depth)
                } else {
                    String::new()
                };
                let cause = if e.cause.is_empty() {
                    "died".to_owned()
                } else {
                    e.cause
                };
                (false, cause, format!("{how}{depth}."))
            }
            Status::Playing => (false, "quit".to_owned(), "You quit.".to_owned()),
        };
        EndSummary {
            won,
            quit,
            headline: rules.epitaph(game).unwrap_or(head),
            cause,
            depth: summary.depth,
            turns: game.turn(),
            score: summary.score,
        }
    }
}

/// The death or victory screen: see the module docs.
#[derive(Clone, Debug)]
pub struct EndScreen {
    won: bool,
    /// The player ended the game (`Q`): neither won nor died.
    quit: bool,
    lines: Vec<(String, Rgb)>,
}

impl EndScreen {
    /// The end screen of `game` under `rules`: how it ended, the game's summary lines, the
    /// seed, the last `messages` (oldest first) and the lines filing it said
    /// ([`Filed::lines`](crate::run::Filed::lines)).
    #[must_use]
    pub fn of<R: Ruleset>(
        rules: &R,
        game: &Game,
        seed: Option<u64>,
        messages: &[String],
        filed: &[String],
    ) -> Self {
        let p = Palette::DEFAULT;
        let summary = rules.summary(game);
        let end = EndSummary::of(rules, game);
        let (won, quit, head) = (end.won, end.quit, end.headline);
        let mut lines = vec![
            (head, if won { GOLD } else { RED }),
            (String::new(), p.text),
        ];
        // The turns, unless the game's summary says them already.
        if !summary.lines.iter().any(|l| l.starts_with("Turns")) {
            lines.push((format!("Turns:    {}", game.turn()), p.text));
        }
        lines.extend(summary.lines.into_iter().map(|l| (l, p.text)));
        if let Some(seed) = seed {
            lines.push((format!("Seed:     {seed}"), p.text));
        }
        if !messages.is_empty() {
            lines.push((String::new(), p.text));
            lines.push(("Last messages:".to_owned(), LABEL));
            let from = messages.len().saturating_sub(LAST_MESSAGES);
            lines.extend(messages[from..].iter().map(|m| (format!("  {m}"), p.text)));
        }
        if !filed.is_empty() {
            lines.push((String::new(), p.text));
            lines.extend(filed.iter().map(|l| (l.clone(), p.dim)));
        }
        EndScreen { won, quit, lines }
    }

    /// Whether the game was won.
    #[must_use]
    pub fn won(&self) -> bool {
        self.won
    }

    /// Whether the player ended the game (`Q`), neither winning nor dying.
    #[must_use]
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// The lines it shows, with their colours.
    #[must_use]
    pub fn lines(&self) -> &[(String, Rgb)] {
        &self.lines
    }
}

impl<C> Screen<C> for EndScreen {
    type Output = AfterEnd;
    type Reply = Infallible;

    fn render(&mut self, _: &C, frame: &mut Frame, area: Rect) {
        let p = Palette::DEFAULT;
        fill(frame, area, Cell::blank(p.text, p.bg));
        let title = if self.won {
            "You won!"
        } else if self.quit {
            "Game over"
        } else {
            "You died"
        };
        let inside = draw_box(frame, area, &p, Some(title));
        if inside.is_empty() {
            return;
        }
        let (body, footer) = inside.split_bottom(1);
        let (big, fg) = if self.won {
            ("*  V I C T O R Y  *", GOLD)
        } else if self.quit {
            ("G A M E   O V E R", RED)
        } else {
            ("R E S T   I N   P I E C E S", RED)
        };
        let width = usize::from(body.width.saturating_sub(4)).max(1);
        let wrapped: Vec<(String, Rgb)> = self
            .lines
            .iter()
            .flat_map(|(t, c)| {
                let c = *c;
                wrap_text(t, width).into_iter().map(move |l| (l, c))
            })
            .collect();
        let total = u16::try_from(wrapped.len())
            .unwrap_or(u16::MAX)
            .saturating_add(2);
        let top = body.y + body.height.saturating_sub(total) / 3;
        put_centred(frame, body, top, big, fg, p.bg);
        for (i, (l, c)) in wrapped.iter().enumerate() {
            let y = top + 2 + u16::try_from(i).unwrap_or(u16::MAX);
            if y >= body.bottom() {
                break;
            }
            put_clipped(frame, body, body.x + 2, y, l, *c, p.bg);
        }
        put_centred(
            frame,
            footer,
            footer.y,
            "Enter: the start screen    r: play again    q: quit",
            p.dim,
            p.bg,
        );
    }

    fn handle(&mut self, _: &mut C, input: Input) -> Transition<C, Self> {
        match plain_key(&input) {
            Some(Key::Enter | Key::Esc | Key::Char(' ')) => Transition::Pop(AfterEnd::Menu),
            Some(Key::Char('r' | 'R')) => Transition::Pop(AfterEnd::Again),
            Some(Key::Char('q' | 'Q')) => Transition::Quit,
            _ => Transition::Stay,
        }
    }

    fn name(&self) -> &str {
        if self.won {
            "victory"
        } else if self.quit {
            "quit"
        } else {
            "death"
        }
    }
}
