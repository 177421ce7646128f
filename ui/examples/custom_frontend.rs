//! Plugging your own game and your own frontend into the render/input contract.
//!
//! The game implements [`App`] (draw into a [`Frame`], react to an [`Input`]); the frontend
//! implements [`Frontend`] (show frames, deliver inputs, report a size). Here the frontend
//! prints every frame to stdout and replays a scripted list of key presses, so the example
//! runs anywhere: `cargo run -p alembic-rl-ui --example custom_frontend`. A real frontend would
//! wrap a terminal or a window instead; `alembic_ui::run` drives either the same way.

use std::collections::VecDeque;
use std::time::Duration;

use alembic::{Dir, Rgb};
use alembic_ui::{App, Control, Frame, Frontend, Input, Key, direction_key, run};

/// The game: a firefly `*` collecting three lanterns `o` in a small field.
struct Fireflies {
    at: (i32, i32),
    lanterns: Vec<(i32, i32)>,
    moves: u32,
}

const W: i32 = 12;
const H: i32 = 5;

impl App for Fireflies {
    fn render(&mut self, frame: &mut Frame) {
        let (fg, bg) = (Rgb::new(220, 220, 160), Rgb::BLACK);
        for y in 0..H {
            for x in 0..W {
                let ch = if (x, y) == self.at {
                    '*'
                } else if self.lanterns.contains(&(x, y)) {
                    'o'
                } else {
                    '.'
                };
                frame.put_str(x, y, &ch.to_string(), fg, bg);
            }
        }
        let status = format!(
            "moves {}  lanterns left {}",
            self.moves,
            self.lanterns.len()
        );
        frame.put_str(0, H, &status, fg, bg);
    }

    fn handle(&mut self, input: Input) -> Control {
        if input == Input::key(Key::Esc) || input == Input::Quit {
            return Control::Quit;
        }
        if let Some(d) = direction_key(&input).filter(|d| !matches!(d, Dir::Up | Dir::Down)) {
            let o = d.offset();
            self.at = (
                (self.at.0 + o.x).clamp(0, W - 1),
                (self.at.1 + o.y).clamp(0, H - 1),
            );
            self.moves += 1;
            self.lanterns.retain(|&l| l != self.at);
        }
        if self.lanterns.is_empty() {
            Control::Quit
        } else {
            Control::Continue
        }
    }
}

/// The frontend: frames go to stdout (or any writer), inputs come from a script.
struct PrintFrontend<W: std::io::Write> {
    out: W,
    script: VecDeque<Input>,
    shown: usize,
}

impl<W: std::io::Write> Frontend for PrintFrontend<W> {
    type Error = std::io::Error;

    fn present(&mut self, frame: &Frame) -> Result<(), Self::Error> {
        self.shown += 1;
        writeln!(self.out, "--- frame {} ---", self.shown)?;
        writeln!(self.out, "{}", frame.to_text().trim_end())
    }

    fn next_input(&mut self, _timeout: Option<Duration>) -> Result<Option<Input>, Self::Error> {
        // An exhausted script closes the "window".
        Ok(Some(self.script.pop_front().unwrap_or(Input::Quit)))
    }

    fn size(&self) -> Result<(u16, u16), Self::Error> {
        Ok((28, 6))
    }
}

fn play<W: std::io::Write>(out: W) -> Result<(Fireflies, PrintFrontend<W>), std::io::Error> {
    let mut game = Fireflies {
        at: (0, 0),
        lanterns: vec![(3, 0), (5, 2), (9, 4)],
        moves: 0,
    };
    let keys = "llljjlllnnl"; // vi keys: east, south, south-east…
    let mut fe = PrintFrontend {
        out,
        script: keys.chars().map(Input::ch).collect(),
        shown: 0,
    };
    run(&mut fe, &mut game)?;
    Ok((game, fe))
}

fn main() -> Result<(), std::io::Error> {
    let (game, _) = play(std::io::stdout().lock())?;
    println!("All lanterns collected in {} moves.", game.moves);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_script_collects_every_lantern() {
        let (game, fe) = super::play(Vec::new()).unwrap();
        assert!(game.lanterns.is_empty());
        assert_eq!(game.moves, 11);
        let text = String::from_utf8(fe.out).unwrap();
        assert!(text.contains("--- frame 1 ---\n*..o"));
        assert!(text.contains("lanterns left 1"));
    }
}
