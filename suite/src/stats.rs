//! The statistics of a report: the Wilson score interval of a pass rate and
//! the exact McNemar test of two strategies on the same (task, run) pairs.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The 95% Wilson score interval of `passed` out of `n` (`(0, 1)` for `n = 0`).
///
/// Unlike the normal approximation it stays inside [0, 1] and is not zero
/// wide at 0 or n passes, which matters at the few dozen runs a bench has.
pub fn wilson(passed: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (x, n) = (passed as f64, n as f64);
    let p = x / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The paired comparison of a strategy against a baseline on the same
/// (task, run) pairs.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct McNemar {
    /// Pairs both strategies ran.
    pub pairs: u64,
    /// Pairs the baseline passed and the strategy failed.
    pub baseline_only: u64,
    /// Pairs the strategy passed and the baseline failed.
    pub strategy_only: u64,
    /// The exact two-sided p-value (binomial on the discordant pairs, p = 1/2).
    pub p_value: f64,
}

impl McNemar {
    /// The test over `pairs` of (baseline passed, strategy passed).
    pub fn of(pairs: impl IntoIterator<Item = (bool, bool)>) -> McNemar {
        let (mut n, mut b, mut c) = (0, 0, 0);
        for (baseline, strategy) in pairs {
            n += 1;
            match (baseline, strategy) {
                (true, false) => b += 1,
                (false, true) => c += 1,
                _ => {}
            }
        }
        McNemar { pairs: n, baseline_only: b, strategy_only: c, p_value: exact_mcnemar(b, c) }
    }

    /// Whether the difference is significant at 5% (two-sided).
    pub fn significant(&self) -> bool {
        self.p_value < 0.05
    }

    /// The plain-words verdict a report prints.
    pub fn verdict(&self) -> &'static str {
        if self.significant() {
            "significant at 5%"
        } else {
            "not significant"
        }
    }
}

/// The exact two-sided McNemar p-value of `b` and `c` discordant pairs:
/// `min(1, 2 · P[X ≤ min(b, c)])` for X ~ Binomial(b + c, 1/2).
pub fn exact_mcnemar(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let ln_half_n = n as f64 * 0.5f64.ln();
    let tail: f64 = (0..=b.min(c)).map(|k| (ln_choose(n, k) + ln_half_n).exp()).sum();
    (2.0 * tail).min(1.0)
}

/// ln C(n, k), summed from the smaller side (exact enough for the counts a bench has).
fn ln_choose(n: u64, k: u64) -> f64 {
    let k = k.min(n - k);
    (0..k).map(|i| ((n - i) as f64).ln() - ((i + 1) as f64).ln()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn wilson_matches_published_values() {
        // statsmodels proportion_confint(8, 10, method="wilson").
        let (lo, hi) = wilson(8, 10);
        assert!(close(lo, 0.490_162_4) && close(hi, 0.943_317_8), "{lo} {hi}");
        // 0 of 10: the upper bound is z²/(n + z²).
        let (lo, hi) = wilson(0, 10);
        assert_eq!(lo, 0.0);
        assert!(close(hi, Z95 * Z95 / (10.0 + Z95 * Z95)), "{hi}");
        // Symmetric: x of n mirrors n - x of n.
        let (a, b) = wilson(27, 30);
        let (c, d) = wilson(3, 30);
        assert!(close(a, 1.0 - d) && close(b, 1.0 - c));
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn exact_mcnemar_matches_the_binomial_tail() {
        // 1 vs 9 discordant: 2 · (1 + 10) / 1024.
        assert!(close(exact_mcnemar(1, 9), 0.021_484_375));
        assert!(close(exact_mcnemar(9, 1), 0.021_484_375));
        // 2 vs 8: 2 · (1 + 10 + 45) / 1024.
        assert!(close(exact_mcnemar(2, 8), 0.109_375));
        // 0 vs 6: 2 / 64; 0 vs 5: 2 / 32 (not significant).
        assert!(close(exact_mcnemar(0, 6), 0.031_25));
        assert!(close(exact_mcnemar(0, 5), 0.062_5));
        assert_eq!(exact_mcnemar(5, 5), 1.0);
        assert_eq!(exact_mcnemar(0, 0), 1.0);
        // Large counts stay finite: 100 vs 150.
        let p = exact_mcnemar(100, 150);
        assert!(p > 0.001 && p < 0.003, "{p}");
    }

    #[test]
    fn the_paired_test_counts_only_discordant_pairs() {
        let pairs = [(true, true), (true, false), (false, true), (false, true), (false, false)];
        let t = McNemar::of(pairs);
        assert_eq!((t.pairs, t.baseline_only, t.strategy_only), (5, 1, 2));
        assert_eq!(t.verdict(), "not significant");
        let t = McNemar::of(std::iter::repeat_n((true, false), 6));
        assert_eq!(t.verdict(), "significant at 5%");
    }
}
