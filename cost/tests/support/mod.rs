//! Sessions and strategies that look like ptc's, for the tests and the
//! timing example: a long system prompt, a mission with tools and data,
//! turns with tool calls, large results, prints, failures and their fixes,
//! and later programs that reuse the IDs and figures earlier output revealed.
#![allow(dead_code)]

use ptc_cost::{
    Accounting, Block, FrontierPoint, LearnedFacts, Message, ModelCosts, Overview, PriceModels, Prompt, Report, Role,
    SessionReport, ShownPrompt, StrategyReport, TokenMemo, TurnOutput,
};

/// ptc's language card, about 1,000 tokens.
pub const SYSTEM: &str = include_str!("../fixtures/system.md");

/// One recorded turn.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The model's answer: a sentence and the program's block.
    pub answer: String,
    /// The program.
    pub program: String,
    /// What the host showed back: prints, result or error.
    pub feedback: String,
    /// Prints, tool results and result (what later turns learn from).
    pub output: Vec<String>,
}

/// A generated session.
#[derive(Clone, Debug)]
pub struct Session {
    pub name: String,
    pub mission: String,
    pub tools: String,
    pub data: String,
    pub max_turns: usize,
    pub turns: Vec<Turn>,
}

fn customer(seed: u64, i: u64) -> String {
    const NAMES: [&str; 8] = ["initech", "hooli", "globex", "umbrella", "stark", "wayne", "soylent", "tyrell"];
    format!("{}-{}", NAMES[((seed + i) % 8) as usize], 4400 + (seed * 37 + i * 11) % 500)
}

fn order_id(seed: u64, i: u64) -> u64 {
    70_000 + (seed * 131 + i * 97) % 9_000
}

fn amount(seed: u64, i: u64) -> String {
    format!("{}.{:02}", 100 + (seed * 53 + i * 71) % 900, (seed * 7 + i * 13) % 100)
}

/// A session of `turns` turns (seeded: two seeds give two different runs).
pub fn session(name: &str, seed: u64, turns: usize) -> Session {
    let mission = format!(
        "Find the customers whose March 2024 orders were refunded twice, check their \
         current balance with the billing tool, and return a map from customer id to \
         {{:orders [ids] :balance amount}}. Region: {}.",
        ["west", "north", "south", "east"][(seed % 4) as usize]
    );
    let tools = "tool/search-orders(month string, status string?) -> [{id int, customer string, total float, status string}]  ; Orders of a month\n\
                 tool/get-customer(id string) -> {id string, name string, balance float, tier string}  ; One customer\n\
                 tool/refunds(order-id int) -> [{at string, amount float, reason string}]  ; Refund history of an order\n\
                 ;; Example: (tool/search-orders {:month ... :status ...})"
        .to_string();
    let data = "data/month                    ; string, sample: \"2024-03\"\n\
                data/regions                  ; list[4], sample: [\"west\" \"north\" \"south\" ...]"
        .to_string();
    let mut out = Vec::new();
    for t in 0..turns as u64 {
        let (answer_text, program, feedback, output): (&str, String, String, Vec<String>) = match t % 6 {
            0 => {
                let rows: Vec<String> = (0..12 + (t % 4) * 6)
                    .map(|i| {
                        format!(
                            "{{:id {} :customer \"{}\" :total {} :status \"{}\"}}",
                            order_id(seed, t * 40 + i),
                            customer(seed, t + i),
                            amount(seed, t + i),
                            ["refunded", "shipped", "pending"][(i % 3) as usize]
                        )
                    })
                    .collect();
                let result = format!("[{}]", rows.join(" "));
                (
                    "Let me fetch the refunded orders of the month and look at a few.",
                    format!(
                        "(def orders-{t} (tool/search-orders {{:month data/month :status \"refunded\"}}))\n(println (count orders-{t}) (take 6 orders-{t}))"
                    ),
                    format!("{} {}\nuser=> nil", rows.len(), rows[..6].join(" ")),
                    vec![result, format!("{} ({})", rows.len(), rows[..6].join(" "))],
                )
            }
            1 => {
                let c = customer(seed, t - 1);
                let id = order_id(seed, (t - 1) * 40);
                (
                    "The first order looks interesting; I'll check its refund history.",
                    format!("(def history (tool/refunds {{:order-id {id}}}))\n(println \"{c}\" (count history) (map :amount history))"),
                    format!("{c} 2 ({} {})\nuser=> nil", amount(seed, t), amount(seed, t + 1)),
                    vec![format!(
                        "[{{:at \"2024-03-0{}\" :amount {} :reason \"damaged\"}} {{:at \"2024-03-1{}\" :amount {} :reason \"late\"}}]",
                        t % 9 + 1,
                        amount(seed, t),
                        t % 9,
                        amount(seed, t + 1)
                    )],
                )
            }
            2 => {
                let c = customer(seed, t - 2);
                (
                    "Now the balance of that customer.",
                    format!("(def cust (tool/get-customer {{:id \"{c}\"}}))\n(println (:balance cust))\n(+ (:balance cust) \"0\")"),
                    format!("{}\nError: +: expected number, got string", amount(seed, t * 3)),
                    vec![
                        format!("{{:id \"{c}\" :name \"{}\" :balance {} :tier \"gold\"}}", c.to_uppercase(), amount(seed, t * 3)),
                        amount(seed, t * 3),
                    ],
                )
            }
            3 => {
                let c = customer(seed, t - 3);
                (
                    "The balance is already a number; I'll keep it as is.",
                    format!(
                        "(def balances (assoc (or balances {{}}) \"{c}\" {}))\n(println balances)",
                        amount(seed, (t - 1) * 3)
                    ),
                    format!("{{\"{c}\" {}}}\nuser=> nil", amount(seed, (t - 1) * 3)),
                    vec![format!("{{\"{c}\" {}}}", amount(seed, (t - 1) * 3))],
                )
            }
            4 => {
                let lines: Vec<String> = (0..3 + t % 5)
                    .map(|i| {
                        format!("{} refunded {} times, last {}", customer(seed, t + i), 1 + i % 3, amount(seed, t + i))
                    })
                    .collect();
                (
                    "A summary per customer so far.",
                    "(defn summarize [os] (map (fn [[c xs]] (str c \" refunded \" (count xs) \" times\")) (group-by :customer os)))\n(doseq [l (summarize orders)] (println l))".to_string(),
                    format!("{}\nuser=> nil", lines.join("\n")),
                    vec![lines.join("\n")],
                )
            }
            _ => {
                let id = order_id(seed, (t - 5) * 40 + 3);
                (
                    "One more check on an order from the search.",
                    format!("(count (tool/refunds {{:order-id {id}}}))"),
                    "user=> 2".to_string(),
                    vec!["2".to_string()],
                )
            }
        };
        out.push(Turn { answer: format!("{answer_text}\n\n```clojure\n{program}\n```"), program, feedback, output });
    }
    Session { name: name.to_string(), mission, tools, data, max_turns: turns + 5, turns: out }
}

impl Session {
    /// The first user message: mission, tools, data.
    pub fn mission_block(&self) -> String {
        format!("{}\n\n;; === tool/ ===\n{}\n\n;; === data/ ===\n{}", self.mission, self.tools, self.data)
    }

    fn turns_left(&self, before: usize) -> String {
        format!("Turns left: {}", self.max_turns - before)
    }

    /// The texts the agent was given, for fact recall.
    pub fn given(&self) -> Vec<&str> {
        vec![&self.mission, &self.tools, &self.data]
    }

    /// Every turn's program and output, for fact recall.
    pub fn outputs(&self) -> Vec<TurnOutput<'_>> {
        self.turns
            .iter()
            .map(|t| TurnOutput { program: &t.program, output: t.output.iter().map(String::as_str).collect() })
            .collect()
    }

    /// Full history: the prompt of turn `n` (1-based) holds every earlier
    /// answer and feedback, each with the turns left at that time.
    pub fn full_history(&self, n: usize) -> Prompt {
        let mut m =
            vec![Message::system(SYSTEM), Message::user(format!("{}\n\n{}", self.mission_block(), self.turns_left(0)))];
        for (k, t) in self.turns[..n - 1].iter().enumerate() {
            m.push(Message::assistant(&t.answer));
            m.push(Message::user(format!("{}\n\n{}", t.feedback, self.turns_left(k + 1))));
        }
        Prompt::new(m)
    }

    /// Coalesced: one user message rebuilt every turn from what the agent
    /// learned (a line per earlier turn, the latest feedback in full).
    pub fn coalesced(&self, n: usize) -> Prompt {
        let mut user = self.mission_block();
        if n > 1 {
            user.push_str("\n\n;; === what you did ===\n");
            for (k, t) in self.turns[..n - 1].iter().enumerate() {
                let first = t.program.lines().next().unwrap_or("");
                user.push_str(&format!(";; turn {}: {}\n", k + 1, first));
            }
            user.push_str("\n;; === latest output ===\n");
            user.push_str(&self.turns[n - 2].feedback);
        }
        user.push_str(&format!("\n\n{}", self.turns_left(n - 1)));
        Prompt::new(vec![Message::system(SYSTEM), Message::user(user)])
    }

    /// Rolling window: the mission and the last `window` turns.
    pub fn rolling(&self, n: usize, window: usize) -> Prompt {
        let mut full = self.full_history(n);
        let pairs = (full.messages.len() - 2) / 2;
        let drop = pairs.saturating_sub(window);
        full.messages.drain(2..2 + 2 * drop);
        full
    }

    /// Checkpointed (the layout cache-stable strategies will use): a frozen
    /// block per `every` turns, then append-only turn blocks, breakpoints on
    /// the system prompt, the frozen block and the newest turn block.
    pub fn checkpointed(&self, n: usize, every: usize) -> Prompt {
        let done = n - 1;
        let frozen = done / every * every;
        let mut blocks = vec![Block::new(self.mission_block())];
        if frozen > 0 {
            let summary: Vec<String> = self.turns[..frozen]
                .iter()
                .enumerate()
                .map(|(k, t)| format!(";; turn {}: {}", k + 1, t.program.lines().next().unwrap_or("")))
                .collect();
            blocks.push(Block::breakpoint(format!("\n\n;; === turns 1-{frozen} ===\n{}", summary.join("\n"))));
        }
        for (k, t) in self.turns[frozen..done].iter().enumerate() {
            blocks.push(Block::new(format!("\n\n;; turn {}\n{}\n{}", frozen + k + 1, t.program, t.feedback)));
        }
        // The newest history block ends the stable prefix; the turn info
        // after it changes every turn.
        if let Some(last) = blocks.last_mut() {
            last.breakpoint = true;
        }
        blocks.push(Block::new(format!("\n\n{}", self.turns_left(done))));
        Prompt::new(vec![
            Message::with_blocks(Role::System, vec![Block::breakpoint(SYSTEM)]),
            Message::with_blocks(Role::User, blocks),
        ])
    }
}

/// The prompts a named strategy sends for every turn of `s`:
/// `full-history`, `coalesced`, `rolling-N` or `checkpointed-N`.
pub fn strategy_prompts(s: &Session, strategy: &str) -> Vec<Prompt> {
    let param = |prefix: &str| strategy.strip_prefix(prefix).and_then(|n| n.parse::<usize>().ok());
    (1..=s.turns.len())
        .map(|n| match strategy {
            "full-history" => s.full_history(n),
            "coalesced" => s.coalesced(n),
            _ if param("rolling-").is_some() => s.rolling(n, param("rolling-").unwrap()),
            _ if param("checkpointed-").is_some() => s.checkpointed(n, param("checkpointed-").unwrap()),
            other => panic!("unknown test strategy {other}"),
        })
        .collect()
}

/// Accounts every strategy on every session under every built-in model,
/// with fact recall and turn `shown_turn`'s prompt: the data of a report.
/// The first strategy is the baseline.
pub fn report(
    title: &str,
    sessions: &[Session],
    strategies: &[&str],
    shown_turn: usize,
    memo: &mut TokenMemo,
) -> Report {
    let models = PriceModels::builtin();
    let sessions: Vec<SessionReport> = sessions
        .iter()
        .map(|s| {
            let facts = LearnedFacts::new(&s.given(), &s.outputs());
            let reports: Vec<StrategyReport> = strategies
                .iter()
                .map(|&name| {
                    let prompts = strategy_prompts(s, name);
                    let costs: Vec<ModelCosts> = models
                        .iter()
                        .map(|m| {
                            let mut acc = Accounting::new(m);
                            ModelCosts {
                                model: m.name().to_string(),
                                unit: m.unit(),
                                turns: prompts.iter().map(|p| acc.turn(p, Some(80), memo)).collect(),
                            }
                        })
                        .collect();
                    let texts: Vec<String> = prompts.iter().map(Prompt::text).collect();
                    StrategyReport {
                        name: name.to_string(),
                        prompt_tokens: costs[0].turns.iter().map(|t| t.usage.prompt_tokens).collect(),
                        costs,
                        recall: Some(facts.recall(&texts)),
                        stale: Some(0),
                        shown_prompt: texts
                            .get(shown_turn - 1)
                            .map(|text| ShownPrompt { turn: shown_turn, text: text.clone() }),
                    }
                })
                .collect();
            SessionReport {
                name: s.name.clone(),
                baseline: strategies.first().map(|b| b.to_string()),
                strategies: reports,
            }
        })
        .collect();
    let frontier = frontier_points(&sessions);
    let overview = Overview {
        headers: vec!["strategy".into(), "history cost".into()],
        rows: strategies.iter().map(|s| vec![s.to_string(), "n/a".into()]).collect(),
        notes: vec!["n/a: no-history is not a floor here".into()],
    };
    Report { title: title.to_string(), overview: Some(overview), frontier, sessions }
}

/// Per strategy and model, the input cost over all sessions as a share of
/// the first strategy's, and the recall over all sessions.
fn frontier_points(sessions: &[SessionReport]) -> Vec<FrontierPoint> {
    let Some(first) = sessions.first() else { return Vec::new() };
    let cost = |strategy: usize, model: usize| -> f64 {
        sessions.iter().flat_map(|s| s.strategies[strategy].costs[model].turns.iter()).map(|t| t.cost.input).sum()
    };
    let mut points = Vec::new();
    for (i, strategy) in first.strategies.iter().enumerate() {
        let (used, visible) = sessions
            .iter()
            .filter_map(|s| s.strategies[i].recall.as_ref())
            .fold((0, 0), |a, r| (a.0 + r.used, a.1 + r.visible));
        for (m, model) in strategy.costs.iter().enumerate() {
            points.push(FrontierPoint {
                strategy: strategy.name.clone(),
                model: model.model.clone(),
                cost: cost(i, m) / cost(0, m),
                recall: (used > 0).then(|| visible as f64 / used as f64),
            });
        }
    }
    points
}
