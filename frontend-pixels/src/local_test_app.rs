//! LOCAL TEST APP — a stand-in until `alembic_content::launch` is merged; delete it then.
//!
//! A walled yard with a few seeded features, an `@` lit by a torch that moves with the
//! arrows / hjkl / yubn / keypad, and `q` to quit. It exists only to exercise the window.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use alembic::{App, Cell, Control, Frame, Input, Key, Rgb};

/// The hero's glyph colour (the e2e script looks for it on screen).
pub const HERO: Rgb = Rgb::new(255, 255, 0);
const MAP_W: i32 = 46;
const MAP_H: i32 = 18;
const TORCH: Rgb = Rgb::new(255, 190, 110);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tile {
    Floor,
    Wall,
    Water,
    Tree,
    Potion,
    Gold,
}

struct Demo {
    seed: u64,
    tiles: Vec<Tile>,
    hero: (i32, i32),
    moves: u32,
}

pub fn make(game: &str, seed: Option<u64>, load: Option<&Path>) -> Result<Box<dyn App>, String> {
    if game != "demo" {
        return Err(format!("unknown game {game:?} (available: demo)"));
    }
    if let Some(path) = load {
        return Err(format!(
            "cannot load {}: the local test app has no saves (they come with the real game)",
            path.display()
        ));
    }
    let seed = seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    Ok(Box::new(Demo::new(seed)))
}

impl Demo {
    fn new(seed: u64) -> Self {
        let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            // xorshift64*: plenty for scattering a few glyphs.
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        let mut tiles = vec![Tile::Floor; (MAP_W * MAP_H) as usize];
        for y in 0..MAP_H {
            for x in 0..MAP_W {
                let edge = x == 0 || y == 0 || x == MAP_W - 1 || y == MAP_H - 1;
                let roll = next() % 100;
                tiles[(y * MAP_W + x) as usize] = match (edge, roll) {
                    (true, _) => Tile::Wall,
                    (false, 0..=3) => Tile::Tree,
                    (false, 4..=6) => Tile::Water,
                    (false, 7) => Tile::Potion,
                    (false, 8) => Tile::Gold,
                    _ => Tile::Floor,
                };
            }
        }
        let hero = (MAP_W / 2, MAP_H / 2);
        tiles[(hero.1 * MAP_W + hero.0) as usize] = Tile::Floor;
        Demo {
            seed,
            tiles,
            hero,
            moves: 0,
        }
    }

    fn tile(&self, x: i32, y: i32) -> Tile {
        if x < 0 || y < 0 || x >= MAP_W || y >= MAP_H {
            return Tile::Wall;
        }
        self.tiles[(y * MAP_W + x) as usize]
    }

    fn step(&mut self, dx: i32, dy: i32) {
        let (x, y) = (self.hero.0 + dx, self.hero.1 + dy);
        if matches!(self.tile(x, y), Tile::Floor | Tile::Potion | Tile::Gold) {
            self.hero = (x, y);
            self.moves += 1;
        }
    }
}

impl App for Demo {
    fn render(&self, frame: &mut Frame) {
        let bg = Rgb::new(8, 8, 14);
        frame.clear(Cell {
            ch: ' ',
            fg: Rgb::new(200, 200, 200),
            bg,
        });
        let text = Rgb::new(210, 210, 220);
        frame.put_str(
            1,
            0,
            &format!(
                "alembic-pixels test app  seed {}  moves {}",
                self.seed, self.moves
            ),
            text,
            bg,
        );
        frame.put_str(
            1,
            1,
            "arrows / hjkl / yubn / keypad move, q quits",
            Rgb::new(140, 140, 160),
            bg,
        );
        let (ox, oy) = (1, 3);
        for y in 0..MAP_H {
            for x in 0..MAP_W {
                let d = f64::from((x - self.hero.0).pow(2) + (y - self.hero.1).pow(2)).sqrt();
                let light = (1.0 - d / 9.0).clamp(0.12, 1.0) as f32;
                let (ch, fg) = match self.tile(x, y) {
                    Tile::Floor => ('·', Rgb::new(150, 140, 120)),
                    Tile::Wall => ('▓', Rgb::new(120, 110, 100)),
                    Tile::Water => ('≈', Rgb::new(60, 120, 255)),
                    Tile::Tree => ('♣', Rgb::new(60, 200, 80)),
                    Tile::Potion => ('!', Rgb::new(230, 60, 230)),
                    Tile::Gold => ('$', Rgb::new(250, 200, 40)),
                };
                let lit = fg.modulate(TORCH).scale(light);
                let floor_bg = Rgb::new(40, 28, 16).scale(light);
                frame.put(
                    ox + x,
                    oy + y,
                    Cell {
                        ch,
                        fg: lit,
                        bg: floor_bg,
                    },
                );
            }
        }
        frame.put(
            ox + self.hero.0,
            oy + self.hero.1,
            Cell {
                ch: '@',
                fg: HERO,
                bg: Rgb::new(40, 28, 16),
            },
        );
        let y = oy + MAP_H + 1;
        let x = frame.put_str(1, y, "glyphs: ░▒▓█ ─│┌┐└┘╔═╗ é·° ", text, bg);
        frame.put_str(x, y, "missing: 漢🙂", Rgb::new(255, 90, 90), bg);
        // A smooth 24-bit ramp.
        for i in 0..32 {
            let k = (i * 8) as u8;
            frame.put(
                1 + i,
                y + 1,
                Cell {
                    ch: '█',
                    fg: Rgb::new(k, 64, 255 - k),
                    bg,
                },
            );
        }
    }

    fn handle(&mut self, input: Input) -> Control {
        let Input::Key { key, .. } = input else {
            return match input {
                Input::Quit => Control::Quit,
                _ => Control::Continue,
            };
        };
        let dir = match key {
            Key::Up | Key::Char('k' | '8') | Key::Keypad(8) => Some((0, -1)),
            Key::Down | Key::Char('j' | '2') | Key::Keypad(2) => Some((0, 1)),
            Key::Left | Key::Char('h' | '4') | Key::Keypad(4) => Some((-1, 0)),
            Key::Right | Key::Char('l' | '6') | Key::Keypad(6) => Some((1, 0)),
            Key::Char('y' | '7') | Key::Keypad(7) => Some((-1, -1)),
            Key::Char('u' | '9') | Key::Keypad(9) => Some((1, -1)),
            Key::Char('b' | '1') | Key::Keypad(1) => Some((-1, 1)),
            Key::Char('n' | '3') | Key::Keypad(3) => Some((1, 1)),
            Key::Char('q') => return Control::Quit,
            _ => None,
        };
        if let Some((dx, dy)) = dir {
            self.step(dx, dy);
        }
        Control::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic::TestFrontend;

    #[test]
    fn walks_and_quits_headless() {
        let mut app = make("demo", Some(7), None).unwrap();
        let mut fe = TestFrontend::new(80, 30, [Input::key(Key::Right), Input::ch('q')]);
        alembic::run(&mut fe, app.as_mut()).unwrap();
        assert!(fe.frames()[0].contains_text("seed 7"));
        assert!(fe.last_frame().unwrap().contains_text("@"));
        // Tiny frames clip, never panic.
        let mut fe = TestFrontend::new(3, 1, [Input::ch('q')]);
        alembic::run(&mut fe, app.as_mut()).unwrap();
    }

    #[test]
    fn rejects_unknown_games_and_loads() {
        assert!(make("nope", None, None).is_err());
        assert!(make("demo", None, Some(Path::new("x.sav"))).is_err());
    }
}
