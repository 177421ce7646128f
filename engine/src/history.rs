//! `History`: a timeline of values and the commands between them — undo, redo, jumps, named
//! branches, and a memory budget that thins old states into keyframes.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::fmt;
use std::mem;

/// How much of a [`History`] is kept whole.
///
/// The newest `max_entries` states are always kept. Older states are kept only at
/// *keyframes* — indices that are multiples of `keyframe_every` — and the ones in between are
/// rebuilt on demand by replaying the kept commands from the keyframe before them (see
/// [`History::jump_to_with`]). Commands are always kept.
///
/// ```
/// use alembic::history::Budget;
/// let b = Budget::new(1_000, 50);
/// assert_eq!(b.max_entries, Some(1_000));
/// assert_eq!(Budget::default(), Budget::UNLIMITED);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Budget {
    /// How many of the newest states are kept whole; `None` keeps every state. At least one
    /// (the newest) is always kept, so `Some(0)` acts as `Some(1)`.
    pub max_entries: Option<usize>,
    /// Older states are kept at every index that is a multiple of this (0 acts as 1).
    pub keyframe_every: usize,
}

impl Budget {
    /// Keep every state: nothing is ever rebuilt.
    pub const UNLIMITED: Budget = Budget {
        max_entries: None,
        keyframe_every: 1,
    };

    /// Keep the newest `max_entries` states, and every `keyframe_every`-th state before them.
    #[must_use]
    pub const fn new(max_entries: usize, keyframe_every: usize) -> Self {
        Budget {
            max_entries: Some(max_entries),
            keyframe_every,
        }
    }

    /// The tail length, at least 1, or `None` when unlimited.
    fn tail(self) -> Option<usize> {
        self.max_entries.map(|m| m.max(1))
    }

    /// The keyframe interval, at least 1.
    fn every(self) -> usize {
        self.keyframe_every.max(1)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::UNLIMITED
    }
}

/// Why a [`History`] call was refused. A refused call changes nothing.
///
/// `E` is the caller's step error, carried by [`HistoryError::Rebuild`]; calls that never
/// rebuild use the default, [`Infallible`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryError<E = Infallible> {
    /// The index is past the end of the timeline.
    #[error("index {index} is past the end of the timeline (last index {len})")]
    OutOfRange {
        /// The index asked for.
        index: usize,
        /// The last valid index ([`History::len`]).
        len: usize,
    },
    /// The state was thinned by the [`Budget`]; use the `_with` form to rebuild it.
    #[error("state {index} was thinned and must be rebuilt with a step function")]
    Thinned {
        /// The thinned index.
        index: usize,
    },
    /// No branch of that name.
    #[error("no branch named {0:?}")]
    NoSuchBranch(String),
    /// A branch of that name already exists.
    #[error("a branch named {0:?} already exists")]
    BranchExists(String),
    /// [`History::branch`] was called with no redo future to keep.
    #[error("there is no redo future to keep as a branch")]
    NothingToBranch,
    /// The caller's step function refused a command while rebuilding a thinned state.
    #[error("rebuilding state {index} failed: {error}")]
    Rebuild {
        /// The index of the state that could not be built.
        index: usize,
        /// The step function's error.
        error: E,
    },
    /// A broken internal rule, found by [`History::check_invariants`] (an engine bug).
    #[error("history invariant broken: {0}")]
    Inconsistent(&'static str),
}

impl HistoryError<Infallible> {
    /// The same error, typed for a caller whose step function fails with `E`.
    fn widen<E>(self) -> HistoryError<E> {
        match self {
            HistoryError::OutOfRange { index, len } => HistoryError::OutOfRange { index, len },
            HistoryError::Thinned { index } => HistoryError::Thinned { index },
            HistoryError::NoSuchBranch(n) => HistoryError::NoSuchBranch(n),
            HistoryError::BranchExists(n) => HistoryError::BranchExists(n),
            HistoryError::NothingToBranch => HistoryError::NothingToBranch,
            HistoryError::Inconsistent(m) => HistoryError::Inconsistent(m),
            HistoryError::Rebuild { error, .. } => match error {},
        }
    }
}

/// A kept alternative future: the states after `fork` and the commands that led to them.
#[derive(Clone)]
struct Line<S, C> {
    /// The main-line index this future starts from.
    fork: usize,
    /// `states[j]` is the state at index `fork + 1 + j`; `None` where thinned.
    states: Vec<Option<S>>,
    /// `commands[j]` led from index `fork + j` to `fork + 1 + j`.
    commands: Vec<C>,
}

/// A named branch, as listed by [`History::branches`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BranchInfo<'a> {
    /// Its name.
    pub name: &'a str,
    /// The main-line index it starts from.
    pub fork: usize,
    /// How many commands it holds after the fork.
    pub len: usize,
}

/// A timeline of values of `S` and the commands of type `C` that led from each to the next:
/// undo, redo, jumps, named branches and a memory [`Budget`].
///
/// Index 0 is the initial state; [`push`](History::push) appends a command and the state it
/// led to, so the timeline holds [`len`](History::len) commands and `len + 1` states. The
/// [`position`](History::position) is the index of the [`current`](History::current) state;
/// the states after it are the *redo future*. Pushing after an undo drops that future — or
/// the caller first keeps it as a named [`branch`](History::branch), and can
/// [`switch_to_branch`](History::switch_to_branch) back to it later.
///
/// `S` is any `Clone` value; [`Game`](crate::Game) is the main case, and because a game is
/// persistent the timeline retains only what changed between turns.
///
/// # Costs
/// With `n` commands, `K` the [`Budget::keyframe_every`] and `c` the cost of cloning an `S`
/// (Θ(1) for a `Game`):
/// - [`push`](History::push): Θ(1) amortised, plus Θ(dropped future) after an undo, plus
///   Θ(c · commands) for each branch that forked inside the dropped future;
/// - [`undo`](History::undo), [`redo`](History::redo), [`jump_to`](History::jump_to) to a
///   kept state: Θ(1) — the state is moved, not cloned. Every state is kept under
///   [`Budget::UNLIMITED`]; under a budget, the newest `max_entries`, the keyframes, and the
///   states of the last rebuilt keyframe interval are;
/// - the `_with` forms to a thinned state: Θ(K) steps and clones (one keyframe interval
///   is rebuilt and kept, so moving within it afterwards is Θ(1));
/// - [`current`](History::current), [`len`](History::len), [`position`](History::position),
///   [`commands`](History::commands): Θ(1);
/// - [`branch`](History::branch): Θ(future + log branches);
///   [`switch_to_branch`](History::switch_to_branch): Θ(both futures + log branches);
/// - [`check_invariants`](History::check_invariants): Θ(n + branches' lengths).
///
/// ```
/// use alembic::history::History;
/// let step = |s: &u64, c: &u64| -> Result<u64, String> { Ok(s * 31 + c) };
/// let mut h = History::new(1u64);
/// h.push(2, step(h.current(), &2)?);
/// h.push(3, step(h.current(), &3)?);
/// assert_eq!(h.undo(), Some(&33));
/// assert_eq!(h.commands(), &[2]); // the commands up to the current state
/// h.branch("first try")?;         // keep the undone future...
/// h.push(9, step(h.current(), &9)?); // ...and play another
/// assert_eq!(h.current(), &1032);
/// h.switch_to_branch("first try")?;
/// assert_eq!(h.current(), &1026);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// `History` is `#[must_use]`; a timeline made and dropped is a warning (an error here):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use alembic::history::History;
/// History::<u32, u8>::new(0); // nothing keeps it
/// ```
#[derive(Clone)]
#[must_use = "a persistent value: a method that returns one leaves the original unchanged"]
pub struct History<S, C> {
    /// `states[i]` is the state at index `i`, `None` where thinned — and always `None` at
    /// `pos`, whose state lives in `cur` (so moving is a swap, never a clone).
    states: Vec<Option<S>>,
    /// `commands[i]` led from index `i` to `i + 1`.
    commands: Vec<C>,
    /// The current index.
    pos: usize,
    /// The current state.
    cur: S,
    budget: Budget,
    /// Below this index every kept state is a keyframe or in the rebuilt interval.
    thinned_to: usize,
    /// The first index of the last rebuilt keyframe interval, whose states are kept.
    interval: Option<usize>,
    branches: BTreeMap<String, Line<S, C>>,
    /// At most this many undos are kept: older states and commands are forgotten.
    undo_depth: Option<usize>,
    /// Indices whose state was changed in place ([`History::current_mut`]): a rebuild from
    /// an older state would not see that change, so they are never thinned.
    pinned: BTreeSet<usize>,
}

impl<S: fmt::Debug, C: fmt::Debug> fmt::Debug for History<S, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("History")
            .field("len", &self.commands.len())
            .field("position", &self.pos)
            .field("current", &self.cur)
            .field(
                "kept",
                &(1 + self.states.iter().filter(|s| s.is_some()).count()),
            )
            .field("budget", &self.budget)
            .field("branches", &self.branches.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl<S: Clone, C: Clone> History<S, C> {
    /// A timeline holding only `initial`, keeping every state. Θ(1).
    pub fn new(initial: S) -> Self {
        Self::with_budget(initial, Budget::UNLIMITED)
    }

    /// A timeline holding only `initial`, thinned by `budget`. Θ(1).
    pub fn with_budget(initial: S, budget: Budget) -> Self {
        History {
            states: vec![None],
            commands: Vec::new(),
            pos: 0,
            cur: initial,
            budget,
            thinned_to: 0,
            interval: None,
            branches: BTreeMap::new(),
            undo_depth: None,
            pinned: BTreeSet::new(),
        }
    }

    /// A timeline that keeps at most `depth` undos, every one of them whole: pushing past
    /// that forgets the oldest state and command, so index 0 is the oldest state still kept,
    /// and memory is bounded by `depth + 1` states plus the redo future. The undo stack of a
    /// game that wants "the last 20 moves" rather than a memory [`Budget`]. Θ(1).
    ///
    /// ```
    /// use alembic::history::History;
    /// let mut h = History::with_undo_depth(0u32, 2);
    /// for n in 1..=5 {
    ///     h.push(n, n * 10);
    /// }
    /// assert_eq!((h.len(), h.commands()), (2, &[4, 5][..]));
    /// assert_eq!(h.undo(), Some(&40));
    /// assert_eq!(h.undo(), Some(&30));
    /// assert_eq!(h.undo(), None); // 20 was forgotten
    /// ```
    pub fn with_undo_depth(initial: S, depth: usize) -> Self {
        History {
            undo_depth: Some(depth),
            ..Self::new(initial)
        }
    }

    /// The undo depth given to [`with_undo_depth`](History::with_undo_depth), if any.
    #[must_use]
    pub fn undo_depth(&self) -> Option<usize> {
        self.undo_depth
    }

    /// The current state, to change in place for something that takes no turn (a renamed
    /// hero, a toggled option), so the timeline stays the game's one source of truth. No
    /// command is recorded: undoing past it undoes it, and the state is kept whole from now
    /// on (a budget never thins it, since rebuilding it from an older state would lose the
    /// change). Θ(1).
    ///
    /// ```
    /// use alembic::history::History;
    /// let mut h = History::new(String::from("a"));
    /// h.push('b', "ab".into());
    /// h.current_mut().push('!'); // no turn taken
    /// assert_eq!((h.current().as_str(), h.len()), ("ab!", 1));
    /// assert_eq!(h.undo().map(String::as_str), Some("a"));
    /// assert_eq!(h.redo().map(String::as_str), Some("ab!"));
    /// ```
    pub fn current_mut(&mut self) -> &mut S {
        self.pinned.insert(self.pos);
        &mut self.cur
    }

    /// Replace the current state without recording a command (see
    /// [`current_mut`](History::current_mut)); returns the old one. Θ(1).
    pub fn replace_current(&mut self, state: S) -> S {
        self.pinned.insert(self.pos);
        mem::replace(&mut self.cur, state)
    }

    /// The budget this timeline was made with. Θ(1).
    #[must_use]
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// The current state. Θ(1).
    #[must_use]
    pub fn current(&self) -> &S {
        &self.cur
    }

    /// The number of commands in the timeline, redo future included; the states are indexed
    /// `0..=len()`. Θ(1).
    #[must_use]
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// Whether the timeline holds no command (only the initial state). Θ(1).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// The index of the current state, in `0..=len()`. Θ(1).
    #[must_use]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The commands from the initial state to the current one: replaying them from the
    /// initial state gives the current state (e.g. to write a shortened replay after an
    /// undo). Θ(1).
    #[must_use]
    pub fn commands(&self) -> &[C] {
        self.commands.get(..self.pos).unwrap_or(&[])
    }

    /// The commands of the redo future, in order. Θ(1).
    #[must_use]
    pub fn future_commands(&self) -> &[C] {
        self.commands.get(self.pos..).unwrap_or(&[])
    }

    /// The state at `index` if it is kept (the current one always is). Θ(1).
    #[must_use]
    pub fn get(&self, index: usize) -> Option<&S> {
        if index == self.pos {
            Some(&self.cur)
        } else {
            self.states.get(index).and_then(Option::as_ref)
        }
    }

    /// Whether the state at `index` is kept, so moving to it is Θ(1) without rebuilding. Θ(1).
    #[must_use]
    pub fn is_kept(&self, index: usize) -> bool {
        self.get(index).is_some()
    }

    /// How many states are kept whole, the current one included (the memory the budget
    /// bounds). Θ(n).
    #[must_use]
    pub fn kept_count(&self) -> usize {
        1 + self.states.iter().filter(|s| s.is_some()).count()
    }

    /// Each index in `0..=len()` with its state (`None` where thinned) and the command that
    /// led to it (`None` for the initial state), oldest first. Θ(1) per item. To get every
    /// state, rebuilding the thinned ones, use [`states_with`](History::states_with).
    pub fn iter(
        &self,
    ) -> impl DoubleEndedIterator<Item = (usize, Option<&S>, Option<&C>)> + ExactSizeIterator + '_
    {
        (0..self.len() + 1).map(move |i| {
            let command = i.checked_sub(1).and_then(|p| self.commands.get(p));
            (i, self.get(i), command)
        })
    }

    /// Every state in `0..=len()`, oldest first: kept ones cloned, thinned ones rebuilt by
    /// `step` from the state before. Θ(c) per kept item, Θ(step) per thinned one; the
    /// timeline is not changed. Stops after the first error.
    pub fn states_with<'h, E>(
        &'h self,
        mut step: impl FnMut(&S, &C) -> Result<S, E> + 'h,
    ) -> impl Iterator<Item = Result<S, HistoryError<E>>> + 'h {
        let mut prev: Option<S> = None;
        let mut failed = false;
        (0..=self.len()).map_while(move |i| {
            if failed {
                return None;
            }
            let next = match (self.get(i), &prev, i.checked_sub(1)) {
                (Some(s), _, _) => Ok(s.clone()),
                (None, Some(p), Some(c)) => match self.commands.get(c) {
                    Some(cmd) => {
                        step(p, cmd).map_err(|error| HistoryError::Rebuild { index: i, error })
                    }
                    None => Err(HistoryError::Inconsistent("a state has no command")),
                },
                _ => Err(HistoryError::Inconsistent("the initial state is not kept")),
            };
            match &next {
                Ok(s) => prev = Some(s.clone()),
                Err(_) => failed = true,
            }
            Some(next)
        })
    }

    /// Append `command` and the state `next` it led to, and make `next` current. Any redo
    /// future is dropped (keep it first with [`branch`](History::branch)); branches that
    /// forked inside it are re-rooted at the current state. Θ(1) amortised, plus the
    /// dropped future.
    pub fn push(&mut self, command: C, next: S) {
        let future = self.cut_future();
        self.reroot_branches(&future);
        let old = mem::replace(&mut self.cur, next);
        if let Some(slot) = self.states.get_mut(self.pos) {
            *slot = Some(old);
        }
        self.states.push(None);
        self.commands.push(command);
        self.pos = self.commands.len();
        self.thin();
        self.forget_past_depth();
    }

    /// Step back one state if it is kept; `None` (and no change) at the start or when the
    /// previous state was thinned — then use [`undo_with`](History::undo_with). Θ(1).
    pub fn undo(&mut self) -> Option<&S> {
        let to = self.pos.checked_sub(1)?;
        self.move_to(to).ok()
    }

    /// Step forward one state along the redo future if it is kept; `None` (and no change) at
    /// the end or when the next state was thinned — then use
    /// [`redo_with`](History::redo_with). Θ(1).
    pub fn redo(&mut self) -> Option<&S> {
        if self.pos >= self.len() {
            return None;
        }
        self.move_to(self.pos + 1).ok()
    }

    /// Move to the kept state at `index`. Θ(1).
    ///
    /// # Errors
    /// [`HistoryError::OutOfRange`] past `len()`, [`HistoryError::Thinned`] for a thinned
    /// state (use [`jump_to_with`](History::jump_to_with)). Nothing changes on error.
    pub fn jump_to(&mut self, index: usize) -> Result<&S, HistoryError> {
        self.move_to(index)
    }

    /// [`undo`](History::undo), rebuilding the previous state with `step` if it was thinned.
    /// `Ok(None)` at the start. Θ(1) if kept, else Θ(K) steps.
    ///
    /// # Errors
    /// [`HistoryError::Rebuild`] if `step` refuses a command; nothing changes then.
    pub fn undo_with<E>(
        &mut self,
        step: impl FnMut(&S, &C) -> Result<S, E>,
    ) -> Result<Option<&S>, HistoryError<E>> {
        match self.pos.checked_sub(1) {
            None => Ok(None),
            Some(to) => self.jump_to_with(to, step).map(Some),
        }
    }

    /// [`redo`](History::redo), rebuilding the next state with `step` if it was thinned.
    /// `Ok(None)` at the end. Θ(1) if kept, else one step.
    ///
    /// # Errors
    /// [`HistoryError::Rebuild`] if `step` refuses the command; nothing changes then.
    pub fn redo_with<E>(
        &mut self,
        step: impl FnMut(&S, &C) -> Result<S, E>,
    ) -> Result<Option<&S>, HistoryError<E>> {
        if self.pos >= self.len() {
            return Ok(None);
        }
        self.jump_to_with(self.pos + 1, step).map(Some)
    }

    /// Move to the state at `index`, rebuilding it if it was thinned by replaying the kept
    /// commands with `step` from the nearest kept state before it. The rebuilt states from
    /// the keyframe before `index` up to it stay kept (and the interval kept before is
    /// thinned again), so undo within it is Θ(1) and redo one step. Θ(1) if kept, else Θ(K) steps and clones.
    ///
    /// # Errors
    /// [`HistoryError::OutOfRange`] past `len()`; [`HistoryError::Rebuild`] with the index
    /// of the state `step` could not build. Nothing changes on error.
    pub fn jump_to_with<E>(
        &mut self,
        index: usize,
        mut step: impl FnMut(&S, &C) -> Result<S, E>,
    ) -> Result<&S, HistoryError<E>> {
        if index > self.len() {
            return Err(HistoryError::OutOfRange {
                index,
                len: self.len(),
            });
        }
        if self.is_kept(index) {
            return self.move_to(index).map_err(HistoryError::widen);
        }
        // The nearest kept state before `index` (index 0 and the current state always are).
        let base =
            (0..index)
                .rev()
                .find(|&i| self.is_kept(i))
                .ok_or(HistoryError::Inconsistent(
                    "no kept state before a thinned one",
                ))?;
        let k = self.budget.every();
        let lo = index - index % k;
        let mut state = self
            .get(base)
            .cloned()
            .ok_or(HistoryError::Inconsistent("a kept state vanished"))?;
        let mut built = Vec::new();
        for i in base..index {
            let cmd = self
                .commands
                .get(i)
                .ok_or(HistoryError::Inconsistent("a state has no command"))?;
            state = step(&state, cmd).map_err(|error| HistoryError::Rebuild {
                index: i + 1,
                error,
            })?;
            if i + 1 > lo && i + 1 < index {
                built.push((i + 1, state.clone()));
            }
        }
        // Commit: move there, thin the interval kept before, keep this one.
        let old = mem::replace(&mut self.cur, state);
        if let Some(slot) = self.states.get_mut(self.pos) {
            *slot = Some(old);
        }
        self.pos = index;
        if let Some(slot) = self.states.get_mut(index) {
            *slot = None;
        }
        if self.interval != Some(lo) {
            if let Some(old_lo) = self.interval {
                for i in old_lo + 1..old_lo + k {
                    if i < self.thinned_to
                        && i != self.pos
                        && !self.pinned.contains(&i)
                        && let Some(slot) = self.states.get_mut(i)
                    {
                        *slot = None;
                    }
                }
            }
            self.interval = Some(lo);
        }
        for (i, s) in built {
            if let Some(slot @ None) = self.states.get_mut(i) {
                *slot = Some(s);
            }
        }
        Ok(&self.cur)
    }

    /// Keep the redo future as a branch called `name`, and drop it from the main line, so
    /// the next [`push`](History::push) starts a new future. Θ(future + log branches).
    ///
    /// # Errors
    /// [`HistoryError::NothingToBranch`] when there is no redo future,
    /// [`HistoryError::BranchExists`] when the name is taken. Nothing changes on error.
    pub fn branch(&mut self, name: impl Into<String>) -> Result<(), HistoryError> {
        let name = name.into();
        if self.pos >= self.len() {
            return Err(HistoryError::NothingToBranch);
        }
        if self.branches.contains_key(&name) {
            return Err(HistoryError::BranchExists(name));
        }
        let future = self.cut_future();
        self.reroot_branches(&future);
        self.branches.insert(name, future);
        Ok(())
    }

    /// The kept branches, by name. Θ(1) per item.
    pub fn branches(&self) -> impl ExactSizeIterator<Item = BranchInfo<'_>> + '_ {
        self.branches.iter().map(|(name, l)| BranchInfo {
            name,
            fork: l.fork,
            len: l.commands.len(),
        })
    }

    /// Drop the branch called `name`; whether there was one. Θ(log branches).
    pub fn drop_branch(&mut self, name: &str) -> bool {
        self.branches.remove(name).is_some()
    }

    /// Make branch `name` the main line's future after its fork, and move to its last state.
    /// The two futures trade places: the main line's future after the fork (if any) is kept
    /// as the branch `name`, so switching to `name` again comes back. Branches that forked
    /// inside the displaced future are re-rooted at the fork. Θ(both futures + log branches).
    ///
    /// # Errors
    /// [`HistoryError::NoSuchBranch`]. Nothing changes on error.
    pub fn switch_to_branch(&mut self, name: &str) -> Result<&S, HistoryError> {
        match self.branches.get(name) {
            None => return Err(HistoryError::NoSuchBranch(name.to_owned())),
            Some(l) if l.fork > self.len() || !matches!(l.states.last(), Some(Some(_))) => {
                return Err(HistoryError::Inconsistent("a branch has no kept tip"));
            }
            Some(_) => {}
        }
        let Some((mut line, tip)) = self.branches.remove(name).and_then(|mut l| {
            let tip = l.states.last_mut().and_then(Option::take)?;
            Some((l, tip))
        }) else {
            return Err(HistoryError::Inconsistent("a branch has no kept tip"));
        };
        let old = mem::replace(&mut self.cur, tip);
        if let Some(slot) = self.states.get_mut(self.pos) {
            *slot = Some(old);
        }
        // Cut the main line at the fork; what is cut becomes the branch `name`.
        self.pos = line.fork;
        let future = self.cut_future();
        self.reroot_branches(&future);
        if !future.commands.is_empty() {
            self.branches.insert(name.to_owned(), future);
        }
        self.states.append(&mut line.states);
        self.commands.append(&mut line.commands);
        self.pos = self.commands.len();
        self.thin();
        self.forget_past_depth();
        Ok(&self.cur)
    }

    /// Check the timeline's internal rules: the lengths agree, the current and newest states
    /// and every keyframe are kept, older states are thinned as the budget says, and each
    /// branch is non-empty with a kept last state and a fork on the main line. Θ(n +
    /// branches' lengths).
    ///
    /// # Errors
    /// [`HistoryError::Inconsistent`] naming the broken rule.
    pub fn check_invariants(&self) -> Result<(), HistoryError> {
        let bad = |m| Err(HistoryError::Inconsistent(m));
        if self.states.len() != self.commands.len() + 1 {
            return bad("states and commands disagree in length");
        }
        if self.pos > self.len() {
            return bad("the position is past the end");
        }
        if !matches!(self.states.get(self.pos), Some(None)) {
            return bad("the current state is also stored in the timeline");
        }
        if !self.is_kept(self.len()) {
            return bad("the newest state is not kept");
        }
        if self.thinned_to > self.tail_start() {
            return bad("the thinned part reaches into the kept tail");
        }
        let k = self.budget.every();
        let in_interval = |i: usize| self.interval.is_some_and(|lo| i > lo && i < lo + k);
        for i in 0..self.states.len() {
            let kept = self.is_kept(i);
            if !kept
                && (self.budget.tail().is_none() || i.is_multiple_of(k) || self.pinned.contains(&i))
            {
                return bad("a state that must be kept was dropped");
            }
            if kept
                && i < self.thinned_to
                && !i.is_multiple_of(k)
                && !in_interval(i)
                && !self.pinned.contains(&i)
                && i != self.pos
            {
                return bad("an old state outside the keyframes was kept");
            }
        }
        if self.undo_depth.is_some_and(|d| self.pos > d) {
            return bad("more undos are kept than the undo depth allows");
        }
        if self.pinned.last().is_some_and(|&p| p > self.len()) {
            return bad("a state changed in place lies past the end");
        }
        if let Some(m) = self.budget.tail() {
            let bound = m + self.len() / k + 1 + k + self.pinned.len();
            if self.kept_count() > bound {
                return bad("more states are kept than the budget allows");
            }
        }
        for l in self.branches.values() {
            if l.commands.is_empty() || l.states.len() != l.commands.len() {
                return bad("a branch is empty or its lengths disagree");
            }
            if l.fork > self.len() {
                return bad("a branch forks past the end of the main line");
            }
            if !matches!(l.states.last(), Some(Some(_))) {
                return bad("a branch's last state is not kept");
            }
            for (j, s) in l.states.iter().enumerate() {
                if s.is_none()
                    && (self.budget.tail().is_none() || (l.fork + 1 + j).is_multiple_of(k))
                {
                    return bad("a branch dropped a state that must be kept");
                }
            }
        }
        Ok(())
    }

    // ----- internals ---------------------------------------------------------------------

    /// Move to the kept state at `index`: a swap, Θ(1).
    fn move_to(&mut self, index: usize) -> Result<&S, HistoryError> {
        if index > self.len() {
            return Err(HistoryError::OutOfRange {
                index,
                len: self.len(),
            });
        }
        if index != self.pos {
            let Some(next) = self.states.get_mut(index).and_then(Option::take) else {
                return Err(HistoryError::Thinned { index });
            };
            let old = mem::replace(&mut self.cur, next);
            if let Some(slot) = self.states.get_mut(self.pos) {
                *slot = Some(old);
            }
            self.pos = index;
        }
        Ok(&self.cur)
    }

    /// Under an undo depth, forget the states and commands more than that many undos back.
    fn forget_past_depth(&mut self) {
        let Some(depth) = self.undo_depth else { return };
        let k = self.pos.saturating_sub(depth);
        if k == 0 {
            return;
        }
        self.states.drain(..k);
        self.commands.drain(..k);
        self.pos -= k;
        self.thinned_to = self.thinned_to.saturating_sub(k);
        self.interval = None;
        self.pinned = self
            .pinned
            .iter()
            .filter_map(|&i| i.checked_sub(k))
            .collect();
        self.branches.retain(|_, l| l.fork >= k);
        for l in self.branches.values_mut() {
            l.fork -= k;
        }
    }

    /// Remove the redo future from the main line and return it as a line forking here.
    fn cut_future(&mut self) -> Line<S, C> {
        let pos = self.pos;
        self.pinned.retain(|&i| i <= pos);
        let states = self.states.split_off(self.pos + 1);
        let commands = self.commands.split_off(self.pos);
        self.thinned_to = self.thinned_to.min(self.tail_start());
        Line {
            fork: self.pos,
            states,
            commands,
        }
    }

    /// Branches that forked inside `cut` (just removed from the main line after
    /// `cut.fork`) now fork at `cut.fork`, with the part of `cut` they build on prepended.
    fn reroot_branches(&mut self, cut: &Line<S, C>) {
        for l in self.branches.values_mut() {
            if l.fork > cut.fork {
                let n = l.fork - cut.fork;
                let mut states: Vec<Option<S>> = cut.states.iter().take(n).cloned().collect();
                let mut commands: Vec<C> = cut.commands.iter().take(n).cloned().collect();
                states.append(&mut l.states);
                commands.append(&mut l.commands);
                *l = Line {
                    fork: cut.fork,
                    states,
                    commands,
                };
            }
        }
    }

    /// The first index of the kept tail: the newest `max_entries` states.
    fn tail_start(&self) -> usize {
        self.budget
            .tail()
            .map_or(0, |m| self.states.len().saturating_sub(m))
    }

    /// Drop the states that left the kept tail, except keyframes and the rebuilt interval.
    /// Amortised Θ(1) per push.
    fn thin(&mut self) {
        if self.budget.tail().is_none() {
            return;
        }
        let k = self.budget.every();
        let tail_start = self.tail_start();
        while self.thinned_to < tail_start {
            let i = self.thinned_to;
            let in_interval = self.interval.is_some_and(|lo| i > lo && i < lo + k);
            if !i.is_multiple_of(k)
                && !in_interval
                && !self.pinned.contains(&i)
                && let Some(slot) = self.states.get_mut(i)
            {
                *slot = None;
            }
            self.thinned_to += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(s: &u64, c: &u64) -> Result<u64, String> {
        if *c == 999 {
            Err("refused".into())
        } else {
            Ok(s.wrapping_mul(31).wrapping_add(*c))
        }
    }

    fn grown(budget: Budget, n: u64) -> History<u64, u64> {
        let mut h = History::with_budget(0, budget);
        for c in 1..=n {
            let next = step(h.current(), &c).unwrap();
            h.push(c, next);
            h.check_invariants().unwrap();
        }
        h
    }

    #[test]
    fn thinning_keeps_the_tail_and_keyframes() {
        let h = grown(Budget::new(4, 5), 30);
        for i in 0..=30 {
            assert_eq!(h.is_kept(i), i >= 27 || i % 5 == 0, "index {i}");
        }
        assert_eq!(h.kept_count(), 4 + 6);
    }

    #[test]
    fn a_rebuilt_interval_stays_kept_until_another_is_rebuilt() {
        let mut h = grown(Budget::new(2, 10), 40);
        let want = *grown(Budget::UNLIMITED, 13).current();
        assert_eq!(h.jump_to_with(13, step), Ok(&want));
        assert!((10..=13).all(|i| h.is_kept(i)) && !h.is_kept(14));
        assert!(h.undo().is_some() && h.undo().is_some() && h.redo().is_some());
        assert!(
            h.redo().is_some() && h.redo().is_none(),
            "14 is still thinned"
        );
        assert_eq!(h.position(), 13);
        h.redo_with(step).unwrap();
        assert!(h.is_kept(13) && h.is_kept(14));
        h.jump_to_with(25, step).unwrap();
        assert!(!h.is_kept(13) && h.is_kept(24) && h.is_kept(21));
        h.check_invariants().unwrap();
    }

    #[test]
    fn a_refused_rebuild_changes_nothing() {
        let mut h: History<u64, u64> = History::with_budget(0, Budget::new(1, 4));
        for c in [1, 2, 999, 3, 4, 5, 6] {
            h.push(c, 7); // the caller's states need not come from `step`
        }
        assert!(!h.is_kept(3));
        let before = (h.position(), *h.current(), h.kept_count());
        assert_eq!(
            h.jump_to_with(3, step),
            Err(HistoryError::Rebuild {
                index: 3,
                error: "refused".into()
            })
        );
        assert_eq!((h.position(), *h.current(), h.kept_count()), before);
        h.check_invariants().unwrap();
    }

    #[test]
    fn errors_read_as_one_line() {
        let e: HistoryError<String> = HistoryError::Rebuild {
            index: 3,
            error: "wall".into(),
        };
        assert_eq!(e.to_string(), "rebuilding state 3 failed: wall");
        let o: HistoryError = HistoryError::OutOfRange { index: 9, len: 4 };
        assert_eq!(
            o.to_string(),
            "index 9 is past the end of the timeline (last index 4)"
        );
    }
}
