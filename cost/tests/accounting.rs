//! Cache accounting with the real tokenizer on prompts shaped like ptc's.

mod support;

use ptc_cost::{session_costs, Accounting, Message, PriceModel, Prompt, TokenMemo, TurnCost, Usage};
use ptc_tokens::TokenCounter;
use support::{session, SYSTEM};

fn counter() -> TokenCounter {
    TokenCounter::new(ptc_tokens::DEFAULT_ENCODING).unwrap()
}

fn model(name: &str) -> PriceModel {
    PriceModel::builtin(name).unwrap()
}

/// `prompts` accounted under the built-in `anthropic` and `openai` models.
fn under_caching(prompts: &[Prompt]) -> [Vec<TurnCost>; 2] {
    let c = counter();
    let mut memo = TokenMemo::new(&c);
    ["anthropic", "openai"].map(|name| session_costs(&model(name), prompts, &mut memo))
}

const MISSION: &str = "Find the customers whose March 2024 orders were refunded twice, check their current \
balance with the billing tool, and return a map from customer id to {:orders [ids] :balance amount}.\n\n\
;; === tool/ ===\n\
tool/search-orders(month string, status string?) -> [{id int, customer string, total float, status string}]\n\
tool/get-customer(id string) -> {id string, name string, balance float, tier string}\n\n\
;; === data/ ===\n\
data/month                    ; string, sample: \"2024-03\"\n\nTurns left: 12";
const ANSWER: &str = "Let me fetch the refunded orders first.\n\n```clojure\n\
(def orders (tool/search-orders {:month data/month :status \"refunded\"}))\n(println (count orders) (take 2 orders))\n```";
const FEEDBACK: &str = "14 ({:id 70412 :customer \"initech-4417\" :total 1296.0 :status \"refunded\"} \
{:id 70388 :customer \"hooli-4528\" :total 0.9173 :status \"refunded\"})\nuser=> nil\n\nTurns left: 11";

/// Two consecutive full-history prompts: turn 2 appends the answer and the
/// feedback to turn 1.
fn two_prompts() -> [Prompt; 2] {
    let turn1 = Prompt::new(vec![Message::system(SYSTEM), Message::user(MISSION)]);
    let mut turn2 = turn1.clone();
    turn2.messages.push(Message::assistant(ANSWER));
    turn2.messages.push(Message::user(FEEDBACK));
    [turn1, turn2]
}

fn split(t: &TurnCost) -> (u64, u64, u64, u64) {
    let u = t.usage;
    (u.prompt_tokens, u.cache_read_tokens, u.cache_write_tokens, u.uncached_tokens)
}

fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// The issue's "must show": the split of two fixed consecutive prompts under
/// each built-in model, in exact token figures. The figures are derived
/// below from the request bodies written out by hand, piece by piece.
#[test]
fn two_fixed_prompts_split_exactly_under_each_model() {
    let c = counter();
    let mut memo = TokenMemo::new(&c);
    let prompts = two_prompts();
    let n = |text: &str| c.count(text) as u64;

    // Anthropic: {"system":[S],"messages":[{"role":"user","content":[M]},...]}
    let a_system = n(&format!(r#"{{"system":[{{"type":"text","text":{}}}"#, json(SYSTEM)));
    let a_mission =
        n(&format!(r#"],"messages":[{{"role":"user","content":[{{"type":"text","text":{}}}"#, json(MISSION)));
    let a_answer = n(&format!(r#"]}},{{"role":"assistant","content":[{{"type":"text","text":{}}}"#, json(ANSWER)));
    let a_feedback = n(&format!(r#"]}},{{"role":"user","content":[{{"type":"text","text":{}}}"#, json(FEEDBACK)));
    let a_close = n("]}]}");
    let anthropic = session_costs(&model("anthropic"), &prompts, &mut memo);
    // Turn 1: written up to the automatic breakpoint on the mission block.
    assert_eq!(split(&anthropic[0]), (a_system + a_mission + a_close, 0, a_system + a_mission, a_close));
    // Turn 2: turn 1's entry is 2 boundaries before the new breakpoint: read;
    // the two new blocks written.
    assert_eq!(
        split(&anthropic[1]),
        (a_system + a_mission + a_answer + a_feedback + a_close, a_system + a_mission, a_answer + a_feedback, a_close)
    );
    assert_eq!(split(&anthropic[0]), (1298, 0, 1296, 2));
    assert_eq!(split(&anthropic[1]), (1449, 1296, 151, 2));

    // OpenAI: [{"role":"system","content":S},{"role":"user","content":M},...]
    let o_system = n(&format!(r#"[{{"role":"system","content":{}}}"#, json(SYSTEM)));
    let o_mission = n(&format!(r#",{{"role":"user","content":{}}}"#, json(MISSION)));
    let o_rest = n(&format!(r#",{{"role":"assistant","content":{}}}"#, json(ANSWER)))
        + n(&format!(r#",{{"role":"user","content":{}}}"#, json(FEEDBACK)));
    let o_close = n("]");
    let openai = session_costs(&model("openai"), &prompts, &mut memo);
    let shared = o_system + o_mission;
    let cached = 1024 + (shared - 1024) / 128 * 128;
    assert_eq!(split(&openai[0]), (shared + o_close, 0, 0, shared + o_close));
    assert_eq!(split(&openai[1]), (shared + o_rest + o_close, cached, 0, shared + o_rest + o_close - cached));
    assert_eq!(split(&openai[0]), (1286, 0, 0, 1286));
    assert_eq!(split(&openai[1]), (1423, 1280, 0, 143));

    // None: ptc's own count, nothing cached.
    let none = session_costs(&model("none"), &prompts, &mut memo);
    assert_eq!(split(&none[0]), (n(SYSTEM) + n(MISSION) + 2 * 3 + 3, 0, 0, n(SYSTEM) + n(MISSION) + 2 * 3 + 3));
    assert_eq!(split(&none[0]), (1208, 0, 0, 1208));
    assert_eq!(split(&none[1]), (1322, 0, 0, 1322));

    // And what that costs, in input-token equivalents.
    let cost = |t: &TurnCost| (t.cost.input * 100.0).round() / 100.0;
    // Anthropic turn 2: 2 + 151 × 1.25 + 1,296 × 0.1; OpenAI: 143 + 1,280 × 0.1.
    assert_eq!((cost(&anthropic[0]), cost(&anthropic[1])), (1622.0, 320.35));
    assert_eq!((cost(&openai[0]), cost(&openai[1])), (1286.0, 271.0));
    assert_eq!((cost(&none[0]), cost(&none[1])), (1208.0, 1322.0));
}

/// A rewritten user message (the coalesced layout) under each model.
#[test]
fn a_rewritten_message_loses_its_cache() {
    let s = session("rewrite", 1, 8);
    let prompts: Vec<Prompt> = (1..=8).map(|n| s.coalesced(n)).collect();
    let [anthropic, openai] = under_caching(&prompts);
    let close = counter().count("]}]}") as u64;
    for t in 1..8 {
        // Anthropic: the automatic breakpoints are on the system prompt and
        // on the rewritten message: the system prompt is read, everything
        // after it written again.
        let a = anthropic[t].usage;
        let system_prefix = anthropic[1].usage.cache_read_tokens;
        assert!(system_prefix >= 1024, "the system prompt alone is cacheable: {a:?}");
        assert_eq!(a.cache_read_tokens, system_prefix, "turn {}: only the system prompt is read", t + 1);
        assert_eq!(a.cache_read_tokens + a.cache_write_tokens, a.prompt_tokens - close, "turn {}", t + 1);
        // OpenAI: the system prompt and the mission (the rewritten
        // message's unchanged start) are read.
        let o = openai[t].usage;
        assert!(o.cache_read_tokens >= 1024 && o.cache_read_tokens < o.prompt_tokens, "turn {}: {o:?}", t + 1);
    }
}

/// Full history only appends: each turn reads the previous request.
#[test]
fn full_history_reads_the_previous_request() {
    let c = counter();
    let s = session("append", 2, 20);
    let prompts: Vec<Prompt> = (1..=20).map(|n| s.full_history(n)).collect();
    let [anthropic, openai] = under_caching(&prompts);
    let close_a = c.count("]}]}") as u64;
    let close_o = c.count("]") as u64;
    for t in 1..20 {
        let (a, before) = (anthropic[t].usage, anthropic[t - 1].usage);
        assert_eq!(a.cache_read_tokens, before.prompt_tokens - close_a, "turn {}", t + 1);
        assert_eq!(a.cache_write_tokens, a.prompt_tokens - a.cache_read_tokens - close_a);
        let (o, before) = (openai[t].usage, openai[t - 1].usage);
        let shared = before.prompt_tokens - close_o;
        assert_eq!(o.cache_read_tokens, 1024 + (shared - 1024) / 128 * 128, "turn {}", t + 1);
    }
}

/// The layout of the next issue's strategies: a frozen summary block
/// refolded every 8 turns, append-only turn blocks, breakpoints. Between
/// refolds everything the previous request sent is read again, except its
/// changing tail; a refold keeps the system prompt and the mission.
#[test]
fn a_checkpointed_layout_stays_cached_between_refolds() {
    let s = session("checkpointed", 3, 30);
    let prompts: Vec<Prompt> = (1..=30).map(|n| s.checkpointed(n, 8)).collect();
    let [anthropic, openai] = under_caching(&prompts);
    let (mut shares, mut steady) = (0.0, 0);
    for t in 1..30 {
        let (a, before) = (anthropic[t].usage, anthropic[t - 1].usage);
        let o = openai[t].usage;
        if t % 8 == 0 {
            assert_eq!(a.cache_read_tokens, anthropic[1].usage.cache_read_tokens, "refold at turn {}", t + 1);
        } else {
            assert_eq!(a.cache_read_tokens, before.prompt_tokens - before.uncached_tokens, "turn {}", t + 1);
            assert!(a.hit_share() >= 0.85 && o.hit_share() >= 0.8, "turn {}: {a:?} {o:?}", t + 1);
            shares += o.hit_share();
            steady += 1;
        }
    }
    assert!(shares / steady as f64 >= 0.9, "mean OpenAI hit share {}", shares / steady as f64);
}

#[test]
fn totals_and_output_costs_add_up() {
    let c = counter();
    let mut memo = TokenMemo::new(&c);
    let prompts = two_prompts();
    let mut a = Accounting::new(&model("anthropic"));
    let t1 = a.turn(&prompts[0], Some(40), &mut memo);
    let t2 = a.turn(&prompts[1], None, &mut memo);
    let total = a.total();
    assert_eq!(a.turns(), 2);
    assert_eq!(total.usage.prompt_tokens, t1.usage.prompt_tokens + t2.usage.prompt_tokens);
    assert_eq!(total.usage.output_tokens, Some(40));
    assert_eq!(total.cost.output, Some(200.0));
    assert!((total.cost.total() - (t1.cost.total() + t2.cost.total())).abs() < 1e-9);
    assert_eq!(Usage::default().hit_share(), 0.0);
}
