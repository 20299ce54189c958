#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the refactor-migration session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: run-tests and open-pr take the agent's edits with every call and
apply them to the repository as of world.py; PR numbers and comment ids are
derived from the request itself."""
import fnmatch
import hashlib
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402


def tree(args):
    try:
        return w.apply_changes(args.get("changes") or [])
    except ValueError as e:
        raise ToolError(str(e))


def list_files(args):
    glob = args.get("glob") or "**"
    files = [p for p in sorted(w.FILES) if fnmatch.fnmatch(p, glob) or fnmatch.fnmatch(p, glob.replace("**/", ""))]
    return {"glob": glob, "count": len(files), "files": files}


def read_file(args):
    path = need(args, "path")
    if path not in w.FILES:
        raise ToolError("no such file: %s" % path)
    lines = w.FILES[path].splitlines()
    start = int(args.get("start") or 1)
    end = int(args.get("end") or len(lines))
    if start < 1 or start > max(1, len(lines)):
        raise ToolError("start %d out of range 1..%d" % (start, len(lines)))
    end = min(end, len(lines))
    if args.get("numbered") is False:
        text = "\n".join(lines[start - 1:end]) + "\n"
    else:
        text = "\n".join("%4d  %s" % (n, lines[n - 1]) for n in range(start, end + 1))
    return {"path": path, "total_lines": len(lines), "start": start, "end": end, "text": text}


def grep(args):
    pattern = need(args, "pattern")
    try:
        rx = re.compile(pattern)
    except re.error as e:
        raise ToolError("bad pattern %r: %s" % (pattern, e))
    where = args.get("path") or ""
    hits = []
    for path in sorted(w.FILES):
        if where and not (path.startswith(where) or fnmatch.fnmatch(path, where)):
            continue
        for n, line in enumerate(w.FILES[path].splitlines(), 1):
            if rx.search(line):
                hits.append("%s:%d:%s" % (path, n, line))
    return {"pattern": pattern, "path": where or ".", "count": len(hits), "hits": hits}


def package_info(args):
    name = need(args, "name").lower().replace("_", "-")
    if name not in w.PACKAGES:
        raise ToolError("package %r is not installed and not on the index mirror" % name)
    p = w.PACKAGES[name]
    rel = w.RELEASES[name]
    latest = max((v for v, _ in rel), key=lambda v: tuple(map(int, v.split("."))))
    out = {"name": name, "installed": w.installed(w.FILES).get(name), "latest": latest, "summary": p["summary"],
           "home_page": p["home_page"], "license": p["license"], "requires": p["requires"],
           "required_by": p["required_by"],
           "releases": [{"version": v, "date": d} for v, d in sorted(rel, key=lambda x: x[1])]}
    if "latest_requires" in p:
        out["latest_requires"] = p["latest_requires"]
        out["latest_note"] = p["latest_note"]
    return out


def _vt(v):
    return tuple(int(x) for x in v.split("."))


def _in_range(version, spec):
    for part in spec.split(","):
        m = re.match(r"(>=|<=|<|>|==)(.+)", part.strip())
        op, v = m.group(1), _vt(m.group(2))
        x = _vt(version)
        if not {">=": x >= v, "<=": x <= v, "<": x < v, ">": x > v, "==": x == v}[op]:
            return False
    return True


def advisories(args):
    name = need(args, "package").lower().replace("_", "-")
    if name not in w.ADVISORIES:
        raise ToolError("no package %r in the advisory database" % name)
    version = args.get("version")
    out = []
    for a in w.ADVISORIES[name]:
        a = dict(a, url="https://github.com/advisories/%s" % a["id"])
        if version:
            a["affects_version"] = any(_in_range(version, r) for r in a["affected"])
        out.append(a)
    return {"package": name, "version": version, "count": len(out), "advisories": out}


def docs_page(args):
    page = need(args, "page")
    if page not in w.DOCS:
        raise ToolError("no page %r (pages: %s)" % (page, ", ".join(w.DOCS)))
    title, text = w.DOCS[page]
    return {"page": page, "title": title, "url": "%s/%s/" % (w.DOCS_BASE, page), "text": text}


def run_tests(args):
    files = tree(args)
    target = args.get("target")
    if target and not any(i == target or i.startswith(target) for i in w.test_ids(files)):
        raise ToolError("no tests match %r" % target)
    r = w.run_suite(files, target)
    pkgs = w.installed(files)
    return dict({"command": "pytest" + (" " + target if target else ""), "target": target or "tests",
                 "changed_files": [d["path"] for d in w.diff_stat(files)],
                 "packages": {k: pkgs.get(k) for k in ("legacy-http", "netclient", "ledger-sdk")}}, **r)


def audit(files):
    pkgs = w.installed(files)
    found = []
    for name, advs in w.ADVISORIES.items():
        if name in pkgs:
            for a in advs:
                if any(_in_range(pkgs[name], r) for r in a["affected"]):
                    found.append("%s %s: %s" % (name, pkgs[name], a["id"]))
    return found


def code_owners(args):
    path = need(args, "path")
    if path not in w.FILES and not path.endswith("/"):
        raise ToolError("no such file: %s" % path)
    pattern, owners = w.owners_of(path)
    return {"path": path, "rule": pattern,
            "owners": [{"handle": h, "name": w.PEOPLE[h]["name"], "team": w.PEOPLE[h]["team"]} for h in owners]}


def pr_number(title):
    return 4100 + crc(title) % 90


def open_pr(args):
    title = need(args, "title")
    need(args, "body")
    branch = need(args, "branch")
    files = tree(args)
    reviewers = args.get("reviewers") or []
    bad = [r for r in reviewers if r not in w.PEOPLE]
    if bad:
        raise ToolError("unknown reviewers %s (reviewers are handles like @jdelacroix)" % ", ".join(map(repr, bad)))
    stat = w.diff_stat(files)
    if not stat:
        raise ToolError("nothing to commit: the changes leave the tree as it is")
    r = w.run_suite(files)
    found = audit(files)
    number = pr_number(title)
    return {"ok": True, "number": number, "url": "%s/pull/%d" % (w.GIT_URL, number), "title": title,
            "branch": branch, "base": "main", "head_sha": hashlib.sha1(("pr:%s:%s" % (title, branch)).encode()).hexdigest()[:10],
            "files": stat, "additions": sum(d["additions"] for d in stat),
            "deletions": sum(d["deletions"] for d in stat), "reviewers": reviewers,
            "checks": [{"name": "lint", "status": "passed", "detail": "ruff check . && mypy src: no issues"},
                       {"name": "tests", "status": "passed" if r["exit_code"] == 0 else "failed",
                        "detail": r["output"].splitlines()[-1].strip("= ")},
                       {"name": "pip-audit", "status": "failed" if found else "passed",
                        "detail": "; ".join(found) if found else "No known vulnerabilities found"}]}


def review_comment(args):
    pr = need(args, "pr")
    path = need(args, "path")
    line = need(args, "line")
    body = need(args, "body")
    if not isinstance(pr, int) or not 4100 <= pr < 4190:
        raise ToolError("no open pull request #%s in %s" % (pr, w.REPO))
    if path not in w.FILES:
        raise ToolError("%s is not in the diff of #%d" % (path, pr))
    if not isinstance(line, int) or line < 1:
        raise ToolError("line must be a positive integer")
    cid = 88000000 + crc(pr, path, line, body) % 999999
    return {"ok": True, "id": cid, "pr": pr, "path": path, "line": line,
            "url": "%s/pull/%d#discussion_r%d" % (w.GIT_URL, pr, cid)}


TOOLS = {"list-files": list_files, "read-file": read_file, "grep": grep, "package-info": package_info,
         "advisories": advisories, "docs-page": docs_page, "run-tests": run_tests, "codeowners": code_owners,
         "open-pr": open_pr, "review-comment": review_comment}

if __name__ == "__main__":
    serve(TOOLS)
