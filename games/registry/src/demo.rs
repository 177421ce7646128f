//! `demo`: a tiny placeholder game so the frontends can be tested end to end before the real
//! games (Alchemy, Caves) land. A walled room with a few pillars, an `@` that walks with vi
//! keys, arrows or the numpad, a status line, `?` help, `m` messages, `i` pockets, `Q` quit
//! with a y/n confirm. No rules beyond "walls block".
//!
//! Save format (for `--load`): two lines, `alembic-demo 1` then `seed turns x y`.

use alembic::{Dir, Rgb, rng::GameRng};
use alembic_ui::{
    Cell, Confirm, Frame, Input, ItemList, Key, ListEntry, MessageLogScreen, Palette, Rect, Screen,
    ScreenStack, TextScreen, Transition, direction_key, draw_message_log, fill, plain_key,
    put_clipped,
};

/// Room size including its walls.
const ROOM_W: i32 = 60;
const ROOM_H: i32 = 18;
const POCKETS: [&str; 3] = ["a smooth pebble", "a bent key", "a candle stub"];

/// The demo's whole state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoWorld {
    seed: u64,
    turns: u64,
    hero: (i32, i32),
    pillars: Vec<(i32, i32)>,
    messages: Vec<String>,
}

/// Why a demo save could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DemoSaveError {
    /// The first line is not `alembic-demo 1`.
    #[error("missing the \"alembic-demo 1\" header")]
    NoHeader,
    /// There is no second line.
    #[error("missing the state line")]
    NoState,
    /// A word of the state line is not a number.
    #[error("bad number {text:?}: {source}")]
    BadNumber {
        /// The word.
        text: String,
        /// Why it is not a number.
        source: std::num::ParseIntError,
    },
    /// The state line does not hold four numbers.
    #[error("expected 4 numbers, found {0}")]
    Count(usize),
    /// The turn count is negative.
    #[error("negative turn count")]
    NegativeTurns,
    /// The hero would stand in a wall or outside the room.
    #[error("the hero position {x},{y} is not a floor")]
    NotFloor {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
}

impl DemoWorld {
    /// A fresh room laid out from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut rng = GameRng::seed_from(seed);
        let mut pillars = Vec::new();
        for _ in 0..6 {
            let x = rng.range(3, i64::from(ROOM_W - 3)) as i32;
            let y = rng.range(3, i64::from(ROOM_H - 3)) as i32;
            pillars.push((x, y));
        }
        let mut w = DemoWorld {
            seed,
            turns: 0,
            hero: (ROOM_W / 2, ROOM_H / 2),
            pillars,
            messages: vec!["Welcome to the demo room. Press ? for help.".to_string()],
        };
        // Start on a free cell near the middle.
        if w.blocked(w.hero) {
            w.hero = (1..ROOM_H - 1)
                .flat_map(|y| (1..ROOM_W - 1).map(move |x| (x, y)))
                .find(|&p| !w.blocked(p))
                .unwrap_or((1, 1));
        }
        w
    }

    /// Parse a save written by [`DemoWorld::save_text`].
    ///
    /// # Errors
    /// [`DemoSaveError`], saying what is wrong with the text.
    pub fn from_save_text(text: &str) -> Result<Self, DemoSaveError> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some("alembic-demo 1") {
            return Err(DemoSaveError::NoHeader);
        }
        let nums: Vec<i64> = lines
            .next()
            .ok_or(DemoSaveError::NoState)?
            .split_whitespace()
            .map(|n| {
                n.parse::<i64>().map_err(|source| DemoSaveError::BadNumber {
                    text: n.to_string(),
                    source,
                })
            })
            .collect::<Result<_, _>>()?;
        let [seed, turns, x, y] = nums[..] else {
            return Err(DemoSaveError::Count(nums.len()));
        };
        let mut w = DemoWorld::new(seed as u64);
        w.turns = u64::try_from(turns).map_err(|_| DemoSaveError::NegativeTurns)?;
        let (x, y) = (x as i32, y as i32);
        if w.blocked((x, y)) || !(0..ROOM_W).contains(&x) || !(0..ROOM_H).contains(&y) {
            return Err(DemoSaveError::NotFloor { x, y });
        }
        w.hero = (x, y);
        w.messages = vec!["Welcome back.".to_string()];
        Ok(w)
    }

    /// The state as save text.
    #[must_use]
    pub fn save_text(&self) -> String {
        format!(
            "alembic-demo 1\n{} {} {} {}\n",
            self.seed, self.turns, self.hero.0, self.hero.1
        )
    }

    /// The hero's position in the room.
    #[must_use]
    pub fn hero(&self) -> (i32, i32) {
        self.hero
    }

    /// Turns taken.
    #[must_use]
    pub fn turns(&self) -> u64 {
        self.turns
    }

    /// The message log, oldest first.
    #[must_use]
    pub fn messages(&self) -> &[String] {
        &self.messages
    }

    fn is_wall(p: (i32, i32)) -> bool {
        p.0 <= 0 || p.1 <= 0 || p.0 >= ROOM_W - 1 || p.1 >= ROOM_H - 1
    }

    fn blocked(&self, p: (i32, i32)) -> bool {
        DemoWorld::is_wall(p) || self.pillars.contains(&p)
    }

    fn say(&mut self, msg: impl Into<String>) {
        self.messages.push(msg.into());
    }

    /// Step the hero one cell; walls and pillars block (and cost no turn).
    pub fn step(&mut self, d: Dir) {
        let o = d.offset();
        let to = (self.hero.0 + o.x, self.hero.1 + o.y);
        if DemoWorld::is_wall(to) {
            self.say("A wall blocks your way.");
        } else if self.pillars.contains(&to) {
            self.say("A stone pillar blocks your way.");
        } else {
            self.hero = to;
            self.turns += 1;
        }
    }
}

/// A new demo app: the play screen on a screen stack.
#[must_use]
pub fn app(world: DemoWorld) -> ScreenStack<DemoWorld> {
    ScreenStack::new(world, PlayScreen)
}

const HELP: &[&str] = &[
    "This is the demo room, a placeholder until the real games arrive.",
    "",
    "Move:      h j k l y u b n,  arrow keys,  numpad 1-9",
    "Wait:      .  or  5",
    "Pockets:   i   (a lettered list; pick with a-z)",
    "Messages:  m   (scroll with j/k, Esc to close)",
    "Help:      ?",
    "Quit:      Q   (asks y/n first)",
];

/// What the play screen is waiting for from the screen above it.
struct PlayScreen;

impl PlayScreen {
    fn draw_map(w: &DemoWorld, frame: &mut Frame, area: Rect) {
        // Centre the room in the map area; if the area is smaller, keep the hero in view.
        let ox = centre_offset(i32::from(area.width), ROOM_W, w.hero.0);
        let oy = centre_offset(i32::from(area.height), ROOM_H, w.hero.1);
        let floor = Cell {
            ch: '.',
            fg: Rgb::new(90, 80, 70),
            bg: Rgb::new(12, 10, 8),
        };
        let wall = Cell {
            ch: '#',
            fg: Rgb::new(170, 150, 120),
            bg: Rgb::new(40, 34, 28),
        };
        let pillar = Cell {
            ch: 'O',
            fg: Rgb::new(150, 150, 170),
            bg: Rgb::new(12, 10, 8),
        };
        for y in 0..ROOM_H {
            for x in 0..ROOM_W {
                let sx = i32::from(area.x) + ox + x;
                let sy = i32::from(area.y) + oy + y;
                if sx < i32::from(area.x)
                    || sy < i32::from(area.y)
                    || sx >= i32::from(area.right())
                    || sy >= i32::from(area.bottom())
                {
                    continue;
                }
                let mut cell = if DemoWorld::is_wall((x, y)) {
                    wall
                } else if w.pillars.contains(&(x, y)) {
                    pillar
                } else {
                    floor
                };
                // A little torchlight around the hero.
                let d2 = (x - w.hero.0).pow(2) + (y - w.hero.1).pow(2);
                let light = (1.6 - (d2 as f32).sqrt() / 8.0).clamp(0.6, 1.6);
                cell.fg = brighten(cell.fg, light);
                if (x, y) == w.hero {
                    cell = Cell {
                        ch: '@',
                        fg: Rgb::new(255, 230, 120),
                        bg: cell.bg,
                    };
                }
                frame.put(sx, sy, cell);
            }
        }
    }
}

fn centre_offset(view: i32, room: i32, hero: i32) -> i32 {
    if view >= room {
        (view - room) / 2
    } else {
        (view / 2 - hero).clamp(view - room, 0)
    }
}

fn brighten(c: Rgb, k: f32) -> Rgb {
    let f = |v: u8| (f32::from(v) * k).round().clamp(0.0, 255.0) as u8;
    Rgb::new(f(c.r), f(c.g), f(c.b))
}

/// What the demo's play screen asks other screens.
enum Reply {
    /// The answer to "Really quit?".
    Quit(bool),
    /// The pocket picked (`None`: none).
    Pocket(Option<usize>),
}

impl Screen<DemoWorld> for PlayScreen {
    type Output = ();
    type Reply = Reply;

    fn render(&mut self, w: &DemoWorld, frame: &mut Frame, area: Rect) {
        let p = Palette::DEFAULT;
        fill(frame, area, Cell::blank(p.text, p.bg));
        let (msgs, rest) = area.split_top(2);
        let (map, status) = rest.split_bottom(1);
        draw_message_log(frame, msgs, &p, &w.messages, 0);
        PlayScreen::draw_map(w, frame, map);
        let left = format!(
            " Demo room   Seed {}   Turn {}   @ {},{}",
            w.seed, w.turns, w.hero.0, w.hero.1
        );
        let bar = Rgb::new(30, 28, 40);
        fill(frame, status, Cell::blank(p.text, bar));
        put_clipped(frame, status, status.x, status.y, &left, p.text, bar);
        let right = "? help  i pockets  m messages  Q quit ";
        let rx = status
            .right()
            .saturating_sub(right.chars().count() as u16)
            .max(status.x + left.chars().count() as u16 + 1);
        put_clipped(frame, status, rx, status.y, right, p.dim, bar);
    }

    fn handle(&mut self, w: &mut DemoWorld, input: Input) -> Transition<DemoWorld, Self> {
        if let Some(d) = direction_key(&input) {
            w.step(d);
            return Transition::Stay;
        }
        match plain_key(&input) {
            Some(Key::Char('.' | '5') | Key::Keypad(5)) => {
                w.turns += 1;
                Transition::Stay
            }
            Some(Key::Char('?')) => Transition::push(TextScreen::new("Help", HELP.iter().copied())),
            Some(Key::Char('m')) => {
                Transition::push(MessageLogScreen::new("Messages", w.messages.clone()))
            }
            Some(Key::Char('i')) => Transition::ask(
                ItemList::new(
                    "Your pockets",
                    POCKETS.iter().map(|s| ListEntry::new(*s)).collect(),
                ),
                Reply::Pocket,
            ),
            Some(Key::Char('Q')) => Transition::ask(Confirm::new("Really quit?"), Reply::Quit),
            Some(Key::Char(c)) if !c.is_control() => {
                w.say(format!("Unknown key '{c}'. Press ? for help."));
                Transition::Stay
            }
            _ => Transition::Stay,
        }
    }

    fn on_result(&mut self, w: &mut DemoWorld, reply: Reply) -> Transition<DemoWorld, Self> {
        match reply {
            Reply::Quit(true) => Transition::Quit,
            Reply::Pocket(Some(i)) => {
                if let Some(name) = POCKETS.get(i) {
                    w.say(format!("You turn {name} over in your hand."));
                }
                Transition::Stay
            }
            Reply::Quit(false) | Reply::Pocket(None) => Transition::Stay,
        }
    }

    fn name(&self) -> &str {
        "demo-play"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alembic_ui::{TestFrontend, run};

    fn play(seed: u64, w: u16, h: u16, script: Vec<Input>) -> (TestFrontend, DemoWorld) {
        let mut fe = TestFrontend::new(w, h, script);
        let mut a = app(DemoWorld::new(seed));
        run(&mut fe, &mut a).unwrap();
        (fe, a.into_ctx())
    }

    #[test]
    fn walks_helps_lists_and_quits_with_confirm() {
        let start = DemoWorld::new(1).hero();
        let script = vec![
            Input::ch('l'),
            Input::key(Key::Keypad(2)),
            Input::ch('?'),
            Input::key(Key::Esc),
            Input::ch('i'),
            Input::ch('b'),
            Input::ch('Q'),
            Input::ch('n'),
            Input::ch('Q'),
            Input::ch('y'),
        ];
        let (fe, w) = play(1, 80, 24, script);
        let f = fe.frames();
        assert!(f[0].contains_text("@"));
        assert!(f[0].contains_text("Demo room   Seed 1   Turn 0"));
        assert!(f[3].contains_text("Move:"));
        assert!(f[5].contains_text("b) a bent key"));
        assert!(f[6].contains_text("You turn a bent key over in your hand."));
        assert!(f[7].contains_text("Really quit? (y/n)"));
        assert!(!f[8].contains_text("Really quit?"));
        assert_eq!(w.turns(), 2);
        assert_eq!(w.hero(), (start.0 + 1, start.1 + 1));
    }

    #[test]
    fn walls_block_without_costing_a_turn() {
        let script: Vec<Input> = std::iter::repeat_n(Input::ch('k'), 30)
            .chain([Input::ch('Q'), Input::ch('y')])
            .collect();
        let (fe, w) = play(7, 100, 30, script);
        assert_eq!(w.hero().1, 1);
        assert!(w.turns() < 30);
        assert!(fe.frames()[30].contains_text("A wall blocks your way."));
    }

    #[test]
    fn save_text_round_trips_and_rejects_garbage() {
        let mut w = DemoWorld::new(42);
        w.step(Dir::East);
        let back = DemoWorld::from_save_text(&w.save_text()).unwrap();
        assert_eq!((back.hero(), back.turns()), (w.hero(), w.turns()));
        assert_eq!(
            DemoWorld::from_save_text("").err(),
            Some(DemoSaveError::NoHeader)
        );
        assert_eq!(
            DemoWorld::from_save_text("alembic-demo 1\n1 2 3").err(),
            Some(DemoSaveError::Count(3))
        );
        assert_eq!(
            DemoWorld::from_save_text("alembic-demo 1\n1 2 0 0\n").err(),
            Some(DemoSaveError::NotFloor { x: 0, y: 0 })
        );
        assert!(matches!(
            DemoWorld::from_save_text("alembic-demo 1\n1 x 3 3\n"),
            Err(DemoSaveError::BadNumber { .. })
        ));
    }

    #[test]
    fn small_views_keep_the_hero_visible() {
        let (fe, _) = play(3, 30, 8, vec![Input::ch('Q'), Input::ch('y')]);
        assert!(fe.frames()[0].contains_text("@"));
    }
}
