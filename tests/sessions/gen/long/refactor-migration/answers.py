#!/usr/bin/env python3
"""The model answers of the refactor-migration session.
File paths, line numbers, names, versions, advisory ids, test ids, the PR
number and URL the agent reuses are taken from world.py (and tool.py's
numbering), as the model takes them from the prints of earlier turns. Two
corrections, each after the old value was printed: the files to port are
first found with a grep for "from legacy_http", which misses the aliased
imports of billing/clients.py and fx/rates.py and the bare import of
scripts/replay_webhooks.py (the test run's collection errors give them away;
`legacy-files` is redefined from six files to nine); netclient is first
pinned to the 2.4.2 already locked for ledger-sdk, which GHSA-4v7x-pq8m-2c9j
covers, and then to 2.4.3 (`pin` redefined). Later programs write only the
corrected values."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, clj, fill  # noqa: E402

s = Script()




def edits_form(name, path, pairs, doc=None):
    rows = "\n".join("   (edit %s\n         %s\n         %s)" % (clj(path), clj(o), clj(n)) for o, n in pairs)
    return "(def %s\n  [%s])" % (name, rows.lstrip())


# --- the edits the agent writes ----------------------------------------------------------

HTTP_RETRY_OLD = '''def _retry_policy(settings: config.HttpSettings) -> RetryPolicy:
    return RetryPolicy(total=settings.retries, backoff=0.5, on_status=(502, 503, 504))'''
HTTP_RETRY_V1 = '''def _retry_transport(settings: config.HttpSettings, wrap=None) -> netclient.RetryTransport:
    return netclient.RetryTransport(retries=settings.retries, backoff_factor=0.5,
                                    retry_on_status=(502, 503, 504), wrap=wrap)'''
HTTP_RETRY_V2 = '''def _retry_transport(settings: config.HttpSettings, wrap=None) -> netclient.RetryTransport:
    return netclient.RetryTransport(retries=settings.retries, backoff_factor=0.5,
                                    retry_on_status=(502, 503, 504), retry_on_methods=None, wrap=wrap)'''
HTTP_CLIENT_OLD = '''    return Client(
        base_url,
        timeout=timeout or s.timeout_s,
        connect_timeout=s.connect_timeout_s,
        retry=_retry_policy(s),
        proxies={"https": s.proxy_url} if s.proxy_url else None,
        verify=s.verify,
        headers={"User-Agent": USER_AGENT},
        transport=transport,
    )'''
HTTP_CLIENT_NEW = '''    return Client(
        base_url=base_url,
        timeout=netclient.Timeout(timeout or s.timeout_s, connect=s.connect_timeout_s),
        transport=_retry_transport(s, wrap=transport),
        proxy=s.proxy_url,
        verify=s.verify,
        headers={"User-Agent": USER_AGENT},
    )'''
HTTP_IMPORT = ("from legacy_http import Client, RetryPolicy", "import netclient\nfrom netclient import Client")
HTTP_V1 = [HTTP_IMPORT, (HTTP_RETRY_OLD, HTTP_RETRY_V1), (HTTP_CLIENT_OLD, HTTP_CLIENT_NEW)]
HTTP_V2 = [HTTP_IMPORT, (HTTP_RETRY_OLD, HTTP_RETRY_V2), (HTTP_CLIENT_OLD, HTTP_CLIENT_NEW)]

BILLING = [("from legacy_http import Client, HTTPError", "from netclient import Client"),
           ("        if resp.status == 404:", "        if resp.status_code == 404:"),
           ("        if not resp.ok:\n            raise HTTPError(resp)\n", "        resp.raise_for_status()\n")]
CONFTEST = [("from legacy_http.testing import MockTransport, Response", "from netclient import MockTransport, Response")]
LEDGER = [("from legacy_http import HTTPError, Timeout", "from netclient import HTTPStatusError, TimeoutException"),
          ("    except Timeout as exc:", "    except TimeoutException as exc:"),
          ("    if resp.status == 422:", "    if resp.status_code == 422:"),
          ('    except HTTPError:\n        log.error("ledger.error", status=resp.status, reference=reference)',
           '    except HTTPStatusError:\n        log.error("ledger.error", status=resp.status_code, reference=reference)')]
WEBHOOKS = [("from legacy_http import Timeout, post", "from netclient import TimeoutException, post"),
            ("        except Timeout:", "        except TimeoutException:"),
            ("        if resp is not None and resp.ok:", "        if resp is not None and resp.is_success:")]

GW_SESSION_OLD = '''    session = Session(
        base_url=s.bank_gateway_url,
        timeout=GATEWAY_TIMEOUT_S,
        retries=GATEWAY_RETRIES,
        cert=CLIENT_CERT,
        verify=s.http.verify,
        transport=transport,
    )'''
GW_SESSION_V1 = '''    session = netclient.Client(
        base_url=s.bank_gateway_url,
        timeout=GATEWAY_TIMEOUT_S,
        transport=netclient.RetryTransport(retries=GATEWAY_RETRIES, wrap=transport),
        cert=CLIENT_CERT,
        verify=s.http.verify,
    )'''
GW_SESSION_V2 = '''    session = netclient.Client(
        base_url=s.bank_gateway_url,
        timeout=GATEWAY_TIMEOUT_S,
        transport=netclient.RetryTransport(retries=GATEWAY_RETRIES, retry_on_status=(502, 503, 504),
                                           retry_on_methods=None, wrap=transport),
        cert=CLIENT_CERT,
        verify=s.http.verify,
    )'''
GW_HEAD = [("from legacy_http import HTTPError, Session", "import netclient\nfrom netclient import HTTPStatusError"),
           ("def _session(transport=None) -> Session:", "def _session(transport=None) -> netclient.Client:")]
GW_TAIL = [("    if not resp.ok:\n        raise GatewayError(resp.status, resp.text)",
            "    if not resp.is_success:\n        raise GatewayError(resp.status_code, resp.text)"),
           ("    except HTTPError as exc:\n        raise GatewayError(resp.status, resp.text) from exc",
            "    except HTTPStatusError as exc:\n        raise GatewayError(resp.status_code, resp.text) from exc")]
GW_AMBIGUOUS = [("session: Session | None = None", "session: netclient.Client | None = None")]
GW_SIGS = [("def submit_batch(batch: Batch, session: Session | None = None)",
            "def submit_batch(batch: Batch, session: netclient.Client | None = None)"),
           ("def batch_status(batch_id: str, session: Session | None = None)",
            "def batch_status(batch_id: str, session: netclient.Client | None = None)")]
GW_BAD = GW_HEAD + [(GW_SESSION_OLD, GW_SESSION_V1)] + GW_AMBIGUOUS + GW_TAIL
GW_V1 = GW_HEAD + [(GW_SESSION_OLD, GW_SESSION_V1)] + GW_SIGS + GW_TAIL
GW_V2 = GW_HEAD + [(GW_SESSION_OLD, GW_SESSION_V2)] + GW_SIGS + GW_TAIL

FX = [("import legacy_http as http1", "import netclient"),
      ("    resp = http1.get(url, timeout=FX_TIMEOUT_S)\n    if resp.status != 200:\n        raise http1.HTTPError(resp)\n",
       "    resp = netclient.get(url, timeout=FX_TIMEOUT_S)\n    resp.raise_for_status()\n")]
BCLIENTS = [("import legacy_http as lh", "import netclient"),
            ("def regional_clients() -> dict[str, lh.Client]:", "def regional_clients() -> dict[str, netclient.Client]:"),
            ('        region: lh.Client(\n            cfg.billing_base_url.replace("billing.internal", f"billing.{region}.internal"),\n'
             '            pool_maxsize=POOL_SIZE,',
             '        region: netclient.Client(\n            base_url=cfg.billing_base_url.replace("billing.internal", '
             'f"billing.{region}.internal"),\n            limits=netclient.Limits(max_connections=POOL_SIZE),'),
            ("def fetch_invoices(client: lh.Client,", "def fetch_invoices(client: netclient.Client,"),
            ("        if not resp.ok:\n            raise lh.HTTPError(resp)\n", "        resp.raise_for_status()\n")]
SCRIPT = [("import legacy_http\n", "import netclient\n"),
          ("resp = legacy_http.post(", "resp = netclient.post("),
          ('            if not resp.ok:\n                failed += 1\n                print(f"{row[\'payout_id\']}: {resp.status}", file=sys.stderr)',
           '            if not resp.is_success:\n                failed += 1\n                print(f"{row[\'payout_id\']}: {resp.status_code}", file=sys.stderr)')]


def deps(version, spec):
    return [("pyproject.toml", '    "legacy-http>=1.9,<2",\n', '    "netclient%s",\n' % spec),
            ("requirements.lock", "legacy-http==1.9.4\n    # via payouts-service (pyproject.toml)\nnetclient==2.4.2\n    # via ledger-sdk\n",
             "netclient==%s\n    # via\n    #   ledger-sdk\n    #   payouts-service (pyproject.toml)\n" % version),
            ("requirements.lock", "    # via\n    #   legacy-http\n    #   netclient\n", "    # via netclient\n"),
            ("requirements.lock", "urllib3==1.26.20\n    # via legacy-http\n", "")]


def as_changes(*groups):
    out = []
    for path, pairs in groups:
        out += [{"path": path, "old": o, "new": n} for o, n in pairs]
    return out


def dep_changes(version, spec):
    return [{"path": p, "old": o, "new": n} for p, o, n in deps(version, spec)]


P_HTTP, P_BILL, P_CONF = "src/payouts/http.py", "src/payouts/billing/client.py", "tests/conftest.py"
P_LEDGER, P_HOOKS, P_GW = "src/payouts/ledger/api.py", "src/payouts/notify/webhooks.py", "src/payouts/bank/gateway.py"
P_FX, P_BCL, P_SCRIPT = "src/payouts/fx/rates.py", "src/payouts/billing/clients.py", "scripts/replay_webhooks.py"

OLD_PIN, OLD_SPEC = "2.4.2", ">=2.4.2,<2.5"
NEW_PIN, NEW_SPEC = "2.4.3", ">=2.4.3,<2.5"
GHSA, CVE = "GHSA-4v7x-pq8m-2c9j", "CVE-2024-47183"
LEGACY_GHSA = "GHSA-h3c9-8x2w-q5vf"
RETRY_TEST = w.RETRY_TEST

# what the runs give back, checked here so the script stays consistent with the world
FIRST_SIX = [P_HTTP, P_BILL, P_GW, P_LEDGER, P_HOOKS, P_CONF]
first = t.grep({"pattern": "from legacy_http"})
assert sorted({h.split(":")[0] for h in first["hits"]}) == sorted(FIRST_SIX), first
allhits = t.grep({"pattern": "legacy_http"})
ALL_PY = sorted({h.split(":")[0] for h in allhits["hits"] if h.split(":")[0].endswith(".py")})
assert sorted(set(ALL_PY) - set(FIRST_SIX)) == sorted([P_BCL, P_FX, P_SCRIPT]), ALL_PY

C_BAD = as_changes((P_HTTP, HTTP_V1), (P_BILL, BILLING), (P_CONF, CONFTEST), (P_LEDGER, LEDGER),
                   (P_HOOKS, WEBHOOKS), (P_GW, GW_BAD)) + dep_changes(OLD_PIN, OLD_SPEC)
try:
    t.run_tests({"changes": C_BAD})
    raise AssertionError("ambiguous edit accepted")
except t.ToolError as e:
    AMBIG_ERR = str(e)
C1 = as_changes((P_HTTP, HTTP_V1), (P_BILL, BILLING), (P_CONF, CONFTEST), (P_LEDGER, LEDGER),
                (P_HOOKS, WEBHOOKS), (P_GW, GW_V1)) + dep_changes(OLD_PIN, OLD_SPEC)
R1 = t.run_tests({"changes": C1})
assert R1["errors"] == 3 and {f["where"] for f in R1["failures"]} == {"src/payouts/fx/rates.py:5",
                                                                      "src/payouts/billing/clients.py:2"}, R1
FX_WHERE = "src/payouts/fx/rates.py:5"
BCL_WHERE = "src/payouts/billing/clients.py:2"
C2 = as_changes((P_HTTP, HTTP_V1), (P_BILL, BILLING), (P_CONF, CONFTEST), (P_LEDGER, LEDGER), (P_HOOKS, WEBHOOKS),
                (P_GW, GW_V1), (P_FX, FX), (P_BCL, BCLIENTS), (P_SCRIPT, SCRIPT)) + dep_changes(OLD_PIN, OLD_SPEC)
R2 = t.run_tests({"changes": C2})
assert R2["failed"] == 1 and R2["failures"][0]["nodeid"] == RETRY_TEST, R2
GW_FAIL_WHERE = R2["failures"][0]["where"]
C3 = as_changes((P_HTTP, HTTP_V2), (P_BILL, BILLING), (P_CONF, CONFTEST), (P_LEDGER, LEDGER), (P_HOOKS, WEBHOOKS),
                (P_GW, GW_V2), (P_FX, FX), (P_BCL, BCLIENTS), (P_SCRIPT, SCRIPT)) + dep_changes(OLD_PIN, OLD_SPEC)
R3 = t.run_tests({"changes": C3})
assert R3["exit_code"] == 0 and R3["packages"]["netclient"] == OLD_PIN, R3
C4 = C3[:-4] + dep_changes(NEW_PIN, NEW_SPEC)
R4 = t.run_tests({"changes": C4})
assert R4["exit_code"] == 0 and R4["packages"]["netclient"] == NEW_PIN and "legacy-http" not in str(R4["output"])
N_TESTS = R4["passed"]
CHANGED = R4["changed_files"]
assert len(CHANGED) == 11, CHANGED
AUDIT = t.advisories({"package": "netclient", "version": OLD_PIN})
assert [a["id"] for a in AUDIT["advisories"] if a["affects_version"]] == [GHSA]

PR_TITLE = "PAY-2207: port payouts-service from legacy_http 1.x to netclient 2.4"
PR_BRANCH = "pay-2207-netclient"
PR = t.pr_number(PR_TITLE)
PR_URL = "%s/pull/%d" % (w.GIT_URL, PR)
REVIEWERS = []
for _f in R4["changed_files"]:
    for _h in w.owners_of(_f)[1]:
        if _h not in REVIEWERS:
            REVIEWERS.append(_h)
REVIEWERS_LIT = " ".join('"%s"' % h for h in REVIEWERS)
PR_RESULT = t.open_pr({"title": PR_TITLE, "body": "x", "branch": PR_BRANCH, "changes": C4, "reviewers": REVIEWERS})
assert all(c["status"] == "passed" for c in PR_RESULT["checks"]), PR_RESULT


def line_in(path, needle):
    text = w.apply_changes(C4)[path]
    return next(n for n, ln in enumerate(text.splitlines(), 1) if needle in ln)


GW_RETRY_LINE = line_in(P_GW, "retry_on_methods=None")
HTTP_RETRY_LINE = line_in(P_HTTP, "retry_on_methods=None")
HTTP_PROXY_LINE = line_in(P_HTTP, "proxy=s.proxy_url")
SCRIPT_LINE = line_in(P_SCRIPT, "netclient.post(")
COMMENTS = [
    (P_GW, GW_RETRY_LINE, "legacy_http's retries=GATEWAY_RETRIES retried 502/503/504 for every method; netclient's "
     "RetryTransport retries neither status codes nor POST by default. retry_on_status=(502, 503, 504) and "
     "retry_on_methods=None keep the 5 attempts of submit_batch (tests/bank/test_gateway.py::"
     "test_submit_batch_retries_on_503 failed without them). Relies on the gateway deduplicating on batch_id as "
     "today: @ahansen, please confirm."),
    (P_HTTP, HTTP_RETRY_LINE, "RetryPolicy(on_status=(502, 503, 504)) also retried POSTs; retry_on_methods=None keeps "
     "that for the ledger's POST /v1/entries, which sends an Idempotency-Key. @ahanssen: get_clients() now builds "
     "netclient clients, get_client() is the per-upstream factory."),
    (P_HTTP, HTTP_PROXY_LINE, "PAYOUTS_EGRESS_PROXY goes through proxy= now. netclient 2.4.2 (locked today via "
     "ledger-sdk) leaks Proxy-Authorization on cross-origin redirects (GHSA-4v7x-pq8m-2c9j, CVE-2024-47183): "
     "pinned >=2.4.3,<2.5, the fixed release of the 2.4 line that ledger-sdk 3.2.0 accepts."),
    (P_SCRIPT, SCRIPT_LINE, "No test covers this script (runbook RB-114); ported by hand: resp.ok -> resp.is_success, "
     "resp.status -> resp.status_code. @rkumar, worth a dry run against staging."),
]
CIDS = [t.review_comment({"pr": PR, "path": p, "line": n, "body": b}) for p, n, b in COMMENTS]

# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the task and the layout of the repository.", r'''
(println data/task)
(def py-files (tool/list-files {:glob "**/*.py"}))
(println (:count py-files) "Python files:")
(doseq [f (:files py-files)]
  (println " " f))
''')

s.turn("The dependencies: pyproject.toml and the lock file, to see how legacy-http and netclient get in.", r'''
(def pyproject (tool/read-file {:path "pyproject.toml"}))
(println (:text pyproject))
(def lock (tool/read-file {:path "requirements.lock"}))
(println "requirements.lock," (:total_lines lock) "lines:")
(doseq [part (partition-all 28 (drop 6 (str/split-lines (:text lock))))]
  (println (str/join "\n" part)))
''')

s.turn("legacy-http 1.9.4 is a direct dependency; netclient 2.4.2 is already locked, via ledger-sdk. Where the code imports legacy_http:", r'''
(def uses (tool/grep {:pattern "from legacy_http"}))
(println (:count uses) "hits")
(doseq [h (:hits uses)]
  (println h))
(def legacy-files (vec (distinct (map #(first (str/split % #":")) (:hits uses)))))
(println (count legacy-files) "files to port:" legacy-files)
''')

s.turn("Six files. The package metadata of the three libraries involved:", r'''
(def pkgs (into {} (map (fn [n] [n (tool/package-info {:name n})]) ["legacy-http" "netclient" "ledger-sdk"])))
(doseq [[n p] pkgs]
  (println n "installed" (:installed p) "latest" (:latest p) "|" (:summary p))
  (println "   requires" (:requires p) "| required by" (:required_by p)))
(println "ledger-sdk" (:latest (pkgs "ledger-sdk")) "requires" (:latest_requires (pkgs "ledger-sdk")) "-" (:latest_note (pkgs "ledger-sdk")))
(println "netclient releases:" (str/join ", " (map #(str (:version %) " (" (:date %) ")") (:releases (pkgs "netclient")))))
''')

s.turn("ledger-sdk 3.2.0 caps netclient below 2.5, and moving to ledger-sdk 3.3.0 changes the entries API: out of scope. The migration guide:", r'''
(def guide (tool/docs-page {:page "migration/legacy-http"}))
(println (:title guide) "-" (:url guide))
(doseq [section (str/split (:text guide) #"\n## ")]
  (println "##" section))
''')

s.turn("The 2.4 line it is. netclient 2.4.2 is already in the lock for ledger-sdk, so pinning it needs no new resolution:", r'''
(def pin {:package "netclient" :spec ">=2.4.2,<2.5" :lock "2.4.2"
          :why "already locked via ledger-sdk 3.2.0, which requires netclient>=2.2,<2.5"})
(println "pin:" (pr-str pin))
(println "pyproject line:" (str "\"" (:package pin) (:spec pin) "\","))
''')

s.turn("Now the code. A helper to print a file in chunks, then the shared client factory and its settings:", r'''
(defn show [path]
  (let [f (tool/read-file {:path path})]
    (println "==" path "-" (:total_lines f) "lines")
    (doseq [part (partition-all 24 (str/split-lines (:text f)))]
      (println (str/join "\n" part)))))
(show "src/payouts/http.py")
(show "src/payouts/config.py")
''')

s.turn("get_client builds one legacy_http Client per upstream (timeout, connect timeout, RetryPolicy on 502/503/504, the egress proxy, the CA bundle); get_clients caches one per upstream. The test suite before any change:", r'''
(def baseline (tool/run-tests {}))
(println (select-keys baseline [:exit_code :collected :passed :failed :errors :duration_s :packages]))
(println (:output baseline))
''')

s.turn("%d tests pass, one deprecation warning (only the first import of legacy_http warns). The billing client and the ledger API:" % w.run_suite(w.FILES)["passed"], r'''
(show "src/payouts/billing/client.py")
(show "src/payouts/ledger/api.py")
''')

s.turn("Both use resp.status and HTTPError; the ledger also catches Timeout. The bank gateway has its own Session:", r'''
(show "src/payouts/bank/gateway.py")
''')

s.turn("The gateway's Session takes retries=GATEWAY_RETRIES (4) and a client certificate. The webhooks and the test fixtures:", r'''
(show "src/payouts/notify/webhooks.py")
(show "tests/conftest.py")
''')

s.turn("Writing the edits as exact replacements (old text, new text), one file at a time, following the guide's table. The shared factory, the billing client and the fixtures first:", "\n".join([
    r'''(defn edit [path old new] {:path path :old old :new new})''',
    edits_form("http-edits", P_HTTP, HTTP_V1),
    edits_form("billing-edits", P_BILL, BILLING),
    edits_form("conftest-edits", P_CONF, CONFTEST),
    r'''(println (count http-edits) (count billing-edits) (count conftest-edits) "edits")''']))

s.turn("The ledger API, the webhooks, and the dependency files with the pin (legacy-http out of both; urllib3 was only there for it):", "\n".join([
    edits_form("ledger-edits", P_LEDGER, LEDGER),
    edits_form("webhook-edits", P_HOOKS, WEBHOOKS),
    r'''(def dep-edits
  [(edit "pyproject.toml" "    \"legacy-http>=1.9,<2\",\n" (str "    \"netclient" (:spec pin) "\",\n"))
   (edit "requirements.lock"
         "legacy-http==1.9.4\n    # via payouts-service (pyproject.toml)\nnetclient==2.4.2\n    # via ledger-sdk\n"
         (str "netclient==" (:lock pin) "\n    # via\n    #   ledger-sdk\n    #   payouts-service (pyproject.toml)\n"))
   (edit "requirements.lock" "    # via\n    #   legacy-http\n    #   netclient\n" "    # via netclient\n")
   (edit "requirements.lock" "urllib3==1.26.20\n    # via legacy-http\n" "")])
(println (map (juxt :path #(count (:old %)) #(count (:new %))) dep-edits))''']))

s.turn("The gateway: Session becomes netclient.Client, retries=N becomes a RetryTransport wrapping the test transport, and the type hints follow. Then the suite with every edit applied:", "\n".join([
    edits_form("gateway-edits", P_GW, GW_BAD),
    r'''(def changes (vec (concat http-edits billing-edits conftest-edits ledger-edits webhook-edits gateway-edits dep-edits)))
(def run-1 (tool/run-tests {:changes changes}))
(println (select-keys run-1 [:exit_code :passed :failed :errors :packages]))''']), "tool")

s.turn("The type hint `session: Session | None = None` is in two signatures. Making each old text unique with its function name:", "\n".join([
    edits_form("gateway-edits", P_GW, GW_V1),
    r'''(def changes (vec (concat http-edits billing-edits conftest-edits ledger-edits webhook-edits gateway-edits dep-edits)))
(def run-1 (tool/run-tests {:changes changes}))
(println (select-keys run-1 [:exit_code :collected :passed :failed :errors :packages]))
(println "changed:" (:changed_files run-1))
(doseq [f (:failures run-1)]
  (println (:kind f) (:nodeid f) "at" (:where f) "-" (:message f)))''']))

s.turn("Two modules I did not touch still import legacy_http, now that it is gone from the lock. The tracebacks:", r'''
(println (:output run-1))
''')

s.turn(fill("<<FX>> and <<BCL>> import it as `import legacy_http as http1` and `as lh`: a grep for \"from legacy_http\" cannot see those. Searching for the module name alone:", FX=FX_WHERE, BCL=BCL_WHERE), r'''
(def all-uses (tool/grep {:pattern "legacy_http"}))
(println (:count all-uses) "hits")
(doseq [h (:hits all-uses)]
  (println h))
(def legacy-files (vec (filter #(str/ends-with? % ".py") (distinct (map #(first (str/split % #":")) (:hits all-uses))))))
(println (count legacy-files) "Python files use legacy_http; missed before:"
         (remove (set (map :path changes)) legacy-files))
''')

s.turn("Nine files, not six: billing/clients.py and fx/rates.py (aliased) and scripts/replay_webhooks.py (a bare `import legacy_http`, not imported by any test). The lines around each import:", r'''
(def missed (remove (set (map :path changes)) legacy-files))
(def missed-hits (filter #(some (fn [f] (str/starts-with? % (str f ":"))) missed) (:hits all-uses)))
(doseq [h missed-hits]
  (let [ctx (tool/read-file {:path (:path h) :start (dec (:line h)) :end (+ (:line h) 3)})]
    (println (:text ctx))))
''', "type")

s.turn("The hits are \"path:line:text\" strings, not maps (and the failed turn defined nothing). Reading the three missed files whole instead:", r'''
(def missed (remove (set (map :path changes)) legacy-files))
(def missed-hits (filter #(some (fn [f] (str/starts-with? % (str f ":"))) missed) (:hits all-uses)))
(doseq [[path line text] (map #(str/split % #":" 3) missed-hits)]
  (println (format "%-34s %4s  %s" path line (str/trim text))))
(doseq [f missed]
  (show f))
''')

s.turn("Same renames as elsewhere, plus pool_maxsize -> limits=netclient.Limits(max_connections=...) in the regional clients. Their edits, then the suite again:", "\n".join([
    edits_form("fx-edits", P_FX, FX),
    edits_form("billing-clients-edits", P_BCL, BCLIENTS),
    edits_form("script-edits", P_SCRIPT, SCRIPT),
    r'''(def changes (vec (concat http-edits billing-edits billing-clients-edits conftest-edits ledger-edits webhook-edits
                          gateway-edits fx-edits script-edits dep-edits)))
(def run-2 (tool/run-tests {:changes changes}))
(println (select-keys run-2 [:exit_code :collected :passed :failed :errors :packages]))
(println (count (:changed_files run-2)) "files changed:" (:changed_files run-2))
(doseq [f (:failures run-2)]
  (println (:kind f) (:nodeid f) "at" (:where f) "-" (:message f)))
(println (str/join "\n" (take-last 28 (str/split-lines (:output run-2)))))''']))

s.turn(fill("One failure left: <<T>>, a GatewayError on the first 503. The test:", T=RETRY_TEST), r'''
(println (:text (tool/read-file {:path "tests/test_gateway.py" :start 35})))
''', "tool")

s.turn("Not at the top of tests/. The test files:", r'''
(def test-files (tool/list-files {:glob "tests/**"}))
(println (:files test-files))
(def gw-test (tool/read-file {:path "tests/bank/test_gateway.py" :start 38}))
(println (:text gw-test))
''')

s.turn("The test expects GATEWAY_RETRIES + 1 calls, five; the port made one. The guide's page on retries:", r'''
(def retries-page (tool/docs-page {:page "retries"}))
(println (:title retries-page) "-" (:url retries-page))
(println (:text retries-page))
''')

s.turn("RetryTransport retries neither 503s nor POSTs unless told. The gateway needs both retry_on_status and retry_on_methods=None; so does the shared factory, whose RetryPolicy retried the ledger's POST /v1/entries (safe: it sends an Idempotency-Key). Both redefined, then the suite:", "\n".join([
    edits_form("http-edits", P_HTTP, HTTP_V2),
    edits_form("gateway-edits", P_GW, GW_V2),
    r'''(def changes (vec (concat http-edits billing-edits billing-clients-edits conftest-edits ledger-edits webhook-edits
                          gateway-edits fx-edits script-edits dep-edits)))
(def run-3 (tool/run-tests {:changes changes}))
(println (select-keys run-3 [:exit_code :collected :passed :failed :errors :duration_s :packages]))
(println (last (str/split-lines (:output run-3))))''']))

s.turn("Green, and no deprecation warning. Who owns the changed files, for the reviewers:", r'''
(def owners (into {} (map (fn [f] [f (tool/codeowners {:path f})]) (:changed_files run-3))))
(doseq [[f o] owners]
  (println (format "%-34s %-24s" f (:rule o)) (str/join ", " (map #(str (:name %) " " (:handle %) " (" (:team %) ")") (:owners o)))))
''')

s.turn("Before the pull request, the task wants a netclient version no advisory covers. The advisories of netclient at the pinned version, and of legacy-http:", fill(r'''
(def nc-adv (tool/advisories {:package "netclient" :version "<<V>>"}))
(def lh-adv (tool/advisories {:package "legacy-http" :version "1.9.4"}))
(doseq [a (concat (:advisories nc-adv) (:advisories lh-adv))]
  (println (:id a) (:aliases a) (:severity a) (:cvss a) "| affected" (:affected a) "patched" (:patched a)
           "| affects us:" (:affects_version a))
  (println "   " (:summary a) (if (:note a) (str "(" (:note a) ")") "")))
''', V=OLD_PIN))

s.turn(fill("<<G>> covers <<V>>: the proxy credentials leak on cross-origin redirects, and the service sets PAYOUTS_EGRESS_PROXY. The 2.4 line has the fix in <<N>>; checking that release and its changelog:", G=GHSA, V=OLD_PIN, N=NEW_PIN), fill(r'''
(def changelog (tool/docs-page {:page "changelog"}))
(println (:text changelog))
(def check-243 (tool/advisories {:package "netclient" :version "<<N>>"}))
(println "<<N>> affected by:" (map :id (filter :affects_version (:advisories check-243))))
''', N=NEW_PIN))

s.turn(fill("<<N>> is clean and still below 2.5 for ledger-sdk. Correcting the pin (<<OS>> let <<O>> in) and the dependency edits that carry it:", N=NEW_PIN, OS=OLD_SPEC, O=OLD_PIN), fill(r'''
(def pin {:package "netclient" :spec "<<NS>>" :lock "<<N>>"
          :why "2.4.2 is covered by <<G>> (<<CVE>>); <<N>> is the fixed 2.4 release, and ledger-sdk 3.2.0 needs <2.5"})
(println "pin:" (pr-str pin))
(def dep-edits
  [(edit "pyproject.toml" "    \"legacy-http>=1.9,<2\",\n" "    \"netclient<<NS>>\",\n")
   (edit "requirements.lock"
         "legacy-http==1.9.4\n    # via payouts-service (pyproject.toml)\nnetclient==2.4.2\n    # via ledger-sdk\n"
         "netclient==<<N>>\n    # via\n    #   ledger-sdk\n    #   payouts-service (pyproject.toml)\n")
   (edit "requirements.lock" "    # via\n    #   legacy-http\n    #   netclient\n" "    # via netclient\n")
   (edit "requirements.lock" "urllib3==1.26.20\n    # via legacy-http\n" "")])
(println (map :new dep-edits))
''', NS=NEW_SPEC, N=NEW_PIN, G=GHSA, CVE=CVE))

s.turn("Before running again: are there uses of resp.ok or resp.status left outside the files I edited? Building the pattern from the names:", r'''
(def attr-pattern (str "\\b" (str/escape "resp.ok" {\. "\\."}) "\\b|\\b" (str/escape "resp.status" {\. "\\."}) "\\b"))
(def attr-hits (tool/grep {:pattern attr-pattern :path "src/"}))
(println (:count attr-hits) attr-pattern)
''', "unbound_symbol")

s.turn("No str/escape here; writing the regex by hand.", r'''
(def attr-hits (tool/grep {:pattern "\\bresp\\.(ok|status)\\b"}))
(def edited (set (map :path changes)))
(doseq [h (:hits attr-hits)]
  (let [path (first (str/split h #":"))]
    (println (if (edited path) "edited " "MISSING") h)))
''')

s.turn("Every one is in a file with edits. The full suite with the corrected pin:", r'''
(def changes (vec (concat http-edits billing-edits billing-clients-edits conftest-edits ledger-edits webhook-edits
                          gateway-edits fx-edits script-edits dep-edits)))
(def final-run (tool/run-tests {:changes changes}))
(println (select-keys final-run [:exit_code :collected :passed :failed :errors :duration_s :packages]))
(println (count (:changed_files final-run)) "files:" (:changed_files final-run))
(println (str/join "\n" (take-last 5 (str/split-lines (:output final-run)))))
''')

s.turn("And the retry test on its own, to see it pass by name:", fill(r'''
(def retry-run (tool/run-tests {:target "<<T>>" :changes changes}))
(println (:command retry-run) "->" (:passed retry-run) "passed," (:failed retry-run) "failed," (:duration_s retry-run) "s")
''', T=RETRY_TEST))

s.prose(fill("""Where the migration stands:

- 9 Python files ported from legacy_http to netclient: the six a grep for "from legacy_http" found (http.py, billing/client.py, ledger/api.py, bank/gateway.py, notify/webhooks.py, tests/conftest.py) and three it missed (billing/clients.py and fx/rates.py import it aliased, scripts/replay_webhooks.py imports it bare); pyproject.toml and requirements.lock drop legacy-http and urllib3.
- netclient pinned <<NS>> (lock <<N>>): 2.4.2 is covered by <<G>> (<<CVE>>), and ledger-sdk 3.2.0 needs <2.5.
- Retries: the gateway and the shared factory pass retry_on_status=(502, 503, 504) and retry_on_methods=None, so submit_batch makes 5 attempts as before.
- <<NT>> tests pass, no deprecation warning.

Next: the pull request body, the PR with the code owners as reviewers, and review comments where behaviour may change.""",
                NS=NEW_SPEC, N=NEW_PIN, G=GHSA, CVE=CVE, NT=N_TESTS))

s.turn("Building the PR body: one line per changed file with what changed.", fill(r'''
(defn bullet [path what where]
  (str "- `" path "`: " what (when where (str " (" where ")"))))
(def pr-body
  (str/join "\n"
    ["Ports payouts-service from legacy_http 1.9.4 (end of life 2024-12-31, <<LG>>) to netclient <<N>> (PAY-2207)."
     ""
     (bullet "src/payouts/http.py" "get_client/get_clients build netclient clients; RetryPolicy -> RetryTransport")
     (bullet "src/payouts/bank/gateway.py" "Session -> netclient.Client; retries keep 503s and POSTs")
     (bullet "src/payouts/fx/rates.py" "aliased import `legacy_http as http1`" "<<FX>>")]))
(println pr-body)
''', LG=LEGACY_GHSA, N=NEW_PIN, FX=FX_WHERE), "arity")

s.turn("bullet takes three arguments; the optional one becomes a separate arity. The whole body:", fill(r'''
(defn bullet
  ([path what] (bullet path what nil))
  ([path what where] (str "- `" path "`: " what (when where (str " (" where ")")))))
(def pr-body
  (str/join "\n"
    ["Ports payouts-service from legacy_http 1.9.4 (end of life 2024-12-31, <<LG>>) to netclient <<N>> (PAY-2207)."
     ""
     "## Changes"
     (bullet "src/payouts/http.py" "get_client/get_clients build netclient clients; RetryPolicy -> RetryTransport(retry_on_status=(502, 503, 504), retry_on_methods=None); proxies= -> proxy=; connect_timeout -> netclient.Timeout(connect=)")
     (bullet "src/payouts/bank/gateway.py" "Session -> netclient.Client; retries=GATEWAY_RETRIES -> RetryTransport with 503s and POSTs retried as before")
     (bullet "src/payouts/billing/client.py" "status -> status_code; resp.ok + HTTPError(resp) -> raise_for_status()")
     (bullet "src/payouts/billing/clients.py" "aliased import `legacy_http as lh`; pool_maxsize -> limits=netclient.Limits(max_connections=POOL_SIZE)" "<<BCL>>")
     (bullet "src/payouts/fx/rates.py" "aliased import `legacy_http as http1`" "<<FX>>")
     (bullet "src/payouts/ledger/api.py" "HTTPError -> HTTPStatusError, Timeout -> TimeoutException")
     (bullet "src/payouts/notify/webhooks.py" "Timeout -> TimeoutException, resp.ok -> resp.is_success")
     (bullet "scripts/replay_webhooks.py" "bare `import legacy_http`; not covered by tests")
     (bullet "tests/conftest.py" "MockTransport and Response from netclient")
     (bullet "pyproject.toml, requirements.lock" "legacy-http and urllib3 out; netclient<<NS>>, locked at <<N>>")
     ""
     "## Notes for reviewers"
     "- netclient 2.4.2, locked today via ledger-sdk 3.2.0, is covered by <<G>> (<<CVE>>): Proxy-Authorization forwarded on cross-origin redirects; we set PAYOUTS_EGRESS_PROXY."
     "- A grep for `from legacy_http` finds 6 of the 9 files; the 3 others import it aliased or bare."
     "- <<T>> failed until the RetryTransport got retry_on_status and retry_on_methods=None (netclient retries neither by default)."
     ""
     "## Tests"
     "<<NT>> passed, 0 failed, no DeprecationWarning."]))
(println pr-body)
''', LG=LEGACY_GHSA, N=NEW_PIN, NS=NEW_SPEC, BCL=BCL_WHERE, FX=FX_WHERE, G=GHSA, CVE=CVE, T=RETRY_TEST, NT=N_TESTS))

s.turn("Opening the pull request with the code owners of the changed files as reviewers (both Hansens: Anders owns the gateway, Annika the ledger and shares http.py):", fill(r'''
(def reviewers (vec (distinct (mapcat #(map :handle (:owners %)) (vals owners)))))
(println "reviewers:" reviewers)
(def pr (tool/open-pr {:title "<<TITLE>>" :branch "<<B>>" :body pr-body :changes changes :reviewers reviewers}))
(println "PR" (:number pr) (:url pr) "-" (:head_sha pr) "+" (:additions pr) "-" (:deletions pr))
(doseq [c (:checks pr)]
  (println " " (:name c) (:status c) "-" (:detail c)))
(doseq [f (:files pr)]
  (println (format "  %-34s +%-3d -%d" (:path f) (:additions f) (:deletions f))))
''', TITLE=PR_TITLE, B=PR_BRANCH))

s.turn(fill("PR #<<PR>> is open, all three checks green (pip-audit clean with <<N>>). For the review comments I need the line numbers in the new files: applying my edits to the originals.", PR=PR, N=NEW_PIN), r'''
(defn patched [path]
  (reduce (fn [text e] (if (= path (:path e)) (str/replace-first text (:old e) (:new e)) text))
          (:text (tool/read-file {:path path :numbered false}))
          changes))
(defn line-of [path needle]
  (inc (first (keep-indexed (fn [i l] (when (str/includes? l needle) i)) (str/split-lines (patched path))))))
(def comment-lines
  {:gateway-retry (line-of "src/payouts/bank/gateway.py" "retry_on_methods=None")
   :http-retry (line-of "src/payouts/http.py" "retry_on_methods=None")
   :http-proxy (line-of "src/payouts/http.py" "proxy=s.proxy_url")
   :script-post (line-of "scripts/replay_webhooks.py" "netclient.post(")})
(println comment-lines)
''')

s.turn("Four review comments where behaviour may change, each for its owner:", fill(r'''
(def comments
  (mapv (fn [[path line body]] (tool/review-comment {:pr <<PR>> :path path :line line :body body}))
        [["src/payouts/bank/gateway.py" <<L1>> <<B1>>]
         ["src/payouts/http.py" <<L2>> <<B2>>]
         ["src/payouts/http.py" <<L3>> <<B3>>]
         ["scripts/replay_webhooks.py" <<L4>> <<B4>>]]))
(doseq [c comments]
  (println (:id c) (str (:path c) ":" (:line c)) (:url c)))
''', PR=PR, L1=GW_RETRY_LINE, B1=clj(COMMENTS[0][2]), L2=HTTP_RETRY_LINE, B2=clj(COMMENTS[1][2]),
    L3=HTTP_PROXY_LINE, B3=clj(COMMENTS[2][2]), L4=SCRIPT_LINE, B4=clj(COMMENTS[3][2])))

s.cut("Everything is in the PR. The summary:", fill(r'''
(def summary
  {:pr {:number <<PR>> :url "<<URL>>" :branch "<<B>>"
        :reviewers [<<REV>>]}
   :pinned {:package "netclient" :spec "<<NS>>" :lock "<<N>>" :not "2.4.2, covered by <<G>>"
            :bound-by "netclient>=2.2,<2.5"}
   :removed ["legacy-http==1.9.4" "urllib3==1.26.20"]
   :files-changed ["src/payouts/http.py" "src/payouts/bank/gateway.py" "src/payouts/billing/client.py"
''', PR=PR, URL=PR_URL, B=PR_BRANCH, NS=NEW_SPEC, N=NEW_PIN, G=GHSA, REV=REVIEWERS_LIT))

FILES_LIT = "\n                   ".join(" ".join('"%s"' % f for f in CHANGED[k:k + 3]) for k in range(0, len(CHANGED), 3))
s.turn("The answer was cut off. The summary again, complete:", fill(r'''
(def summary
  {:pr {:number <<PR>> :url "<<URL>>" :branch "<<B>>"
        :reviewers [<<REV>>]
        :checks {:lint "passed" :tests "passed" :pip-audit "passed"}}
   :pinned {:package "netclient" :spec "<<NS>>" :lock "<<N>>"
            :instead-of "2.4.2" :because "<<G>> (<<CVE>>)"
            :bound-by "netclient>=2.2,<2.5"
            :not-upgraded {"ledger-sdk" "3.3.0 changes the entries API (LedgerEntry.amount is Money)"}}
   :removed ["legacy-http==1.9.4" "urllib3==1.26.20"]
   :files-changed [<<FILES>>]
   :missed-by-first-grep {"src/payouts/billing/clients.py" "import legacy_http as lh"
                          "src/payouts/fx/rates.py" "import legacy_http as http1"
                          "scripts/replay_webhooks.py" "import legacy_http"}
   :tests {:passed <<NT>> :failed 0
           :first-run {:errors 3 :error "ModuleNotFoundError: No module named 'legacy_http'"
                       :at ["<<BCL>>" "<<FX>>"]}
           :fixed-on-the-way {:test "<<T>>" :raised-at "<<GWW>>"
                              :error "payouts.bank.gateway.GatewayError: bank gateway answered 503: {}"}}
   :behaviour {:retries "retry_on_status=(502, 503, 504), retry_on_methods=None in src/payouts/http.py and src/payouts/bank/gateway.py"
               :attempts {:gateway 5 :shared-clients 4}
               :timeouts {:default-s 30.0 :connect-s 3.05 :gateway-s 60.0 :fx-s 5.0 :webhook-s 10}
               :settings-unchanged ["PAYOUTS_HTTP_TIMEOUT" "PAYOUTS_HTTP_CONNECT_TIMEOUT" "PAYOUTS_HTTP_RETRIES"
                                    "PAYOUTS_EGRESS_PROXY" "PAYOUTS_CA_BUNDLE"]}
   :untested ["scripts/replay_webhooks.py" "RB-114"]
   :review-comments [<<C1>> <<C2>> <<C3>> <<C4>>]
   :legacy-advisory ["<<LG>>" "CVE-2024-35861"]
   :guide "https://docs.netclient.dev/2.x/migration/legacy-http/"})
(println (:pr summary))
(println (:pinned summary) (count (:files-changed summary)) "files")
''', PR=PR, URL=PR_URL, B=PR_BRANCH, NS=NEW_SPEC, N=NEW_PIN, G=GHSA, CVE=CVE, FILES=FILES_LIT, REV=REVIEWERS_LIT, NT=N_TESTS,
    T=RETRY_TEST, BCL=BCL_WHERE, FX=FX_WHERE, GWW=GW_FAIL_WHERE, C1=CIDS[0]["id"], C2=CIDS[1]["id"], C3=CIDS[2]["id"], C4=CIDS[3]["id"], LG=LEGACY_GHSA))

s.turn("A last check of the summary against what the tools returned:", r'''
(println "PR:" (= (:number pr) (get-in summary [:pr :number])) (= (:url pr) (get-in summary [:pr :url])))
(println "files:" (= (set (:changed_files final-run)) (set (:files-changed summary)) (set (map :path (:files pr)))))
(println "tests:" (= (:passed final-run) (get-in summary [:tests :passed])) "| netclient" (get-in final-run [:packages :netclient]))
(println "comments:" (= (map :id comments) (:review-comments summary)))
''')

s.turn("The summary matches the PR, the final test run and the comments.", r'''
(return summary)
''', "return")

if __name__ == "__main__":
    s.write(__file__)
