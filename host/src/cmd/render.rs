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
    let name = match args.strategy {
        Some(name) => name.to_string(),
        None => session
            .agent
            .as_deref()
            .and_then(|a| resolved.config.agents.get(a))
            .and_then(|a| a.strategy.clone())
            .unwrap_or_else(|| FULL_HISTORY.to_string()),
    };
    let strategy = resolved.strategy(&name)?;
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
    let mut warnings = super::load_warnings(&resolved);
    warnings.extend(rendered.stats().warnings().map(|w| format!("strategy `{name}`: {w}")));
    warnings.push(format!(
        "rendered turn {} of {} with {}: {} messages, {tokens} prompt tokens ({DEFAULT_ENCODING})",
        request.turn(),
        request.max_turns(),
        rendered.stats().strategy(),
        rendered.messages().len()
    ));
    Ok(Output { stdout, warnings, code: 0 })
}
