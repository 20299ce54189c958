//! The case catalogue (ID, level, one-line description) and how each case
//! runs inside its child process.

use crate::checks::{self, Check};
use crate::corpus::{corpus_runs, progress};
use crate::fixtures::{self, Fixture, Group, Selection};
use crate::Limits;
use ptc_cost::{Accounting, PriceModel, TokenMemo, TurnCost};
use ptc_plugin_api::render::{check_cache_stable, full_history};
use ptc_plugin_api::{ErrorKind, Prompt, RenderRequest, Rendered, StrategyError, INTERFACE_VERSION};
use ptc_registry::{Plugin, Registry, Renderer};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::time::{Duration, Instant};

pub use crate::outcome::Outcome;

/// How binding a case is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// A plugin that fails it must not be used.
    Must,
    /// Advisory: reported as figures, never fails the suite.
    Should,
}

impl Level {
    /// `MUST` or `SHOULD`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
        }
    }
}

/// One case of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Case {
    /// Stable ID, e.g. `MUST-SYSTEM-FIRST`.
    pub id: &'static str,
    /// MUST or SHOULD.
    pub level: Level,
    /// What it checks, in one line.
    pub description: &'static str,
}

const fn must(id: &'static str, description: &'static str) -> Case {
    Case { id, level: Level::Must, description }
}

/// Every case, in the order reported.
pub const CASES: &[Case] = &[
    must("MUST-LOAD-INFO", "loads and reports a kebab-case name, a version, a description and a compatible interface version"),
    must("MUST-BUILD", "builds an instance from the given parameters"),
    must("MUST-REJECT-UNKNOWN-PARAMS", "rejects an unknown parameter with an invalid-parameters error naming it (not a panic)"),
    must("MUST-NO-PANIC", "renders every fixture without panicking or returning an error"),
    must("MUST-SYSTEM-FIRST", "the first message is SYSTEM and equals the request's system prompt, on every fixture"),
    must("MUST-MISSION-VERBATIM", "the mission appears verbatim in the first USER message, on every fixture"),
    must("MUST-ENDS-WITH-TURN-INFO", "the last message is USER and ends with `Turns left: N` or the final-turn warning"),
    must("MUST-LATEST-ERROR", "a failed latest turn shows its error message and its program (or `(unknown program)`) verbatim"),
    must("MUST-LIVE-NAMES", "every name defined by a successful turn and still live is visible"),
    must("MUST-ROLES-ALTERNATE", "after SYSTEM, roles alternate USER/ASSISTANT starting with USER"),
    must("MUST-DETERMINISTIC", "rendering the same request twice gives byte-identical messages, on every fixture"),
    must("MUST-INDEPENDENT", "output does not depend on earlier renders: A, B, C, A gives the same A, and B matches a fresh instance's"),
    must("MUST-BOUNDED-TIME", "each large fixture (500 turns, 1,000,000 elements, 10 MB string) renders in under 2 s"),
    must("MUST-BOUNDED-SIZE", "each large fixture renders to under 200 KB of message text"),
    must(
        "MUST-CACHE-STABLE",
        "between consecutive corpus turns without a reported checkpoint (cache_epoch), the prompt up to every breakpoint stays byte-identical",
    ),
    Case {
        id: "SHOULD-FEWER-TOKENS",
        level: Level::Should,
        description: "prompt tokens (o200k_base) over the corpus at every turn are at most full-history's",
    },
    Case {
        id: "SHOULD-STATS-SUMS",
        level: Level::Should,
        description: "the render's stats add up: shown + dropped == total, for tool calls and for printlns",
    },
    Case {
        id: "SHOULD-CACHED-SHARE",
        level: Level::Should,
        description: "under the anthropic and openai price models, the corpus prompts cost at most full-history's; figures: cached share and cost ratio per model",
    },
    Case {
        id: "SHOULD-RECALL",
        level: Level::Should,
        description: "the corpus prompts' fact recall is at least full-history's minus 10 points; figures: both recalls",
    },
    Case {
        id: "SHOULD-CACHE-PREFIX",
        level: Level::Should,
        description: "each corpus prompt starts with the previous turn's system message and mission byte for byte; figure: mean shared-prefix share",
    },
];

/// The case with `id`.
pub fn case(id: &str) -> Option<&'static Case> {
    CASES.iter().find(|c| c.id == id)
}

/// The unknown key MUST-REJECT-UNKNOWN-PARAMS adds to the parameters.
pub const UNKNOWN_KEY: &str = "ptc_conformance_unknown_key";

/// Runs case `id` against the plugin file with `params` (a JSON object).
/// Progress goes to stderr as `fixture: NAME` lines, so a parent that kills
/// a hung child can say where it hung.
pub fn run(id: &str, plugin: &Path, params: &str, limits: &Limits) -> Outcome {
    let Some(case) = case(id) else { return Outcome::fail(format!("unknown case `{id}`")) };
    let mut registry = Registry::default();
    registry.load_file(plugin);
    let loaded = match (registry.plugins().next(), registry.errors().first()) {
        (Some(p), _) => p.clone(),
        (None, Some(e)) => return Outcome::fail(format!("cannot load: {}", e.failure)),
        (None, None) => return Outcome::fail("cannot load: no plugin in the file"),
    };
    match case.id {
        "MUST-LOAD-INFO" => load_info(&loaded),
        "MUST-REJECT-UNKNOWN-PARAMS" => reject_unknown(&loaded, params),
        _ => {
            let renderer = match loaded.instantiate(params) {
                Ok(r) => r,
                Err(e) => return Outcome::fail(format!("cannot build with parameters {params}: {e}")),
            };
            if case.id == "MUST-BUILD" {
                return Outcome::pass(format!("built with {params}"));
            }
            match render_case(case.id, &renderer, &loaded, params, limits) {
                Ok(outcome) => outcome,
                Err(e) => Outcome::fail(e),
            }
        }
    }
}

fn load_info(plugin: &Plugin) -> Outcome {
    let d = &plugin.description;
    let figures = json!({"name": d.name, "version": d.version, "interface_version": d.interface_version,
                         "description": d.description, "capabilities": d.capabilities});
    let major = |v: &str| v.split('.').next().unwrap_or("").to_string();
    let kebab = !d.name.is_empty()
        && d.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !d.name.starts_with('-')
        && !d.name.ends_with('-');
    let problem = if !kebab {
        Some(format!("name {:?} is not kebab-case", d.name))
    } else if d.version.trim().is_empty() {
        Some("empty version".to_string())
    } else if d.description.trim().is_empty() {
        Some("empty description".to_string())
    } else if major(&d.interface_version) != major(INTERFACE_VERSION) {
        Some(format!("interface {} is not compatible with {INTERFACE_VERSION}", d.interface_version))
    } else {
        None
    };
    let summary = format!("`{}` {} (interface {})", d.name, d.version, d.interface_version);
    match problem {
        Some(p) => Outcome::fail(format!("{p}; reported {summary}")).with(figures),
        None => Outcome::pass(summary).with(figures),
    }
}

fn reject_unknown(plugin: &Plugin, params: &str) -> Outcome {
    let mut object = match serde_json::from_str::<Json>(params) {
        Ok(Json::Object(o)) => o,
        _ => return Outcome::fail(format!("parameters {params} are not a JSON object")),
    };
    object.insert(UNKNOWN_KEY.into(), json!(1));
    let with_unknown = Json::Object(object).to_string();
    match plugin.instantiate(&with_unknown) {
        Ok(_) => Outcome::fail(format!("accepted the unknown parameter `{UNKNOWN_KEY}`")),
        Err(e) if e.kind() == ErrorKind::Panicked => Outcome::fail(format!("panicked on an unknown parameter: {e}")),
        Err(e) if e.kind() != ErrorKind::InvalidParams => {
            Outcome::fail(format!("refused it with a {:?} error instead of invalid parameters: {e}", e.kind()))
        }
        Err(e) if !e.message().contains(UNKNOWN_KEY) => Outcome::fail(format!("the error does not name the key: {e}")),
        Err(e) => Outcome::pass(format!("refused: {e}")),
    }
}

fn render(renderer: &Renderer, req: &RenderRequest) -> Result<Rendered, StrategyError> {
    renderer.render(req).map(Prompt::into_rendered)
}

fn cache_stable(renderer: &Renderer, fixtures: &[Fixture]) -> Outcome {
    let (mut pairs, mut breakpoints) = (0usize, 0usize);
    for (_, prompts) in corpus_runs(renderer, fixtures) {
        for pair in prompts.windows(2) {
            let ((_, before), (name, after)) = (&pair[0], &pair[1]);
            if let Err(e) = check_cache_stable(before, after) {
                return Outcome::fail(format!("{name}: {e}"));
            }
            pairs += 1;
            breakpoints += before.breakpoint_count();
        }
    }
    if pairs == 0 {
        return Outcome::fail("no two consecutive corpus prompts rendered");
    }
    let line = format!("{pairs} consecutive corpus pairs, {breakpoints} breakpoints kept");
    Outcome::pass(line).with(json!({"pairs": pairs, "breakpoints": breakpoints}))
}

fn cached_share(renderer: &Renderer, fixtures: &[Fixture]) -> Result<Outcome, String> {
    let counter = ptc_tokens::TokenCounter::new(ptc_tokens::DEFAULT_ENCODING).map_err(|e| e.to_string())?;
    let mut memo = TokenMemo::new(&counter);
    let mut figures = serde_json::Map::new();
    let mut lines = Vec::new();
    let mut cheaper = true;
    for name in ["anthropic", "openai"] {
        let model = PriceModel::builtin(name).expect("the built-in price models exist");
        let (mut ours, mut full) = (TurnCost::default(), TurnCost::default());
        for (_, prompts) in corpus_runs(renderer, fixtures) {
            let (mut mine, mut base) = (Accounting::new(&model), Accounting::new(&model));
            for (fixture, prompt) in &prompts {
                ours.add(&mine.turn(&prompt.into(), None, &mut memo));
                let request = &fixtures.iter().find(|f| &f.name == fixture).expect("rendered from a fixture").request;
                let full_prompt = ptc_plugin_api::render::full_history_prompt(request);
                full.add(&base.turn(&(&full_prompt).into(), None, &mut memo));
            }
        }
        let ratio = ours.cost.input / full.cost.input.max(f64::MIN_POSITIVE);
        cheaper &= ratio <= 1.0;
        lines.push(format!(
            "{name}: {:.1}% cached, {:.1}% of full-history's cost",
            100.0 * ours.usage.hit_share(),
            100.0 * ratio
        ));
        figures.insert(name.to_string(), json!({"cached_share": ours.usage.hit_share(), "cost_ratio": ratio}));
    }
    let line = lines.join("; ");
    Ok(if cheaper { Outcome::pass(line) } else { Outcome::fail(line) }.with(Json::Object(figures)))
}

fn selection(id: &str) -> Selection {
    match id {
        "MUST-INDEPENDENT" | "SHOULD-STATS-SUMS" => Selection::SMALL,
        "SHOULD-FEWER-TOKENS"
        | "SHOULD-CACHE-PREFIX"
        | "SHOULD-CACHED-SHARE"
        | "SHOULD-RECALL"
        | "MUST-CACHE-STABLE" => Selection::CORPUS,
        "MUST-BOUNDED-TIME" | "MUST-BOUNDED-SIZE" => Selection { corpus: false, edge: false, generated: true },
        _ => Selection::ALL,
    }
}

fn render_case(
    id: &str,
    renderer: &Renderer,
    plugin: &Plugin,
    params: &str,
    limits: &Limits,
) -> Result<Outcome, String> {
    let fixtures = fixtures::load(selection(id)).map_err(|e| e.to_string())?;
    if let Some(&(_, check)) = checks::INVARIANTS.iter().find(|(case, _)| *case == id) {
        return Ok(invariant(renderer, &fixtures, |req, out| check(req, out.messages()), "holds"));
    }
    Ok(match id {
        "MUST-NO-PANIC" => no_panic(renderer, &fixtures),
        "MUST-DETERMINISTIC" => deterministic(renderer, &fixtures),
        "MUST-INDEPENDENT" => independent(renderer, plugin, params, &fixtures)?,
        "MUST-BOUNDED-TIME" => bounded_time(renderer, &fixtures, limits.render_time),
        "MUST-BOUNDED-SIZE" => bounded_size(renderer, &fixtures, limits.output_bytes),
        "SHOULD-FEWER-TOKENS" => fewer_tokens(renderer, &fixtures)?,
        "SHOULD-STATS-SUMS" => {
            invariant(renderer, &fixtures, |_, out| checks::stats_sums(out.stats()), "shown + dropped == total")
        }
        "SHOULD-CACHE-PREFIX" => cache_prefix(renderer, &fixtures),
        "MUST-CACHE-STABLE" => cache_stable(renderer, &fixtures),
        "SHOULD-CACHED-SHARE" => cached_share(renderer, &fixtures)?,
        "SHOULD-RECALL" => crate::recall::recall(renderer, &fixtures),
        other => Outcome::fail(format!("case `{other}` has no implementation")),
    })
}

/// Failures of a check over many fixtures, summarised in one line.
struct Tally {
    checked: usize,
    failures: Vec<(String, String)>,
}

impl Tally {
    fn new() -> Tally {
        Tally { checked: 0, failures: Vec::new() }
    }
    fn record(&mut self, fixture: &Fixture, check: Check) {
        self.checked += 1;
        if let Err(reason) = check {
            self.failures.push((fixture.name.clone(), reason));
        }
    }
    fn outcome(self, total: usize, what: &str) -> Outcome {
        let skipped = total - self.checked;
        let note =
            if skipped > 0 { format!(" ({skipped} that did not render left to MUST-NO-PANIC)") } else { String::new() };
        if self.checked == 0 {
            return Outcome::fail("no fixture rendered, nothing to check (see MUST-NO-PANIC)");
        }
        match self.failures.first() {
            None => Outcome::pass(format!("{what} on {} fixtures{note}", self.checked)),
            Some((fixture, reason)) => Outcome::fail(format!(
                "fails on {} of {} fixtures{note}; first {fixture}: {reason}",
                self.failures.len(),
                self.checked
            )),
        }
        .with(json!({"checked": self.checked, "failed": self.failures.len(), "not_rendered": skipped}))
    }
}

fn no_panic(renderer: &Renderer, fixtures: &[Fixture]) -> Outcome {
    let mut tally = Tally::new();
    for f in fixtures {
        progress(f);
        tally.record(f, render(renderer, &f.request).map(|_| ()).map_err(|e| e.to_string()));
    }
    tally.outcome(fixtures.len(), "rendered")
}

/// `check` on every fixture that renders; `what` says what held.
fn invariant(
    renderer: &Renderer,
    fixtures: &[Fixture],
    check: impl Fn(&RenderRequest, &Rendered) -> Check,
    what: &str,
) -> Outcome {
    let mut tally = Tally::new();
    for f in fixtures {
        progress(f);
        if let Ok(out) = render(renderer, &f.request) {
            tally.record(f, check(&f.request, &out));
        }
    }
    tally.outcome(fixtures.len(), what)
}

fn same(a: &Rendered, b: &Rendered) -> Check {
    match checks::first_difference(a.messages(), b.messages()) {
        None => Ok(()),
        Some(diff) => Err(diff),
    }
}

fn deterministic(renderer: &Renderer, fixtures: &[Fixture]) -> Outcome {
    let mut tally = Tally::new();
    for f in fixtures {
        progress(f);
        match (render(renderer, &f.request), render(renderer, &f.request)) {
            (Ok(a), Ok(b)) => tally.record(f, same(&a, &b)),
            (Err(_), Err(_)) => {}
            (a, b) => tally
                .record(f, Err(format!("one render succeeded, the other failed ({:?} then {:?})", a.err(), b.err()))),
        }
    }
    tally.outcome(fixtures.len(), "byte-identical twice")
}

/// `req` with another system prompt: same mission and turn, different output.
fn variant(req: &RenderRequest) -> RenderRequest {
    let mut v = RenderRequest::new(req.mission(), format!("{} [variant]", req.system_prompt()), req.max_turns())
        .with_tools(req.tools().to_vec())
        .with_data(req.data().to_vec())
        .with_extensions(req.extensions());
    for t in req.turns() {
        v.push_turn(t.clone());
    }
    v
}

fn independent(renderer: &Renderer, plugin: &Plugin, params: &str, fixtures: &[Fixture]) -> Result<Outcome, String> {
    let mut tally = Tally::new();
    for (i, f) in fixtures.iter().enumerate() {
        progress(f);
        let b = variant(&f.request);
        let c = &fixtures[(i + 1) % fixtures.len()].request;
        let fresh = plugin.instantiate(params).map_err(|e| format!("cannot build a second instance: {e}"))?;
        let (Ok(a1), Ok(b1), Ok(_), Ok(a2), Ok(b2)) = (
            render(renderer, &f.request),
            render(renderer, &b),
            render(renderer, c),
            render(renderer, &f.request),
            render(&fresh, &b),
        ) else {
            continue;
        };
        let check = same(&a1, &a2)
            .map_err(|d| format!("A changed after rendering B and C: {d}"))
            .and_then(|()| same(&b1, &b2).map_err(|d| format!("B after A differs from a fresh instance's B: {d}")));
        tally.record(f, check);
    }
    Ok(tally.outcome(fixtures.len(), "independent"))
}

fn bounded_time(renderer: &Renderer, fixtures: &[Fixture], limit: Duration) -> Outcome {
    let mut tally = Tally::new();
    let mut times = serde_json::Map::new();
    for f in fixtures.iter().filter(|f| f.is_large()) {
        progress(f);
        let start = Instant::now();
        let rendered = render(renderer, &f.request);
        let took = start.elapsed();
        times.insert(f.name.clone(), json!(took.as_secs_f64() * 1000.0));
        if rendered.is_ok() {
            tally.record(f, if took < limit { Ok(()) } else { Err(format!("took {took:.2?} (limit {limit:?})")) });
        }
    }
    let total = fixtures.iter().filter(|f| f.is_large()).count();
    let mut out = tally.outcome(total, &format!("under {limit:?}"));
    out.figures["render_ms"] = Json::Object(times);
    out
}

fn bounded_size(renderer: &Renderer, fixtures: &[Fixture], limit: usize) -> Outcome {
    let mut tally = Tally::new();
    let mut sizes = serde_json::Map::new();
    for f in fixtures.iter().filter(|f| f.is_large()) {
        progress(f);
        if let Ok(out) = render(renderer, &f.request) {
            let bytes = checks::output_bytes(out.messages());
            sizes.insert(f.name.clone(), json!(bytes));
            tally.record(f, if bytes < limit { Ok(()) } else { Err(format!("{bytes} bytes (limit {limit})")) });
        }
    }
    let total = fixtures.iter().filter(|f| f.is_large()).count();
    let mut out = tally.outcome(total, &format!("under {limit} bytes"));
    out.figures["output_bytes"] = Json::Object(sizes);
    out
}

fn fewer_tokens(renderer: &Renderer, fixtures: &[Fixture]) -> Result<Outcome, String> {
    let counter = ptc_tokens::TokenCounter::new(ptc_tokens::DEFAULT_ENCODING)?;
    let (mut ours, mut full, mut prompts) = (0usize, 0usize, 0usize);
    for f in fixtures.iter().filter(|f| f.group == Group::Corpus) {
        progress(f);
        let Ok(out) = render(renderer, &f.request) else { continue };
        ours += counter.count_messages(out.messages());
        full += counter.count_messages(full_history(&f.request).messages());
        prompts += 1;
    }
    if prompts == 0 {
        return Ok(Outcome::fail("no corpus prompt rendered"));
    }
    let ratio = ours as f64 / full as f64;
    let line = format!(
        "{:.1}% of full-history's prompt tokens ({ours} vs {full}, {}) over {prompts} corpus prompts",
        ratio * 100.0,
        ptc_tokens::DEFAULT_ENCODING
    );
    let figures = json!({"prompt_tokens": ours, "full_history_tokens": full, "ratio": ratio, "prompts": prompts});
    Ok(if ours <= full { Outcome::pass(line) } else { Outcome::fail(line) }.with(figures))
}

fn cache_prefix(renderer: &Renderer, fixtures: &[Fixture]) -> Outcome {
    let (mut shares, mut broken) = (Vec::new(), Vec::new());
    let mut previous: Option<(&str, String)> = None;
    for f in fixtures.iter().filter(|f| f.group == Group::Corpus) {
        progress(f);
        let Ok(out) = render(renderer, &f.request) else {
            previous = None;
            continue;
        };
        let text = checks::serialize(out.messages());
        let session = f.session.unwrap_or("");
        if let Some((_, prev)) = previous.as_ref().filter(|(s, _)| *s == session) {
            let common = prev.bytes().zip(text.bytes()).take_while(|(a, b)| a == b).count();
            shares.push(common as f64 / text.len().max(1) as f64);
            if common < stable_head(&text, &out, f.request.mission()) {
                broken.push(f.name.clone());
            }
        }
        previous = Some((session, text));
    }
    if shares.is_empty() {
        return Outcome::fail("no two consecutive corpus prompts rendered");
    }
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    let figures = json!({"mean_prefix_share": mean, "pairs": shares.len(), "head_changed": broken.len()});
    let line = format!("mean shared prefix {:.1}% of the prompt over {} consecutive pairs", mean * 100.0, shares.len());
    match broken.first() {
        None => Outcome::pass(line),
        Some(first) => Outcome::fail(format!(
            "{line}; system message or mission changed position or bytes on {} pairs, first {first}",
            broken.len()
        )),
    }
    .with(figures)
}

/// Bytes of the serialized prompt up to the end of the system message and
/// the mission's first occurrence: what a cache-friendly strategy keeps.
fn stable_head(text: &str, out: &Rendered, mission: &str) -> usize {
    let system = out.messages().first().map(|m| checks::serialize(std::slice::from_ref(m)).len()).unwrap_or(0);
    let mission_end = text[system..].find(mission).map(|i| system + i + mission.len()).unwrap_or(text.len());
    mission_end.max(system)
}
