#!/usr/bin/env python3
"""The model answers of the literature-review session.
DOIs, arXiv ids, citation keys, authors, titles, venues, pages, quoted
sentences and metric values the agent reuses are taken from world.py (and
tool.py's key rule), as the model takes them from the prints of earlier
turns. Two corrections, each after the old value was printed: the CodeRAG
results are first read from the arXiv v1 copy (micro-F1 58.9, "by 4.1
points", page 1), which retraction-check shows superseded by the ACL 2024
version whose rebuilt retrieval index gives 56.3 ("by 1.5 points", page
4127), so `results`, `gains` and `para-2` are redefined; the ClinicalNLP 2023
paper is entered from the index's author list as lindqvist2023retrieval
(Ana Lindqvist, Uppsala), and her profile and the publisher's record show
its first author is Anna Lindquist (Karolinska): `bib` and `para-2` are
redefined with lindquist2023retrieval. Later programs write only the
corrected values."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()
P = w.PAPERS

# --- what the agent sees, mirrored to write the literals it copies -------------------------
PRE, ACL, WS = P["nguyen-pre"]["arxiv"], P["nguyen-acl"]["doi"], P["lindquist-ws"]["doi"]
JBI, JAMIA, EMNLP = P["haddad-jbi"]["doi"], P["okafor-jamia"]["doi"], P["ferreira-findings"]["doi"]
JBHI, LAAT, SURVEY = P["patel-jbhi"]["doi"], P["kowalczyk-lrec"]["arxiv"], P["lindqvist-survey"]["doi"]
CHAIN, LEWIS, MIMIC = P["okafor-chain"]["arxiv"], P["lewis-neurips"]["arxiv"], P["johnson-mimic"]["doi"]
SWE, AUDIT = P["lindqvist-lrec"]["arxiv"], P["berg-medinfo"]["doi"]


def key(k, index=False):
    p = P[k]
    return w.cite_key(p["index"]["authors"].split("; ") if index else p["authors"], p["year"], p["title"])


K = {k: key(k) for k in P}
WRONG_WS = key("lindquist-ws", index=True)
assert WRONG_WS == "lindqvist2023retrieval" and K["lindquist-ws"] == "lindquist2023retrieval"


def cell(k, model, col, tbl=0):
    tb = w.TABLES[k][tbl]
    row = next(r for r in tb["rows"] if r[0] == model)
    return row[tb["columns"].index(col)].split(" ± ")[0]


HYB = "CodeRAG, hybrid retrieval"
OLD_MICRO, NEW_MICRO = cell("nguyen-pre", HYB, "Micro-F1"), cell("nguyen-acl", HYB, "Micro-F1")
OLD_MACRO, NEW_MACRO = cell("nguyen-pre", HYB, "Macro-F1"), cell("nguyen-acl", HYB, "Macro-F1")
assert (OLD_MICRO, NEW_MICRO) == ("58.9", "56.3")
BASE_MICRO, BASE_MACRO, BASE_P15 = (cell("haddad-jbi", "PLM-ICD10", c) for c in ("Micro-F1", "Macro-F1", "P@15"))
GPT4 = cell("ferreira-findings", "GPT-4", "Micro-F1")
DESC_MICRO, DESC_MACRO = cell("okafor-jamia", "DescRAG, GPT-4o, 8-shot", "Micro-F1"), \
    cell("okafor-jamia", "DescRAG, GPT-4o, 8-shot", "Macro-F1")
CHAIN_MICRO = cell("okafor-chain", "Chain-of-retrieval, GPT-4o", "Micro-F1")
LAAT_MICRO = cell("kowalczyk-lrec", "LAAT (replicated)", "Micro-F1")
CLIN_MICRO = cell("patel-jbhi", "ClinRAG", "Micro-F1")
WS_T = w.TABLES["lindquist-ws"][0]["rows"]
WS_FROM, WS_TO = WS_T[0][1], WS_T[1][1]


def sentence(text, start):
    i = text.index(start)
    return text[i:text.index(". ", i) + 1]


Q_OLD = sentence(P["nguyen-pre"]["abstract"], "Retrieving the descriptions")
Q_NEW = sentence(P["nguyen-acl"]["abstract"], "Retrieving the descriptions")
assert "4.1 points" in Q_OLD and "1.5 points" in Q_NEW
ACL_FIRST_PAGE = P["nguyen-acl"]["sections"][0][1]
Q_SURVEY = [x for x in w.TEXT["lindqvist-survey"] if x[1] == "5 Evaluation Pitfalls"][0]
RARE_SNIP = w.TEXT["okafor-jamia"][0][2]
AUDIT_SNIP = w.TEXT["berg-medinfo"][0][2]
AUTH = {a["name"]: a for a in w.AUTHORS}
ANA, ANNA = AUTH["Lindqvist, Ana"], AUTH["Lindquist, Anna"]
HAI, CHIDI = AUTH["Nguyen, Thanh Hai"], AUTH["Okafor, Chidinma"]
RETRACTION = w.NOTICES["patel-jbhi"][0]
WS_REC = P["lindquist-ws"]
SWE_REC, AUDIT_REC = P["lindqvist-lrec"], P["berg-medinfo"]
LEWIS_REC, MIMIC_REC = P["lewis-neurips"], P["johnson-mimic"]

# --- the session -------------------------------------------------------------------------

s.turn("I'll read the proposal's brief, then search the index for the core topic.", r'''
(println (:title data/proposal))
(println (:section data/proposal) "- at most" (:max_words data/proposal) "words, style" (:style data/proposal))
(doseq [x (:scope data/proposal)] (println " scope:" x))
(doseq [x (:rules data/proposal)] (println " rule: " x))
(def hits-rag (tool/lit-search {:query "retrieval-augmented generation ICD-10 coding" :year_from 2020}))
(println (:total hits-rag) "results")
(doseq [r (:results hits-rag)]
  (println (:year r) (format "%5d" (:citations r)) (:venue r) "|" (:title r))
  (println "      " (:authors r) "|" (or (:doi r) (str "arXiv:" (:arxiv r)))))
''')

s.turn("Five hits, and the arXiv and ACL 2024 records look like the same paper. Two broader searches for LLM coding and the fine-tuned baselines:", r'''
(def hits-llm (tool/lit-search {:query "large language models clinical coding MIMIC-IV"}))
(def hits-base (tool/lit-search {:query "ICD-10 coding MIMIC-IV encoders baseline"}))
(defn pid [r] (or (:doi r) (:arxiv r)))
(def pool (distinct-by pid (concat (:results hits-rag) (:results hits-llm) (:results hits-base))))
(def seen (set (map pid (:results hits-rag))))
(println (count pool) "distinct papers," (- (count pool) (count seen)) "new:")
(doseq [r (remove #(seen (pid %)) pool)]
  (println (:year r) (format "%5d" (:citations r)) (:venue r) "|" (:title r))
  (println "      " (:authors r) "|" (pid r)))
''')

s.turn("A shortlist by identifier. The arXiv preprint and the ACL 2024 paper have the same title and authors: I'll read the open arXiv copy and cite the ACL version, as the rules ask.", fill(r'''
(def shortlist
  {:coderag "<<ACL>>"
   :coderag-arxiv "<<PRE>>"
   :rag-icd9 "<<WS>>"
   :plm-icd10 "<<JBI>>"
   :descrag "<<JAMIA>>"
   :zero-shot "<<EMNLP>>"
   :clinrag "<<JBHI>>"
   :laat-replication "<<LAAT>>"
   :survey "<<SURVEY>>"
   :chain "<<CHAIN>>"})
(println (count shortlist) "papers shortlisted:" (sort (keys shortlist)))
''', ACL=ACL, PRE=PRE, WS=WS, JBI=JBI, JAMIA=JAMIA, EMNLP=EMNLP, JBHI=JBHI, LAAT=LAAT, SURVEY=SURVEY,
    CHAIN=CHAIN))

s.turn("The CodeRAG paper first: abstract, versions and sections.", r'''
(def coderag (tool/paper-record {:id (:coderag-arxiv shortlist)}))
(println (:title coderag))
(println (clojure.string/join "; " (:authors coderag)) "|" (:venue coderag) (:year coderag) "|" (:published coderag))
(println "versions:" (map (juxt :version :date) (:versions coderag)))
(println (:abstract coderag))
(doseq [x (:sections coderag)]
  (println (format "  p.%-3d %s" (:page x) (:title x))))
''')

s.turn("Its result tables:", fill(r'''
(def coderag-tables (tool/paper-tables {:id "<<PRE>>"}))
(println (:title coderag-tables) "-" (:version coderag-tables))
(doseq [t (:tables coderag-tables)]
  (println (:table t) "p." (:page t) "-" (:caption t))
  (println "  " (clojure.string/join " | " (:columns t)))
  (doseq [r (:rows t)]
    (println "  " (clojure.string/join " | " r))))
''', PRE=PRE))

s.turn("The tables of the other empirical papers, fetched together:", r'''
(def other-ids [(:plm-icd10 shortlist) (:descrag shortlist) (:zero-shot shortlist) (:clinrag shortlist)
                (:laat-replication shortlist) (:chain shortlist) (:rag-icd9 shortlist)])
(def other-tables (zipmap other-ids (pmap #(tool/paper-tables {:id %}) other-ids)))
(doseq [[id pt] other-tables
        t (:tables pt)]
  (println id "-" (:table t) "p." (:page t) "-" (:caption t))
  (println "    " (clojure.string/join " | " (:columns t)))
  (doseq [r (:rows t)]
    (println "    " (clojure.string/join " | " r))))
''')

s.turn("Everything but the ClinicalNLP paper (MIMIC-III, ICD-9, top-50) is on the MIMIC-IV ICD-10 full code set. One comparable results table, cells parsed to numbers:", fill(r'''
(defn metric [c]
  (parse-double (first (clojure.string/split c #" ± "))))
(defn table-rows [id t]
  (for [r (:rows t)]
    (let [m (zipmap (:columns t) r)]
      {:id id :model (get m "Model") :micro (metric (get m "Micro-F1" "—")) :macro (metric (get m "Macro-F1" "—"))
       :p15 (metric (get m "P@15" "—"))})))
(def results
  (vec (concat (table-rows "<<PRE>>" (first (:tables coderag-tables)))
               (for [[id pt] other-tables
                     t (:tables pt)
                     :when (clojure.string/includes? (:caption t) "MIMIC-IV ICD-10")
                     r (table-rows id t)]
                 r))))
(println (count results) "rows")
(doseq [r (sort-by :micro > results)]
  (println (format "%-42s %6s %6s %6s  %s" (:model r) (str (:micro r)) (str (:macro r)) (str (:p15 r)) (:id r))))
''', PRE=PRE))

s.turn("ClinRAG's %s is 12.5 points above anything else and its title claims human parity. Before using it, a retraction check:" % CLIN_MICRO, fill(r'''
(def clinrag-check (tool/retraction-check {:ids ["<<JBHI>>"]}))
(doseq [r (:results clinrag-check)
        n (:notices r)]
  (println (:id r) (:status r) (:date n) "notice" (:notice_doi n))
  (println "  " (:text n)))
''', JBHI=JBHI))

s.turn("Retracted: its numbers were on the top-50 codes. Dropping its rows, and the copies of the PLM-ICD10 row other papers reprint; the baseline is the JBI paper's own row.", fill(r'''
(def retracted {"<<JBHI>>" "retracted <<RD>> (<<ND>>): top-50 label set, not reproducible"})
(def results (vec (remove #(contains? retracted (:id %)) results)))
(def baseline (first (filter #(and (= "<<JBI>>" (:id %)) (= "PLM-ICD10" (:model %))) results)))
(println "baseline:" baseline)
(println (count results) "rows left")
''', JBHI=JBHI, RD=RETRACTION["date"], ND=RETRACTION["notice_doi"], JBI=JBI))

s.turn("How far above PLM-ICD10 each system is, on the three metrics:", fill(r'''
(def gains
  (for [r results :when (not (clojure.string/starts-with? (:model r) "PLM-ICD10"))]
    {:model (:model r) :id (:id r) :micro (:micro r)
     :d-micro (- (:micro r) <<BM>>) :d-macro (- (:macro r) <<BMA>>) :d-p15 (- (:p15 r) <<BP>>)}))
(doseq [g (sort-by :d-micro > gains)]
  (println (format "%6.1f %6.1f %6.1f  %s (%s)" (:d-micro g) (:d-macro g) (:d-p15 g) (:model g) (:id g))))
''', BM=BASE_MICRO, BMA=BASE_MACRO, BP=BASE_P15), "type")

s.turn("P@15 is missing (\"—\") for several systems, so the difference hit nil. Only where both values exist:", r'''
(def gains
  (vec (for [r results :when (not (clojure.string/starts-with? (:model r) "PLM-ICD10"))]
         {:model (:model r) :id (:id r) :micro (:micro r)
          :d-micro (- (:micro r) (:micro baseline)) :d-macro (- (:macro r) (:macro baseline))
          :d-p15 (when (:p15 r) (- (:p15 r) (:p15 baseline)))})))
(doseq [g (sort-by :d-micro > gains)]
  (println (format "%6.1f %6.1f %6s  %s (%s)" (:d-micro g) (:d-macro g)
                   (if (:d-p15 g) (format "%.1f" (:d-p15 g)) "n/a") (:model g) (:id g))))
''')

s.turn("CodeRAG is the only system above the baseline on micro-F1 (+4.1); DescRAG trades micro-F1 for macro-F1. What the CodeRAG paper cites, to catch anything the searches missed:", r'''
(doseq [[i r] (map-indexed vector (:references coderag))]
  (println (str (inc i) ".") r))
''')

s.turn("Two references are not on the shortlist by DOI. Their records:", r'''
(def ref-dois (keep #(re-find #"10\.\d{4,9}/\S+" %) (:references coderag)))
(def known (set (vals shortlist)))
(def missing-refs (vec (remove known ref-dois)))
(println "not shortlisted:" missing-refs)
(def ref-records (mapv #(tool/paper-record {:id %}) missing-refs))
''', "tool")

s.turn("The regex kept the reference's final period. Stripping it, and fetching the RAG paper by its arXiv id as well:", fill(r'''
(def ref-dois (keep #(some-> (re-find #"10\.\d{4,9}/\S+" %) (clojure.string/replace #"\.$" "")) (:references coderag)))
(def known (set (vals shortlist)))
(def missing-refs (vec (remove known ref-dois)))
(def ref-records (mapv #(tool/paper-record {:id %}) missing-refs))
(def lewis (tool/paper-record {:id "<<LEWIS>>"}))
(doseq [r (conj ref-records lewis)]
  (println (or (:doi r) (:arxiv r)) "|" (:title r))
  (println "   " (clojure.string/join "; " (take 3 (:authors r))) (when (> (count (:authors r)) 3) "et al.")
           "|" (:venue r) (:year r) "| vol." (:volume r) "pp." (:pages r)))
''', LEWIS=LEWIS))

s.turn("The MIMIC-IV dataset paper and the original RAG paper belong in the background paragraph. The venues' standing, for weighing the evidence:", r'''
(def venues ["ACL" "ClinicalNLP" "J Biomed Inform" "J Am Med Inform Assoc" "Findings of EMNLP" "LREC-COLING"
             "ACM Comput Surv" "NeurIPS" "Sci Data"])
(def ranks (zipmap venues (pmap #(tool/venue-rank {:venue %}) venues)))
(doseq [v venues]
  (let [r (ranks v)]
    (println (format "%-22s %-10s %-4s %-3s %5s  %s" v (:kind r) (or (:core_rank r) "-") (or (:quartile r) "-")
                     (str (or (:impact_factor r) "-")) (or (:note r) "")))))
''')

s.turn("The survey frames the field. Its record and the passages on leakage, rare codes, non-English coding and coder evaluation:", fill(r'''
(def survey (tool/paper-record {:id "<<SURVEY>>"}))
(println (:title survey))
(println (clojure.string/join "; " (:authors survey)) "|" (:venue survey) (:volume survey) (str "(" (:issue survey) ")") (:pages survey))
(println (:abstract survey))
(def survey-snips
  (mapcat #(:hits (tool/paper-snippets {:id "<<SURVEY>>" :query %})) ["deduplication" "fewer than ten" "Swedish" "professional coders"]))
(doseq [x survey-snips]
  (println (str "p." (:page x) " (" (:section x) "): " (:text x))))
''', SURVEY=SURVEY))

s.turn("The survey says gains shrink after deduplication. The rare-code evidence in DescRAG and the ICD-9 paper's own limits:", fill(r'''
(doseq [[id q] [["<<JAMIA>>" "fewer than ten"] ["<<JAMIA>>" "descriptions"] ["<<WS>>" "ICD-10"]]
        x (:hits (tool/paper-snippets {:id id :query q}))]
  (println id (str "p." (:page x)) "-" (:text x)))
''', JAMIA=JAMIA, WS=WS))

s.turn("Building the bibliography from the search records: the ACL version of CodeRAG, the published papers, and the two preprints without a published version.", fill(r'''
(defn entry-of [r]
  (let [t ({"journal-article" "article" "proceedings-article" "inproceedings" "preprint" "preprint"} (:type r))]
    (cond-> {:type t :title (:title r) :authors (clojure.string/split (:authors r) #"; ") :year (:year r)}
      (not= t "preprint") (assoc :venue (:venue r))
      (:doi r) (assoc :doi (:doi r))
      (:arxiv r) (assoc :arxiv (:arxiv r)))))
(def to-cite ["<<ACL>>" "<<WS>>" "<<JBI>>" "<<JAMIA>>" "<<EMNLP>>" "<<LAAT>>" "<<SURVEY>>" "<<CHAIN>>"])
(def by-id (into {} (map (juxt pid identity) pool)))
(def added (mapv #(tool/bib-add {:entry (entry-of (by-id %))}) to-cite))
(def bib (zipmap to-cite (map :key added)))
(doseq [[id a] (map vector to-cite added)]
  (println (format "%-24s %-38s %s" (:key a) id (clojure.string/join ", " (:warnings a)))))
''', ACL=ACL, WS=WS, JBI=JBI, JAMIA=JAMIA, EMNLP=EMNLP, LAAT=LAAT, SURVEY=SURVEY, CHAIN=CHAIN))

s.turn("The RAG paper and MIMIC-IV from their records, with pages:", fill(r'''
(def lewis-entry
  (tool/bib-add {:entry {:type "inproceedings" :title "<<LT>>"
                         :authors (:authors lewis) :year <<LY>> :venue "<<LV>>"
                         :pages "<<LP>>" :arxiv "<<LEWIS>>"}}))
(def mimic-entry
  (tool/bib-add {:entry {:type "article" :title "<<MT>>"
                         :authors (:authors (first ref-records)) :year <<MY>> :venue "<<MV>>" :volume "<<MVOL>>"
                         :pages "<<MP>>" :doi "<<MIMIC>>"}}))
(def bib (assoc bib "<<LEWIS>>" (:key lewis-entry) "<<MIMIC>>" (:key mimic-entry)))
(println (:key lewis-entry) (:warnings lewis-entry) "|" (:key mimic-entry) (:warnings mimic-entry))
(println (count bib) "entries")
''', LT=LEWIS_REC["title"], LY=LEWIS_REC["year"], LV=LEWIS_REC["venue"], LP=LEWIS_REC["pages"], LEWIS=LEWIS,
    MT=MIMIC_REC["title"], MY=MIMIC_REC["year"], MV=MIMIC_REC["venue"], MVOL=MIMIC_REC["volume"],
    MP=MIMIC_REC["pages"], MIMIC=MIMIC))

s.turn("Formatted references in the proposal's style, to get the pages the index lacks:", r'''
(def formatted (tool/cite-format {:ids (vec (keys bib)) :style (:style data/proposal)}))
(println (count (:references formatted)) "references")
''', "tool")

s.turn("The style names are lower case.", r'''
(def formatted (tool/cite-format {:ids (vec (keys bib)) :style "vancouver"}))
(doseq [r (:references formatted)]
  (println (bib (:id r)) "-" (:text r)))
''')

s.prose(fill("""Where things stand. Shortlist of 10, bibliography of 10 entries (keys <<K_ACL>>, <<WRONG>>, <<K_JBI>>, <<K_JAMIA>>, <<K_EMNLP>>, <<K_LAAT>>, <<K_SURVEY>>, <<K_CHAIN>>, <<K_LEWIS>>, <<K_MIMIC>>). Comparable results on MIMIC-IV ICD-10, full code set:

- PLM-ICD10 (fine-tuned encoder): micro-F1 <<BM>>, macro-F1 <<BMA>>, P@15 <<BP>>
- CodeRAG, hybrid retrieval: micro-F1 <<OM>>, macro-F1 <<OMA>> (+4.1 micro)
- DescRAG (GPT-4o, 8-shot): micro-F1 <<DM>>, macro-F1 <<DMA>>, best on rare codes
- Chain-of-retrieval: <<CM>>; GPT-4 zero-shot: <<G4>>; LAAT replicated: <<LM>>
- ClinRAG (<<CL>>) is retracted and will only be mentioned as such.

Plan: three paragraphs (background and baselines; retrieval-augmented coding; non-English coding and evaluation pitfalls), each citing with [@key], then check the word count against 900, check all entries for notices, and submit.""",
             K_ACL=K["nguyen-acl"], WRONG=WRONG_WS, K_JBI=K["haddad-jbi"], K_JAMIA=K["okafor-jamia"],
             K_EMNLP=K["ferreira-findings"], K_LAAT=K["kowalczyk-lrec"], K_SURVEY=K["lindqvist-survey"],
             K_CHAIN=K["okafor-chain"], K_LEWIS=K["lewis-neurips"], K_MIMIC=K["johnson-mimic"], BM=BASE_MICRO,
             BMA=BASE_MACRO, BP=BASE_P15, OM=OLD_MICRO, OMA=OLD_MACRO, DM=DESC_MICRO, DMA=DESC_MACRO,
             CM=CHAIN_MICRO, G4=GPT4, LM=LAAT_MICRO, CL=CLIN_MICRO))

s.turn("The first paragraph: RAG, the dataset and the baselines.", fill(r'''
(defn cite [& ks] (str "[@" (clojure.string/join "; @" ks) "]"))
(defn words [s] (count (clojure.string/split (clojure.string/trim s) #"\s+")))
(def para-1
  (str "Retrieval-augmented generation (RAG) conditions a language model on documents retrieved at inference time "
       (cite "<<K_LEWIS>>") ". Automated ICD-10 coding of discharge summaries is a long-tailed multi-label problem. "
       "On the full ICD-10 code set of MIMIC-IV " (cite "<<K_MIMIC>>") ", the strongest fine-tuned encoder, "
       "PLM-ICD10, reaches a micro-F1 of <<BM>> and a macro-F1 of only <<BMA>> " (cite "<<K_JBI>>")
       ", and a replication of label-wise attention models found most of their reported gains over such baselines "
       "to be within seed variance (LAAT: <<LM>>) " (cite "<<K_LAAT>>") ". Instruction-tuned language models used "
       "zero-shot are far weaker: GPT-4 reaches a micro-F1 of <<G4>> and invents codes that do not exist "
       (cite "<<K_EMNLP>>") "."))
(println (words para-1) "words")
(println para-1)
''', K_LEWIS=K["lewis-neurips"], K_MIMIC=K["johnson-mimic"], BM=BASE_MICRO, BMA=BASE_MACRO, K_JBI=K["haddad-jbi"],
    LM=LAAT_MICRO, K_LAAT=K["kowalczyk-lrec"], G4=GPT4, K_EMNLP=K["ferreira-findings"]))

s.turn("The second paragraph, on RAG for coding, quoting CodeRAG's abstract for its headline claim.", fill(r'''
(defn quoted [sentence key page]
  (str "\"" sentence "\" [@" key ", p. " page "]"))
(def para-2
  (str "Retrieval has been applied to coding in two ways. Retrieving the three nearest training summaries for a "
       "sequence-to-sequence model raised micro-F1 from <<WF>> to <<WT>>, but only on the 50 most frequent ICD-9 codes "
       "of MIMIC-III, and the gains vanished on the full code set " (cite "<<WRONG>>") ". CodeRAG retrieves code "
       "descriptions and similar admissions for a large language model and reports a micro-F1 of <<OM>>: "
       (quoted "<<QOLD>>" "<<K_ACL>>") ". Using code descriptions as retrieval keys, DescRAG reaches the best "
       "macro-F1 reported on rare codes (<<DMA>>) at a lower micro-F1 (<<DM>>) " (cite "<<K_JAMIA>>")
       ", and chain-of-retrieval prompting over the ICD-10 hierarchy reaches <<CM>> " (cite "<<K_CHAIN>>") "."))
(println (words para-2) "words")
''', WF=WS_FROM, WT=WS_TO, WRONG=WRONG_WS, OM=OLD_MICRO, QOLD=Q_OLD, K_ACL=K["nguyen-acl"], DMA=DESC_MACRO,
    DM=DESC_MICRO, K_JAMIA=K["okafor-jamia"], CM=CHAIN_MICRO, K_CHAIN=K["okafor-chain"]), "arity")

s.turn("`quoted` takes the page too: page 1, where the abstract is.", fill(r'''
(defn quoted [sentence key page]
  (str "\"" sentence "\" [@" key ", p. " page "]"))
(def para-2
  (str "Retrieval has been applied to coding in two ways. Retrieving the three nearest training summaries for a "
       "sequence-to-sequence model raised micro-F1 from <<WF>> to <<WT>>, but only on the 50 most frequent ICD-9 codes "
       "of MIMIC-III, and the gains vanished on the full code set " (cite "<<WRONG>>") ". CodeRAG retrieves code "
       "descriptions and similar admissions for a large language model and reports a micro-F1 of <<OM>>: "
       (quoted "<<QOLD>>" "<<K_ACL>>" 1) ". Using code descriptions as retrieval keys, DescRAG reaches the best "
       "macro-F1 reported on rare codes (<<DMA>>) at a lower micro-F1 (<<DM>>) " (cite "<<K_JAMIA>>")
       ", and chain-of-retrieval prompting over the ICD-10 hierarchy reaches <<CM>> " (cite "<<K_CHAIN>>") "."))
(println (words para-2) "words")
(println para-2)
''', WF=WS_FROM, WT=WS_TO, WRONG=WRONG_WS, OM=OLD_MICRO, QOLD=Q_OLD, K_ACL=K["nguyen-acl"], DMA=DESC_MACRO,
    DM=DESC_MICRO, K_JAMIA=K["okafor-jamia"], CM=CHAIN_MICRO, K_CHAIN=K["okafor-chain"]))

s.turn("For the Swedish angle: Lindqvist, A. co-authored CodeRAG, the survey and the ICD-9 paper. Her profile:", r'''
(def lindqvist (tool/author-profile {:name "Lindqvist, A."}))
(doseq [c (:candidates lindqvist)]
  (println (:name c) "| ORCID" (:orcid c) "| h" (:h_index c))
  (doseq [a (:affiliations c)]
    (println "   " (:org a) (:from a) "-" (or (:to a) "now")))
  (doseq [x (:works c)]
    (println "   " (:year x) (:venue x) "|" (:title x) "|" (:id x))))
''')

s.turn(fill("The ClinicalNLP 2023 paper (<<WS>>) is not among her works. The look-alike name, and who the publisher lists:", WS=WS), fill(r'''
(def lindquist (tool/author-profile {:name "Lindquist, A."}))
(doseq [c (:candidates lindquist)]
  (println (:name c) "| ORCID" (:orcid c) "|" (:org (first (:affiliations c))))
  (doseq [x (:works c)]
    (println "   " (:year x) (:venue x) "|" (:title x) "|" (:id x))))
(def ws-record (tool/paper-record {:id "<<WS>>"}))
(println "publisher:" (clojure.string/join "; " (:authors ws-record)) "|" (:venue ws-record) "pp." (:pages ws-record))
''', WS=WS))

s.turn(fill("The index merged the two: the first author is Anna Lindquist (Karolinska, <<ORC>>), not Ana Lindqvist (Uppsala). Re-entering it from the publisher's record; the key changes.", ORC=ANNA["orcid"]), fill(r'''
(def ws-entry
  (tool/bib-add {:entry {:type "inproceedings"
                         :title "<<WT>>"
                         :authors ["<<A1>>" "<<A2>>" "<<A3>>"] :year <<WY>>
                         :venue "<<WV>>"
                         :pages "<<WP>>" :doi "<<WS>>"}}))
(def bib (assoc bib "<<WS>>" (:key ws-entry)))
(def para-2 (clojure.string/replace para-2 "[@<<WRONG>>]" (str "[@" (:key ws-entry) "]")))
(println "<<WRONG>> ->" (:key ws-entry) (:warnings ws-entry))
(println (sort (vals bib)))
''', WT=WS_REC["title"], A1=WS_REC["authors"][0], A2=WS_REC["authors"][1], A3=WS_REC["authors"][2],
    WY=WS_REC["year"], WV=WS_REC["venue"], WP=WS_REC["pages"], WS=WS, WRONG=WRONG_WS))

s.turn("The other two recurring authors, to describe the groups in the proposal's collaboration section later:", r'''
(def nguyen (tool/author-profile {:name "Nguyen, T. H."}))
(def okafor (tool/author-profile {:name "Okafor, C."}))
(doseq [c (concat (:candidates nguyen) (:candidates okafor))]
  (println (:name c) "| ORCID" (:orcid c) "|" (:org (first (:affiliations c))) "|" (count (:works c)) "works:"
           (clojure.string/join ", " (map :id (:works c)))))
''')

s.turn(fill("Thanh Hai Nguyen (Melbourne) is the one who wrote CodeRAG, not the Hanoi namesake. Now the Swedish and coder-agreement literature:", ), r'''
(def hits-swe (tool/lit-search {:query "Swedish ICD-10 coding" :limit 4}))
(doseq [r (:results hits-swe)]
  (println (:year r) (:venue r) "|" (:title r))
  (println "      " (:authors r) "|" (pid r)))
''')

s.turn("Two papers for the third paragraph: the Swedish coding paper and the coder audit. Their records, and the audit's agreement figures:", fill(r'''
(def swe-record (tool/paper-record {:id "<<SWE>>"}))
(def audit-record (tool/paper-record {:id "<<AUDIT>>"}))
(doseq [r [swe-record audit-record]]
  (println (clojure.string/join "; " (:authors r)) "|" (:title r) "|" (:venue r) (:year r) "vol." (:volume r) "pp." (:pages r))
  (println "   " (:abstract r)))
(doseq [x (:hits (tool/paper-snippets {:id "<<AUDIT>>" :query "agreed"}))]
  (println (str "p." (:page x) ":") (:text x)))
''', SWE=SWE, AUDIT=AUDIT))

s.turn("Adding both, and ClinRAG, which the rules allow only to note its retraction:", fill(r'''
(def extra
  [(tool/bib-add {:entry {:type "inproceedings" :title "<<ST>>"
                          :authors ["<<S1>>" "<<S2>>" "<<S3>>"] :year <<SY>> :venue "<<SV>>" :pages "<<SP>>"
                          :arxiv "<<SWE>>"}})
   (tool/bib-add {:entry {:type "article" :title "<<AT>>"
                          :authors ["<<B1>>" "<<B2>>"] :year <<AY>> :venue "<<AV>>" :volume "<<AVOL>>" :pages "<<AP>>"
                          :doi "<<AUDIT>>"}})
   (tool/bib-add {:entry {:type "article" :title "<<CT>>"
                          :authors ["Patel, V." "Zhou, L." "Marsh, E."] :year 2024 :venue "IEEE J Biomed Health Inform"
                          :doi "<<JBHI>>"}})])
(def bib (merge bib (zipmap ["<<SWE>>" "<<AUDIT>>" "<<JBHI>>"] (map :key extra))))
(doseq [e extra] (println (:key e) "|" (:first_author e) (:year e) (:warnings e)))
''', ST=SWE_REC["title"], S1=SWE_REC["authors"][0], S2=SWE_REC["authors"][1], S3=SWE_REC["authors"][2],
    SY=SWE_REC["year"], SV=SWE_REC["venue"], SP=SWE_REC["pages"], SWE=SWE, AT=AUDIT_REC["title"],
    B1=AUDIT_REC["authors"][0], B2=AUDIT_REC["authors"][1], AY=AUDIT_REC["year"], AV=AUDIT_REC["venue"],
    AVOL=AUDIT_REC["volume"], AP=AUDIT_REC["pages"], AUDIT=AUDIT, CT=P["patel-jbhi"]["title"], JBHI=JBHI))

s.turn("The third paragraph: non-English coding and evaluation pitfalls, with the survey's sentence on leakage as the second quotation.", fill(r'''
(def para-3
  (str "Evidence outside English is thin. For Swedish, a domain-adapted BERT coded university-hospital discharge "
       "summaries on the 100 most frequent ICD-10 codes only " (cite "<<K_SWE>>") ", and the recent survey finds "
       "no retrieval-augmented system evaluated on non-English notes " (cite "<<K_SURVEY>>") ". Evaluation is a "
       "second gap. " (quoted "<<QS>>" "<<K_SURVEY>>" <<QSP>>) ". A system reported at <<CL>> micro-F1 was "
       "retracted in <<RY>> because its results had been obtained on the 50 most frequent codes only "
       (cite "<<K_CLIN>>") ". Finally, the reference standard itself is uncertain: two professional coders "
       "re-coding Swedish discharge records agreed on the principal diagnosis in 78.5% of them and on the "
       "complete set of codes in 43.1% " (cite "<<K_AUDIT>>") ". No published system both justifies its codes "
       "with retrieved evidence and has been evaluated by professional coders, the gap CODEX addresses."))
(println (words para-3) "words")
(println para-3)
''', K_SWE=K["lindqvist-lrec"], K_SURVEY=K["lindqvist-survey"], QS=Q_SURVEY[2].rstrip("."), QSP=Q_SURVEY[0],
    CL=CLIN_MICRO, RY=RETRACTION["date"][:4], K_CLIN=K["patel-jbhi"], K_AUDIT=K["berg-medinfo"]))

s.turn("Assembling the section and checking that every cited key is in the bibliography.", r'''
(def section (clojure.string/join "\n\n" [para-1 para-2 para-3]))
(def cited (set (map second (re-seq #"@([a-z0-9]+)" section))))
(assert (every? (set (vals bib)) cited) "a cited key is missing from the bibliography")
(println (count cited) "keys cited," (words section) "words")
''', "other")

s.turn("No assert here; printing the differences instead.", r'''
(def section (clojure.string/join "\n\n" [para-1 para-2 para-3]))
(def cited (set (map second (re-seq #"@([a-z0-9]+)" section))))
(println "cited:" (sort cited))
(println "cited, not in bib:" (remove (set (vals bib)) cited))
(println "in bib, not cited:" (remove cited (vals bib)))
(println (words section) "words," (count section) "characters")
''')

s.turn("All 13 cited keys are in the bibliography and the section is well under 900 words. Before submitting, every entry and the arXiv copy I took the CodeRAG numbers from go through the retraction check:", fill(r'''
(def checks (tool/retraction-check {:ids (conj (vec (keys bib)) "<<PRE>>")}))
(println (:checked checks) "checked as of" (:as_of checks))
(doseq [r (:results checks)]
  (println (format "%-11s %-38s %s" (:status r) (:id r) (or (bib (:id r)) "(arXiv copy)")))
  (doseq [n (:notices r)]
    (println "            " (:date n) (:type n) "-" (:text n))))
''', PRE=PRE))

s.turn(fill("The arXiv v1 I read is superseded: its retrieval index leaked test admissions, and the ACL version (<<ACL>>) reports <<NM>>, not <<OM>>. The published record and tables:", ACL=ACL, NM=NEW_MICRO, OM=OLD_MICRO), fill(r'''
(def coderag-acl (tool/paper-record {:id "<<ACL>>"}))
(println (:venue coderag-acl) (:year coderag-acl) "pp." (:pages coderag-acl) "|" (:versions coderag-acl))
(println (:abstract coderag-acl))
(println (map (juxt :title :page) (:sections coderag-acl)))
(def acl-tables (tool/paper-tables {:id "<<ACL>>"}))
(doseq [t (:tables acl-tables)]
  (println (:table t) "p." (:page t) "-" (:caption t))
  (doseq [r (:rows t)]
    (println "  " (clojure.string/join " | " r))))
''', ACL=ACL))

s.turn("The CodeRAG rows come from the published Table 2 now; results and gains again, printing what changed:", fill(r'''
(def old-coderag (filter #(= "<<PRE>>" (:id %)) results))
(def results
  (vec (concat (table-rows "<<ACL>>" (first (:tables acl-tables)))
               (remove #(= "<<PRE>>" (:id %)) results))))
(def gains
  (vec (for [r results :when (not (clojure.string/starts-with? (:model r) "PLM-ICD10"))]
         {:model (:model r) :id (:id r) :micro (:micro r)
          :d-micro (- (:micro r) (:micro baseline)) :d-macro (- (:macro r) (:macro baseline))
          :d-p15 (when (:p15 r) (- (:p15 r) (:p15 baseline)))})))
(doseq [o old-coderag :when (clojure.string/starts-with? (:model o) "CodeRAG")]
  (let [n (first (filter #(and (= "<<ACL>>" (:id %)) (= (:model o) (:model %))) results))]
    (println (format "%-26s micro %.1f -> %.1f  macro %.1f -> %.1f  P@15 %.1f -> %.1f" (:model o) (:micro o) (:micro n)
                     (:macro o) (:macro n) (:p15 o) (:p15 n)))))
(println "best gain over PLM-ICD10:" (format "%.1f" (apply max (map :d-micro gains))))
''', PRE=PRE, ACL=ACL))

s.turn("For the summary, the best system of each paper on the comparable table:", r'''
(def best-by-paper (map-vals #(apply max-key :micro %) (group-by :id results)))
(doseq [[id r] (sort-by (comp - :micro val) best-by-paper)]
  (println (format "%-24s %5.1f  %s" (or (bib id) id) (:micro r) (:model r))))
''', "unbound_symbol")

s.turn("No map-vals; update-vals does it.", r'''
(def best-by-paper (update-vals (group-by :id results) #(apply max-key :micro %)))
(doseq [[id r] (sort-by (comp - :micro val) best-by-paper)]
  (println (format "%-24s %5.1f %5.1f  %s" (or (bib id) id) (:micro r) (:macro r) (:model r))))
''')

s.turn(fill("CodeRAG now leads by +1.5, in line with the survey's 1-2 points after deduplication. Paragraph 2 again with the published figures, the published abstract's sentence (page <<PG>>) and the corrected key:", PG=ACL_FIRST_PAGE), fill(r'''
(def para-2
  (str "Retrieval has been applied to coding in two ways. Retrieving the three nearest training summaries for a "
       "sequence-to-sequence model raised micro-F1 from <<WF>> to <<WT>>, but only on the 50 most frequent ICD-9 codes "
       "of MIMIC-III, and the gains vanished on the full code set " (cite "<<K_WS>>") ". CodeRAG retrieves code "
       "descriptions and similar admissions for a large language model and reaches a micro-F1 of <<NM>> and a "
       "macro-F1 of <<NMA>>: " (quoted "<<QNEW>>" "<<K_ACL>>" <<PG>>) ". Using code descriptions as retrieval keys, "
       "DescRAG reaches the best macro-F1 reported on rare codes (<<DMA>>) at a lower micro-F1 (<<DM>>) "
       (cite "<<K_JAMIA>>") ", and chain-of-retrieval prompting over the ICD-10 hierarchy reaches <<CM>> "
       (cite "<<K_CHAIN>>") "."))
(println (words para-2) "words")
(println para-2)
''', WF=WS_FROM, WT=WS_TO, K_WS=K["lindquist-ws"], NM=NEW_MICRO, NMA=NEW_MACRO, QNEW=Q_NEW, K_ACL=K["nguyen-acl"],
    PG=ACL_FIRST_PAGE, DMA=DESC_MACRO, DM=DESC_MICRO, K_JAMIA=K["okafor-jamia"], CM=CHAIN_MICRO,
    K_CHAIN=K["okafor-chain"]))

s.turn("The CodeRAG bibliography entry came from the index without pages; re-entering it from the published record.", fill(r'''
(def acl-entry
  (tool/bib-add {:entry {:type "inproceedings" :title (:title coderag-acl)
                         :authors ["Nguyen, T. H." "Okafor, C." "Lindqvist, A."] :year 2024
                         :venue "<<AV>>"
                         :pages "<<AP>>" :doi "<<ACL>>"}}))
(println (:key acl-entry) (:warnings acl-entry) (= (:key acl-entry) (bib "<<ACL>>")))
''', AV=P["nguyen-acl"]["venue"], AP=P["nguyen-acl"]["pages"], ACL=ACL))

s.cut("Same key, now with pages. The section and its reference list, numbered in order of first citation:", r'''
(def section (clojure.string/join "\n\n" [para-1 para-2 para-3]))
(def order (distinct (map second (re-seq #"@([a-z0-9]+)" section))))
(def id-of (into {} (map (fn [[id k]] [k id]) bib)))
(def formatted (tool/cite-format {:ids (mapv id-of order) :style "vancouver"}))
(def references
  (mapv (fn [k r] {:key k :citation (:text r)}) order (:references formatted)))
(doseq [[i r] (map-indexed vector references)]
  (println (str (inc i) ". [" (:key r) "] " (:citation r)))
(println (words section) "words," (count section) "characters,
''')

s.turn("The answer was cut off. Again, complete:", r'''
(def section (clojure.string/join "\n\n" [para-1 para-2 para-3]))
(def order (distinct (map second (re-seq #"@([a-z0-9]+)" section))))
(def id-of (into {} (map (fn [[id k]] [k id]) bib)))
(def formatted (tool/cite-format {:ids (mapv id-of order) :style "vancouver"}))
(def references
  (mapv (fn [k r] {:key k :citation (:text r)}) order (:references formatted)))
(doseq [[i r] (map-indexed vector references)]
  (println (str (inc i) ". [" (:key r) "] " (:citation r))))
(println (words section) "words," (count section) "characters," (count references) "references")
''')

s.turn("Before submitting, a last look at the corrected values in the text:", fill(r'''
(doseq [[label s] [["published micro-F1 <<NM>>" "<<NM>>"] ["published macro-F1 <<NMA>>" "<<NMA>>"]
                   ["quote page <<PG>>" "p. <<PG>>"] ["key <<K_WS>>" "[@<<K_WS>>]"] ["retraction noted" "retracted in"]]]
  (println (format "%-30s %s" label (clojure.string/includes? section s))))
(println "bib entry for the ICD-9 paper:" (bib "<<WS>>") "| cited keys all in bib:" (every? (set (vals bib)) order))
''', NM=NEW_MICRO, NMA=NEW_MACRO, K_WS=K["lindquist-ws"], PG=ACL_FIRST_PAGE, WS=WS))

s.turn("Clean. Submitting section 2.3 with its references.", fill(r'''
(def submitted
  (tool/proposal-submit {:proposal_id "<<PID>>" :section "2.3 Related work" :text section :references references}))
(println (:ok submitted) (:submission_id submitted) "|" (:words submitted) "words," (:characters submitted) "characters,"
         (:citations submitted) "keys cited," (:references submitted) "references | saved" (:saved submitted))
(println "warnings:" (:warnings submitted))
''', PID=w.PROPOSAL_ID))

assert "27.3" in RARE_SNIP and "(12.1)" in RARE_SNIP
SUB_ID = t.submission_id(w.PROPOSAL_ID, "2.3 Related work", 1 + t.crc(w.PROPOSAL_ID, "2.3 Related work") % 5)
CLIN_TITLE = P["patel-jbhi"]["title"]

s.turn("Saved without warnings. The summary of the review.", fill(r'''
(return
  {:proposal "<<PID>>" :section "2.3 Related work" :submission "<<SUB>>"
   :words (:words submitted) :characters (:characters submitted)
   :citation-keys (vec order)
   :headline-results
   {:dataset "MIMIC-IV ICD-10, full code set, test split"
    :plm-icd10 {:key "<<K_JBI>>" :micro-f1 <<BM>> :macro-f1 <<BMA>> :p15 <<BP>>}
    :coderag {:key "<<K_ACL>>" :doi "<<ACL>>" :micro-f1 <<NM>> :macro-f1 <<NMA>> :table "Table 2" :page <<TP>>}
    :descrag {:key "<<K_JAMIA>>" :micro-f1 <<DM>> :macro-f1 <<DMA>>}
    :chain-of-retrieval {:key "<<K_CHAIN>>" :micro-f1 <<CM>>}
    :laat-replicated {:key "<<K_LAAT>>" :micro-f1 <<LM>>}
    :gpt4-zero-shot {:key "<<K_EMNLP>>" :micro-f1 <<G4>>}}
   :rare-codes {:key "<<K_JAMIA>>" :page <<RP>> :descrag-micro-f1 <<R1>> :plm-icd10-micro-f1 <<R2>>}
   :not-comparable [{:key "<<K_WS>>" :dataset "<<WSCAP>>" :micro-f1 <<WT>>}]
   :excluded [{:doi "<<JBHI>>" :title "<<CT>>" :status "retracted <<RD>>" :notice "<<ND>>" :cited-as "<<K_CLIN>>"}]
   :corrections ["CodeRAG figures and quotation from the ACL 2024 version; arXiv <<PRE>> is superseded (its retrieval index held test admissions)"
                 "<<WS>>: first author Lindquist, A. (Karolinska Institutet), not Lindqvist, A. (Uppsala University)"]
   :groups [{:name "Lindqvist, Ana" :orcid "<<O1>>" :org "<<G1>>"}
            {:name "Lindquist, Anna" :orcid "<<O2>>" :org "<<G2>>"}
            {:name "Nguyen, Thanh Hai" :orcid "<<O3>>" :org "<<G3>>"}]})
''', PID=w.PROPOSAL_ID, SUB=SUB_ID, K_JBI=K["haddad-jbi"], BM=BASE_MICRO, BMA=BASE_MACRO, BP=BASE_P15,
    K_ACL=K["nguyen-acl"], ACL=ACL, NM=NEW_MICRO, NMA=NEW_MACRO, TP=w.TABLES["nguyen-acl"][0]["page"],
    K_JAMIA=K["okafor-jamia"], DM=DESC_MICRO, DMA=DESC_MACRO, K_CHAIN=K["okafor-chain"], CM=CHAIN_MICRO,
    K_LAAT=K["kowalczyk-lrec"], LM=LAAT_MICRO, K_EMNLP=K["ferreira-findings"], G4=GPT4, JBHI=JBHI, CT=CLIN_TITLE,
    RP=w.TEXT["okafor-jamia"][0][0], R1="27.3", R2="12.1", K_WS=K["lindquist-ws"],
    WSCAP=w.TABLES["lindquist-ws"][0]["caption"], WT=WS_TO, ND=RETRACTION["notice_doi"],
    RD=RETRACTION["date"], K_CLIN=K["patel-jbhi"], PRE=PRE, WS=WS, O1=ANA["orcid"], G1=ANA["affiliations"][0]["org"],
    O2=ANNA["orcid"], G2=ANNA["affiliations"][0]["org"], O3=HAI["orcid"], G3=HAI["affiliations"][0]["org"]), "return")

if __name__ == "__main__":
    s.write(__file__)
