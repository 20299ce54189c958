import random

rnd = random.Random(3)
EMP = [(1, "Ana Ruiz", "ENG"), (2, "Bo Chen", "ENG"), (3, "Carla Diaz", "OPS"), (4, "Dev Patel", "SALES"),
       (5, "Eli Novak", "OPS"), (6, "Fay Okafor", "ENG"), (7, "Gus Lind", "SALES"), (8, "Hana Sato", "OPS")]
CATS = ["travel", "meals", "software", "hardware", "training"]
exp_edn = []
for eid, _, _ in EMP:
    items = []
    for k in range(rnd.randint(3, 6)):
        status = rnd.choice(["approved", "approved", "approved", "pending", "rejected"])
        amount = "%.2f" % (rnd.randint(1500, 60000) / 100)
        amt = "nil" if (status == "pending" and k % 2 == 0) else '"%s"' % amount
        items.append('{:date "2024-%02d-%02d" :amount %s :status "%s" :category "%s"}' % (
            rnd.randint(1, 3), rnd.randint(1, 28), amt, status, rnd.choice(CATS)))
    exp_edn.append('%d [%s]' % (eid, " ".join(items)))

TOOL_IMPL = '''
(def expenses-db {%s})
(def limits-db {"ENG" 1000.0 "OPS" 1000.0 "SALES" 1500.0})
{"get-expenses" (fn [{:keys [employee-id]}]
                  (or (get expenses-db employee-id) (terr (str "unknown employee " employee-id))))
 "get-limits" (fn [args]
                (let [d (:dept args)]
                  (cond (nil? d) (terr "missing required argument: dept")
                        (contains? limits-db d) {:dept d :limit (get limits-db d) :currency "EUR"}
                        :else (terr (str "unknown department " d)))))}
''' % " ".join(exp_edn)

SESSION = {
    "agent": "expense-auditor",
    "mission": "Using the employees in data/employees, compute each employee's total approved Q1 expenses and "
               "return the names of those whose total exceeds their department's limit.",
    "max_turns": 14,
    "tools": [
        {"name": "get-expenses",
         "signature": "(employee-id :int) -> [{date :string, amount :string?, status :string, category :string}]",
         "description": "Expense claims of one employee for Q1 2024; amounts are decimal strings"},
        {"name": "get-limits", "signature": "dept code -> limit info",
         "description": "Quarterly expense limit for a department"},
    ],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"get-expenses": [20, 90], "get-limits": [10, 30]},
    "seed": 5,
    "data": {"employees": "[" + " ".join('{:id %d :name "%s" :dept "%s"}' % e for e in EMP) + "]"},
    "turns": [
        T("I'll collect the employee ids and departments first.",
          "(def emp-ids (mapv :id data/employees))\n(def depts (distinct (map :dept data/employees)))"),
        T("Now fetch the expenses of every employee.",
          "(def expenses\n  (into {} (map (fn [id] [id (tool/get-expense {:employee-id id})]) emp-ids)))",
          error=("unbound_symbol", "Undefined symbol: tool/get-expense (did you mean tool/get-expenses?)")),
        T("The tool is called get-expenses.",
          "(def expenses\n  (into {} (map (fn [id] [id (tool/get-expenses {:employee-id id})]) emp-ids)))"),
        T("Sum the amounts per employee.",
          "(def totals (update-vals expenses #(reduce + (map :amount %))))",
          error=("type", "+: expected number, got string \"371.66\"")),
        T("Amounts are strings, I need to parse them.",
          "(println \"sample amounts:\" (take 3 (map :amount (get expenses 1))))\n(def totals (update-vals expenses #(reduce + (map (comp parse-double :amount) %))))",
          error=("type", "parse-double: expected string, got nil")),
        T("Some amounts are nil: those are pending claims without a final amount.\n\nOnly approved claims count toward the limit anyway, so I'll filter on status first and parse the amounts afterwards. I'll start the sum at 0.0 so employees without approved claims get 0.0 instead of failing.",
          "(def totals\n  (update-vals expenses\n               (fn [xs] (->> xs\n                             (filter #(= \"approved\" (:status %)))\n                             (map #(parse-double (:amount %)))\n                             (reduce + 0.0)))))"),
        T("Now the department limits.",
          "(tool/get-limits {:department \"ENG\"})",
          error=("tool", "tool/get-limits failed: missing required argument: dept")),
        T("The argument is named dept.",
          "(def limits (into {} (map (fn [d] [d (:limit (tool/get-limits {:dept d}))]) depts)))"),
        T("I'll write a predicate that checks an employee against the limit of their department.",
          "(defn over-limit? [id dept]\n  (> (get totals id) (get limits dept)))\n(def flagged (filterv over-limit? data/employees))",
          error=("arity", "over-limit? expects 2 arguments, got 1")),
        T("filter passes the whole employee map, so the predicate should take one argument.",
          "(defn over-limit? [emp]\n  (> (get totals (:id emp)) (get limits (:dept emp))))\n(def flagged (filterv over-limit? data/employees))\n(mapv (juxt :name :dept #(get totals (:id %))) flagged)"),
        T(None, raw="Three employees are over their department limit: Bo Chen (ENG, 1066.64), Fay Okafor (ENG, 1086.26) "
                    "and Hana Sato (OPS, 1069.93). Everyone else stays within budget, so these are the names to report.",
          error=("parse", "No code found in your response. Answer with one ```clojure block containing the program.")),
        T("Returning the names of the flagged employees.",
          "(return (mapv :name flagged))"),
    ],
}
