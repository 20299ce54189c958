#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the test-regression-fix session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.

The working tree (the agent's edits) is kept across the calls of one run: a
JSON file in the temp directory named after the `ptc run` process (its pid
and start time), so every run starts from the repository at HEAD. The PR
number and the PR's CI run id are derived from the request, never random."""
import hashlib
import json
import os
import re
import sys
from contextlib import contextmanager

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, run_state, serve  # noqa: E402


# --- the working tree of one run -----------------------------------------------------------------

class Memory:
    """An in-memory working tree (answers.py uses it to compute what the agent sees)."""

    def __init__(self):
        self.st = {"files": dict(w.FILES), "prs": {}}

    @contextmanager
    def __call__(self):
        yield self.st


def file_state():
    return run_state("test-regression-fix", lambda: {"files": dict(w.FILES), "prs": {}})


STATE = [file_state]


def state():
    return STATE[0]()


def installed_dateutil(files):
    m = re.search(r"^python-dateutil==(\S+)$", files.get("requirements.txt", ""), re.M)
    return m.group(1) if m else "2.8.2"


# --- CI ------------------------------------------------------------------------------------------

def find_run(rid):
    for r in w.RUNS:
        if r[0] == rid:
            return r
    raise ToolError("no workflow run %r in %s (runs of the last 3 weeks on main: %s)"
                    % (rid, w.REPO, ", ".join(str(r[0]) for r in w.RUNS)))


def ci_runs(args):
    branch = args.get("branch") or "main"
    limit = int(args.get("limit") or 10)
    if branch != "main":
        with state() as st:
            prs = [p for p in st["prs"].values() if p["branch"] == branch]
        if not prs:
            raise ToolError("no workflow runs for branch %r" % branch)
        p = prs[-1]
        return {"repo": w.REPO, "branch": branch, "runs": [
            {"run_id": p["ci_run_id"], "workflow": "ci", "event": "pull_request", "branch": branch,
             "head_sha": p["head_sha"], "title": p["title"], "started": "2024-03-11T11:02:18Z",
             "status": "completed", "conclusion": "success" if p["tests_ok"] else "failure",
             "jobs": [{"name": "lint", "conclusion": "success", "duration": "0m31s"},
                      {"name": "test", "conclusion": "success" if p["tests_ok"] else "failure",
                       "duration": "3m39s", "summary": p["summary"]}]}]}
    out = []
    for run in w.RUNS[:limit]:
        c, files, dateutil, ids, res = w.run_result(run)
        ok = res["failed"] == 0
        out.append({"run_id": run[0], "workflow": "ci", "event": run[1], "branch": "main", "head_sha": c["sha"],
                    "title": c["subject"], "started": run[2], "status": "completed",
                    "conclusion": "success" if ok else "failure",
                    "jobs": [{"name": "lint", "conclusion": "success", "duration": "0m%02ds" % (27 + run[0] % 9)},
                             {"name": "test", "conclusion": "success" if ok else "failure",
                              "duration": w.fmt_secs(run[4]), "summary": res["summary"]}]})
    return {"repo": w.REPO, "branch": "main", "runs": out}


PACKAGES = ["annotated-types-0.6.0", "anyio-4.3.0", "coverage-7.4.3", "fastapi-0.110.0", "freezegun-1.4.0",
            "h11-0.14.0", "httpcore-1.0.4", "httpx-0.27.0", "idna-3.6", "iniconfig-2.0.0", "packaging-24.0",
            "pluggy-1.4.0", "pydantic-2.6.3", "pydantic-core-2.16.3", "pytest-8.0.2", "pytest-cov-4.1.0",
            "python-dateutil-%s", "ruff-0.3.0", "six-1.16.0", "sniffio-1.3.1", "sqlalchemy-2.0.28",
            "starlette-0.36.3", "structlog-24.1.0", "typing-extensions-4.10.0"]


def progress_lines(ids, res):
    failed = {f["nodeid"] for f in res["failures"]}
    by_file = {}
    for i in ids:
        by_file.setdefault(i.split("::")[0], []).append("F" if i in failed else ".")
    out, done = [], 0
    for path, marks in by_file.items():
        done += len(marks)
        out.append("%-70s [%3d%%]" % (path + " " + "".join(marks), round(100.0 * done / len(ids))))
    return out


def ci_log(args):
    rid = need(args, "run_id")
    run = find_run(rid)
    job = args.get("job") or "test"
    if job not in ("lint", "test"):
        raise ToolError("run %d has the jobs lint and test, not %r" % (rid, job))
    c, files, dateutil, ids, res = w.run_result(run)
    if job == "lint":
        log = ["Run pip install ruff==0.3.0", "Successfully installed ruff-0.3.0", "Run ruff check src tests",
               "All checks passed!"]
        return {"run_id": rid, "job": job, "conclusion": "success", "log": "\n".join(log)}
    pkgs = " ".join(p % dateutil if "%s" in p else p for p in PACKAGES)
    log = ["Run actions/checkout@v4", "HEAD is now at %s %s" % (c["sha"][:7], c["subject"]),
           "Run actions/setup-python@v5", "Successfully set up CPython (%s)" % w.PYTHON,
           "Run pip install -r requirements.txt -r requirements-dev.txt",
           "Collecting python-dateutil==%s (from -r requirements.txt (line 8))" % dateutil,
           "Successfully installed " + pkgs,
           "Run pip install -e . --no-deps", "Successfully installed invoicing-service-3.7.2",
           "Run pytest --cov=invoicing --cov-report=term-missing:skip-covered",
           "============================= test session starts ==============================",
           "platform linux -- Python %s, pytest-8.0.2, pluggy-1.4.0" % w.PYTHON,
           "rootdir: /home/runner/work/invoicing-service/invoicing-service",
           "configfile: pyproject.toml", "testpaths: tests", "plugins: cov-4.1.0, anyio-4.3.0",
           "collected %d items" % len(ids), ""]
    log += progress_lines(ids, res)
    if res["failures"]:
        log += ["", "=================================== FAILURES ==================================="]
        for f in res["failures"]:
            name = f["nodeid"].split("::")[1]
            log.append("_" * ((78 - len(name)) // 2) + " " + name + " " + "_" * ((78 - len(name)) // 2))
            log += ["", f["traceback"]]
    log += ["", "---------- coverage: platform linux, python %s-final-0 -----------" % w.PYTHON,
            "Name                              Stmts   Miss  Cover   Missing",
            "---------------------------------------------------------------",
            "src/invoicing/exporters.py           12     12     0%   2-19",
            "---------------------------------------------------------------",
            "TOTAL                               287     12    96%", ""]
    if res["failures"]:
        log.append("=========================== short test summary info ============================")
        for f in res["failures"]:
            log.append("FAILED %s - %s" % (f["nodeid"], f["message"]))
    log.append("=" * 25 + " " + res["summary"] + " " + "=" * 25)
    if res["failures"]:
        log.append("##[error]Process completed with exit code 1.")
    return {"run_id": rid, "job": job, "conclusion": "failure" if res["failures"] else "success",
            "log": "\n".join(log)}


# --- the repository --------------------------------------------------------------------------------

def tree(args):
    under = (args.get("under") or "").strip("/")
    with state() as st:
        files = st["files"]
    paths = [p for p in sorted(files) if not under or p.startswith(under + "/")]
    if not paths:
        raise ToolError("no files under %r" % under)
    return {"repo": w.REPO, "ref": "main (working tree)", "count": len(paths),
            "files": [{"path": p, "lines": len(files[p].splitlines())} for p in paths]}


def read(args):
    path = need(args, "path")
    with state() as st:
        files = st["files"]
    if path not in files:
        raise ToolError("no such file: %s" % path)
    lines = files[path].splitlines()
    start = int(args.get("start") or 1)
    end = min(int(args.get("end") or len(lines)), len(lines))
    if start < 1 or start > max(1, len(lines)):
        raise ToolError("start %d out of range 1..%d" % (start, len(lines)))
    text = "\n".join("%4d  %s" % (n, lines[n - 1]) for n in range(start, end + 1))
    return {"path": path, "total_lines": len(lines), "start": start, "end": end, "text": text}


def grep(args):
    pattern = need(args, "pattern")
    try:
        rx = re.compile(pattern)
    except re.error as e:
        raise ToolError("bad pattern %r: %s" % (pattern, e))
    where = (args.get("path") or "").strip("/")
    with state() as st:
        files = st["files"]
    hits = []
    for path in sorted(files):
        if where and not (path == where or path.startswith(where + "/")):
            continue
        for n, line in enumerate(files[path].splitlines(), 1):
            if rx.search(line):
                hits.append("%s:%d:%s" % (path, n, line))
    return {"pattern": pattern, "path": where or ".", "count": len(hits), "hits": hits}


def git_log(args):
    path = args.get("path")
    limit = int(args.get("limit") or 20)
    out = []
    for c in reversed(w.COMMITS):
        if path and not any(p == path or p.startswith(path.rstrip("/") + "/") for p, _, _ in c["changes"]):
            continue
        name = w.PEOPLE.get(c["author"], ("Renovate Bot",))[0]
        out.append({"sha": c["sha"], "short": c["sha"][:7], "author": c["author"], "name": name,
                    "date": c["date"], "subject": c["subject"]})
    if path and not out:
        raise ToolError("no commits touch %r" % path)
    return {"path": path or ".", "count": len(out[:limit]), "commits": out[:limit]}


def git_show(args):
    ref = need(args, "sha").strip()
    if len(ref) < 7 or not re.match(r"^[0-9a-f]+$", ref):
        raise ToolError("sha must be at least 7 hex digits, got %r" % ref)
    found = [c for c in w.COMMITS if c["sha"].startswith(ref)]
    if not found:
        raise ToolError("unknown revision %s" % ref)
    c = found[0]
    files, diff = [], []
    for path, before, after in c["changes"]:
        adds, dels = w.numstat(before, after)
        files.append({"path": path, "status": "added" if before is None else "modified", "additions": adds,
                      "deletions": dels})
        diff.append(w.unified(path, before, after))
    text = "".join(diff)
    lines = text.splitlines()
    if len(lines) > 80:
        text = "\n".join(lines[:80]) + "\n... (%d more lines)" % (len(lines) - 80)
    name = w.PEOPLE.get(c["author"], ("Renovate Bot",))[0]
    return {"sha": c["sha"], "author": c["author"], "name": name, "date": c["date"], "subject": c["subject"],
            "body": c["body"], "files": files, "diff": text}


def owners(args):
    path = need(args, "path")
    with state() as st:
        files = st["files"]
    if path not in files and not path.endswith("/"):
        raise ToolError("no such file: %s" % path)
    pattern, handles = w.owners_of(path)
    return {"path": path, "rule": pattern,
            "owners": [{"handle": h, "name": w.PEOPLE[h][0], "team": w.PEOPLE[h][1]} for h in handles]}


# --- editing and testing ---------------------------------------------------------------------------

def edit(args):
    path = need(args, "path")
    old = args.get("old")
    new = args.get("new")
    if not isinstance(old, str) or not old:
        raise ToolError("missing required argument: old (the exact text to replace)")
    if not isinstance(new, str):
        raise ToolError("missing required argument: new (the replacement text, may be empty)")
    with state() as st:
        files = st["files"]
        if path not in files:
            raise ToolError("no such file: %s" % path)
        text = files[path]
        n = text.count(old)
        if n == 0:
            raise ToolError("old text not found in %s (it must match the file exactly, whitespace included; "
                            "read the lines again)" % path)
        if n > 1:
            raise ToolError("old text occurs %d times in %s; include more lines so it is unique" % (n, path))
        at = text[:text.index(old)].count("\n") + 1
        files[path] = text.replace(old, new)
        if path.endswith(".py"):
            try:
                compile(files[path], path, "exec")
            except SyntaxError as e:
                files[path] = text
                raise ToolError("edit refused: %s would not compile: %s (line %s)" % (path, e.msg, e.lineno))
        adds, dels = w.numstat(text, files[path])
    return {"path": path, "line": at, "removed_lines": len(old.splitlines()), "added_lines": len(new.splitlines()),
            "file_lines": len(files[path].splitlines()), "changed_vs_head": {"additions": adds, "deletions": dels}}


def diff(args):
    with state() as st:
        files = st["files"]
    out, stat = [], []
    for path in sorted(set(files) | set(w.FILES)):
        before, after = w.FILES.get(path), files.get(path, "")
        if before != after:
            out.append(w.unified(path, before, after))
            adds, dels = w.numstat(before, after)
            stat.append({"path": path, "additions": adds, "deletions": dels})
    return {"files": stat, "diff": "".join(out)}


def select(files, wanted):
    ids = [t[0] for t in w.parse_tests(files)]
    if not wanted:
        return ids
    if isinstance(wanted, str):
        wanted = [wanted]
    out = []
    for x in wanted:
        hit = [i for i in ids if i == x or i.startswith(x + "::") or i.startswith(x + "[")]
        if not hit:
            path = x.split("::")[0]
            same = [i.split("::")[1] for i in ids if i.startswith(path + "::")]
            if same:
                raise ToolError("ERROR: not found: %s (no match in %s; its tests: %s)" % (x, path, ", ".join(same)))
            raise ToolError("ERROR: file or directory not found: %s" % path)
        out += [h for h in hit if h not in out]
    return out


def run_tests(args):
    with state() as st:
        files = st["files"]
    ids = select(files, args.get("tests"))
    dateutil = installed_dateutil(files)
    res = w.run_suite(files, ids, w.TODAY, dateutil)
    target = " ".join(args.get("tests") or []) if isinstance(args.get("tests"), list) else (args.get("tests") or "")
    return dict({"command": "pytest " + (target or "tests"), "date": w.TODAY, "python": w.PYTHON,
                 "python_dateutil": dateutil, "collected": len(ids)}, **res)


def open_pr(args):
    title = need(args, "title")
    body = need(args, "body")
    branch = need(args, "branch")
    if branch in ("main", "master"):
        raise ToolError("branch must be a new branch, not %s" % branch)
    reviewers = args.get("reviewers") or []
    bad = [r for r in reviewers if r not in w.PEOPLE]
    if bad:
        raise ToolError("unknown reviewers %s (reviewers are handles like @hlindgren)" % ", ".join(map(repr, bad)))
    d = diff({})
    if not d["files"]:
        raise ToolError("nothing to commit: the working tree is the same as main")
    with state() as st:
        files = st["files"]
        res = w.run_suite(files, [t[0] for t in w.parse_tests(files)], w.TODAY, installed_dateutil(files))
        number = 474
        head = hashlib.sha1(("pr:%s:%s" % (branch, title)).encode()).hexdigest()
        run_id = 8220000000 + crc("run", branch) % 900000
        st["prs"][str(number)] = {"number": number, "branch": branch, "title": title, "head_sha": head,
                                  "ci_run_id": run_id, "tests_ok": res["failed"] == 0, "summary": res["summary"]}
    return {"number": number, "url": "%s/pull/%d" % (w.URL, number), "title": title, "branch": branch,
            "base": "main", "head_sha": head, "files": d["files"],
            "additions": sum(f["additions"] for f in d["files"]), "deletions": sum(f["deletions"] for f in d["files"]),
            "reviewers": reviewers, "ci_run_id": run_id, "status": "open",
            "checks": [{"name": "ci / lint", "status": "queued"}, {"name": "ci / test", "status": "queued"}]}


TOOLS = {"trf-ci-runs": ci_runs, "trf-ci-log": ci_log, "trf-tree": tree, "trf-read": read, "trf-grep": grep,
         "trf-git-log": git_log, "trf-git-show": git_show, "trf-owners": owners, "trf-edit": edit,
         "trf-diff": diff, "trf-run-tests": run_tests, "trf-open-pr": open_pr}

if __name__ == "__main__":
    serve(TOOLS)
