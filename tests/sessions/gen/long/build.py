#!/usr/bin/env python3
"""Rebuilds the long sessions of the corpus (tests/sessions/incident-investigation,
price-reconciliation, crm-cleanup, upgrade-research, ..., ci-flake-triage, cloud-cost-audit, refactor-migration,
event-pipeline-backfill, literature-review, returns-desk, security-triage, sql-analytics,
k8s-rollout, variant-interpretation, travel-rebooking, dns-migration, contract-review,
lab-inventory, claims-adjudication, payroll-close, test-regression-fix, api-client-integration .json)
from scratch with real runs of the agent runner.

Usage: python3 tests/sessions/gen/long/build.py [NAME...]   (NAME: incident, pricing, crm, research,
support-triage, budget-revisions, fleet-maintenance, vendor-due-diligence, ci-flake-triage,
cloud-cost-audit, refactor-migration, event-pipeline-backfill, literature-review, returns-desk,
security-triage, sql-analytics, k8s-rollout, variant-interpretation, travel-rebooking,
dns-migration, contract-review, lab-inventory, claims-adjudication, payroll-close,
test-regression-fix, api-client-integration)

For each session: NAME/answers.py writes the replayed model (NAME/replay.json)
and what each turn must do (NAME/expect.json); `ptc run AGENT --config
agents.toml` runs it against the command tools NAME/tool.py and the data in
NAME/data/; every turn's outcome is checked against the expectation; the
session file is cut to corpus conventions (the per-turn `messages`,
`render_stats`, `prompt_tokens` and `usage` that `ptc run` records are
dropped: they describe one run's prompts, not the session; a function
definition gets the `variadic: null` that `ptc run` leaves out) and written to
tests/sessions/, unless it only differs from the file already
there in the tools' measured `duration_ms` (then the old file stays, so a
rebuild leaves git clean). Finally check_corpus.py validates the files and
facts.py counts their fact reuses.

Needs python3 and a Rust toolchain; builds ptc under the shared cargo lock.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
SESSIONS_DIR = os.path.join(ROOT, "tests", "sessions")
PTC = os.path.join(ROOT, "target", "debug", "ptc")

# name (folder) -> (agent of agents.toml, session file, how the run ends)
SESSIONS = {
    "incident": ("incident-investigation", "incident-investigation.json", "returned"),
    "pricing": ("price-reconciliation", "price-reconciliation.json", "returned"),
    "crm": ("crm-cleanup", "crm-cleanup.json", "out_of_turns"),
    "research": ("upgrade-research", "upgrade-research.json", "returned"),
    "support-triage": ("support-triage", "support-triage.json", "returned"),
    "budget-revisions": ("budget-revisions", "budget-revisions.json", "returned"),
    "fleet-maintenance": ("fleet-maintenance", "fleet-maintenance.json", "returned"),
    "vendor-due-diligence": ("vendor-due-diligence", "vendor-due-diligence.json", "returned"),
    "ci-flake-triage": ("ci-flake-triage", "ci-flake-triage.json", "returned"),
    "cloud-cost-audit": ("cloud-cost-audit", "cloud-cost-audit.json", "returned"),
    "refactor-migration": ("refactor-migration", "refactor-migration.json", "returned"),
    "event-pipeline-backfill": ("event-pipeline-backfill", "event-pipeline-backfill.json", "returned"),
    "literature-review": ("literature-review", "literature-review.json", "returned"),
    "returns-desk": ("returns-desk", "returns-desk.json", "returned"),
    "security-triage": ("security-triage", "security-triage.json", "returned"),
    "sql-analytics": ("sql-analytics", "sql-analytics.json", "returned"),
    "k8s-rollout": ("k8s-rollout", "k8s-rollout.json", "returned"),
    "variant-interpretation": ("variant-interpretation", "variant-interpretation.json", "returned"),
    "travel-rebooking": ("travel-rebooking", "travel-rebooking.json", "returned"),
    "dns-migration": ("dns-migration", "dns-migration.json", "returned"),
    "contract-review": ("contract-review", "contract-review.json", "returned"),
    "lab-inventory": ("lab-inventory", "lab-inventory.json", "returned"),
    "claims-adjudication": ("claims-adjudication", "claims-adjudication.json", "returned"),
    "payroll-close": ("payroll-close", "payroll-close.json", "returned"),
    "test-regression-fix": ("test-regression-fix", "test-regression-fix.json", "returned"),
    "api-client-integration": ("api-client-integration", "api-client-integration.json", "returned"),
}
RUN_ONLY_FIELDS = ("messages", "messages_reused", "render_stats", "prompt_tokens", "usage", "cost")
JOURNAL = "ptc-session/2"


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw)


def check_turns(name, session, expect, status):
    """Problems: turns whose outcome is not the scripted one."""
    problems = []
    turns = session["turns"]
    if len(turns) != len(expect):
        problems.append("%s: %d turns run, %d scripted" % (name, len(turns), len(expect)))
    for t, want in zip(turns, expect):
        err = t.get("error")
        got = "ok" if t["success"] else err["kind"]
        if want == "return":
            want = "ok"
        if got != want:
            detail = ": " + err["message"] if err else ""
            problems.append("%s turn %d: expected %s, got %s%s" % (name, t["number"], want, got, detail))
    if session.get("status") != status:
        problems.append("%s: run ended %s, expected %s" % (name, session.get("status"), status))
    return problems


def corpus_definition(d):
    """A definition with every field of its kind, in the corpus's order
    (`ptc run` omits a function's `variadic` when it has none; readers take
    the absent field as null)."""
    keys = ["name", "kind", "value", "docstring"] if d["kind"] == "value" else \
        ["name", "kind", "params", "variadic", "docstring", "return_type"]
    return {k: d.get(k) for k in keys}


def read_session(path):
    """The session `ptc run` wrote at `path`, as a `ptc-session/1` document.
    `ptc run` writes a `ptc-session/2` journal (a header line, one line per
    turn, an end line with the status and result); a document is read as is."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    if len(lines) != 1 and lines[0].get("format") == JOURNAL:
        doc = dict(lines[0], format="ptc-session/1")
        doc["turns"] = [line["turn"] for line in lines[1:] if "turn" in line]
        end = next((line["end"] for line in reversed(lines) if "end" in line), {})
        doc["result"] = end.get("result")
        doc["usage"] = {}
        doc.update({k: end[k] for k in ("status", "reason", "detail") if k in end})
        return doc
    return json.loads(text)


def same_but_durations(a, b):
    def strip(s):
        s = json.loads(json.dumps(s))
        for t in s["turns"]:
            for c in t["tool_calls"]:
                c["duration_ms"] = 0
        return s
    return strip(a) == strip(b)


def build(name):
    agent, out_name, status = SESSIONS[name]
    sh([sys.executable, os.path.join(HERE, name, "answers.py")], check=True)
    with open(os.path.join(HERE, name, "expect.json"), encoding="utf-8") as f:
        expect = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "session.json")
        run = sh([PTC, "run", agent, "--config", os.path.join(HERE, "agents.toml"), "--session", raw],
                 cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if not os.path.exists(raw):
            return ["%s: ptc run wrote no session:\n%s" % (name, run.stderr)]
        try:
            session = read_session(raw)
        except (ValueError, KeyError, IndexError) as e:
            return ["%s: the session ptc run wrote does not read (%s); ptc run said:\n%s" % (name, e, run.stderr)]
    problems = check_turns(name, session, expect, status)
    if problems:
        return problems + ["%s: last lines of ptc run:\n%s" % (name, "\n".join(run.stderr.splitlines()[-3:]))]
    for t in session["turns"]:
        for k in RUN_ONLY_FIELDS:
            t.pop(k, None)
        t["definitions"] = [corpus_definition(d) for d in t["definitions"]]
    out = os.path.join(SESSIONS_DIR, out_name)
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            if same_but_durations(json.load(f), session):
                print("%s: unchanged (apart from tool durations), kept" % out_name)
                return []
    with open(out, "w", encoding="utf-8") as f:
        json.dump(session, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("%s: %d turns, %d bytes" % (out_name, len(session["turns"]), os.path.getsize(out)))
    return []


def main(names):
    unknown = [n for n in names if n not in SESSIONS]
    if unknown:
        sys.exit("unknown session %s; known: %s" % (", ".join(unknown), ", ".join(SESSIONS)))
    names = names or list(SESSIONS)
    sh(["flock", "/tmp/ptc-cargo.lock", "cargo", "build", "-q", "-p", "ptc-host"], cwd=ROOT, check=True)
    problems = []
    for name in names:
        problems += build(name)
    for p in problems:
        print("FAIL " + p)
    if problems:
        return 1
    files = [os.path.join(SESSIONS_DIR, SESSIONS[n][1]) for n in names]
    checked = sh([sys.executable, os.path.join(SESSIONS_DIR, "check_corpus.py")] + files)
    sh([sys.executable, os.path.join(HERE, "facts.py")] + files)
    return checked.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
