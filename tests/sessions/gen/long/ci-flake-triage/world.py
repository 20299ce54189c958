"""The world of the `ci-flake-triage` session: the CI of the orders-platform
repository on main from 2024-08-17 to 2024-09-15 (30 days of runs, job logs,
test outcomes), its git history, CODEOWNERS and issue tracker, as of
2024-09-16. Planted: a broken test (test_refund_partial fails in every run
since the push of 2024-09-11 that brought three commits; the commit whose
subject names refunds, by Priya Raman, is reverted the next day for another
reason and the test still fails: the culprit is the money-helper refactor
by Priya Ramanathan, which truncates float minor units); four flaky tests,
one of them (test_sync_after_restock) under the quarantine threshold over the
test-history tool's default 30 days and over it in the policy's 14 days, one
with an open issue already; a test broken and fixed the same day; two kinds of
infrastructure failure (a full disk on one runner, Docker Hub's pull rate
limit). Deterministic: tool.py and answers.py read it."""
import hashlib
import random

REPO = "northwind/orders-platform"
BRANCH = "main"
AS_OF = "2024-09-16T08:00:00Z"
WINDOW_START = "2024-09-02T00:00:00Z"
HISTORY_DAYS = 30
PAGE_SIZE = 20

JOBS = ["lint", "unit", "api-tests", "integration", "e2e"]
JOB_ITEMS = {"unit": 812, "api-tests": 342, "integration": 118, "e2e": 46}
JOB_BASE_S = {"lint": 61.0, "unit": 188.0, "api-tests": 262.0, "integration": 498.0, "e2e": 404.0}
JOB_PATHS = {"unit": "tests/unit", "api-tests": "tests/api tests/payments", "integration": "tests/integration",
             "e2e": "tests/e2e"}
RUNNERS = ["ci-runner-0%d" % k for k in range(1, 9)]

REFUND = "tests/api/test_orders.py::test_refund_partial"
PAGINATION = "tests/api/test_orders.py::test_list_orders_pagination"
WEBHOOK = "tests/payments/test_webhooks.py::test_webhook_retry_backoff"
RESTOCK = "tests/integration/test_inventory_sync.py::test_sync_after_restock"
THREEDS = "tests/e2e/test_checkout.py::test_checkout_3ds_challenge"
VAT = "tests/unit/test_tax.py::test_vat_rounding_de"
JOB_OF = {REFUND: "api-tests", PAGINATION: "api-tests", WEBHOOK: "api-tests", RESTOCK: "integration",
          THREEDS: "e2e", VAT: "unit"}
# tests that always pass (valid names for test-history)
OTHER_TESTS = ["tests/api/test_orders.py::test_refund_full", "tests/api/test_orders.py::test_create_order",
               "tests/payments/test_webhooks.py::test_webhook_signature", "tests/unit/test_money.py::test_to_minor_units",
               "tests/integration/test_inventory_sync.py::test_sync_initial_load",
               "tests/e2e/test_checkout.py::test_checkout_card"]

PEOPLE = {
    "@praman": {"name": "Priya Raman", "email": "priya.raman@northwind.dev", "team": "orders"},
    "@pramanathan": {"name": "Priya Ramanathan", "email": "priya.ramanathan@northwind.dev", "team": "payments"},
    "@tortega": {"name": "Tomás Ortega", "email": "tomas.ortega@northwind.dev", "team": "inventory"},
    "@jweber": {"name": "Jonas Weber", "email": "jonas.weber@northwind.dev", "team": "web-checkout"},
    "@lhoffmann": {"name": "Lena Hoffmann", "email": "lena.hoffmann@northwind.dev", "team": "billing"},
    "@abello": {"name": "Aisha Bello", "email": "aisha.bello@northwind.dev", "team": "platform"},
    "@dvolkov": {"name": "Dmitri Volkov", "email": "dmitri.volkov@northwind.dev", "team": "payments"},
    "@mkowalski": {"name": "Marta Kowalski", "email": "marta.kowalski@northwind.dev", "team": "orders"},
}
HANDLE_OF = {p["name"]: h for h, p in PEOPLE.items()}

# CODEOWNERS, last matching rule wins (as in the file, most specific last)
CODEOWNERS = [
    ("*", ["@abello"]),
    ("services/orders/", ["@praman", "@mkowalski"]),
    ("services/payments/", ["@pramanathan", "@dvolkov"]),
    ("services/inventory/", ["@tortega"]),
    ("services/billing/", ["@lhoffmann"]),
    ("tests/api/", ["@praman"]),
    ("tests/payments/", ["@pramanathan"]),
    ("tests/integration/test_inventory_sync.py", ["@tortega"]),
    ("tests/e2e/", ["@jweber"]),
    ("tests/unit/test_tax.py", ["@lhoffmann"]),
    ("ci/", ["@abello"]),
    (".github/", ["@abello"]),
]


def owners_of(path):
    rule = None
    for pattern, owners in CODEOWNERS:
        if pattern == "*" or path == pattern or (pattern.endswith("/") and path.startswith(pattern)):
            rule = (pattern, owners)
    return rule


def _r(*key):
    return random.Random(":".join(map(str, key)))


def _sha(*key):
    return hashlib.sha1(":".join(map(str, key)).encode()).hexdigest()[:7]


# --- the commits ---------------------------------------------------------------------

SUBJECTS = [
    ("@mkowalski", "orders: expose fulfilment ETA on GET /v2/orders/{id}", ["services/orders/api.py", "tests/api/test_orders.py"]),
    ("@dvolkov", "payments: retry idempotent captures once on 502", ["services/payments/client.py"]),
    ("@tortega", "inventory: batch restock events per warehouse", ["services/inventory/events.py"]),
    ("@jweber", "checkout: move the 3DS iframe behind a feature flag", ["web/checkout/ThreeDS.tsx", "tests/e2e/test_checkout.py"]),
    ("@abello", "ci: cache the uv wheel directory between jobs", [".github/workflows/ci.yml"]),
    ("@lhoffmann", "billing: invoice PDF footer in the customer's language", ["services/billing/pdf.py"]),
    ("@praman", "orders: validate currency on order creation", ["services/orders/validation.py"]),
    ("@pramanathan", "payments: log the PSP request id on every call", ["services/payments/client.py"]),
    ("@mkowalski", "orders: index orders(customer_id, created_at)", ["migrations/0147_orders_customer_created.py"]),
    ("@dvolkov", "payments: drop the legacy v1 webhook route", ["services/payments/webhooks.py"]),
    ("@tortega", "inventory: log consumer lag every 30 s", ["services/inventory/consumer.py"]),
    ("@abello", "deps: bump pytest-xdist to 3.6.1", ["uv.lock", "pyproject.toml"]),
    ("@jweber", "e2e: wait for network idle before the payment step", ["tests/e2e/pages/checkout.py"]),
    ("@lhoffmann", "billing: credit notes carry the original invoice number", ["services/billing/credit_notes.py"]),
    ("@praman", "orders: paginate GET /v2/orders with an opaque cursor", ["services/orders/api.py"]),
    ("@pramanathan", "payments: typed errors for declined captures", ["services/payments/errors.py"]),
    ("@abello", "ci: split the e2e job into its own runner pool", [".github/workflows/ci.yml"]),
    ("@mkowalski", "orders: fix typo in refund reason enum docs", ["docs/api/orders.md"]),
    ("@tortega", "inventory: dead-letter topic for malformed stock events", ["services/inventory/consumer.py"]),
    ("@dvolkov", "payments: PSP sandbox credentials from the vault in CI", [".github/workflows/ci.yml", "ci/compose.yml"]),
    ("@lhoffmann", "billing: round invoice totals once, at the end", ["services/billing/invoice.py"]),
    ("@praman", "orders: cancel unpaid orders after 30 minutes", ["services/orders/jobs.py"]),
    ("@jweber", "checkout: show the saved cards first", ["web/checkout/Cards.tsx"]),
    ("@abello", "ci: upload junit reports as artifacts", [".github/workflows/ci.yml"]),
    ("@mkowalski", "orders: OpenAPI examples for refunds", ["docs/api/openapi.yaml"]),
    ("@pramanathan", "payments: map PSP decline codes to reasons", ["services/payments/errors.py"]),
    ("@tortega", "inventory: warehouse time zones in restock reports", ["services/inventory/reports.py"]),
    ("@dvolkov", "payments: metrics for webhook delivery latency", ["services/payments/webhooks.py"]),
    ("@lhoffmann", "billing: e-invoice XRechnung 3.0 fields", ["services/billing/xrechnung.py"]),
    ("@abello", "deps: bump fastapi to 0.114.1", ["uv.lock", "pyproject.toml"]),
    ("@jweber", "e2e: record a trace on the first retry", ["tests/e2e/conftest.py"]),
    ("@praman", "orders: order notes limited to 2,000 characters", ["services/orders/validation.py"]),
]

# planted commits: (sha, handle, subject, body, files) -- a key names where they go
PLANTED = {
    "vat-break": ("4d81be0", "@lhoffmann", "billing: reduced VAT table for DE 2024", "", ["services/billing/vat.py"]),
    "vat-fix": ("f6c2a95", "@lhoffmann", "billing: fix DE reduced-rate fixture in test_tax", "", ["tests/unit/test_tax.py"]),
    "last-green": ("8e2f0a1", "@mkowalski", "orders: return 404 instead of 500 for unknown order ids (#2227)", "",
                   ["services/orders/api.py", "tests/api/test_orders.py"]),
    "rounding": ("5b7a2c9", "@praman", "orders: round partial refunds to minor units (#2231)",
                 "Partial refunds now split the tax share per line and round it half-up to the\n"
                 "currency's minor units, so that refunds add up to the order total (PLAT-1802).",
                 ["services/orders/refunds.py", "tests/api/test_refunds_tax.py"]),
    "money": ("a90d3f4", "@pramanathan", "payments: move money helpers to a shared module (#2229)",
              "to_minor_units and from_minor_units move from services/payments/client.py to\n"
              "services/payments/money.py so that orders and billing can import them.",
              ["services/payments/money.py", "services/payments/client.py", "services/orders/refunds.py"]),
    "changelog": ("c41d9e7", "@lhoffmann", "docs: changelog for 2024.9.3", "", ["CHANGELOG.md"]),
    "revert": ("e03b6d8", "@lhoffmann", 'Revert "orders: round partial refunds to minor units (#2231)"',
               "This reverts commit 5b7a2c9.\n\nThe per-line tax rounding makes invoice exports differ from the "
               "ledger by one cent\n(PLAT-1829). To be redone behind the export change.",
               ["services/orders/refunds.py", "tests/api/test_refunds_tax.py"]),
    "disk": ("b7d40e2", "@abello", "ci: prune docker images after every integration job", "",
             [".github/workflows/ci.yml"]),
}

DIFFS = {
    "5b7a2c9": [
        {"path": "services/orders/refunds.py", "additions": 14, "deletions": 3, "hunks": [
            "@@ -71,12 +71,23 @@ def create_refund(order, amount, reason):\n"
            "     if amount > order.refundable:\n"
            "         raise RefundTooLarge(order.id, amount, order.refundable)\n"
            "     minor = money.to_minor_units(amount, order.currency)\n"
            "-    tax_minor = minor * order.tax_rate // (100 + order.tax_rate)\n"
            "+    # split the tax share per line and round half-up (PLAT-1802)\n"
            "+    tax_minor = 0\n"
            "+    for line in order.lines:\n"
            "+        share = Decimal(line.total_minor) / Decimal(order.total_minor)\n"
            "+        line_tax = share * minor * line.tax_rate / (100 + line.tax_rate)\n"
            "+        tax_minor += int(line_tax.quantize(Decimal(1), rounding=ROUND_HALF_UP))\n"
            "     return Refund(order_id=order.id, amount_minor=minor, tax_minor=tax_minor, reason=reason)"]},
        {"path": "tests/api/test_refunds_tax.py", "additions": 31, "deletions": 0, "hunks": [
            "@@ -0,0 +1,31 @@\n"
            "+def test_partial_refund_tax_split_two_rates(client, mixed_rate_order):\n"
            "+    resp = client.post(f\"/v2/orders/{mixed_rate_order.id}/refunds\", json={\"amount\": \"10.00\"})\n"
            "+    assert resp.json()[\"tax_minor\"] == 119"]},
    ],
    "a90d3f4": [
        {"path": "services/payments/money.py", "additions": 24, "deletions": 0, "hunks": [
            "@@ -0,0 +1,24 @@\n"
            "+\"\"\"Money helpers shared by the orders, payments and billing services.\"\"\"\n"
            "+EXPONENT = {\"EUR\": 2, \"USD\": 2, \"GBP\": 2, \"JPY\": 0, \"KWD\": 3}\n"
            "+\n"
            "+\n"
            "+def to_minor_units(amount, currency: str) -> int:\n"
            "+    return int(float(amount) * 10 ** EXPONENT[currency])\n"
            "+\n"
            "+\n"
            "+def from_minor_units(minor: int, currency: str) -> Decimal:\n"
            "+    return Decimal(minor).scaleb(-EXPONENT[currency])"]},
        {"path": "services/payments/client.py", "additions": 2, "deletions": 19, "hunks": [
            "@@ -12,25 +12,8 @@ from decimal import ROUND_HALF_UP, Decimal\n"
            "-EXPONENT = {\"EUR\": 2, \"USD\": 2, \"GBP\": 2, \"JPY\": 0, \"KWD\": 3}\n"
            "-\n"
            "-\n"
            "-def to_minor_units(amount: Decimal, currency: str) -> int:\n"
            "-    exp = EXPONENT[currency]\n"
            "-    return int((Decimal(amount) * 10 ** exp).quantize(Decimal(1), rounding=ROUND_HALF_UP))\n"
            "+from services.payments.money import EXPONENT, from_minor_units, to_minor_units"]},
        {"path": "services/orders/refunds.py", "additions": 1, "deletions": 1, "hunks": [
            "@@ -3,7 +3,7 @@\n"
            "-from services.payments import client as money\n"
            "+from services.payments import money"]},
    ],
    "c41d9e7": [
        {"path": "CHANGELOG.md", "additions": 9, "deletions": 0, "hunks": [
            "@@ -1,3 +1,12 @@\n"
            " # Changelog\n"
            "+\n"
            "+## 2024.9.3\n"
            "+- orders: partial refunds round the tax share per line (#2231)\n"
            "+- payments: money helpers in services/payments/money.py (#2229)\n"
            "+- orders: 404 for unknown order ids (#2227)"]},
    ],
    "e03b6d8": [
        {"path": "services/orders/refunds.py", "additions": 3, "deletions": 14, "hunks": [
            "@@ -71,23 +71,12 @@ def create_refund(order, amount, reason):\n"
            "     minor = money.to_minor_units(amount, order.currency)\n"
            "-    # split the tax share per line and round half-up (PLAT-1802)\n"
            "-    tax_minor = 0\n"
            "-    for line in order.lines:\n"
            "+    tax_minor = minor * order.tax_rate // (100 + order.tax_rate)"]},
        {"path": "tests/api/test_refunds_tax.py", "additions": 0, "deletions": 31, "hunks": ["@@ -1,31 +0,0 @@"]},
    ],
}


def day_list():
    out = []
    y, m, d = 2024, 8, 17
    for _ in range(HISTORY_DAYS):
        out.append("%d-%02d-%02d" % (y, m, d))
        d += 1
        if m == 8 and d > 31:
            m, d = 9, 1
    return out


DAYS = day_list()


def weekday(date):
    # 2024-08-17 is a Saturday
    return (DAYS.index(date) + 5) % 7  # 0 = Monday


PUSH_TIMES = ["09:12", "11:43", "14:21", "16:54"]


def build():
    """(commits oldest first, runs oldest first)."""
    commits = []
    runs = []
    run_id = 18204
    head = None
    r = _r("history")
    k = 0
    for date in DAYS:
        slots = [("02:00", "schedule")]
        if weekday(date) < 5:
            slots += [(t, "push") for t in PUSH_TIMES]
        elif weekday(date) == 5:
            slots += [("10:37", "push")]
        for hhmm, trigger in slots:
            if trigger == "push":
                planted = {("2024-09-05", "11:43"): ["vat-break"], ("2024-09-05", "16:54"): ["vat-fix"],
                           ("2024-09-11", "09:12"): ["last-green"],
                           ("2024-09-11", "11:43"): ["rounding", "money", "changelog"],
                           ("2024-09-12", "14:21"): ["revert"], ("2024-09-09", "09:12"): ["disk"]}.get((date, hhmm))
                if planted:
                    new = [PLANTED[p] for p in planted]
                else:
                    new = []
                    for _ in range(1 + r.randrange(0, 3)):
                        h, subj, files = SUBJECTS[k % len(SUBJECTS)]
                        k += 1
                        new.append((_sha("c", k), h, "%s (#%d)" % (subj, 2080 + k + (12 if date >= "2024-09-11" else 0)), "", files))
                minute = int(hhmm[3:])
                for j, (sha, h, subj, body, files) in enumerate(new):
                    at = "%sT%s:%02d:%02dZ" % (date, hhmm[:2], max(0, minute - 3 * (len(new) - j)), r.randrange(60))
                    commits.append({"sha": sha, "author": PEOPLE[h]["name"], "handle": h, "date": at,
                                    "subject": subj, "body": body, "files": files})
                head = commits[-1]["sha"]
            if head is None:
                head = _sha("root")
                commits.append({"sha": head, "author": "Aisha Bello", "handle": "@abello",
                                "date": "2024-08-16T17:02:11Z", "subject": "release 2024.8.4", "body": "",
                                "files": ["CHANGELOG.md"]})
            sec = r.randrange(5, 55)
            runs.append({"run_id": run_id, "sha": head, "trigger": trigger,
                         "started_at": "%sT%s:%02dZ" % (date, hhmm, sec),
                         "runner": RUNNERS[r.randrange(len(RUNNERS))]})
            run_id += 1 + r.randrange(0, 4)
    return commits, runs


COMMITS, RUNS = build()
COMMIT_BY_SHA = {c["sha"]: c for c in COMMITS}
RUN_BY_ID = {x["run_id"]: x for x in RUNS}
SHA_INDEX = {c["sha"]: i for i, c in enumerate(COMMITS)}


def in_window(run):
    return run["started_at"] >= WINDOW_START


WINDOW_RUNS = [x for x in RUNS if in_window(x)]
OLD_RUNS = [x for x in RUNS if not in_window(x)]

# --- infrastructure failures -----------------------------------------------------------
# the disk of ci-runner-07 fills up (integration job cannot start its containers) until
# the prune step lands on 2024-09-09; Docker Hub rate-limits image pulls of the e2e job
DISK_RUNS = [x["run_id"] for x in WINDOW_RUNS
             if "2024-09-03" <= x["started_at"][:10] <= "2024-09-06" and x["trigger"] == "push"][2:9:3]
PULL_RUNS = [x["run_id"] for x in WINDOW_RUNS if x["started_at"][:10] == "2024-09-13"][1:4:2]
for _rid in DISK_RUNS:
    RUN_BY_ID[_rid]["runner"] = "ci-runner-07"
INFRA = {rid: ("integration", "disk") for rid in DISK_RUNS}
INFRA.update({rid: ("e2e", "pull") for rid in PULL_RUNS})


def job_ran(run, job):
    """False when the job failed before its tests (infrastructure)."""
    return INFRA.get(run["run_id"], (None,))[0] != job


# --- test outcomes -------------------------------------------------------------------------


def _pick(runs, n, key):
    rr = _r("flaky", key)
    return set(x["run_id"] for x in rr.sample(runs, n))


FLAKY_COUNTS = {  # test -> (failures in the 14-day window, failures in the 16 days before)
    RESTOCK: (8, 3),
    WEBHOOK: (7, 7),
    THREEDS: (12, 4),
    PAGINATION: (3, 2),
}
FAILS = {}
for _t, (_n14, _nold) in FLAKY_COUNTS.items():
    _job = JOB_OF[_t]
    FAILS[_t] = (_pick([x for x in WINDOW_RUNS if job_ran(x, _job)], _n14, _t + ":w")
                 | _pick([x for x in OLD_RUNS if job_ran(x, _job)], _nold, _t + ":o"))

BREAK_SHA = PLANTED["money"][0]
FAILS[REFUND] = set(x["run_id"] for x in RUNS if SHA_INDEX[x["sha"]] >= SHA_INDEX[BREAK_SHA])
FAILS[VAT] = set(x["run_id"] for x in RUNS
                 if SHA_INDEX[PLANTED["vat-break"][0]] <= SHA_INDEX[x["sha"]] < SHA_INDEX[PLANTED["vat-fix"][0]])
TRACKED = [REFUND, PAGINATION, WEBHOOK, RESTOCK, THREEDS, VAT]


def failed_tests(run, job):
    return [t for t in TRACKED if JOB_OF[t] == job and run["run_id"] in FAILS[t] and job_ran(run, job)]


def test_duration(test, run):
    rr = _r("dur", test, run["run_id"])
    if run["run_id"] in FAILS.get(test, ()):
        if test == RESTOCK:
            return round(30.0 + rr.uniform(0.1, 0.4), 2)
        if test == THREEDS:
            return round(60.0 + rr.uniform(0.2, 0.9), 2)
        if test == WEBHOOK:
            return round(7.3 + rr.uniform(0.0, 0.2), 2)
    base = {REFUND: 0.84, PAGINATION: 1.9, WEBHOOK: 6.2, RESTOCK: 4.6, THREEDS: 17.5, VAT: 0.05}.get(test, 1.1)
    return round(base * rr.uniform(0.92, 1.08), 2)


def job_duration(run, job):
    rr = _r("job", run["run_id"], job)
    if not job_ran(run, job):
        return round(rr.uniform(38, 52) + (41.0 if job == "integration" else 8.0), 1)
    d = JOB_BASE_S[job] * rr.uniform(0.93, 1.09)
    if job == "e2e" and run["run_id"] in FAILS[THREEDS]:
        d += 66.0
    if job == "integration" and run["run_id"] in FAILS[RESTOCK]:
        d += 31.0
    return round(d, 1)


def job_status(run, job):
    if not job_ran(run, job):
        return "failed"
    return "failed" if failed_tests(run, job) else "passed"


def run_summary(run):
    jobs = [{"job": j, "status": job_status(run, j), "duration_s": job_duration(run, j),
             "failed_tests": failed_tests(run, j) if j != "lint" else []} for j in JOBS]
    failed = [j["job"] for j in jobs if j["status"] == "failed"]
    # lint runs first, the four test jobs in parallel after it
    dur = round(jobs[0]["duration_s"] + max(j["duration_s"] for j in jobs[1:]) + 23.4, 1)
    return {"run_id": run["run_id"], "sha": run["sha"], "trigger": run["trigger"], "started_at": run["started_at"],
            "duration_s": dur, "status": "failed" if failed else "passed", "failed_jobs": failed, "jobs": jobs,
            "runner": run["runner"]}


# --- job logs ----------------------------------------------------------------------------------

FAILURE_TEXT = {
    REFUND: [
        "_____________________________ test_refund_partial ______________________________",
        "[gw2] linux -- Python 3.11.9 /home/runner/work/orders-platform/orders-platform/.venv/bin/python",
        "",
        "client = <starlette.testclient.TestClient object at 0x7f3a2c1e9d50>, paid_order = <Order ord_5QkT82 EUR 89.97>",
        "",
        "    def test_refund_partial(client, paid_order):",
        "        resp = client.post(f\"/v2/orders/{paid_order.id}/refunds\", json={\"amount\": \"29.99\", \"reason\": \"partial\"})",
        "        assert resp.status_code == 201",
        ">       assert resp.json()[\"amount_minor\"] == 2999",
        "E       assert 2998 == 2999",
        "",
        "tests/api/test_orders.py:214: AssertionError",
        "------------------------------ Captured log call -------------------------------",
        "DEBUG    services.payments.money:money.py:6 to_minor_units amount=29.99 currency=EUR -> 2998",
        "INFO     services.orders.refunds:refunds.py:92 refund created order=ord_5QkT82 amount_minor=2998 tax_minor=478",
    ],
    PAGINATION: [
        "________________________ test_list_orders_pagination _________________________",
        "[gw1] linux -- Python 3.11.9 /home/runner/work/orders-platform/orders-platform/.venv/bin/python",
        "",
        "    def test_list_orders_pagination(client, customer_with_orders):",
        "        first = client.get(\"/v2/orders\", params={\"customer\": customer_with_orders.id, \"limit\": 20}).json()",
        "        second = client.get(\"/v2/orders\", params={\"cursor\": first[\"next\"], \"limit\": 20}).json()",
        ">       assert not {o[\"id\"] for o in first[\"items\"]} & {o[\"id\"] for o in second[\"items\"]}",
        "E       AssertionError: assert not {'ord_7f3k2Q'}",
        "E        +  where {'ord_7f3k2Q'} = {'ord_7f3k2Q', 'ord_7f3k9Z', ...} & {'ord_7f3k2Q', 'ord_7f3m1A', ...}",
        "",
        "tests/api/test_orders.py:177: AssertionError",
    ],
    WEBHOOK: [
        "_________________________ test_webhook_retry_backoff __________________________",
        "[gw3] linux -- Python 3.11.9 /home/runner/work/orders-platform/orders-platform/.venv/bin/python",
        "",
        "    @pytest.mark.timeout(10)",
        "    def test_webhook_retry_backoff(webhook_sink, failing_endpoint):",
        "        deliver_event(\"payment.captured\", endpoint=failing_endpoint, max_attempts=3, base_delay=1.0)",
        ">       assert webhook_sink.wait_for_attempts(3, within=7.0)",
        "E       AssertionError: expected 3 delivery attempts within 7.0s, got 2 (elapsed 7.31s)",
        "",
        "tests/payments/test_webhooks.py:96: AssertionError",
    ],
    RESTOCK: [
        "___________________________ test_sync_after_restock ___________________________",
        "",
        "    async def test_sync_after_restock(kafka, inventory_service, warehouse):",
        "        await warehouse.restock(\"SKU-44821\", qty=120)",
        ">       event = await kafka.wait_for(\"inventory.restocked\", key=\"SKU-44821\", timeout=30.0)",
        "",
        "tests/integration/test_inventory_sync.py:58: ",
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
        "tests/integration/conftest.py:141: in wait_for",
        "    raise TimeoutError(f\"waited {timeout}s for event {topic} (last offset {self.offset(topic)})\")",
        "E   TimeoutError: waited 30.0s for event inventory.restocked (last offset 18842)",
        "------------------------------ Captured log call -------------------------------",
        "WARNING  services.inventory.consumer:consumer.py:77 consumer group inventory-sync rebalancing (members 2 -> 3)",
    ],
    THREEDS: [
        "_________________________ test_checkout_3ds_challenge _________________________",
        "",
        "    def test_checkout_3ds_challenge(page, checkout, card_3ds_required):",
        "        checkout.pay_with(card_3ds_required)",
        ">       frame = page.frame_locator(\"iframe[name=stripe-challenge-frame]\").first.wait_for(timeout=60_000)",
        "E       playwright._impl._errors.TimeoutError: Locator.wait_for: Timeout 60000ms exceeded.",
        "E       Call log:",
        "E         - waiting for locator(\"iframe[name=stripe-challenge-frame]\").first to be visible",
        "",
        "tests/e2e/test_checkout.py:121: TimeoutError",
    ],
    VAT: [
        "_____________________________ test_vat_rounding_de _____________________________",
        "",
        "    def test_vat_rounding_de():",
        ">       assert vat.rate(\"DE\", \"food\") == Decimal(\"7\")",
        "E       AssertionError: assert Decimal('7.0') == Decimal('7')",
        "",
        "tests/unit/test_tax.py:33: AssertionError",
    ],
}
SHORT_ERROR = {REFUND: "assert 2998 == 2999", PAGINATION: "AssertionError: assert not {'ord_7f3k2Q'}",
               WEBHOOK: "AssertionError: expected 3 delivery attempts within 7.0s, got 2 (elapsed 7.31s)",
               RESTOCK: "TimeoutError: waited 30.0s for event inventory.restocked (last offset 18842)",
               THREEDS: "playwright._impl._errors.TimeoutError: Locator.wait_for: Timeout 60000ms exceeded.",
               VAT: "AssertionError: assert Decimal('7.0') == Decimal('7')"}


def _clock(start, offset_s):
    """An ISO timestamp `offset_s` seconds after `start` (YYYY-MM-DDTHH:MM:SSZ), with milliseconds."""
    date, t = start[:10], start[11:19]
    h, m, s = int(t[:2]), int(t[3:5]), int(t[6:8])
    total = h * 3600 + m * 60 + s + offset_s
    ms = int(round((total - int(total)) * 1000)) % 1000
    total = int(total)
    return "%sT%02d:%02d:%02d.%03dZ" % (date, total // 3600 % 24, total // 60 % 60, total % 60, ms)


def job_log(run, job):
    """The log lines of one job of a run."""
    rr = _r("log", run["run_id"], job)
    dur = job_duration(run, job)
    start = run["started_at"]
    lint_s = job_duration(run, "lint")
    t0 = 0.0 if job == "lint" else lint_s + 4.0
    lines = []
    t = t0

    def out(text, dt=0.0):
        nonlocal t
        t += dt
        lines.append("%s %s" % (_clock(start, t), text))

    runner = run["runner"]
    out("##[group]Set up job")
    out("Current runner version: '2.319.1'", 0.002)
    out("Runner name: '%s'" % runner, 0.001)
    out("Runner group name: 'linux-x64'", 0.001)
    out("Machine name: '%s-%s'" % (runner, _sha("m", runner)), 0.001)
    out("##[endgroup]", 1.3)
    out("##[group]Run actions/checkout@v4", 0.4)
    out("Syncing repository: %s" % REPO, 0.8)
    out("HEAD is now at %s %s" % (run["sha"], COMMIT_BY_SHA[run["sha"]]["subject"]), 2.1)
    out("##[endgroup]", 0.1)
    out("##[group]Run astral-sh/setup-uv@v3", 0.3)
    out("Restored cache from key: uv-Linux-x64-%s" % _sha("uv", run["sha"][:3]), 3.2)
    out("Resolved 184 packages in 11ms", 1.9)
    out("Installed 184 packages in 2.41s", 2.4)
    out("##[endgroup]", 0.1)
    if job == "lint":
        out("##[group]Run uv run ruff check . && uv run mypy services", 0.2)
        out("All checks passed!", 6.8)
        out("Success: no issues found in 412 source files", dur - 18.0)
        out("##[endgroup]", 0.1)
        out("Cleaning up orphan processes", 0.4)
        return lines
    if job in ("integration", "e2e"):
        svc = "postgres redis kafka" if job == "integration" else "postgres redis stripe-mock web"
        out("##[group]Run docker compose -f ci/compose.yml up -d %s" % svc, 0.3)
        if not job_ran(run, job):
            kind = INFRA[run["run_id"]][1]
            if kind == "disk":
                out(" Container ci-postgres-1  Creating", 1.2)
                out(" Container ci-kafka-1  Creating", 0.4)
                out("Error response from daemon: failed to create task for container: failed to create shim task: "
                    "OCI runtime create failed: write /var/lib/docker/overlay2/%s/merged/etc/hosts: "
                    "no space left on device: unknown" % hashlib.sha1(str(run["run_id"]).encode()).hexdigest(), 9.7)
                out("##[error]Process completed with exit code 1.", 0.2)
            else:
                out(" postgres Pulling ", 0.8)
                out(" stripe-mock Pulling ", 0.1)
                out(" stripe-mock Error toomanyrequests: You have reached your pull rate limit. You may increase "
                    "the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit", 4.9)
                out("Error response from daemon: toomanyrequests: You have reached your pull rate limit.", 0.1)
                out("##[error]Process completed with exit code 18.", 0.2)
            out("Post job cleanup.", 0.6)
            return lines
        for c in svc.split():
            out(" Container ci-%s-1  Started" % c, rr.uniform(0.8, 3.5))
        out("##[endgroup]", 0.1)
    items = JOB_ITEMS[job]
    fails = failed_tests(run, job)
    out("##[group]Run uv run pytest %s -n 4 -p no:cacheprovider --junitxml=reports/%s.xml --durations=5"
        % (JOB_PATHS[job], job), 0.2)
    out("============================= test session starts ==============================", 1.2)
    out("platform linux -- Python 3.11.9, pytest-8.3.2, pluggy-1.5.0", 0.001)
    out("rootdir: /home/runner/work/orders-platform/orders-platform", 0.001)
    out("configfile: pyproject.toml", 0.001)
    out("plugins: xdist-3.6.1, asyncio-0.24.0, timeout-2.3.1, cov-5.0.0%s" % (", playwright-0.5.2" if job == "e2e" else ""), 0.001)
    out("created: 4/4 workers", 1.4)
    out("4 workers [%d items]" % items, 0.9)
    out("", 0.1)
    body = dur - (t - t0) - 14.0
    done = 0
    step = 72
    nfail = len(fails)
    while done < items:
        n = min(step, items - done)
        marks = "." * n
        if fails and done == 0:
            marks = "F" * nfail + "." * (n - nfail)
        done += n
        out("%s%s [%3d%%]" % (marks, " " * (step - n), done * 100 // items), body * n / items)
    if fails:
        out("=================================== FAILURES ===================================", 0.2)
        for f in fails:
            for ln in FAILURE_TEXT[f]:
                out(ln, 0.0)
    out("============================== slowest 5 durations ==============================", 0.1)
    slow = sorted([(test_duration(x, run), x) for x in TRACKED + OTHER_TESTS if JOB_OF.get(x, _job_of_other(x)) == job],
                  reverse=True)[:5]
    for d, x in slow:
        out("%.2fs call     %s" % (d, x), 0.0)
    out("- generated xml file: /home/runner/work/orders-platform/orders-platform/reports/%s.xml -" % job, 0.3)
    if fails:
        out("=========================== short test summary info ============================", 0.0)
        for f in fails:
            out("FAILED %s - %s" % (f, SHORT_ERROR[f]), 0.0)
    passed = items - nfail - (2 if job == "api-tests" else 0)
    summary = ("%d failed, " % nfail if nfail else "") + "%d passed" % passed + (", 2 skipped" if job == "api-tests" else "")
    mins = int(dur) // 60
    out("%s %s in %.2fs (0:%02d:%02d) %s" % ("=" * 10, summary, dur - 16.0, mins, int(dur) % 60, "=" * 10), 0.4)
    if fails:
        out("##[error]Process completed with exit code 1.", 0.1)
    out("##[endgroup]", 0.0)
    out("Post job cleanup.", 0.5)
    return lines


def _job_of_other(test):
    p = test.split("/")[1]
    return {"api": "api-tests", "payments": "api-tests", "unit": "unit", "integration": "integration", "e2e": "e2e"}[p]


# --- the issue tracker --------------------------------------------------------------------------

ISSUES = [
    {"key": "PLAT-1790", "title": "Flaky: tests/payments/test_webhooks.py::test_webhook_retry_backoff misses the third attempt",
     "state": "open", "assignee": "@pramanathan", "labels": ["flaky-test", "payments"], "created": "2024-08-28",
     "body": "The retry test sometimes sees 2 delivery attempts within 7.0s instead of 3 on busy runners. "
             "The backoff uses wall-clock sleeps; should use the fake clock."},
    {"key": "PLAT-1802", "title": "Partial refunds do not add up to the order total",
     "state": "closed", "assignee": "@praman", "labels": ["orders", "bug"], "created": "2024-09-03",
     "body": "Refunding an order in three partial refunds leaves 1 cent of tax unrefunded. Fixed by #2231."},
    {"key": "PLAT-1811", "title": "CI: integration job fails with 'no space left on device' on ci-runner-07",
     "state": "closed", "assignee": "@abello", "labels": ["ci-infra"], "created": "2024-09-04",
     "body": "docker overlay2 fills the runner disk; containers cannot start. Fixed by pruning images after every "
             "integration job (b7d40e2, 2024-09-09)."},
    {"key": "PLAT-1829", "title": "Invoice export totals off by one cent after the refund rounding change",
     "state": "closed", "assignee": "@lhoffmann", "labels": ["billing", "bug"], "created": "2024-09-12",
     "body": "Since #2231 the monthly invoice export differs from the ledger by 0.01 EUR on orders with two tax "
             "rates. Reverted in e03b6d8."},
    {"key": "PLAT-1834", "title": "CI: e2e job hits Docker Hub pull rate limit",
     "state": "open", "assignee": "@abello", "labels": ["ci-infra"], "created": "2024-09-13",
     "body": "Anonymous pulls of stripe-mock from Docker Hub fail with toomanyrequests. Mirror the image to our "
             "registry or authenticate the runners."},
    {"key": "PLAT-1837", "title": "Checkout: 3DS challenge iframe slow to appear in the PSP sandbox",
     "state": "open", "assignee": None, "labels": ["web-checkout"], "created": "2024-09-14",
     "body": "Manual testers report the challenge frame sometimes takes over a minute in the sandbox."},
]
LABELS = ["flaky-test", "ci-broken", "ci-infra", "orders", "payments", "inventory", "billing", "web-checkout", "bug"]
