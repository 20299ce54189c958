//! A connected MCP server: start (spawn or connect, initialize, list the
//! tools) and blocking tool calls, each bounded by a timeout.

use crate::arguments;
use crate::config::{ServerConfig, Transport};
use crate::content;
use crate::error::{CallError, StartError};
use crate::runtime::Runtime;
use crate::schema;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{Peer, RoleClient, RunningService, ServiceError};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::ServiceExt;
use serde_json::Value as Json;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Lines of a stdio server's stderr kept for error messages.
const STDERR_LINES: usize = 20;

/// A tool as the server lists it, with the signature the model sees.
#[derive(Debug, Clone, PartialEq)]
pub struct McpTool {
    /// The tool's name on the server.
    pub name: String,
    /// Its description, on one line.
    pub description: Option<String>,
    /// `(param :type, ...) -> :type`, from its JSON schemas ([`schema::signature`]).
    pub signature: String,
    /// The `inputSchema` as listed.
    pub input_schema: Json,
}

type Service = RunningService<RoleClient, ClientConfig>;

/// A running (stdio) or connected (HTTP) MCP server. Dropping it closes
/// the connection; a child process is killed, with every process it
/// started.
pub struct McpServer {
    config: ServerConfig,
    runtime: Arc<Runtime>,
    peer: Peer<RoleClient>,
    service: Option<Service>,
    tools: Vec<McpTool>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// A stdio server's process group, killed (dropped) after the connection closes.
    _group: Option<Group>,
}

/// The process groups of the stdio servers running now: on Unix each server
/// leads a group of its own, so that what it started (`sh -c`, `npx`, `uv
/// run` start the server as a child) ends with it, and
/// [`stop_servers_for_exit`] can end every one.
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills every stdio server still running, with what it started, for a
/// process about to exit without dropping them (ptc interrupted by Ctrl-C
/// or SIGTERM): a server that ignores the end of its input, or a process it
/// started, would outlive ptc. From then on no server starts or stops
/// (their list stays locked).
pub fn stop_servers_for_exit() {
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    groups.iter().copied().for_each(ptc_os::kill_process_group);
    std::mem::forget(groups);
}

/// A stdio server's process group (its leader's id), listed in [`GROUPS`]
/// while it lives. Dropping it kills the group: a server that fails its
/// handshake or start-up time, or whose connection closed.
struct Group(u32);

impl Group {
    fn listed(leader: u32) -> Group {
        GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(leader);
        Group(leader)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
        groups.retain(|&g| g != self.0);
        ptc_os::kill_process_group(self.0);
    }
}

impl McpServer {
    /// Starts or connects to the server, initializes the session and lists
    /// its tools, all within `startup_timeout`.
    pub fn start(config: &ServerConfig, runtime: Arc<Runtime>) -> Result<McpServer, StartError> {
        let fail = |message: String| StartError { server: config.name.clone(), target: config.describe(), message };
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let limit = config.startup_timeout;
        let connecting = connect(config.clone(), runtime.clone(), stderr.clone());
        let started = runtime
            .block_on(async move { tokio::time::timeout(limit, connecting).await })
            .ok_or_else(|| fail("the MCP runtime stopped".into()))?;
        let (service, tools, group) = match started {
            Ok(Ok(done)) => done,
            Ok(Err(message)) => return Err(fail(with_stderr(message, &stderr))),
            Err(_) => {
                let message = format!(
                    "no answer to the handshake and tool list within {} ms (startup_timeout_ms)",
                    limit.as_millis()
                );
                return Err(fail(with_stderr(message, &stderr)));
            }
        };
        let peer = service.peer().clone();
        tracing::debug!(server = %config.name, tools = tools.len(), "mcp server started");
        Ok(McpServer { config: config.clone(), runtime, peer, service: Some(service), tools, stderr, _group: group })
    }

    /// The server's name in the config.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The tools it listed at start, in its order.
    pub fn tools(&self) -> &[McpTool] {
        &self.tools
    }

    /// Calls `tool` with `args` (a JSON object, conformed to the tool's
    /// `inputSchema` by [`arguments::conform`]) and waits at most the
    /// server's call timeout; on timeout the request is cancelled.
    pub fn call(&self, tool: &str, args: Json) -> Result<Json, CallError> {
        let Json::Object(arguments) = args else {
            return Err(CallError::Arguments(format!("arguments must be a map, got {args}")));
        };
        // Declared spellings, and no nulls where the schema admits none ([`arguments`]).
        let arguments = match self.tools.iter().find(|t| t.name == tool) {
            Some(listed) => arguments::conform(&listed.input_schema, arguments),
            None => arguments,
        };
        let server = self.config.name.clone();
        let limit = self.config.call_timeout;
        let peer = self.peer.clone();
        let params = CallToolRequestParams::new(tool.to_string()).with_arguments(arguments);
        // Dropping the request future on timeout sends `notifications/cancelled`.
        let answer = self.runtime.block_on(async move { tokio::time::timeout(limit, peer.call_tool(params)).await });
        match answer {
            None => Err(CallError::Closed { server, detail: "the MCP runtime stopped".into() }),
            Some(Err(_)) => Err(CallError::Timeout { server, ms: limit.as_millis() as u64 }),
            Some(Ok(Err(e))) => Err(self.service_error(e)),
            Some(Ok(Ok(result))) => {
                let json = serde_json::to_value(&result)
                    .map_err(|e| CallError::Protocol { server: server.clone(), message: e.to_string() })?;
                content::to_value(&json).map_err(CallError::Tool)
            }
        }
    }

    fn service_error(&self, e: ServiceError) -> CallError {
        let server = self.config.name.clone();
        match e {
            ServiceError::McpError(data) => {
                CallError::Protocol { server, message: format!("error {}: {}", data.code.0, data.message) }
            }
            ServiceError::TransportClosed | ServiceError::TransportSend(_) | ServiceError::Cancelled { .. } => {
                let detail = match &self.config.transport {
                    Transport::Stdio { .. } => with_stderr("the process closed the connection".into(), &self.stderr),
                    Transport::Http { url, .. } => format!("{url}: {}", root_cause(&e)),
                };
                CallError::Closed { server, detail }
            }
            ServiceError::Timeout { timeout } => CallError::Timeout { server, ms: timeout.as_millis() as u64 },
            other => CallError::Protocol { server, message: other.to_string() },
        }
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        if let Some(service) = self.service.take() {
            // Close the session (an HTTP server gets its DELETE) within a second; the
            // runtime's end drops whatever is left, child processes included.
            self.runtime.block_on(async move {
                let _ = tokio::time::timeout(Duration::from_secs(1), service.cancel()).await;
            });
        }
        // Then `_group` is dropped: what the server started, and the server
        // if it outlived the second, are killed.
    }
}

/// The innermost error of `e`'s source chain (`Connection refused (os
/// error 111)`), without the SDK's wrappers that name its Rust types.
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    error_chain(e).last().unwrap_or(e).to_string()
}

/// `e` and the errors under it, in order: each one's source, except that
/// the transport's `Client` variant leads to reqwest's error, which it holds
/// without naming it as its source.
fn error_chain<'e>(
    e: &'e (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'e (dyn std::error::Error + 'static)> {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    std::iter::successors(Some(e), |last| match last.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
        Some(StreamableHttpError::Client(inner)) => Some(inner as &(dyn std::error::Error + 'static)),
        _ => last.source(),
    })
}

/// Why a Streamable HTTP server's handshake failed: the root cause in its
/// own words (`Connection refused (os error 111)`, `HTTP 503`), on one line
/// and at most [`CAUSE_CHARS`] characters (a 404 brings its page), and what
/// to check.
fn http_handshake_failed(e: &rmcp::service::ClientInitializeError) -> String {
    use rmcp::service::ClientInitializeError;
    let inner: &(dyn std::error::Error + 'static) = match e {
        // The transport's error is not named as the source of this variant.
        ClientInitializeError::TransportError { error, .. } => &*error.error,
        other => other,
    };
    let cause = one_line(&root_cause(inner));
    let cause = match cause.char_indices().nth(CAUSE_CHARS) {
        Some((cut, _)) => format!("{}...", &cause[..cut]),
        None => cause,
    };
    let next = match e {
        // A stream that ended, or an answer that was not the handshake's.
        ClientInitializeError::ConnectionClosed(_)
        | ClientInitializeError::ExpectedInitResponse(_)
        | ClientInitializeError::ExpectedInitResult(_) => Some(NOT_MCP),
        _ => http_next_step(inner),
    };
    match next {
        Some(next) => format!("handshake failed: {cause}; {next}"),
        None => format!("handshake failed: {cause}"),
    }
}

/// The most of an HTTP failure's cause an error line quotes.
const CAUSE_CHARS: usize = 200;

/// The next step when what answered does not speak MCP.
const NOT_MCP: &str = "is `url` the server's MCP endpoint (Streamable HTTP, often ending in /mcp)?";

/// The next step when the server wants credentials.
const NEEDS_TOKEN: &str = "give it a token with `bearer_token_env`, or `headers`, in its [mcp.NAME] table";

/// What to check for the first error in `e`'s chain that says it.
fn http_next_step(e: &(dyn std::error::Error + 'static)) -> Option<&'static str> {
    use rmcp::transport::streamable_http_client::StreamableHttpError as E;
    for http in error_chain(e).filter_map(|err| err.downcast_ref::<E<reqwest::Error>>()) {
        return match http {
            E::Client(inner) if inner.is_connect() => Some("is the server running, and listening at that address?"),
            E::Client(inner) if inner.is_timeout() => {
                Some("the server is slow to answer; try again, or raise `startup_timeout_ms`")
            }
            // Its reqwest error comes next in the chain.
            E::Client(_) => continue,
            E::AuthRequired(_) | E::InsufficientScope(_) => Some(NEEDS_TOKEN),
            // Without a challenge header a 401 or 403 comes as its status line.
            E::UnexpectedServerResponse(said) if said.starts_with("HTTP 401") || said.starts_with("HTTP 403") => {
                Some(NEEDS_TOKEN)
            }
            E::HttpStatus(status) if status.status == 429 => Some("the server asks to slow down; try again later"),
            // Not Implemented: a plain web server, not an MCP endpoint.
            E::HttpStatus(status) if status.status == 501 => Some(NOT_MCP),
            E::HttpStatus(_) => Some("the server failed; try again later, or see its log"),
            E::UnexpectedServerResponse(_)
            | E::UnexpectedContentType(_)
            | E::ResponseBodyTooLarge { .. }
            | E::Deserialize(_)
            | E::Sse(_) => Some(NOT_MCP),
            _ => None,
        };
    }
    None
}

/// `message`, plus the last line the server wrote on stderr, if any.
fn with_stderr(message: String, stderr: &Mutex<VecDeque<String>>) -> String {
    // Give the stderr reader a moment to catch the process's last words.
    std::thread::sleep(Duration::from_millis(20));
    let lines = stderr.lock().unwrap_or_else(|e| e.into_inner());
    match lines.back() {
        // One line of the error: a long one is shown by its end.
        Some(last) if last.chars().count() > 200 => {
            let end: String = last.chars().rev().take(200).collect::<Vec<_>>().into_iter().rev().collect();
            format!("{message}; its stderr ends: ...{end}")
        }
        Some(last) => format!("{message}; its stderr ends: {last}"),
        None => message,
    }
}

fn client_info() -> ClientConfig {
    ClientConfig::new(ClientCapabilities::default(), Implementation::new("ptc", env!("CARGO_PKG_VERSION")))
}

async fn connect(
    config: ServerConfig,
    runtime: Arc<Runtime>,
    stderr: Arc<Mutex<VecDeque<String>>>,
) -> Result<(Service, Vec<McpTool>, Option<Group>), String> {
    let mut group = None;
    let service = match &config.transport {
        Transport::Stdio { command, env, dir } => {
            let mut cmd = tokio::process::Command::new(&command[0]);
            cmd.args(&command[1..]).envs(env.iter().cloned()).current_dir(dir).kill_on_drop(true);
            #[cfg(unix)]
            cmd.process_group(0);
            let (transport, err) =
                TokioChildProcess::builder(cmd).stderr(std::process::Stdio::piped()).spawn().map_err(|e| {
                    // As `ptc validate` says it: the next step.
                    let next = match e.kind() {
                        std::io::ErrorKind::NotFound => " (install it, or give its path in `command`)",
                        std::io::ErrorKind::PermissionDenied => " (make it executable, or give its path in `command`)",
                        _ => "",
                    };
                    format!("cannot start `{}`: {e}{next}", command[0])
                })?;
            if let Some(err) = err {
                runtime.spawn(keep_stderr(config.name.clone(), err, stderr));
            }
            // Listed before the handshake: an interrupt may come at any time.
            group = transport.id().filter(|_| cfg!(unix)).map(Group::listed);
            client_info().serve(transport).await.map_err(|e| format!("handshake failed: {e}"))?
        }
        Transport::Http { url, headers, bearer_token } => {
            let transport = http_transport(url, headers, bearer_token.as_deref())?;
            client_info().serve(transport).await.map_err(|e| http_handshake_failed(&e))?
        }
    };
    let listed = service.peer().list_all_tools().await.map_err(|e| format!("cannot list its tools: {e}"))?;
    let tools = listed
        .into_iter()
        .map(|t| {
            let input = Json::Object((*t.input_schema).clone());
            let output = t.output_schema.as_ref().map(|o| Json::Object((**o).clone()));
            let converted = schema::signature(&input, output.as_ref());
            let mut description = t.description.as_deref().map(one_line).filter(|d| !d.is_empty());
            if !converted.unspellable.is_empty() {
                let note = format!("(also takes: {})", converted.unspellable.join(", "));
                description = Some(description.map_or(note.clone(), |d| format!("{d} {note}")));
            }
            McpTool { name: t.name.to_string(), description, signature: converted.signature, input_schema: input }
        })
        .collect();
    Ok((service, tools, group))
}

/// Whitespace runs (newlines included) as one space.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The most of one stderr line kept: a server that writes without a
/// newline comes in pieces of this size, so it cannot fill ptc's memory.
const STDERR_LINE_BYTES: u64 = 4 << 10;

async fn keep_stderr(server: String, err: tokio::process::ChildStderr, lines: Arc<Mutex<VecDeque<String>>>) {
    use tokio::io::{AsyncBufReadExt, AsyncReadExt};
    let mut reader = tokio::io::BufReader::new(err);
    let mut piece = Vec::new();
    loop {
        piece.clear();
        match (&mut reader).take(STDERR_LINE_BYTES).read_until(b'\n', &mut piece).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&piece);
        let line = text.trim_end_matches(['\n', '\r']).to_string();
        tracing::debug!(server = %server, "mcp server stderr: {line}");
        let mut lines = lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() == STDERR_LINES {
            lines.pop_front();
        }
        lines.push_back(line);
    }
}

fn http_transport(
    url: &str,
    headers: &[(String, String)],
    bearer_token: Option<&str>,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, String> {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let mut custom = std::collections::HashMap::new();
    for (name, value) in headers {
        let name = http::HeaderName::try_from(name.as_str()).map_err(|e| format!("header `{name}`: {e}"))?;
        let value = http::HeaderValue::try_from(value.as_str()).map_err(|e| format!("header `{name}`: {e}"))?;
        custom.insert(name, value);
    }
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let client = reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .connect_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| format!("HTTP client setup: {e}"))?;
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_string()).custom_headers(custom);
    if let Some(token) = bearer_token {
        config = config.auth_header(token.to_string());
    }
    Ok(StreamableHttpClientTransport::with_client(client, config))
}
