//! The `--limits` argument of a child process that runs plugin code: the
//! limits the child applies itself (its memory and CPU caps are set by the
//! parent before it starts, [`Caps::apply`]).
//!
//! One JSON object, every field optional; a child reads the fields it
//! applies and keeps its defaults for the rest. `ptc render-child`
//! ([`isolate`](crate::isolate)) applies the render stack and the CPU time
//! per render; a conformance case's child the render stack, the time and
//! the output size of a render.
//!
//! ```
//! use ptc_registry::child_limits::ChildLimits;
//! use std::time::Duration;
//!
//! let limits = ChildLimits { stack_bytes: Some(1 << 20), cpu: Some(Duration::from_secs(5)), ..Default::default() };
//! assert_eq!(limits.to_json(), r#"{"stack_bytes":1048576,"cpu_ms":5000}"#);
//! assert_eq!(ChildLimits::parse(&limits.to_json()), Ok(limits));
//! ```

use crate::caps::Caps;
use serde_json::{Map, Value};
use std::fmt;
use std::time::Duration;

/// The limits a child applies itself; `None` leaves the child's default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChildLimits {
    /// `stack_bytes`: the stack of the render thread ([`Caps::stack`]).
    pub stack_bytes: Option<usize>,
    /// `cpu_ms`: CPU time per render, renewed before each
    /// ([`renew_cpu`](crate::caps::renew_cpu)).
    pub cpu: Option<Duration>,
    /// `render_time_ms`: wall time one render may take.
    pub render_time: Option<Duration>,
    /// `output_bytes`: message bytes one render may produce.
    pub output_bytes: Option<usize>,
}

/// Why a `--limits` argument cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LimitsError {
    /// The argument is not JSON (serde_json's message, with the column).
    NotJson(String),
}

impl fmt::Display for LimitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitsError::NotJson(e) => write!(f, "--limits is not JSON: {e}"),
        }
    }
}

impl std::error::Error for LimitsError {}

impl ChildLimits {
    /// The limits of `caps` a child applies itself: the render stack and
    /// the CPU time.
    pub fn of_caps(caps: &Caps) -> ChildLimits {
        ChildLimits { stack_bytes: Some(caps.stack), cpu: Some(caps.cpu), ..ChildLimits::default() }
    }

    /// `caps` with the render stack and the CPU time given here.
    pub fn apply_to(&self, caps: Caps) -> Caps {
        Caps { stack: self.stack_bytes.unwrap_or(caps.stack), cpu: self.cpu.unwrap_or(caps.cpu), ..caps }
    }

    /// The argument: a JSON object of the fields given.
    pub fn to_json(&self) -> String {
        let millis = |d: Duration| Value::from(d.as_millis() as u64);
        let fields = [
            ("stack_bytes", self.stack_bytes.map(Value::from)),
            ("cpu_ms", self.cpu.map(millis)),
            ("render_time_ms", self.render_time.map(millis)),
            ("output_bytes", self.output_bytes.map(Value::from)),
        ];
        let object: Map<String, Value> =
            fields.into_iter().filter_map(|(key, value)| Some((key.to_string(), value?))).collect();
        Value::Object(object).to_string()
    }

    /// Reads the argument. A field that is absent, or not a whole number of
    /// 0 or more, is left out; other keys are ignored.
    pub fn parse(text: &str) -> Result<ChildLimits, LimitsError> {
        let v: Value = serde_json::from_str(text).map_err(|e| LimitsError::NotJson(e.to_string()))?;
        let number = |key: &str| v[key].as_u64();
        Ok(ChildLimits {
            stack_bytes: number("stack_bytes").map(|n| n as usize),
            cpu: number("cpu_ms").map(Duration::from_millis),
            render_time: number("render_time_ms").map(Duration::from_millis),
            output_bytes: number("output_bytes").map(|n| n as usize),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_round_trips_and_absent_ones_stay_absent() {
        let all = ChildLimits {
            stack_bytes: Some(8 << 20),
            cpu: Some(Duration::from_millis(1500)),
            render_time: Some(Duration::from_secs(2)),
            output_bytes: Some(200_000),
        };
        assert_eq!(ChildLimits::parse(&all.to_json()), Ok(all));
        assert_eq!(ChildLimits::default().to_json(), "{}");
        assert_eq!(ChildLimits::parse("{}"), Ok(ChildLimits::default()));
    }

    #[test]
    fn caps_keep_what_the_limits_leave_out() {
        let caps = Caps { memory: 1 << 20, cpu: Duration::from_secs(3), stack: 1 << 16 };
        assert_eq!(
            ChildLimits::of_caps(&caps).apply_to(Caps::default()),
            Caps { memory: Caps::default().memory, ..caps }
        );
        let stack_only = ChildLimits { stack_bytes: Some(4096), ..ChildLimits::default() };
        assert_eq!(stack_only.apply_to(caps), Caps { stack: 4096, ..caps });
    }

    #[test]
    fn bad_fields_are_left_out_and_bad_json_is_named() {
        let lax = ChildLimits::parse(r#"{"stack_bytes": -1, "cpu_ms": "5", "other": 1, "output_bytes": 7}"#);
        assert_eq!(lax, Ok(ChildLimits { output_bytes: Some(7), ..ChildLimits::default() }));
        let err = ChildLimits::parse("{stack").unwrap_err();
        assert!(err.to_string().starts_with("--limits is not JSON: key must be a string"), "{err}");
    }
}
