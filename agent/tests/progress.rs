//! What `ptc run` shows while it works (`ptc_agent::progress`): kept lines,
//! the live status row, and the events as their lines and statuses.

use ptc_agent::budget::BudgetUse;
use ptc_agent::progress::{Event, Observer, Progress, Terminal, TurnLabel};
use std::time::Duration;

/// Carriage return, then erase the whole row (as `Terminal` draws).
const CLEAR_ROW: &str = "\r\x1b[2K";
/// The longest status `Terminal` draws.
const STATUS_WIDTH: usize = 100;

fn report(live: bool) -> String {
    let mut t = Terminal::new(Vec::new(), live);
    t.status("turn 1/3 · waiting for the model");
    t.line("turn 1/3  ok");
    t.status("turn 2/3 · waiting for the model");
    t.status("turn 2/3 · running the program");
    t.line("turn 2/3  ok");
    t.status("turn 3/3 · waiting for the model");
    String::from_utf8(t.into_inner()).unwrap()
}

#[test]
fn plain_output_has_only_the_lines() {
    assert_eq!(report(false), "turn 1/3  ok\nturn 2/3  ok\n");
}

#[test]
fn live_output_redraws_one_status_row_and_erases_it_at_the_end() {
    let out = report(true);
    assert_eq!(
        out,
        "\r\x1b[2Kturn 1/3 · waiting for the model\r\x1b[2Kturn 1/3  ok\n\
         \r\x1b[2Kturn 2/3 · waiting for the model\r\x1b[2Kturn 2/3 · running the program\r\x1b[2Kturn 2/3  ok\n\
         \r\x1b[2Kturn 3/3 · waiting for the model\r\x1b[2K"
    );
    // What stays on screen: every kept line, no status.
    let screen: Vec<&str> = out.split('\n').map(|row| row.rsplit(CLEAR_ROW).next().unwrap_or("")).collect();
    assert_eq!(screen, ["turn 1/3  ok", "turn 2/3  ok", ""]);
}

#[test]
fn long_status_is_cut_to_one_row() {
    let mut t = Terminal::new(Vec::new(), true);
    t.status(&"x".repeat(500));
    let out = String::from_utf8(t.into_inner()).unwrap();
    assert_eq!(out.matches('x').count(), STATUS_WIDTH);
}

#[test]
fn closures_keep_lines_and_ignore_status() {
    let mut lines = Vec::new();
    {
        let mut p = |l: &str| lines.push(l.to_string());
        let p: &mut dyn Progress = &mut p;
        p.status("ignored");
        p.line("kept");
    }
    assert_eq!(lines, ["kept"]);
}

#[test]
fn events_read_as_the_lines_and_statuses_ptc_run_prints() {
    let turn = TurnLabel { number: 6, max_turns: 5, retry_turns: 2 };
    assert_eq!(turn.to_string(), "6/5 (retry 1/2)");
    let first = TurnLabel { number: 1, ..turn };
    assert_eq!(first.to_string(), "1/5");
    let asking =
        |budget| Event::Asking { turn: first, instance: "c".into(), prompt_tokens: 10, tokens_so_far: 30, budget };
    assert_eq!(asking(None).status().unwrap(), "turn 1/5 · c · 10 prompt tokens (30 so far) · waiting for the model");
    assert_eq!(asking(None).line(), None);
    let done = |budget| Event::TurnDone {
        turn: first,
        instance: "c".into(),
        prompt_tokens: 10,
        tokens_so_far: 30,
        budget,
        model_time: Duration::from_millis(1500),
        outcome: "ok".into(),
    };
    assert_eq!(done(None).line().unwrap(), "turn 1/5  strategy=c  prompt_tokens=10  total=30  model=1.5s  ok");
    // A run with a budget shows the one closest to its limit.
    let budget = BudgetUse { above: Some("top".into()), tokens: Some((3822, 4800)), cost: Some((0.25, 2.0)) };
    assert_eq!(
        done(Some(budget.clone())).line().unwrap(),
        "turn 1/5  strategy=c  prompt_tokens=10  total=30  budget(top)=3822/4800  cost(top)=0.2500/2  model=1.5s  ok"
    );
    assert_eq!(
        asking(Some(budget)).status().unwrap(),
        "turn 1/5 · c · 10 prompt tokens (30 so far; budget(top)=3822/4800  cost(top)=0.2500/2) · waiting for the \
         model"
    );
    let (asking, done) = (asking(None), done(None));
    let mut lines = Vec::new();
    let mut keep = |l: &str| lines.push(l.to_string());
    let observer: &mut dyn Observer = &mut keep;
    observer.event(&asking);
    observer.event(&done);
    assert_eq!(lines, [done.line().unwrap()]);
}
