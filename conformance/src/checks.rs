//! The invariants of `docs/spec/strategies.md`, each a pure check of one
//! rendered prompt against its request. An `Err` is the reason, in one line.

pub use ptc_plugin_api::render::contains_symbol;
use ptc_plugin_api::render::{memory_of, turn_info};
use ptc_plugin_api::{Message, RenderRequest, Role, Stats};

/// Result of one check: `Err` holds why it failed.
pub type Check = Result<(), String>;

/// A check of one rendered prompt against its request.
pub type Invariant = fn(&RenderRequest, &[Message]) -> Check;

/// The invariants every render must keep, by conformance case id.
pub const INVARIANTS: &[(&str, Invariant)] = &[
    ("MUST-SYSTEM-FIRST", system_first),
    ("MUST-MISSION-VERBATIM", mission_verbatim),
    ("MUST-ENDS-WITH-TURN-INFO", ends_with_turn_info),
    ("MUST-LATEST-ERROR", latest_error),
    ("MUST-LIVE-NAMES", live_names),
    ("MUST-ROLES-ALTERNATE", |_, messages| roles_alternate(messages)),
];

/// Every invariant of [`INVARIANTS`] on one render; the first failure names
/// its case. For a strategy's own unit tests.
pub fn every_invariant(req: &RenderRequest, messages: &[Message]) -> Check {
    INVARIANTS.iter().try_for_each(|(id, check)| check(req, messages).map_err(|e| format!("{id}: {e}")))
}

/// [`every_invariant`] plus what the built-in layouts promise beyond it:
/// the mission opens the first USER message, the turn info ends the last one
/// exactly, and a failed program is shown whole. For the unit tests of
/// strategies that keep those promises (rolling-window, per-turn-summary).
pub fn exact_layout(req: &RenderRequest, messages: &[Message]) -> Check {
    every_invariant(req, messages)?;
    if !messages.get(1).is_some_and(|m| m.content().starts_with(req.mission())) {
        return Err("the first USER message does not start with the mission".into());
    }
    let info = turn_info(req.turn(), req.max_turns());
    if !messages.last().is_some_and(|m| m.content().ends_with(&info)) {
        return Err(format!("the last message does not end exactly with {info:?}"));
    }
    match req.last_turn().filter(|t| !t.success()).and_then(|t| t.program()) {
        Some(program) if !messages.iter().any(|m| m.content().contains(program)) => {
            Err(format!("the failed program {} is not shown whole", excerpt(program, 50)))
        }
        _ => Ok(()),
    }
}

/// The text of `s` cut to `n` characters for a reason line.
pub fn excerpt(s: &str, n: usize) -> String {
    let mut out: String = s.chars().take(n).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    format!("{out:?}")
}

/// The first message is SYSTEM and is the request's system prompt, unchanged.
pub fn system_first(req: &RenderRequest, messages: &[Message]) -> Check {
    match messages.first() {
        None => Err("no messages at all".into()),
        Some(m) if m.role() != Role::System => Err(format!("first message is {}, not system", m.role())),
        Some(m) if m.content() != req.system_prompt() => Err(format!(
            "system message differs from the request's system prompt: {} instead of {}",
            excerpt(m.content(), 60),
            excerpt(req.system_prompt(), 60)
        )),
        Some(_) => Ok(()),
    }
}

/// The mission appears verbatim in the first USER message.
pub fn mission_verbatim(req: &RenderRequest, messages: &[Message]) -> Check {
    let Some(user) = messages.iter().find(|m| m.role() == Role::User) else {
        return Err("no USER message".into());
    };
    if user.content().contains(req.mission()) {
        Ok(())
    } else {
        Err(format!("the first USER message does not contain the mission {}", excerpt(req.mission(), 60)))
    }
}

/// The last message is USER and ends with the turn info.
pub fn ends_with_turn_info(req: &RenderRequest, messages: &[Message]) -> Check {
    let info = turn_info(req.turn(), req.max_turns());
    match messages.last() {
        None => Err("no messages at all".into()),
        Some(m) if m.role() != Role::User => Err(format!("last message is {}, not user", m.role())),
        Some(m) if !m.content().trim_end().ends_with(&info) => Err(format!(
            "last USER message does not end with {info:?} (turn {} of {}); it ends with {}",
            req.turn(),
            req.max_turns(),
            excerpt(tail(m.content().trim_end(), 50), 50)
        )),
        Some(_) => Ok(()),
    }
}

fn tail(s: &str, chars: usize) -> &str {
    let start = s.char_indices().rev().nth(chars.saturating_sub(1)).map(|(i, _)| i).unwrap_or(0);
    &s[start..]
}

/// Words that announce a cut program, for strategies that shorten long ones.
pub const CUT_MARKERS: &[&str] = &["cut", "truncat", "omit", "more line", "…", "..."];

/// When the latest turn failed: its error message verbatim, and its program
/// verbatim (or `(unknown program)` / the raw response when none was
/// extracted), or a whole-line prefix of it followed by a line saying it was cut.
pub fn latest_error(req: &RenderRequest, messages: &[Message]) -> Check {
    let Some(last) = req.last_turn() else { return Ok(()) };
    let Some(error) = last.error() else { return Ok(()) };
    let text = visible_text(messages);
    if !text.contains(error.message()) {
        return Err(format!("latest error message {} is not shown verbatim", excerpt(error.message(), 60)));
    }
    match last.program() {
        None if text.contains("(unknown program)") || text.contains(last.raw_response()) => Ok(()),
        None => Err("the latest turn has no program, and neither `(unknown program)` nor its response is shown".into()),
        Some(program) if text.contains(program) || program_cut_with_notice(&text, program) => Ok(()),
        Some(program) => {
            Err(format!("the failed program {} is not shown (nor cut with a notice)", excerpt(program, 50)))
        }
    }
}

fn program_cut_with_notice(text: &str, program: &str) -> bool {
    let lines: Vec<&str> = program.lines().collect();
    (1..lines.len()).rev().any(|keep| {
        let prefix = lines[..keep].join("\n");
        text.match_indices(&prefix).any(|(at, _)| {
            let after = &text[at + prefix.len()..];
            let notice: String = after.trim_start_matches(['\n', '\r']).lines().next().unwrap_or("").to_lowercase();
            CUT_MARKERS.iter().any(|m| notice.contains(m))
        })
    })
}

/// Every name defined by a successful turn and still live appears, as a
/// whole symbol, in some non-system message.
pub fn live_names(req: &RenderRequest, messages: &[Message]) -> Check {
    let text = visible_text(messages);
    let missing: Vec<&str> =
        memory_of(req.turns()).iter().map(|d| d.name()).filter(|name| !contains_symbol(&text, name)).collect();
    match missing.as_slice() {
        [] => Ok(()),
        [one] => Err(format!("live name `{one}` is not visible")),
        many => Err(format!(
            "{} live names are not visible: {}",
            many.len(),
            many.iter().take(5).map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// The stats add up: shown plus dropped is the total, for tool calls and
/// for printlns.
pub fn stats_sums(stats: &Stats) -> Check {
    let sums = [
        ("tool_calls", stats.tool_calls_shown, stats.tool_calls_dropped, stats.tool_calls_total),
        ("printlns", stats.printlns_shown, stats.printlns_dropped, stats.printlns_total),
    ];
    match sums.iter().find(|(_, shown, dropped, total)| u64::from(*shown) + u64::from(*dropped) != u64::from(*total)) {
        None => Ok(()),
        Some((what, shown, dropped, total)) => {
            Err(format!("{what}: shown {shown} + dropped {dropped} is not the total {total}"))
        }
    }
}

/// After the SYSTEM message, roles alternate USER/ASSISTANT starting with USER.
pub fn roles_alternate(messages: &[Message]) -> Check {
    if messages.len() < 2 {
        return Err(format!("{} message(s): need SYSTEM then USER at least", messages.len()));
    }
    let mut expected = Role::User;
    for (i, m) in messages.iter().enumerate().skip(1) {
        if m.role() != expected {
            let roles: Vec<&str> = messages.iter().map(|m| m.role().as_str()).collect();
            return Err(format!(
                "message {i} is {} where {expected} was due (roles: {})",
                m.role(),
                abbreviate_roles(&roles)
            ));
        }
        expected = if expected == Role::User { Role::Assistant } else { Role::User };
    }
    Ok(())
}

fn abbreviate_roles(roles: &[&str]) -> String {
    if roles.len() <= 8 {
        roles.join(",")
    } else {
        format!("{},…,{} ({} messages)", roles[..4].join(","), roles[roles.len() - 3..].join(","), roles.len())
    }
}

/// Every message but the system prompt, joined: where facts must be visible.
pub fn visible_text(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages.iter().filter(|m| m.role() != Role::System) {
        out.push_str(m.content());
        out.push('\n');
    }
    out
}

/// Total bytes of every message's content.
pub fn output_bytes(messages: &[Message]) -> usize {
    messages.iter().map(|m| m.content().len()).sum()
}

/// Messages as one string (role headers included), for byte comparisons and prefixes.
pub fn serialize(messages: &[Message]) -> String {
    ptc_plugin_api::render::messages_text(messages)
}

/// Where two renders of the same request first differ, in one line.
pub fn first_difference(a: &[Message], b: &[Message]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} messages, then {}", a.len(), b.len()));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x.role() != y.role() {
            return Some(format!("message {i} is {} then {}", x.role(), y.role()));
        }
        if x.content() != y.content() {
            let at = x.content().bytes().zip(y.content().bytes()).take_while(|(p, q)| p == q).count();
            let at = (0..=at).rev().find(|&i| x.content().is_char_boundary(i)).unwrap_or(0);
            return Some(format!(
                "message {i} differs at byte {at}: {} vs {}",
                excerpt(&x.content()[at..], 30),
                excerpt(y.content().get(at..).unwrap_or(""), 30)
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptc_plugin_api::{Turn, TurnError};

    fn failed(program: Option<&str>) -> RenderRequest {
        let mut req = RenderRequest::new("m", "s", 5);
        let raw = program.map(|p| format!("```clojure\n{p}\n```")).unwrap_or_else(|| "no code".into());
        req.push_turn(Turn::new(1, raw, program.map(String::from)).with_error(TurnError::new("eval", "boom")));
        req
    }

    #[test]
    fn stats_must_add_up_for_calls_and_prints() {
        let mut stats = Stats::new("s");
        (stats.tool_calls_total, stats.tool_calls_shown, stats.tool_calls_dropped) = (5, 3, 2);
        (stats.printlns_total, stats.printlns_shown, stats.printlns_dropped) = (4, 4, 0);
        assert_eq!(stats_sums(&stats), Ok(()));
        stats.printlns_dropped = 1;
        assert_eq!(stats_sums(&stats), Err("printlns: shown 4 + dropped 1 is not the total 4".into()));
        stats.tool_calls_shown = u32::MAX;
        assert!(stats_sums(&stats).unwrap_err().starts_with("tool_calls: shown 4294967295 + dropped 2"));
    }

    #[test]
    fn symbols_match_whole() {
        assert!(contains_symbol("(def v-1 2)", "v-1"));
        assert!(!contains_symbol("(def v-10 2)", "v-1"));
        assert!(contains_symbol("v-1\n", "v-1"));
        assert!(contains_symbol("総計 = 3", "総計"));
    }

    #[test]
    fn latest_error_accepts_cut_programs_with_a_notice() {
        let req = failed(Some("(a)\n(b)\n(c)"));
        let shown = |t: &str| vec![Message::system("s"), Message::user(format!("{t}\nboom"))];
        assert!(latest_error(&req, &shown("(a)\n(b)\n(c)")).is_ok());
        assert!(latest_error(&req, &shown("(a)\n;; ... 1 more line cut")).is_ok());
        assert!(latest_error(&req, &shown("(a)\n(b)")).is_err());
        let req = failed(None);
        assert!(latest_error(&req, &shown("(unknown program)")).is_ok());
        assert!(latest_error(&req, &[Message::system("s"), Message::user("(unknown program)")]).is_err());
    }

    #[test]
    fn exact_layout_wants_the_program_whole_and_the_ends_exact() {
        let req = failed(Some("(a)\n(b)"));
        let info = turn_info(req.turn(), req.max_turns());
        let shown = |t: &str| vec![Message::system("s"), Message::user(t.to_string())];
        let m = req.mission();
        assert!(exact_layout(&req, &shown(&format!("{m}\n(a)\n(b)\nboom\n\n{info}"))).is_ok());
        let cut = exact_layout(&req, &shown(&format!("{m}\n(a)\n;; ... (1 more lines cut)\nboom\n\n{info}")));
        assert!(cut.unwrap_err().contains("not shown whole"));
        let late = exact_layout(&req, &shown(&format!("x {m}\n(a)\n(b)\nboom\n\n{info}")));
        assert!(late.unwrap_err().contains("start with the mission"));
        let padded = exact_layout(&req, &shown(&format!("{m}\n(a)\n(b)\nboom\n\n{info}\n")));
        assert!(padded.unwrap_err().contains("end exactly"));
    }

    #[test]
    fn alternation_names_the_offending_message() {
        let ms = [Message::system("s"), Message::user("a"), Message::user("b")];
        assert_eq!(
            roles_alternate(&ms).unwrap_err(),
            "message 2 is user where assistant was due (roles: system,user,user)"
        );
        let ms = [Message::system("s"), Message::user("a"), Message::assistant("b"), Message::user("c")];
        assert!(roles_alternate(&ms).is_ok());
    }

    #[test]
    fn turn_info_must_close_the_prompt() {
        let req = RenderRequest::new("m", "s", 1);
        let ok = [Message::system("s"), Message::user(format!("m\n\n{}", turn_info(1, 1)))];
        assert!(ends_with_turn_info(&req, &ok).is_ok());
        let bad = [Message::system("s"), Message::user("m\n\nTurns left: 1")];
        assert!(ends_with_turn_info(&req, &bad).unwrap_err().contains("FINAL TURN"));
    }
}
