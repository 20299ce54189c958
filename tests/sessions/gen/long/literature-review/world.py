"""The world of the `literature-review` session: a bibliographic index, the
publishers' records, tables and full text of the papers on retrieval-augmented
ICD-10 coding, author profiles, retraction and correction notices and venue
rankings, as of 2025-02-10, for the related-work section of a grant proposal.
Planted: the index holds the arXiv preprint (v1) and the ACL 2024 version of
the same paper as two records; v1's headline micro-F1 (58.9) was computed with
a retrieval index that leaked test admissions and is corrected to 56.3 in v2
and in the published version. The index lists the ClinicalNLP 2023 workshop
paper (a title one letter group away from the ACL paper's) under Ana
Lindqvist (Uppsala), but its first author is Anna Lindquist (Karolinska). A
JBHI paper claiming 71.4 micro-F1 was retracted. Deterministic: tool.py and
answers.py read it."""
import re
import unicodedata

AS_OF = "2025-02-10"
PROPOSAL_ID = "VR-2025-03817"
MAX_WORDS = 900
STYLES = ["vancouver", "apa-7", "acm-sig", "ieee"]

# --- papers: the index's view (search) and the publisher's record ---------------------------
# key: an internal name. "index" is what lit-search shows; the rest is the record.
PAPERS = {
    "nguyen-pre": {
        "index": {"authors": "Nguyen, T. H.; Okafor, C.; Lindqvist, A.", "venue": "arXiv", "citations": 64,
                  "type": "preprint"},
        "title": "Retrieval-Augmented Generation for Automated ICD-10 Coding of Discharge Summaries",
        "authors": ["Nguyen, T. H.", "Okafor, C.", "Lindqvist, A."],
        "venue": "arXiv preprint", "year": 2024, "doi": None, "arxiv": "2403.01178v1", "pages": None,
        "volume": None, "issue": None, "published": "2024-03-02",
        "versions": [{"version": "v1", "date": "2024-03-02", "comment": "18 pages, 4 figures"},
                     {"version": "v2", "date": "2024-06-18", "comment": "camera-ready, ACL 2024"}],
        "keywords": ["retrieval-augmented generation", "ICD-10", "clinical coding", "MIMIC-IV", "large language models"],
        "abstract": "Assigning ICD-10 codes to discharge summaries is a long-tailed multi-label problem on which "
                    "fine-tuned encoders still fail for rare codes. We present CodeRAG, which retrieves the "
                    "descriptions of candidate codes and similar training admissions and lets a large language "
                    "model select and justify codes. Retrieving the descriptions of candidate codes together with "
                    "the five most similar training admissions improves micro-F1 on the full ICD-10 code set by "
                    "4.1 points over a fine-tuned long-document encoder, with the largest gains on codes seen "
                    "fewer than ten times in training. We release code and retrieval indexes.",
        "sections": [("1 Introduction", 1), ("2 Related Work", 2), ("3 CodeRAG", 3), ("3.2 Retrieval Index", 4),
                     ("4 Experimental Setup", 5), ("5 Results", 6), ("6 Rare Codes", 9), ("7 Limitations", 11),
                     ("References", 12)],
        "references": ["haddad-jbi", "lindquist-ws", "ferreira-findings", "lewis-neurips", "johnson-mimic",
                       "kowalczyk-lrec", "okafor-jamia"],
    },
    "nguyen-acl": {
        "index": {"authors": "Nguyen, T. H.; Okafor, C.; Lindqvist, A.", "venue": "ACL 2024", "citations": 23,
                  "type": "proceedings-article"},
        "title": "Retrieval-Augmented Generation for Automated ICD-10 Coding of Discharge Summaries",
        "authors": ["Nguyen, T. H.", "Okafor, C.", "Lindqvist, A."],
        "venue": "Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics "
                 "(Volume 1: Long Papers)",
        "year": 2024, "doi": "10.18653/v1/2024.acl-long.224", "arxiv": "2403.01178v2", "pages": "4127-4141",
        "volume": "1", "issue": None, "published": "2024-08-11", "publisher": "Association for Computational Linguistics",
        "versions": [{"version": "published", "date": "2024-08-11",
                      "comment": "supersedes arXiv:2403.01178v1 (retrieval index rebuilt without test-split admissions)"}],
        "keywords": ["retrieval-augmented generation", "ICD-10", "clinical coding", "MIMIC-IV", "large language models"],
        "abstract": "Assigning ICD-10 codes to discharge summaries is a long-tailed multi-label problem on which "
                    "fine-tuned encoders still fail for rare codes. We present CodeRAG, which retrieves the "
                    "descriptions of candidate codes and similar training admissions and lets a large language "
                    "model select and justify codes. Retrieving the descriptions of candidate codes together with "
                    "the five most similar training admissions improves micro-F1 on the full ICD-10 code set by "
                    "1.5 points over a fine-tuned long-document encoder, with the largest gains on codes seen "
                    "fewer than ten times in training. We release code and retrieval indexes.",
        "sections": [("1 Introduction", 4127), ("2 Related Work", 4128), ("3 CodeRAG", 4129),
                     ("3.2 Retrieval Index", 4130), ("4 Experimental Setup", 4131), ("5 Results", 4132),
                     ("6 Rare Codes", 4135), ("7 Limitations", 4137), ("References", 4138)],
        "references": ["haddad-jbi", "lindquist-ws", "ferreira-findings", "lewis-neurips", "johnson-mimic",
                       "kowalczyk-lrec", "okafor-jamia"],
    },
    "lindquist-ws": {
        "index": {"authors": "Lindqvist, A.; Berg, M.; Haddad, R.", "venue": "ClinicalNLP 2023", "citations": 41,
                  "type": "proceedings-article"},
        "title": "Retrieval-Augmented Generation for Automated ICD Coding of Discharge Summaries",
        "authors": ["Lindquist, A.", "Berg, M.", "Haddad, R."],
        "venue": "Proceedings of the 5th Clinical Natural Language Processing Workshop", "year": 2023,
        "doi": "10.18653/v1/2023.clinicalnlp-1.14", "arxiv": None, "pages": "112-121", "volume": None,
        "issue": None, "published": "2023-07-14", "publisher": "Association for Computational Linguistics",
        "versions": [{"version": "published", "date": "2023-07-14", "comment": ""}],
        "keywords": ["ICD coding", "retrieval", "MIMIC-III", "discharge summaries"],
        "abstract": "We study whether retrieving similar discharge summaries helps a sequence-to-sequence model "
                    "assign ICD-9 codes. On the 50 most frequent codes of MIMIC-III, adding the three nearest "
                    "training summaries to the input raises micro-F1 from 65.9 to 68.2. Gains vanish on the full "
                    "code set, where retrieved neighbours rarely share the rare codes.",
        "sections": [("1 Introduction", 112), ("2 Method", 113), ("3 Experiments", 115), ("4 Results", 116),
                     ("5 Limitations", 119), ("References", 120)],
        "references": ["lewis-neurips"],
    },
    "haddad-jbi": {
        "index": {"authors": "Haddad, R.; Sørensen, K.; Ito, M.", "venue": "J Biomed Inform", "citations": 118,
                  "type": "journal-article"},
        "title": "PLM-ICD10: Long-Document Encoders for ICD-10 Coding on MIMIC-IV",
        "authors": ["Haddad, R.", "Sørensen, K.", "Ito, M."],
        "venue": "Journal of Biomedical Informatics", "year": 2023, "doi": "10.1016/j.jbi.2023.104362",
        "arxiv": None, "pages": "104362", "volume": "141", "issue": None, "published": "2023-04-20",
        "publisher": "Elsevier",
        "versions": [{"version": "published", "date": "2023-04-20", "comment": ""}],
        "keywords": ["ICD-10", "MIMIC-IV", "long-document encoders", "benchmark"],
        "abstract": "We establish ICD-10 coding baselines on MIMIC-IV with long-document pretrained encoders. "
                    "PLM-ICD10 reaches a micro-F1 of 54.8 on the full code set and 9.3 points less on codes "
                    "with fewer than ten training examples.",
        "sections": [("1 Introduction", 1), ("2 Data", 3), ("3 Models", 4), ("4 Results", 7), ("5 Discussion", 10)],
        "references": ["johnson-mimic"],
    },
    "okafor-jamia": {
        "index": {"authors": "Okafor, C.; Nguyen, T. H.; Wright, J.", "venue": "J Am Med Inform Assoc",
                  "citations": 37, "type": "journal-article"},
        "title": "Code Descriptions as Retrieval Keys: Few-Shot ICD-10 Coding with Large Language Models",
        "authors": ["Okafor, C.", "Nguyen, T. H.", "Wright, J."],
        "venue": "Journal of the American Medical Informatics Association", "year": 2024,
        "doi": "10.1093/jamia/ocae142", "arxiv": None, "pages": "1987-1999", "volume": "31", "issue": "9",
        "published": "2024-06-27", "publisher": "Oxford University Press",
        "versions": [{"version": "published", "date": "2024-06-27", "comment": ""}],
        "keywords": ["ICD-10", "few-shot", "large language models", "retrieval", "rare codes", "MIMIC-IV"],
        "abstract": "Large language models know ICD-10 poorly from pretraining alone. Retrieving code descriptions "
                    "as keys and eight annotated examples per candidate lets GPT-4o code MIMIC-IV discharge "
                    "summaries with a macro-F1 of 14.2, the best reported on rare codes, at a micro-F1 below "
                    "fine-tuned encoders.",
        "sections": [("Introduction", 1987), ("Methods", 1988), ("Results", 1992), ("Discussion", 1995),
                     ("Conclusion", 1997)],
        "references": ["haddad-jbi", "ferreira-findings"],
    },
    "ferreira-findings": {
        "index": {"authors": "Ferreira, L.; Walsh, D.; Kim, S.", "venue": "Findings of EMNLP 2023",
                  "citations": 92, "type": "proceedings-article"},
        "title": "Zero-Shot ICD-10 Coding with Instruction-Tuned Language Models: A Reality Check",
        "authors": ["Ferreira, L.", "Walsh, D.", "Kim, S."],
        "venue": "Findings of the Association for Computational Linguistics: EMNLP 2023", "year": 2023,
        "doi": "10.18653/v1/2023.findings-emnlp.611", "arxiv": None, "pages": "9120-9133", "volume": None,
        "issue": None, "published": "2023-12-06", "publisher": "Association for Computational Linguistics",
        "versions": [{"version": "published", "date": "2023-12-06", "comment": ""}],
        "keywords": ["ICD-10", "zero-shot", "large language models", "evaluation", "clinical coding"],
        "abstract": "Instruction-tuned language models are often said to code clinical text out of the box. On "
                    "MIMIC-IV they do not: GPT-4 reaches a micro-F1 of 21.7 on the full ICD-10 code set and "
                    "invents codes that do not exist in 6.8% of its answers.",
        "sections": [("1 Introduction", 9120), ("2 Setup", 9121), ("3 Results", 9124), ("4 Error Analysis", 9127)],
        "references": ["haddad-jbi"],
    },
    "patel-jbhi": {
        "index": {"authors": "Patel, V.; Zhou, L.; Marsh, E.", "venue": "IEEE J Biomed Health Inform",
                  "citations": 112, "type": "journal-article"},
        "title": "ClinRAG: Retrieval-Augmented Clinical Coding Reaches Human Parity on MIMIC-IV",
        "authors": ["Patel, V.", "Zhou, L.", "Marsh, E."],
        "venue": "IEEE Journal of Biomedical and Health Informatics", "year": 2024,
        "doi": "10.1109/JBHI.2024.3381125", "arxiv": None, "pages": "4012-4023", "volume": "28", "issue": "7",
        "published": "2024-03-28", "publisher": "IEEE",
        "versions": [{"version": "published", "date": "2024-03-28", "comment": ""}],
        "keywords": ["retrieval-augmented generation", "clinical coding", "ICD-10", "MIMIC-IV", "human parity"],
        "abstract": "ClinRAG combines dense retrieval over coding guidelines with a fine-tuned generator and "
                    "reaches a micro-F1 of 71.4 on MIMIC-IV ICD-10 coding, on par with professional coders.",
        "sections": [("I. Introduction", 4012), ("II. Method", 4014), ("III. Experiments", 4017),
                     ("IV. Results", 4019), ("V. Conclusion", 4022)],
        "references": ["lewis-neurips", "haddad-jbi"],
    },
    "kowalczyk-lrec": {
        "index": {"authors": "Kowalczyk, P.; Haddad, R.", "venue": "LREC-COLING 2024", "citations": 15,
                  "type": "proceedings-article"},
        "title": "Label-Wise Attention for ICD-10 Coding Revisited: A Replication on MIMIC-IV",
        "authors": ["Kowalczyk, P.", "Haddad, R."],
        "venue": "Proceedings of the 2024 Joint International Conference on Computational Linguistics, "
                 "Language Resources and Evaluation (LREC-COLING 2024)", "year": 2024, "doi": None,
        "arxiv": "2402.05517v1", "pages": "8301-8312", "volume": None, "issue": None, "published": "2024-05-20",
        "publisher": "ELRA and ICCL",
        "versions": [{"version": "v1", "date": "2024-02-08", "comment": "LREC-COLING 2024"}],
        "keywords": ["ICD-10", "replication", "label-wise attention", "MIMIC-IV"],
        "abstract": "We replicate four label-wise attention models on MIMIC-IV ICD-10 and find that most reported "
                    "gains over a well-tuned baseline are within seed variance.",
        "sections": [("1 Introduction", 8301), ("2 Replication Setup", 8302), ("3 Results", 8305),
                     ("4 Discussion", 8309)],
        "references": ["haddad-jbi", "johnson-mimic"],
    },
    "lindqvist-survey": {
        "index": {"authors": "Lindqvist, A.; Nguyen, T. H.; Okafor, C.", "venue": "ACM Comput Surv",
                  "citations": 19, "type": "journal-article"},
        "title": "Automated ICD Coding in the Era of Large Language Models: A Survey",
        "authors": ["Lindqvist, A.", "Nguyen, T. H.", "Okafor, C."],
        "venue": "ACM Computing Surveys", "year": 2025, "doi": "10.1145/3708521", "arxiv": None,
        "pages": "148:1-148:38", "volume": "57", "issue": "6", "published": "2025-01-14", "publisher": "ACM",
        "versions": [{"version": "published", "date": "2025-01-14", "comment": ""}],
        "keywords": ["survey", "ICD coding", "large language models", "retrieval-augmented generation", "clinical coding"],
        "abstract": "We survey automated ICD coding from label-wise attention to large language models. Across 41 "
                    "studies, retrieval of code descriptions and similar admissions is the most consistent source "
                    "of gains on rare codes, but reported improvements shrink once retrieval corpora are "
                    "deduplicated against the test split. We close with open problems: non-English notes, "
                    "auditable justifications, and evaluation on the full code set.",
        "sections": [("1 Introduction", 1), ("2 Task and Datasets", 4), ("3 Encoder Models", 9),
                     ("4 Large Language Models", 15), ("4.3 Retrieval Augmentation", 19), ("5 Evaluation Pitfalls", 24),
                     ("6 Non-English Coding", 28), ("7 Open Problems", 31)],
        "references": ["haddad-jbi", "nguyen-acl", "okafor-jamia", "ferreira-findings", "lindqvist-lrec"],
    },
    "lewis-neurips": {
        "index": {"authors": "Lewis, P.; Perez, E.; Piktus, A.; Petroni, F.; Karpukhin, V.; Goyal, N.; Küttler, H.; "
                             "Lewis, M.; Yih, W.; Rocktäschel, T.; Riedel, S.; Kiela, D.",
                  "venue": "NeurIPS 2020", "citations": 4816, "type": "proceedings-article"},
        "title": "Retrieval-Augmented Generation for Knowledge-Intensive NLP Tasks",
        "authors": ["Lewis, P.", "Perez, E.", "Piktus, A.", "Petroni, F.", "Karpukhin, V.", "Goyal, N.",
                    "Küttler, H.", "Lewis, M.", "Yih, W.", "Rocktäschel, T.", "Riedel, S.", "Kiela, D."],
        "venue": "Advances in Neural Information Processing Systems 33", "year": 2020, "doi": None,
        "arxiv": "2005.11401v4", "pages": "9459-9474", "volume": "33", "issue": None, "published": "2020-12-06",
        "publisher": "Curran Associates",
        "versions": [{"version": "v4", "date": "2021-04-12", "comment": "NeurIPS 2020"}],
        "keywords": ["retrieval-augmented generation", "question answering", "dense retrieval"],
        "abstract": "We explore a general-purpose fine-tuning recipe for retrieval-augmented generation (RAG), "
                    "models which combine pre-trained parametric and non-parametric memory for language generation.",
        "sections": [("1 Introduction", 1), ("2 Methods", 2), ("3 Experiments", 4), ("4 Results", 5)],
        "references": [],
    },
    "okafor-chain": {
        "index": {"authors": "Okafor, C.; Lindqvist, A.", "venue": "arXiv", "citations": 6, "type": "preprint"},
        "title": "Chain-of-Retrieval Prompting for ICD-10 Code Assignment",
        "authors": ["Okafor, C.", "Lindqvist, A."],
        "venue": "arXiv preprint", "year": 2024, "doi": None, "arxiv": "2409.11873v1", "pages": None,
        "volume": None, "issue": None, "published": "2024-09-18",
        "versions": [{"version": "v1", "date": "2024-09-18", "comment": "12 pages"}],
        "keywords": ["ICD-10", "retrieval", "prompting", "large language models", "MIMIC-IV"],
        "abstract": "Chain-of-retrieval prompting lets a language model walk the ICD-10 hierarchy, retrieving "
                    "the children of each chapter it selects; it reaches 55.1 micro-F1 on MIMIC-IV.",
        "sections": [("1 Introduction", 1), ("2 Method", 2), ("3 Results", 6)],
        "references": ["nguyen-pre", "haddad-jbi"],
    },
    "johnson-mimic": {
        "index": {"authors": "Johnson, A. E. W.; Bulgarelli, L.; Shen, L.; Gayles, A.; Shammout, A.; Horng, S.; "
                             "Pollard, T. J.; Hao, S.; Moody, B.; Gow, B.; Lehman, L. H.; Celi, L. A.; Mark, R. G.",
                  "venue": "Sci Data", "citations": 1530, "type": "journal-article"},
        "title": "MIMIC-IV, a freely accessible electronic health record dataset",
        "authors": ["Johnson, A. E. W.", "Bulgarelli, L.", "Shen, L.", "Gayles, A.", "Shammout, A.", "Horng, S.",
                    "Pollard, T. J.", "Hao, S.", "Moody, B.", "Gow, B.", "Lehman, L. H.", "Celi, L. A.", "Mark, R. G."],
        "venue": "Scientific Data", "year": 2023, "doi": "10.1038/s41597-022-01899-x", "arxiv": None, "pages": "1",
        "volume": "10", "issue": None, "published": "2023-01-03", "publisher": "Nature Publishing Group",
        "versions": [{"version": "published", "date": "2023-01-03", "comment": ""}],
        "keywords": ["MIMIC-IV", "electronic health records", "dataset"],
        "abstract": "MIMIC-IV is a publicly available database sourced from the electronic health record of the "
                    "Beth Israel Deaconess Medical Center.",
        "sections": [("Background", 1), ("Methods", 2), ("Data Records", 4)],
        "references": [],
    },
    "lindqvist-lrec": {
        "index": {"authors": "Lindqvist, A.; Berg, M.; Holm, E.", "venue": "LREC 2022", "citations": 28,
                  "type": "proceedings-article"},
        "title": "Automated ICD-10 Coding of Swedish Discharge Summaries with Domain-Adapted Transformers",
        "authors": ["Lindqvist, A.", "Berg, M.", "Holm, E."],
        "venue": "Proceedings of the Thirteenth Language Resources and Evaluation Conference", "year": 2022,
        "doi": None, "arxiv": "2205.08263v1", "pages": "3412-3421", "volume": None, "issue": None,
        "published": "2022-06-20", "publisher": "European Language Resources Association",
        "versions": [{"version": "v1", "date": "2022-05-17", "comment": "LREC 2022"}],
        "keywords": ["ICD-10", "Swedish", "clinical coding", "transformers", "non-English"],
        "abstract": "We code Swedish discharge summaries from a university hospital with a domain-adapted "
                    "Swedish BERT and reach a micro-F1 of 0.61 on the 100 most frequent ICD-10 codes.",
        "sections": [("1 Introduction", 3412), ("2 Data", 3413), ("3 Models", 3415), ("4 Results", 3417)],
        "references": [],
    },
    "chen-radiology": {
        "index": {"authors": "Chen, Y.; Ito, M.", "venue": "arXiv", "citations": 11, "type": "preprint"},
        "title": "Retrieval-Augmented Generation for Radiology Report Summarization",
        "authors": ["Chen, Y.", "Ito, M."], "venue": "arXiv preprint", "year": 2024, "doi": None,
        "arxiv": "2404.06231v2", "pages": None, "volume": None, "issue": None, "published": "2024-04-09",
        "versions": [{"version": "v2", "date": "2024-05-30", "comment": ""}],
        "keywords": ["retrieval-augmented generation", "radiology", "summarization"],
        "abstract": "We retrieve similar prior reports to guide the generation of radiology impressions.",
        "sections": [("1 Introduction", 1), ("2 Method", 2)],
        "references": [],
    },
    "berg-medinfo": {
        "index": {"authors": "Berg, M.; Lindquist, A.", "venue": "Stud Health Technol Inform", "citations": 9,
                  "type": "journal-article"},
        "title": "Coding Audits of Swedish Hospital Discharge Records: Agreement Between Professional Coders",
        "authors": ["Berg, M.", "Lindquist, A."],
        "venue": "Studies in Health Technology and Informatics", "year": 2023, "doi": "10.3233/SHTI230219",
        "arxiv": None, "pages": "612-616", "volume": "302", "issue": None, "published": "2023-05-18",
        "publisher": "IOS Press",
        "versions": [{"version": "published", "date": "2023-05-18", "comment": ""}],
        "keywords": ["clinical coding", "audit", "Swedish", "inter-annotator agreement", "ICD-10"],
        "abstract": "Two professional coders re-coded 1,200 Swedish discharge records; they agreed on the "
                    "principal ICD-10 diagnosis in 78.5% of them and on the full code set in 43.1%.",
        "sections": [("Introduction", 612), ("Methods", 613), ("Results", 614), ("Discussion", 615)],
        "references": [],
    },
}

ORDER = list(PAPERS)


def ident(p):
    """The identifier a tool shows: the DOI, else the arXiv id."""
    return p["doi"] or p["arxiv"]


def arxiv_base(a):
    return re.sub(r"v\d+$", "", a) if a else None


def find(identifier):
    """The paper with this DOI or arXiv id (any version of it: the preprint when the base id is given
    or its version is the preprint's), or None."""
    if not isinstance(identifier, str):
        return None
    s = identifier.strip()
    low = s.lower()
    for k in ORDER:
        p = PAPERS[k]
        if p["doi"] and p["doi"].lower() == low:
            return k
    base = arxiv_base(low.replace("arxiv:", ""))
    hits = [k for k in ORDER if PAPERS[k]["arxiv"] and arxiv_base(PAPERS[k]["arxiv"]) == base]
    if not hits:
        return None
    # 2403.01178 and 2403.01178v1 are the preprint; v2 is the published text
    exact = [k for k in hits if PAPERS[k]["arxiv"] == low.replace("arxiv:", "")]
    if exact:
        return exact[0]
    return hits[0]


# --- tables (benchmark results) ---------------------------------------------------------------
COLS = ["Model", "Micro-F1", "Macro-F1", "P@15"]
T_V1 = [["PLM-ICD10 (Haddad et al., 2023)", "54.8 ± 0.4", "8.9 ± 0.3", "61.2 ± 0.5"],
        ["GPT-4 zero-shot (Ferreira et al., 2023)", "21.7", "3.1", "—"],
        ["CodeRAG, BM25 retrieval", "57.2 ± 0.5", "11.8 ± 0.4", "63.0 ± 0.6"],
        ["CodeRAG, hybrid retrieval", "58.9 ± 0.6", "12.6 ± 0.5", "64.1 ± 0.4"]]
T_PUB = [["PLM-ICD10 (Haddad et al., 2023)", "54.8 ± 0.4", "8.9 ± 0.3", "61.2 ± 0.5"],
         ["GPT-4 zero-shot (Ferreira et al., 2023)", "21.7", "3.1", "—"],
         ["CodeRAG, BM25 retrieval", "55.0 ± 0.6", "10.9 ± 0.4", "61.8 ± 0.5"],
         ["CodeRAG, hybrid retrieval", "56.3 ± 0.7", "11.4 ± 0.5", "62.5 ± 0.5"]]
CAPTION = "Results on the MIMIC-IV ICD-10 test split (full code set, 7,942 codes); mean ± s.d. over 5 seeds."
TABLES = {
    "nguyen-pre": [
        {"table": "Table 2", "page": 7, "caption": CAPTION, "columns": COLS, "rows": T_V1},
        {"table": "Table 3", "page": 9, "caption": "Micro-F1 by training frequency of the gold code (MIMIC-IV ICD-10).",
         "columns": ["Model", "<10", "10-100", ">100"],
         "rows": [["PLM-ICD10", "12.1", "38.6", "63.9"], ["CodeRAG, hybrid retrieval", "24.9", "45.2", "65.0"]]}],
    "nguyen-acl": [
        {"table": "Table 2", "page": 4133, "caption": CAPTION, "columns": COLS, "rows": T_PUB},
        {"table": "Table 3", "page": 4135, "caption": "Micro-F1 by training frequency of the gold code (MIMIC-IV ICD-10).",
         "columns": ["Model", "<10", "10-100", ">100"],
         "rows": [["PLM-ICD10", "12.1", "38.6", "63.9"], ["CodeRAG, hybrid retrieval", "19.7", "42.0", "64.2"]]}],
    "haddad-jbi": [
        {"table": "Table 3", "page": 8, "caption": "MIMIC-IV ICD-10, full code set, test split; mean ± s.d. over 3 runs.",
         "columns": COLS,
         "rows": [["CAML", "47.3 ± 0.6", "4.1 ± 0.2", "55.0 ± 0.7"], ["LAAT", "52.0 ± 0.5", "6.8 ± 0.3", "59.1 ± 0.4"],
                  ["PLM-ICD10", "54.8 ± 0.4", "8.9 ± 0.3", "61.2 ± 0.5"]]}],
    "okafor-jamia": [
        {"table": "Table 2", "page": 1993, "caption": "MIMIC-IV ICD-10 test split, full code set.",
         "columns": COLS,
         "rows": [["PLM-ICD10 (fine-tuned)", "54.8 ± 0.4", "8.9 ± 0.3", "61.2 ± 0.5"],
                  ["GPT-4o, 8-shot, no retrieval", "31.5 ± 1.4", "6.0 ± 0.7", "—"],
                  ["DescRAG, GPT-4o, 8-shot", "52.6 ± 1.1", "14.2 ± 0.9", "—"]]}],
    "ferreira-findings": [
        {"table": "Table 1", "page": 9124, "caption": "Zero-shot coding, MIMIC-IV ICD-10 test split (full code set).",
         "columns": COLS,
         "rows": [["Llama-2-70B-chat", "9.8", "1.2", "—"], ["GPT-3.5-turbo", "14.3", "1.9", "—"],
                  ["GPT-4", "21.7", "3.1", "—"]]}],
    "patel-jbhi": [
        {"table": "Table IV", "page": 4019, "caption": "Results on MIMIC-IV ICD-10 (test split).",
         "columns": COLS,
         "rows": [["PLM-ICD10", "54.8 ± 0.4", "8.9 ± 0.3", "61.2 ± 0.5"],
                  ["ClinRAG", "71.4 ± 0.8", "23.5 ± 0.6", "78.3 ± 0.7"]]}],
    "kowalczyk-lrec": [
        {"table": "Table 2", "page": 8306, "caption": "Replicated models, MIMIC-IV ICD-10 full code set; mean ± s.d. over 10 seeds.",
         "columns": COLS,
         "rows": [["CAML (replicated)", "46.9 ± 0.8", "3.9 ± 0.3", "54.4 ± 0.9"],
                  ["LAAT (replicated)", "52.1 ± 0.5", "6.6 ± 0.4", "59.0 ± 0.5"]]}],
    "okafor-chain": [
        {"table": "Table 1", "page": 6, "caption": "MIMIC-IV ICD-10, full code set (test split).",
         "columns": COLS,
         "rows": [["PLM-ICD10", "54.8 ± 0.4", "8.9 ± 0.3", "61.2 ± 0.5"],
                  ["Chain-of-retrieval, GPT-4o", "55.1 ± 0.9", "13.0 ± 0.8", "—"]]}],
    "lindquist-ws": [
        {"table": "Table 2", "page": 116, "caption": "MIMIC-III ICD-9, top-50 codes (test split).",
         "columns": ["Model", "Micro-F1", "Macro-F1"],
         "rows": [["T5-base", "65.9", "60.4"], ["T5-base + 3 retrieved summaries", "68.2", "62.7"]]}],
}

# --- full text (paper-snippets) ------------------------------------------------------------------
TEXT = {
    "nguyen-pre": [
        (4, "3.2 Retrieval Index", "The admission index holds the discharge summaries of all MIMIC-IV admissions "
            "with ICD-10 codes, embedded with a clinical sentence encoder; for each note we retrieve the five "
            "nearest admissions and the descriptions of the 40 codes they carry."),
        (7, "5 Results", "CodeRAG with hybrid retrieval is the best system on every metric; the gain over "
            "PLM-ICD10 is largest on macro-F1 (+3.7)."),
        (11, "7 Limitations", "Our evaluation is limited to English discharge summaries from a single US "
             "hospital; code assignment practice differs between countries and coding systems."),
    ],
    "nguyen-acl": [
        (4130, "3.2 Retrieval Index", "The admission index holds the discharge summaries of the MIMIC-IV "
               "training admissions only; an earlier version of this paper indexed all admissions, including "
               "those of the test split, which inflated the results of retrieval-based systems."),
        (4133, "5 Results", "CodeRAG with hybrid retrieval improves on PLM-ICD10 on every metric; the gain is "
               "largest on macro-F1 (+2.5) and on codes seen fewer than ten times in training."),
        (4137, "7 Limitations", "Our evaluation is limited to English discharge summaries from a single US "
               "hospital; code assignment practice differs between countries and coding systems."),
    ],
    "lindqvist-survey": [
        (19, "4.3 Retrieval Augmentation", "Retrieval helps most where supervision is thinnest: every study in "
             "Table 6 reports its largest gains on codes with fewer than ten training examples."),
        (25, "5 Evaluation Pitfalls", "Three of the retrieval-augmented systems we reviewed indexed test "
             "admissions in their retrieval corpus; after deduplication their gains over fine-tuned encoders "
             "fall to between 1 and 2 micro-F1 points."),
        (28, "6 Non-English Coding", "Outside English, published ICD-10 coding results exist for Swedish, "
             "Spanish, German and Chinese, mostly on the most frequent 50-100 codes and never with retrieval "
             "augmentation."),
        (32, "7 Open Problems", "No published system both justifies its codes with retrieved evidence and has "
             "been evaluated by professional coders."),
    ],
    "okafor-jamia": [
        (1994, "Results", "On codes with fewer than ten training examples, DescRAG reaches a micro-F1 of 27.3, "
               "more than twice that of the fine-tuned encoder (12.1)."),
        (1996, "Discussion", "Code descriptions carry most of the benefit: removing the retrieved examples "
               "costs 1.2 macro-F1 points, removing the descriptions 6.4."),
    ],
    "lindquist-ws": [
        (119, "5 Limitations", "We evaluate on ICD-9 codes of MIMIC-III only; whether retrieval helps on the "
              "larger ICD-10 code space is left open."),
    ],
    "berg-medinfo": [
        (614, "Results", "The coders agreed on the principal diagnosis in 78.5% of records (Cohen's kappa "
              "0.74) and on the complete set of codes in 43.1%."),
    ],
}

# --- people ---------------------------------------------------------------------------------------
AUTHORS = [
    {"name": "Lindqvist, Ana", "short": "Lindqvist, A.", "orcid": "0000-0001-7734-5086",
     "affiliations": [{"org": "Uppsala University, Department of Information Technology", "country": "SE",
                       "from": "2019", "to": None},
                      {"org": "KTH Royal Institute of Technology", "country": "SE", "from": "2015", "to": "2019"}],
     "topics": ["clinical NLP", "ICD coding", "Swedish language technology"],
     "works": ["lindqvist-survey", "okafor-chain", "nguyen-acl", "nguyen-pre", "lindqvist-lrec"],
     "h_index": 14},
    {"name": "Lindquist, Anna", "short": "Lindquist, A.", "orcid": "0000-0002-6620-3318",
     "affiliations": [{"org": "Karolinska Institutet, Department of Learning, Informatics, Management and Ethics",
                       "country": "SE", "from": "2018", "to": None}],
     "topics": ["health informatics", "clinical coding quality", "retrieval"],
     "works": ["lindquist-ws", "berg-medinfo"],
     "h_index": 9},
    {"name": "Nguyen, Thanh Hai", "short": "Nguyen, T. H.", "orcid": "0000-0003-4172-9285",
     "affiliations": [{"org": "University of Melbourne, School of Computing and Information Systems",
                       "country": "AU", "from": "2020", "to": None}],
     "topics": ["clinical NLP", "retrieval-augmented generation", "ICD coding"],
     "works": ["nguyen-acl", "nguyen-pre", "okafor-jamia", "lindqvist-survey"], "h_index": 17},
    {"name": "Nguyen, Thu Hang", "short": "Nguyen, T. H.", "orcid": "0000-0002-9051-3346",
     "affiliations": [{"org": "Hanoi Medical University, Institute of Preventive Medicine", "country": "VN",
                       "from": "2016", "to": None}],
     "topics": ["epidemiology", "tuberculosis"], "works": [], "h_index": 11},
    {"name": "Okafor, Chidinma", "short": "Okafor, C.", "orcid": "0000-0001-5581-2237",
     "affiliations": [{"org": "University of Melbourne, Centre for Digital Transformation of Health",
                       "country": "AU", "from": "2021", "to": None}],
     "topics": ["large language models", "clinical coding"],
     "works": ["okafor-jamia", "okafor-chain", "nguyen-acl", "nguyen-pre", "lindqvist-survey"], "h_index": 10},
    {"name": "Haddad, Rami", "short": "Haddad, R.", "orcid": "0000-0002-3390-7718",
     "affiliations": [{"org": "University of Copenhagen, Department of Computer Science", "country": "DK",
                       "from": "2017", "to": None}],
     "topics": ["clinical NLP", "long-document models"],
     "works": ["haddad-jbi", "kowalczyk-lrec", "lindquist-ws"], "h_index": 21},
]

# --- notices (retraction-check) -----------------------------------------------------------------
NOTICES = {
    "patel-jbhi": [{"type": "retraction", "date": "2024-10-17", "notice_doi": "10.1109/JBHI.2024.3502271",
                    "source": "IEEE Journal of Biomedical and Health Informatics",
                    "text": "This article has been retracted at the request of the Editor-in-Chief. The results "
                            "reported on MIMIC-IV were obtained on a label set restricted to the 50 most frequent "
                            "codes, which the article does not disclose; the authors could not reproduce them on "
                            "the full code set."}],
    "nguyen-pre": [{"type": "superseded", "date": "2024-06-18", "notice_doi": None, "source": "arXiv",
                    "text": "v1 is superseded by v2 (2024-06-18), the version published at ACL 2024 "
                            "(doi:10.18653/v1/2024.acl-long.224). v2 comment: Fixes leakage in the retrieval index "
                            "(Sec. 3.2): v1 indexed the discharge summaries of test-split admissions. All CodeRAG "
                            "results in Tables 2 and 3 are updated; the hybrid model's micro-F1 is 56.3, not 58.9."}],
    "okafor-jamia": [{"type": "erratum", "date": "2024-11-02", "notice_doi": "10.1093/jamia/ocae288",
                      "source": "Journal of the American Medical Informatics Association",
                      "text": "Correction to: Code Descriptions as Retrieval Keys. The affiliation of the third "
                              "author was given incorrectly; the results are not affected."}],
}

# --- venues (venue-rank) ---------------------------------------------------------------------------
VENUES = [
    {"venue": "Annual Meeting of the Association for Computational Linguistics", "acronym": "ACL",
     "kind": "conference", "core_rank": "A*", "h5_index": 215, "quartile": None, "impact_factor": None},
    {"venue": "Clinical Natural Language Processing Workshop", "acronym": "ClinicalNLP", "kind": "workshop",
     "core_rank": None, "h5_index": 21, "quartile": None, "impact_factor": None,
     "note": "workshops are not ranked by CORE"},
    {"venue": "Findings of the Association for Computational Linguistics: EMNLP", "acronym": "Findings of EMNLP",
     "kind": "conference", "core_rank": None, "h5_index": 92, "quartile": None, "impact_factor": None,
     "note": "Findings volumes are not ranked separately; EMNLP is A*"},
    {"venue": "Joint International Conference on Computational Linguistics, Language Resources and Evaluation",
     "acronym": "LREC-COLING", "kind": "conference", "core_rank": "B", "h5_index": 64, "quartile": None,
     "impact_factor": None},
    {"venue": "Language Resources and Evaluation Conference", "acronym": "LREC", "kind": "conference",
     "core_rank": "B", "h5_index": 64, "quartile": None, "impact_factor": None},
    {"venue": "Conference on Neural Information Processing Systems", "acronym": "NeurIPS", "kind": "conference",
     "core_rank": "A*", "h5_index": 337, "quartile": None, "impact_factor": None},
    {"venue": "Journal of Biomedical Informatics", "acronym": "J Biomed Inform", "kind": "journal",
     "core_rank": None, "h5_index": 71, "quartile": "Q1", "impact_factor": 4.0},
    {"venue": "Journal of the American Medical Informatics Association", "acronym": "J Am Med Inform Assoc",
     "kind": "journal", "core_rank": None, "h5_index": 98, "quartile": "Q1", "impact_factor": 4.7},
    {"venue": "IEEE Journal of Biomedical and Health Informatics", "acronym": "IEEE J Biomed Health Inform",
     "kind": "journal", "core_rank": None, "h5_index": 88, "quartile": "Q1", "impact_factor": 6.7},
    {"venue": "ACM Computing Surveys", "acronym": "ACM Comput Surv", "kind": "journal", "core_rank": None,
     "h5_index": 163, "quartile": "Q1", "impact_factor": 23.8},
    {"venue": "Scientific Data", "acronym": "Sci Data", "kind": "journal", "core_rank": None, "h5_index": 102,
     "quartile": "Q1", "impact_factor": 5.8},
    {"venue": "Studies in Health Technology and Informatics", "acronym": "Stud Health Technol Inform",
     "kind": "book series", "core_rank": None, "h5_index": 31, "quartile": "Q3", "impact_factor": None},
]

# --- citation keys ---------------------------------------------------------------------------------
STOP = {"a", "an", "the", "on", "of", "for", "in", "and", "to", "with"}


def ascii_fold(s):
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode()


def cite_key(authors, year, title):
    """surname of the first author (ASCII, lower case) + year + first word of the title that is not a
    stop word (letters only, up to the first non-letter)."""
    surname = re.sub(r"[^a-z]", "", ascii_fold(authors[0].split(",")[0]).lower())
    words = [re.match(r"[a-z]*", ascii_fold(w).lower()).group(0) for w in title.split()]
    first = next(w for w in words if w and w not in STOP)
    return "%s%s%s" % (surname, year, first)


def initials(short):
    """'Nguyen, T. H.' -> 'Nguyen TH' (Vancouver)."""
    surname, _, given = short.partition(",")
    return "%s %s" % (surname.strip(), re.sub(r"[^A-Z]", "", given))
