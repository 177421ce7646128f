//! Wizard mode: a typed console command set that any game registers into.
//!
//! A game builds one [`WizardCommands<G>`] (`G` is whatever its commands read: usually the
//! [`Game`](crate::Game) value itself) by registering commands, each with a name, a one-line
//! help, typed parameters ([`WizardSpec`]) and a handler. A console then hands it the lines
//! the player types:
//!
//! - [`WizardCommands::run`] parses, checks every argument against its type, and calls the
//!   handler, which returns a [`WizardOutcome`]: the **new** state (the old one is
//!   unchanged; with persistent values this is cheap) and lines of text to show.
//! - [`WizardCommands::complete`] offers completions for a partly typed line: command names,
//!   then words for word parameters (the game supplies the words at call time, e.g. its
//!   prototype names).
//! - [`WizardCommands::help`] lists every command with its usage.
//!
//! Every mistake is a [`WizardError`] whose `Display` is one line fit for a status bar;
//! nothing here panics on any input, performs I/O or keeps global state.
//!
//! ```
//! use alembic::wizard::{WizardCommands, WizardError, WizardOutcome, WizardSpec};
//!
//! // A toy game: the state is just a number.
//! let cmds = WizardCommands::<i64>::new()
//!     .register(WizardSpec::new("add", "Add N to the counter.").int("n", -100, 100), |s, a| {
//!         let n = a.int("n")?;
//!         Ok(WizardOutcome::new(s + n).line(format!("Now {}.", s + n)))
//!     })?
//!     .register(
//!         WizardSpec::new("pick", "Pick a colour.").word("colour", |_: &i64| {
//!             vec!["red".to_string(), "green".to_string()]
//!         }),
//!         |s, a| Ok(WizardOutcome::new(*s).line(format!("You picked {}.", a.word("colour")?))),
//!     )?;
//!
//! let out = cmds.run(&1, "add 41")?;
//! assert_eq!(out.state, 42);
//! assert_eq!(out.lines, ["Now 42."]);
//! assert!(matches!(cmds.run(&1, "add 1000"), Err(WizardError::OutOfRange { .. })));
//! assert_eq!(cmds.run(&1, "ad 1").unwrap_err().to_string(),
//!            "Unknown command \"ad\". Did you mean \"add\"?");
//! assert_eq!(cmds.complete(&0, "pick g"), ["pick green"]);
//! # Ok::<(), WizardError>(())
//! ```

use std::fmt;
use std::sync::Arc;

/// The longest piece of the player's input echoed back in an error message (in characters).
const ECHO_MAX: usize = 40;
/// Most suggestions an error offers.
const MAX_SUGGESTIONS: usize = 5;
/// Words longer than this are not compared by edit distance (it is quadratic).
const EDIT_MAX: usize = 64;

/// Why a wizard command line was not run. `Display` gives one line of plain English.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WizardError {
    /// The line was blank.
    Empty,
    /// No command has this name.
    UnknownCommand {
        /// The name typed.
        name: String,
        /// The nearest command name, if any is close.
        suggestion: Option<String>,
    },
    /// A required argument was not given.
    MissingArgument {
        /// The command.
        command: String,
        /// The parameter's name.
        param: String,
        /// The command's usage ("depth N").
        usage: String,
    },
    /// More arguments than the command takes.
    TooManyArguments {
        /// The command.
        command: String,
        /// The first argument too many.
        extra: String,
        /// The command's usage.
        usage: String,
    },
    /// An integer parameter got something that is not an integer.
    BadNumber {
        /// The parameter's name.
        param: String,
        /// What was typed.
        text: String,
    },
    /// An integer parameter got a number outside its range.
    OutOfRange {
        /// The parameter's name.
        param: String,
        /// The number typed.
        value: i64,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A word parameter got a word that is not in its list.
    UnknownWord {
        /// The parameter's name.
        param: String,
        /// What was typed.
        word: String,
        /// Close words from the list (at most a few).
        suggestions: Vec<String>,
    },
    /// The game refused the command (a rule, or a state it cannot act on).
    Refused(String),
    /// A command was registered wrongly (a bug in the game, found at registration).
    BadDefinition {
        /// The command.
        command: String,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for WizardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WizardError::Empty => write!(f, "Type a command; \"help\" lists them."),
            WizardError::UnknownCommand { name, suggestion } => {
                write!(f, "Unknown command \"{}\".", echo(name))?;
                match suggestion {
                    Some(s) => write!(f, " Did you mean \"{}\"?", echo(s)),
                    None => write!(f, " Type \"help\" for a list."),
                }
            }
            WizardError::MissingArgument {
                command,
                param,
                usage,
            } => write!(
                f,
                "{}: missing {}. Usage: {}",
                echo(command),
                echo(param),
                echo(usage)
            ),
            WizardError::TooManyArguments {
                command,
                extra,
                usage,
            } => write!(
                f,
                "{}: unexpected \"{}\". Usage: {}",
                echo(command),
                echo(extra),
                echo(usage)
            ),
            WizardError::BadNumber { param, text } => {
                write!(
                    f,
                    "{} must be a number, not \"{}\".",
                    echo(param),
                    echo(text)
                )
            }
            WizardError::OutOfRange {
                param,
                value,
                min,
                max,
            } => write!(f, "{} must be {min} to {max}, not {value}.", echo(param)),
            WizardError::UnknownWord {
                param,
                word,
                suggestions,
            } => {
                write!(f, "Unknown {} \"{}\".", echo(param), echo(word))?;
                if !suggestions.is_empty() {
                    let list: Vec<String> = suggestions.iter().map(|s| echo(s)).collect();
                    write!(f, " Did you mean: {}?", list.join(", "))?;
                }
                Ok(())
            }
            WizardError::Refused(why) => f.write_str(&echo_long(why)),
            WizardError::BadDefinition { command, reason } => write!(
                f,
                "Bad wizard command definition \"{}\": {}",
                echo(command),
                echo_long(reason)
            ),
        }
    }
}

impl std::error::Error for WizardError {}

/// `s` made safe for a one-line message: control characters become `?`, and long input is cut.
fn echo(s: &str) -> String {
    clean(s, ECHO_MAX)
}

/// Like [`echo`], for the game's own sentences (longer limit).
fn echo_long(s: &str) -> String {
    clean(s, 200)
}

fn clean(s: &str, max: usize) -> String {
    let mut out: String = s
        .chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// The words a word parameter accepts, computed from the state when needed.
pub type WordsFn<G> = Arc<dyn Fn(&G) -> Vec<String> + Send + Sync>;

/// A command's handler: the state and the checked arguments give an outcome or an error.
pub type HandlerFn<G> =
    Arc<dyn Fn(&G, &Args) -> Result<WizardOutcome<G>, WizardError> + Send + Sync>;

/// The type of a command parameter.
#[non_exhaustive]
pub enum ParamKind<G> {
    /// An integer in `min..=max`.
    Int {
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// One word from a list the game supplies at call time (compared ignoring case). As the
    /// last parameter it takes the rest of the line, so words may hold spaces
    /// ("potion of healing").
    Word(WordsFn<G>),
    /// Free text: the rest of the line (only as the last parameter).
    Text,
}

impl<G> Clone for ParamKind<G> {
    fn clone(&self) -> Self {
        match self {
            ParamKind::Int { min, max } => ParamKind::Int {
                min: *min,
                max: *max,
            },
            ParamKind::Word(w) => ParamKind::Word(Arc::clone(w)),
            ParamKind::Text => ParamKind::Text,
        }
    }
}

impl<G> fmt::Debug for ParamKind<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamKind::Int { min, max } => write!(f, "Int({min}..={max})"),
            ParamKind::Word(_) => f.write_str("Word"),
            ParamKind::Text => f.write_str("Text"),
        }
    }
}

/// One parameter of a command.
pub struct Param<G> {
    name: String,
    kind: ParamKind<G>,
    optional: bool,
}

impl<G> Param<G> {
    /// The parameter's name ("n", "name").
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its type.
    #[must_use]
    pub fn kind(&self) -> &ParamKind<G> {
        &self.kind
    }

    /// Whether it may be left out.
    #[must_use]
    pub fn is_optional(&self) -> bool {
        self.optional
    }

    fn usage(&self) -> String {
        let n = self.name.to_uppercase();
        let body = match &self.kind {
            ParamKind::Int { min, max } => format!("{n}({min}..{max})"),
            ParamKind::Word(_) => n,
            ParamKind::Text => format!("{n}..."),
        };
        if self.optional {
            format!("[{body}]")
        } else {
            body
        }
    }
}

impl<G> Clone for Param<G> {
    fn clone(&self) -> Self {
        Param {
            name: self.name.clone(),
            kind: self.kind.clone(),
            optional: self.optional,
        }
    }
}

impl<G> fmt::Debug for Param<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Param")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("optional", &self.optional)
            .finish()
    }
}

/// The description of a command: name, one-line help and parameters, built step by step.
///
/// ```
/// use alembic::wizard::WizardSpec;
/// let spec = WizardSpec::<()>::new("props", "Show a thing's properties.")
///     .optional()
///     .int("dx", -9, 9)
///     .int("dy", -9, 9);
/// assert_eq!(spec.usage(), "props [DX(-9..9)] [DY(-9..9)]");
/// ```
pub struct WizardSpec<G> {
    name: String,
    help: String,
    params: Vec<Param<G>>,
    optional: bool,
}

impl<G> WizardSpec<G> {
    /// A command called `name` (one word, matched ignoring case) described by `help`.
    #[must_use]
    pub fn new(name: &str, help: &str) -> Self {
        WizardSpec {
            name: name.to_string(),
            help: help.to_string(),
            params: Vec::new(),
            optional: false,
        }
    }

    /// Parameters added after this one may be left out (trailing ones first).
    #[must_use]
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }

    /// An integer parameter in `min..=max`.
    #[must_use]
    pub fn int(self, name: &str, min: i64, max: i64) -> Self {
        self.param(name, ParamKind::Int { min, max })
    }

    /// A parameter taking one word of those `words` lists for the state at hand.
    #[must_use]
    pub fn word(
        self,
        name: &str,
        words: impl Fn(&G) -> Vec<String> + Send + Sync + 'static,
    ) -> Self {
        self.param(name, ParamKind::Word(Arc::new(words)))
    }

    /// A free-text parameter: the rest of the line (must be the last).
    #[must_use]
    pub fn text(self, name: &str) -> Self {
        self.param(name, ParamKind::Text)
    }

    /// A parameter of any kind.
    #[must_use]
    pub fn param(mut self, name: &str, kind: ParamKind<G>) -> Self {
        self.params.push(Param {
            name: name.to_string(),
            kind,
            optional: self.optional,
        });
        self
    }

    /// The command's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The one-line help.
    #[must_use]
    pub fn help(&self) -> &str {
        &self.help
    }

    /// The parameters in order.
    #[must_use]
    pub fn params(&self) -> &[Param<G>] {
        &self.params
    }

    /// How to type the command: `depth N(1..11)`, `summon NAME`, `props [DX] [DY]`.
    #[must_use]
    pub fn usage(&self) -> String {
        let mut s = self.name.clone();
        for p in &self.params {
            s.push(' ');
            s.push_str(&p.usage());
        }
        s
    }

    fn check(&self) -> Result<(), String> {
        if self.name.is_empty()
            || self
                .name
                .chars()
                .any(|c| c.is_whitespace() || c.is_control())
        {
            return Err("the name must be one word".into());
        }
        if self.help.contains(['\n', '\r']) {
            return Err("the help must be one line".into());
        }
        let mut seen_optional = false;
        for (i, p) in self.params.iter().enumerate() {
            if p.name.is_empty() || p.name.chars().any(char::is_whitespace) {
                return Err(format!("parameter {} needs a one-word name", i + 1));
            }
            if self.params[..i].iter().any(|q| q.name == p.name) {
                return Err(format!("parameter \"{}\" appears twice", p.name));
            }
            if seen_optional && !p.optional {
                return Err(format!(
                    "required parameter \"{}\" follows an optional one",
                    p.name
                ));
            }
            seen_optional |= p.optional;
            match &p.kind {
                ParamKind::Int { min, max } if min > max => {
                    return Err(format!("parameter \"{}\": empty range", p.name));
                }
                ParamKind::Text if i + 1 != self.params.len() => {
                    return Err(format!("text parameter \"{}\" must be last", p.name));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

impl<G> Clone for WizardSpec<G> {
    fn clone(&self) -> Self {
        WizardSpec {
            name: self.name.clone(),
            help: self.help.clone(),
            params: self.params.clone(),
            optional: self.optional,
        }
    }
}

impl<G> fmt::Debug for WizardSpec<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WizardSpec")
            .field("name", &self.name)
            .field("help", &self.help)
            .field("params", &self.params)
            .finish()
    }
}

/// One parsed argument value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// An integer, already checked against its range.
    Int(i64),
    /// A word from the parameter's list, spelled as the list spells it.
    Word(String),
    /// Free text, whitespace runs collapsed to single spaces.
    Text(String),
}

/// The checked arguments of one command line, read by parameter name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Args {
    command: String,
    usage: String,
    values: Vec<(String, Arg)>,
}

impl Args {
    /// The command's name (as registered).
    #[must_use]
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The argument given for parameter `name`, if any.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Whether an argument was given for parameter `name`.
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// How many arguments were given.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no argument was given.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    fn missing(&self, name: &str) -> WizardError {
        WizardError::MissingArgument {
            command: self.command.clone(),
            param: name.to_uppercase(),
            usage: if self.usage.is_empty() {
                self.command.clone()
            } else {
                self.usage.clone()
            },
        }
    }

    /// The integer given for `name`; [`WizardError::MissingArgument`] if none was.
    pub fn int(&self, name: &str) -> Result<i64, WizardError> {
        self.opt_int(name).ok_or_else(|| self.missing(name))
    }

    /// The integer given for `name`, if any.
    #[must_use]
    pub fn opt_int(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(Arg::Int(n)) => Some(*n),
            _ => None,
        }
    }

    /// The word or text given for `name`; [`WizardError::MissingArgument`] if none was.
    pub fn word(&self, name: &str) -> Result<&str, WizardError> {
        self.opt_word(name).ok_or_else(|| self.missing(name))
    }

    /// The word or text given for `name`, if any.
    #[must_use]
    pub fn opt_word(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Arg::Word(w) | Arg::Text(w)) => Some(w),
            _ => None,
        }
    }
}

/// What a command did: the new state and lines to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WizardOutcome<G> {
    /// The state after the command (the state passed in is never changed).
    pub state: G,
    /// Lines to show the player, in order.
    pub lines: Vec<String>,
}

impl<G> WizardOutcome<G> {
    /// An outcome with state `state` and no text.
    #[must_use]
    pub fn new(state: G) -> Self {
        WizardOutcome {
            state,
            lines: Vec::new(),
        }
    }

    /// With one more line of text.
    #[must_use]
    pub fn line(mut self, text: impl Into<String>) -> Self {
        self.lines.push(text.into());
        self
    }

    /// With more lines of text.
    #[must_use]
    pub fn lines(mut self, text: impl IntoIterator<Item = String>) -> Self {
        self.lines.extend(text);
        self
    }
}

/// A registered command: its spec and handler.
struct Entry<G> {
    spec: WizardSpec<G>,
    handler: HandlerFn<G>,
}

impl<G> Clone for Entry<G> {
    fn clone(&self) -> Self {
        Entry {
            spec: self.spec.clone(),
            handler: Arc::clone(&self.handler),
        }
    }
}

/// A game's wizard commands: register them once, then [`run`](Self::run) lines against any
/// state. Cloning is cheap (handlers are shared). The name `help` is built in: it lists the
/// commands, or with a name, one command's usage.
pub struct WizardCommands<G> {
    entries: Vec<Entry<G>>,
}

impl<G> Clone for WizardCommands<G> {
    fn clone(&self) -> Self {
        WizardCommands {
            entries: self.entries.clone(),
        }
    }
}

impl<G> fmt::Debug for WizardCommands<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| e.spec.usage()))
            .finish()
    }
}

impl<G> Default for WizardCommands<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// The built-in command that lists the others.
const HELP: &str = "help";

impl<G> WizardCommands<G> {
    /// No commands yet (only the built-in `help`).
    #[must_use]
    pub fn new() -> Self {
        WizardCommands {
            entries: Vec::new(),
        }
    }

    /// With command `spec` handled by `handler`. Fails with [`WizardError::BadDefinition`]
    /// for a name already taken (or `help`), a name that is not one word, a required
    /// parameter after an optional one, an empty integer range or text that is not last.
    pub fn register(
        mut self,
        spec: WizardSpec<G>,
        handler: impl Fn(&G, &Args) -> Result<WizardOutcome<G>, WizardError> + Send + Sync + 'static,
    ) -> Result<Self, WizardError> {
        let bad = |reason: String| WizardError::BadDefinition {
            command: spec.name.clone(),
            reason,
        };
        spec.check().map_err(bad)?;
        if spec.name.eq_ignore_ascii_case(HELP) || self.find(&spec.name).is_some() {
            return Err(bad("the name is already taken".into()));
        }
        self.entries.push(Entry {
            spec,
            handler: Arc::new(handler),
        });
        Ok(self)
    }

    /// The registered commands' specs, in registration order.
    pub fn specs(&self) -> impl Iterator<Item = &WizardSpec<G>> {
        self.entries.iter().map(|e| &e.spec)
    }

    /// The command names, in registration order, `help` last.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.entries.iter().map(|e| e.spec.name.clone()).collect();
        v.push(HELP.to_string());
        v
    }

    fn find(&self, name: &str) -> Option<&Entry<G>> {
        self.entries
            .iter()
            .find(|e| e.spec.name.eq_ignore_ascii_case(name))
    }

    /// One line per command: its usage and help, `help` first.
    #[must_use]
    pub fn help(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{HELP} [COMMAND] - List the commands, or show one command's usage."
        )];
        lines.extend(
            self.entries
                .iter()
                .map(|e| format!("{} - {}", e.spec.usage(), e.spec.help)),
        );
        lines
    }

    /// The usage of command `name` ("depth N(1..11)"), if there is one.
    #[must_use]
    pub fn usage(&self, name: &str) -> Option<String> {
        if name.eq_ignore_ascii_case(HELP) {
            return Some(format!("{HELP} [COMMAND]"));
        }
        self.find(name).map(|e| e.spec.usage())
    }

    fn unknown_command(&self, name: &str) -> WizardError {
        WizardError::UnknownCommand {
            name: name.to_string(),
            suggestion: suggest(name, &self.names(), 1).into_iter().next(),
        }
    }

    /// Parse `line` into a command name and checked arguments, without running it. Word
    /// arguments are checked against the lists for `state`.
    pub fn parse<'a>(&'a self, state: &G, line: &str) -> Result<(&'a str, Args), WizardError> {
        let (name, rest) = split_word(line);
        if name.is_empty() {
            return Err(WizardError::Empty);
        }
        if name.eq_ignore_ascii_case(HELP) {
            let mut args = Args {
                command: HELP.to_string(),
                usage: format!("{HELP} [COMMAND]"),
                values: Vec::new(),
            };
            let topic = rest.split_whitespace().collect::<Vec<_>>().join(" ");
            if !topic.is_empty() {
                args.values.push(("command".to_string(), Arg::Word(topic)));
            }
            return Ok((HELP, args));
        }
        let entry = self.find(name).ok_or_else(|| self.unknown_command(name))?;
        let spec = &entry.spec;
        let mut args = Args {
            command: spec.name.clone(),
            usage: spec.usage(),
            values: Vec::new(),
        };
        let mut rest = rest;
        let n = spec.params.len();
        for (i, p) in spec.params.iter().enumerate() {
            let last = i + 1 == n;
            let takes_rest = last && !matches!(p.kind, ParamKind::Int { .. });
            let (token, after) = if takes_rest {
                (collapse(rest), "")
            } else {
                let (t, a) = split_word(rest);
                (t.to_string(), a)
            };
            rest = after;
            if token.is_empty() {
                if p.optional {
                    break;
                }
                return Err(WizardError::MissingArgument {
                    command: spec.name.clone(),
                    param: p.name.to_uppercase(),
                    usage: spec.usage(),
                });
            }
            let value = match &p.kind {
                ParamKind::Int { min, max } => {
                    let v = token.parse::<i64>().map_err(|_| WizardError::BadNumber {
                        param: p.name.to_uppercase(),
                        text: token.clone(),
                    })?;
                    if v < *min || v > *max {
                        return Err(WizardError::OutOfRange {
                            param: p.name.to_uppercase(),
                            value: v,
                            min: *min,
                            max: *max,
                        });
                    }
                    Arg::Int(v)
                }
                ParamKind::Word(words) => {
                    let list = words(state);
                    match list.iter().find(|w| w.eq_ignore_ascii_case(&token)) {
                        Some(w) => Arg::Word(w.clone()),
                        None => {
                            return Err(WizardError::UnknownWord {
                                param: p.name.to_lowercase(),
                                suggestions: suggest(&token, &list, MAX_SUGGESTIONS),
                                word: token,
                            });
                        }
                    }
                }
                ParamKind::Text => Arg::Text(token),
            };
            args.values.push((p.name.clone(), value));
        }
        let (extra, _) = split_word(rest);
        if !extra.is_empty() {
            return Err(WizardError::TooManyArguments {
                command: spec.name.clone(),
                extra: extra.to_string(),
                usage: spec.usage(),
            });
        }
        Ok((&spec.name, args))
    }

    /// Parse `line` and run it against `state`: the handler's outcome, or why not. `help`
    /// answers with the state unchanged.
    pub fn run(&self, state: &G, line: &str) -> Result<WizardOutcome<G>, WizardError>
    where
        G: Clone,
    {
        let (name, args) = self.parse(state, line)?;
        if name == HELP {
            let lines = match args.opt_word("command") {
                None => self.help(),
                Some(topic) => {
                    let e = self.find(topic);
                    match (self.usage(topic), e) {
                        (Some(u), Some(e)) => vec![format!("{u} - {}", e.spec.help)],
                        (Some(u), None) => vec![u],
                        (None, _) => return Err(self.unknown_command(topic)),
                    }
                }
            };
            return Ok(WizardOutcome::new(state.clone()).lines(lines));
        }
        let entry = self.find(name).ok_or_else(|| self.unknown_command(name))?;
        (entry.handler)(state, &args)
    }

    /// Completions of the partly typed `line`, sorted, each the whole line as it would read
    /// once completed (so a console can replace its input by a single candidate, or list
    /// several). While the command name is typed: the names starting with it (a trailing
    /// space when the command takes parameters). Then, for a word parameter, the words for
    /// `state` starting with what is typed (ignoring case). Otherwise nothing.
    #[must_use]
    pub fn complete(&self, state: &G, line: &str) -> Vec<String> {
        let start = line.trim_start();
        let (name, rest) = split_word(start);
        let typing_name = !start.contains(char::is_whitespace);
        if typing_name {
            let mut out: Vec<String> = self
                .names()
                .into_iter()
                .filter(|n| starts_with_ignore_case(n, name))
                .map(|n| {
                    let takes =
                        self.find(&n).is_some_and(|e| !e.spec.params.is_empty()) || n == HELP;
                    if takes { format!("{n} ") } else { n }
                })
                .collect();
            out.sort();
            return out;
        }
        if name.eq_ignore_ascii_case(HELP) {
            let partial = collapse(rest);
            let mut out: Vec<String> = self
                .names()
                .into_iter()
                .filter(|n| n != HELP && starts_with_ignore_case(n, &partial))
                .map(|n| format!("{HELP} {n}"))
                .collect();
            out.sort();
            return out;
        }
        let Some(entry) = self.find(name) else {
            return Vec::new();
        };
        let spec = &entry.spec;
        // Which parameter is being typed: earlier parameters take one word each.
        let mut done: Vec<String> = Vec::new();
        let mut rest = rest;
        let n = spec.params.len();
        for (i, p) in spec.params.iter().enumerate() {
            let last = i + 1 == n;
            let takes_rest = last && !matches!(p.kind, ParamKind::Int { .. });
            let (word, after) = split_word(rest);
            // The parameter being typed: the last word (no whitespace after it), or the
            // rest of the line for a parameter that takes it.
            let current = takes_rest || after.is_empty() && !rest.ends_with(char::is_whitespace);
            if current || word.is_empty() {
                let partial = if takes_rest {
                    collapse(rest)
                } else {
                    word.to_string()
                };
                let ParamKind::Word(words) = &p.kind else {
                    return Vec::new();
                };
                let head = std::iter::once(spec.name.clone())
                    .chain(done)
                    .collect::<Vec<_>>()
                    .join(" ");
                let mut out: Vec<String> = words(state)
                    .into_iter()
                    .filter(|w| starts_with_ignore_case(w, &partial))
                    .map(|w| format!("{head} {w}"))
                    .collect();
                out.sort();
                out.dedup();
                return out;
            }
            done.push(word.to_string());
            rest = after;
        }
        Vec::new()
    }
}

/// The first whitespace-separated word of `s` and what follows it (leading whitespace of
/// the remainder kept, so a caller can tell whether the word was finished).
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    }
}

/// `s` with runs of whitespace as single spaces, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn starts_with_ignore_case(word: &str, prefix: &str) -> bool {
    let mut w = word.chars().flat_map(char::to_lowercase);
    prefix
        .chars()
        .flat_map(char::to_lowercase)
        .all(|p| w.next() == Some(p))
}

/// Up to `max` words of `list` close to `typed`: first those that start with it or contain
/// it (ignoring case), then those within a small edit distance, nearest first.
fn suggest(typed: &str, list: &[String], max: usize) -> Vec<String> {
    let t = typed.to_lowercase();
    if t.is_empty() || max == 0 {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &String)> = Vec::new();
    for w in list {
        let lw = w.to_lowercase();
        let score = if lw.starts_with(&t) {
            Some(0)
        } else if lw.contains(&t) {
            Some(1)
        } else {
            let limit = (t.chars().count() / 3).clamp(1, 3);
            edit_distance(&t, &lw)
                .filter(|&d| d <= limit)
                .map(|d| d + 1)
        };
        if let Some(s) = score {
            scored.push((s, w));
        }
    }
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    let mut out: Vec<String> = Vec::new();
    for (_, w) in scored {
        if !out.contains(w) {
            out.push(w.clone());
        }
        if out.len() == max {
            break;
        }
    }
    out
}

/// Levenshtein distance in characters, or `None` for words too long to compare cheaply.
fn edit_distance(a: &str, b: &str) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > EDIT_MAX || b.len() > EDIT_MAX {
        return None;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A toy game: a counter and a list of names.
    #[derive(Clone, Debug, PartialEq)]
    struct Toy {
        n: i64,
        names: Vec<String>,
    }

    fn toy() -> Toy {
        Toy {
            n: 0,
            names: vec![
                "rat".into(),
                "giant rat".into(),
                "potion of healing".into(),
                "potion of fire".into(),
            ],
        }
    }

    fn cmds() -> WizardCommands<Toy> {
        WizardCommands::new()
            .register(
                WizardSpec::new("hash", "Show the counter."),
                |s: &Toy, _| Ok(WizardOutcome::new(s.clone()).line(format!("n = {}", s.n))),
            )
            .and_then(|c| {
                c.register(
                    WizardSpec::new("depth", "Go to depth N.").int("n", 1, 11),
                    |s: &Toy, a| {
                        let mut t = s.clone();
                        t.n = a.int("n")?;
                        Ok(WizardOutcome::new(t))
                    },
                )
            })
            .and_then(|c| {
                c.register(
                    WizardSpec::new("summon", "Summon a thing.")
                        .word("name", |s: &Toy| s.names.clone()),
                    |s: &Toy, a| {
                        let mut t = s.clone();
                        t.names.push(a.word("name")?.to_string());
                        Ok(WizardOutcome::new(t))
                    },
                )
            })
            .and_then(|c| {
                c.register(
                    WizardSpec::new("props", "Show properties.")
                        .optional()
                        .int("dx", -5, 5)
                        .int("dy", -5, 5),
                    |s: &Toy, a| {
                        let line = format!("{:?} {:?}", a.opt_int("dx"), a.opt_int("dy"));
                        Ok(WizardOutcome::new(s.clone()).line(line))
                    },
                )
            })
            .and_then(|c| {
                c.register(
                    WizardSpec::new("give", "Give a thing, N times.")
                        .word("name", |s: &Toy| s.names.clone())
                        .optional()
                        .int("count", 1, 9),
                    |s: &Toy, a| {
                        let line =
                            format!("{} x{}", a.word("name")?, a.opt_int("count").unwrap_or(1));
                        Ok(WizardOutcome::new(s.clone()).line(line))
                    },
                )
            })
            .and_then(|c| {
                c.register(WizardSpec::new("say", "Say text.").text("text"), |s: &Toy, a| {
                    Ok(WizardOutcome::new(s.clone()).line(a.word("text")?.to_string()))
                })
            })
            .and_then(|c| {
                c.register(WizardSpec::new("no", "Always refused."), |_: &Toy, _| {
                    Err(WizardError::Refused("Not now.".into()))
                })
            })
            .expect("the test commands are well defined")
    }

    #[test]
    fn runs_commands_and_leaves_the_old_state_alone() {
        let c = cmds();
        let s = toy();
        let out = c.run(&s, "  DEPTH   7 ").expect("runs");
        assert_eq!(out.state.n, 7);
        assert_eq!(s.n, 0);
        let out = c.run(&s, "summon Potion   of healing").expect("runs");
        assert_eq!(
            out.state.names.last().map(String::as_str),
            Some("potion of healing")
        );
        assert_eq!(
            c.run(&s, "say  hello   world ").expect("runs").lines,
            ["hello world"]
        );
        assert_eq!(c.run(&s, "hash").expect("runs").lines, ["n = 0"]);
    }

    #[test]
    fn optional_parameters() {
        let c = cmds();
        let s = toy();
        assert_eq!(c.run(&s, "props").expect("runs").lines, ["None None"]);
        assert_eq!(c.run(&s, "props 1").expect("runs").lines, ["Some(1) None"]);
        assert_eq!(
            c.run(&s, "props -1 2").expect("runs").lines,
            ["Some(-1) Some(2)"]
        );
        assert_eq!(c.run(&s, "give rat 3").expect("runs").lines, ["rat x3"]);
        assert!(matches!(
            c.run(&s, "props 1 2 3"),
            Err(WizardError::TooManyArguments { .. })
        ));
    }

    #[test]
    fn errors_are_clear() {
        let c = cmds();
        let s = toy();
        assert_eq!(c.run(&s, "   "), Err(WizardError::Empty));
        assert_eq!(
            c.run(&s, "hsh"),
            Err(WizardError::UnknownCommand {
                name: "hsh".into(),
                suggestion: Some("hash".into())
            })
        );
        assert_eq!(
            c.run(&s, "xyzzy").map_err(|e| e.to_string()),
            Err("Unknown command \"xyzzy\". Type \"help\" for a list.".to_string())
        );
        assert_eq!(
            c.run(&s, "depth 12").map_err(|e| e.to_string()),
            Err("N must be 1 to 11, not 12.".to_string())
        );
        assert_eq!(
            c.run(&s, "depth x").map_err(|e| e.to_string()),
            Err("N must be a number, not \"x\".".to_string())
        );
        assert_eq!(
            c.run(&s, "depth").map_err(|e| e.to_string()),
            Err("depth: missing N. Usage: depth N(1..11)".to_string())
        );
        assert!(matches!(
            c.run(&s, "depth 99999999999999999999999"),
            Err(WizardError::BadNumber { .. })
        ));
        assert!(matches!(
            c.run(&s, "hash now"),
            Err(WizardError::TooManyArguments { .. })
        ));
        let Err(WizardError::UnknownWord { suggestions, .. }) = c.run(&s, "summon ratt") else {
            panic!("expected an unknown word");
        };
        assert_eq!(suggestions, ["rat"]);
        let Err(e) = c.run(&s, "summon potion") else {
            panic!("expected an unknown word");
        };
        assert_eq!(
            e.to_string(),
            "Unknown name \"potion\". Did you mean: potion of fire, potion of healing?"
        );
        assert_eq!(
            c.run(&s, "no"),
            Err(WizardError::Refused("Not now.".into()))
        );
    }

    #[test]
    fn help_lists_every_command() {
        let c = cmds();
        let h = c.help();
        assert_eq!(h.len(), c.names().len());
        assert!(h.iter().any(|l| l == "depth N(1..11) - Go to depth N."));
        assert!(
            h.iter()
                .any(|l| l.starts_with("props [DX(-5..5)] [DY(-5..5)]"))
        );
        let s = toy();
        assert_eq!(c.run(&s, "help").expect("runs").lines, h);
        assert_eq!(
            c.run(&s, "help depth").expect("runs").lines,
            ["depth N(1..11) - Go to depth N."]
        );
        assert!(matches!(
            c.run(&s, "help dpth"),
            Err(WizardError::UnknownCommand { .. })
        ));
    }

    #[test]
    fn completion() {
        let c = cmds();
        let s = toy();
        assert_eq!(
            c.complete(&s, ""),
            [
                "depth ", "give ", "hash", "help ", "no", "props ", "say ", "summon "
            ]
        );
        assert_eq!(c.complete(&s, "h"), ["hash", "help "]);
        assert_eq!(c.complete(&s, "su"), ["summon "]);
        assert_eq!(
            c.complete(&s, "summon "),
            [
                "summon giant rat",
                "summon potion of fire",
                "summon potion of healing",
                "summon rat"
            ]
        );
        assert_eq!(
            c.complete(&s, "summon POTION  of"),
            ["summon potion of fire", "summon potion of healing"]
        );
        assert_eq!(c.complete(&s, "give r"), ["give rat"]);
        assert!(c.complete(&s, "give rat ").is_empty());
        assert!(c.complete(&s, "depth ").is_empty());
        assert!(c.complete(&s, "nothing ").is_empty());
        assert_eq!(c.complete(&s, "help d"), ["help depth"]);
    }

    #[test]
    fn bad_definitions_are_refused() {
        let ok = |_: &(), _: &Args| Ok(WizardOutcome::new(()));
        let c = WizardCommands::<()>::new();
        let bad = |r: Result<WizardCommands<()>, WizardError>| {
            matches!(r, Err(WizardError::BadDefinition { .. }))
        };
        assert!(bad(c
            .clone()
            .register(WizardSpec::new("two words", ""), ok)));
        assert!(bad(c.clone().register(WizardSpec::new("", ""), ok)));
        assert!(bad(c.clone().register(WizardSpec::new("help", ""), ok)));
        assert!(bad(c
            .clone()
            .register(WizardSpec::new("x", "").int("n", 2, 1), ok)));
        assert!(bad(c.clone().register(
            WizardSpec::new("x", "").text("t").int("n", 1, 2),
            ok
        )));
        assert!(bad(c.clone().register(
            WizardSpec::new("x", "")
                .optional()
                .int("a", 1, 2)
                .required_for_test(),
            ok
        )));
        assert!(bad(c.clone().register(
            WizardSpec::new("x", "").int("a", 1, 2).int("a", 1, 2),
            ok
        )));
        let one = c.register(WizardSpec::new("x", ""), ok).expect("fine");
        assert!(bad(one.register(WizardSpec::new("X", ""), ok)));
    }

    impl<G> WizardSpec<G> {
        /// A required parameter, even after `optional()` (to test the check).
        fn required_for_test(mut self) -> Self {
            self.params.push(Param {
                name: "b".into(),
                kind: ParamKind::Int { min: 0, max: 1 },
                optional: false,
            });
            self
        }
    }

    #[test]
    fn suggestions() {
        let list: Vec<String> = ["dragon", "rat", "giant rat", "goblin"]
            .map(String::from)
            .to_vec();
        assert_eq!(suggest("drgon", &list, 5), ["dragon"]);
        assert_eq!(suggest("rat", &list, 5), ["rat", "giant rat"]);
        assert!(suggest("zzzzzz", &list, 5).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), Some(3));
    }

    /// The number of cases: `quick`, or `PROPTEST_CASES` when set.
    fn cases(quick: u32) -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(quick)
    }

    fn line() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            Just("depth".to_string()),
            Just("summon".to_string()),
            Just("props".to_string()),
            Just("give".to_string()),
            Just("help".to_string()),
            Just("say".to_string()),
            Just("potion".to_string()),
            Just("rat".to_string()),
            "-?[0-9]{1,22}",
            "\\PC{0,12}",
            ".{0,6}",
        ];
        prop::collection::vec((word, "[ \t\n\u{3000}]{0,2}"), 0..6).prop_map(|v| {
            v.into_iter()
                .map(|(w, sep)| w + &sep + " ")
                .collect::<String>()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(256)))]

        /// Any line: parsing, running and completing never panic, errors are one line, and
        /// completions start with the command typed.
        #[test]
        fn never_panics(l in line(), cut in 0usize..64) {
            let c = cmds();
            let s = toy();
            let parsed = c.parse(&s, &l);
            let ran = c.run(&s, &l);
            if parsed.is_err() {
                prop_assert_eq!(parsed.err(), ran.as_ref().err().cloned());
            }
            if let Err(e) = ran {
                let text = e.to_string();
                prop_assert!(!text.contains('\n') && !text.contains('\r'), "{:?}", text);
                prop_assert!(!text.is_empty());
            }
            let prefix: String = l.chars().take(cut).collect();
            for cand in c.complete(&s, &prefix) {
                prop_assert!(!cand.is_empty());
            }
        }

        /// Arbitrary unicode, not just likely words.
        #[test]
        fn never_panics_on_any_text(l in "\\PC{0,40}|.{0,40}") {
            let c = cmds();
            let s = toy();
            let _ = c.parse(&s, &l);
            if let Err(e) = c.run(&s, &l) {
                prop_assert!(!e.to_string().contains('\n'));
            }
            let _ = c.complete(&s, &l);
        }
    }
}
