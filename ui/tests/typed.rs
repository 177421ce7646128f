//! Typed results through the stack: asking, replacing, opening; and the targeting cursor.

use std::convert::Infallible;

use alembic::{Loc, LocBox};
use alembic_ui::*;

/// Asks a two-step wizard for a word; remembers what it heard.
struct Asker {
    heard: Vec<String>,
}

impl Screen<()> for Asker {
    type Output = ();
    type Reply = (u32, Option<String>);

    fn render(&mut self, _: &(), frame: &mut Frame, _: Rect) {
        let text = format!("heard {:?}", self.heard);
        frame.put_str(0, 0, &text, Rgb::WHITE, Rgb::BLACK);
    }

    fn handle(&mut self, _: &mut (), input: Input) -> Transition<(), Self> {
        match plain_char(&input) {
            // The number travels with the question and comes back with the answer.
            Some('a') => Transition::ask(StepOne, |word| (7, word)),
            Some('q') => Transition::Quit,
            _ => Transition::Stay,
        }
    }

    fn on_result(&mut self, _: &mut (), (n, word): (u32, Option<String>)) -> Transition<(), Self> {
        self.heard.push(format!("{n}:{}", word.unwrap_or_default()));
        Transition::Stay
    }

    fn name(&self) -> &str {
        "asker"
    }
}

/// Replaces itself with the second step, which answers for it.
struct StepOne;

impl Screen<()> for StepOne {
    type Output = Option<String>;
    type Reply = Infallible;

    fn render(&mut self, _: &(), _: &mut Frame, _: Rect) {}

    fn handle(&mut self, _: &mut (), input: Input) -> Transition<(), Self> {
        match plain_key(&input) {
            Some(Key::Esc) => Transition::Pop(None),
            _ => Transition::replace(StepTwo(String::new())),
        }
    }

    fn name(&self) -> &str {
        "step-one"
    }
}

/// Types a word; Enter answers it.
struct StepTwo(String);

impl Screen<()> for StepTwo {
    type Output = Option<String>;
    type Reply = Infallible;

    fn render(&mut self, _: &(), _: &mut Frame, _: Rect) {}

    fn handle(&mut self, _: &mut (), input: Input) -> Transition<(), Self> {
        match plain_key(&input) {
            Some(Key::Enter) => Transition::Pop(Some(std::mem::take(&mut self.0))),
            Some(Key::Char(c)) => {
                self.0.push(c);
                Transition::Stay
            }
            _ => Transition::Stay,
        }
    }

    fn name(&self) -> &str {
        "step-two"
    }
}

#[test]
fn a_replacing_screen_answers_whoever_asked_for_the_one_it_replaced() {
    let mut stack = ScreenStack::new((), Asker { heard: Vec::new() });
    stack.handle_input(Input::ch('a'));
    assert_eq!(stack.names(), ["asker", "step-one"]);
    stack.handle_input(Input::ch('x'));
    assert_eq!(stack.names(), ["asker", "step-two"]);
    for c in "hi".chars() {
        stack.handle_input(Input::ch(c));
    }
    stack.handle_input(Input::key(Key::Enter));
    assert_eq!(stack.names(), ["asker"]);
    // Backing out answers too, with None.
    stack.handle_input(Input::ch('a'));
    stack.handle_input(Input::key(Key::Esc));
    let mut frame = Frame::new(40, 1);
    stack.render_into(&mut frame);
    assert!(
        frame.contains_text(r#"heard ["7:hi", "7:"]"#),
        "{}",
        frame.to_text()
    );
}

#[test]
fn a_pushed_screen_answers_nobody_and_a_stack_can_open_with_a_question() {
    // Pushed (not asked): the asker hears nothing.
    let mut stack = ScreenStack::new((), Asker { heard: Vec::new() });
    stack.push(StepTwo(String::new()));
    stack.handle_input(Input::ch('z'));
    stack.handle_input(Input::key(Key::Enter));
    let mut frame = Frame::new(40, 1);
    stack.render_into(&mut frame);
    assert!(frame.contains_text("heard []"), "{}", frame.to_text());
    // Opening with a question: the root hears the answer.
    let first = Transition::ask(StepTwo(String::new()), |w| (1, w));
    let mut stack = ScreenStack::opening((), Asker { heard: Vec::new() }, first);
    assert_eq!(stack.names(), ["asker", "step-two"]);
    stack.handle_input(Input::ch('z'));
    stack.handle_input(Input::key(Key::Enter));
    stack.render_into(&mut frame);
    assert!(
        frame.contains_text(r#"heard ["1:z"]"#),
        "{}",
        frame.to_text()
    );
}

#[test]
fn the_target_cursor_draws_its_line_dimmer_past_the_stop_and_stays_in_bounds() {
    let hero = Loc::new(1, 1, 0);
    let level = LocBox::rect(0, 0, 10, 3, 0);
    let mut state = TargetState::new(hero, level)
        .with_marks(vec![Loc::new(6, 1, 0)])
        .with_line_from(hero);
    assert_eq!(state.handle(&Input::key(Key::Tab)), CursorEvent::Moved);
    let mut frame = Frame::new(10, 3);
    frame.clear(Cell {
        ch: '.',
        ..Cell::default()
    });
    let (line, beyond, cursor) = (
        Rgb::new(0, 0, 90),
        Rgb::new(0, 0, 40),
        Rgb::new(200, 200, 0),
    );
    let to_screen = |l: Loc| Some((l.x, l.y));
    TargetCursor {
        to_screen: &to_screen,
        cell_width: 1,
        stop: Some(Loc::new(3, 1, 0)),
        cursor_bg: cursor,
        line_bg: line,
        beyond_bg: beyond,
    }
    .render(&mut frame, Rect::new(0, 0, 10, 3), &mut state);
    let bg = |x| frame.get(x, 1).map(|c| c.bg);
    assert_eq!(
        bg(1),
        Some(Rgb::BLACK),
        "the thrower's own cell is not on the line"
    );
    assert_eq!(bg(2), Some(line));
    assert_eq!(
        bg(3),
        Some(line),
        "the cell that stops the throw is still reached"
    );
    assert_eq!(bg(4), Some(beyond));
    assert_eq!(bg(5), Some(beyond));
    assert_eq!(bg(6), Some(cursor));
    assert_eq!(frame.get(6, 1).map(|c| c.fg), Some(Rgb::BLACK));
    // The cursor never leaves the level, however far it jumps.
    for _ in 0..3 {
        state.handle(&Input::ch('L'));
        state.handle(&Input::ch('J'));
    }
    assert_eq!(state.cursor(), Loc::new(9, 2, 0));
    assert_eq!(state.handle(&Input::key(Key::Esc)), CursorEvent::Cancelled);
    let mut bare = TargetState::new(hero, level);
    assert_eq!(bare.handle(&Input::key(Key::Tab)), CursorEvent::NoMarks);
    assert!(bare.line().is_empty());
}
