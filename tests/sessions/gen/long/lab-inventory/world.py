"""The world of the `lab-inventory` session: the Okafor Lab (Department of
Molecular Medicine, Lindqvist Institute), rooms B2.114 (main lab) and B2.116
(cold room), on 2025-03-11 at 09:00, three days before the EHS inspection.

Planted:
- segregation: hydrogen peroxide 30 % (an oxidizer, INV-0249) in the
  flammables cabinet B2.114-FC1; sodium hypochlorite (INV-0424) on tray A of
  the acid cabinet B2.114-AC1 with the hydrochloric acids (chlorine) and the
  nitric acid. The base cabinet B2.114-BC1 looks like the hypochlorite's
  place but holds triethylamine (a flammable base): the move is refused; the
  oxidizer cabinet B2.114-OC1 takes both.
- three hydrochloric acid containers share CAS 7647-01-0 in B2.114-AC1: the
  opened 37 % bottle lot K53422817 (expired 2025-02-28), the unopened 37 %
  bottle lot K53422871 (2027-01-31) and a 1 mol/L bottle lot HC310885
  (2025-09-30). An index keyed by CAS keeps only the last of them.
- look-alikes: CAS 7722-84-1 (hydrogen peroxide) / 7722-64-7 (potassium
  permanganate), 7647-01-0 (HCl) / 7647-14-5 (NaCl); acetone lots SZBF2710V
  (in date) / SZBF2170V (expired); samples S-2024-00417 / S-2024-00471;
  freezers FRZ-B2-03 / FRZ-B2-08; fridges REF-B2-04 / REF-B2-07; cabinets
  B2.114-FC1 / B2.114-FC3.
- flammable liquids outside the flammables cabinets and the flammable-rated
  fridge in B2.114: 3600 mL in mL containers plus a 2.5 L and a 4 L
  container: 10.1 L, over the 10 L room limit (summed as if all were mL:
  3606.5 mL, 3.61 L).
- diethyl ether (INV-0801, a peroxide former) opened 2023-10-17, in the
  domestic fridge REF-B2-04 (not rated for flammables).
- FRZ-B2-03 (-80 °C): compressor fault 2025-03-08 01:41; alarm above -70 °C
  at 02:09, cleared 07:43 (334 minutes), peak -51.8 °C at 05:30; readings
  every 30 minutes show it above -70 °C from 02:30 to 07:30 (300 minutes).
  Samples rated -80 °C stored there are flagged; an aliquot in FRZ-B2-08 and
  the -20 °C samples are not.
- SDS: sodium azide (2018) and ammonium persulfate (2019) older than five
  years; none on file for TEMED.
Deterministic: tool.py and answers.py read it."""
from toolkit import crc  # gen/long/, on the path of every importer

LAB = "Okafor Lab"
AS_OF = "2025-03-11T09:00:00+01:00"
AUDIT_DATE = "2025-03-11"
INSPECTION = "2025-03-14"
LAST_CHECK = "2025-03-06T09:00:00+01:00"
COST_CENTER = "CC-4471-MM"

# --- locations -------------------------------------------------------------------------------

FC1, FC3, AC1, BC1, OC1, GC2, SH3, FH1 = ("B2.114-FC1", "B2.114-FC3", "B2.114-AC1", "B2.114-BC1", "B2.114-OC1",
                                           "B2.114-GC2", "B2.114-SH3", "B2.114-FH1")
REF04, REF07 = "REF-B2-04", "REF-B2-07"
FRZ03, FRZ08, FRZ12 = "FRZ-B2-03", "FRZ-B2-08", "FRZ-B2-12"

LOCATIONS = [
    {"location_id": FC1, "room": "B2.114", "kind": "flammables cabinet",
     "description": "Flammables safety cabinet EN 14470-1 type 90, two shelves, self-closing doors, extraction",
     "approved_for": ["FL", "FS"], "capacity_l": 30, "setpoint_c": None, "alarm_high_c": None, "logger": None,
     "responsible": "Tomas Reyes"},
    {"location_id": FC3, "room": "B2.114", "kind": "flammables cabinet",
     "description": "Under-bench flammables cabinet below fume hood FH1, EN 14470-1 type 30",
     "approved_for": ["FL"], "capacity_l": 20, "setpoint_c": None, "alarm_high_c": None, "logger": None,
     "responsible": "Tomas Reyes"},
    {"location_id": AC1, "room": "B2.114", "kind": "acid cabinet",
     "description": "Ventilated acid cabinet, polypropylene spill trays A (left) and B (right)",
     "approved_for": ["AC", "OA"], "capacity_l": 25, "setpoint_c": None, "alarm_high_c": None, "logger": None,
     "responsible": "Tomas Reyes"},
    {"location_id": BC1, "room": "B2.114", "kind": "base cabinet",
     "description": "Ventilated base cabinet, one spill tray", "approved_for": ["BA", "OB"], "capacity_l": 25,
     "setpoint_c": None, "alarm_high_c": None, "logger": None, "responsible": "Tomas Reyes"},
    {"location_id": OC1, "room": "B2.114", "kind": "oxidizer cabinet",
     "description": "Steel cabinet with non-combustible shelving for oxidizers", "approved_for": ["OX", "OB"],
     "capacity_l": 15, "setpoint_c": None, "alarm_high_c": None, "logger": None, "responsible": "Tomas Reyes"},
    {"location_id": GC2, "room": "B2.114", "kind": "general cabinet",
     "description": "General chemicals cabinet, not ventilated", "approved_for": ["GN", "TX", "FS"],
     "capacity_l": 40, "setpoint_c": None, "alarm_high_c": None, "logger": None, "responsible": "Tomas Reyes"},
    {"location_id": SH3, "room": "B2.114", "kind": "open shelf",
     "description": "Open shelf above bench 3 (working quantities)", "approved_for": ["GN"], "capacity_l": None,
     "setpoint_c": None, "alarm_high_c": None, "logger": None, "responsible": "Lena Forsberg"},
    {"location_id": FH1, "room": "B2.114", "kind": "fume hood",
     "description": "Fume hood 1, working storage on the hood floor", "approved_for": ["FL", "TX", "BA", "AC"],
     "capacity_l": None, "setpoint_c": None, "alarm_high_c": None, "logger": None, "responsible": "Lena Forsberg"},
    {"location_id": REF04, "room": "B2.114", "kind": "refrigerator",
     "description": "Refrigerator +4 °C, domestic type, not rated for flammable atmospheres",
     "approved_for": ["GN", "TX"], "capacity_l": None, "setpoint_c": 4, "alarm_high_c": 8, "logger": "TL-2204",
     "responsible": "Lena Forsberg"},
    {"location_id": REF07, "room": "B2.116", "kind": "refrigerator",
     "description": "Refrigerator +4 °C, flammable-safe (spark-free interior, ATEX label)",
     "approved_for": ["GN", "TX", "FL"], "capacity_l": None, "setpoint_c": 4, "alarm_high_c": 8,
     "logger": "TL-2207", "responsible": "Lena Forsberg"},
    {"location_id": FRZ03, "room": "B2.116", "kind": "freezer -80",
     "description": "Ultra-low temperature freezer, upright, 5 racks (samples)", "approved_for": ["samples"],
     "capacity_l": None, "setpoint_c": -80, "alarm_high_c": -70, "logger": "TL-2203", "responsible": "Jonas Berg"},
    {"location_id": FRZ08, "room": "B2.116", "kind": "freezer -80",
     "description": "Ultra-low temperature freezer, upright, 5 racks (samples)", "approved_for": ["samples"],
     "capacity_l": None, "setpoint_c": -80, "alarm_high_c": -70, "logger": "TL-2208", "responsible": "Jonas Berg"},
    {"location_id": FRZ12, "room": "B2.116", "kind": "freezer -20",
     "description": "Freezer -20 °C, upright, auto-defrost (samples, enzymes)", "approved_for": ["samples"],
     "capacity_l": None, "setpoint_c": -20, "alarm_high_c": -15, "logger": "TL-2212", "responsible": "Jonas Berg"},
]
LOC = {x["location_id"]: x for x in LOCATIONS}
CHEM_LOCATIONS = [FC1, FC3, AC1, BC1, OC1, GC2, SH3, FH1, REF04, REF07]
COLD = [REF04, REF07, FRZ03, FRZ08, FRZ12]

# --- chemicals ----------------------------------------------------------------------------------

GROUPS = {
    "FL": "flammable liquids", "FS": "flammable solids", "OX": "oxidizers", "OA": "oxidizing acids",
    "OB": "oxidizing bases (hypochlorite)", "AC": "acids", "BA": "bases", "TX": "toxic substances",
    "GN": "general (no storage restriction)",
}


def item(iid, loc, name, cas, supplier, catalog, lot, conc, amount, unit, position, received, opened, expiry,
         un, groups, ghs, stream, owner="Lena Forsberg"):
    return {"item_id": iid, "location": loc, "name": name, "cas": cas, "supplier": supplier, "catalog_no": catalog,
            "lot": lot, "concentration": conc, "quantity": {"amount": float(amount), "unit": unit}, "position": position,
            "received": received, "opened": opened, "expiry": expiry, "un_class": un, "storage_groups": groups,
            "ghs": ghs, "waste_stream": stream, "owner": owner}


NONHAL = "solvent-nonhalogenated"
ITEMS = [
    # the flammables cabinet
    item("INV-0231", FC1, "Acetone ≥99.5 %", "67-64-1", "Sigma-Aldrich", "179124-2.5L", "SZBF2710V", "≥99.5 %",
         2.5, "L", "shelf 1", "2024-06-12", "2024-09-03", "2027-06-30", "3", ["FL"],
         ["H225", "H319", "H336", "EUH066"], NONHAL),
    item("INV-0232", FC1, "Acetone ≥99.5 %", "67-64-1", "Sigma-Aldrich", "179124-2.5L", "SZBF2170V", "≥99.5 %",
         2.5, "L", "shelf 1", "2022-02-08", "2022-05-19", "2025-01-31", "3", ["FL"],
         ["H225", "H319", "H336", "EUH066"], NONHAL),
    item("INV-0236", FC1, "Ethanol absolute ≥99.8 %", "64-17-5", "Merck", "1.00983.2500", "K54120389", "≥99.8 %",
         2.5, "L", "shelf 1", "2024-10-02", "2024-11-04", "2026-09-30", "3", ["FL"], ["H225", "H319"], NONHAL),
    item("INV-0237", FC1, "Methanol ≥99.9 %", "67-56-1", "Merck", "1.06009.1000", "I1093347", "≥99.9 %", 1, "L",
         "shelf 1", "2024-02-14", "2024-03-01", "2026-02-28", "3 (6.1)", ["FL", "TX"],
         ["H225", "H301", "H311", "H331", "H370"], NONHAL),
    item("INV-0240", FC1, "2-Propanol ≥99.5 %", "67-63-0", "Merck", "1.09634.2500", "K54418720", "≥99.5 %", 2.5,
         "L", "shelf 2", "2024-09-19", "2024-12-02", "2027-03-31", "3", ["FL"], ["H225", "H319", "H336"], NONHAL),
    item("INV-0244", FC1, "n-Hexane ≥97 %", "110-54-3", "Sigma-Aldrich", "296090-1L", "SHBQ3318", "≥97 %", 1, "L",
         "shelf 2", "2024-05-27", "2024-06-10", "2026-05-31", "3", ["FL"],
         ["H225", "H304", "H315", "H336", "H361f", "H373", "H411"], NONHAL),
    item("INV-0245", FC1, "Ethyl acetate ≥99.5 %", "141-78-6", "Sigma-Aldrich", "270989-1L", "SHBR0264",
         "≥99.5 %", 1, "L", "shelf 2", "2024-11-07", None, "2026-12-31", "3", ["FL"],
         ["H225", "H319", "H336", "EUH066"], NONHAL),
    item("INV-0246", FC1, "Tetrahydrofuran ≥99.9 %, BHT-stabilized", "109-99-9", "Sigma-Aldrich", "186562-1L",
         "SHBR1377", "≥99.9 %", 1, "L", "shelf 2", "2024-10-28", "2024-11-20", "2026-08-31", "3", ["FL"],
         ["H225", "H302", "H319", "H335", "H351", "EUH019"], "peroxide-former"),
    item("INV-0249", FC1, "Hydrogen peroxide solution 30 % w/w", "7722-84-1", "Sigma-Aldrich", "216763-500ML",
         "MKCS4471", "30 % w/w", 500, "mL", "shelf 2", "2024-08-21", "2024-09-09", "2025-11-30", "5.1 (8)", ["OX"],
         ["H272", "H302", "H318", "H412"], "oxidizer"),
    item("INV-0250", FC1, "Toluene ≥99.5 %", "108-88-3", "Merck", "1.08325.1000", "K53990413", "≥99.5 %", 1, "L",
         "shelf 2", "2024-03-05", "2024-04-11", "2027-01-31", "3", ["FL"],
         ["H225", "H304", "H315", "H336", "H361d", "H373"], NONHAL),
    # under the fume hood
    item("INV-0261", FC3, "n-Heptane ≥99 %", "142-82-5", "Merck", "1.04379.1000", "K54002197", "≥99 %", 1, "L",
         "bottom", "2024-07-15", "2024-08-01", "2026-10-31", "3", ["FL"],
         ["H225", "H304", "H315", "H336", "H410"], NONHAL),
    item("INV-0263", FC3, "2-Propanol HPLC ≥99.9 %", "67-63-0", "Merck", "1.01040.2500", "I1100862", "≥99.9 %",
         2.5, "L", "bottom", "2024-12-03", None, "2027-11-30", "3", ["FL"], ["H225", "H319", "H336"], NONHAL),
    # the acid cabinet
    item("INV-0412", AC1, "Hydrochloric acid 37 % w/w", "7647-01-0", "Merck", "1.00317.1000", "K53422817",
         "37 % w/w", 1, "L", "tray A", "2022-03-01", "2023-03-02", "2025-02-28", "8", ["AC"],
         ["H290", "H314", "H335"], "acid-inorganic"),
    item("INV-0413", AC1, "Hydrochloric acid 37 % w/w", "7647-01-0", "Merck", "1.00317.1000", "K53422871",
         "37 % w/w", 1, "L", "tray A", "2024-12-10", None, "2027-01-31", "8", ["AC"], ["H290", "H314", "H335"],
         "acid-inorganic"),
    item("INV-0415", AC1, "Hydrochloric acid 1 mol/L (Titripur)", "7647-01-0", "Merck", "1.09057.1000",
         "HC310885", "1 mol/L", 1, "L", "tray A", "2023-10-05", "2024-01-15", "2025-09-30", "8", ["AC"], ["H290"],
         "acid-inorganic"),
    item("INV-0418", AC1, "Nitric acid 65 %", "7697-37-2", "Merck", "1.00456.1000", "K52913456", "65 % w/w", 500,
         "mL", "tray B", "2023-06-20", "2023-07-03", "2026-06-30", "8 (5.1)", ["OA"],
         ["H272", "H290", "H314", "H331", "EUH071"], "acid-oxidizing"),
    item("INV-0419", AC1, "Sulfuric acid 95-97 %", "7664-93-9", "Merck", "1.00731.1000", "K53780112", "95-97 %", 1,
         "L", "tray A", "2024-04-09", "2024-05-13", "2027-09-30", "8", ["AC"], ["H290", "H314"], "acid-inorganic"),
    item("INV-0424", AC1, "Sodium hypochlorite solution 6-14 % active chlorine", "7681-52-9", "Sigma-Aldrich",
         "425044-1L", "MKCV9021", "6-14 % Cl", 1, "L", "tray A", "2024-11-25", "2025-01-08", "2025-08-31", "8",
         ["OB"], ["H290", "H314", "H400", "EUH031"], "oxidizer"),
    item("INV-0426", AC1, "ortho-Phosphoric acid 85 %", "7664-38-2", "Merck", "1.00573.0500", "K54221905",
         "85 % w/w", 500, "mL", "tray A", "2024-01-22", "2024-02-06", "2028-02-29", "8", ["AC"],
         ["H290", "H314"], "acid-inorganic"),
    # the base cabinet
    item("INV-0430", BC1, "Sodium hydroxide pellets", "1310-73-2", "Merck", "1.06498.1000", "B1865098", "≥99 %",
         1, "kg", "tray", "2023-05-16", "2023-05-30", "2028-05-31", "8", ["BA"], ["H290", "H314"], "base-inorganic"),
    item("INV-0431", BC1, "Sodium hydroxide solution 0.5 mol/L (Titripur)", "1310-73-2", "Merck", "1.09138.1000",
         "HC291143", "0.5 mol/L", 1, "L", "tray", "2023-03-08", "2024-03-20", "2025-03-12", "8", ["BA"],
         ["H290", "H315", "H319"], "base-inorganic"),
    item("INV-0433", BC1, "Potassium hydroxide pellets", "1310-58-3", "Merck", "1.05033.0500", "B1922576",
         "≥85 %", 500, "g", "tray", "2024-02-01", "2024-02-19", "2027-11-30", "8", ["BA"],
         ["H290", "H302", "H314"], "base-inorganic"),
    item("INV-0437", BC1, "Triethylamine ≥99.5 %", "121-44-8", "Sigma-Aldrich", "471283-100ML", "SHBP7415",
         "≥99.5 %", 100, "mL", "tray", "2024-04-30", "2024-05-06", "2026-04-30", "3 (8)", ["FL", "BA"],
         ["H225", "H302", "H311", "H314", "H331"], NONHAL),
    # the oxidizer cabinet
    item("INV-0451", OC1, "Potassium permanganate", "7722-64-7", "Merck", "1.05082.0250", "A1745082", "≥99 %",
         250, "g", "shelf 1", "2022-09-12", "2022-10-04", "2029-01-31", "5.1", ["OX"],
         ["H272", "H302", "H314", "H361d", "H410"], "oxidizer"),
    item("INV-0452", OC1, "Ammonium persulfate ≥98 %", "7727-54-0", "Sigma-Aldrich", "A3678-100G", "SLCH8806",
         "≥98 %", 100, "g", "shelf 1", "2024-07-02", "2024-07-15", "2026-07-31", "5.1", ["OX"],
         ["H272", "H302", "H315", "H317", "H319", "H334", "H335"], "oxidizer"),
    # the general cabinet
    item("INV-0502", GC2, "Sodium chloride", "7647-14-5", "Merck", "1.06404.1000", "K54733122", "≥99.5 %", 1,
         "kg", "shelf 1", "2024-01-10", "2024-01-11", "2029-12-31", "-", ["GN"], [], "non-hazardous"),
    item("INV-0505", GC2, "Paraformaldehyde", "30525-89-4", "Sigma-Aldrich", "158127-500G", "MKCR2287", "95 %",
         500, "g", "shelf 2", "2024-05-08", "2024-05-21", "2027-05-31", "4.1", ["FS", "TX"],
         ["H228", "H302", "H315", "H317", "H318", "H332", "H335", "H341", "H350"], "toxic-solid"),
    item("INV-0507", GC2, "Sodium azide", "26628-22-8", "Sigma-Aldrich", "S2002-25G", "BCCD5170", "≥99.5 %", 25,
         "g", "shelf 2", "2021-11-30", "2022-01-12", "2026-11-30", "6.1", ["TX"],
         ["H300", "H310", "H373", "H410", "EUH032"], "toxic-solid"),
    item("INV-0510", GC2, "Glycerol", "56-81-5", "Sigma-Aldrich", "G5516-1L", "SHBM9924", "≥99 %", 1, "L",
         "shelf 1", "2024-03-19", "2024-03-25", "2027-03-31", "-", ["GN"], [], "non-hazardous"),
    item("INV-0512", GC2, "Sodium dodecyl sulfate", "151-21-3", "Sigma-Aldrich", "L3771-500G", "SLCK0451",
         "≥98.5 %", 500, "g", "shelf 1", "2024-06-17", "2024-06-24", "2028-06-30", "4.1", ["FS"],
         ["H228", "H302", "H315", "H318", "H335", "H412"], "toxic-solid"),
    item("INV-0514", GC2, "EDTA disodium salt dihydrate", "6381-92-6", "Sigma-Aldrich", "E5134-500G", "SLCJ6601",
         "≥99 %", 500, "g", "shelf 1", "2023-09-04", "2023-09-11", "2028-09-30", "-", ["GN"], ["H332", "H373"],
         "non-hazardous"),
    # the open shelf
    item("INV-0601", SH3, "2-Propanol 70 % (v/v), wash bottle", "67-63-0", "in-house", "PREP-IPA70", "P-250217-2",
         "70 % v/v", 500, "mL", "bench 3", "2025-02-17", "2025-02-17", "2026-02-17", "3", ["FL"],
         ["H225", "H319", "H336"], NONHAL),
    item("INV-0602", SH3, "2-Propanol 70 % (v/v), wash bottle", "67-63-0", "in-house", "PREP-IPA70", "P-250303-1",
         "70 % v/v", 500, "mL", "bench 3", "2025-03-03", "2025-03-03", "2026-03-03", "3", ["FL"],
         ["H225", "H319", "H336"], NONHAL),
    item("INV-0604", SH3, "Ethanol 70 % (v/v), canister", "64-17-5", "VWR", "83801.360", "24J1503", "70 % v/v", 2.5,
         "L", "floor", "2024-10-15", "2025-01-20", "2026-03-31", "3", ["FL"], ["H225", "H319"], NONHAL),
    item("INV-0606", SH3, "Tris base", "77-86-1", "Sigma-Aldrich", "T1503-1KG", "SLCD2208", "≥99.9 %", 1, "kg",
         "shelf", "2024-08-06", "2024-08-12", "2029-08-31", "-", ["GN"], ["H315", "H319", "H335"], "non-hazardous"),
    item("INV-0607", SH3, "HEPES", "7365-45-9", "Sigma-Aldrich", "H3375-500G", "SLCF3140", "≥99.5 %", 500, "g",
         "shelf", "2024-02-27", "2024-03-04", "2028-02-29", "-", ["GN"], [], "non-hazardous"),
    # the fume hood
    item("INV-0702", FH1, "Methanol HPLC gradient grade ≥99.9 %", "67-56-1", "Merck", "1.06007.4000", "I1101528",
         "≥99.9 %", 4, "L", "hood floor", "2024-11-26", "2025-01-14", "2026-11-30", "3 (6.1)", ["FL", "TX"],
         ["H225", "H301", "H311", "H331", "H370"], NONHAL),
    item("INV-0704", FH1, "Phenol:chloroform:isoamyl alcohol 25:24:1", "108-95-2", "Sigma-Aldrich",
         "P3803-100ML", "SLCF5531", "25:24:1, pH 6.7", 100, "mL", "hood floor", "2023-11-02", "2023-11-20",
         "2024-12-31", "6.1 (8)", ["TX"], ["H301", "H311", "H314", "H331", "H341", "H351", "H373", "H411"],
         "solvent-halogenated"),
    item("INV-0705", FH1, "Acetonitrile HPLC ≥99.9 %", "75-05-8", "Merck", "1.00030.1000", "I1098834", "≥99.9 %",
         1000, "mL", "hood floor", "2024-09-10", "2024-10-01", "2026-07-31", "3", ["FL", "TX"],
         ["H225", "H302", "H312", "H319", "H332"], NONHAL),
    item("INV-0708", FH1, "Ammonia solution 25 %", "1336-21-6", "Merck", "1.05432.1000", "B1760031", "25 % w/w", 1,
         "L", "hood floor", "2023-12-05", "2024-01-09", "2026-02-28", "8", ["BA"],
         ["H290", "H314", "H335", "H400"], "base-inorganic"),
    item("INV-0709", FH1, "Xylene (isomers) ≥98.5 %", "1330-20-7", "Merck", "1.08681.1000", "K54306617", "≥98.5 %",
         1000, "mL", "hood floor", "2024-08-27", "2024-09-16", "2027-04-30", "3", ["FL"],
         ["H226", "H304", "H312", "H315", "H319", "H332", "H335", "H373"], NONHAL),
    # the domestic fridge
    item("INV-0801", REF04, "Diethyl ether ≥99.8 %, BHT-stabilized", "60-29-7", "Sigma-Aldrich", "32203-500ML",
         "STBK7702", "≥99.8 %", 500, "mL", "door shelf", "2023-09-28", "2023-10-17", "2025-10-31", "3", ["FL"],
         ["H224", "H302", "H336", "EUH019", "EUH066"], "peroxide-former"),
    item("INV-0803", REF04, "DL-Dithiothreitol solution 1 mol/L", "3483-12-3", "Sigma-Aldrich", "646563-10X.5ML",
         "MKCQ1187", "1 mol/L", 5, "mL", "shelf 2", "2024-10-14", "2024-10-21", "2025-09-30", "-", ["TX"],
         ["H302", "H315", "H319", "H335", "H412"], "toxic-liquid"),
    item("INV-0806", REF04, "2-Mercaptoethanol", "60-24-2", "Sigma-Aldrich", "M6250-100ML", "SHBN4402", "≥99 %",
         100, "mL", "shelf 2", "2024-01-30", "2024-02-08", "2026-06-30", "6.1", ["TX"],
         ["H301", "H310", "H315", "H317", "H318", "H330", "H361d", "H373", "H410"], "toxic-liquid"),
    item("INV-0807", REF04, "Ampicillin sodium salt", "69-52-3", "Sigma-Aldrich", "A9518-25G", "SLCM2219", "≥91 %",
         25, "g", "shelf 1", "2024-12-02", "2024-12-09", "2026-01-31", "-", ["GN"], ["H317", "H334"],
         "non-hazardous"),
    # the flammable-safe fridge
    item("INV-0811", REF07, "Acrylamide/bis-acrylamide 30 % (37.5:1)", "79-06-1", "Sigma-Aldrich", "A3699-500ML",
         "SLCL7730", "30 % w/v", 500, "mL", "shelf 1", "2024-11-11", "2024-11-25", "2025-12-31", "6.1", ["TX"],
         ["H301", "H312", "H315", "H317", "H319", "H332", "H340", "H350", "H361f", "H372"], "toxic-liquid"),
    item("INV-0812", REF07, "TEMED", "110-18-9", "Sigma-Aldrich", "T9281-25ML", "SHBP2096", "≥99 %", 25, "mL",
         "shelf 1", "2024-11-11", "2024-11-25", "2026-09-30", "3 (8)", ["FL", "BA"],
         ["H225", "H302", "H314", "H332"], NONHAL),
]
ITEM = {x["item_id"]: x for x in ITEMS}
assert len(ITEM) == len(ITEMS)

# the compatibility matrix of EHS (unordered pairs; same group: compatible)
MATRIX_ID = "EHS-SEG-2024-09"
_I, _S = "incompatible", "separate"
_RULES = {
    ("FL", "OX"): (_I, "oxidizers intensify fire; never in one cabinet or fridge with flammables"),
    ("FL", "OA"): (_I, "oxidizing acids react violently with organic liquids"),
    ("FL", "OB"): (_I, "hypochlorite reacts with organic liquids and amines"),
    ("FL", "AC"): (_S, "separate spill trays; acid vapours corrode the cabinet"),
    ("FS", "OX"): (_I, "oxidizers ignite flammable solids"),
    ("FS", "OA"): (_I, "oxidizing acids ignite flammable solids"),
    ("FS", "OB"): (_I, "hypochlorite oxidizes flammable solids"),
    ("OX", "OA"): (_S, "separate spill trays"),
    ("OX", "BA"): (_S, "bases catalyse the decomposition of peroxides; separate spill trays"),
    ("OA", "OB"): (_I, "acids liberate chlorine from hypochlorite"),
    ("OA", "AC"): (_S, "nitric acid on its own spill tray"),
    ("OA", "BA"): (_I, "violent neutralisation; separate cabinets"),
    ("OA", "TX"): (_S, "separate spill trays"),
    ("OB", "AC"): (_I, "acids liberate toxic chlorine gas from hypochlorite (EUH031)"),
    ("AC", "BA"): (_I, "acids and bases in separate cabinets"),
}


def rule(a, b):
    """(rule, note) of two storage groups."""
    if a == b:
        return ("compatible", "same group")
    r = _RULES.get((a, b)) or _RULES.get((b, a))
    return r or ("compatible", "")


# --- safety data sheets ----------------------------------------------------------------------------

SDS_REVISION = {
    "67-64-1": "2024-03-02", "64-17-5": "2023-11-20", "67-56-1": "2024-06-12", "67-63-0": "2023-05-08",
    "110-54-3": "2022-08-30", "141-78-6": "2023-02-14", "109-99-9": "2024-01-26", "7722-84-1": "2023-09-18",
    "108-88-3": "2022-11-03", "142-82-5": "2021-06-07", "7647-01-0": "2022-05-11", "7697-37-2": "2023-04-27",
    "7664-93-9": "2021-10-15", "7681-52-9": "2024-05-30", "7664-38-2": "2022-02-21", "1310-73-2": "2023-07-12",
    "1310-58-3": "2021-03-30", "121-44-8": "2022-12-09", "7722-64-7": "2020-03-16", "7727-54-0": "2019-02-01",
    "7647-14-5": "2020-09-01", "30525-89-4": "2023-10-04", "26628-22-8": "2018-06-11", "56-81-5": "2021-08-19",
    "151-21-3": "2022-04-13", "6381-92-6": "2022-01-25", "77-86-1": "2021-12-06", "7365-45-9": "2020-11-17",
    "108-95-2": "2023-03-29", "75-05-8": "2024-02-08", "1336-21-6": "2022-06-23", "60-29-7": "2024-04-16",
    "3483-12-3": "2021-09-14", "1330-20-7": "2022-07-19", "60-24-2": "2023-01-10", "69-52-3": "2022-10-31", "79-06-1": "2023-08-07",
}
NO_SDS = {"110-18-9"}  # TEMED: none on file

SDS_TEXT = {
    ("7722-84-1", 7): (
        "7.1 Precautions for safe handling: Wear eye and face protection. Avoid contact with combustible material. "
        "Use only vented caps; never return unused material to the container.\n"
        "7.2 Conditions for safe storage, including any incompatibilities: Keep container tightly closed in a "
        "cool, well-ventilated place below 25 °C, away from direct sunlight. Store separately from flammable "
        "liquids and combustible materials, reducing agents, bases and metals (storage class 5.1B, oxidizing "
        "hazardous materials). Do not store in a flammables cabinet.\n"
        "7.3 Specific end use(s): laboratory chemical."),
    ("7722-84-1", 10): (
        "10.1 Reactivity: Oxidizer; decomposes exothermally, releasing oxygen.\n"
        "10.2 Chemical stability: stabilized; decomposes slowly at room temperature.\n"
        "10.3 Possibility of hazardous reactions: violent reactions with organic solvents (acetone, alcohols, "
        "ethers), forming explosive peroxides with acetone; risk of ignition with combustible materials.\n"
        "10.4 Conditions to avoid: heat, light, contamination.\n"
        "10.5 Incompatible materials: flammable liquids, organic substances, reducing agents, bases, metals "
        "and metal salts (catalytic decomposition), permanganates.\n"
        "10.6 Hazardous decomposition products: oxygen."),
    ("7681-52-9", 10): (
        "10.1 Reactivity: releases chlorine on contact with acids (EUH031).\n"
        "10.2 Chemical stability: decomposes on warming and in light; active chlorine content decreases on "
        "storage (about 10 % per 6 months at 20 °C).\n"
        "10.3 Possibility of hazardous reactions: with acids: release of chlorine gas; with ammonia and amines: "
        "formation of chloramines; with organic solvents and reducing agents: exothermic reaction.\n"
        "10.4 Conditions to avoid: heat, light, acidification.\n"
        "10.5 Incompatible materials: acids, ammonia, amines (e.g. triethylamine), methanol and other organic "
        "solvents, reducing agents, metals.\n"
        "10.6 Hazardous decomposition products: chlorine, hydrogen chloride, oxygen."),
    ("7681-52-9", 7): (
        "7.1 Precautions for safe handling: work in a fume hood; do not mix with other chemicals.\n"
        "7.2 Conditions for safe storage: keep tightly closed, upright, in a cool dark place (2-25 °C). Store "
        "away from acids (storage class 8B), with secondary containment; may be stored with non-combustible "
        "oxidizers and inorganic bases.\n"
        "7.3 Specific end use(s): disinfection, laboratory chemical."),
    ("7647-01-0", 10): (
        "10.1 Reactivity: reacts with bases and many metals (hydrogen).\n"
        "10.2 Chemical stability: stable under recommended storage; fuming above 30 %.\n"
        "10.3 Possibility of hazardous reactions: with hypochlorites and other oxidizing agents: release of "
        "chlorine; with metals: hydrogen; with bases: exothermic neutralisation.\n"
        "10.4 Conditions to avoid: heating.\n"
        "10.5 Incompatible materials: hypochlorites, oxidizing agents, bases, metals, amines.\n"
        "10.6 Hazardous decomposition products: hydrogen chloride gas."),
    ("60-29-7", 7): (
        "7.1 Precautions for safe handling: keep away from sources of ignition; no smoking; take precautionary "
        "measures against static discharge. Date the container on receipt and on opening.\n"
        "7.2 Conditions for safe storage: keep tightly closed in a dry, cool, well-ventilated place, in a "
        "flammables cabinet or a refrigerator approved for flammable liquids (explosion-proof or spark-free "
        "interior); never in a domestic refrigerator. Forms explosive peroxides on exposure to air and light "
        "(EUH019): test for peroxides before use and every 3 months after opening; discard opened containers "
        "12 months after opening, unopened containers at the expiry date. Buy the smallest practical size.\n"
        "7.3 Specific end use(s): laboratory chemical, extraction solvent."),
    ("60-29-7", 10): (
        "10.1 Reactivity: vapours may form explosive mixtures with air.\n"
        "10.2 Chemical stability: forms peroxides on storage, especially after opening; BHT slows but does not "
        "prevent it.\n"
        "10.3 Possibility of hazardous reactions: peroxides may explode on heating, friction or distillation; "
        "violent reactions with oxidizing agents (peroxides, nitric acid, perchlorates).\n"
        "10.4 Conditions to avoid: heat, flames, sparks, light, air.\n"
        "10.5 Incompatible materials: oxidizing agents, halogens, strong acids.\n"
        "10.6 Hazardous decomposition products: peroxides, carbon monoxide."),
    ("67-56-1", 7): (
        "7.1 Precautions for safe handling: use in a fume hood; keep away from ignition sources.\n"
        "7.2 Conditions for safe storage: keep in a flammables cabinet, tightly closed (storage class 3). "
        "Working quantities at the workplace should not exceed one day's need.\n"
        "7.3 Specific end use(s): HPLC, laboratory chemical."),
}
SDS_TITLES = {1: "Identification", 2: "Hazards identification", 7: "Handling and storage",
              9: "Physical and chemical properties", 10: "Stability and reactivity"}
DENSITY = {"67-64-1": 0.79, "64-17-5": 0.79, "67-56-1": 0.79, "67-63-0": 0.785, "60-29-7": 0.71,
           "7722-84-1": 1.11, "7647-01-0": 1.19, "7681-52-9": 1.21, "75-05-8": 0.786}

# --- the supplier catalogue (for reorders) ---------------------------------------------------------

CATALOG = {
    "32203-250ML": {"product": "Diethyl ether puriss. p.a., ≥99.8 %, BHT-stabilized", "cas": "60-29-7",
                    "pack": "250 mL", "supplier": "Sigma-Aldrich", "price_eur": 48.60, "lead_days": 3},
    "32203-500ML": {"product": "Diethyl ether puriss. p.a., ≥99.8 %, BHT-stabilized", "cas": "60-29-7",
                    "pack": "500 mL", "supplier": "Sigma-Aldrich", "price_eur": 71.20, "lead_days": 3},
    "P3803-100ML": {"product": "Phenol:chloroform:isoamyl alcohol 25:24:1, saturated with 10 mM Tris, pH 8.0, "
                    "1 mM EDTA", "cas": "108-95-2", "pack": "100 mL", "supplier": "Sigma-Aldrich",
                    "price_eur": 182.00, "lead_days": 5},
    "1.09138.1000": {"product": "Sodium hydroxide solution 0.5 mol/L Titripur", "cas": "1310-73-2",
                     "pack": "1 L", "supplier": "Merck", "price_eur": 39.90, "lead_days": 2},
    "179124-2.5L": {"product": "Acetone ACS reagent ≥99.5 %", "cas": "67-64-1", "pack": "2.5 L",
                    "supplier": "Sigma-Aldrich", "price_eur": 66.50, "lead_days": 3},
    "1.00317.1000": {"product": "Hydrochloric acid fuming 37 % EMSURE", "cas": "7647-01-0", "pack": "1 L",
                     "supplier": "Merck", "price_eur": 58.30, "lead_days": 2},
}

# --- samples ------------------------------------------------------------------------------------


def sample(sid, stype, parent, relation, donor, loc, pos, temp, amount, unit, created, status="available",
           owner="Priya Nair", project="IMMUNO-AGE"):
    return {"sample_id": sid, "type": stype, "parent": parent, "relation": relation, "donor": donor,
            "project": project, "location": loc, "position": pos, "required_temp_c": temp,
            "amount": amount, "unit": unit, "created": created, "status": status, "owner": owner}


SAMPLES = [
    sample("S-2024-00388", "tissue lysate (protein)", None, None, "D-0098", FRZ03, "R1-B02-A3", -80, 0, "µL",
           "2024-04-18", status="depleted"),
    sample("S-2024-00417", "plasma (EDTA)", None, None, "D-0112", FRZ03, "R1-B03-C7", -80, 1250, "µL",
           "2024-05-06"),
    sample("S-2024-00418", "plasma (EDTA)", "S-2024-00417", "aliquot", "D-0112", FRZ03, "R1-B03-C8", -80, 250,
           "µL", "2024-05-06"),
    sample("S-2024-00419", "plasma (EDTA)", "S-2024-00417", "aliquot", "D-0112", FRZ08, "R2-B11-A1", -80, 250,
           "µL", "2024-05-06"),
    sample("S-2024-00471", "plasma (EDTA)", None, None, "D-0131", FRZ08, "R2-B11-D4", -80, 1600, "µL",
           "2024-05-29"),
    sample("S-2024-00472", "plasma (EDTA)", "S-2024-00471", "aliquot", "D-0131", FRZ08, "R2-B11-D5", -80, 250,
           "µL", "2024-05-29"),
    sample("S-2024-00502", "serum", None, None, "D-0140", FRZ03, "R1-B04-B2", -80, 1500, "µL", "2024-06-17"),
    sample("S-2024-00503", "serum", "S-2024-00502", "aliquot", "D-0140", FRZ03, "R1-B04-B3", -80, 250, "µL",
           "2024-06-17"),
    sample("S-2024-00504", "serum", "S-2024-00502", "aliquot", "D-0140", FRZ08, "R2-B12-A6", -80, 250, "µL",
           "2024-06-17"),
    sample("S-2024-00611", "cell pellet (HEK293-ACE2 clone 4)", None, None, None, FRZ03, "R3-B01-A1", -80,
           5000000, "cells", "2024-09-24", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2024-00612", "cell pellet (HEK293-ACE2 clone 7)", None, None, None, FRZ03, "R3-B01-A2", -80,
           5000000, "cells", "2024-09-24", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00009", "total RNA", "S-2024-00612", "derived (RNA extraction)", None, FRZ08, "R4-B02-C1", -80,
           40, "µL", "2025-01-14", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00011", "cDNA", "S-2025-00009", "derived (reverse transcription)", None, FRZ03, "R3-B05-A4",
           -20, 40, "µL", "2025-01-15", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00014", "plasmid DNA (pCMV-ACE2 maxiprep)", None, None, None, FRZ03, "R3-B05-B1", -20, 500,
           "µL", "2025-01-21", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00032", "cell-free RNA", "S-2024-00417", "derived (cfRNA extraction)", "D-0112", FRZ03,
           "R2-B01-A5", -80, 30, "µL", "2025-02-04"),
    sample("S-2025-00047", "genomic DNA", "S-2024-00471", "derived (DNA extraction)", "D-0131", FRZ03,
           "R2-B01-B2", -20, 100, "µL", "2025-02-19"),
    sample("S-2025-00051", "total RNA", "S-2024-00611", "derived (RNA extraction)", None, FRZ03, "R3-B02-A1", -80,
           50, "µL", "2025-02-25", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00058", "protein lysate", "S-2024-00612", "derived (lysis, RIPA)", None, FRZ03, "R3-B02-B4",
           -80, 200, "µL", "2025-03-03", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00015", "plasmid DNA (pLenti-GFP)", None, None, None, FRZ12, "B-07-12", -20, 300, "µL",
           "2025-01-22", owner="Malik Haddad", project="ACE2-TRAFFIC"),
    sample("S-2025-00020", "primer stocks (plate 3)", None, None, None, FRZ12, "B-09-01", -20, 96, "wells",
           "2025-02-03", owner="Priya Nair"),
]
SAMPLE = {x["sample_id"]: x for x in SAMPLES}
OWNER_EMAIL = {"Priya Nair": "priya.nair@lindqvist.se", "Malik Haddad": "malik.haddad@lindqvist.se"}

# --- temperature logs ----------------------------------------------------------------------------------

LOG_START = (3, 6, 9, 0)  # 2025-03-06 09:00
LOG_END = (3, 11, 9, 0)
SERVICE_TICKET = "FM-25-0318"
ACK = "2025-03-08T06:12"
EXCURSION = {"freezer": FRZ03, "alarm": "2025-03-08T02:09", "cleared": "2025-03-08T07:43", "minutes": 334,
             "peak": -51.8, "peak_at": "2025-03-08T05:30", "readings_from": "2025-03-08T02:30",
             "readings_to": "2025-03-08T07:30"}
_EXC = {"01:30": -79.1, "02:00": -75.9, "02:30": -68.7, "03:00": -63.0, "03:30": -58.9, "04:00": -56.0,
        "04:30": -53.9, "05:00": -52.5, "05:30": -51.8, "06:00": -52.3, "06:30": -57.9, "07:00": -64.8,
        "07:30": -69.4, "08:00": -74.1, "08:30": -77.6, "09:00": -79.2}


def _slots():
    """Every half hour from LOG_START to LOG_END (inclusive), as (day, 'HH:MM')."""
    out = []
    d, h, m = 6, 9, 0
    while (d, h, m) <= (11, 9, 0):
        out.append((d, "%02d:%02d" % (h, m)))
        m += 30
        if m == 60:
            m, h = 0, h + 1
        if h == 24:
            h, d = 0, d + 1
    return out


SLOTS = _slots()


def slot_ts(d, hm):
    return "2025-03-%02dT%s" % (d, hm)


def reading(logger_loc, d, hm):
    setpoint = LOC[logger_loc]["setpoint_c"]
    noise = (crc("t", logger_loc, d, hm) % 15 - 9) / 10.0  # -0.9 .. +0.5
    if logger_loc == FRZ03 and d == 8 and hm in _EXC:
        return _EXC[hm]
    if logger_loc == FRZ08 and d == 9 and hm in ("14:30", "15:00"):
        return {"14:30": -74.6, "15:00": -78.3}[hm]
    if logger_loc == FRZ12 and hm == "03:30":
        return -17.4 + (crc("d", d) % 5) / 10.0  # the daily defrost cycle
    if logger_loc in (REF04, REF07):
        noise = (crc("r", logger_loc, d, hm) % 21 - 10) / 10.0
        if logger_loc == REF04 and d == 10 and hm == "11:00":
            return 6.3
    return round(setpoint + noise, 1)


LOG_EVENTS = {
    FRZ03: [
        ("2025-03-08T01:41", "fault", "compressor stage 2 fault (code E-17)"),
        (EXCURSION["alarm"], "alarm", "HIGH TEMP ALARM: -70.0 °C exceeded"),
        ("2025-03-08T02:10", "call", "alarm call to the on-call list: no answer (attempt 1)"),
        ("2025-03-08T02:40", "call", "alarm call to the on-call list: no answer (attempt 2)"),
        ("2025-03-08T03:10", "call", "alarm call escalated to facility management: no answer"),
        (ACK, "ack", "alarm acknowledged by Jonas Berg (on call)"),
        ("2025-03-08T06:21", "service", "compressor restarted by Jonas Berg; door checked, closed"),
        (EXCURSION["cleared"], "clear", "temperature below -70.0 °C, alarm cleared"),
        ("2025-03-10T10:05", "service", "service ticket %s opened: compressor stage 2 inspection" % SERVICE_TICKET),
    ],
    FRZ08: [
        ("2025-03-09T14:02", "door", "door open"),
        ("2025-03-09T14:09", "door", "door closed (7 min)"),
    ],
    FRZ12: [("2025-03-%02dT03:20" % d, "defrost", "defrost cycle (25 min)") for d in range(7, 12)],
    REF04: [("2025-03-10T10:52", "door", "door open 9 min")],
    REF07: [],
}
