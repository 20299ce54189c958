INVOICES = [
    '{:id "INV-001" :customer "Brandt GmbH" :country "DE" :due "2024-03-15" :lines [{:sku "A-100" :qty 3 :unit 120.0} {:sku "B-220" :qty 1 :unit 89.9}]}',
    '{:id "INV-002" :customer "Lefebvre SARL" :country "FR" :due "2024-04-10" :discount 0.1 :lines [{:sku "A-100" :qty 10 :unit 120.0}]}',
    '{:id "INV-003" :customer "Van Dijk BV" :country "NL" :due "2024-03-28" :lines [{:sku "C-310" :qty 2 :unit 45.25} {:sku "B-220" :qty 2 :unit 89.9} {:sku "D-400" :qty 1 :unit 15.0}]}',
    '{:id "INV-004" :customer "Brandt GmbH" :country "DE" :due "2024-04-30" :lines [{:sku "D-400" :qty 20 :unit 15.0}]}',
    '{:id "INV-005" :customer "Moreau SA" :country "FR" :due "2024-02-29" :discount 0.05 :lines [{:sku "A-100" :qty 1 :unit 120.0} {:sku "C-310" :qty 4 :unit 45.25}]}',
    '{:id "INV-006" :customer "Jansen NV" :country "NL" :due "2024-05-05" :lines [{:sku "B-220" :qty 5 :unit 89.9}]}',
    '{:id "INV-007" :customer "Keller AG" :country "DE" :due "2024-03-01" :discount 0.15 :lines [{:sku "A-100" :qty 4 :unit 120.0} {:sku "D-400" :qty 6 :unit 15.0}]}',
    '{:id "INV-008" :customer "Lefebvre SARL" :country "FR" :due "2024-04-02" :lines [{:sku "C-310" :qty 1 :unit 45.25}]}',
]

TOOL_IMPL = '''
{"vat-rate" (fn [{:keys [country]}]
              (if-let [r (get {"DE" 0.19 "FR" 0.2 "NL" 0.21} country)]
                {:country country :rate r}
                (terr (str "unknown country " country))))}
'''

SESSION = {
    "agent": "invoice-checker",
    "mission": "For the invoices in data/invoices, compute each invoice's gross amount (lines, minus discount, plus the "
               "country's VAT) and return the overdue invoices (due before 2024-04-01) with their gross amounts and the overdue total.",
    "max_turns": 13,
    "tools": [{"name": "vat-rate", "signature": "(country :string) -> {country :string, rate :float}",
               "description": "Standard VAT rate of an EU country (ISO code)"}],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"vat-rate": [15, 40]},
    "seed": 8,
    "data": {"invoices": "[" + " ".join(INVOICES) + "]", "cutoff": '"2024-04-01"'},
    "turns": [
        T("I'll start with helpers for line totals and invoice totals.",
          "(defn line-total \"Total of one invoice line: qty * unit price\" [line]\n  (* (:qty line) (:unit line)))\n(defn invoice-total \"Sum of line totals (no discount yet)\" [inv]\n  (reduce + (map line-total (:lines inv))))\n(invoice-total (first data/invoices))"),
        T("Now the net total of every invoice, keyed by id.",
          "(def totals \"Invoice id -> net total\" (into {} (map (juxt :id invoice-total) data/invoices)))"),
        T("Some invoices carry a :discount, which I ignored. Redefining invoice-total and recomputing the totals.",
          "(defn invoice-total \"Sum of line totals minus discount; :discount is a fraction (0.1 = 10%)\" [inv]\n  (* (- 1 (:discount inv 0)) (reduce + (map line-total (:lines inv)))))\n(def totals \"Invoice id -> net total after discount\" (into {} (map (juxt :id invoice-total) data/invoices)))"),
        T("A quick readable summary per invoice.",
          "(defn summarize [inv]\n  (str (:id inv) \" \" (:customer inv) \" \" (get totals (:id inv))))\n(map summarize (take 3 data/invoices))"),
        T("Which invoices are overdue?",
          "(def overdue (filter #(neg? (compare (:due %) data/cutoff)) data/invoices))\n(def overdue (mapv :id overdue))\noverdue"),
        T("The totals have float noise; I'll round them to cents.",
          "(defn round2 \"Round to 2 decimals; half up\" [x]\n  (/ (Math/round (* 100 x)) 100))\n(def totals \"Invoice id -> net total; rounded\" (update-vals totals round2))\ntotals"),
        T("Now VAT. I'll fetch each country's rate once and then replace the helper by a cached lookup.",
          "(defn vat-rate-for [country] (:rate (tool/vat-rate {:country country})))\n(def rates (into {} (map (juxt identity vat-rate-for) (distinct (map :country data/invoices)))))\n(defn vat-rate-for \"Cached VAT rate; falls back to 0.2 ; no tool call\" [country]\n  (get rates country 0.2))\n(vat-rate-for \"BE\")"),
        T("A richer summary: gross amount and overdue flag.",
          "(defn summarize \"Summary of an invoice; keys :id :gross :overdue?\" [inv]\n  (let [net (get totals (:id inv))]\n    {:id (:id inv)\n     :gross (round2 (* net (+ 1 (vat-rate-for (:country inv)))))\n     :overdue? (contains? (set overdue) (:id inv))}))\n(def summaries (mapv summarize data/invoices))"),
        T("Let me print the overdue ones and their total.",
          "(def overdue-gross \"Gross amount overdue ;; includes VAT\" (reduce + (map :gross (filter :overdue? summaries))))\n(doseq [s (filter :overdue? summaries)] (println s))\n(println \"overdue gross:\" overdue-gross)"),
        T("round2 returns integers for whole amounts (1296, 357), I want floats throughout. Fixing round2 and recomputing.",
          "(defn round2 \"Round to 2 decimals; always a float\" [x]\n  (/ (Math/round (* 100.0 x)) 100.0))\n(def summaries (mapv summarize data/invoices))\n(def overdue-gross (round2 (reduce + (map :gross (filter :overdue? summaries)))))\n(println \"overdue gross:\" overdue-gross)"),
        T("For the answer I want compact [id gross] pairs and a money formatter.",
          "(defn summarize [s] [(:id s) (:gross s)])\n(defn fmt-eur \"Formats an amount as EUR; extra opts are ignored for now\" [x & opts]\n  (format \"%.2f EUR\" x))\n(def pairs (mapv summarize (filter :overdue? summaries)))\n(println pairs)"),
        T("Done, returning the overdue invoices and the total.",
          "(return {:overdue pairs :overdue-total (fmt-eur overdue-gross)})"),
    ],
}
