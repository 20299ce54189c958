#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the ci-flake-triage session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: issue keys and quarantine changes are derived from the request itself."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402


def branch(args):
    b = args.get("branch") or w.BRANCH
    if b != w.BRANCH:
        raise ToolError("no runs on branch %r in the last %d days (branches with runs: main)" % (b, w.HISTORY_DAYS))
    return b


def run(args):
    rid = need(args, "run_id")
    if not isinstance(rid, int) or rid not in w.RUN_BY_ID:
        raise ToolError("no run %r on %s" % (rid, w.REPO))
    return w.RUN_BY_ID[rid]


def commit(sha):
    if not isinstance(sha, str) or len(sha) < 7:
        raise ToolError("not a commit: %r (give at least 7 hex digits)" % (sha,))
    for c in w.COMMITS:
        if c["sha"].startswith(sha[:7]):
            return c
    raise ToolError("unknown revision %r" % sha)


def ci_runs(args):
    b = branch(args)
    since = args.get("since") or "2024-08-17T00:00:00Z"
    rows = [w.run_summary(x) for x in reversed(w.RUNS) if x["started_at"] >= since]
    page = int(args.get("page") or 1)
    pages = max(1, (len(rows) + w.PAGE_SIZE - 1) // w.PAGE_SIZE)
    if not 1 <= page <= pages:
        raise ToolError("page %d out of range 1..%d" % (page, pages))
    chunk = rows[(page - 1) * w.PAGE_SIZE:page * w.PAGE_SIZE]
    return {"branch": b, "since": since, "total": len(rows), "page": page, "pages": pages,
            "runs": [{k: r[k] for k in ("run_id", "sha", "trigger", "started_at", "duration_s", "status",
                                        "failed_jobs")} for r in chunk]}


def ci_run(args):
    r = w.run_summary(run(args))
    c = w.COMMIT_BY_SHA[r["sha"]]
    return {"run_id": r["run_id"], "sha": r["sha"], "commit_subject": c["subject"], "trigger": r["trigger"],
            "started_at": r["started_at"], "duration_s": r["duration_s"], "status": r["status"],
            "jobs": r["jobs"]}


def job_log(args):
    x = run(args)
    job = need(args, "job")
    if job not in w.JOBS:
        raise ToolError("run %d has no job %r (jobs: %s)" % (x["run_id"], job, ", ".join(w.JOBS)))
    lines = w.job_log(x, job)
    grep = args.get("grep")
    if grep:
        lines = [ln for ln in lines if grep in ln]
    tail = int(args.get("tail") or 60)
    if not 1 <= tail <= 400:
        raise ToolError("tail must be between 1 and 400")
    total = len(lines)
    lines = lines[-tail:]
    return {"run_id": x["run_id"], "job": job, "status": w.job_status(x, job), "runner": x["runner"],
            "duration_s": w.job_duration(x, job), "matched": total, "returned": len(lines), "lines": lines}


def test_history(args):
    test = need(args, "test")
    if test not in w.TRACKED and test not in w.OTHER_TESTS:
        hint = ""
        if "::" not in test or not test.startswith("tests/"):
            hint = "; use the pytest node id, like tests/api/test_orders.py::test_create_order"
        raise ToolError("no test %r in the junit reports of %s%s" % (test, w.REPO, hint))
    b = branch(args)
    days = int(args.get("days") or w.HISTORY_DAYS)
    if not 1 <= days <= w.HISTORY_DAYS:
        raise ToolError("days must be between 1 and %d" % w.HISTORY_DAYS)
    since = w.DAYS[w.HISTORY_DAYS - days] + "T00:00:00Z"
    job = w.JOB_OF.get(test) or w._job_of_other(test)
    out = []
    for x in reversed(w.RUNS):
        if x["started_at"] < since or not w.job_ran(x, job):
            continue
        failed = x["run_id"] in w.FAILS.get(test, ())
        out.append({"run_id": x["run_id"], "sha": x["sha"], "at": x["started_at"],
                    "outcome": "failed" if failed else "passed", "duration_s": w.test_duration(test, x)})
    return {"test": test, "branch": b, "days": days, "since": since, "runs": len(out),
            "failed": sum(1 for o in out if o["outcome"] == "failed"), "outcomes": out}


def git_log(args):
    a = commit(need(args, "from"))
    b = commit(need(args, "to"))
    i, j = w.SHA_INDEX[a["sha"]], w.SHA_INDEX[b["sha"]]
    if i > j:
        raise ToolError("%s is not an ancestor of %s" % (a["sha"], b["sha"]))
    rows = list(reversed(w.COMMITS[i + 1:j + 1]))
    limit = int(args.get("limit") or 50)
    grep = (args.get("grep") or "").lower()
    if grep:
        rows = [c for c in rows if grep in (c["subject"] + " " + c["body"]).lower()]
    return [{"sha": c["sha"], "author": c["author"], "date": c["date"], "subject": c["subject"],
             "files": len(c["files"])} for c in rows[:limit]]


def git_show(args):
    c = commit(need(args, "sha"))
    files = w.DIFFS.get(c["sha"])
    if files is None:
        files = [{"path": p, "additions": 1 + crc(c["sha"], p) % 40, "deletions": crc(p, c["sha"]) % 12,
                  "hunks": ["@@ -%d,7 +%d,9 @@" % (10 + crc(p) % 200, 10 + crc(p) % 200)]} for p in c["files"]]
    return {"sha": c["sha"], "author": c["author"], "author_handle": c["handle"], "date": c["date"],
            "subject": c["subject"], "body": c["body"], "files": files}


def code_owners(args):
    path = need(args, "path")
    if "::" in path:
        raise ToolError("code-owners takes a file path, not a test id: %r" % path)
    pattern, owners = w.owners_of(path)
    return {"path": path, "rule": pattern, "owners": [{"handle": h, "name": w.PEOPLE[h]["name"],
                                                      "team": w.PEOPLE[h]["team"]} for h in owners]}


def issue_search(args):
    words = need(args, "query").lower().split()
    state = args.get("state") or "all"
    out = []
    for i in w.ISSUES:
        hay = (i["title"] + " " + i["body"] + " " + " ".join(i["labels"])).lower()
        if all(x in hay for x in words) and state in ("all", i["state"]):
            out.append({"key": i["key"], "title": i["title"], "state": i["state"], "assignee": i["assignee"],
                        "labels": i["labels"], "created": i["created"], "snippet": i["body"][:140]})
    return out


def new_issue_key(title):
    return "PLAT-%d" % (1841 + crc(title) % 60)


def issue_create(args):
    title = need(args, "title")
    need(args, "body")
    assignee = need(args, "assignee")
    if assignee not in w.PEOPLE:
        hint = w.HANDLE_OF.get(assignee)
        raise ToolError("unknown assignee %r%s" % (assignee, " (did you mean %s?)" % hint if hint else
                                                    "; assignees are handles like @abello"))
    labels = args.get("labels") or []
    bad = [x for x in labels if x not in w.LABELS]
    if bad:
        raise ToolError("unknown labels %s (labels: %s)" % (", ".join(bad), ", ".join(w.LABELS)))
    key = new_issue_key(title)
    return {"ok": True, "key": key, "url": "https://tracker.northwind.dev/browse/%s" % key, "title": title,
            "assignee": assignee, "labels": labels, "state": "open", "created": w.AS_OF}


def quarantine_test(args):
    test = need(args, "test")
    issue = need(args, "issue")
    if test not in w.TRACKED and test not in w.OTHER_TESTS:
        raise ToolError("no test %r in the junit reports of %s" % (test, w.REPO))
    if not (isinstance(issue, str) and issue.startswith("PLAT-") and issue[5:].isdigit()):
        raise ToolError("issue must be a tracker key like PLAT-1790, got %r" % (issue,))
    days = int(args.get("days") or 14)
    if not 1 <= days <= 14:
        raise ToolError("days must be between 1 and 14 (quarantines expire after at most 14 days)")
    if test == w.REFUND:
        return {"ok": False, "test": test, "reason": "fails in every run since 2024-09-11: quarantine is for "
                "flaky tests, fix or revert the change instead"}
    until = "2024-09-%02d" % (16 + days) if 16 + days <= 30 else "2024-10-%02d" % (16 + days - 30)
    return {"ok": True, "test": test, "issue": issue, "until": until,
            "change": "PR #%d" % (2291 + crc(test) % 47),
            "marker": "@pytest.mark.quarantine(issue=\"%s\", until=\"%s\")" % (issue, until)}


TOOLS = {"ci-runs": ci_runs, "ci-run": ci_run, "job-log": job_log, "test-history": test_history,
         "git-log": git_log, "git-show": git_show, "code-owners": code_owners, "issue-search": issue_search,
         "issue-create": issue_create, "quarantine-test": quarantine_test}

if __name__ == "__main__":
    serve(TOOLS)
