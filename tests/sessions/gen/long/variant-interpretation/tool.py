#!/usr/bin/env python3
"""Command tools (see toolkit.py) of the variant-interpretation session: `python3 tool.py TOOL`,
JSON arguments on stdin, JSON result on stdout, an error on stderr with exit 2.
Stateless: the report id is derived from the case id."""
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # gen/long/
sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import world as w  # noqa: E402
from toolkit import ToolError, crc, need, serve  # noqa: E402

KEY = re.compile(r"^(\d{1,2}|X|Y)-(\d+)-([ACGT]+)-([ACGT]+)$")
CALL_BY_KEY = {c[0]: c for c in w.CALLS}
CLASSES = ["Pathogenic", "Likely pathogenic", "Uncertain significance", "Likely benign", "Benign"]
STRENGTH = {"VeryStrong": 8, "Strong": 4, "Moderate": 2, "Supporting": 1}
BASE = {"PVS": "VeryStrong", "PS": "Strong", "PM": "Moderate", "PP": "Supporting", "BA": "StandAlone",
        "BS": "Strong", "BP": "Supporting"}
CODES = {"PVS1", "PS1", "PS2", "PS3", "PS4", "PM1", "PM2", "PM3", "PM4", "PM5", "PM6", "PP1", "PP2", "PP3", "PP4",
         "BA1", "BS1", "BS2", "BS3", "BS4", "BP1", "BP2", "BP3", "BP4", "BP5", "BP7"}


def key_arg(args, name="variant"):
    v = need(args, name)
    if not isinstance(v, str) or not KEY.match(v):
        raise ToolError("%s must be a GRCh38 key CHROM-POS-REF-ALT like 17-43091434-T-C (no 'chr', no ':'); got %r"
                        % (name, v))
    return v


def case_docs(args):
    d = args.get("doc_id")
    if not d:
        return {"case_id": w.CASE_ID, "documents": [{"doc_id": k, "title": v[0], "date": v[1], "chars": len(v[2])}
                                                    for k, v in w.DOCS.items()]}
    if d not in w.DOCS:
        raise ToolError("no document %r in case %s (documents: %s)" % (d, w.CASE_ID, ", ".join(w.DOCS)))
    t, date, text = w.DOCS[d]
    return {"doc_id": d, "title": t, "date": date, "text": text}


def call_row(c):
    key, gene, rsid, gt, dp, alt, gq, qual, filt = c
    chrom, pos, ref, altb = key.split("-")
    return {"key": key, "chrom": chrom, "pos": int(pos), "ref": ref, "alt": altb, "gene": gene, "rsid": rsid,
            "gt": gt, "dp": dp, "ad": "%d,%d" % (dp - alt, alt), "vaf": round(alt / dp, 3), "gq": gq, "qual": qual,
            "filter": filt}


def vcf(args):
    sid = need(args, "sample_id")
    if sid != w.SAMPLE_ID:
        raise ToolError("no sample %r (case %s has sample %s)" % (sid, w.CASE_ID, w.SAMPLE_ID))
    gene = args.get("gene")
    if gene and gene not in w.MANE:
        raise ToolError("gene %r is not on the %s panel" % (gene, w.PANEL))
    rows = [call_row(c) for c in w.CALLS if not gene or c[1] == gene]
    if args.get("include_filtered") is False:
        rows = [r for r in rows if r["filter"] == "PASS"]
    return {"sample_id": sid, "case_id": w.CASE_ID, "panel": w.PANEL, "reference": "GRCh38",
            "pipeline": "DRAGEN 4.2.4 germline, hybrid capture (HBOC-16 v3.2 bait set)",
            "qc": {"mean_depth": 196, "pct_20x": 99.2, "contamination": 0.003, "sex_check": "female (XX)",
                   "on_target": 0.71},
            "coverage": [{"gene": g, "mean_depth": w.COVERAGE[g][0], "pct_20x": w.COVERAGE[g][1],
                          "low_regions": w.COVERAGE[g][2]} for g in w.GENES if not gene or g == gene],
            "calls": rows}


def annotate(args):
    key = key_arg(args)
    if key == w.PALB2_HG19:
        tx = [{"transcript": "NM_024675.4", "mane_select": True, "hgvs_c": "c.1685-2143G>A", "hgvs_p": None,
               "consequence": "intron_variant", "exon": "intron 4/12", "note": None}]
        return {"variant": key, "gene": "PALB2", "rsid": w.FREQ_RSID[key], "transcripts": tx}
    if key == w.BRCA2_NEIGHBOUR:
        tx = [{"transcript": "NM_000059.4", "mane_select": True, "hgvs_c": "c.8350C>T", "hgvs_p": "p.Arg2784Trp",
               "consequence": "missense_variant", "exon": "exon 18/27", "note": None}]
        return {"variant": key, "gene": "BRCA2", "rsid": "rs80359064", "transcripts": tx}
    if key not in w.MANE_ANN:
        return {"variant": key, "gene": None, "rsid": None, "transcripts": [],
                "note": "no transcript of the %s panel genes overlaps this position" % w.PANEL}
    gene = CALL_BY_KEY[key][1]
    c, p, cons, exon = w.MANE_ANN[key]
    tx = [{"transcript": w.MANE[gene], "mane_select": True, "hgvs_c": c, "hgvs_p": p, "consequence": cons,
           "exon": exon, "note": None}]
    for t_, c2, p2, cons2, exon2, note in w.ALT_TX.get(key, []):
        tx.append({"transcript": t_, "mane_select": False, "hgvs_c": c2, "hgvs_p": p2, "consequence": cons2,
                   "exon": exon2, "note": note})
    tx.sort(key=lambda x: (w.SEVERITY.index(x["consequence"]), not x["mane_select"]))
    return {"variant": key, "gene": gene, "rsid": CALL_BY_KEY[key][2], "transcripts": tx}


def popfreq(args):
    key = key_arg(args)
    r = w.freq_record(key)
    if r is None:
        return {"variant": key, "dataset": "gnomAD v4.1 (joint exomes+genomes, GRCh38)", "found": False,
                "note": "no allele observed; site covered in 98.6% of samples at >=20x (AN would be about 1,604,000)"}
    gene, hgvs, cons = w.FREQ_ANN[key]
    out = {"variant": key, "dataset": "gnomAD v4.1 (joint exomes+genomes, GRCh38)", "found": True, "gene": gene,
           "rsid": w.FREQ_RSID.get(key), "hgvs": hgvs, "consequence": cons, "filters": []}
    out.update(r)
    return out


def liftover(args):
    key = key_arg(args)
    src = args.get("from") or "GRCh37"
    dst = args.get("to") or "GRCh38"
    if (src, dst) != ("GRCh37", "GRCh38"):
        raise ToolError("only GRCh37 -> GRCh38 is supported (chain hg19ToHg38); got %s -> %s" % (src, dst))
    chrom, pos, ref, alt = key.split("-")
    pos = int(pos)
    for c, lo, hi, shift in w.LIFT_BLOCKS:
        if c == chrom and lo <= pos < hi:
            new = "%s-%d-%s-%s" % (chrom, pos + shift, ref, alt)
            return {"from": src, "to": dst, "variant": key, "lifted": new, "chrom": chrom, "pos_from": pos,
                    "pos_to": pos + shift, "strand": "+", "ref_matches": True, "chain": "hg19ToHg38.over.chain.gz",
                    "block": "chr%s:%d-%d (GRCh37)" % (c, lo, hi)}
    raise ToolError("%s is outside the panel's chain blocks; lift it with the full chain" % key)


def clinvar(args):
    acc = args.get("accession")
    key = args.get("variant")
    q = args.get("query")
    if not (acc or key or q):
        raise ToolError("give one of variant (GRCh38 key), accession (VCV...) or query (gene and HGVS text)")
    if key:
        key_arg(args)
        recs = [r for r in w.CLINVAR if r["variant_grch38"] == key]
    elif acc:
        recs = [r for r in w.CLINVAR if r["accession"] == acc]
    else:
        words = q.split()
        recs = [r for r in w.CLINVAR if all(x.lower() in (r["name"] + " " + r["rsid"]).lower() for x in words)]
    return {"query": acc or key or q, "release": "ClinVar 2024-10-08", "count": len(recs), "records": recs}


def literature(args):
    q = need(args, "query")
    limit = int(args.get("limit") or 5)
    words = [x.lower() for x in re.split(r"[\s,;]+", q) if x]
    need_n = (len(words) + 1) // 2
    scored = []
    for i, r in enumerate(w.LITERATURE):
        hay = " ".join(r["keywords"] + [r["title"], r["finding"]]).lower()
        score = sum(1 for x in words if x in hay)
        gene_ok = not any(g.lower() in words for g in w.MANE) or any(g.lower() in words for g in r["keywords"])
        if score >= need_n and gene_ok:
            scored.append((-score, i, r))
    hits = [dict((k, v) for k, v in r.items() if k != "keywords") for _, _, r in sorted(scored)[:limit]]
    return {"query": q, "total": len(scored), "returned": len(hits), "hits": hits}


def gene_validity(args):
    genes = need(args, "genes")
    if isinstance(genes, str):
        genes = [genes]
    bad = [g for g in genes if g not in w.MANE]
    if bad:
        raise ToolError("not panel genes: %s" % ", ".join(bad))
    rows = [{"gene": g, "disease": d, "mondo": m, "classification": c, "moi": moi, "expert_panel":
             "ClinGen Hereditary Cancer GCEP", "approved": date}
            for g, d, m, c, moi, date in w.VALIDITY if g in genes]
    return {"source": "ClinGen gene-disease validity (2024-10 snapshot)", "count": len(rows), "curations": rows}


def insilico(args):
    keys = need(args, "variants")
    preds = args.get("predictors") or ["revel", "spliceai", "cadd", "phylop"]
    if not isinstance(keys, list):
        raise ToolError("variants must be a list of GRCh38 keys")
    unknown = [p for p in preds if p not in ("revel", "spliceai", "cadd", "phylop", "alphamissense")]
    if unknown:
        raise ToolError("unknown predictor %s (revel, spliceai, cadd, phylop, alphamissense)" % unknown[0])
    for k in keys:
        key_arg({"variant": k})
        if k not in w.INSILICO:
            raise ToolError("no precomputed scores for %s (scores exist for the sample's rare calls)" % k)
    if "revel" in preds or "alphamissense" in preds:
        bad = [k for k in keys if w.INSILICO[k][0] is None]
        if bad:
            raise ToolError("revel and alphamissense score missense SNVs only, and %s %s not: ask for them for the "
                            "missense variants alone (spliceai, cadd and phylop take any variant)"
                            % (" and ".join(bad), "is" if len(bad) == 1 else "are"))
    out = []
    for k in keys:
        revel, sai, cadd, phylop, am = w.INSILICO[k]
        row = {"variant": k}
        if "revel" in preds:
            row["revel"] = revel
        if "alphamissense" in preds:
            row["alphamissense"] = am
        if "spliceai" in preds:
            row["spliceai"] = {"ag": sai[0], "al": sai[1], "dg": sai[2], "dl": sai[3], "max": max(sai),
                               "max_event": ["acceptor gain", "acceptor loss", "donor gain", "donor loss"][
                                   sai.index(max(sai))] if max(sai) else None,
                               "position": w.SPLICEAI_POS[k]}
        if "cadd" in preds:
            row["cadd_phred"] = cadd
        if "phylop" in preds:
            row["phylop100way"] = phylop
        out.append(row)
    return {"predictors": preds, "versions": {"revel": "1.3", "spliceai": "1.3.1 (masked, distance 500)",
                                              "cadd": "1.7", "phylop": "100-way vertebrate", "alphamissense": "2023"},
            "scores": out}


def points_of(code):
    if code in ("PP5", "BP6"):
        raise ToolError("%s is not used by this laboratory (retired by ClinGen SVI, 2018): evaluate the evidence behind "
                        "the reputable source's classification directly (PS3/BS3, PS4, ...) instead" % code)
    base, _, mod = code.partition("_")
    if base not in CODES:
        raise ToolError("unknown criterion %r; known: %s, with an optional strength _VeryStrong, _Strong, _Moderate "
                        "or _Supporting" % (code, " ".join(sorted(CODES))))
    if base == "PM2" and mod != "Supporting":
        raise ToolError("PM2 is applied at supporting strength only (SOP, ClinGen SVI 2020): use PM2_Supporting")
    if base == "BA1":
        if mod:
            raise ToolError("BA1 takes no strength modifier")
        return "StandAlone", None
    strength = mod or BASE[base[:-1] if base != "PVS1" else "PVS"]
    if strength not in STRENGTH:
        raise ToolError("unknown strength %r in %r (VeryStrong, Strong, Moderate, Supporting)" % (mod, code))
    pts = STRENGTH[strength]
    return strength, (-pts if base.startswith("B") else pts)


def classify(total):
    if total >= 10:
        return "Pathogenic"
    if total >= 6:
        return "Likely pathogenic"
    if total >= 0:
        return "Uncertain significance"
    if total >= -6:
        return "Likely benign"
    return "Benign"


def acmg(args):
    key = key_arg(args)
    crit = need(args, "criteria")
    if not isinstance(crit, list):
        raise ToolError("criteria must be a list of codes like [\"PVS1\" \"PM2_Supporting\"]")
    rows = []
    for c in crit:
        strength, pts = points_of(c)
        rows.append({"code": c, "strength": strength, "points": pts})
    if any(r["strength"] == "StandAlone" for r in rows):
        total, cls = None, "Benign"
    else:
        total = sum(r["points"] for r in rows)
        cls = classify(total)
    return {"variant": key, "criteria": rows, "total_points": total, "classification": cls,
            "scheme": "ACMG/AMP 2015, ClinGen SVI Bayesian points (P >= 10, LP 6-9, VUS 0-5, LB -1 to -6, B <= -7)"}


def prior_cases(args):
    keys = args.get("variants")
    gene = args.get("gene")
    if not keys and not gene:
        raise ToolError("give variants (GRCh38 keys) or a gene")
    for k in keys or []:
        key_arg({"variant": k})
    rows = [r for r in w.PRIOR if (keys and r["variant"] in keys) or (gene and r["gene"] == gene)]
    return {"database": "St. Aldric MDx case database", "count": len(rows), "cases": rows}


def submit_report(args):
    if need(args, "case_id") != w.CASE_ID:
        raise ToolError("case_id must be %s" % w.CASE_ID)
    if need(args, "sample_id") != w.SAMPLE_ID:
        raise ToolError("sample_id must be %s" % w.SAMPLE_ID)
    need(args, "summary")
    variants = need(args, "variants")
    out = []
    for v in variants:
        for f in ("gene", "variant", "transcript", "hgvs_c", "zygosity", "classification", "criteria", "points"):
            if v.get(f) in (None, ""):
                raise ToolError("a reported variant lacks %s" % f)
        k = v["variant"]
        c = CALL_BY_KEY.get(k)
        if not c or c[8] != "PASS":
            raise ToolError("%s is not a PASS call of sample %s" % (k, w.SAMPLE_ID))
        if v["transcript"] != w.MANE[c[1]]:
            raise ToolError("%s: %s is not the MANE Select transcript of %s (%s)" % (k, v["transcript"], c[1], w.MANE[c[1]]))
        if v["hgvs_c"] != w.MANE_ANN[k][0]:
            raise ToolError("%s: hgvs_c %s does not match the MANE annotation %s" % (k, v["hgvs_c"], w.MANE_ANN[k][0]))
        total = sum(points_of(x)[1] for x in v["criteria"])
        if total != v["points"] or classify(total) != v["classification"]:
            raise ToolError("%s: criteria give %d points (%s), the report says %s points (%s)"
                            % (k, total, classify(total), v["points"], v["classification"]))
        if v["classification"] not in CLASSES[:3]:
            raise ToolError("%s: %s belongs in the appendix" % (k, v["classification"]))
        out.append("%s %s:%s %s" % (c[1], v["transcript"], v["hgvs_c"], v["classification"]))
    appendix = args.get("appendix") or []
    for a in appendix:
        k = a.get("variant")
        if k not in CALL_BY_KEY:
            raise ToolError("appendix: %r is not a call of sample %s" % (k, w.SAMPLE_ID))
        if a.get("classification") not in CLASSES[3:]:
            raise ToolError("appendix: %s must be Likely benign or Benign" % k)
    rid = "RPT-24-%05d" % (crc("report", w.CASE_ID) % 100000)
    return {"report_id": rid, "case_id": w.CASE_ID, "status": "awaiting sign-out", "signing_director": w.DIRECTOR,
            "submitted": "2024-10-21T16:42:07+02:00", "reported": out, "appendix_count": len(appendix),
            "flags": args.get("flags") or [], "url": "https://lims.staldric.example/reports/%s" % rid}


TOOLS = {"gx-case-docs": case_docs, "gx-vcf": vcf, "gx-annotate": annotate, "gx-popfreq": popfreq,
         "gx-liftover": liftover, "gx-clinvar": clinvar, "gx-literature": literature,
         "gx-gene-validity": gene_validity, "gx-insilico": insilico, "gx-acmg": acmg, "gx-prior-cases": prior_cases,
         "gx-submit-report": submit_report}

if __name__ == "__main__":
    serve(TOOLS)
