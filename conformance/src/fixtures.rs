//! The requests every case renders: the realistic session corpus at every
//! turn, the small edge cases, and the large generated fixtures.
//!
//! All fixture files live in this crate's `fixtures/` folder and are
//! embedded at build time, so the suite runs the same wherever the runner
//! binary is, and the crate packages on its own. The corpus there is a copy
//! of the workspace's `tests/sessions/` (see `fixtures/README.md`).

use crate::generate::{self, GeneratedSpec, InvalidSpec};
use ptc_plugin_api::RenderRequest;
use ptc_session::{Session, SessionError};
use serde::Deserialize;
use std::fmt;

/// Where a fixture comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// A realistic session of `fixtures/sessions/`, cut at some turn.
    Corpus,
    /// A small hand-made session of `fixtures/edge-cases.v1.json`.
    Edge,
    /// A large request built from `fixtures/generated.v1.json`.
    Generated,
}

/// One request to render.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// `corpus/{session}@{turn}`, `edge/{name}` or `generated/{name}`.
    pub name: String,
    /// Where it comes from.
    pub group: Group,
    /// For corpus fixtures, the session name (consecutive turns share it).
    pub session: Option<&'static str>,
    /// The request.
    pub request: RenderRequest,
}

impl Fixture {
    /// Whether the bounded time and size cases apply.
    pub fn is_large(&self) -> bool {
        self.group == Group::Generated
    }
}

/// The realistic corpus, rendered at every turn: `fixtures/sessions/`,
/// copies of the workspace's `tests/sessions/` by name (only these enter
/// the suite; `fixtures/refresh-corpus.sh` refreshes them).
pub const CORPUS: &[(&str, &str)] = &[
    ("data-exploration", include_str!("../fixtures/sessions/data-exploration.json")),
    ("error-recovery", include_str!("../fixtures/sessions/error-recovery.json")),
    ("large-dataset", include_str!("../fixtures/sessions/large-dataset.json")),
    ("long-prints", include_str!("../fixtures/sessions/long-prints.json")),
    ("mixed-realistic", include_str!("../fixtures/sessions/mixed-realistic.json")),
    ("redefinitions", include_str!("../fixtures/sessions/redefinitions.json")),
    ("tool-heavy-search", include_str!("../fixtures/sessions/tool-heavy-search.json")),
    ("unicode", include_str!("../fixtures/sessions/unicode.json")),
    // 32 turns: long enough that the cache-stable layouts fold, so
    // MUST-CACHE-STABLE and SHOULD-CACHED-SHARE see checkpoints.
    ("upgrade-research", include_str!("../fixtures/sessions/upgrade-research.json")),
];

/// `fixtures/edge-cases.v1.json`.
pub const EDGE_CASES: &str = include_str!("../fixtures/edge-cases.v1.json");
/// `fixtures/generated.v1.json`.
pub const GENERATED: &str = include_str!("../fixtures/generated.v1.json");

const EDGE_FORMAT: &str = "ptc-conformance-edge-cases/1";
const GENERATED_FORMAT: &str = "ptc-conformance-generated/1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EdgeFile {
    format: String,
    #[allow(dead_code)]
    about: String,
    fixtures: Vec<EdgeEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EdgeEntry {
    name: String,
    #[allow(dead_code)]
    about: String,
    session: serde_json::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneratedFile {
    format: String,
    #[allow(dead_code)]
    about: String,
    fixtures: Vec<GeneratedSpec>,
}

/// Which fixtures to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// Corpus sessions at every turn.
    pub corpus: bool,
    /// Edge cases.
    pub edge: bool,
    /// Large generated fixtures (costly: hundreds of MB of values).
    pub generated: bool,
}

impl Selection {
    /// Everything.
    pub const ALL: Selection = Selection { corpus: true, edge: true, generated: true };
    /// The corpus and edge cases, without the large fixtures.
    pub const SMALL: Selection = Selection { corpus: true, edge: true, generated: false };
    /// The corpus only.
    pub const CORPUS: Selection = Selection { corpus: true, edge: false, generated: false };
}

/// One of the suite's own fixture files cannot be used: the suite was
/// built from a broken `fixtures/` folder (see `fixtures/README.md`).
#[derive(Debug)]
pub struct FixtureError {
    /// The file, relative to the crate (`fixtures/edge-cases.v1.json`).
    pub file: String,
    /// The fixture inside it, when one is at fault.
    pub fixture: Option<String>,
    /// What is wrong.
    pub problem: FixtureProblem,
}

/// What is wrong with a fixture file.
#[derive(Debug)]
pub enum FixtureProblem {
    /// Not the JSON shape the suite reads.
    Json(serde_json::Error),
    /// A session that `ptc-session` rejects.
    Session(SessionError),
    /// Another version of the file's format.
    Format {
        /// The format the file names.
        found: String,
        /// The one this suite reads.
        expected: &'static str,
    },
    /// A generated fixture's spec that describes no run.
    Spec(InvalidSpec),
}

impl fmt::Display for FixtureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.file)?;
        if let Some(name) = &self.fixture {
            write!(f, "fixture `{name}`: ")?;
        }
        match &self.problem {
            FixtureProblem::Json(e) => e.fmt(f),
            FixtureProblem::Session(e) => e.fmt(f),
            FixtureProblem::Format { found, expected } => write!(f, "format {found:?}, this suite reads {expected:?}"),
            FixtureProblem::Spec(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FixtureError {}

impl FixtureError {
    fn new(file: &str, fixture: Option<&str>, problem: FixtureProblem) -> FixtureError {
        FixtureError { file: file.to_string(), fixture: fixture.map(str::to_string), problem }
    }
}

/// Builds the selected fixtures, small ones first and the largest last (so a
/// strategy that hangs on size has been checked on everything else first).
pub fn load(selection: Selection) -> Result<Vec<Fixture>, FixtureError> {
    let mut out = Vec::new();
    if selection.corpus {
        out.extend(corpus()?);
    }
    if selection.edge {
        out.extend(edge_cases()?);
    }
    if selection.generated {
        out.extend(generated()?);
    }
    Ok(out)
}

/// Corpus sessions at turns `1..=min(len + 1, max_turns)`.
pub fn corpus() -> Result<Vec<Fixture>, FixtureError> {
    let mut out = Vec::new();
    for (name, text) in CORPUS {
        // Converted once (EDN reading is the costly part), then cut per turn.
        let at = format!("fixtures/sessions/{name}.json");
        let session: Session =
            serde_json::from_str(text).map_err(|e| FixtureError::new(&at, None, FixtureProblem::Json(e)))?;
        let full =
            session.request_for_turn(None).map_err(|e| FixtureError::new(&at, None, FixtureProblem::Session(e)))?;
        let last = (session.turns.len() as u32 + 1).min(session.max_turns.max(1));
        for turn in 1..=last {
            let mut request = full.clone();
            request.truncate_turns(turn as usize - 1);
            out.push(Fixture {
                name: format!("corpus/{name}@{turn}"),
                group: Group::Corpus,
                session: Some(name),
                request,
            });
        }
    }
    Ok(out)
}

/// The edge cases, each at its next turn.
pub fn edge_cases() -> Result<Vec<Fixture>, FixtureError> {
    let at = "fixtures/edge-cases.v1.json";
    let file: EdgeFile =
        serde_json::from_str(EDGE_CASES).map_err(|e| FixtureError::new(at, None, FixtureProblem::Json(e)))?;
    if file.format != EDGE_FORMAT {
        let problem = FixtureProblem::Format { found: file.format, expected: EDGE_FORMAT };
        return Err(FixtureError::new(at, None, problem));
    }
    let mut out = Vec::new();
    for entry in file.fixtures {
        let text = entry.session.to_string();
        let bad = |e| FixtureError::new(at, Some(&entry.name), FixtureProblem::Session(e));
        let session = Session::parse(&text).map_err(bad)?;
        let request = session.request_for_turn(None).map_err(bad)?;
        out.push(Fixture { name: format!("edge/{}", entry.name), group: Group::Edge, session: None, request });
    }
    Ok(out)
}

/// The large fixtures, built from their specs.
pub fn generated() -> Result<Vec<Fixture>, FixtureError> {
    let at = "fixtures/generated.v1.json";
    let file: GeneratedFile =
        serde_json::from_str(GENERATED).map_err(|e| FixtureError::new(at, None, FixtureProblem::Json(e)))?;
    if file.format != GENERATED_FORMAT {
        let problem = FixtureProblem::Format { found: file.format, expected: GENERATED_FORMAT };
        return Err(FixtureError::new(at, None, problem));
    }
    file.fixtures
        .iter()
        .map(|spec| {
            Ok(Fixture {
                name: format!("generated/{}", spec.name()),
                group: Group::Generated,
                session: None,
                request: generate::build(spec)
                    .map_err(|e| FixtureError::new(at, Some(spec.name()), FixtureProblem::Spec(e)))?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_fixtures_load_with_distinct_names_and_missions() {
        let fixtures = load(Selection::SMALL).unwrap();
        assert!(fixtures.len() > 90, "{}", fixtures.len());
        let mut names: Vec<&str> = fixtures.iter().map(|f| f.name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), fixtures.len());
        // Distinct (mission, turn) pairs: a strategy may legitimately key a
        // cache on them, and the suite must not confuse it by accident.
        let mut keys: Vec<(String, u32)> =
            fixtures.iter().map(|f| (f.request.mission().to_string(), f.request.turn())).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), fixtures.len());
    }

    #[test]
    fn edge_cases_cover_the_listed_situations() {
        let fixtures = edge_cases().unwrap();
        let get = |n: &str| &fixtures.iter().find(|f| f.name == format!("edge/{n}")).unwrap().request;
        assert_eq!(get("no-turns").turn(), 1);
        assert_eq!(get("single-shot").max_turns(), 1);
        assert!(!get("last-turn-failed").last_turn().unwrap().success());
        assert!(get("failed-without-program").last_turn().unwrap().program().is_none());
        assert!(get("failures-then-recovery").last_turn().unwrap().success());
        assert_eq!(get("empty-mission").mission(), "");
        assert!(get("tools-without-signatures").tools().iter().all(|t| t.description().unwrap_or("").is_empty()));
        assert!(!get("unicode-everywhere").mission().is_ascii());
    }
}
