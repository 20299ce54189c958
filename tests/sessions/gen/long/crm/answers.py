#!/usr/bin/env python3
"""The model answers of the crm-cleanup session (60 turns, runs out of turns).
Spellings, domains, ids and figures the agent reuses are taken from world.py,
as the model takes them from the prints of earlier turns."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import world as w  # noqa: E402
from script import Script  # noqa: E402

s = Script()

s.turn("Let me see what the customers table looks like before fetching it.", r'''
(def schema (tool/crm-schema {:table "customers"}))
(println (:rows schema) "rows")
(doseq [c (:columns schema)]
  (println (:name c) "(" (:type c) ")" (or (:note c) "")))
''')

s.turn("421 rows is small enough to pull in one go.", r'''
(def page (tool/crm-rows {:table "customers" :offset 0 :limit 500}))
''', "tool")

s.turn("200 per call, so three calls.", r'''
(def rows
  (vec (mapcat #(:rows (tool/crm-rows {:table "customers" :offset % :limit 200})) [0 200 400])))
(println (count rows) "rows")
(doseq [r (take 5 rows)]
  (println r))
''')

s.turn("How complete is each column?", r'''
(def fields [:id :name :email :country :city :signup :revenue :source])
(doseq [f fields]
  (println f "blank:" (count (filter #(let [v (get % f)] (or (nil? v) (= "" v))) rows))))
''')

s.turn("Are the ids unique?", r'''
(println (count (distinct (map :id rows))) "distinct ids of" (count rows))
''')

s.turn("Ids are unique, so duplicates hide under different ids. Countries first: every spelling with its count.", r'''
(def country-counts (frequencies (map :country rows)))
(println (count country-counts) "spellings")
(println (clojure.string/join "\n" (map (fn [[c n]] (str (pr-str c) " " n)) (sort-by val > country-counts))))
''')

s.turn("I'll ask iso-country for every spelling.", r'''
(def iso-by-spelling
  (into {} (map (fn [s] [s (:iso2 (tool/iso-country {:name s}))]) (keys country-counts))))
(println iso-by-spelling)
''', "tool")

s.turn("\"Germany \" has a trailing space. I'll trim the spellings first.", r"""
(def spellings (distinct (map clojure.string/trim (keys country-counts))))
(def iso-by-spelling
  (into {} (map (fn [s] [s (:iso2 (tool/iso-country {:name s}))]) spellings)))
(println iso-by-spelling)
""", "tool")

s.turn("Bavaria is a region; GER (the sports code) will not be known either. I'll map those two by hand and ask for the rest.", r"""
(def spellings (distinct (map clojure.string/trim (keys country-counts))))
(def manual-iso {"Bavaria" "DE" "GER" "DE"})
(def iso-by-spelling
  (merge (into {} (map (fn [s] [s (:iso2 (tool/iso-country {:name s}))]) (remove manual-iso spellings)))
         manual-iso))
(println (count iso-by-spelling) "spellings mapped")
(println iso-by-spelling)
""")

s.turn("Every spelling has a code. Customers per country after mapping:", r"""
(defn country-iso [s]
  (get iso-by-spelling (clojure.string/trim s)))
(println (sort-by val > (frequencies (map (comp country-iso :country) rows))))
(println "unmapped:" (count (remove (comp country-iso :country) rows)))
""")

s.turn("Countries are done. Now the emails: which ones are not a plain lower-case address?", r"""
(def email-re #"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$")
(def bad-emails (remove #(re-matches email-re (:email %)) rows))
(println (count bad-emails) "do not match")
(doseq [r (take 12 bad-emails)]
  (println (:id r) (pr-str (:email r))))
""")

s.turn("Most are upper case, which lower-case fixes. The domains after lower-casing:", r"""
(defn email-domain-of [e]
  (second (clojure.string/split (clojure.string/lower-case e) #"@")))
(def domain-counts (frequencies (keep #(email-domain-of (:email %)) rows)))
(println (sort-by val > domain-counts))
""")

SUSPICIOUS = ["outlok.com", "yahooo.com", "gmai.com", "hotmial.com", "gmx.d", "gmial.com"]
EMPTY_ID = next(r["id"] for r in w.ROWS if r["email"] == "")


def q(xs):
    return " ".join('"%s"' % x for x in xs)


s.turn("The rare ones at the end look like typos of the big providers. Asking email-domain about them:", r"""
(def suspicious [%s])
(def domain-checks (mapv #(tool/email-domain {:domain %%}) suspicious))
(doseq [c domain-checks]
  (println c))
""" % q(SUSPICIOUS))

s.turn("All six are typos with a suggestion. An email fixer: trim, lower-case, correct the domain.", r"""
(def domain-fixes (into {} (map (juxt :domain :suggestion) domain-checks)))
(defn fix-email [e]
  (let [e (clojure.string/lower-case (clojure.string/trim e))
        [user domain] (clojure.string/split e #"@")]
    (if (and user domain)
      (str user "@" (get domain-fixes domain domain))
      e)))
(def still-bad (remove #(re-matches email-re (fix-email (:email %))) rows))
(println (count still-bad) "still invalid:")
(doseq [r still-bad]
  (println (:id r) (pr-str (:email r)) (:name r)))
""")

s.turn("Three use \" at \" instead of @, which is safe to repair; the empty one cannot be fixed.", r"""
(defn fix-email [e]
  (let [e (-> e clojure.string/trim clojure.string/lower-case (clojure.string/replace " at " "@"))
        [user domain] (clojure.string/split e #"@")]
    (if (and user domain)
      (str user "@" (get domain-fixes domain domain))
      e)))
(def still-bad (remove #(re-matches email-re (fix-email (:email %))) rows))
(println (count still-bad) "still invalid:" (map :id still-bad))
(println (map #(fix-email (:email %)) (filter #(clojure.string/includes? (:email %) " at ") rows)))
""")

s.turn("Only %s is left. Who is it?" % EMPTY_ID, r"""
(println (first (filter #(= "%s" (:id %%)) rows)))
""" % EMPTY_ID)

s.turn("No email at all: it stays on the invalid list. Now the signup dates: which formats occur?", r"""
(defn date-shape [s]
  (-> s (clojure.string/replace #"\d" "9") (clojure.string/replace #"[A-Z][a-z]+" "Mon")))
(println (sort-by val > (frequencies (map (comp date-shape :signup) rows))))
""")

s.turn("Four formats plus empty ones. I'll let the date library do the work.", r"""
(defn parse-date [s]
  (str (java.time.LocalDate/parse s)))
(println (map parse-date ["2021-03-04" "04/03/2021"]))
""", "unbound_symbol")

s.turn("No Java here; a parser per format then.", r"""
(def months {"Jan" 1 "Feb" 2 "Mar" 3 "Apr" 4 "May" 5 "Jun" 6 "Jul" 7 "Aug" 8 "Sep" 9 "Oct" 10 "Nov" 11 "Dec" 12})
(defn parse-date [s]
  (cond
    (re-matches #"\d{4}-\d{2}-\d{2}" s) s
    (re-matches #"\d{2}/\d{2}/\d{4}" s) (let [[d m y] (clojure.string/split s #"/")] (str y "-" m "-" d))
    (re-matches #"\d{4}\.\d{2}\.\d{2}" s) (clojure.string/replace s "." "-")
    (re-matches #"\d{1,2} [A-Z][a-z]{2} \d{4}" s)
    (let [[d mon y] (clojure.string/split s #" ")]
      (format "%s-%02d-%02d" y (months mon) (parse-long d)))
    :else nil))
(println (map parse-date ["2021-03-04" "04/03/2021" "4 Mar 2021" "2021.03.04" ""]))
""")

s.turn("Is 04/03/2021 day-first? If any first part is above 12 it must be.", r"""
(def slashed (filter #(re-matches #"\d{2}/\d{2}/\d{4}" (:signup %)) rows))
(println (count slashed) "slash dates,"
         (count (filter #(> (parse-long (subs (:signup %) 0 2)) 12) slashed)) "with a first part above 12,"
         (count (filter #(> (parse-long (subs (:signup %) 3 5)) 12) slashed)) "with a second part above 12")
""")

s.turn("Day first, as assumed. Parsing every date:", r"""
(def parsed-dates (map #(parse-date (:signup %)) rows))
(println "parsed:" (count (remove nil? parsed-dates)) "empty:" (count (filter #(= "" (:signup %)) rows))
         "unparsed non-empty:" (count (filter #(and (not= "" (:signup %)) (nil? (parse-date (:signup %)))) rows)))
(println "range:" (first (sort (remove nil? parsed-dates))) "to" (last (sort (remove nil? parsed-dates))))
""")

s.turn("Dates are settled. Now duplicates, first by the repaired email.", r"""
(def email-dups
  (filter #(> (count (val %)) 1)
          (group-by #(fix-email (:email %)) (remove #(= "" (:email %)) rows))))
(println (count email-dups) "emails used by more than one row")
(doseq [[e rs] (take 6 email-dups)]
  (println e (mapv :id rs) (mapv :name rs) (mapv :source rs)))
""")

s.turn("Same person, imported twice, often with the name in another case or spelling. A name normaliser for the second check (diacritics, case, \"Last, First\"):", r"""
(defn norm-name [n]
  (clojure.string/normalize (clojure.string/lower-case n) :nfd))
(println (norm-name "García, David"))
""", "unbound_symbol")

s.turn("No Unicode normalisation; a replacement table for the letters in this data will do.", r"""
(def fold-chars {"ü" "u" "ö" "o" "ä" "a" "é" "e" "í" "i" "ó" "o" "á" "a" "ç" "c" "ñ" "n"})
(defn norm-name [n]
  (let [n (clojure.string/lower-case (clojure.string/trim n))
        n (if (clojure.string/includes? n ",")
            (let [[last-name first-name] (clojure.string/split n #",\s*")] (str first-name " " last-name))
            n)]
    (reduce (fn [s [a b]] (clojure.string/replace s a b)) n fold-chars)))
(println (map norm-name ["García, David" "DAVID GARCÍA" "David Garcia" "Müller, Anna"]))
""")

s.turn("Now group by normalised name and city.", r"""
(def name-dups
  (filter #(> (count (val %)) 1) (group-by (juxt (comp norm-name :name) :city) rows)))
(println (count name-dups) "name+city groups with more than one row")
(def email-dup-ids (set (mapcat #(map :id (val %)) email-dups)))
(def name-dup-ids (set (mapcat #(map :id (val %)) name-dups)))
(println "ids only in email groups:" (sort (remove name-dup-ids email-dup-ids)))
(println "ids only in name groups:" (sort (remove email-dup-ids name-dup-ids)))
""")

TWIN = [r for r in w.ALL if r["person"] in (17, len(w.PEOPLE) - 1)]

s.turn("Both checks find the same 28 pairs. Would the name alone find more?", r"""
(def name-only
  (filter #(and (> (count (val %)) 1) (not (name-dup-ids (:id (first (val %))))))
          (group-by (comp norm-name :name) rows)))
(println (count name-only) "more")
(doseq [[n rs] name-only]
  (doseq [r rs] (println n "|" (:id r) (:email r) (:city r) (:signup r) (:source r))))
""")

s.prose("""Two records named %s: %s in %s (%s, signed up %s) and %s in %s (%s, no signup date, from the 2019 import).
Different cities and different mailboxes, so I treat them as two people even though one came from the import that created the duplicates.

So the duplicate groups are the 28 pairs found by both email and name+city. The plan for merging:
- group the rows by the repaired email (name+city gives the same groups);
- keep the record with the earliest signup, carry the other id in :merged-ids;
- revenue comes from orders-summary for all ids of a group, summed.""" % (
    TWIN[1]["name"], TWIN[1]["id"], TWIN[1]["city"], TWIN[1]["email"], TWIN[1]["signup"], TWIN[0]["id"], TWIN[0]["city"],
    TWIN[0]["email"]))

s.turn("Writing the merge: keep the earliest signup, list the other ids.", r"""
(defn merge-group [rs]
  (let [[keep & others] (sort-by #(parse-date (:signup %)) rs)]
    (assoc keep :merged-ids (mapv :id others))))
(def merged-pairs (map merge-group (vals email-dups)))
(doseq [m (take 5 merged-pairs)]
  (println (:id m) (:signup m) (:merged-ids m)))
""", "type")

s.turn("email-dups is a filtered sequence of entries, not a map.", r"""
(defn merge-group [rs]
  (let [[keep & others] (sort-by #(parse-date (:signup %)) rs)]
    (assoc keep :merged-ids (mapv :id others))))
(def merged-pairs (map merge-group (map val email-dups)))
(doseq [m (take 8 merged-pairs)]
  (println (:id m) (pr-str (:signup m)) (:merged-ids m)))
""")

s.turn("Some kept records have an empty signup: nil sorts first. Unknown dates must sort last.", r"""
(defn merge-group [rs]
  (let [[keep & others] (sort-by #(or (parse-date (:signup %)) "9999-12-31") rs)]
    (assoc keep :merged-ids (mapv :id others))))
(def merged-pairs (map merge-group (map val email-dups)))
(doseq [m (take 8 merged-pairs)]
  (println (:id m) (pr-str (:signup m)) (:merged-ids m)))
(println (count (filter #(= "" (:signup %)) merged-pairs)) "kept records without a date")
""")

s.turn("Now revenue from the order system, for every id at once.", r"""
(def orders (tool/orders-summary {:customer_ids (mapv :id rows)}))
""", "tool")

s.turn("At most 100 ids per call; five batches.", r"""
(def orders
  (vec (mapcat #(tool/orders-summary {:customer_ids (vec %)}) (partition-all 100 (map :id rows)))))
(def revenue-by-id (into {} (map (juxt :customer_id :revenue_eur) orders)))
(println (count orders) "customers," (count (filter #(zero? (:orders %)) orders)) "without orders")
(println "total revenue EUR" (reduce + (vals revenue-by-id)))
""")

s.turn("For comparison, what the old CRM column adds up to:", r"""
(println (reduce + (keep :revenue rows)))
""", "type")

s.turn("The column mixes numbers and decimal-comma strings.", r"""
(defn parse-amount [v]
  (cond (number? v) v
        (string? v) (parse-double (-> v (clojure.string/replace "." "") (clojure.string/replace "," ".")))
        :else nil))
(def crm-revenue (reduce + (keep #(parse-amount (:revenue %)) rows)))
(println "CRM column:" crm-revenue "order system:" (reduce + (vals revenue-by-id)))
""")

s.turn("The old column is stale, as the schema said; the order system it is. Now one function that cleans a row.", r"""
(defn clean-row [r iso]
  (-> r
      (assoc :country (iso (clojure.string/trim (:country r)))
             :email (let [e (fix-email (:email r))] (when (re-matches email-re e) e))
             :signup (parse-date (:signup r)))
      (dissoc :revenue)))
(def cleaned (mapv clean-row rows))
""", "arity")

s.turn("mapv passes only the row; country-iso already knows the mapping.", r"""
(defn clean-row [r]
  (-> r
      (assoc :country (country-iso (:country r))
             :email (let [e (fix-email (:email r))] (when (re-matches email-re e) e))
             :signup (parse-date (:signup r)))
      (dissoc :revenue)))
(def cleaned (mapv clean-row rows))
(println (count cleaned) "rows cleaned")
(doseq [r (take 3 cleaned)]
  (println r))
""")

s.turn("Checking what is still missing after cleaning:", r"""
(println "country nil:" (count (remove :country cleaned))
         "email nil:" (count (remove :email cleaned))
         "signup nil:" (count (remove :signup cleaned)))
""")

s.turn("Now one record per person: group the cleaned rows by email (a row without email stays alone) and merge.", r"""
(def groups (vals (group-by #(or (:email %) (:id %)) cleaned)))
(def customers (mapv #(if (> (count %) 1) (merge-group %) (assoc (first %) :merged-ids [])) groups))
(println (count customers) "customers")
""", "type")

s.turn("merge-group parses the raw signup, but cleaned rows already hold ISO dates or nil.", r"""
(defn merge-group [rs]
  (let [[keep & others] (sort-by #(or (:signup %) "9999-12-31") rs)]
    (assoc keep :merged-ids (mapv :id others))))
(def groups (vals (group-by #(or (:email %) (:id %)) cleaned)))
(def customers (mapv #(if (> (count %) 1) (merge-group %) (assoc (first %) :merged-ids [])) groups))
(println (count customers) "customers," (count (filter #(seq (:merged-ids %)) customers)) "of them merged")
(doseq [c (take 3 (filter #(seq (:merged-ids %)) customers))]
  (println c))
""")

s.turn("421 rows became %d customers. Customers per country:" % (len(w.PEOPLE)), r"""
(def customers-per-country (into {} (sort-by val > (frequencies (map :country customers)))))
(println customers-per-country)
""")

s.turn("Revenue per country, summing the order revenue of every id a customer was merged from.", r"""
(defn customer-revenue [c]
  (reduce + (map revenue-by-id (cons (:id c) (:merged-ids c)))))
(def revenue-per-country
  (reduce (fn [m c] (update m (:country c) (fnil + 0) (customer-revenue c))) {} customers))
(println (sort-by val > revenue-per-country))
""")

s.turn("Rounding to cents:", r"""
(def revenue-per-country
  (into {} (map (fn [[k v]] [k (/ (round (* 100 v)) 100.0)]) (sort-by val > revenue-per-country))))
(println revenue-per-country)
(println "total" (reduce + (vals revenue-per-country)))
""")

s.turn("The ids whose email is still invalid:", r"""
(def invalid-email-ids (mapv :id (remove :email customers)))
(println invalid-email-ids)
""")

REVENUE_MAP = None  # filled below from the world, as printed in turn 42


def revenue_map():
    """{"DE" 118352.67 ...}: revenue per country as the agent printed it."""
    people = {}
    for r in w.ALL:
        people.setdefault(r["person"], []).append(r["id"])
    iso = {}
    for p, ids in people.items():
        iso[w.PEOPLE[p]["iso"]] = iso.get(w.PEOPLE[p]["iso"], 0) + sum(w.orders_revenue(i)[1] for i in ids)
    order = sorted(iso.items(), key=lambda kv: -kv[1])
    return "{" + " ".join('"%s" %.2f' % (k, v) for k, v in order) + "}"


REVENUE_MAP = revenue_map()

s.cut("I have everything the mission asks for. Putting the summary together, with the checks alongside:", r"""
(def summary
  {:rows-read (count rows)
   :customers (count customers)
   :merged-duplicates (count (filter #(seq (:merged-ids %)) customers))
   :customers-per-country customers-per-country
   :invalid-email-ids invalid-email-ids
   :revenue-per-country-eur revenue-per-country
   :notes ["country spellings mapped with iso-country; Bavaria and GER by hand"
           "email domains fixed: outlok.com yahooo.com gmai.com hotmial.com gmx.d gmial.com; ' at ' repaired"
           "dates: 4 formats, slash dates are day-first; 56 unknown"
           (str "Leon Novak in Madrid and Barcelona are two people (" (clojure.string/join ", " (map :id (val (first name-only""")

s.turn("The answer was cut off; the notes can wait. The summary with plain values:", r"""
(def summary
  {:rows-read 421
   :customers %d
   :merged-duplicates 28
   :customers-per-country customers-per-country
   :invalid-email-ids ["%s"]
   :revenue-per-country-eur %s})
(println (dissoc summary :customers-per-country :revenue-per-country-eur))
""" % (len(w.PEOPLE), EMPTY_ID, REVENUE_MAP))

s.turn("Before returning, I'll make sure the two Leon Novaks stayed separate.", r"""
(println (map (juxt :id :city :email :merged-ids) (filter #(#{"%s" "%s"} (:id %%)) customers)))
""" % (TWIN[0]["id"], TWIN[1]["id"]))

s.turn("Separate, as intended. Do the merged pairs disagree on the signup date?", r"""
(def date-conflicts
  (for [c customers
        :when (seq (:merged-ids c))
        :let [other (first (filter #(= (first (:merged-ids c)) (:id %)) cleaned))]
        :when (and (:signup c) (:signup other) (not= (:signup c) (:signup other)))]
    [(:id c) (:signup c) (:id other) (:signup other)]))
(println (count date-conflicts) "pairs with different dates")
(doseq [d date-conflicts]
  (println d))
""")

s.turn("They differ by exactly one year, same day: the 2019 import shifted the year. Keeping the earlier date is right. Average revenue per customer by country, for the report:", r"""
(def avg-revenue
  (into {} (map (fn [[k v]] [k (avg (map customer-revenue (filter #(= k (:country %)) customers)))]) revenue-per-country)))
(println avg-revenue)
""", "unbound_symbol")

s.turn("avg does not exist; dividing by the customer counts I already have.", r"""
(def avg-revenue
  (into {} (map (fn [[k v]] [k (/ (round (* 100 (/ v (customers-per-country k)))) 100.0)]) revenue-per-country)))
(println avg-revenue)
""")

s.turn("How many addresses did each domain fix touch?", r"""
(doseq [d [%s]]
  (println d (count (filter #(clojure.string/ends-with? (clojure.string/lower-case (:email %%)) (str "@" d)) rows))))
""" % q(SUSPICIOUS))

s.turn("Names come as \"Last, First\" and in capitals for some rows. The new CRM wants display names, so I'll normalise those too.", r"""
(defn display-name [n]
  (let [n (if (clojure.string/includes? n ",")
            (let [[l f] (clojure.string/split n #",\s*")] (str f " " l))
            n)]
    (if (= n (clojure.string/upper-case n))
      (clojure.string/join " " (map clojure.string/capitalize (clojure.string/split n #" ")))
      n)))
(println (map display-name ["García, David" "LAURA BIANCHI" "Anna Müller" "De Vries, Ida"]))
""")

s.turn("Applying it to the customers:", r"""
(def customers (mapv #(update % :name display-name) customers))
(println (count (filter #(clojure.string/includes? (:name %) ",") customers)) "names with a comma left")
(println (take 6 (map :name customers)))
""")

s.turn("Any email still used by two customers?", r"""
(println (filter #(> (val %) 1) (frequencies (keep :email customers))))
""")

s.turn("None. The summary gets the name and email fixes.", r"""
(def summary
  (assoc summary
         :email-domains-fixed (into {} (map (juxt :domain :suggestion) domain-checks))
         :names-normalised (count (filter #(or (clojure.string/includes? (:name %) ",")
                                               (= (:name %) (clojure.string/upper-case (:name %))))
                                          rows))))
(println (:email-domains-fixed summary) (:names-normalised summary))
""")

s.turn("England went to GB through iso-country; let me confirm those rows all landed there.", r"""
(println (frequencies (map #(country-iso (:country %)) (filter #(= "England" (clojure.string/trim (:country %))) rows))))
""")

s.turn("Customers without any orders, for the migration team:", r"""
(def no-orders (filter #(zero? (customer-revenue %)) customers))
(println (count no-orders) "customers without orders, e.g." (take 5 (map :id no-orders)))
""")

s.turn("The revenue total should not have changed through merging and rounding.", r"""
(println (reduce + (map customer-revenue customers)) (reduce + (vals revenue-per-country)))
""")

s.turn("Both %s up to float noise. The full summary once more before returning it:" % "556313.0", r"""
(println summary)
""")

s.turn("One last consistency check: the countries add up to the customer count.", r"""
(println (reduce + (vals customers-per-country)) (count customers))
""")

FIRST_PAIR = next(r for r in w.ALL if r["id"] == "C-006068"), next(r for r in w.ALL if r["id"] == "C-010802")

s.turn("Counts match. Last, the revenue of a merged customer must include both ids, e.g. %s merged with %s:" % (
    FIRST_PAIR[0]["id"], FIRST_PAIR[1]["id"]), r"""
(println (revenue-by-id "%s") "+" (revenue-by-id "%s") "="
         (customer-revenue (first (filter #(= "%s" (:id %%)) customers))))
""" % (FIRST_PAIR[0]["id"], FIRST_PAIR[1]["id"], FIRST_PAIR[0]["id"]))

if __name__ == "__main__":
    s.write(__file__)
