//! `ptc render`: the messages a strategy renders for one turn of a session.

use super::{CmdError, CmdResult, Format, Output};
use crate::resolve::token_counter;
use ptc_plugin_api::render::FULL_HISTORY;
use ptc_tokens::DEFAULT_ENCODING;
use serde_json::json;
use std::path::Path;

/// Options of `ptc render`.
#[derive(Debug, Clone)]
pub struct RenderArgs<'a> {
    /// Config file.
    pub config: &'a Path,
    /// Session file.
    pub session: &'a Path,
    /// Turn to render (default: the next one).
    pub turn: Option<u32>,
    /// Instance or plugin name (default: the session agent's, else full-history).
    pub strategy: Option<&'a str>,
    /// Output format.
    pub format: Format,
}

/// `ptc render`: the messages a strategy produces for one turn of a session.
pub fn render(args: &RenderArgs<'_>) -> CmdResult {
    let session = super::read_session(args.session)?;
    let request = session
        .request_for_turn(args.turn)
        .map_err(|error| CmdError::Session { path: args.session.to_path_buf(), error })?;
    let resolved = super::resolve_or_empty(args.config)?;
    let mut warnings = super::load_warnings(&resolved);
    let configured = || {
        session
            .agent
            .as_deref()
            .and_then(|a| resolved.config.agents.get(a))
            .and_then(|a| a.strategy.clone())
            .unwrap_or_else(|| FULL_HISTORY.to_string())
    };
    // The recorded instance is built once: the build is what tells whether
    // this config defines it.
    let recorded = match (args.strategy, recorded_instance(&session, request.turn())) {
        (None, Some(recorded)) => match resolved.strategy(&recorded) {
            Ok(strategy) => Some((recorded, strategy)),
            Err(_) => {
                warnings.push(format!(
                    "the session records `{recorded}` for this turn, which {} does not define; rendering with `{}`",
                    args.config.display(),
                    configured()
                ));
                None
            }
        },
        _ => None,
    };
    let (name, strategy) = match recorded {
        Some(found) => found,
        None => {
            let name = args.strategy.map_or_else(configured, str::to_string);
            let strategy = resolved.strategy(&name)?;
            (name, strategy)
        }
    };
    let rendered =
        strategy.renderer.render(&request).map_err(|error| CmdError::Render { strategy: name.clone(), error })?;
    let tokens = token_counter(DEFAULT_ENCODING)
        .map_err(|e| CmdError::Other(e.to_string()))?
        .count_messages(rendered.messages());
    let stdout = match args.format {
        Format::Json => {
            let value = json!({
                "messages": rendered.messages().iter().enumerate().map(|(i, m)| json!({
                    "role": m.role().as_str(),
                    "content": m.content(),
                    "blocks": rendered.blocks(i).map(|b| json!({"text": b.text, "breakpoint": b.breakpoint})).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "stats": ptc_session::RenderStats::from(rendered.stats()),
                "prompt_tokens": tokens,
            });
            serde_json::to_string_pretty(&value).expect("JSON values always serialize") + "\n"
        }
        Format::Text => ptc_plugin_api::render::messages_text(rendered.messages()),
    };
    warnings.extend(rendered.stats().warnings().map(|w| format!("strategy `{name}`: {w}")));
    warnings.push(format!(
        "rendered turn {} of {} with {}: {} messages, {tokens} prompt tokens ({DEFAULT_ENCODING})",
        request.turn(),
        request.max_turns(),
        shown_name(&name, rendered.stats().strategy()),
        rendered.messages().len()
    ));
    Ok(Output { stdout, warnings, code: 0 })
}

/// The instance that rendered turn `turn`'s prompt, as the session records
/// it; for the turn after the last, the last turn's, unless that was the
/// full history before a trigger (the agent's instance decides then).
fn recorded_instance(session: &ptc_session::Session, turn: u32) -> Option<String> {
    let instance = |i: usize| session.turns.get(i)?.render_stats.as_ref()?.instance.clone();
    let turn = turn as usize;
    if turn <= session.turns.len() {
        instance(turn - 1)
    } else {
        instance(turn.checked_sub(2)?).filter(|name| name != FULL_HISTORY)
    }
}

/// `instance (plugin)` when they differ, else the one name.
fn shown_name(instance: &str, plugin: &str) -> String {
    if instance == plugin {
        instance.to_string()
    } else {
        format!("{instance} ({plugin})")
    }
}
