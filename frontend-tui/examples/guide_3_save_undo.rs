//! Guide step 3 (docs/guide.md): undo with `u` (the engine's `History`) and a save that
//! comes back on the next start (`S` saves and quits). Builds on step 2's game.
#[allow(dead_code)]
#[path = "guide_2_monsters.rs"]
mod step2;

use alembic::prelude::*;
use alembic_ui::{App, Control, Frame, Input, is_cancel};

const SAVE: &str = "guide.save";

struct Game3 {
    history: History<Game, Input>,
    hooks: Hooks,
}

impl App for Game3 {
    fn render(&mut self, frame: &mut Frame) {
        step2::draw(self.history.current(), frame);
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
        } else if let Some(Ok(next)) = step2::play(self.history.current(), &self.hooks, &input) {
            self.history.push(input, next);
        }
        Control::Continue
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut game, hooks) = step2::new_game()?;
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
