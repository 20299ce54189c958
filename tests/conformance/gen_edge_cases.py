"""Writes edge-cases.v1.json: small hand-made sessions for the conformance suite.

Edit this script, not the JSON, then run `python3 gen_edge_cases.py`.
Every fixture has a distinct mission (a strategy may key on it) and every
non-null `program` appears verbatim in its `raw_response`.
"""
import json

SYSTEM = "You are a PTC-Lisp agent. Answer with one ```clojure block per turn."

TOOLS = [
    {"name": "search", "signature": "(query :string, limit :int) -> [{title :string, score :float}]",
     "description": "Full-text search over the catalogue"},
    {"name": "get-stock", "signature": "(sku :string) -> :int?", "description": "Units in stock"},
]

def session(mission, turns, max_turns=5, tools=TOOLS, data=None, system=SYSTEM):
    return {"format": "ptc-session/1", "mission": mission, "system_prompt": system, "max_turns": max_turns,
            "tools": tools, "data": data if data is not None else {"skus": "[\"A-1\" \"B-2\" \"C-3\"]"},
            "turns": turns}

def ok(n, program, result="nil", prints=(), calls=(), defs=(), prose="Next step."):
    return {"number": n, "raw_response": f"{prose}\n```clojure\n{program}\n```", "program": program,
            "success": True, "result": result, "error": None, "prints": list(prints),
            "tool_calls": list(calls), "definitions": list(defs)}

def fail(n, program, message, kind="eval", prose="Trying this."):
    raw = f"{prose}\n```clojure\n{program}\n```" if program is not None else prose
    return {"number": n, "raw_response": raw, "program": program, "success": False, "result": None,
            "error": {"kind": kind, "message": message}, "prints": [], "tool_calls": [], "definitions": []}

def val(name, edn, doc=None):
    return {"name": name, "kind": "value", "value": edn, "docstring": doc}

def fn(name, params, doc=None, ret=None):
    return {"name": name, "kind": "function", "params": params, "docstring": doc, "return_type": ret}

def call(name, args, result):
    return {"name": name, "args": args, "result": result, "error": None, "duration_ms": 4}

FIXTURES = []
def fixture(name, about, s):
    FIXTURES.append({"name": name, "about": about, "session": s})

fixture("no-turns", "turn 1 of 5: nothing has happened yet",
        session("Find the cheapest in-stock item among data/skus.", []))

fixture("single-shot", "max_turns 1: the first turn is also the final turn",
        session("Return the number of SKUs in data/skus.", [], max_turns=1))

fixture("last-turn-failed", "turn 3 of 5 after a success and a failure",
        session("Total the stock of every SKU.", [
            ok(1, "(def stock (map #(tool/get-stock {:sku %}) data/skus))", "#'stock",
               calls=[call("get-stock", "{:sku \"A-1\"}", "4"), call("get-stock", "{:sku \"B-2\"}", "0"),
                      call("get-stock", "{:sku \"C-3\"}", "nil")],
               defs=[val("stock", "(4 0 nil)")]),
            fail(2, "(def total (reduce + stock))",
                 "Error: + expects numbers, got nil (in reduce over stock)"),
        ]))

fixture("failed-without-program", "the latest turn failed and no code could be extracted",
        session("List the SKUs that are out of stock.", [
            ok(1, "(def skus data/skus)", "#'skus", defs=[val("skus", "[\"A-1\" \"B-2\" \"C-3\"]")]),
            fail(2, None, "No ```clojure block found in the response", kind="parse",
                 prose="I think the answer is B-2, but let me explain my reasoning first..."),
        ]))

fixture("failures-then-recovery", "three failures, then successes: earlier errors collapse, names stay",
        session("Rank the search results for 'kettle' by score.", [
            fail(1, "(tool/search \"kettle\")", "tool/search expects a map of named args, got a string"),
            fail(2, "(tool/search {:query \"kettle\"})", "tool/search: missing required arg :limit"),
            fail(3, "(def hits (tool/search {:query \"kettle\" :limit 5})) (sort-by :scor hits)",
                 "Undefined keyword usage: :scor is not a key of any hit (did you mean :score?)"),
            ok(4, "(def hits (tool/search {:query \"kettle\" :limit 5}))", "#'hits",
               calls=[call("search", "{:query \"kettle\" :limit 5}",
                           "[{:title \"Steel kettle\" :score 4.5} {:title \"Glass kettle\" :score 3.9}]")],
               defs=[val("hits", "[{:title \"Steel kettle\" :score 4.5} {:title \"Glass kettle\" :score 3.9}]",
                         "Search hits; raw")]),
            ok(5, "(defn by-score [xs] (sort-by :score > xs))\n(def ranked (by-score hits))\n(println (map :title ranked))",
               "#'ranked", prints=["(Steel kettle Glass kettle)"],
               defs=[fn("by-score", ["xs"], "Sorts; best first", "list[2]"),
                     val("ranked", "[{:title \"Steel kettle\" :score 4.5} {:title \"Glass kettle\" :score 3.9}]")]),
        ], max_turns=6))

fixture("unicode-everywhere", "non-ASCII in every text field, final turn",
        session("Résumé des avis 🫖 — 日本語のレビューを要約し、العربية أيضاً, e\u0301 ñ 👩‍👩‍👧 test",
                [
                    ok(1, "(def 評価 (tool/検索 {:クエリ \"ケトル\"}))\n(println \"見つかった: 3件 ✓\")", "#'評価",
                       prints=["見つかった: 3件 ✓", "Ünïcödé → ok 🎉"],
                       calls=[call("検索", "{:クエリ \"ケトル\"}",
                                   "[\"とても良い☕\" \"Très bien 👍\" \"ممتاز\"]")],
                       defs=[val("評価", "[\"とても良い☕\" \"Très bien 👍\" \"ممتاز\"]", "レビュー; 全部"),
                             fn("résumé", ["texte", "longueur"], "Coupe le texte… proprement", "string")],
                       prose="検索します 🔍"),
                    fail(2, "(résumé 評価 \"長さ\")", "résumé: longueur doit être un entier, reçu «長さ» 🚫",
                         prose="要約します"),
                ],
                max_turns=3,
                tools=[{"name": "検索", "signature": "(クエリ :string) -> [:string]",
                        "description": "レビュー検索 — Suche nach Bewertungen 🔎"}],
                data={"produits": "[\"Bouilloire Sakura 桜\" \"Théière ☕\" \"" + "長い説明" * 40 + "\"]",
                      "note": "\"e\u0301te\u0301 — été 👩‍👩‍👧‍👦\""},
                system="Tu es un agent PTC-Lisp. 日本語も可。 Réponds avec un bloc ```clojure. 🤖"))

fixture("empty-mission", "the mission is the empty string",
        session("", [ok(1, "(def n (count data/skus))", "#'n", defs=[val("n", "3")])], max_turns=4))

fixture("tools-without-signatures", "tools with no, empty or unparsable signatures and no descriptions",
        session("Call each tool once and report what came back.", [
            ok(1, "(def a (tool/ping {}))\n(def b (tool/echo {:text \"hi\"}))", "#'b",
               calls=[call("ping", "{}", ":pong"), call("echo", "{:text \"hi\"}", "\"hi\"")],
               defs=[val("a", ":pong"), val("b", "\"hi\"")]),
        ], tools=[{"name": "ping"}, {"name": "echo", "signature": "", "description": None},
                  {"name": "weird", "signature": "takes (a thing) and => returns ??", "description": ""}],
           data={}))

fixture("no-tools-no-data", "no tools, no data; the latest turn printed nothing and returned a map",
        session("Compute 6 times 7 and keep it.", [
            ok(1, "(def answer (* 6 7))\n{:answer answer}", "{:answer 42}", defs=[val("answer", "42")]),
        ], tools=[], data={}))

fixture("final-turn-after-failure", "the final turn, right after a failed one",
        session("Find the SKU with the most stock.", [
            ok(1, "(def stock {\"A-1\" 4 \"B-2\" 0})", "#'stock", defs=[val("stock", "{\"A-1\" 4 \"B-2\" 0}")]),
            fail(2, "(apply max-key val stock))", "Unmatched delimiter: ) at line 1, column 28", kind="parse"),
        ], max_turns=3))

LONG_PROGRAM = "\n".join(f"(def step-{i} (+ {i} (count data/skus)))" for i in range(1, 40)) + "\n(def total (reduce + steps))"
fixture("long-failed-program", "the latest turn failed with a 40-line program (a strategy may cut it with a notice)",
        session("Sum forty derived steps over data/skus.", [
            fail(1, LONG_PROGRAM, "Undefined symbol: steps (line 40)", kind="unbound_symbol"),
        ], max_turns=5))

doc = {"format": "ptc-conformance-edge-cases/1",
       "about": "Small sessions the conformance suite renders at their next turn. Generated by gen_edge_cases.py.",
       "fixtures": FIXTURES}
with open("edge-cases.v1.json", "w", encoding="utf-8") as f:
    json.dump(doc, f, ensure_ascii=False, indent=1)
    f.write("\n")
