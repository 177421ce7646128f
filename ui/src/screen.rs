//! A stack of screens over a game context, with typed results.
//!
//! In the style of "The Caves of Clojure" part 2: the UI is a stack of [`Screen`]s; every
//! screen from the topmost opaque one upwards is drawn in order, the top screen gets the
//! input, and a screen that finishes *pops* itself with its [`Screen::Output`]. The screen
//! that pushed it chose, when it pushed, how that output reaches it: [`Transition::ask`]
//! maps the output into the asker's own [`Screen::Reply`] (typically an enum variant that
//! also carries what the asker needs to remember, such as which item was being thrown), and
//! [`Screen::on_result`] receives it. So a reusable item list never knows who asked for an
//! item, and a reply can only be of the type its asker expects: there is no untyped value
//! to pair by hand with pending state.
//!
//! Nothing here knows a game rule. The context `C` (typically the game value plus UI state
//! such as the message log) is owned by the [`ScreenStack`] and lent to each screen.
//!
//! Costs: a push allocates the boxed screen (and a small shared slot for its reply); input,
//! ticks and replies are Θ(1) in the stack's depth; rendering draws the screens from the top
//! opaque one up.

use std::cell::Cell as Slot;
use std::rc::Rc;
use std::time::Duration;

use crate::draw::Rect;
use crate::frame::Frame;
use crate::frontend::{App, Control};
use crate::input::Input;

/// One screen of a [`ScreenStack`] over a game context `C`.
///
/// A screen says what it hands back when it pops ([`Screen::Output`]) and what it receives
/// from the screens it asks ([`Screen::Reply`]); [`Transition`]s carry both, checked by the
/// compiler.
///
/// ```
/// use std::convert::Infallible;
/// use alembic_ui::{Confirm, Frame, Input, Rect, Rgb, Screen, ScreenStack, TestFrontend, Transition, run};
///
/// /// Counts key presses; `q` asks before quitting.
/// struct Counter;
///
/// /// What Counter gets back from the screens it asks.
/// enum Reply {
///     Quit(bool),
/// }
///
/// impl Screen<u32> for Counter {
///     type Output = ();
///     type Reply = Reply;
///
///     fn render(&mut self, presses: &u32, frame: &mut Frame, area: Rect) {
///         let text = format!("{presses} presses");
///         frame.put_str(i32::from(area.x), i32::from(area.y), &text, Rgb::WHITE, Rgb::BLACK);
///     }
///
///     fn handle(&mut self, presses: &mut u32, input: Input) -> Transition<u32, Self> {
///         if input == Input::ch('q') {
///             return Transition::ask(Confirm::new("Quit?"), Reply::Quit);
///         }
///         *presses += 1;
///         Transition::Stay
///     }
///
///     fn on_result(&mut self, _: &mut u32, reply: Reply) -> Transition<u32, Self> {
///         match reply {
///             Reply::Quit(true) => Transition::Quit,
///             Reply::Quit(false) => Transition::Stay,
///         }
///     }
/// }
///
/// let keys = [Input::ch('a'), Input::ch('q'), Input::ch('n'), Input::ch('b'), Input::ch('q'), Input::ch('y')];
/// let mut fe = TestFrontend::new(30, 5, keys);
/// let mut app = ScreenStack::new(0, Counter);
/// run(&mut fe, &mut app)?;
/// assert_eq!(*app.ctx(), 2);
/// # let _: Option<Infallible> = None;
/// # Ok::<(), alembic_ui::TestFrontendError>(())
/// ```
pub trait Screen<C>: Sized + 'static {
    /// What this screen hands back to the screen that asked for it when it pops
    /// ([`Transition::Pop`]): `bool` for a yes/no question, `Option<usize>` for a pick from a
    /// list that can be cancelled, `()` for a page that is only closed.
    type Output: 'static;

    /// What this screen receives from the screens it asks ([`Transition::ask`] maps each
    /// one's [`Screen::Output`] into it), in [`Screen::on_result`]. A screen that asks
    /// nothing says [`std::convert::Infallible`].
    type Reply: 'static;

    /// Draw into `area` of `frame`. Screens below an overlay are drawn first. A screen keeps
    /// its own widget state (scroll positions, selections) in its fields and passes it to
    /// the widgets it draws, which may update it (how many rows fit, say).
    fn render(&mut self, ctx: &C, frame: &mut Frame, area: Rect);

    /// React to an input (this screen is on top).
    fn handle(&mut self, ctx: &mut C, input: Input) -> Transition<C, Self>;

    /// A screen this one asked ([`Transition::ask`]) popped; `reply` is its output, mapped as
    /// asked. Default: stay.
    fn on_result(&mut self, ctx: &mut C, reply: Self::Reply) -> Transition<C, Self> {
        let _ = (ctx, reply);
        Transition::Stay
    }

    /// Whether the screens below stay visible under this one (a dialog box) — `false` (the
    /// default) means this screen paints its whole area.
    fn is_overlay(&self) -> bool {
        false
    }

    /// The frontend is closing (window closed, Ctrl-C): last chance to save. Called on every
    /// screen, top first. Default: nothing.
    fn on_quit(&mut self, ctx: &mut C) {
        let _ = ctx;
    }

    /// A short name, for tests and debugging.
    fn name(&self) -> &str {
        "screen"
    }

    /// How long the run loop may wait for input before calling [`Screen::tick`] while this
    /// screen is on top (an animation, a replay playing). Default: `None`, wait for input.
    fn tick_interval(&self) -> Option<Duration> {
        None
    }

    /// [`Screen::tick_interval`] passed without input. Default: stay.
    fn tick(&mut self, ctx: &mut C) -> Transition<C, Self> {
        let _ = ctx;
        Transition::Stay
    }
}

/// What screen `S` wants after an input, a tick or a reply.
///
/// ```
/// use std::convert::Infallible;
/// use alembic_ui::{Frame, Input, ItemList, ListEntry, Rect, Screen, Transition, is_cancel};
///
/// /// Asks for a potion, then remembers which.
/// struct Pick { chosen: Option<String> }
///
/// impl Screen<Vec<String>> for Pick {
///     type Output = Option<String>;
///     /// The index the list popped (None: cancelled).
///     type Reply = Option<usize>;
///
///     fn render(&mut self, _: &Vec<String>, _: &mut Frame, _: Rect) {}
///
///     fn handle(&mut self, potions: &mut Vec<String>, input: Input) -> Transition<Vec<String>, Self> {
///         if is_cancel(&input) {
///             return Transition::Pop(self.chosen.take());
///         }
///         let list = ItemList::new("Which potion?", potions.iter().map(ListEntry::new).collect());
///         // The list's output (Option<usize>) is exactly this screen's Reply.
///         Transition::ask(list, |picked| picked)
///     }
///
///     fn on_result(&mut self, potions: &mut Vec<String>, picked: Option<usize>) -> Transition<Vec<String>, Self> {
///         self.chosen = picked.and_then(|i| potions.get(i).cloned());
///         Transition::Stay
///     }
/// }
/// # let _: Option<Infallible> = None;
/// ```
pub enum Transition<C, S: Screen<C>> {
    /// Stay as is.
    Stay,
    /// Put a new screen on top; it gets the input from now on. Made by [`Transition::push`]
    /// (its output is dropped) or [`Transition::ask`] (its output comes back as a reply).
    Push(Pushed<C, S::Reply>),
    /// Remove this screen and hand its output to the screen that asked for it, if one did.
    /// Popping the last screen ends the app.
    Pop(S::Output),
    /// Swap this screen for another with the same output type, which answers whoever asked
    /// for this one. Made by [`Transition::replace`].
    Replace(Replacement<C, S::Output>),
    /// End the app.
    Quit,
}

/// A screen on its way onto the stack ([`Transition::Push`]): the screen, and where its
/// output goes.
pub struct Pushed<C, R> {
    name: String,
    make: MakeLayer<C, R>,
}

/// A screen taking another's place ([`Transition::Replace`]).
pub struct Replacement<C, O> {
    name: String,
    make: Replace<C, O>,
}

/// Builds the replacing screen given where the replaced one's output was to go.
type Replace<C, O> = Box<dyn FnOnce(Option<ReplyTo<O>>) -> Box<dyn Layer<C>>>;
/// Builds a stacked screen given its asker's inbox.
type MakeLayer<C, R> = Box<dyn FnOnce(&Inbox<R>) -> Box<dyn Layer<C>>>;
/// Where a screen's replies wait until [`Screen::on_result`] takes them.
type Inbox<R> = Rc<Slot<Option<R>>>;
/// Delivers a popped screen's output to its asker.
type ReplyTo<O> = Box<dyn FnOnce(O)>;

impl<C: 'static, S: Screen<C>> Transition<C, S> {
    /// Push `screen`; its output, when it pops, is dropped (a help page, a message log).
    pub fn push<T: Screen<C>>(screen: T) -> Self {
        Transition::Push(Pushed {
            name: screen.name().to_string(),
            make: Box::new(move |_| Box::new(Node::new(screen, None))),
        })
    }

    /// Push `screen` and, when it pops, give its output to this screen's
    /// [`Screen::on_result`] as `reply(output)`. The closure runs once and may carry what
    /// this screen must remember meanwhile (the item being thrown, say).
    pub fn ask<T: Screen<C>>(
        screen: T,
        reply: impl FnOnce(T::Output) -> S::Reply + 'static,
    ) -> Self {
        Transition::Push(Pushed {
            name: screen.name().to_string(),
            make: Box::new(move |inbox: &Inbox<S::Reply>| {
                let inbox = Rc::clone(inbox);
                let to: ReplyTo<T::Output> = Box::new(move |out| inbox.set(Some(reply(out))));
                Box::new(Node::new(screen, Some(to)))
            }),
        })
    }

    /// Swap this screen for `screen`, which has the same output type; the screen below is not
    /// told, and `screen`'s output goes wherever this one's would have.
    pub fn replace<T: Screen<C, Output = S::Output>>(screen: T) -> Self {
        Transition::Replace(Replacement {
            name: screen.name().to_string(),
            make: Box::new(move |to| Box::new(Node::new(screen, to))),
        })
    }
}

impl<C, S: Screen<C>> std::fmt::Debug for Transition<C, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Transition::Stay => f.write_str("Stay"),
            Transition::Push(p) => write!(f, "Push({})", p.name),
            Transition::Pop(_) => f.write_str("Pop(..)"),
            Transition::Replace(r) => write!(f, "Replace({})", r.name),
            Transition::Quit => f.write_str("Quit"),
        }
    }
}

/// A screen as the stack holds it, its types erased.
trait Layer<C> {
    fn render(&mut self, ctx: &C, frame: &mut Frame, area: Rect);
    fn handle(&mut self, ctx: &mut C, input: Input) -> Step<C>;
    fn tick(&mut self, ctx: &mut C) -> Step<C>;
    /// The screen above popped: hand its reply, if any, to [`Screen::on_result`].
    fn resume(&mut self, ctx: &mut C) -> Step<C>;
    fn is_overlay(&self) -> bool;
    fn on_quit(&mut self, ctx: &mut C);
    fn name(&self) -> &str;
    fn tick_interval(&self) -> Option<Duration>;
}

/// A [`Transition`] with its types erased.
enum Step<C> {
    Stay,
    Push(Box<dyn Layer<C>>),
    Pop,
    Replace(Box<dyn Layer<C>>),
    Quit,
}

/// A screen on the stack, where its output goes, and where its replies wait.
struct Node<S, O, R> {
    screen: S,
    reply_to: Option<ReplyTo<O>>,
    inbox: Inbox<R>,
}

impl<S, O, R> Node<S, O, R> {
    fn new(screen: S, reply_to: Option<ReplyTo<O>>) -> Self {
        Node {
            screen,
            reply_to,
            inbox: Rc::new(Slot::new(None)),
        }
    }
}

/// Carry out a transition of a screen whose output goes to `reply_to` and whose replies wait
/// in `inbox`.
fn step<C: 'static, S: Screen<C>>(
    reply_to: &mut Option<ReplyTo<S::Output>>,
    inbox: &Inbox<S::Reply>,
    t: Transition<C, S>,
) -> Step<C> {
    match t {
        Transition::Stay => Step::Stay,
        Transition::Quit => Step::Quit,
        Transition::Push(p) => Step::Push((p.make)(inbox)),
        Transition::Pop(out) => {
            if let Some(to) = reply_to.take() {
                to(out);
            }
            Step::Pop
        }
        Transition::Replace(r) => Step::Replace((r.make)(reply_to.take())),
    }
}

impl<C: 'static, S: Screen<C>> Layer<C> for Node<S, S::Output, S::Reply> {
    fn render(&mut self, ctx: &C, frame: &mut Frame, area: Rect) {
        self.screen.render(ctx, frame, area);
    }

    fn handle(&mut self, ctx: &mut C, input: Input) -> Step<C> {
        let t = self.screen.handle(ctx, input);
        step(&mut self.reply_to, &self.inbox, t)
    }

    fn tick(&mut self, ctx: &mut C) -> Step<C> {
        let t = self.screen.tick(ctx);
        step(&mut self.reply_to, &self.inbox, t)
    }

    fn resume(&mut self, ctx: &mut C) -> Step<C> {
        match self.inbox.take() {
            Some(reply) => {
                let t = self.screen.on_result(ctx, reply);
                step(&mut self.reply_to, &self.inbox, t)
            }
            None => Step::Stay,
        }
    }

    fn is_overlay(&self) -> bool {
        self.screen.is_overlay()
    }

    fn on_quit(&mut self, ctx: &mut C) {
        self.screen.on_quit(ctx);
    }

    fn name(&self) -> &str {
        self.screen.name()
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.screen.tick_interval()
    }
}

/// A stack of screens over a context `C`; implements [`App`], so [`crate::run`] drives it.
///
/// Input goes to the top screen; a popped screen's output goes to the screen that asked for
/// it. An empty stack quits.
///
/// ```
/// use std::convert::Infallible;
/// use alembic_ui::{Frame, Input, Rect, Screen, ScreenStack, TextScreen, Transition};
///
/// struct Root;
/// impl Screen<()> for Root {
///     type Output = ();
///     type Reply = Infallible;
///     fn render(&mut self, _: &(), _: &mut Frame, _: Rect) {}
///     fn handle(&mut self, _: &mut (), input: Input) -> Transition<(), Self> {
///         if input == Input::ch('?') {
///             Transition::push(TextScreen::new("Help", ["Press Esc to close."]))
///         } else {
///             Transition::Pop(())
///         }
///     }
///     fn name(&self) -> &str { "root" }
/// }
///
/// let mut stack = ScreenStack::new((), Root);
/// stack.handle_input(Input::ch('?'));
/// assert_eq!(stack.names(), ["root", "text"]);
/// stack.handle_input(Input::ch('q')); // closes the help page
/// stack.handle_input(Input::ch('x')); // the root pops: the app is over
/// assert!(stack.is_empty());
/// ```
pub struct ScreenStack<C> {
    ctx: C,
    screens: Vec<Box<dyn Layer<C>>>,
    farewell: Option<Farewell<C>>,
    title: Option<Title<C>>,
    grid: Option<Grid<C>>,
    emergency: Option<Emergency<C>>,
}

/// Makes the last-resort save from a stack's context (see
/// [`ScreenStack::with_emergency_save`]).
pub type Emergency<C> = fn(&C) -> Option<crate::EmergencySave>;

/// Reads the window title from a stack's context (see [`ScreenStack::with_title`]).
pub type Title<C> = fn(&C) -> Option<String>;

/// Reads the preferred grid from a stack's context (see [`ScreenStack::with_grid`]).
pub type Grid<C> = fn(&C) -> Option<(u16, u16)>;

/// Reads the farewell line from a stack's context (see [`ScreenStack::with_farewell`]).
pub type Farewell<C> = fn(&C) -> Result<Option<String>, crate::FarewellError>;

impl<C: 'static> ScreenStack<C> {
    /// A stack holding `ctx` with `root` as its only screen (its output is dropped: popping
    /// it ends the app).
    pub fn new(ctx: C, root: impl Screen<C>) -> Self {
        ScreenStack {
            ctx,
            screens: vec![Box::new(Node::new(root, None))],
            farewell: None,
            emergency: None,
            title: None,
            grid: None,
        }
    }

    /// A stack holding `ctx` with `root` at the bottom, then `first` carried out as if
    /// `root` had returned it: to start with a screen over the root that answers it, such as
    /// a game over its start menu (`Transition::ask(play, Reply::GameOver)`).
    pub fn opening<S: Screen<C>>(ctx: C, root: S, first: Transition<C, S>) -> Self {
        let mut node = Node::new(root, None);
        let first = step(&mut node.reply_to, &node.inbox, first);
        let mut stack = ScreenStack {
            ctx,
            screens: vec![Box::new(node)],
            farewell: None,
            emergency: None,
            title: None,
            grid: None,
        };
        let _ = stack.apply(first);
        stack
    }

    /// Answer [`App::title`] from the context with `f` (e.g. the game and the depth).
    #[must_use]
    pub fn with_title(mut self, f: Title<C>) -> Self {
        self.title = Some(f);
        self
    }

    /// Answer [`App::preferred_grid`] from the context with `f` (e.g. the level's size and
    /// the panels beside it, so a window shows the whole level).
    #[must_use]
    pub fn with_grid(mut self, f: Grid<C>) -> Self {
        self.grid = Some(f);
        self
    }

    /// Answer [`App::emergency_save`] from the context with `f` (a closure that saves the
    /// game in play as it stands).
    #[must_use]
    pub fn with_emergency_save(mut self, f: Emergency<C>) -> Self {
        self.emergency = Some(f);
        self
    }

    /// Answer [`App::farewell`] from the context with `f` (e.g. where the game was saved on
    /// close, or why saving failed).
    #[must_use]
    pub fn with_farewell(mut self, f: Farewell<C>) -> Self {
        self.farewell = Some(f);
        self
    }

    /// The context.
    #[must_use]
    pub fn ctx(&self) -> &C {
        &self.ctx
    }

    /// The context, mutably.
    pub fn ctx_mut(&mut self) -> &mut C {
        &mut self.ctx
    }

    /// Take the context out, dropping the screens.
    pub fn into_ctx(self) -> C {
        self.ctx
    }

    /// Push a screen on top; its output is dropped when it pops.
    pub fn push(&mut self, screen: impl Screen<C>) {
        self.screens.push(Box::new(Node::new(screen, None)));
    }

    /// How many screens are stacked.
    #[must_use]
    pub fn len(&self) -> usize {
        self.screens.len()
    }

    /// Whether no screen is left (the app has ended).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.screens.is_empty()
    }

    /// The names of the screens, bottom first.
    #[must_use]
    pub fn names(&self) -> Vec<&str> {
        self.screens.iter().map(|s| s.name()).collect()
    }

    /// Give one input to the top screen and carry out the transitions that follow.
    pub fn handle_input(&mut self, input: Input) -> Control {
        if let Input::Quit = input {
            for s in self.screens.iter_mut().rev() {
                s.on_quit(&mut self.ctx);
            }
            return Control::Quit;
        }
        let Some(top) = self.screens.last_mut() else {
            return Control::Quit;
        };
        let step = top.handle(&mut self.ctx, input);
        self.apply(step)
    }

    /// Carry out a step of the top screen, and the replies it sets off.
    fn apply(&mut self, step: Step<C>) -> Control {
        let mut step = step;
        loop {
            match step {
                Step::Stay => return Control::Continue,
                Step::Quit => return Control::Quit,
                Step::Push(s) => {
                    self.screens.push(s);
                    return Control::Continue;
                }
                Step::Replace(s) => {
                    self.screens.pop();
                    self.screens.push(s);
                    return Control::Continue;
                }
                Step::Pop => {
                    self.screens.pop();
                    match self.screens.last_mut() {
                        None => return Control::Quit,
                        Some(below) => step = below.resume(&mut self.ctx),
                    }
                }
            }
        }
    }

    /// Draw the visible screens into `frame`.
    pub fn render_into(&mut self, frame: &mut Frame) {
        let area = Rect::of_frame(frame);
        let start = self
            .screens
            .iter()
            .rposition(|s| !s.is_overlay())
            .unwrap_or(0);
        for s in &mut self.screens[start..] {
            s.render(&self.ctx, frame, area);
        }
    }
}

impl<C: 'static> App for ScreenStack<C> {
    fn render(&mut self, frame: &mut Frame) {
        self.render_into(frame);
    }

    fn handle(&mut self, input: Input) -> Control {
        self.handle_input(input)
    }

    fn tick_interval(&self) -> Option<Duration> {
        self.screens.last().and_then(|s| s.tick_interval())
    }

    fn tick(&mut self) -> Control {
        let Some(top) = self.screens.last_mut() else {
            return Control::Quit;
        };
        let step = top.tick(&mut self.ctx);
        self.apply(step)
    }

    fn farewell(&self) -> Result<Option<String>, crate::FarewellError> {
        self.farewell.map_or(Ok(None), |f| f(&self.ctx))
    }

    fn title(&self) -> Option<String> {
        self.title.and_then(|f| f(&self.ctx))
    }

    fn preferred_grid(&self) -> Option<(u16, u16)> {
        self.grid.and_then(|f| f(&self.ctx))
    }

    fn emergency_save(&self) -> Option<crate::EmergencySave> {
        self.emergency.and_then(|f| f(&self.ctx))
    }
}
