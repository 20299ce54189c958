//! What a strategy returns: messages, stats, errors, and what a plugin says about itself.

use abi_stable::{
    std_types::{RString, RVec},
    StableAbi,
};
use std::fmt;

/// Who a message is from.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The static system prompt.
    System,
    /// The host speaking to the model.
    User,
    /// The model's own earlier answer.
    Assistant,
}

impl Role {
    /// Every role, in declaration order.
    pub const ALL: [Role; 3] = [Role::System, Role::User, Role::Assistant];

    /// Lower-case name, as LLM APIs spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }

    /// The role [`Role::as_str`] spells `name`, if any.
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One chat message.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Message {
    role: Role,
    content: RString,
}

impl Message {
    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Message { role, content: content.into().into() }
    }
    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Message::new(Role::System, content)
    }
    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Message::new(Role::User, content)
    }
    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Self {
        Message::new(Role::Assistant, content)
    }
    /// The role.
    pub fn role(&self) -> Role {
        self.role
    }
    /// The text.
    pub fn content(&self) -> &str {
        &self.content
    }
}

/// A named figure a strategy reports beyond the standard ones.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Counter {
    name: RString,
    value: i64,
}

impl Counter {
    /// Counter name (`snake_case`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its value.
    pub fn value(&self) -> i64 {
        self.value
    }
}

/// What a render did, for traces and comparisons.
///
/// Totals count successful turns; `shown + dropped == total`.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Default)]
pub struct Stats {
    strategy: RString,
    /// Completed turns folded into a summary instead of shown verbatim.
    pub turns_compressed: u32,
    /// Tool calls made by successful turns.
    pub tool_calls_total: u32,
    /// Tool calls listed in the prompt (before ` xN` collapsing).
    pub tool_calls_shown: u32,
    /// Tool calls left out (oldest first).
    pub tool_calls_dropped: u32,
    /// println calls made by successful turns.
    pub printlns_total: u32,
    /// println calls shown.
    pub printlns_shown: u32,
    /// println calls left out (oldest first).
    pub printlns_dropped: u32,
    /// Failed turns not shown because a later turn or summary replaced them.
    pub error_turns_collapsed: u32,
    extra: RVec<Counter>,
    warnings: RVec<RString>,
}

impl Stats {
    /// Empty stats for `strategy`.
    pub fn new(strategy: impl Into<String>) -> Self {
        Stats { strategy: strategy.into().into(), ..Stats::default() }
    }
    /// Name of the strategy that rendered.
    pub fn strategy(&self) -> &str {
        &self.strategy
    }
    /// Adds a strategy-specific figure.
    pub fn push_counter(&mut self, name: impl Into<String>, value: i64) {
        self.extra.push(Counter { name: name.into().into(), value });
    }
    /// Strategy-specific figures, in the order pushed.
    pub fn counters(&self) -> &[Counter] {
        &self.extra
    }
    /// Records a warning for the host to log (plugins have no logger of their own).
    pub fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(message.into().into());
    }
    /// Warnings, in order.
    pub fn warnings(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.warnings.iter().map(|w| w.as_str())
    }
    /// Adds `other`'s counts, counters and warnings to these: what a part
    /// of a render that is kept between renders counted when it was made.
    pub(crate) fn add(&mut self, other: &Stats) {
        // Every field named, so a new one cannot be forgotten here.
        let Stats {
            strategy: _,
            turns_compressed,
            tool_calls_total,
            tool_calls_shown,
            tool_calls_dropped,
            printlns_total,
            printlns_shown,
            printlns_dropped,
            error_turns_collapsed,
            extra,
            warnings,
        } = other;
        self.turns_compressed += turns_compressed;
        self.tool_calls_total += tool_calls_total;
        self.tool_calls_shown += tool_calls_shown;
        self.tool_calls_dropped += tool_calls_dropped;
        self.printlns_total += printlns_total;
        self.printlns_shown += printlns_shown;
        self.printlns_dropped += printlns_dropped;
        self.error_turns_collapsed += error_turns_collapsed;
        self.extra.extend(extra.iter().cloned());
        self.warnings.extend(warnings.iter().cloned());
    }
}

/// Messages plus stats: the result of one render.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct Rendered {
    messages: RVec<Message>,
    stats: Stats,
}

impl Rendered {
    /// Rendered `messages` with `stats`.
    pub fn new(messages: Vec<Message>, stats: Stats) -> Self {
        Rendered { messages: messages.into(), stats }
    }
    /// The messages to send, in order.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }
    /// What the render did.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

/// The kind of a [`StrategyError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bad parameters at construction (unknown key, wrong type, out of range).
    InvalidParams,
    /// The strategy could not render this request.
    Render,
    /// The strategy panicked; the SDK caught it.
    Panicked,
    /// The output cannot fit the strategy's token budget.
    DoesNotFit,
    /// A kind this host does not know (from a newer plugin).
    Other,
}

impl ErrorKind {
    fn code(self) -> u32 {
        match self {
            ErrorKind::InvalidParams => 1,
            ErrorKind::Render => 2,
            ErrorKind::Panicked => 3,
            ErrorKind::DoesNotFit => 4,
            ErrorKind::Other => 0,
        }
    }

    fn from_code(code: u32) -> ErrorKind {
        match code {
            1 => ErrorKind::InvalidParams,
            2 => ErrorKind::Render,
            3 => ErrorKind::Panicked,
            4 => ErrorKind::DoesNotFit,
            _ => ErrorKind::Other,
        }
    }
}

/// An error from a strategy. The kind crosses as a number so a newer plugin's
/// new kind reads as [`ErrorKind::Other`] instead of undefined behaviour.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct StrategyError {
    code: u32,
    message: RString,
}

impl StrategyError {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        StrategyError { code: kind.code(), message: message.into().into() }
    }
    /// Bad parameters.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidParams, message)
    }
    /// Cannot render.
    pub fn render(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Render, message)
    }
    /// Output does not fit the budget.
    pub fn does_not_fit(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::DoesNotFit, message)
    }
    /// The kind.
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::from_code(self.code)
    }
    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind() {
            ErrorKind::InvalidParams => "invalid parameters",
            ErrorKind::Render => "render failed",
            ErrorKind::Panicked => "strategy panicked",
            ErrorKind::DoesNotFit => "does not fit",
            ErrorKind::Other => "error",
        };
        write!(f, "{kind}: {}", self.message)
    }
}

impl std::error::Error for StrategyError {}

/// What a plugin says about itself.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq)]
pub struct PluginInfo {
    name: RString,
    version: RString,
    description: RString,
    interface_version: RString,
    capabilities: RVec<RString>,
}

impl PluginInfo {
    /// Info for strategy `name` at `version`, built against this interface.
    pub fn new(name: &str, version: &str, description: &str) -> Self {
        PluginInfo {
            name: name.into(),
            version: version.into(),
            description: description.into(),
            interface_version: crate::INTERFACE_VERSION.into(),
            capabilities: crate::CAPABILITIES.iter().map(|c| RString::from(*c)).collect(),
        }
    }
    /// Strategy name, as `plugin = "..."` refers to it.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The plugin crate's version.
    pub fn version(&self) -> &str {
        &self.version
    }
    /// One-line description.
    pub fn description(&self) -> &str {
        &self.description
    }
    /// The `ptc-plugin-api` interface version it was built against.
    pub fn interface_version(&self) -> &str {
        &self.interface_version
    }
    /// Optional features it understands (see [`crate::CAPABILITIES`]).
    pub fn capabilities(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.capabilities.iter().map(|c| c.as_str())
    }
}
