//! How the session shows a game's [`Question`] over its play screen, in any frontend: a
//! lettered list, a direction prompt, the targeting cursor with the path from the thrower,
//! a y/n box, a number or a line of text. The screen pops the player's [`Reply`], or `None`
//! when they back out with Esc.

use std::collections::HashMap;
use std::convert::Infallible;

use alembic::Loc;
use alembic_ui::{
    Cell, Confirm, CursorEvent, Frame, Input, ItemList, Key, LineEvent, LineInput, ListEntry,
    MouseButton, MouseKind, Palette, Rect, Screen, StatefulWidget, TargetCursor, TargetState,
    Transition, direction_key, fill, plain_key, put_clipped,
};

use crate::ask::{Choice, Question, Reply};
use crate::layout::{TARGET_BEYOND_BG, TARGET_PATH_BG, message_area, play_area};

/// What a question asks of the screens' context: the map cell under the pointer and what
/// is known of a cell (the session answers with the game's board).
pub(crate) trait MapHost {
    /// The map cell drawn at `x`, `y` of the play `area`.
    fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<Loc>;
    /// What the player knows of `cell`.
    fn describe_cell(&self, cell: Loc) -> Option<String>;
}

/// What the player is answering, with the widget's state.
enum Asking {
    Item(ItemList),
    Direction,
    Target(TargetState, Vec<Loc>),
    Confirm(Confirm),
    Number {
        field: LineInput,
        min: u32,
        max: u32,
    },
    Text(LineInput),
}

/// The screen asking one [`Question`] over the play screen.
pub(crate) struct QuestionScreen {
    prompt: String,
    asking: Asking,
    /// A word about the last key, when it answered nothing ("Type a number from 1 to 5.").
    note: Option<String>,
    /// Where the play screen drew the map, from the last render (the pointer needs it).
    area: Rect,
}

/// The list line of a choice: its name, then its description.
fn entry(c: &Choice) -> ListEntry {
    let text = if c.about.is_empty() {
        c.name.clone()
    } else {
        format!("{} - {}", c.name, c.about)
    };
    let e = ListEntry::new(text);
    match c.letter {
        Some(l) => e.with_letter(l),
        None => e,
    }
}

impl QuestionScreen {
    /// The screen asking `question`.
    pub(crate) fn new(question: Question) -> Self {
        let prompt = question.prompt().to_owned();
        let asking = match question {
            Question::Item { prompt, choices } => {
                Asking::Item(ItemList::new(prompt, choices.iter().map(entry).collect()))
            }
            Question::Direction { .. } => Asking::Direction,
            Question::Target {
                from,
                marks,
                bounds,
                stops,
                ..
            } => {
                let start = marks.first().copied().unwrap_or(from);
                let cursor = TargetState::new(start, bounds)
                    .with_marks(marks)
                    .with_line_from(from);
                Asking::Target(cursor, stops)
            }
            Question::Confirm { prompt } => Asking::Confirm(Confirm::new(prompt)),
            Question::Number { min, max, .. } => Asking::Number {
                field: LineInput::digits(max.to_string().len()),
                min,
                max,
            },
            Question::Text { max, .. } => Asking::Text(LineInput::new(max)),
        };
        QuestionScreen {
            prompt,
            asking,
            note: None,
            area: Rect::new(0, 0, 0, 0),
        }
    }

    /// The prompt line and its key hint, as shown over the messages.
    fn lines(&self) -> (String, &'static str) {
        match &self.asking {
            Asking::Direction => (
                self.prompt.clone(),
                "A direction key (h j k l y u b n, arrows); Esc: never mind.",
            ),
            Asking::Target(..) => (
                self.prompt.clone(),
                "Move the cursor (direction keys, Tab for the next); Enter picks; Esc: never mind.",
            ),
            Asking::Number { field, min, max } => (
                format!("{} ({min}-{max}) {}_", self.prompt, field.text()),
                "Type a number; Enter alone: the most; Esc: never mind.",
            ),
            Asking::Text(field) => (
                format!("{} {}_", self.prompt, field.text()),
                "Type, then Enter; Esc: never mind.",
            ),
            Asking::Item(_) | Asking::Confirm(_) => (String::new(), ""),
        }
    }
}

/// Where the map drew each location in `area`, and how many columns one cell spans (asked
/// of the board's pointer, [`crate::Board::cell_at`]). Θ(area).
fn screen_cells<C: MapHost>(s: &C, area: Rect) -> (HashMap<Loc, (i32, i32)>, u16) {
    let mut at = HashMap::new();
    let mut width = 1;
    for y in area.y..area.bottom() {
        let mut run: Option<(Loc, u16)> = None;
        for x in area.x..area.right() {
            let Some(l) = s.cell_at(area, x, y) else {
                run = None;
                continue;
            };
            match run {
                Some((prev, n)) if prev == l => {
                    width = width.max(n + 1);
                    run = Some((l, n + 1));
                }
                _ => {
                    at.entry(l).or_insert((i32::from(x), i32::from(y)));
                    run = Some((l, 1));
                }
            }
        }
    }
    (at, width)
}

impl<C: MapHost + 'static> Screen<C> for QuestionScreen {
    type Output = Option<Reply>;
    type Reply = Infallible;

    fn render(&mut self, s: &C, frame: &mut Frame, area: Rect) {
        self.area = area;
        let p = Palette::DEFAULT;
        match &mut self.asking {
            Asking::Item(list) => return Screen::<C>::render(list, s, frame, area),
            Asking::Confirm(c) => return Screen::<C>::render(c, s, frame, area),
            Asking::Target(state, stops) => {
                let map = play_area(area);
                let (cells, width) = screen_cells(s, map);
                let to_screen = |l: Loc| cells.get(&l).copied();
                // The first place on the way (the target left out) where a throw stops.
                let cursor = state.cursor();
                let stop = state
                    .line()
                    .into_iter()
                    .take_while(|&l| l != cursor)
                    .find(|l| stops.contains(l));
                TargetCursor {
                    to_screen: &to_screen,
                    cell_width: width,
                    stop,
                    cursor_bg: p.accent,
                    line_bg: TARGET_PATH_BG,
                    beyond_bg: TARGET_BEYOND_BG,
                }
                .render(frame, map, state);
            }
            _ => {}
        }
        let msgs = message_area(area);
        fill(
            frame,
            msgs,
            Cell {
                ch: ' ',
                fg: p.text,
                bg: p.bg,
            },
        );
        let (prompt, hint) = self.lines();
        let under = match &self.asking {
            Asking::Target(state, _) => s.describe_cell(state.cursor()),
            _ => None,
        };
        let rows = [
            Some((prompt, p.accent)),
            self.note.clone().or(under).map(|t| (t, p.text)),
            Some((hint.to_owned(), p.dim)),
        ];
        for (i, (text, fg)) in rows.into_iter().flatten().enumerate() {
            let y = msgs.y + i as u16;
            if y < msgs.bottom() {
                put_clipped(frame, msgs, msgs.x, y, &text, fg, p.bg);
            }
        }
    }

    fn handle(&mut self, s: &mut C, input: Input) -> Transition<C, Self> {
        self.note = None;
        let esc = plain_key(&input) == Some(Key::Esc);
        match &mut self.asking {
            Asking::Item(list) => match Screen::<C>::handle(list, s, input) {
                Transition::Pop(i) => Transition::Pop(i.map(Reply::Item)),
                _ => Transition::Stay,
            },
            Asking::Confirm(c) => match Screen::<C>::handle(c, s, input) {
                Transition::Pop(yes) => Transition::Pop(Some(Reply::Confirm(yes))),
                _ => Transition::Stay,
            },
            _ if esc => Transition::Pop(None),
            Asking::Direction => match direction_key(&input) {
                Some(d) => Transition::Pop(Some(Reply::Direction(d))),
                None => {
                    if plain_key(&input).is_some() {
                        self.note = Some("That is not a direction.".into());
                    }
                    Transition::Stay
                }
            },
            Asking::Target(state, _) => {
                if let Input::Mouse { kind, x, y, .. } = input {
                    let cell = s.cell_at(play_area(self.area), x, y);
                    return match (kind, cell) {
                        (MouseKind::Down(MouseButton::Left), Some(l)) => {
                            Transition::Pop(Some(Reply::Target(l)))
                        }
                        (MouseKind::Move, Some(l)) => {
                            state.set_cursor(l);
                            Transition::Stay
                        }
                        _ => Transition::Stay,
                    };
                }
                match state.handle(&input) {
                    CursorEvent::Picked(l) => Transition::Pop(Some(Reply::Target(l))),
                    CursorEvent::Cancelled => Transition::Pop(None),
                    CursorEvent::NoMarks => {
                        self.note = Some("There is nothing to cycle through.".into());
                        Transition::Stay
                    }
                    _ => Transition::Stay,
                }
            }
            Asking::Number { field, min, max } => {
                if field.handle(&input) != LineEvent::Enter {
                    return Transition::Stay;
                }
                let typed = field.text().to_owned();
                let n = if typed.is_empty() {
                    Some(*max)
                } else {
                    typed.parse::<u32>().ok()
                };
                match n {
                    Some(n) if (*min..=*max).contains(&n) => {
                        Transition::Pop(Some(Reply::Number(n)))
                    }
                    _ => {
                        self.note = Some(format!("Type a number from {min} to {max}."));
                        field.take();
                        Transition::Stay
                    }
                }
            }
            Asking::Text(field) => match field.handle(&input) {
                LineEvent::Enter => Transition::Pop(Some(Reply::Text(field.take()))),
                _ => Transition::Stay,
            },
        }
    }

    fn is_overlay(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        "question"
    }
}

#[cfg(test)]
mod tests {
    use alembic::LocBox;
    use alembic_ui::Frame;

    use super::*;
    use crate::layout::MESSAGE_ROWS;

    /// A map drawn one cell a column, the level's (0, 0) at the play area's corner.
    struct Flat;

    impl MapHost for Flat {
        fn cell_at(&self, area: Rect, x: u16, y: u16) -> Option<Loc> {
            let l = Loc::new(i32::from(x - area.x), i32::from(y - area.y), 0);
            LocBox::rect(0, 0, 20, 10, 0).contains(l).then_some(l)
        }
        fn describe_cell(&self, _: Loc) -> Option<String> {
            Some("floor".into())
        }
    }

    fn bg_at(f: &Frame, l: Loc) -> alembic::Rgb {
        let y = l.y + i32::from(MESSAGE_ROWS);
        f.get(l.x, y).map(|c| c.bg).unwrap_or_default()
    }

    #[test]
    fn the_path_dims_past_the_first_place_a_throw_stops() {
        let from = Loc::new(1, 1, 0);
        let bounds = LocBox::rect(0, 0, 20, 10, 0);
        let wall = Loc::new(4, 1, 0);
        let q = Question::target("Throw where?", from, vec![Loc::new(8, 1, 0)], bounds)
            .with_stops(vec![wall]);
        let mut screen = QuestionScreen::new(q);
        let mut f = Frame::new(30, 14);
        Screen::<Flat>::render(&mut screen, &Flat, &mut f, Rect::new(0, 0, 30, 14));
        // Up to the wall the path is amber; past it, dim red; the cursor is on the mark.
        assert_eq!(bg_at(&f, Loc::new(2, 1, 0)), TARGET_PATH_BG);
        assert_eq!(bg_at(&f, wall), TARGET_PATH_BG);
        assert_eq!(bg_at(&f, Loc::new(5, 1, 0)), TARGET_BEYOND_BG);
        assert_eq!(bg_at(&f, Loc::new(7, 1, 0)), TARGET_BEYOND_BG);
        assert!(f.row_text(0).contains("Throw where?"));
        assert!(f.row_text(1).contains("floor"));
        // Without stops the whole path is amber.
        let q = Question::target("Throw where?", from, vec![Loc::new(8, 1, 0)], bounds);
        let mut screen = QuestionScreen::new(q);
        let mut f = Frame::new(30, 14);
        Screen::<Flat>::render(&mut screen, &Flat, &mut f, Rect::new(0, 0, 30, 14));
        assert_eq!(bg_at(&f, Loc::new(7, 1, 0)), TARGET_PATH_BG);
    }

    #[test]
    fn a_reply_out_of_its_question_is_not_accepted() {
        let n = Question::number("How many?", 1, 3);
        assert!(n.accepts(&Reply::Number(3)));
        assert!(!n.accepts(&Reply::Number(4)));
        assert!(!n.accepts(&Reply::Text("3".into())));
        let t = Question::text("Write what?", 5);
        assert!(t.accepts(&Reply::Text("hello".into())));
        assert!(!t.accepts(&Reply::Text("hello!".into())));
        assert!(!t.accepts(&Reply::Text("a\u{1b}b".into())));
        let i = Question::item("Which?", vec![Choice::new("a coin")]);
        assert!(i.accepts(&Reply::Item(0)));
        assert!(!i.accepts(&Reply::Item(1)));
        let bounds = LocBox::rect(0, 0, 20, 10, 0);
        let at = Question::target("Where?", Loc::new(1, 1, 0), Vec::new(), bounds);
        assert!(at.accepts(&Reply::Target(Loc::new(19, 9, 0))));
        assert!(!at.accepts(&Reply::Target(Loc::new(20, 9, 0))));
        assert!(!at.accepts(&Reply::Target(Loc::new(2, 2, -1))));
    }
}
