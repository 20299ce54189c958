//! `ptc-agent`: the agent loop as a library, the same for the `ptc` command
//! line, the benchmarks and a service that embeds it.
//!
//! - [`config`] is the model of what a run is set up from (agents, strategy
//!   instances, tools, MCP servers, price tables); reading it from
//!   `strategies.toml` is the host's job;
//! - [`resolve`] loads a config's plugins and builds its instances once
//!   ([`Config::resolve`](config::Config::resolve)), the one place a
//!   strategy name becomes a renderer;
//! - [`run`] is the loop ([`run::AgentRun`]: `prepare`, then `turn`),
//!   choosing each prompt's renderer through [`policy`], calling the model
//!   through `ptc-llm` and tools through [`tools`] (sub-agents and
//!   `llm-query` through [`nested`], MCP servers through [`mcp`]), holding
//!   the agent to its signature ([`contract`], [`inputs`]) and its run
//!   limits ([`run_limits`]), pricing each prompt ([`costing`]), recording model calls ([`usage`]) and
//!   reporting through [`progress`].

pub mod budget;
pub mod config;
pub mod contract;
pub mod costing;
pub mod fence;
pub mod inputs;
pub mod location;
pub mod mcp;
pub mod nested;
pub mod policy;
pub mod progress;
pub mod resolve;
pub mod run;
pub mod run_limits;
pub mod tools;
pub mod usage;
