//! Which runs a bench does: every task × strategy × run index, in a fixed
//! order, cut to one shard (`--shard i/n`: every n-th run from the i-th),
//! less the runs the result file already holds (resume after a kill).

use crate::record::RunKey;
use crate::task::Suite;
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// `--shard i/n`: the i-th of n shards, 0-based (`0/4` .. `3/4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// The whole plan.
    pub const ALL: Shard = Shard { index: 0, count: 1 };
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad =
            || format!("--shard {s:?}: expected i/n with 0 <= i < n, e.g. 0/4 (with Slurm: $SLURM_ARRAY_TASK_ID/N)");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u32>().map_err(|_| bad())?, n.trim().parse::<u32>().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Every run of `suite` with `strategies` and `runs` each, in plan order
/// (task, then strategy, then run index), this shard's only.
pub fn plan(suite: &Suite, strategies: &[String], runs: u32, shard: Shard) -> Vec<RunKey> {
    let all = suite.tasks.iter().flat_map(|t| {
        strategies
            .iter()
            .flat_map(move |s| (0..runs).map(move |run| RunKey { task: t.name.clone(), strategy: s.clone(), run }))
    });
    all.enumerate().filter(|(i, _)| *i as u32 % shard.count == shard.index).map(|(_, k)| k).collect()
}

/// `planned` less the runs in `done`.
pub fn pending(planned: Vec<RunKey>, done: &BTreeSet<RunKey>) -> Vec<RunKey> {
    planned.into_iter().filter(|k| !done.contains(k)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_with_actionable_errors() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard { index: 2, count: 4 });
        for bad in ["4/4", "1", "a/b", "0/0"] {
            assert!(bad.parse::<Shard>().unwrap_err().contains("expected i/n"), "{bad}");
        }
    }

    #[test]
    fn shards_partition_the_plan() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/suites/core");
        let suite = Suite::load(&dir).unwrap();
        let strategies = vec!["full-history".to_string(), "rolling".to_string()];
        let all = plan(&suite, &strategies, 3, Shard::ALL);
        assert_eq!(all.len(), suite.tasks.len() * 2 * 3);
        let mut joined: Vec<RunKey> =
            (0..4).flat_map(|i| plan(&suite, &strategies, 3, Shard { index: i, count: 4 })).collect();
        joined.sort();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(joined, sorted);
        let done: BTreeSet<RunKey> = all[..5].iter().cloned().collect();
        assert_eq!(pending(all.clone(), &done), all[5..]);
    }
}
