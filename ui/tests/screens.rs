//! Behaviour of the screen stack and the widgets, driven through `run` and a `TestFrontend`.

use std::convert::Infallible;

use alembic::Dir;
use alembic_ui::*;

/// What the root screen got back from the screens it asked.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Got {
    Index(usize),
    Cancelled,
    Bool(bool),
    Done,
}

/// A context recording what the root screen received.
#[derive(Default)]
struct Ctx {
    got: Vec<Got>,
}

/// Root: `i` pushes an item list, `c` a confirm, `?` help, `m` a log, `x` replaces itself.
struct Root;

impl Screen<Ctx> for Root {
    type Output = ();
    type Reply = Got;

    fn render(&mut self, ctx: &Ctx, frame: &mut Frame, area: Rect) {
        fill(
            frame,
            area,
            Cell {
                ch: '.',
                ..Cell::default()
            },
        );
        frame.put_str(
            0,
            0,
            &format!("root got {:?}", ctx.got.last()),
            Rgb::WHITE,
            Rgb::BLACK,
        );
    }

    fn handle(&mut self, _ctx: &mut Ctx, input: Input) -> Transition<Ctx, Self> {
        match plain_char(&input) {
            Some('i') => Transition::ask(
                ItemList::new(
                    "Pick",
                    (0..30)
                        .map(|i| ListEntry::new(format!("thing {i}")))
                        .collect(),
                ),
                |picked| picked.map_or(Got::Cancelled, Got::Index),
            ),
            Some('c') => Transition::ask(Confirm::new("Really?"), Got::Bool),
            Some('?') => Transition::ask(
                TextScreen::new("Help", (0..40).map(|i| format!("help line {i}"))),
                |()| Got::Done,
            ),
            Some('m') => Transition::push(MessageLogScreen::new(
                "Messages",
                (0..50).map(|i| format!("message {i}")).collect(),
            )),
            Some('x') => Transition::replace(Other),
            Some('Q') => Transition::Quit,
            _ => Transition::Stay,
        }
    }

    fn on_result(&mut self, ctx: &mut Ctx, value: Got) -> Transition<Ctx, Self> {
        let quit = value == Got::Bool(true);
        ctx.got.push(value);
        if quit {
            Transition::Quit
        } else {
            Transition::Stay
        }
    }

    fn name(&self) -> &str {
        "root"
    }
}

struct Other;
impl Screen<Ctx> for Other {
    type Output = ();
    type Reply = Infallible;
    fn render(&mut self, _: &Ctx, frame: &mut Frame, _: Rect) {
        frame.put_str(0, 0, "other screen", Rgb::WHITE, Rgb::BLACK);
    }
    fn handle(&mut self, _: &mut Ctx, input: Input) -> Transition<Ctx, Self> {
        if is_cancel(&input) {
            Transition::Pop(())
        } else {
            Transition::Stay
        }
    }
}

fn keys(s: &str) -> Vec<Input> {
    s.chars().map(Input::ch).collect()
}

#[test]
fn item_list_pages_and_returns_index_to_screen_below() {
    let mut inputs = keys("i");
    inputs.push(Input::key(Key::PageDown));
    inputs.extend(keys("cc")); // 'c' on page 2 = index 28; second 'c' opens confirm
    inputs.extend(keys("y"));
    let mut fe = TestFrontend::new(80, 30, inputs);
    let mut app = ScreenStack::new(Ctx::default(), Root);
    run(&mut fe, &mut app).unwrap();
    assert_eq!(app.ctx().got, vec![Got::Index(28), Got::Bool(true)]);
    let frames = fe.frames();
    assert!(frames[1].contains_text("a) thing 0"));
    assert!(frames[1].contains_text("z) thing 25"));
    assert!(frames[1].contains_text("page 1/2"));
    // The list is an overlay: the root still shows around it.
    assert!(frames[1].contains_text("root got None"));
    assert!(frames[2].contains_text("c) thing 28"));
    assert!(frames[2].contains_text("page 2/2"));
    assert!(frames[4].contains_text("Really? (y/n)"));
}

#[test]
fn item_list_with_own_letters_chooses_by_them() {
    let entries = vec![
        ListEntry::new("dagger").with_letter('c'),
        ListEntry::new("potion").with_letter('a'),
        ListEntry::new("herb"),
    ];
    let mut list = ItemList::new("Pick", entries.clone());
    let mut ctx = ();
    // 'a' is the potion's own letter, not the first entry's position.
    assert!(matches!(
        Screen::<()>::handle(&mut list, &mut ctx, Input::ch('a')),
        Transition::Pop(Some(1))
    ));
    assert!(matches!(
        Screen::<()>::handle(&mut list, &mut ctx, Input::ch('c')),
        Transition::Pop(Some(0))
    ));
    // 'b' is nobody's letter; the entry without one cannot be chosen.
    assert!(matches!(
        Screen::<()>::handle(&mut list, &mut ctx, Input::ch('b')),
        Transition::Stay
    ));
    let mut f = Frame::new(40, 10);
    let area = Rect::of_frame(&f);
    draw_item_list(&mut f, area, &Palette::DEFAULT, "Pick", &entries, 0);
    assert!(f.contains_text("c) dagger"));
    assert!(f.contains_text("a) potion"));
    assert!(f.contains_text("-) herb"));
}

#[test]
fn escape_cancels_and_confirm_no_stays() {
    let mut inputs = keys("i");
    inputs.push(Input::key(Key::Esc));
    inputs.extend(keys("cxn")); // 'x' ignored by confirm
    inputs.extend(keys("Q"));
    let mut fe = TestFrontend::new(80, 24, inputs);
    let mut app = ScreenStack::new(Ctx::default(), Root);
    run(&mut fe, &mut app).unwrap();
    assert_eq!(app.ctx().got, vec![Got::Cancelled, Got::Bool(false)]);
    assert_eq!(app.names(), vec!["root"]);
}

#[test]
fn popping_the_last_screen_quits_and_replace_swaps() {
    let mut inputs = keys("x");
    inputs.push(Input::key(Key::Esc));
    let mut fe = TestFrontend::new(40, 10, inputs);
    let mut app = ScreenStack::new(Ctx::default(), Root);
    run(&mut fe, &mut app).unwrap();
    assert!(app.is_empty());
    assert!(fe.frames()[1].contains_text("other screen"));
}

#[test]
fn text_screen_scrolls_within_bounds() {
    let mut inputs = keys("?");
    inputs.extend(keys("jjj"));
    inputs.push(Input::key(Key::End));
    inputs.push(Input::key(Key::PageDown));
    inputs.push(Input::key(Key::Esc));
    inputs.extend(keys("Q"));
    let mut fe = TestFrontend::new(60, 12, inputs);
    let mut app = ScreenStack::new(Ctx::default(), Root);
    run(&mut fe, &mut app).unwrap();
    let f = fe.frames();
    assert!(f[1].contains_text("help line 0"));
    assert!(!f[1].contains_text("root got"), "text screen is opaque");
    assert!(f[4].contains_text("help line 3") && !f[4].contains_text("help line 2 "));
    // 12 rows - 2 border - 1 footer = 9 visible; End shows the last 9.
    assert!(f[5].contains_text("help line 39"));
    assert!(f[5].contains_text("lines 32-40 of 40"));
    assert_eq!(f[5].to_text(), f[6].to_text(), "cannot scroll past the end");
    assert_eq!(app.ctx().got, vec![Got::Done]);
}

#[test]
fn message_log_fades_older_lines_and_scrolls_back() {
    let mut inputs = keys("m");
    inputs.extend(keys("kk"));
    inputs.push(Input::key(Key::Esc));
    inputs.extend(keys("Q"));
    let mut fe = TestFrontend::new(60, 12, inputs);
    let mut app = ScreenStack::new(Ctx::default(), Root);
    run(&mut fe, &mut app).unwrap();
    let f = &fe.frames()[1];
    assert!(f.contains_text("message 49"));
    // Find the colour of the newest and an older line.
    let colour_of = |frame: &Frame, needle: &str| {
        let y = (0..frame.height())
            .find(|&y| frame.row_text(y).contains(needle))
            .unwrap();
        let x = frame.row_text(y).find(needle).unwrap() as i32;
        // Box-drawing chars are multi-byte; count chars instead.
        let x = frame.row_text(y)[..x as usize].chars().count() as i32;
        frame.get(x, i32::from(y)).unwrap().fg
    };
    let newest = colour_of(f, "message 49");
    let older = colour_of(f, "message 42");
    assert!(newest.r > older.r, "{newest:?} vs {older:?}");
    let scrolled = &fe.frames()[3];
    assert!(scrolled.contains_text("message 47"));
    assert!(!scrolled.contains_text("message 49"));
}

#[test]
fn direction_keys_follow_roguelike_conventions() {
    assert_eq!(direction_key(&Input::ch('h')), Some(Dir::West));
    assert_eq!(direction_key(&Input::ch('n')), Some(Dir::SouthEast));
    assert_eq!(direction_key(&Input::ch('9')), Some(Dir::NorthEast));
    assert_eq!(
        direction_key(&Input::key(Key::Keypad(1))),
        Some(Dir::SouthWest)
    );
    assert_eq!(direction_key(&Input::key(Key::Up)), Some(Dir::North));
    assert_eq!(direction_key(&Input::key(Key::Home)), Some(Dir::NorthWest));
    assert_eq!(direction_key(&Input::ch('5')), None);
    let ctrl_h = Input::Key {
        key: Key::Char('h'),
        mods: Mods {
            ctrl: true,
            ..Mods::NONE
        },
    };
    assert_eq!(direction_key(&ctrl_h), None);
}

#[test]
fn wrap_and_box_helpers() {
    assert_eq!(wrap_text("aa bb cc", 5), vec!["aa bb", "cc"]);
    assert_eq!(wrap_text("abcdefg", 3), vec!["abc", "def", "g"]);
    assert_eq!(wrap_text("a\n\nb", 9), vec!["a", "", "b"]);
    assert_eq!(wrap_text("a   b", 9), vec!["a   b"]);
    let mut f = Frame::new(10, 4);
    let all = Rect::of_frame(&f);
    let inside = draw_box(&mut f, all, &Palette::DEFAULT, Some("T"));
    assert_eq!(inside, Rect::new(1, 1, 8, 2));
    assert_eq!(f.row_text(0), "┌── T ───┐");
    assert_eq!(f.row_text(3), "└────────┘");
    // Degenerate areas never panic.
    draw_box(
        &mut f,
        Rect::new(9, 3, 5, 5),
        &Palette::DEFAULT,
        Some("long title"),
    );
    draw_item_list(
        &mut f,
        Rect::new(0, 0, 1, 1),
        &Palette::DEFAULT,
        "x",
        &[],
        3,
    );
    let mut tiny = Frame::new(0, 0);
    draw_too_small(&mut tiny, 80, 24, "terminal");
    put_centred(
        &mut f,
        Rect::new(0, 0, 0, 0),
        0,
        "hello",
        Rgb::WHITE,
        Rgb::BLACK,
    );
    assert_eq!(item_letter(27), 'b');
    assert_eq!(page_count(0), 1);
    assert_eq!(page_count(27), 2);
}

#[test]
fn min_size_shows_enlarge_screen_and_swallows_keys() {
    let inputs = vec![
        Input::ch('c'), // swallowed: too small
        Input::Resize {
            width: 80,
            height: 24,
        },
        Input::ch('c'),
        Input::ch('y'),
    ];
    let mut fe = TestFrontend::new(50, 10, inputs);
    let mut app =
        MinSize::new(ScreenStack::new(Ctx::default(), Root), 80, 24).with_noun("terminal");
    run(&mut fe, &mut app).unwrap();
    let f = fe.frames();
    assert!(f[0].contains_text("Please enlarge the terminal"));
    assert!(f[0].contains_text("(now 50x10)"));
    assert!(
        f[1].contains_text("Please enlarge"),
        "the key was swallowed"
    );
    assert!(f[2].contains_text("root got None"));
    assert!(f[3].contains_text("Really?"));
    assert_eq!(app.inner().ctx().got, vec![Got::Bool(true)]);
}

#[test]
fn quit_input_reaches_every_screen() {
    struct Saver;
    impl Screen<Vec<&'static str>> for Saver {
        type Output = ();
        type Reply = Infallible;
        fn render(&mut self, _: &Vec<&'static str>, _: &mut Frame, _: Rect) {}
        fn handle(
            &mut self,
            _: &mut Vec<&'static str>,
            _: Input,
        ) -> Transition<Vec<&'static str>, Self> {
            Transition::push(Confirm::new("?"))
        }
        fn on_quit(&mut self, ctx: &mut Vec<&'static str>) {
            ctx.push("saved");
        }
    }
    let mut fe = TestFrontend::new(20, 5, [Input::ch('a'), Input::Quit]);
    let mut app = ScreenStack::new(Vec::new(), Saver);
    run(&mut fe, &mut app).unwrap();
    assert_eq!(app.ctx(), &vec!["saved"]);
    assert_eq!(app.len(), 2);
}
