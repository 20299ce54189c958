//! A suite's results and their three renderings: text lines, JSON, JUnit XML.

use crate::cases::{Case, Level};
use crate::Usage;
use serde_json::{json, Value as Json};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// PASS or FAIL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The case holds.
    Pass,
    /// It does not (or could not be checked).
    Fail,
}

impl Status {
    /// `PASS` / `FAIL`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
        }
    }
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseReport {
    /// The case.
    pub case: Case,
    /// PASS or FAIL.
    pub status: Status,
    /// One line: why it failed, or what it measured.
    pub reason: String,
    /// Measurements, as JSON (`null` when none).
    pub figures: Json,
    /// Wall time of its child process.
    pub duration: Duration,
    /// Peak memory and CPU time of its child process, where the platform says.
    pub usage: Option<Usage>,
}

/// What a suite run found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The plugin file.
    pub plugin: PathBuf,
    /// Parameters it was built with (JSON).
    pub params: String,
    /// One entry per case, in catalogue order.
    pub cases: Vec<CaseReport>,
    /// Wall time of the whole run.
    pub duration: Duration,
}

impl Report {
    /// A report of `cases`.
    pub fn new(plugin: &Path, params: &str, cases: Vec<CaseReport>, duration: Duration) -> Report {
        Report { plugin: plugin.to_path_buf(), params: params.to_string(), cases, duration }
    }

    fn count(&self, level: Level, status: Status) -> usize {
        self.cases.iter().filter(|c| c.case.level == level && c.status == status).count()
    }

    /// IDs of failed MUST cases, in order.
    pub fn must_failures(&self) -> Vec<&'static str> {
        self.cases
            .iter()
            .filter(|c| c.case.level == Level::Must && c.status == Status::Fail)
            .map(|c| c.case.id)
            .collect()
    }

    /// Whether every MUST case passed.
    pub fn conforms(&self) -> bool {
        self.must_failures().is_empty()
    }

    /// Process exit code: 0 when every MUST case passed, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        i32::from(!self.conforms())
    }

    /// The case with `id`, if it ran.
    pub fn case(&self, id: &str) -> Option<&CaseReport> {
        self.cases.iter().find(|c| c.case.id == id)
    }

    /// The largest peak memory of any case's child process: with one case
    /// at a time, the most the suite added to the machine's memory use.
    pub fn peak_memory(&self) -> Option<u64> {
        self.cases.iter().filter_map(|c| c.usage.map(|u| u.peak_memory)).max()
    }

    /// `name version (interface X)` from MUST-LOAD-INFO, when it loaded.
    pub fn plugin_label(&self) -> String {
        let info = self.case("MUST-LOAD-INFO").map(|c| &c.figures).filter(|f| f.is_object());
        match info {
            Some(f) => format!(
                "{} {} (interface {})",
                f["name"].as_str().unwrap_or("?"),
                f["version"].as_str().unwrap_or("?"),
                f["interface_version"].as_str().unwrap_or("?")
            ),
            None => "(plugin info unavailable)".to_string(),
        }
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let verdict = match (self.conforms(), self.cases.len() == crate::CASES.len()) {
            (true, true) => "CONFORMS".to_string(),
            (false, _) => "DOES NOT CONFORM".to_string(),
            (true, false) => format!("SELECTED CASES PASS ({} of {} cases run)", self.cases.len(), crate::CASES.len()),
        };
        format!(
            "{verdict}: MUST {} passed, {} failed; SHOULD {} passed, {} failed; {:.1} s",
            self.count(Level::Must, Status::Pass),
            self.count(Level::Must, Status::Fail),
            self.count(Level::Should, Status::Pass),
            self.count(Level::Should, Status::Fail),
            self.duration.as_secs_f64()
        )
    }

    /// One line per case (ID, level, PASS/FAIL, reason), then the summary.
    /// A failure whose reason an earlier case gave word for word (a plugin
    /// that does not load fails every case alike) says `as ID` instead.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "plugin {} from {}, params {}", self.plugin_label(), self.plugin.display(), self.params);
        let width = self.cases.iter().map(|c| c.case.id.len()).max().unwrap_or(0);
        for (i, c) in self.cases.iter().enumerate() {
            let earlier = self.cases[..i].iter().find(|e| {
                c.status == Status::Fail && e.status == Status::Fail && !c.reason.is_empty() && e.reason == c.reason
            });
            let reason = match earlier {
                Some(e) => format!("as {}", e.case.id),
                None => c.reason.replace('\n', " "),
            };
            let _ =
                writeln!(out, "{:<width$}  {:<6}  {}  {}", c.case.id, c.case.level.as_str(), c.status.as_str(), reason);
        }
        let _ = writeln!(out, "{}", self.summary());
        out
    }

    /// The report as JSON.
    pub fn json(&self) -> Json {
        json!({
            "plugin": {"file": self.plugin, "info": self.case("MUST-LOAD-INFO").map(|c| c.figures.clone())},
            "params": serde_json::from_str::<Json>(&self.params).unwrap_or(Json::String(self.params.clone())),
            "cases": self.cases.iter().map(|c| json!({
                "id": c.case.id,
                "level": c.case.level,
                "description": c.case.description,
                "status": c.status.as_str(),
                "reason": c.reason,
                "figures": c.figures,
                "duration_ms": c.duration.as_millis() as u64,
                "peak_memory_bytes": c.usage.map(|u| u.peak_memory),
                "cpu_ms": c.usage.map(|u| u.cpu.as_millis() as u64),
            })).collect::<Vec<_>>(),
            "summary": {
                "conforms": self.conforms(),
                "must_passed": self.count(Level::Must, Status::Pass),
                "must_failed": self.count(Level::Must, Status::Fail),
                "should_passed": self.count(Level::Should, Status::Pass),
                "should_failed": self.count(Level::Should, Status::Fail),
                "duration_ms": self.duration.as_millis() as u64,
                "peak_memory_bytes": self.peak_memory(),
            },
        })
    }

    /// The report as JUnit XML: a failed MUST case is a `<failure>`; a failed
    /// SHOULD case is `<skipped>` (advisory), so CI shows it without failing.
    pub fn junit(&self) -> String {
        let failures = self.count(Level::Must, Status::Fail);
        let skipped = self.count(Level::Should, Status::Fail);
        let suite = format!("ptc-conformance {}", self.plugin_label());
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"ptc-conformance\" tests=\"{}\" failures=\"{failures}\" time=\"{:.3}\">",
            self.cases.len(),
            self.duration.as_secs_f64()
        );
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"{:.3}\">",
            xml(&suite),
            self.cases.len(),
            self.duration.as_secs_f64()
        );
        let _ = writeln!(out, "    <properties><property name=\"plugin\" value=\"{}\"/><property name=\"params\" value=\"{}\"/></properties>", xml(&self.plugin.display().to_string()), xml(&self.params));
        for c in &self.cases {
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\">",
                c.case.level.as_str(),
                c.case.id,
                c.duration.as_secs_f64()
            );
            match (c.status, c.case.level) {
                (Status::Fail, Level::Must) => {
                    let _ =
                        write!(out, "<failure message=\"{}\">{}</failure>", xml(&c.reason), xml(c.case.description));
                }
                (Status::Fail, Level::Should) => {
                    let _ = write!(out, "<skipped message=\"SHOULD not met: {}\"/>", xml(&c.reason));
                }
                (Status::Pass, _) => {}
            }
            let _ = writeln!(out, "<system-out>{}</system-out></testcase>", xml(&c.reason));
        }
        out.push_str("  </testsuite>\n</testsuites>\n");
        out
    }
}

/// Escapes text for XML attributes and content (control characters dropped).
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' => out.push(' '),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::CASES;

    fn report(fail: &[&str]) -> Report {
        let cases = CASES
            .iter()
            .map(|c| CaseReport {
                case: *c,
                status: if fail.contains(&c.id) { Status::Fail } else { Status::Pass },
                reason: "why <&> \"so\"".into(),
                figures: Json::Null,
                duration: Duration::from_millis(12),
                usage: None,
            })
            .collect();
        Report::new(Path::new("/x/libp.so"), "{}", cases, Duration::from_secs(3))
    }

    #[test]
    fn must_failures_decide_the_exit_code_should_ones_do_not() {
        assert_eq!(report(&["SHOULD-CACHE-PREFIX"]).exit_code(), 0);
        let r = report(&["MUST-DETERMINISTIC"]);
        assert_eq!(r.exit_code(), 1);
        assert_eq!(r.must_failures(), ["MUST-DETERMINISTIC"]);
        assert!(r.text().lines().last().unwrap().starts_with("DOES NOT CONFORM: MUST 14 passed, 1 failed"));
    }

    #[test]
    fn a_failure_repeated_word_for_word_names_the_first_case_that_gave_it() {
        let text = report(&["MUST-LOAD-INFO", "MUST-BUILD"]).text();
        let line = |id: &str| text.lines().find(|l| l.starts_with(id)).unwrap().to_string();
        assert!(line("MUST-LOAD-INFO").ends_with("FAIL  why <&> \"so\""), "{text}");
        assert!(line("MUST-BUILD").ends_with("FAIL  as MUST-LOAD-INFO"), "{text}");
        // Passing cases keep their own reasons even when they agree.
        assert!(line("MUST-DETERMINISTIC").ends_with("PASS  why <&> \"so\""), "{text}");
    }

    #[test]
    fn junit_escapes_and_marks_should_failures_skipped() {
        let x = report(&["MUST-BUILD", "SHOULD-FEWER-TOKENS"]).junit();
        assert!(x.contains("<failure message=\"why &lt;&amp;&gt; &quot;so&quot;\">"), "{x}");
        assert!(x.contains("<skipped message=\"SHOULD not met: why"), "{x}");
        assert!(x.contains("failures=\"1\" errors=\"0\" skipped=\"1\""), "{x}");
    }
}
