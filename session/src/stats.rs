//! What the render of a turn's prompt did, as the session records it
//! (a turn's `render_stats`).

use indexmap::IndexMap;
use ptc_plugin_api::Stats;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// A turn's render stats: the strategy's [`Stats`] and what the host adds
/// (the instance that served it, the trigger latch, the instances it tried).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RenderStats {
    /// The strategy that rendered the prompt.
    #[serde(default)]
    pub strategy: String,
    /// Completed turns folded into a summary instead of shown verbatim.
    #[serde(default)]
    pub turns_compressed: u32,
    /// Tool calls made by successful turns.
    #[serde(default)]
    pub tool_calls_total: u32,
    /// Tool calls listed in the prompt.
    #[serde(default)]
    pub tool_calls_shown: u32,
    /// Tool calls left out.
    #[serde(default)]
    pub tool_calls_dropped: u32,
    /// println calls made by successful turns.
    #[serde(default)]
    pub printlns_total: u32,
    /// println calls shown.
    #[serde(default)]
    pub printlns_shown: u32,
    /// println calls left out.
    #[serde(default)]
    pub printlns_dropped: u32,
    /// Failed turns collapsed into one line.
    #[serde(default)]
    pub error_turns_collapsed: u32,
    /// The plugin's own counters by name (integers), and any figure this
    /// version does not name, kept as read.
    #[serde(flatten)]
    pub counters: IndexMap<String, Json>,
    /// The strategy's warnings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The instance that served the turn (`full-history` before a trigger).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// Whether the instance's trigger had fired by this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switched: Option<bool>,
    /// One line per instance tried, when more than one was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<String>,
    /// How many calls of the turn's program the result cache answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls_cached: Option<u64>,
}

impl From<&Stats> for RenderStats {
    fn from(stats: &Stats) -> RenderStats {
        RenderStats {
            strategy: stats.strategy().to_string(),
            turns_compressed: stats.turns_compressed,
            tool_calls_total: stats.tool_calls_total,
            tool_calls_shown: stats.tool_calls_shown,
            tool_calls_dropped: stats.tool_calls_dropped,
            printlns_total: stats.printlns_total,
            printlns_shown: stats.printlns_shown,
            printlns_dropped: stats.printlns_dropped,
            error_turns_collapsed: stats.error_turns_collapsed,
            counters: stats.counters().iter().map(|c| (c.name().to_string(), c.value().into())).collect(),
            warnings: stats.warnings().map(str::to_string).collect(),
            ..RenderStats::default()
        }
    }
}

impl RenderStats {
    /// The plugin counter `name`, if it was recorded as an integer.
    pub fn counter(&self, name: &str) -> Option<i64> {
        self.counters.get(name).and_then(Json::as_i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_reads_back_as_written_in_the_same_order() {
        let text = r#"{"strategy":"single-user-coalesced","turns_compressed":2,"tool_calls_total":3,"tool_calls_shown":1,"tool_calls_dropped":2,"printlns_total":0,"printlns_shown":0,"printlns_dropped":0,"error_turns_collapsed":0,"facts_kept":4,"warnings":["w"],"instance":"coalesced","switched":true,"attempts":["`a` needs 9 tokens"],"tool_calls_cached":1}"#;
        let stats: RenderStats = serde_json::from_str(text).unwrap();
        assert_eq!((stats.counter("facts_kept"), stats.switched), (Some(4), Some(true)));
        assert_eq!(serde_json::to_string(&stats).unwrap(), text);
    }

    #[test]
    fn an_older_record_without_host_fields_reads() {
        let stats: RenderStats = serde_json::from_value(json!({"strategy": "full-history"})).unwrap();
        assert_eq!((stats.instance, stats.switched, stats.tool_calls_cached), (None, None, None));
    }
}
