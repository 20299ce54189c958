//! How long the accounting of one long session takes: 60 turns, 10
//! strategies, the three built-in price models, plus fact recall; the
//! prompts are built before the clock starts. Prints the figures and the
//! cost of each strategy relative to full history.
//!
//! ```sh
//! cargo run --release -p ptc-cost --example timing [-- --html report.html]
//! ```

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::Instant;

use ptc_cost::{render_html, Accounting, LearnedFacts, PriceModels, Prompt, TokenMemo};
use ptc_tokens::TokenCounter;

const STRATEGIES: [&str; 10] = [
    "full-history",
    "coalesced",
    "rolling-1",
    "rolling-2",
    "rolling-3",
    "rolling-5",
    "rolling-8",
    "checkpointed-4",
    "checkpointed-8",
    "checkpointed-16",
];

fn main() {
    let html = std::env::args().skip_while(|a| a != "--html").nth(1);
    let session = support::session("timing", 7, 60);
    let prompts: Vec<Vec<Prompt>> = STRATEGIES.iter().map(|s| support::strategy_prompts(&session, s)).collect();
    let counter = TokenCounter::new(ptc_tokens::DEFAULT_ENCODING).expect("o200k_base is built in");
    let models = PriceModels::builtin();
    let chars: usize = prompts.iter().flatten().map(|p| p.text().len()).sum();

    let mut memo = TokenMemo::new(&counter);
    let start = Instant::now();
    let totals: Vec<Vec<f64>> = prompts
        .iter()
        .map(|turns| {
            models
                .iter()
                .map(|m| {
                    let mut acc = Accounting::new(m);
                    for p in turns {
                        acc.turn(p, None, &mut memo);
                    }
                    acc.total().cost.total()
                })
                .collect()
        })
        .collect();
    let accounting = start.elapsed();

    // Each model alone, tokenizing its own request pieces from scratch.
    let alone: Vec<String> = models
        .iter()
        .map(|m| {
            let mut memo = TokenMemo::new(&counter);
            let start = Instant::now();
            for turns in &prompts {
                let mut acc = Accounting::new(m);
                for p in turns {
                    acc.turn(p, None, &mut memo);
                }
            }
            format!("{} {:.0} ms", m.name(), start.elapsed().as_secs_f64() * 1e3)
        })
        .collect();

    let start = Instant::now();
    let facts = LearnedFacts::new(&session.given(), &session.outputs());
    let recalls: Vec<_> =
        prompts.iter().map(|turns| facts.recall(&turns.iter().map(Prompt::text).collect::<Vec<_>>())).collect();
    let recall = start.elapsed();

    println!(
        "60 turns x {} strategies x {} price models ({:.1} MB of prompt text, {} distinct pieces tokenized): \
         accounting {:.0} ms, fact recall {:.1} ms",
        STRATEGIES.len(),
        models.iter().count(),
        chars as f64 / 1e6,
        memo.distinct_texts(),
        accounting.as_secs_f64() * 1e3,
        recall.as_secs_f64() * 1e3
    );
    println!("each model alone, from an empty memo: {}", alone.join(", "));
    let names: Vec<&str> = models.iter().map(|m| m.name()).collect();
    println!("\n| strategy | {} | recall |", names.join(" | "));
    println!("|---|{}---:|", "---:|".repeat(names.len()));
    for ((name, total), r) in STRATEGIES.iter().zip(&totals).zip(&recalls) {
        let ratios: Vec<String> =
            total.iter().zip(&totals[0]).map(|(c, base)| format!("{:.1}%", 100.0 * c / base)).collect();
        println!("| {name} | {} | {:.0}% |", ratios.join(" | "), 100.0 * r.share().unwrap_or(0.0));
    }

    if let Some(path) = html {
        let mut memo = TokenMemo::new(&counter);
        let report = support::report("ptc-cost timing session", &[session], &STRATEGIES, 30, &mut memo);
        std::fs::write(&path, render_html(&report)).unwrap_or_else(|e| panic!("cannot write {path}: {e}"));
        println!("\nreport written to {path}");
    }
}
