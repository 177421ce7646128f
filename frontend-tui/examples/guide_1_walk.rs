//! Guide step 1 (docs/guide.md): an `@` walks a cave with field of view, in a terminal.
use alembic::prelude::*;
use alembic_ui::{App, Cell, Control, Frame, Input, direction_key, is_cancel};

pub const MAP: [&str; 7] = [
    "####################",
    "#......#...........#",
    "#......#....####...#",
    "#..........#.......#",
    "#......#...#...#...#",
    "#......#.......#...#",
    "####################",
];

pub fn wall(l: Loc) -> bool {
    let row = MAP.get(l.y as usize).map_or(&b""[..], |r| r.as_bytes());
    row.get(l.x as usize).is_none_or(|&c| c == b'#') // off the map is wall too
}

struct Walk {
    game: Game,
    hero: ThingId,
}

impl App for Walk {
    fn render(&mut self, frame: &mut Frame) {
        let at = self
            .game
            .things()
            .location(self.hero)
            .unwrap_or(Loc::ORIGIN);
        let seen = field_of_view(at, 8, |l| !wall(l));
        for (y, row) in MAP.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let lit = seen.contains(Loc::new(x as i32, y as i32, 0));
                let fg = [Rgb::new(60, 60, 90), Rgb::WHITE][usize::from(lit)];
                frame.put(
                    x as i32,
                    y as i32,
                    Cell {
                        ch,
                        fg,
                        bg: Rgb::BLACK,
                    },
                );
            }
        }
        frame.put_str(at.x, at.y, "@", Rgb::new(255, 220, 0), Rgb::BLACK);
    }

    fn handle(&mut self, input: Input) -> Control {
        if is_cancel(&input) || matches!(input, Input::Quit) || input == Input::ch('q') {
            return Control::Quit;
        }
        let at = self
            .game
            .things()
            .location(self.hero)
            .unwrap_or(Loc::ORIGIN);
        match direction_key(&input).map(|d| at + d) {
            Some(to) if !wall(to) => drop(self.game.move_thing_mut(self.hero, to)),
            _ => {}
        }
        Control::Continue
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut game = Game::new(1);
    let hero = game.add_thing_mut(Loc::new(2, 2, 0), Thing::new(Props::new()))?;
    alembic_tui::run_app(Walk { game, hero })?;
    Ok(())
}
