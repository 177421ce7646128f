//! Guide step 3 (docs/guide.md): undo with `u` (the engine's `History`) and a save that
//! comes back on the next start (`S` saves and quits). A whole program: step 2's game comes
//! first, as it was (without its `App`), then what this step adds.

use alembic::prelude::*;
use alembic_ui::{App, Cell, Control, Frame, Input, direction_key, is_cancel};

// Step 2's game.
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

pub const HP: Prop<i32> = Prop::with_default("hp", 10);
pub const HERO: Prop<ThingId> = Prop::new("hero");

/// A rat's turn: step toward the hero when it is near, bite when next to it.
fn rat(g: &mut Game, _: &mut HookCtx<'_>, call: &HookCall) -> Result<(), Error> {
    let (me, hero) = (g.things().location(call.this)?, g.var(&HERO)?);
    let target = g.things().location(hero)?;
    if me.chebyshev(target) == 1 {
        let hp = g.query(hero, &HP)?;
        return g.set_mut(hero, &HP, hp - 1);
    }
    match me.dir_to(target).map(|d| me + d) {
        Some(to) if me.chebyshev(target) < 7 && !wall(to) && g.things().at(to).is_empty() => {
            g.move_thing_mut(call.this, to)
        }
        _ => Ok(()),
    }
}

/// The cave with the `@` and three rats.
pub fn new_game() -> Result<(Game, Hooks), Error> {
    let hooks = Hooks::new().register("rat", rat)?;
    let lib = Library::new()
        .proclaim("hero", None, Props::new())?
        .proclaim(
            "rat",
            None,
            Props::new().with(&HP, 1).with(&ON_ACTION, Hook::new("rat")),
        )?;
    let mut game = Game::new(1).with_library(lib);
    let hero = game.spawn_plain_mut("hero", Loc::new(2, 2, 0))?;
    game.set_var_mut(&HERO, hero);
    for at in [Loc::new(15, 1, 0), Loc::new(17, 4, 0), Loc::new(10, 5, 0)] {
        game.spawn_mut(&mut HookCtx::new(&hooks), "rat", at)?; // queued: rats take turns
    }
    Ok((game, hooks))
}

/// The hero's move (or attack), then the world's turn. `None` when the key is no move.
pub fn play(game: &Game, hooks: &Hooks, input: &Input) -> Option<Result<Game, Error>> {
    let dir = direction_key(input)?;
    let mut next = game.clone();
    Some((|| {
        let hero = next.var(&HERO)?;
        let to = next.things().location(hero)? + dir;
        if let Some(&victim) = next.things().at(to).first() {
            next.remove_thing_mut(victim)?;
        } else if !wall(to) {
            next.move_thing_mut(hero, to)?;
        }
        let dead = |g: &Game| g.query(hero, &HP).is_ok_and(|hp| hp <= 0);
        let _end: TurnEnd =
            next.end_turn_mut(&mut HookCtx::new(hooks), hero, NORMAL_ACTION, 1_000, dead)?;
        Ok(next)
    })())
}

/// Draw the map, the rats, the `@` and its hit points.
pub fn draw(game: &Game, frame: &mut Frame) {
    for (y, row) in MAP.iter().enumerate() {
        frame.put_str(0, y as i32, row, Rgb::new(150, 150, 150), Rgb::BLACK);
    }
    for (at, ids) in game.things().on_level(0) {
        let ch = if game.var(&HERO).is_ok_and(|h| ids.contains(&h)) {
            '@'
        } else {
            'r'
        };
        frame.put(
            at.x,
            at.y,
            Cell {
                ch,
                fg: Rgb::new(255, 220, 0),
                bg: Rgb::BLACK,
            },
        );
    }
    let hp = game
        .var(&HERO)
        .and_then(|h| game.query(h, &HP))
        .unwrap_or(0);
    let status = if hp > 0 {
        format!("HP {hp}  ")
    } else {
        "You die... (q quits)".into()
    };
    frame.put_str(0, 8, &status, Rgb::WHITE, Rgb::BLACK);
}

// Step 3: undo and save.
const SAVE: &str = "guide.save";

struct Game3 {
    history: History<Game, Input>,
    hooks: Hooks,
}

impl App for Game3 {
    fn render(&mut self, frame: &mut Frame) {
        draw(self.history.current(), frame);
        frame.put_str(0, 9, "u undo, S save and quit", Rgb::WHITE, Rgb::BLACK);
    }

    fn handle(&mut self, input: Input) -> Control {
        if input == Input::ch('u') {
            let _ = self.history.undo();
        } else if input == Input::ch('S') {
            let game = self.history.current();
            let text = SavedGame::of(game, game.library()).and_then(|s| Ok(s.to_json()?));
            return match text.map(|t| std::fs::write(SAVE, t)) {
                Ok(Ok(())) => Control::Quit,
                _ => Control::Continue, // could not save: play on
            };
        } else if is_cancel(&input) || matches!(input, Input::Quit) {
            return Control::Quit;
        } else if let Some(Ok(next)) = play(self.history.current(), &self.hooks, &input) {
            self.history.push(input, next);
        }
        Control::Continue
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut game, hooks) = new_game()?;
    if let Ok(text) = std::fs::read_to_string(SAVE) {
        // The save names the library; linking rebuilds the game on this build's library.
        let lib = game.library().clone();
        game = SavedGame::from_json(&text, &lib)?.link(&lib, &hooks)?;
        std::fs::remove_file(SAVE)?;
    }
    let history = History::with_undo_depth(game, 100);
    alembic_tui::run_app(Game3 { history, hooks })?;
    Ok(())
}
