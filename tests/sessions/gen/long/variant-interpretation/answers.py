#!/usr/bin/env python3
"""The model answers of the variant-interpretation session.
Variant keys, HGVS strings, transcripts, rs ids, ClinVar accessions, PMIDs,
frequencies, scores, points, case ids and the report id the agent reuses are
taken from world.py (and tool.py's results), as the model takes them from the
prints of earlier turns. Two corrections, each after the old value was
printed and used: the familial PALB2 variant is first keyed from the aunt's
2016 outside report as 16-23632683-C-T (`familial-key`), whose gnomAD record
(a common intronic SNP, AF 0.0232) makes it look too common (`familial-af`,
`familial-bs1`) and not carried; once the proband's own PALB2 call turns out
to be the same c.3113G>A 11,321 bp away and the report's footer says
GRCh37, the key is lifted over and redefined (16-23621362-C-T, AF 5.61E-6).
The ATM call is first described on the first transcript gx-annotate lists
(`atm-hgvs` NM_001351834.2:c.1897C>T p.Gln633Ter, stop_gained, PVS1:
`atm-class` Likely pathogenic); the lab's prior case HC23-0211 shows it on
the MANE Select NM_000051.4 as c.1803-318C>T, deep intronic, and both are
redefined (Likely benign, 3 criteria, -1 point). Later programs write only
the corrected values."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # gen/long/
sys.path.append(HERE)
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()


def jd(x):
    """A float as the runtime prints it (Java's Double.toString)."""
    if x != 0 and abs(x) < 1e-3:
        m, e = ("%e" % x).split("e")
        return "%sE%d" % (m.rstrip("0").rstrip("."), int(e))
    return repr(x)


# --- what the agent sees, mirrored to write the literals it copies -------------------------

CALL = {c[0]: c for c in w.CALLS}
PALB2, BRCA2, CHEK2, ATM = w.PALB2_KEY, w.BRCA2_KEY, w.CHEK2_KEY, w.ATM_KEY
ARTIFACT = w.BRCA2_ARTIFACT
PMS2_FILTERED = "7-5982885-T-C"
OLD_FREQ = t.popfreq({"variant": w.PALB2_HG19})
FREQ = {k: t.popfreq({"variant": k}) for k in w.CANDIDATES}
LIFT = t.liftover({"variant": w.PALB2_HG19})
ANN = {k: t.annotate({"variant": k}) for k in w.CANDIDATES}
ATM_FIRST = ANN[ATM]["transcripts"][0]
ATM_MANE = [x for x in ANN[ATM]["transcripts"] if x["mane_select"]][0]
ATM_OLD_HGVS = ATM_FIRST["transcript"] + ":" + ATM_FIRST["hgvs_c"]
ATM_HGVS = ATM_MANE["transcript"] + ":" + ATM_MANE["hgvs_c"]
PALB2_TX = w.MANE["PALB2"]
BRCA2_TX = w.MANE["BRCA2"]
CHEK2_TX = w.MANE["CHEK2"]
PALB2_C, PALB2_P = w.MANE_ANN[PALB2][0], w.MANE_ANN[PALB2][1]
BRCA2_C, BRCA2_P = w.MANE_ANN[BRCA2][0], w.MANE_ANN[BRCA2][1]
CHEK2_C, CHEK2_P = w.MANE_ANN[CHEK2][0], w.MANE_ANN[CHEK2][1]
CHEK2_ALT = w.ALT_TX[CHEK2][0]
CV = {r["gene"] + ":" + r["rsid"]: r for r in w.CLINVAR}
VCV_PALB2 = CV["PALB2:rs180177132"]["accession"]
VCV_BRCA2 = CV["BRCA2:rs80359065"]["accession"]
VCV_NEIGH = CV["BRCA2:rs80359064"]["accession"]
VCV_CHEK2 = CV["CHEK2:rs77130927"]["accession"]
LIT = {r["first_author"]: r for r in w.LITERATURE}
PM_CASECTRL = LIT["Halvorsen K"]["pmid"]
PM_NMD = LIT["Whitcombe A"]["pmid"]
PM_RISK = LIT["Yamada R"]["pmid"]
PM_HDR = LIT["Brennan T"]["pmid"]
PM_CHEK2_FN = LIT["Delacroix P"]["pmid"]
PM_CHEK2_CC = LIT["Lahtinen S"]["pmid"]
PM_POISON = LIT["Sundqvist E"]["pmid"]
REVEL_B2 = w.INSILICO[BRCA2][0]
REVEL_C2 = w.INSILICO[CHEK2][0]
SAI_ATM = max(w.INSILICO[ATM][1])
PHYLOP_ATM = w.INSILICO[ATM][3]
PRIOR = {p["variant"]: p for p in w.PRIOR}
P_PALB2 = ["PVS1", "PS4_Moderate", "PM2_Supporting"]
P_BRCA2 = ["PM2_Supporting", "PP3_Moderate", "PM5"]
P_CHEK2 = ["BS3_Supporting", "BP4"]
P_ATM_OLD = ["PVS1", "PM2_Supporting"]
P_ATM = ["PM2_Supporting", "BP4", "BP7"]
A_PALB2 = t.acmg({"variant": PALB2, "criteria": P_PALB2})
A_BRCA2 = t.acmg({"variant": BRCA2, "criteria": P_BRCA2})
A_CHEK2 = t.acmg({"variant": CHEK2, "criteria": P_CHEK2})
A_ATM_OLD = t.acmg({"variant": ATM, "criteria": P_ATM_OLD})
A_ATM = t.acmg({"variant": ATM, "criteria": P_ATM})
assert A_ATM_OLD["classification"] == "Likely pathogenic" and A_ATM["classification"] == "Likely benign"
COMMON = [c for c in w.CALLS if c[8] == "PASS" and c[0] not in w.CANDIDATES]
REPORT = t.submit_report({"case_id": w.CASE_ID, "sample_id": w.SAMPLE_ID, "summary": "x", "variants": []})
PMS2_COV = w.COVERAGE["PMS2"][2][0].split(" (")[0]
CHEK2_COV = w.COVERAGE["CHEK2"][2][0].split(" (")[0]
F = dict(PALB2=PALB2, BRCA2=BRCA2, CHEK2=CHEK2, ATM=ATM, ART=ARTIFACT, PMS2F=PMS2_FILTERED,
         PALB2_TX=PALB2_TX, BRCA2_TX=BRCA2_TX, CHEK2_TX=CHEK2_TX, PALB2_C=PALB2_C, PALB2_P=PALB2_P,
         BRCA2_C=BRCA2_C, BRCA2_P=BRCA2_P, CHEK2_C=CHEK2_C, CHEK2_P=CHEK2_P, ATM_HGVS=ATM_HGVS,
         ATM_TX=ATM_MANE["transcript"], ATM_C=ATM_MANE["hgvs_c"],
         VCV_PALB2=VCV_PALB2, VCV_BRCA2=VCV_BRCA2, VCV_NEIGH=VCV_NEIGH, VCV_CHEK2=VCV_CHEK2,
         RS_PALB2=CALL[PALB2][2], RS_BRCA2=CALL[BRCA2][2], RS_CHEK2=CALL[CHEK2][2], RS_ATM=CALL[ATM][2],
         AF_PALB2=jd(FREQ[PALB2]["af"]), FAF_PALB2=jd(FREQ[PALB2]["faf95_popmax"]),
         AF_ATM=jd(FREQ[ATM]["af"]), FAF_ATM=jd(FREQ[ATM]["faf95_popmax"]),
         AF_CHEK2=jd(FREQ[CHEK2]["af"]), FAF_CHEK2=jd(FREQ[CHEK2]["faf95_popmax"]),
         REVEL_B2=REVEL_B2, REVEL_C2=REVEL_C2, SAI_ATM=SAI_ATM, PHYLOP_ATM=PHYLOP_ATM,
         PM_CASECTRL=PM_CASECTRL, PM_NMD=PM_NMD, PM_RISK=PM_RISK, PM_HDR=PM_HDR, PM_CHEK2_FN=PM_CHEK2_FN,
         PM_CHEK2_CC=PM_CHEK2_CC, PM_POISON=PM_POISON,
         P_PALB2=A_PALB2["total_points"], P_BRCA2=A_BRCA2["total_points"], P_CHEK2=A_CHEK2["total_points"],
         P_ATM=A_ATM["total_points"],
         PRIOR_ATM=PRIOR[ATM]["case_id"], PRIOR_CHEK2=PRIOR[CHEK2]["case_id"], PRIOR_PALB2=PRIOR[PALB2]["case_id"],
         PRIOR_BRCA2=PRIOR[BRCA2]["case_id"], PRIOR_PMS2=PRIOR[PMS2_FILTERED]["case_id"],
         CASE=w.CASE_ID, SAMPLE=w.SAMPLE_ID, RID=REPORT["report_id"], OUTSIDE="NG16-04471",
         PMS2_COV=PMS2_COV, CHEK2_COV=CHEK2_COV, PMS2_C=w.MANE_ANN[PMS2_FILTERED][0],
         HDR=LIT["Brennan T"]["finding"].split("HDR ")[1].split(" of")[0],
         HG19=w.PALB2_HG19, HG19POS=w.PALB2_HG19_POS,
         REV_PALB2=CV["PALB2:rs180177132"]["review_status"], REV_BRCA2=CV["BRCA2:rs80359065"]["review_status"],
         AC_PALB2=FREQ[PALB2]["ac"], POP_PALB2=FREQ[PALB2]["popmax_population"],
         SAI_PALB2=max(w.INSILICO[PALB2][1]), CADD_PALB2=w.INSILICO[PALB2][2], PHY_PALB2=w.INSILICO[PALB2][3],
         AM_B2=w.INSILICO[BRCA2][4], SAI_B2=max(w.INSILICO[BRCA2][1]), CADD_B2=w.INSILICO[BRCA2][2],
         PHY_B2=w.INSILICO[BRCA2][3], PM_SEG=LIT["Ostrowska M"]["pmid"], PM_FERR=LIT["Ferreira L"]["pmid"])


def f(code, **kw):
    return fill(code, **dict(F, **kw))


# --- the session -------------------------------------------------------------------------

s.turn("I'll start with the case: the request, the lab's SOP for this panel and the documents on file.", r'''
(def case-info data/case)
(println (:case_id case-info) "|" (:sample_id case-info) "|" (:panel case-info) "| received" (:received case-info) "due" (:due case-info))
(println "proband:" (:proband case-info))
(println "question:" (:question case-info))
(println "genes:" (str/join " " (:panel_genes case-info)))
(doseq [[i rule] (map-indexed vector (:sop case-info))]
  (println (str (inc i) ".") rule))
(println "BS1 popmax FAF95 thresholds:" (:bs1_popmax_faf case-info))
(def docs (tool/gx-case-docs {}))
(doseq [d (:documents docs)]
  (println (:doc_id d) (:date d) (:title d) (str "(" (:chars d) " chars)")))
''')

s.turn("The question is whether she carries the family's variant. The referral letter and the aunt's 2016 outside report:", r'''
(def referral (tool/gx-case-docs {:doc_id "DOC-1"}))
(println (:text referral))
(def outside (tool/gx-case-docs {:doc_id "DOC-3"}))
(println (:text outside))
''')

s.turn(f("The aunt carries PALB2 <<PALB2_C>>, p.(Trp1038*), at chr16:<<HG19POS>> C>T. As a variant key, next to the proband's calls:"), f(r'''
(def familial {:gene "PALB2" :hgvs "<<PALB2_C>>" :protein "<<PALB2_P>>" :source "Northfield Genomics <<OUTSIDE>> (2016)"})
(def familial-key "<<HG19>>")
(println "familial variant:" familial "| key" familial-key)
(def vcf (tool/gx-vcf {:sample_id "<<SAMPLE>>"}))
(println (:sample_id vcf) (:reference vcf) "|" (:pipeline vcf))
(println "QC:" (:qc vcf))
(println (count (:calls vcf)) "calls")
(println (format "%-18s %-6s %-12s %-4s %4s %-8s %6s %3s %s" "key" "gene" "rsid" "gt" "dp" "ad" "vaf" "gq" "filter"))
(doseq [c (:calls vcf)]
  (println (format "%-18s %-6s %-12s %-4s %4d %-8s %6.3f %3d %s" (:key c) (:gene c) (or (:rsid c) "-") (:gt c)
                   (:dp c) (:ad c) (:vaf c) (:gq c) (:filter c))))
'''))

s.turn("22 calls, two of them filtered. The coverage per gene and the filtered calls in full:", r'''
(println "coverage (mean depth, % of bases >= 20x):")
(doseq [g (:coverage vcf)]
  (println (format "  %-7s %4d %6.1f%%" (:gene g) (:mean_depth g) (:pct_20x g)) (str/join "; " (:low_regions g))))
(def pass-calls (filterv #(= "PASS" (:filter %)) (:calls vcf)))
(def filtered (filterv #(not= "PASS" (:filter %)) (:calls vcf)))
(println (count pass-calls) "PASS," (count filtered) "filtered:")
(doseq [c filtered]
  (prn (select-keys c [:key :gene :rsid :gt :dp :ad :vaf :gq :qual :filter])))
''')

s.turn("Coverage is fine apart from the known PMS2 and CHEK2 pseudogene regions. Before the proband's calls, the familial variant itself: its frequency in gnomAD.", r'''
(def familial-freq (tool/gx-popfreq {:variant familial-key}))
(println (:variant familial-freq) (:gene familial-freq) "found:" (:found familial-freq) "| AF" (:af familial-freq)
         "AC" (:ac familial-freq) "AN" (:an familial-freq) "hom" (:homozygotes familial-freq)
         "| popmax FAF95" (:faf95_popmax familial-freq) (:popmax_population familial-freq))
(doseq [p (:populations familial-freq)]
  (println (format "  %-9s %7d %8d %.5f %5d" (:population p) (:ac p) (:an p) (:af p) (:homozygotes p))))
(def familial-af (:af familial-freq))
''')

s.turn(fill("AF <<AF>> with <<HOM>> homozygotes, popmax FAF95 <<FAF>> (<<POP>>): far above PALB2's BS1 threshold of 0.0005, which would make it too common for a high-penetrance allele; the 2016 class 5 may be outdated. Does the proband carry it, and which of her calls are rare?",
           AF=jd(OLD_FREQ["af"]), HOM=OLD_FREQ["homozygotes"], FAF=jd(OLD_FREQ["faf95_popmax"]),
           POP=OLD_FREQ["popmax_population"]), r'''
(def familial-bs1 (> (:faf95_popmax familial-freq) (get-in case-info [:bs1_popmax_faf :PALB2])))
(println "familial variant: AF" familial-af "BS1" familial-bs1 "| carried by the proband:"
         (boolean (some #(= familial-key (:key %)) pass-calls)))
(def freqs (into {} (pmap (fn [c] [(:key c) (tool/gx-popfreq {:variant (:key c)})]) pass-calls)))
(println (format "%-18s %-6s %-12s %10s %7s %10s %s" "key" "gene" "rsid" "AF" "hom" "FAF95" "popmax"))
(doseq [c (sort-by #(or (:af (freqs (:key %))) 0) pass-calls)]
  (let [fr (freqs (:key c))]
    (println (format "%-18s %-6s %-12s %10s %7s %10s %s" (:key c) (:gene c) (or (:rsid c) "-")
                     (if (:found fr) (str (:af fr)) "absent") (or (:homozygotes fr) "-") (or (:faf95_popmax fr) "-")
                     (or (:popmax_population fr) "-")))))
''')

s.turn(f("She does not carry the aunt's key, but four of her calls are rare: <<BRCA2>> (absent), <<ATM>>, <<PALB2>> and <<CHEK2>>. Annotating them:"), f(r'''
(def rare (filterv #(let [fr (freqs (:key %))] (or (not (:found fr)) (< (:af fr) 0.001))) pass-calls))
(def ann (into {} (pmap (fn [c] [(:key c) (tool/gx-annotate {:variant (:key c)})]) rare)))
(doseq [c rare]
  (let [tx (first (:transcripts (ann (:key c))))]
    (println (format "%-18s %-6s %-15s %-10s %-13s %-17s %s" (:key c) (:gene c) (:transcript tx) (:hgvs_c tx)
                     (or (:hgvs_p tx) "-") (:consequence tx) (:exon tx)))))
(def atm-hgvs (let [tx (first (:transcripts (ann "<<ATM>>")))] (str (:transcript tx) ":" (:hgvs_c tx))))
(def atm-protein (:hgvs_p (first (:transcripts (ann "<<ATM>>")))))
(println "ATM:" atm-hgvs atm-protein)
'''))

s.turn(f("Her rare PALB2 call is <<PALB2_TX>>:<<PALB2_C>> <<PALB2_P>>, the aunt's HGVS exactly, at 16-23621362, which is 11,321 bp from the report's 23632683. The report's methods footer says GRCh37/hg19: the key I built is in the wrong build, so the frequency record I read belongs to whatever sits at that GRCh38 position. Lifting it over:"), r'''
(def lift (tool/gx-liftover {:variant familial-key :from "GRCh37" :to "GRCh38"}))
(println lift)
(println "the record I used:" (:variant familial-freq) (:gene familial-freq) (:hgvs familial-freq) (:consequence familial-freq) (:rsid familial-freq))
(def familial-key-grch37 familial-key)
(def familial-key (:lifted lift))
(def familial-freq (tool/gx-popfreq {:variant familial-key}))
(def familial-af (:af familial-freq))
(def familial-bs1 (> (:faf95_popmax familial-freq) (get-in case-info [:bs1_popmax_faf :PALB2])))
(println "familial key" familial-key-grch37 "(GRCh37) ->" familial-key "(GRCh38) | AF" familial-af "AC" (:ac familial-freq)
         "AN" (:an familial-freq) "| popmax FAF95" (:faf95_popmax familial-freq) (:popmax_population familial-freq) "| BS1" familial-bs1)
(println "carried by the proband:" (boolean (some #(= familial-key (:key %)) pass-calls)))
''')

s.turn(f("Corrected: the familial variant is <<PALB2>>, AF <<AF_PALB2>>, and she carries it; the 2% record was an intronic SNP. Before interpreting, the allele balance of the four rare calls and of the filtered call right next to the BRCA2 one:"), f(r'''
(defn allele-balance [c]
  (let [[ref-n alt-n] (str/split (:ad c) #",")]
    (/ alt-n (+ ref-n alt-n))))
(doseq [c (conj rare (first (filter #(= "<<ART>>" (:key %)) filtered)))]
  (println (:key c) (:gene c) (:gt c) "AD" (:ad c) "AB" (allele-balance c) (:filter c)))
'''), "type")

s.turn("AD is a string; the counts need parsing.", f(r'''
(defn allele-balance [c]
  (let [[ref-n alt-n] (map parse-long (str/split (:ad c) #","))]
    (/ (double alt-n) (+ ref-n alt-n))))
(def artifact (first (filter #(= "<<ART>>" (:key %)) filtered)))
(doseq [c (conj rare artifact)]
  (println (format "%-18s %-6s %-4s AD %-7s AB %.3f DP %3d GQ %2d %s" (:key c) (:gene c) (:gt c) (:ad c)
                   (allele-balance c) (:dp c) (:gq c) (:filter c))))
'''))

s.turn(f("The four rare calls are clean heterozygotes (AB 0.44-0.49); <<ART>> is one read of 18 with strand bias, an artifact, and stays out. The PMS2 filtered call sits in the pseudogene region; what the lab knows of it:"), f(r'''
(def pms2-prior (tool/gx-prior-cases {:variants ["<<PMS2F>>"]}))
(doseq [p (:cases pms2-prior)] (prn p))
(def pms2-ann (tool/gx-annotate {:variant "<<PMS2F>>"}))
(doseq [tx (:transcripts pms2-ann)]
  (println (:transcript tx) (:mane_select tx) (:hgvs_c tx) (:consequence tx) (:exon tx) "-" (or (:note tx) "")))
'''))

s.turn(f("<<PRIOR_PMS2>> found the same PMS2 call to be a PMS2CL artifact; it goes into the limitations, not the results. Gene-disease validity for the genes of the rare calls:"), r'''
(def validity (tool/gx-gene-validity {:genes ["PALB2" "BRCA2" "ATM" "CHEK2"]}))
(doseq [c (:curations validity)]
  (println (format "%-6s %-46s %-14s %-11s %-3s %s" (:gene c) (:disease c) (:mondo c) (:classification c) (:moi c) (:approved c))))
''')

s.turn("All four are definitive for hereditary breast cancer (AD). PALB2 first, ClinVar:", r'''
(def cv-palb2 (tool/gx-clinvar {:variant familial-key}))
(doseq [r (:records cv-palb2)]
  (println (:accession r) (:name r) (:rsid r) "|" (:classification r) "|" (:review_status r) (str "(" (:stars r) " stars)")
           "last evaluated" (:last_evaluated r))
  (println "   conditions:" (str/join "; " (:conditions r)))
  (doseq [sub (:submissions r)]
    (println "   " (:scv sub) (:date sub) (format "%-42s %-11s %-12s" (:submitter sub) (:classification sub) (:transcript sub))
             (or (:comment sub) ""))))
''')

s.turn(f("<<VCV_PALB2>>: Pathogenic, reviewed by the ClinGen expert panel (PVS1, PS4_Moderate, PM2_Supporting); the two older submissions, the aunt's lab among them, cite <<OLD_TX>>. The literature:", OLD_TX="NM_024675.3"), r'''
(def lit-palb2 (tool/gx-literature {:query "PALB2 c.3113G>A Trp1038Ter"}))
(println (:total lit-palb2) "hits")
(doseq [h (:hits lit-palb2)]
  (println (str "PMID " (:pmid h)) (:first_author h) (:year h) (:journal h) (str "[" (:evidence h) "]"))
  (println "   " (:title h))
  (println "   " (:finding h)))
''')

s.turn(f("Case-control OR 4.69 (PMID <<PM_CASECTRL>>), NMD shown in patient cells (PMID <<PM_NMD>>). In-silico scores for the four rare calls:"), r'''
(def insilico (tool/gx-insilico {:variants (mapv :key rare) :predictors ["revel" "spliceai" "cadd" "phylop"]}))
(println (:scores insilico))
''', "tool")

s.turn(f("REVEL only for the missense calls (<<BRCA2>>, <<CHEK2>>); SpliceAI, CADD and phyloP for all four:"), f(r'''
(def missense-keys ["<<BRCA2>>" "<<CHEK2>>"])
(def insilico (concat (:scores (tool/gx-insilico {:variants missense-keys :predictors ["revel" "alphamissense"]}))
                      (:scores (tool/gx-insilico {:variants (mapv :key rare) :predictors ["spliceai" "cadd" "phylop"]}))))
(def scores (reduce (fn [m sc] (update m (:variant sc) merge sc)) {} insilico))
(println (format "%-18s %-6s %6s %6s %5s %-14s %4s %5s %6s" "variant" "gene" "REVEL" "AM" "SAI" "event" "pos" "CADD" "phyloP"))
(doseq [c rare]
  (let [sc (scores (:key c)) sai (:spliceai sc)]
    (println (format "%-18s %-6s %6s %6s %5.2f %-14s %4d %5.1f %6.2f" (:key c) (:gene c) (or (:revel sc) "-")
                     (or (:alphamissense sc) "-") (:max sai) (or (:max_event sai) "-") (:position sai)
                     (:cadd_phred sc) (:phylop100way sc)))))
'''))

s.turn(f("PALB2: PVS1 (stop in exon 8 of 13, NMD), PS4_Moderate (38 cases vs 7 controls), PM2_Supporting (FAF95 <<FAF_PALB2>>), and the expert panel's Pathogenic as PP5:"), f(r'''
(def acmg-palb2 (tool/gx-acmg {:variant "<<PALB2>>" :criteria ["PVS1" "PS4_Moderate" "PM2_Supporting" "PP5"]}))
(println acmg-palb2)
'''), "tool")

s.turn("PP5 is retired here; the expert panel's evidence is already counted through PVS1 and PS4. Without it:", f(r'''
(def acmg-palb2 (tool/gx-acmg {:variant "<<PALB2>>" :criteria ["PVS1" "PS4_Moderate" "PM2_Supporting"]}))
(doseq [c (:criteria acmg-palb2)]
  (println "  " (:code c) (:strength c) (:points c)))
(println (:variant acmg-palb2) "->" (:total_points acmg-palb2) "points:" (:classification acmg-palb2) "|" (:scheme acmg-palb2))
(def palb2-call {:gene "PALB2" :variant "<<PALB2>>" :transcript "<<PALB2_TX>>" :hgvs_c "<<PALB2_C>>" :hgvs_p "<<PALB2_P>>"
                 :classification (:classification acmg-palb2) :points (:total_points acmg-palb2)
                 :criteria (mapv :code (:criteria acmg-palb2)) :clinvar "<<VCV_PALB2>>" :rsid "<<RS_PALB2>>"})
(println palb2-call)
'''))

s.turn(f("PALB2 is Pathogenic, <<P_PALB2>> points. ATM next, which the annotation gave as <<OLD>> <<OLDP>> (stop_gained). ClinVar and the literature:",
         OLD=ATM_OLD_HGVS, OLDP=ATM_FIRST["hgvs_p"]), f(r'''
(def cv-atm (tool/gx-clinvar {:variant "<<ATM>>"}))
(println "ClinVar records for <<ATM>>:" (:count cv-atm) "(" (:release cv-atm) ")")
(def lit-atm (tool/gx-literature {:query "ATM truncating breast <<OLD_C>> <<OLDP>>"}))
(println (:total lit-atm) "hits")
(doseq [h (:hits lit-atm)]
  (println (str "PMID " (:pmid h)) (:first_author h) (:year h) (:journal h) (str "[" (:evidence h) "]") (:title h))
  (println "   " (:finding h)))
''', OLD_C=ATM_FIRST["hgvs_c"], OLDP=ATM_FIRST["hgvs_p"]))

s.turn(f("No ClinVar record and no variant-level data; ATM truncating variants carry a breast cancer OR of 2.10. PVS1 for the stop codon and PM2_Supporting (FAF95 <<FAF_ATM>>):"), f(r'''
(def acmg-atm (tool/gx-acmg {:variant "<<ATM>>" :criteria ["PVS1" "PM2_Supporting"]}))
(def atm-class (:classification acmg-atm))
(def atm-call {:gene "ATM" :variant "<<ATM>>" :hgvs atm-hgvs :hgvs_p atm-protein :classification atm-class
               :points (:total_points acmg-atm) :criteria (mapv :code (:criteria acmg-atm)) :rsid "<<RS_ATM>>"})
(println (mapv (juxt :code :points) (:criteria acmg-atm)) "->" (:total_points acmg-atm) atm-class)
(println atm-call)
'''))

s.turn(f("BRCA2 <<BRCA2_C>> (<<BRCA2_P>>), <<RS_BRCA2>>: ClinVar, searched by codon to see the neighbours too:"), r'''
(def cv-brca2 (tool/gx-clinvar {:query "BRCA2 p.Arg2784"}))
(println (:count cv-brca2) "records")
(doseq [r (:records cv-brca2)]
  (println (:accession r) (:name r) (:rsid r) (:variant_grch38 r) "|" (:classification r) "|" (:review_status r) (:last_evaluated r))
  (doseq [sub (:submissions r)]
    (println "   " (:scv sub) (:date sub) (format "%-45s %-24s %-12s" (:submitter sub) (:classification sub) (:transcript sub))
             (or (:comment sub) ""))))
''')

s.turn(f("Three records at codon 2784: ours (<<VCV_BRCA2>>, <<RS_BRCA2>>, conflicting), <<NEIGH_C>> (<<VCV_NEIGH>>, rs80359064, Pathogenic by the ENIGMA panel) one base before it, and the synonymous c.8352G>T at the position of the filtered artifact. The older submissions use <<OLD_TX>>. The literature on ours:",
         NEIGH_C="c.8350C>T p.Arg2784Trp", OLD_TX="NM_000059.3"), r'''
(def lit-brca2 (tool/gx-literature {:query "BRCA2 c.8351G>A p.Arg2784Gln"}))
(doseq [h (:hits lit-brca2)]
  (println (str "PMID " (:pmid h)) (:first_author h) (:year h) (:journal h) (str "[" (:evidence h) "]"))
  (println "   " (:title h))
  (println "   " (:finding h)))
''')

s.turn(f("HDR <<HDR>> of wild type is intermediate: neither PS3 nor BS3. PM2_Supporting (absent from gnomAD), PP3_Moderate (REVEL <<REVEL_B2>> >= 0.773) and PM5 (p.Arg2784Trp, <<VCV_NEIGH>>, pathogenic):"), f(r'''
(def acmg-brca2 (tool/gx-acmg {:variant "<<BRCA2>>" :criteria ["PM2_Supporting" "PP3_Moderate" "PM5"]}))
(println (:variant acmg-brca2) (mapv (juxt :code :points) (:criteria acmg-brca2)) "->" (:total_points acmg-brca2) (:classification acmg-brca2))
(def brca2-call {:gene "BRCA2" :variant "<<BRCA2>>" :transcript "<<BRCA2_TX>>" :hgvs_c "<<BRCA2_C>>" :hgvs_p "<<BRCA2_P>>"
                 :classification (:classification acmg-brca2) :points (:total_points acmg-brca2)
                 :criteria (mapv :code (:criteria acmg-brca2)) :clinvar "<<VCV_BRCA2>>" :rsid "<<RS_BRCA2>>"})
(println brca2-call)
'''))

s.turn(f("BRCA2 stays a VUS (<<P_BRCA2>> points). CHEK2 <<CHEK2_C>> (<<CHEK2_P>>): ClinVar and the literature.", ), f(r'''
(def cv-chek2 (tool/gx-clinvar {:variant "<<CHEK2>>"}))
(doseq [r (:records cv-chek2)]
  (println (:accession r) (:name r) (:rsid r) "|" (:classification r) "|" (:review_status r) (:last_evaluated r))
  (doseq [sub (:submissions r)]
    (println "   " (:scv sub) (:date sub) (format "%-45s %-24s %-15s" (:submitter sub) (:classification sub) (:transcript sub))
             (or (:comment sub) ""))))
(def lit-chek2 (tool/gx-literature {:query "CHEK2 c.538C>T p.Arg180Cys"}))
(doseq [h (:hits lit-chek2)]
  (println (str "PMID " (:pmid h)) (:first_author h) (:year h) (str "[" (:evidence h) "]") (:title h))
  (println "   " (:finding h)))
'''))

s.turn(f("One submitter describes it as <<ALT_C>> on <<ALT_TX>>, the same variant on the longer transcript. Our own 2022 submission says VUS. The population data and the criteria: REVEL <<REVEL_C2>> <= 0.290 is BP4, normal kinase activity is BS3_Supporting (PMID <<PM_CHEK2_FN>>).",
         ALT_C=CHEK2_ALT[1], ALT_TX=CHEK2_ALT[0]), f(r'''
(let [fr (freqs "<<CHEK2>>")]
  (println "CHEK2 AF" (:af fr) "AC" (:ac fr) "| popmax FAF95" (:faf95_popmax fr) (:popmax_population fr)
           "| BS1 threshold" (get-in case-info [:bs1_popmax_faf :CHEK2]))
  (doseq [p (filter #(pos? (:ac %)) (:populations fr))]
    (println (format "  %-9s %4d / %7d  %.6f" (:population p) (:ac p) (:an p) (:af p)))))
(def acmg-chek2 (tool/gx-acmg {:variant "<<CHEK2>>" :criteria ["BS3_Supporting" "BP4"]}))
(println (:variant acmg-chek2) (mapv (juxt :code :points) (:criteria acmg-chek2)) "->" (:total_points acmg-chek2) (:classification acmg-chek2))
(def chek2-call {:gene "CHEK2" :variant "<<CHEK2>>" :transcript "<<CHEK2_TX>>" :hgvs_c "<<CHEK2_C>>" :hgvs_p "<<CHEK2_P>>"
                 :classification (:classification acmg-chek2) :points (:total_points acmg-chek2)
                 :criteria (mapv :code (:criteria acmg-chek2)) :clinvar "<<VCV_CHEK2>>" :rsid "<<RS_CHEK2>>"})
(println chek2-call)
'''))

s.turn("Too common for PM2_Supporting, below CHEK2's BS1 threshold; likely benign. The SOP asks for the lab's prior cases of every classified variant:", r'''
(def prior (tool/gx-prior-cases {:variants (mapv :key rare)}))
(doseq [p (:cases prior)]
  (println (format "%-9s %s %-18s %-6s %-12s %-14s %-13s %-22s %s" (:case_id p) (:date p) (:variant p) (:gene p)
                   (:transcript p) (:hgvs p) (or (:protein p) "-") (:classification p) (:note p))))
(def current {(:variant palb2-call) (:classification palb2-call) (:variant brca2-call) (:classification brca2-call)
              (:variant chek2-call) (:classification chek2-call) (:variant atm-call) atm-class})
(doseq [p (:cases prior)]
  (println (:case_id p) (:gene p) (:classification p) "->" (current (:variant p))
           (if (= (:classification p) (current (:variant p))) "concordant" "DISCORDANT")))
''')

s.turn(f("Two discordant. CHEK2 (<<PRIOR_CHEK2>>, 2022) predates the functional and case-control data: a genuine reclassification to flag. ATM is different: <<PRIOR_ATM>> has the same key as <<ATM_C>> on <<ATM_TX>>, deep intronic. Every transcript of the ATM annotation, and what the literature says about the extra exon:"), f(r'''
(doseq [tx (:transcripts (ann "<<ATM>>"))]
  (println (format "%-15s MANE %-5s %-14s %-12s %-15s %-13s" (:transcript tx) (:mane_select tx) (:hgvs_c tx) (or (:hgvs_p tx) "-")
                   (:consequence tx) (:exon tx)) (or (:note tx) "")))
(println "first transcript is MANE Select:" (into {} (map (fn [[k a]] [k (:mane_select (first (:transcripts a)))]) ann)))
(def lit-atm-exon (tool/gx-literature {:query "ATM intron 12 <<OLD_TX>> poison exon"}))
(doseq [h (:hits lit-atm-exon)]
  (println (str "PMID " (:pmid h)) (:first_author h) (:year h) (str "[" (:evidence h) "]") (:title h))
  (println "   " (:finding h)))
''', OLD_TX=ATM_FIRST["transcript"]))

s.turn(f("I took the first transcript, and gx-annotate orders them by severity, not MANE first. The stop codon exists only in a poison exon that full-length ATM skips (PMID <<PM_POISON>>); for PALB2, BRCA2 and CHEK2 the first transcript was the MANE Select one. Correcting the ATM description to <<ATM_TX>>:"), f(r'''
(def atm-hgvs-first atm-hgvs)
(def atm-hgvs "<<ATM_HGVS>>")
(def atm-protein "p.?")
(println "ATM description:" atm-hgvs-first "->" atm-hgvs atm-protein)
(let [sc (scores "<<ATM>>")]
  (println "ATM SpliceAI max" (get-in sc [:spliceai :max]) (get-in sc [:spliceai :max_event]) "at" (get-in sc [:spliceai :position])
           "| phyloP" (:phylop100way sc) "| CADD" (:cadd_phred sc) "| FAF95" (:faf95_popmax (freqs "<<ATM>>"))))
'''))

s.turn(f("On <<ATM_TX>> PVS1 no longer applies. PM2_Supporting stays (FAF95 <<FAF_ATM>>); SpliceAI <<SAI_ATM>> <= 0.10 gives BP4; 318 bases into the intron with SpliceAI <= 0.10 and phyloP <<PHYLOP_ATM>> < 0.1 gives BP7:"), f(r'''
(def acmg-atm (tool/gx-acmg {:variant "<<ATM>>" :criteria ["PM2_Supporting" "BP4" "BP7"]}))
(def atm-class-first atm-class)
(def atm-class (:classification acmg-atm))
(def atm-call {:gene "ATM" :variant "<<ATM>>" :transcript "<<ATM_TX>>" :hgvs_c "<<ATM_C>>" :hgvs_p atm-protein
               :classification atm-class :points (:total_points acmg-atm) :criteria (mapv :code (:criteria acmg-atm))
               :rsid "<<RS_ATM>>" :prior "<<PRIOR_ATM>>"})
(println "ATM classification:" atm-class-first "->" atm-class (str "(" (:total_points acmg-atm) " points)"))
(println atm-call)
'''))

s.turn(f("Now concordant with <<PRIOR_ATM>>. The four rare calls side by side, strongest evidence first, with the frequencies as -log10:"), r'''
(defn neg-log10 [x] (- (/ (log x) (log 10))))
(def rare-calls (vec (sort (comparator (fn [a b] (> (:points a) (:points b)))) [palb2-call brca2-call chek2-call atm-call])))
(doseq [c rare-calls]
  (let [fr (freqs (:variant c)) sc (scores (:variant c))]
    (println (format "%-6s %-27s %-13s %5s %5.2f %3d %s" (:gene c) (str (:transcript c) ":" (:hgvs_c c)) (:hgvs_p c)
                     (if (:found fr) (format "%.1f" (neg-log10 (:af fr))) "abs")
                     (get-in sc [:spliceai :max]) (:points c) (:classification c)))))
''', "unbound_symbol")

s.turn("No comparator here; sort-by with > does the same.", r'''
(defn neg-log10 [x] (- (/ (log x) (log 10))))
(def rare-calls (vec (sort-by :points > [palb2-call brca2-call chek2-call atm-call])))
(println (format "%-6s %-27s %-13s %5s %5s %3s %s" "gene" "MANE HGVS" "protein" "-lgAF" "SAI" "pts" "class"))
(doseq [c rare-calls]
  (let [fr (freqs (:variant c)) sc (scores (:variant c))]
    (println (format "%-6s %-27s %-13s %5s %5.2f %3d %s" (:gene c) (str (:transcript c) ":" (:hgvs_c c)) (:hgvs_p c)
                     (if (:found fr) (format "%.1f" (neg-log10 (:af fr))) "abs")
                     (get-in sc [:spliceai :max]) (:points c) (:classification c)))))
''')

s.turn("The remaining 16 PASS calls are common; BA1 for each, with its MANE description for the appendix:", r'''
(def common (filterv #(let [fr (freqs (:key %))] (and (:found fr) (> (:af fr) 0.05))) pass-calls))
(def benign-calls
  (vec (pmap (fn [c]
               (let [r (tool/gx-acmg {:variant (:key c) :criteria ["BA1"]})
                     tx (first (filter :mane_select (:transcripts (tool/gx-annotate {:variant (:key c)}))))]
                 {:gene (:gene c) :variant (:key c) :transcript (:transcript tx) :hgvs_c (:hgvs_c tx) :hgvs_p (:hgvs_p tx)
                  :rsid (:rsid c) :af (:af (freqs (:key c))) :zygosity (:gt c) :classification (:classification r)}))
             common)))
(println (count benign-calls) "calls:" (frequencies (map :classification benign-calls)))
(doseq [b benign-calls]
  (println (format "  %-6s %-18s %-12s %-14s %-13s %-11s %-3s AF %.4f" (:gene b) (:variant b) (:transcript b) (:hgvs_c b)
                   (or (:hgvs_p b) "-") (:rsid b) (:zygosity b) (:af b))))
''')

s.turn("All Benign, BRCA1 c.3113A>G among them (not to be confused with PALB2's c.3113G>A). The report rows, with the zygosity from the VCF genotype:", r'''
(defn report-row [call c]
  (assoc (select-keys call [:gene :variant :transcript :hgvs_c :hgvs_p :classification :points :criteria])
         :zygosity (if (= "1/1" (:gt c)) "homozygous" "heterozygous")))
(def call-of (into {} (map (juxt :key identity) pass-calls)))
(def reported (mapv #(report-row % (call-of (:variant %)) freqs) [palb2-call brca2-call]))
(doseq [r reported] (prn r))
''', "arity")

s.turn("report-row takes the call and the VCF row only.", r'''
(defn report-row [call c]
  (assoc (select-keys call [:gene :variant :transcript :hgvs_c :hgvs_p :classification :points :criteria])
         :zygosity (if (= "1/1" (:gt c)) "homozygous" "heterozygous")))
(def call-of (into {} (map (juxt :key identity) pass-calls)))
(def reported (mapv #(report-row % (call-of (:variant %))) [palb2-call brca2-call]))
(def appendix (vec (concat (map #(select-keys % [:gene :variant :transcript :hgvs_c :hgvs_p :classification :points]) [chek2-call atm-call])
                           (map #(select-keys % [:gene :variant :transcript :hgvs_c :hgvs_p :classification]) benign-calls))))
(doseq [r reported] (prn r))
(println "appendix:" (count appendix) "variants" (frequencies (map :classification appendix)))
(doseq [a (take 2 appendix)] (prn a))
''')

s.prose(f("""Where the interpretation stands (case <<CASE>>, sample <<SAMPLE>>):

- The familial variant is present: PALB2 <<PALB2_TX>>:<<PALB2_C>> (<<PALB2_P>>), GRCh38 <<PALB2>>, heterozygous. Pathogenic, <<P_PALB2>> points (PVS1, PS4_Moderate, PM2_Supporting); ClinVar <<VCV_PALB2>> (expert panel). The aunt's report gave it in GRCh37, which I first looked up as a GRCh38 key and read a common intronic SNP's frequency; corrected.
- BRCA2 <<BRCA2_TX>>:<<BRCA2_C>> (<<BRCA2_P>>), <<BRCA2>>: VUS, <<P_BRCA2>> points (PM2_Supporting, PP3_Moderate with REVEL <<REVEL_B2>>, PM5 from p.Arg2784Trp <<VCV_NEIGH>>); HDR assay intermediate.
- CHEK2 <<CHEK2_TX>>:<<CHEK2_C>> (<<CHEK2_P>>): Likely benign, <<P_CHEK2>> points; discordant with <<PRIOR_CHEK2>> (VUS, 2022), to be flagged.
- ATM <<ATM_HGVS>>: Likely benign, <<P_ATM>> point, concordant with <<PRIOR_ATM>>; my first reading used a non-MANE transcript's stop codon, corrected.
- 16 common calls Benign (BA1); the filtered PMS2 call is a known pseudogene artifact (<<PRIOR_PMS2>>) and the BRCA2 one an artifact.

Still to do: the pedigree for cascade testing, the risk figures for the recommendations, the report text, a final check against the MANE annotation, then submit."""))

s.turn("Continuing with the pedigree, for the cascade testing recommendation:", r'''
(def pedigree (tool/gx-case-docs {:doc_id "DOC-2"}))
(println (:text pedigree))
''')

s.turn(f("The variant comes through the mother's side (the aunt II-3 carries it; the cousin III-4 tested negative). At risk: sister III-1, brother III-3, maternal uncle II-4 and his son III-5, and her daughter IV-1 once adult. The risk figures for the recommendations:"), r'''
(def lit-risk (tool/gx-literature {:query "PALB2 carriers cancer risk management"}))
(doseq [h (:hits lit-risk)]
  (println (str "PMID " (:pmid h)) (:first_author h) (:year h) (:journal h) "-" (:title h))
  (println "   " (:finding h)))
(def cascade
  [{:relative "III-1" :relation "sister" :age 44 :offer "predictive test for the familial PALB2 variant"}
   {:relative "III-3" :relation "brother" :age 37 :offer "predictive test for the familial PALB2 variant"}
   {:relative "II-4" :relation "maternal uncle" :age 50 :offer "predictive test; if positive, his son III-5 (24)"}
   {:relative "IV-1" :relation "daughter" :age 12 :offer "predictive test from age 18"}])
(doseq [c cascade] (println (:relative c) (:relation c) (:age c) "-" (:offer c)))
''')

s.turn("The evidence behind the two reported classifications, as structured fields for the report, copied from the tables above:", f(r'''
(def evidence
  {"<<PALB2>>" {:rsid "<<RS_PALB2>>" :clinvar "<<VCV_PALB2>>" :clinvar_review "<<REV_PALB2>>"
                      :gnomad_af <<AF_PALB2>> :gnomad_ac <<AC_PALB2>> :faf95_popmax <<FAF_PALB2>> :popmax "<<POP_PALB2>>"
                      :spliceai_max <<SAI_PALB2>> :cadd <<CADD_PALB2>> :phylop <<PHY_PALB2>>
                      :pmids ["<<PM_CASECTRL>>" "<<PM_SEG>>" "<<PM_NMD>>"] :prior_case "<<PRIOR_PALB2>>"}
   "<<BRCA2>>" {:rsid "<<RS_BRCA2>>" :clinvar "<<VCV_BRCA2>>" :clinvar_review "<<REV_BRCA2>>"
                      :gnomad_af nil :revel <<REVEL_B2>> :alphamissense <<AM_B2>> :spliceai_max <<SAI_B2>> :cadd <<CADD_B2>> :phylop <<PHY_B2>>
                      :pm5 "<<VCV_NEIGH>>" :hdr_fraction_wt <<HDR>>
                      :pmids ["<<PM_HDR>>" "<<PM_FERR>>"] :prior_case "<<PRIOR_BRCA2>>"}})
(println "evidence fields:" (update-vals evidence count))
(println "every reported variant has evidence:" (every? #(contains? evidence (:variant %)) reported))
'''))

s.turn("The report's interpretive summary, as a template filled with the same values:", f(r'''
(def summary-text
  (format (str "POSITIVE. The proband is heterozygous for the pathogenic variant PALB2 %s (%s), GRCh38 %s (%s), the familial "
               "variant reported in her maternal aunt (Northfield Genomics %s, described there in GRCh37 coordinates). It creates a "
               "premature stop codon in exon 8 of 13 with nonsense-mediated decay (PMID %s), is enriched in breast cancer cases "
               "(OR 4.69, PMID %s) and is rare in gnomAD v4.1 (AF %s, popmax FAF95 %s); ClinVar %s, Pathogenic (ClinGen expert "
               "panel). ACMG/AMP: %d points. PALB2 carriers have a breast cancer risk to age 80 of about 52%%, an ovarian cancer "
               "risk of about 5%% and an increased pancreatic cancer risk (PMID %s). "
               "Also found: BRCA2 %s (%s), GRCh38 %s (%s), a variant of uncertain significance: absent from gnomAD, REVEL %s, a "
               "different missense change at the same codon (p.Arg2784Trp, %s) is pathogenic, and a homology-directed repair "
               "assay gave intermediate activity (%s of wild type, PMID %s); ACMG/AMP %d points. It should not be used for "
               "predictive testing or clinical management.")
          "<<PALB2_TX>>:<<PALB2_C>>" "<<PALB2_P>>" "<<PALB2>>" "<<RS_PALB2>>" "<<OUTSIDE>>" "<<PM_NMD>>" "<<PM_CASECTRL>>"
          <<AF_PALB2>> <<FAF_PALB2>> "<<VCV_PALB2>>" <<P_PALB2>> "<<PM_RISK>>"
          "<<BRCA2_TX>>:<<BRCA2_C>>" "<<BRCA2_P>>" "<<BRCA2>>" "<<RS_BRCA2>>" <<REVEL_B2>> "<<VCV_NEIGH>>" <<HDR>> "<<PM_HDR>>" <<P_BRCA2>>))
(println (count summary-text) "characters; names both variants:"
         (every? #(str/includes? summary-text (:variant %)) reported) "| placeholders left:" (boolean (re-find #"%[sd]" summary-text)))
'''))

s.turn("Recommendations, limitations and the flag for the earlier CHEK2 report:", f(r'''
(def recommendations
  ["Management as for a PALB2 pathogenic variant carrier: annual breast MRI, discussion of risk-reducing mastectomy; discuss risk-reducing salpingo-oophorectomy from 45-50 years; pancreatic surveillance to be considered given the maternal grandmother's pancreatic cancer (PMID <<PM_RISK>>)."
   "Cascade testing for PALB2 <<PALB2_C>> (<<PALB2>>): sister (III-1, 44), brother (III-3, 37), maternal uncle (II-4, 50) and, if he is positive, his son (III-5, 24); the proband's daughter (IV-1, 12) from age 18."
   "BRCA2 <<BRCA2_C>> (<<BRCA2_P>>) is a VUS: no predictive testing; a segregation study with the aunt's sample (II-3) is offered."])
(def limitations
  ["PMS2 <<PMS2_COV>> (PMS2CL pseudogene): the filtered PMS2 call <<PMS2_C>> is a known artifact (<<PRIOR_PMS2>>) and was not reported."
   "CHEK2 <<CHEK2_COV>> (CHEK2P2 homology)."
   "Copy-number changes are not assessed by this report."])
(def flags
  [{:case "<<PRIOR_CHEK2>>" :variant "<<CHEK2>>" :hgvs "<<CHEK2_TX>>:<<CHEK2_C>>" :was "Uncertain significance" :now (:classification chek2-call)
    :reason "functional assay normal (PMID <<PM_CHEK2_FN>>) and no case-control association (PMID <<PM_CHEK2_CC>>), both published after 2022"}])
(doseq [r recommendations] (println "-" r))
(doseq [l limitations] (println "!" l))
(prn flags)
'''))

s.turn("Before submitting, every described variant against the MANE Select annotation and the sample's PASS calls:", r'''
(def checks
  (vec (pmap (fn [r]
               (let [tx (first (filter :mane_select (:transcripts (tool/gx-annotate {:variant (:variant r)}))))]
                 {:variant (:variant r) :gene (:gene r) :transcript-ok (= (:transcript r) (:transcript tx))
                  :hgvs-ok (= (:hgvs_c r) (:hgvs_c tx)) :pass (contains? call-of (:variant r))}))
             (concat reported (take 2 appendix)))))
(doseq [c checks] (println c))
(println "all good:" (every? #(and (:transcript-ok %) (:hgvs-ok %) (:pass %)) checks)
         "| familial variant = reported PALB2 call:" (= familial-key (:variant (first reported))))
''')

SUBMIT_HEAD = f(r'''
(def report
  (tool/gx-submit-report
    {:case_id "<<CASE>>"
     :sample_id "<<SAMPLE>>"
     :summary summary-text
     :variants (mapv #(assoc % :evidence (evidence (:variant %))) reported)
''')

s.cut("Everything checks out. Submitting the report for sign-out:", SUBMIT_HEAD.lstrip("\n") + f(r'''     :appendix appendix
     :recommendations recommendations
     :limitations limitations
     :flags [(str "<<PRIOR_CHEK2>>: CHEK2 <<CHEK2_C>> reclassified from VUS to '''))

s.turn("The answer was cut off; the same submission, complete:", SUBMIT_HEAD + f(r'''     :appendix appendix
     :recommendations recommendations
     :limitations limitations
     :flags flags
     :familial_variant {:present true :variant familial-key :clinvar "<<VCV_PALB2>>" :outside_report "<<OUTSIDE>>"}}))
(println (:report_id report) (:status report) "| signing:" (:signing_director report) "|" (:submitted report))
(doseq [r (:reported report)] (println "  reported:" r))
(println "  appendix:" (:appendix_count report) "| flags:" (count (:flags report)) "|" (:url report))
'''))

s.turn("Submitted. The result:", f(r'''
(return
  {:case "<<CASE>>"
   :sample "<<SAMPLE>>"
   :report-id "<<RID>>"
   :status "awaiting sign-out"
   :familial-variant {:present true :grch38 "<<PALB2>>" :hgvs "<<PALB2_TX>>:<<PALB2_C>>" :protein "<<PALB2_P>>"
                      :clinvar "<<VCV_PALB2>>" :outside-report "<<OUTSIDE>>"}
   :results [{:gene "PALB2" :variant "<<PALB2>>" :hgvs "<<PALB2_TX>>:<<PALB2_C>>" :protein "<<PALB2_P>>"
              :classification "Pathogenic" :points <<P_PALB2>> :rsid "<<RS_PALB2>>" :af <<AF_PALB2>> :faf95 <<FAF_PALB2>>
              :pmids ["<<PM_CASECTRL>>" "<<PM_NMD>>"]}
             {:gene "BRCA2" :variant "<<BRCA2>>" :hgvs "<<BRCA2_TX>>:<<BRCA2_C>>" :protein "<<BRCA2_P>>"
              :classification "Uncertain significance" :points <<P_BRCA2>> :rsid "<<RS_BRCA2>>" :revel <<REVEL_B2>>
              :alphamissense <<AM_B2>> :pm5 "<<VCV_NEIGH>>" :prior "<<PRIOR_BRCA2>>"}]
   :appendix {:likely-benign [{:gene "CHEK2" :hgvs "<<CHEK2_TX>>:<<CHEK2_C>>" :points <<P_CHEK2>>}
                              {:gene "ATM" :hgvs "<<ATM_HGVS>>" :points <<P_ATM>> :prior "<<PRIOR_ATM>>"}]
              :benign (count benign-calls)}
   :flags ["<<PRIOR_CHEK2>>"]
   :cascade (mapv :relative cascade)
   :not-reported ["<<PMS2F>>" "<<ART>>"]})
'''), "return")

if __name__ == "__main__":
    s.write(__file__)
