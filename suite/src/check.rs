//! How a task's answer is checked: an exact value, a number within a
//! tolerance, a set of items in any order, or a PTC-Lisp predicate over the
//! result (bound as `data/result`). Answers and expected values are EDN, as
//! the session records results.

use ptc_lisp::{read_edn, run_program, Exit, Limits, Memory, Value};
use serde::Deserialize;

/// The `expect = {...}` table of a task file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub struct Check {
    /// The exact value, in EDN (`exact = '{:sku "KEY-3" :stock 37}'`).
    #[serde(default)]
    pub exact: Option<String>,
    /// A number the answer must be within `tolerance` of.
    #[serde(default)]
    pub number: Option<f64>,
    /// The absolute tolerance of `number` (default 0).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// A collection in EDN whose items the answer holds, in any order, no more.
    #[serde(default)]
    pub set: Option<String>,
    /// A PTC-Lisp expression over `data/result` that is truthy for a right answer.
    #[serde(default)]
    pub predicate: Option<String>,
}

/// Whether an answer passed, and why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The answer is right.
    Pass,
    /// The answer is wrong (or missing), with what was expected.
    Fail(String),
}

impl Check {
    /// `Err` with what to fix when the table sets no check, or several.
    pub fn validate(&self) -> Result<(), String> {
        let set = [self.exact.is_some(), self.number.is_some(), self.set.is_some(), self.predicate.is_some()];
        match set.iter().filter(|&&b| b).count() {
            1 => {}
            0 => return Err("`expect` needs one of `exact`, `number`, `set` or `predicate`".into()),
            _ => return Err("`expect` sets more than one of `exact`, `number`, `set`, `predicate`: keep one".into()),
        }
        if self.tolerance.is_some() && self.number.is_none() {
            return Err("`expect.tolerance` goes with `expect.number`".into());
        }
        for edn in [&self.exact, &self.set].into_iter().flatten() {
            read_edn(edn).map_err(|e| format!("`expect` value {edn:?} is not EDN: {e}"))?;
        }
        if let Some(set) = &self.set {
            if read_edn(set).ok().and_then(|v| items(&v)).is_none() {
                return Err(format!("`expect.set` {set:?} is not a vector, list or set"));
            }
        }
        Ok(())
    }

    /// Checks `answer` (the run's result in EDN; `None` when it returned nothing).
    pub fn verdict(&self, answer: Option<&str>) -> Verdict {
        let Some(answer) = answer else { return Verdict::Fail("no answer".into()) };
        let value = match read_edn(answer) {
            Ok(v) => v,
            Err(e) => return Verdict::Fail(format!("the answer is not EDN: {e}")),
        };
        let pass = if let Some(exact) = &self.exact {
            read_edn(exact).is_ok_and(|e| e == value)
        } else if let Some(number) = self.number {
            as_number(&value).is_some_and(|n| (n - number).abs() <= self.tolerance.unwrap_or(0.0))
        } else if let Some(set) = &self.set {
            let expected = read_edn(set).ok().and_then(|v| items(&v)).unwrap_or_default();
            items(&value).is_some_and(|got| same_items(&got, &expected))
        } else if let Some(predicate) = &self.predicate {
            return predicate_verdict(predicate, value);
        } else {
            false
        };
        if pass {
            Verdict::Pass
        } else {
            Verdict::Fail(format!("expected {}", self.describe()))
        }
    }

    /// What the check expects, for messages and reports.
    pub fn describe(&self) -> String {
        match (&self.exact, self.number, &self.set, &self.predicate) {
            (Some(e), ..) => e.clone(),
            (_, Some(n), ..) => format!("{n} ± {}", self.tolerance.unwrap_or(0.0)),
            (_, _, Some(s), _) => format!("the items of {s} in any order"),
            (.., Some(p)) => format!("a result for which {p} holds"),
            _ => "nothing".into(),
        }
    }
}

fn as_number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

fn items(v: &Value) -> Option<Vec<Value>> {
    match v {
        Value::Vector(items) | Value::List(items) => Some(items.to_vec()),
        Value::Set(set) => Some(set.iter().cloned().collect()),
        _ => None,
    }
}

/// Equal as sets: every item of each is in the other.
fn same_items(a: &[Value], b: &[Value]) -> bool {
    a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
}

fn predicate_verdict(predicate: &str, result: Value) -> Verdict {
    let data = indexmap::IndexMap::from([("result".to_string(), result)]);
    let mut no_tools = |name: &str, _: serde_json::Value| -> Result<serde_json::Value, String> {
        Err(format!("a predicate calls no tools (called {name})"))
    };
    let outcome = run_program(predicate, &Memory::new(), &data, &mut no_tools, &Limits::default());
    match outcome.result {
        Ok(Exit::Value(v) | Exit::Return(v)) if v.is_truthy() => Verdict::Pass,
        Ok(_) => Verdict::Fail(format!("expected a result for which {predicate} holds")),
        Err(e) => Verdict::Fail(format!("the predicate failed: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(toml_text: &str) -> Check {
        let c: Check = toml::from_str(toml_text).unwrap();
        c.validate().unwrap();
        c
    }

    #[test]
    fn exact_values_compare_as_values_not_text() {
        let c = check(r#"exact = '{:sku "KEY-3" :stock 37}'"#);
        assert_eq!(c.verdict(Some("{:stock 37, :sku \"KEY-3\"}")), Verdict::Pass);
        assert!(
            matches!(c.verdict(Some("{:sku \"KEY-3\" :stock 36}")), Verdict::Fail(m) if m.starts_with("expected {:sku"))
        );
        assert_eq!(c.verdict(None), Verdict::Fail("no answer".into()));
    }

    #[test]
    fn numbers_pass_within_the_tolerance_only() {
        let c = check("number = 1254.5\ntolerance = 0.01");
        assert_eq!(c.verdict(Some("1254.505")), Verdict::Pass);
        assert_ne!(c.verdict(Some("1254.6")), Verdict::Pass);
        assert_ne!(c.verdict(Some("\"1254.5\"")), Verdict::Pass);
        assert_eq!(check("number = 7").verdict(Some("7")), Verdict::Pass);
    }

    #[test]
    fn sets_ignore_order_but_not_missing_or_extra_items() {
        let c = check(r#"set = '["LAP-1" "MON-4"]'"#);
        assert_eq!(c.verdict(Some("[\"MON-4\" \"LAP-1\"]")), Verdict::Pass);
        assert_eq!(c.verdict(Some("#{\"MON-4\" \"LAP-1\"}")), Verdict::Pass);
        assert_ne!(c.verdict(Some("[\"MON-4\"]")), Verdict::Pass);
        assert_ne!(c.verdict(Some("[\"MON-4\" \"LAP-1\" \"KEY-3\"]")), Verdict::Pass);
    }

    #[test]
    fn predicates_see_the_result_as_data_result() {
        let c = check("predicate = '(and (map? data/result) (> (:total data/result) 100))'");
        assert_eq!(c.verdict(Some("{:total 101}")), Verdict::Pass);
        assert_ne!(c.verdict(Some("{:total 99}")), Verdict::Pass);
        let broken = check("predicate = '(tool/x {})'");
        assert!(matches!(broken.verdict(Some("1")), Verdict::Fail(m) if m.starts_with("the predicate failed")));
    }

    #[test]
    fn an_expect_table_needs_exactly_one_check() {
        let none: Check = toml::from_str("").unwrap();
        assert!(none.validate().unwrap_err().contains("needs one of"));
        let two: Check = toml::from_str("exact = '1'\nnumber = 1").unwrap();
        assert!(two.validate().unwrap_err().contains("keep one"));
        let bad: Check = toml::from_str("set = '1'").unwrap();
        assert!(bad.validate().unwrap_err().contains("not a vector"));
    }
}
