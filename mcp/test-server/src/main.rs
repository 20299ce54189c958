//! `ptc-mcp-test-server`: a small MCP server built on rmcp's server side,
//! for ptc's tests and its offline MCP demo.
//!
//! ```text
//! ptc-mcp-test-server                    # MCP over stdin/stdout
//! ptc-mcp-test-server --http 127.0.0.1:0 # Streamable HTTP at /mcp; prints `listening on http://ADDR/mcp`
//! ```
//!
//! Tools (a few cities as the dataset):
//! - `lookup {city}`: the city's record (structured content), a tool error
//!   for an unknown city;
//! - `search {prefix, limit?}`: the names starting with `prefix` (text content, JSON);
//! - `fail {message}`: always a tool error with `message`;
//! - `sleep {ms}`: answers after `ms` milliseconds (timeouts);
//! - `tick {key}`: how many times `tick` was called with `key` (result caching);
//! - `exit {code}`: the server process exits at once (a dead server).

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The dataset `lookup` and `search` answer from.
const CITIES: [(&str, &str, u64); 5] = [
    ("Berlin", "DE", 3_850_000),
    ("Leeds", "GB", 812_000),
    ("Lyon", "FR", 522_000),
    ("Austin", "US", 979_000),
    ("Lisbon", "PT", 545_000),
];

#[derive(Clone, Default)]
struct TestServer {
    ticks: Arc<Mutex<HashMap<String, u64>>>,
}

fn schema(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => unreachable!("schemas are objects"),
    }
}

fn tools() -> Vec<Tool> {
    let object =
        |props: Value, required: &[&str]| schema(json!({"type": "object", "properties": props, "required": required}));
    let mut lookup = Tool::new(
        "lookup",
        "A city's country and population",
        object(json!({"city": {"type": "string", "description": "City name"}}), &["city"]),
    );
    lookup.output_schema = Some(Arc::new(schema(json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "country": {"type": "string"}, "population": {"type": "integer"}},
    }))));
    vec![
        lookup,
        Tool::new(
            "search",
            "City names starting with a prefix",
            object(json!({"prefix": {"type": "string"}, "limit": {"type": "integer"}}), &["prefix"]),
        ),
        Tool::new(
            "fail",
            "Always fails with the message",
            object(json!({"message": {"type": "string"}}), &["message"]),
        ),
        Tool::new("sleep", "Answers after ms milliseconds", object(json!({"ms": {"type": "integer"}}), &["ms"])),
        Tool::new(
            "tick",
            "How many times tick was called with this key",
            object(json!({"key": {"type": "string"}}), &["key"]),
        ),
        Tool::new("exit", "Ends the server process at once", object(json!({"code": {"type": "integer"}}), &[])),
    ]
}

fn text(s: impl Into<String>) -> Vec<ContentBlock> {
    vec![ContentBlock::text(s)]
}

impl TestServer {
    async fn call(&self, name: &str, args: &JsonObject) -> CallToolResult {
        let str_arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        let int_arg = |k: &str| args.get(k).and_then(Value::as_u64);
        match name {
            "lookup" => {
                let city = str_arg("city");
                match CITIES.iter().find(|c| c.0.eq_ignore_ascii_case(&city)) {
                    Some((name, country, population)) => {
                        CallToolResult::structured(json!({"city": name, "country": country, "population": population}))
                    }
                    None => CallToolResult::error(text(format!("no city named {city:?}"))),
                }
            }
            "search" => {
                let prefix = str_arg("prefix").to_lowercase();
                let limit = int_arg("limit").unwrap_or(10) as usize;
                let names: Vec<&str> =
                    CITIES.iter().map(|c| c.0).filter(|n| n.to_lowercase().starts_with(&prefix)).take(limit).collect();
                CallToolResult::success(text(json!(names).to_string()))
            }
            "fail" => CallToolResult::error(text(str_arg("message"))),
            "sleep" => {
                let ms = int_arg("ms").unwrap_or(0);
                tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
                CallToolResult::structured(json!({"slept_ms": ms}))
            }
            "tick" => {
                let mut ticks = self.ticks.lock().unwrap_or_else(|e| e.into_inner());
                let n = ticks.entry(str_arg("key")).or_default();
                *n += 1;
                CallToolResult::structured(json!({"key": str_arg("key"), "count": *n}))
            }
            "exit" => {
                eprintln!("ptc-mcp-test-server: exiting as asked");
                std::process::exit(int_arg("code").unwrap_or(3) as i32)
            }
            _ => unreachable!("checked by call_tool"),
        }
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("ptc-mcp-test-server", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult { tools: tools(), ..Default::default() })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !tools().iter().any(|t| t.name == request.name) {
            return Err(ErrorData::invalid_params(format!("no tool named {}", request.name), None));
        }
        let args = request.arguments.unwrap_or_default();
        Ok(self.call(&request.name, &args).await.into())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime");
    let outcome = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        [] => runtime.block_on(serve_stdio()),
        ["--http", addr] => runtime.block_on(serve_http(addr)),
        _ => Err("usage: ptc-mcp-test-server [--http 127.0.0.1:PORT]".to_string()),
    };
    if let Err(e) = outcome {
        eprintln!("ptc-mcp-test-server: {e}");
        std::process::exit(2);
    }
}

async fn serve_stdio() -> Result<(), String> {
    let service = TestServer::default().serve(rmcp::transport::stdio()).await.map_err(|e| e.to_string())?;
    service.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

async fn serve_http(addr: &str) -> Result<(), String> {
    use rmcp::transport::streamable_http_server::{
        session::local::LocalSessionManager, StreamableHttpServerConfig, StreamableHttpService,
    };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    // One server state for every session, so `tick` counts across connections.
    let state = TestServer::default();
    let service = StreamableHttpService::new(
        move || Ok(state.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    println!("listening on http://{local}/mcp");
    use std::io::Write;
    let _ = std::io::stdout().flush();
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => accepted.map_err(|e| e.to_string())?,
            _ = tokio::signal::ctrl_c() => return Ok(()),
        };
        let service = hyper_util::service::TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
        });
    }
}
