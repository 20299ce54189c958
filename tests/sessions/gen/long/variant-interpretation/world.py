"""The world of the `variant-interpretation` session: case HC24-0417 of a
(fictional) clinical genomics laboratory, St. Aldric Hospital Molecular
Diagnostics, as the analyst sees it on 2024-10-21. Every accession, rs id,
PMID, frequency and score is made up for this world; the genes, the MANE
Select transcripts and the ACMG/AMP point scheme are the real ones.

Planted:
- The proband (female, 41, breast cancer at 38; mother ovarian cancer at 51;
  maternal aunt breast cancer at 45) carries PALB2 NM_024675.4:c.3113G>A
  (p.Trp1038Ter) at GRCh38 16-23621362-C-T, the family's known variant.
- The aunt's 2016 outside report gives the variant as chr16:23632683 C>T,
  in GRCh37 (said only in its methods footer). In GRCh38, 16-23632683-C-T
  is a different, common intronic PALB2 SNP (c.1685-2143G>A, AF 0.0232), so
  a frequency lookup with the old key finds a 2% allele; lifted over, the
  key is 16-23621362-C-T (AF ~6e-6).
- ATM 11-108251742-C-T is stop_gained (c.1897C>T p.Gln633Ter) only on
  NM_001351834.2, a non-MANE transcript with an extra (poison) exon, which
  gx-annotate lists first (most severe first); on the MANE Select
  NM_000051.4 it is c.1803-318C>T, deep intronic, SpliceAI 0.02: likely
  benign, as the lab's prior case HC23-0211 had it.
- BRCA2 NM_000059.4:c.8351G>A (p.Arg2784Gln), rs80359065: REVEL 0.873,
  absent from gnomAD, ClinVar conflicting; the neighbouring
  c.8350C>T (p.Arg2784Trp), rs80359064, is pathogenic (PM5); a filtered
  artifact sits at the next position (13-32356447-G-T). ClinVar's older
  submissions cite NM_000059.3.
- CHEK2 NM_007194.4:c.538C>T (p.Arg180Cys) is c.667C>T on NM_001005735.2;
  likely benign now (REVEL 0.214, normal in a functional assay), while the
  lab's prior case HC22-0871 reported it as a VUS.
- Look-alikes: BRCA1 c.3113A>G (common) and PALB2 c.3113G>A; NM_000059.3 /
  NM_000059.4; NM_024675.3 / NM_024675.4; rs80359065 / rs80359064.
Deterministic: tool.py and answers.py read it."""
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
from toolkit import crc  # noqa: E402

AS_OF = "2024-10-21"
CASE_ID = "HC24-0417"
SAMPLE_ID = "S24-11873"
PANEL = "HBOC-16 v3.2"
DIRECTOR = "Dr. Tomas Lindqvist"

MANE = {
    "ATM": "NM_000051.4", "BARD1": "NM_000465.4", "BRCA1": "NM_007294.4", "BRCA2": "NM_000059.4",
    "CDH1": "NM_004360.5", "CHEK2": "NM_007194.4", "MLH1": "NM_000249.4", "MSH2": "NM_000251.3",
    "MSH6": "NM_000179.3", "PALB2": "NM_024675.4", "PMS2": "NM_000535.7", "PTEN": "NM_000314.8",
    "RAD51C": "NM_058216.3", "RAD51D": "NM_002878.4", "STK11": "NM_000455.5", "TP53": "NM_000546.6",
}
GENES = sorted(MANE)

# --- the keys the story turns on -------------------------------------------------------------------

PALB2_KEY = "16-23621362-C-T"
PALB2_HG19 = "16-23632683-C-T"          # the aunt's report, GRCh37
PALB2_HG19_POS = 23632683
CHR16_SHIFT = -11321                     # GRCh37 -> GRCh38 around PALB2
ATM_KEY = "11-108251742-C-T"
BRCA2_KEY = "13-32356446-G-A"
BRCA2_NEIGHBOUR = "13-32356445-C-T"      # c.8350C>T p.Arg2784Trp, ClinVar pathogenic
BRCA2_ARTIFACT = "13-32356447-G-T"       # filtered call, next position
CHEK2_KEY = "22-28734461-G-A"
CANDIDATES = [PALB2_KEY, BRCA2_KEY, CHEK2_KEY, ATM_KEY]

# --- the sample's calls (GRCh38) -----------------------------------------------------------------------
# key, gene, rsid, gt, dp, alt reads, gq, qual, filter
CALLS = [
    ("2-47403405-C-G", "MSH2", "rs2303426", "0/1", 188, 97, 99, 2311.4, "PASS"),
    ("2-47783349-G-A", "MSH6", "rs1042821", "0/1", 241, 118, 99, 2978.1, "PASS"),
    ("2-214752454-C-T", "BARD1", "rs2070094", "0/1", 176, 84, 99, 2040.7, "PASS"),
    ("3-36993455-G-A", "MLH1", "rs1800734", "0/1", 102, 55, 99, 1266.0, "PASS"),
    ("3-37025749-A-G", "MLH1", "rs1799977", "0/1", 214, 101, 99, 2551.9, "PASS"),
    ("7-5982885-T-C", "PMS2", None, "0/1", 31, 6, 12, 48.2, "LowMQ;LowQual"),
    ("7-5986933-G-A", "PMS2", "rs1805321", "0/1", 139, 71, 99, 1690.3, "PASS"),
    ("11-108251742-C-T", "ATM", "rs1591720953", "0/1", 167, 80, 99, 1948.6, "PASS"),
    ("11-108304735-G-A", "ATM", "rs1801516", "0/1", 203, 104, 99, 2517.2, "PASS"),
    ("13-32332592-A-C", "BRCA2", "rs144848", "0/1", 226, 109, 99, 2714.8, "PASS"),
    ("13-32355250-T-C", "BRCA2", "rs169547", "1/1", 198, 197, 99, 5702.3, "PASS"),
    ("13-32356446-G-A", "BRCA2", "rs80359065", "0/1", 212, 99, 99, 2469.5, "PASS"),
    ("13-32356447-G-T", "BRCA2", None, "0/1", 18, 1, 7, 21.9, "LowQual;StrandBias"),
    ("16-23621362-C-T", "PALB2", "rs180177132", "0/1", 184, 91, 99, 2233.0, "PASS"),
    ("16-23635372-T-C", "PALB2", "rs152451", "0/1", 171, 79, 99, 1975.5, "PASS"),
    ("16-68828266-T-C", "CDH1", "rs1801552", "1/1", 156, 155, 99, 4488.9, "PASS"),
    ("17-7676154-G-C", "TP53", "rs1042522", "1/1", 233, 231, 99, 6731.0, "PASS"),
    ("17-43071077-T-C", "BRCA1", "rs1799966", "0/1", 219, 112, 99, 2688.4, "PASS"),
    ("17-43091434-T-C", "BRCA1", "rs16941", "0/1", 244, 119, 99, 2903.7, "PASS"),
    ("17-43092919-G-A", "BRCA1", "rs799917", "1/1", 237, 236, 99, 6874.6, "PASS"),
    ("17-58692727-C-T", "RAD51C", "rs12946397", "0/1", 119, 63, 99, 1502.2, "PASS"),
    ("22-28734461-G-A", "CHEK2", "rs77130927", "0/1", 158, 74, 99, 1843.1, "PASS"),
]

# MANE annotation of every call: key -> (hgvs c. on MANE, p., consequence, exon/intron)
MANE_ANN = {
    "2-47403405-C-G": ("c.211+9C>G", None, "intron_variant", "intron 1/15"),
    "2-47783349-G-A": ("c.116G>A", "p.Gly39Glu", "missense_variant", "exon 1/10"),
    "2-214752454-C-T": ("c.1519G>A", "p.Val507Met", "missense_variant", "exon 6/11"),
    "3-36993455-G-A": ("c.-93G>A", None, "5_prime_UTR_variant", "exon 1/19"),
    "3-37025749-A-G": ("c.655A>G", "p.Ile219Val", "missense_variant", "exon 8/19"),
    "7-5982885-T-C": ("c.2324A>G", "p.Asn775Ser", "missense_variant", "exon 14/15"),
    "7-5986933-G-A": ("c.1408C>T", "p.Pro470Ser", "missense_variant", "exon 11/15"),
    "11-108251742-C-T": ("c.1803-318C>T", None, "intron_variant", "intron 12/62"),
    "11-108304735-G-A": ("c.5557G>A", "p.Asp1853Asn", "missense_variant", "exon 37/63"),
    "13-32332592-A-C": ("c.1114A>C", "p.Asn372His", "missense_variant", "exon 10/27"),
    "13-32355250-T-C": ("c.7397T>C", "p.Val2466Ala", "missense_variant", "exon 14/27"),
    "13-32356446-G-A": ("c.8351G>A", "p.Arg2784Gln", "missense_variant", "exon 18/27"),
    "13-32356447-G-T": ("c.8352G>T", "p.Arg2784=", "synonymous_variant", "exon 18/27"),
    "16-23621362-C-T": ("c.3113G>A", "p.Trp1038Ter", "stop_gained", "exon 8/13"),
    "16-23635372-T-C": ("c.1676A>G", "p.Gln559Arg", "missense_variant", "exon 4/13"),
    "16-68828266-T-C": ("c.2076T>C", "p.Ala692=", "synonymous_variant", "exon 13/16"),
    "17-7676154-G-C": ("c.215C>G", "p.Pro72Arg", "missense_variant", "exon 4/11"),
    "17-43071077-T-C": ("c.4837A>G", "p.Ser1613Gly", "missense_variant", "exon 16/23"),
    "17-43091434-T-C": ("c.3113A>G", "p.Glu1038Gly", "missense_variant", "exon 10/23"),
    "17-43092919-G-A": ("c.2612C>T", "p.Pro871Leu", "missense_variant", "exon 10/23"),
    "17-58692727-C-T": ("c.-26C>T", None, "5_prime_UTR_variant", "exon 1/9"),
    "22-28734461-G-A": ("c.538C>T", "p.Arg180Cys", "missense_variant", "exon 4/15"),
}

# other transcripts gx-annotate lists: key -> [(transcript, c., p., consequence, exon, note)]
ALT_TX = {
    ATM_KEY: [("NM_001351834.2", "c.1897C>T", "p.Gln633Ter", "stop_gained", "exon 13/64",
               "RefSeq transcript with an additional exon 13"),
              ("NM_001330368.2", "c.1803-318C>T", None, "intron_variant", "intron 12/61", None)],
    PALB2_KEY: [("NM_001407296.1", "c.2990G>A", "p.Trp997Ter", "stop_gained", "exon 7/12", None)],
    BRCA2_KEY: [("NM_000059.3", "c.8351G>A", "p.Arg2784Gln", "missense_variant", "exon 18/27",
                 "previous version of the MANE transcript")],
    CHEK2_KEY: [("NM_001005735.2", "c.667C>T", "p.Arg223Cys", "missense_variant", "exon 5/16", None)],
    "17-43091434-T-C": [("NM_007300.4", "c.3113A>G", "p.Glu1038Gly", "missense_variant", "exon 10/24", None)],
    "17-43071077-T-C": [("NM_007300.4", "c.4900A>G", "p.Ser1634Gly", "missense_variant", "exon 17/24", None)],
    "17-43092919-G-A": [("NM_007300.4", "c.2612C>T", "p.Pro871Leu", "missense_variant", "exon 10/24", None)],
    "7-5982885-T-C": [("NR_002217.1", "n.2410A>G", None, "non_coding_transcript_exon_variant", "exon 6/6",
                       "PMS2CL pseudogene transcript, 98% identical over exons 11-15")],
}

SEVERITY = ["stop_gained", "frameshift_variant", "splice_acceptor_variant", "splice_donor_variant",
            "missense_variant", "splice_region_variant", "synonymous_variant", "5_prime_UTR_variant",
            "non_coding_transcript_exon_variant", "intron_variant"]

# --- coverage ---------------------------------------------------------------------------------------------
COVERAGE = {
    "ATM": (214, 99.9, []), "BARD1": (187, 100.0, []), "BRCA1": (236, 100.0, []), "BRCA2": (221, 99.8, []),
    "CDH1": (168, 100.0, []), "CHEK2": (162, 98.1, ["exons 11-14: 91.2% >=20x (CHEK2P2 homology), MAPQ>=20 only"]),
    "MLH1": (201, 100.0, []), "MSH2": (193, 99.6, ["exon 1 GC-rich 5' end: 96.0% >=20x"]),
    "MSH6": (238, 100.0, []), "PALB2": (179, 100.0, []),
    "PMS2": (141, 88.4, ["exons 11-15: 62.3% >=20x (PMS2CL pseudogene); variants there need long-range PCR confirmation"]),
    "PTEN": (174, 99.4, ["exon 1 (GC-rich): 95.8% >=20x"]), "RAD51C": (166, 100.0, []), "RAD51D": (171, 100.0, []),
    "STK11": (158, 99.1, ["exon 1 (GC-rich): 94.7% >=20x"]), "TP53": (229, 100.0, []),
}

# --- population frequencies (gnomAD v4.1 joint, GRCh38) --------------------------------------------------
POPS = ["afr", "amr", "asj", "eas", "fin", "mid", "nfe", "sas", "remaining"]
POP_AN = {"afr": 75024, "amr": 60486, "asj": 32320, "eas": 49492, "fin": 64274, "mid": 6042, "nfe": 1180084,
          "sas": 91392, "remaining": 46884}

# target overall AF of the common calls (per-population spread derived)
COMMON_AF = {
    "2-47403405-C-G": 0.4418, "2-47783349-G-A": 0.1810, "2-214752454-C-T": 0.3719, "3-36993455-G-A": 0.2235,
    "3-37025749-A-G": 0.2314, "7-5986933-G-A": 0.3122, "11-108304735-G-A": 0.1187, "13-32332592-A-C": 0.2654,
    "13-32355250-T-C": 0.9812, "16-23635372-T-C": 0.0936, "16-68828266-T-C": 0.3877, "17-7676154-G-C": 0.6604,
    "17-43071077-T-C": 0.3381, "17-43091434-T-C": 0.3315, "17-43092919-G-A": 0.4612, "17-58692727-C-T": 0.1346,
    PALB2_HG19: 0.0214,
}
# hand-made per-population allele counts of the rare ones (the rest absent)
RARE_AC = {
    PALB2_KEY: {"nfe": 7, "fin": 1, "remaining": 1},
    ATM_KEY: {"nfe": 5, "amr": 1},
    CHEK2_KEY: {"afr": 2, "amr": 9, "asj": 3, "eas": 0, "fin": 72, "mid": 1, "nfe": 361, "sas": 6, "remaining": 8},
    "7-5982885-T-C": {"nfe": 2},
}
FAF_RARE = {PALB2_KEY: (0.00000312, "nfe"), ATM_KEY: (0.00000171, "nfe"), CHEK2_KEY: (0.000913, "fin"),
            "7-5982885-T-C": (None, None)}


def _sig(x, n=4):
    return float("%.*g" % (n, x)) if x else 0.0


def freq_record(key):
    """The gnomAD-style record of a GRCh38 key, or None when the site has no allele."""
    if key in COMMON_AF:
        target = COMMON_AF[key]
        pops = []
        for p in POPS:
            f = 0.55 + (crc("pop", key, p) % 1000) / 1000.0
            if key == PALB2_HG19:
                f = {"afr": 3.4, "amr": 1.3, "eas": 0.2, "nfe": 0.95}.get(p, f)
            af = min(0.999, target * f)
            an = POP_AN[p] - (crc("an", key, p) % 400)
            ac = int(round(af * an))
            hom = int(round(ac * af / 2))
            pops.append({"population": p, "ac": ac, "an": an, "af": _sig(ac / an), "homozygotes": hom})
        popmax = max((q for q in pops if q["population"] not in ("mid", "remaining")), key=lambda q: q["af"])
        faf = _sig(popmax["af"] * 0.97)
    elif key in RARE_AC:
        pops = []
        for p in POPS:
            an = POP_AN[p] - (crc("an", key, p) % 400)
            ac = RARE_AC[key].get(p, 0)
            pops.append({"population": p, "ac": ac, "an": an, "af": _sig(ac / an) if ac else 0.0, "homozygotes": 0})
        faf, popmax = FAF_RARE[key]
        popmax = {"population": popmax}
    else:
        return None
    ac = sum(q["ac"] for q in pops)
    an = sum(q["an"] for q in pops)
    return {"ac": ac, "an": an, "af": _sig(ac / an, 3), "homozygotes": sum(q["homozygotes"] for q in pops),
            "faf95_popmax": faf, "popmax_population": popmax["population"] if faf else None,
            "populations": pops}


# what gnomAD says a record's variant is (gene, hgvs on its canonical transcript, consequence)
FREQ_ANN = dict((k, (g, MANE[g] + ":" + MANE_ANN[k][0], MANE_ANN[k][2])) for k, g, *_ in CALLS)
FREQ_ANN[PALB2_HG19] = ("PALB2", "NM_024675.4:c.1685-2143G>A", "intron_variant")
FREQ_RSID = {k: r for k, _, r, *_ in CALLS}
FREQ_RSID[PALB2_HG19] = "rs8053188"

# --- liftover (GRCh37 -> GRCh38 blocks of the panel's chain file) -----------------------------------------
LIFT_BLOCKS = [
    ("16", 23614000, 23653000, CHR16_SHIFT),
    ("16", 68770000, 68870000, -33732),
    ("17", 41196000, 41278000, 1847983),
    ("13", 32889000, 32974000, -574137),
    ("22", 29083000, 29138000, -395988),
    ("11", 108093000, 108240000, 129693),
]

# --- in-silico predictors ------------------------------------------------------------------------------------
INSILICO = {
    # key: revel, spliceai (ag, al, dg, dl), cadd, phylop, alphamissense
    PALB2_KEY: (None, (0.00, 0.01, 0.04, 0.00), 38.0, 5.62, None),
    BRCA2_KEY: (0.873, (0.00, 0.00, 0.01, 0.00), 28.7, 7.91, 0.912),
    CHEK2_KEY: (0.214, (0.00, 0.00, 0.00, 0.00), 22.4, 2.18, 0.187),
    ATM_KEY: (None, (0.02, 0.00, 0.01, 0.00), 4.12, -0.38, None),
    "7-5982885-T-C": (0.061, (0.00, 0.00, 0.00, 0.00), 0.87, 0.21, 0.071),
}
SPLICEAI_POS = {PALB2_KEY: -2, BRCA2_KEY: 14, CHEK2_KEY: 0, ATM_KEY: 37, "7-5982885-T-C": 0}

# --- ClinVar ----------------------------------------------------------------------------------------------------
CLINVAR = [
    {"accession": "VCV000128144", "variation_id": 128144,
     "name": "NM_024675.4(PALB2):c.3113G>A (p.Trp1038Ter)", "gene": "PALB2", "rsid": "rs180177132",
     "variant_grch38": PALB2_KEY, "classification": "Pathogenic", "review_status": "reviewed by expert panel",
     "stars": 3, "last_evaluated": "2023-06-12",
     "conditions": ["PALB2-related cancer predisposition", "Fanconi anemia, complementation group N"],
     "submissions": [
         {"scv": "SCV003835512", "submitter": "ClinGen HBOP Variant Curation Expert Panel", "classification": "Pathogenic",
          "date": "2023-06-12", "transcript": "NM_024675.4",
          "comment": "PVS1, PS4_Moderate, PM2_Supporting; applied PALB2 VCEP specifications v1.1"},
         {"scv": "SCV000300119", "submitter": "Northfield Genomics", "classification": "Pathogenic",
          "date": "2016-03-22", "transcript": "NM_024675.3", "comment": "nonsense; reported in breast cancer families"},
         {"scv": "SCV001942207", "submitter": "Coastline Diagnostics", "classification": "Pathogenic",
          "date": "2022-11-03", "transcript": "NM_024675.4", "comment": None},
         {"scv": "SCV004410986", "submitter": "Meridian Genetics", "classification": "Pathogenic",
          "date": "2024-01-19", "transcript": "NM_024675.4", "comment": "observed in >40 individuals with breast cancer"},
         {"scv": "SCV000787320", "submitter": "Baltic Hereditary Cancer Registry", "classification": "Pathogenic",
          "date": "2018-05-30", "transcript": "NM_024675.3", "comment": "founder allele in families of Nordic ancestry"}]},
    {"accession": "VCV000052711", "variation_id": 52711,
     "name": "NM_000059.4(BRCA2):c.8351G>A (p.Arg2784Gln)", "gene": "BRCA2", "rsid": "rs80359065",
     "variant_grch38": BRCA2_KEY, "classification": "Conflicting classifications of pathogenicity",
     "review_status": "criteria provided, conflicting classifications", "stars": 1, "last_evaluated": "2023-02-08",
     "conditions": ["Hereditary breast ovarian cancer syndrome", "not provided"],
     "submissions": [
         {"scv": "SCV000223417", "submitter": "Kestrel Laboratories", "classification": "Likely pathogenic",
          "date": "2019-07-15", "transcript": "NM_000059.3", "comment": "PM2, PP3, PM5 (p.Arg2784Trp)"},
         {"scv": "SCV000109930", "submitter": "Breast Cancer Information Core", "classification": "Uncertain significance",
          "date": "2015-04-02", "transcript": "NM_000059.3", "comment": None},
         {"scv": "SCV001855044", "submitter": "Meridian Genetics", "classification": "Uncertain significance",
          "date": "2021-09-27", "transcript": "NM_000059.4",
          "comment": "HDR assay intermediate; insufficient evidence"},
         {"scv": "SCV003319871", "submitter": "Coastline Diagnostics", "classification": "Uncertain significance",
          "date": "2023-02-08", "transcript": "NM_000059.4", "comment": None}]},
    {"accession": "VCV000052710", "variation_id": 52710,
     "name": "NM_000059.4(BRCA2):c.8350C>T (p.Arg2784Trp)", "gene": "BRCA2", "rsid": "rs80359064",
     "variant_grch38": BRCA2_NEIGHBOUR, "classification": "Pathogenic", "review_status": "reviewed by expert panel",
     "stars": 3, "last_evaluated": "2022-09-30", "conditions": ["Hereditary breast ovarian cancer syndrome"],
     "submissions": [
         {"scv": "SCV002574410", "submitter": "ENIGMA BRCA1/2 Variant Curation Expert Panel", "classification": "Pathogenic",
          "date": "2022-09-30", "transcript": "NM_000059.4",
          "comment": "PS3 (HDR assay 0.07 of wild type), PM2_Supporting, PP3, PS4_Moderate"},
         {"scv": "SCV000109929", "submitter": "Breast Cancer Information Core", "classification": "Pathogenic",
          "date": "2013-11-20", "transcript": "NM_000059.3", "comment": None}]},
    {"accession": "VCV000142012", "variation_id": 142012,
     "name": "NM_007194.4(CHEK2):c.538C>T (p.Arg180Cys)", "gene": "CHEK2", "rsid": "rs77130927",
     "variant_grch38": CHEK2_KEY, "classification": "Conflicting classifications of pathogenicity",
     "review_status": "criteria provided, conflicting classifications", "stars": 1, "last_evaluated": "2024-03-11",
     "conditions": ["Hereditary cancer-predisposing syndrome", "Familial cancer of breast"],
     "submissions": [
         {"scv": "SCV000184725", "submitter": "Kestrel Laboratories", "classification": "Uncertain significance",
          "date": "2020-01-14", "transcript": "NM_001005735.2", "comment": "c.667C>T (p.Arg223Cys)"},
         {"scv": "SCV001361402", "submitter": "Coastline Diagnostics", "classification": "Likely benign",
          "date": "2024-03-11", "transcript": "NM_007194.4", "comment": "functional: normal in yeast and human-cell assays"},
         {"scv": "SCV000919733", "submitter": "Meridian Genetics", "classification": "Uncertain significance",
          "date": "2021-06-02", "transcript": "NM_007194.4", "comment": None},
         {"scv": "SCV002087415", "submitter": "Baltic Hereditary Cancer Registry", "classification": "Likely benign",
          "date": "2023-08-21", "transcript": "NM_007194.4", "comment": "enriched in the Finnish population (popmax FAF95 0.000913)"},
         {"scv": "SCV000693118", "submitter": "St. Aldric Hospital Molecular Diagnostics",
          "classification": "Uncertain significance", "date": "2022-05-17", "transcript": "NM_007194.4",
          "comment": "case HC22-0871"}]},
    {"accession": "VCV000012351", "variation_id": 12351, "name": "NM_000546.6(TP53):c.215C>G (p.Pro72Arg)",
     "gene": "TP53", "rsid": "rs1042522", "variant_grch38": "17-7676154-G-C", "classification": "Benign",
     "review_status": "reviewed by expert panel", "stars": 3, "last_evaluated": "2021-08-26",
     "conditions": ["Li-Fraumeni syndrome"], "submissions": []},
    {"accession": "VCV000041818", "variation_id": 41818, "name": "NM_000059.4(BRCA2):c.8352G>T (p.Arg2784=)",
     "gene": "BRCA2", "rsid": "rs80359066", "variant_grch38": BRCA2_ARTIFACT, "classification": "Likely benign",
     "review_status": "criteria provided, single submitter", "stars": 1, "last_evaluated": "2020-10-05",
     "conditions": ["not provided"], "submissions": []},
]

# --- literature ----------------------------------------------------------------------------------------------
LITERATURE = [
    {"pmid": "34127418", "first_author": "Halvorsen K", "year": 2021, "journal": "J Clin Oncol",
     "title": "Germline PALB2 protein-truncating variants in 61,412 breast cancer cases and 53,107 controls",
     "evidence": "case-control",
     "finding": "PALB2 c.3113G>A (p.Trp1038Ter): 38 cases, 7 controls; OR 4.69 (95% CI 2.09-10.52), p = 2.1e-05.",
     "keywords": ["PALB2", "c.3113G>A", "p.Trp1038Ter", "Trp1038Ter", "case-control", "breast"]},
    {"pmid": "29886031", "first_author": "Ostrowska M", "year": 2018, "journal": "Hum Mutat",
     "title": "Recurrent PALB2 truncating variants in Nordic breast and ovarian cancer families",
     "evidence": "segregation",
     "finding": "c.3113G>A in 12 families; segregates with breast cancer (LOD 1.9 over 9 informative meioses).",
     "keywords": ["PALB2", "c.3113G>A", "Trp1038Ter", "founder", "segregation"]},
    {"pmid": "31766527", "first_author": "Whitcombe A", "year": 2019, "journal": "Cancer Res",
     "title": "Nonsense-mediated decay of PALB2 transcripts carrying exon 8 stop codons",
     "evidence": "functional",
     "finding": "c.3113G>A transcript reduced to 11% of the wild-type allele in patient LCLs (NMD).",
     "keywords": ["PALB2", "c.3113G>A", "NMD", "functional", "exon 8"]},
    {"pmid": "33950217", "first_author": "Yamada R", "year": 2021, "journal": "N Engl J Med",
     "title": "Cancer risks for carriers of pathogenic PALB2 variants: a prospective family study",
     "evidence": "penetrance",
     "finding": "Breast cancer risk to age 80: 52% (95% CI 43-61); ovarian 5%; pancreatic 2-3%; male breast 1%.",
     "keywords": ["PALB2", "risk", "penetrance", "management", "carriers", "breast", "ovarian", "pancreatic"]},
    {"pmid": "35290144", "first_author": "Brennan T", "year": 2022, "journal": "Am J Hum Genet",
     "title": "Saturation homology-directed repair assay of the BRCA2 DNA-binding domain",
     "evidence": "functional",
     "finding": "p.Arg2784Gln: HDR 0.41 of wild type (intermediate, 0.2-0.8); p.Arg2784Trp: 0.07 (abnormal).",
     "keywords": ["BRCA2", "c.8351G>A", "p.Arg2784Gln", "Arg2784Gln", "Arg2784Trp", "Arg2784", "HDR", "functional"]},
    {"pmid": "30311392", "first_author": "Ferreira L", "year": 2018, "journal": "Breast Cancer Res Treat",
     "title": "BRCA2 DNA-binding domain missense variants in 4,102 HBOC families",
     "evidence": "case report",
     "finding": "p.Arg2784Gln in 2 probands (one with a BRCA1 pathogenic variant in trans); no segregation data.",
     "keywords": ["BRCA2", "Arg2784Gln", "p.Arg2784Gln", "missense", "HBOC"]},
    {"pmid": "31204483", "first_author": "Delacroix P", "year": 2019, "journal": "PLoS Genet",
     "title": "Functional classification of 119 CHEK2 missense variants in yeast and human-cell kinase assays",
     "evidence": "functional",
     "finding": "p.Arg180Cys: kinase activity 94% of wild type, normal (BS3_Supporting under the authors' calibration).",
     "keywords": ["CHEK2", "c.538C>T", "p.Arg180Cys", "Arg180Cys", "functional", "kinase"]},
    {"pmid": "36120583", "first_author": "Lahtinen S", "year": 2022, "journal": "Int J Cancer",
     "title": "CHEK2 missense variants in Finnish breast cancer cases and population controls",
     "evidence": "case-control",
     "finding": "p.Arg180Cys: 41 cases / 38 controls; OR 1.07 (95% CI 0.69-1.66), not associated.",
     "keywords": ["CHEK2", "c.538C>T", "Arg180Cys", "Finnish", "case-control"]},
    {"pmid": "32861077", "first_author": "Okafor N", "year": 2020, "journal": "Genet Med",
     "title": "ATM protein-truncating variants and breast cancer: a meta-analysis",
     "evidence": "gene-level",
     "finding": "ATM truncating variants: breast cancer OR 2.10 (95% CI 1.71-2.57); no variant-level data for exon 13 of NM_001351834.2.",
     "keywords": ["ATM", "truncating", "meta-analysis", "breast"]},
    {"pmid": "34455920", "first_author": "Sundqvist E", "year": 2021, "journal": "Nucleic Acids Res",
     "title": "A poison exon in ATM intron 12 is included in under 2% of ATM transcripts in normal tissues",
     "evidence": "transcript",
     "finding": "The extra exon of NM_001351834.2 (intron 12 of NM_000051.4) is a poison exon; variants in it do not reduce full-length ATM.",
     "keywords": ["ATM", "intron 12", "poison exon", "NM_001351834.2", "c.1803", "transcript"]},
]

# --- gene-disease validity -------------------------------------------------------------------------------------
VALIDITY = [
    ("PALB2", "hereditary breast carcinoma", "MONDO:0016419", "Definitive", "AD", "2023-01-17"),
    ("PALB2", "pancreatic cancer, susceptibility", "MONDO:0018923", "Moderate", "AD", "2022-06-09"),
    ("PALB2", "Fanconi anemia complementation group N", "MONDO:0012565", "Definitive", "AR", "2021-11-30"),
    ("PALB2", "hereditary ovarian carcinoma", "MONDO:0015356", "Limited", "AD", "2022-06-09"),
    ("BRCA2", "hereditary breast and ovarian cancer syndrome", "MONDO:0003582", "Definitive", "AD", "2020-04-24"),
    ("BRCA2", "Fanconi anemia complementation group D1", "MONDO:0009581", "Definitive", "AR", "2020-04-24"),
    ("ATM", "hereditary breast carcinoma", "MONDO:0016419", "Definitive", "AD", "2022-10-05"),
    ("ATM", "ataxia-telangiectasia", "MONDO:0008840", "Definitive", "AR", "2019-08-12"),
    ("CHEK2", "hereditary breast carcinoma", "MONDO:0016419", "Definitive", "AD", "2023-05-02"),
    ("CHEK2", "Li-Fraumeni syndrome", "MONDO:0018875", "Disputed", "AD", "2020-02-18"),
    ("BRCA1", "hereditary breast and ovarian cancer syndrome", "MONDO:0003582", "Definitive", "AD", "2020-04-24"),
    ("TP53", "Li-Fraumeni syndrome", "MONDO:0018875", "Definitive", "AD", "2019-12-05"),
    ("MLH1", "Lynch syndrome", "MONDO:0005835", "Definitive", "AD", "2019-03-29"),
    ("MLH1", "hereditary breast carcinoma", "MONDO:0016419", "Limited", "AD", "2021-07-14"),
]

# --- the lab's prior cases ----------------------------------------------------------------------------------------
PRIOR = [
    {"case_id": "HC21-0093", "date": "2021-04-12", "variant": PALB2_KEY, "gene": "PALB2", "transcript": "NM_024675.4",
     "hgvs": "c.3113G>A", "protein": "p.Trp1038Ter", "classification": "Pathogenic", "points": 11,
     "signed_by": "Dr. Tomas Lindqvist", "note": "unrelated family; confirmed by Sanger"},
    {"case_id": "HC22-0518", "date": "2022-09-01", "variant": BRCA2_KEY, "gene": "BRCA2", "transcript": "NM_000059.4",
     "hgvs": "c.8351G>A", "protein": "p.Arg2784Gln", "classification": "Uncertain significance", "points": 3,
     "signed_by": "Dr. Aino Virtanen", "note": "PM2_Supporting, PP3_Moderate"},
    {"case_id": "HC22-0871", "date": "2022-05-17", "variant": CHEK2_KEY, "gene": "CHEK2", "transcript": "NM_007194.4",
     "hgvs": "c.538C>T", "protein": "p.Arg180Cys", "classification": "Uncertain significance", "points": 0,
     "signed_by": "Dr. Aino Virtanen", "note": "no functional data at the time"},
    {"case_id": "HC23-0211", "date": "2023-02-27", "variant": ATM_KEY, "gene": "ATM", "transcript": "NM_000051.4",
     "hgvs": "c.1803-318C>T", "protein": None, "classification": "Likely benign", "points": -1,
     "signed_by": "Dr. Tomas Lindqvist", "note": "deep intronic on MANE; stop_gained only in the NM_001351834.2 poison exon"},
    {"case_id": "HC23-0640", "date": "2023-08-14", "variant": "13-32356445-C-T", "gene": "BRCA2",
     "transcript": "NM_000059.4", "hgvs": "c.8350C>T", "protein": "p.Arg2784Trp", "classification": "Pathogenic",
     "points": 11, "signed_by": "Dr. Aino Virtanen", "note": "ENIGMA expert panel classification"},
    {"case_id": "HC24-0102", "date": "2024-02-06", "variant": "7-5982885-T-C", "gene": "PMS2", "transcript": "NM_000535.7",
     "hgvs": "c.2324A>G", "protein": "p.Asn775Ser", "classification": "not reported",
     "points": None, "signed_by": "Dr. Aino Virtanen", "note": "PMS2CL artifact, not confirmed by long-range PCR"},
]

# --- case documents ---------------------------------------------------------------------------------------------------
DOCS = {
    "DOC-1": ("referral letter", "2024-10-08", """Cancer Genetics Clinic, St. Aldric Hospital
To: Molecular Diagnostics, hereditary cancer service            8 October 2024

Re: proband of family F-2291, female, born 1983 (41 y), sample S24-11873

Dear colleagues,
please perform germline testing with the HBOC-16 panel. The patient was diagnosed at 38 with
invasive ductal carcinoma of the left breast (grade 2, ER+/PR+/HER2-), treated with surgery and
adjuvant endocrine therapy. Her mother died at 54 of high-grade serous ovarian carcinoma diagnosed
at 51 (never tested). Her maternal aunt had breast cancer at 45 and was found in 2016 to carry a
PALB2 variant at an outside laboratory (copy of the report attached, Northfield Genomics NG16-04471).
The maternal grandmother died of pancreatic cancer at 68. Her father had prostate cancer at 70.

Please report whether the familial variant is present and any other findings in the panel genes;
the result will guide risk-reducing surgery and cascade testing of her sister, brother and daughter.

Kind regards,
Dr. Ingrid Vasquez, consultant in clinical genetics"""),
    "DOC-2": ("pedigree", "2024-10-08", """Pedigree F-2291 (drawn 2024-10-08 by L. Marsh, genetic counsellor); maternal line affected

I-1   maternal grandfather    d. 79   stroke
I-2   maternal grandmother    d. 70   pancreatic adenocarcinoma at 68
II-1  father                  72      prostate cancer at 70
II-2  mother                  d. 54   high-grade serous ovarian carcinoma at 51; not tested
II-3  maternal aunt           53      breast cancer (IDC) at 45; PALB2 c.3113G>A heterozygous (Northfield Genomics 2016, NG16-04471)
II-4  maternal uncle          50      unaffected; not tested
III-1 sister                  44      unaffected; not tested
III-2 proband                 41      IDC left breast at 38, ER+/PR+/HER2-
III-3 brother                 37      unaffected; not tested
III-4 cousin (daughter of II-3)  27   unaffected; tested 2017 for the familial variant: negative
III-5 cousin (son of II-4)    24      unaffected; not tested
IV-1  daughter of proband     12      unaffected

Consent on file: proband consents to sharing a positive result with relatives (form GC-7, 2024-10-08)."""),
    "DOC-3": ("outside report (maternal aunt, 2016)", "2016-03-22", """NORTHFIELD GENOMICS - Clinical Molecular Genetics Laboratory
Report date: 22 March 2016                      Laboratory no.: NG16-04471
Patient: female, born 1971 (maternal aunt of the proband, II-3)
Referred by: Regional Breast Unit               Test: BRCA1, BRCA2, PALB2, CHEK2 (NGS + MLPA)

RESULT: ONE PATHOGENIC VARIANT DETECTED

Gene    Transcript     Variant      Protein          Genomic position       Zygosity
PALB2   NM_024675.3    c.3113G>A    p.(Trp1038*)     chr16:23632683 C>T     heterozygous

Interpretation: PALB2 c.3113G>A introduces a premature stop codon in exon 8 and is expected to
cause loss of function through nonsense-mediated decay. It has been reported in several families
with breast cancer and is absent from population databases (ExAC). Classified PATHOGENIC (class 5).
No other pathogenic or likely pathogenic variant was found in BRCA1, BRCA2 or CHEK2.

Recommendation: predictive testing is available to first-degree relatives.

Methods: hybrid-capture NGS (mean depth 310x) and MLPA (MRC-Holland P041/P045/P260). Variants
are described according to HGVS on the transcripts listed; genomic positions refer to the
reference assembly GRCh37/hg19 (UCSC). Sanger confirmation of reported variants.
Authorised by: Dr. P. Okonkwo, clinical scientist"""),
    "DOC-4": ("pathology summary", "2021-06-30", """Histopathology, St. Aldric Hospital, specimen H21-33871 (left breast, wide local excision)
Invasive ductal carcinoma, no special type, grade 2, 19 mm; DCIS intermediate grade, 6 mm.
ER 8/8, PR 6/8, HER2 IHC 1+ (negative). Ki-67 14%. Margins clear. Sentinel node 0/2.
pT1cN0(sn). Patient age at diagnosis: 38."""),
}

# --- the lab SOP (data/case) ---------------------------------------------------------------------------------------------
CASE = {
    "case_id": CASE_ID,
    "sample_id": SAMPLE_ID,
    "panel": PANEL,
    "panel_genes": GENES,
    "received": "2024-10-14",
    "due": "2024-10-25",
    "ordering_physician": "Dr. Ingrid Vasquez, Cancer Genetics Clinic, St. Aldric Hospital",
    "signing_director": DIRECTOR,
    "proband": {"sex": "female", "born": 1983, "family": "F-2291",
                "phenotype": "invasive ductal carcinoma of the left breast at 38 (ER+/PR+/HER2-)"},
    "question": "Does the proband carry the familial variant? Interpret every variant of the panel and issue the clinical report.",
    "sop": [
        "Report variants by their GRCh38 key CHROM-POS-REF-ALT (the pipeline's build) and HGVS on the MANE Select transcript of the gene.",
        "Population data: gnomAD v4.1. BA1 when the overall AF is above 0.05. BS1 when the popmax FAF95 is above the gene's BS1 threshold. PM2_Supporting when the popmax FAF95 is below 0.00001 or the variant is absent.",
        "In-silico (ClinGen SVI calibration): REVEL >= 0.773 PP3_Moderate, >= 0.644 PP3; <= 0.290 BP4. SpliceAI max delta >= 0.20 PP3, <= 0.10 BP4 for splicing.",
        "BP7 also for deep intronic variants (beyond +7/-21) with SpliceAI max delta <= 0.10 and phyloP < 0.1.",
        "Classify with gx-acmg (ACMG/AMP 2015 with ClinGen SVI point scores); PM2 only at supporting strength. PP5 and BP6 are not used.",
        "Results: Pathogenic, Likely pathogenic and VUS; Likely benign and Benign go to the appendix.",
        "Check the lab's prior cases for every classified variant; a discordant earlier classification is flagged for a reissued report.",
        "P/LP results: recommend cascade testing and name the at-risk relatives from the pedigree.",
    ],
    "bs1_popmax_faf": {"ATM": 0.0005, "BRCA1": 0.001, "BRCA2": 0.001, "CHEK2": 0.0025, "PALB2": 0.0005,
                       "TP53": 0.0003},
}
