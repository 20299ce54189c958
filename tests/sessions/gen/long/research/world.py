"""The world of the `upgrade-research` session: an internal wiki, a ticket
tracker, maintenance windows and a team directory about upgrading the
pg-orders PostgreSQL cluster from 12 to 16. The blockers (timescaledb,
pg_partman, the analytics CDC slot, an old libpq in legacy-billing) are spread
over long documents and tickets; a change freeze removes three windows.
Deterministic: tool.py and answers.py read it."""

DOCS = {
    "DOC-4471": {
        "title": "pg-orders runbook", "updated": "2024-05-02", "author": "Priya Raman",
        "body": """# pg-orders runbook

Owner: dba team (lead Priya Raman). Pager: #dba-oncall.

## Topology
- pg-orders-1: primary, r6i.4xlarge, 2.1 TB data volume (gp3, 12k IOPS)
- pg-orders-2, pg-orders-3: streaming replicas (synchronous_standby_names = 'ANY 1 (pg-orders-2, pg-orders-3)')
- pgbouncer on each app host (transaction pooling, default_pool_size 40)
- Version: PostgreSQL 12.17 (EOL November 2024)

## Extensions installed in database `orders`
| extension | version | used by |
|---|---|---|
| pg_stat_statements | 1.7 | monitoring |
| pg_partman | 4.7.4 | partitioning of order_events and payments_log (monthly) |
| pglogical | 2.4.1 | analytics CDC (slot analytics_cdc), see DOC-4415 |
| timescaledb | 2.3.1 | only the hypertable audit_events_ts (legacy, nobody reads it since 2022) |
| pgcrypto | 1.3 | card token hashing |
| btree_gist | 1.5 | exclusion constraint on delivery_slots |

## Clients
- orders-api (Java, pgjdbc 42.6.0)
- fulfilment-worker (Python, psycopg2 2.9.9)
- legacy-billing (C++, links libpq from PostgreSQL 9.6; only md5 authentication)
- analytics CDC consumer (through pglogical, not a direct client)
- reporting (Metabase, read replica pg-orders-3)

## Maintenance
Approved windows are Sundays 02:00-06:00 UTC; ask in #change-management, check the freeze calendar (DOC-4602).
Vacuum: autovacuum tuned for order_events (scale factor 0.02). Nightly pg_dump of schema only.

## Known issues
- Index bloat on order_events_created_at_idx, see DOC-4650.
- After failover the pglogical slot must be re-created by data-platform (DATA-733 has the procedure for upgrades).
- audit_events_ts keeps growing (~9 GB/month); dropping timescaledb is tracked in DBA-2292.
""" + "\n".join("- %s: checked %s, ok" % (k, d) for k, d in [
            ("backup restore test", "2024-04-14"), ("replica lag alert", "2024-04-20"), ("pgbouncer failover", "2024-04-21"),
            ("disk growth forecast", "2024-04-28"), ("WAL archive retention", "2024-04-30")])},
    "DOC-4520": {
        "title": "PostgreSQL 16 upgrade guide", "updated": "2024-04-18", "author": "Kenji Watanabe",
        "body": """# PostgreSQL 16 upgrade guide (platform team)

This guide covers in-place major upgrades of our self-managed clusters from 12/13/14 to 16.
Images and parameter groups for 16 are ready (PLAT-877).

## Method
We use pg_upgrade --link on the primary, then rebuild the replicas from the new primary.
Downtime is the pg_upgrade run (minutes with --link) plus the time to rebuild one replica
so that synchronous replication can resume (for 2 TB: about 90 minutes with pg_basebackup at 400 MB/s).
Blue/green with logical replication is possible but not supported by the platform team in 2024.

## Before the window
1. Rehearse on the staging copy of the cluster, with a production-sized snapshot.
2. Extensions: every extension must exist in a version built for 16 *and* the installed version must be
   upgradable to it. Known cases:
   - timescaledb: 16 needs 2.13 or later; 2.3 cannot be upgraded directly (2.3 -> 2.9 -> 2.13 on 12 first),
     or drop the extension if it is unused.
   - pg_partman: 16 needs 5.x. 4.7.4 -> 5.1.0 changes the config tables (part_config), run the migration
     script on 12 first and test the maintenance job.
   - pglogical: 2.4.4 supports 16. Replication slots are NOT carried over by pg_upgrade: every logical
     consumer must re-create its slot and resync or resume from a known LSN.
   - postgis: not used by the orders domain.
3. Clients: 16 defaults to password_encryption = scram-sha-256. Clients need libpq 10 or later.
   Any client on an older libpq must be upgraded before the window or keep md5 (not allowed by security
   policy SEC-12 after 2024-06-30).
4. Freeze: check the change freeze calendar (DOC-4602).

## In the window
1. Stop writers (scale deployments to 0), wait for replicas to catch up.
2. pg_upgrade --check, then pg_upgrade --link.
3. Start 16, run `vacuumdb --all --analyze-in-stages` (budget: about 1 hour for 2 TB, see DOC-4388).
4. Rebuild one replica, re-enable synchronous replication, restart writers.
5. Re-create logical slots, hand over to consumers.

## Rollback
With --link the old cluster cannot be started once 16 has run. Rollback = restore from the last
backup + WAL, so take a fresh base backup right before the window.
""" + "\n".join("Appendix %d: parameter %s changed default in 16, keep %s" % (k, p, v) for k, (p, v) in enumerate([
            ("vacuum_cost_limit", "200"), ("hash_mem_multiplier", "2.0"), ("wal_compression", "off"),
            ("jit", "off for OLTP"), ("max_parallel_maintenance_workers", "2")], 1))},
    "DOC-4388": {
        "title": "Retro: pg-inventory upgrade 12 -> 14", "updated": "2023-11-09", "author": "Priya Raman",
        "body": """# Retro: pg-inventory upgrade from 12 to 14 (2023-11-05)

Window: Sunday 02:00-06:00 UTC, we used 3h10m.

What went well: pg_upgrade --link took 4 minutes. Rehearsal on staging found the pg_repack issue early.

What went wrong:
- vacuumdb --analyze-in-stages took 47 minutes for 1.2 TB; queries were slow until the last stage finished.
  For bigger clusters plan about 40 minutes per TB.
- The CDC slot of the search indexer was lost (pg_upgrade does not keep slots). The indexer needed a full
  resync of 6 hours. Next time: agree the slot re-creation with the consumer team in advance and pause
  the consumer before the window.
- One replica rebuild was started before ANALYZE finished and competed for IO.

Action items: INFRA-4980 (done) runbook template; DBA-2150 (done) slot checklist.
"""},
    "DOC-4602": {
        "title": "Change freeze calendar Q3 2024", "updated": "2024-06-03", "author": "Change Management",
        "body": """# Change freeze calendar, Q3 2024

No production changes to tier-1 systems during freezes (exceptions: incident fixes approved by the duty manager).

| freeze | from | to | reason |
|---|---|---|---|
| summer sale | 2024-08-22 | 2024-09-09 | summer sale campaign and the payment provider migration |
| quarter close | 2024-09-27 | 2024-10-02 | finance quarter close |

Tier-1 systems include pg-orders, payments-api, checkout and inventory.
"""},
    "DOC-4415": {
        "title": "Analytics CDC pipeline", "updated": "2024-03-11", "author": "Tomás Ortiz",
        "body": """# Analytics CDC pipeline

Owner: data-platform (lead Tomás Ortiz).

pg-orders publishes the tables orders, order_items, payments and shipments through pglogical
(replication set `analytics`) to the consumer `cdc-loader`, which writes to the warehouse.
The slot on pg-orders-1 is `analytics_cdc`. A resync of the four tables takes about 5 hours and the
warehouse is stale until it finishes.

Upgrades and failovers: the slot does not survive a major upgrade or a failover. Procedure (DATA-733):
pause cdc-loader, note the last LSN, re-create the slot after the upgrade, resume from the noted LSN when
the table definitions did not change; otherwise resync.
"""},
    "DOC-3991": {
        "title": "Upgrade to PostgreSQL 12 (2021)", "updated": "2021-06-30", "author": "Former DBA team",
        "body": """# Upgrade to PostgreSQL 12 (2021)

Historical. pg-orders went from 11 to 12 on 2021-06-27 with pg_dump/pg_restore (9 hours).
Do not reuse this procedure; see the platform guide instead.
"""},
    "DOC-4650": {
        "title": "pg-orders index bloat report", "updated": "2024-05-20", "author": "Priya Raman",
        "body": """# pg-orders index bloat report (2024-05-20)

order_events_created_at_idx: 38% bloat (61 GB). payments_log_pkey: 12%. Reindex concurrently scheduled
after the upgrade (REINDEX in 16 is faster with the new B-tree deduplication).
"""},
}

SEARCH_INDEX = [
    ("DOC-4520", "upgrade postgres postgresql 16 guide pg_upgrade extensions clients"),
    ("DOC-4471", "pg-orders runbook orders topology extensions clients maintenance"),
    ("DOC-4388", "retro upgrade inventory 14 lessons analyze slot"),
    ("DOC-3991", "upgrade postgresql 12 2021 pg-orders"),
    ("DOC-4602", "freeze calendar change q3 2024 windows"),
    ("DOC-4415", "analytics cdc pipeline pglogical slot pg-orders"),
    ("DOC-4650", "pg-orders index bloat report"),
    ("DOC-4733", "postgres 16 features logical replication attachment slides"),
]
ATTACHMENT = {"doc_id": "DOC-4733", "title": "PG16 what's new (slides, PDF)", "updated": "2023-10-02", "snippet": None}

TICKETS = {
    "DBA-2291": {"id": "DBA-2291", "title": "Upgrade pg-orders to PostgreSQL 16", "status": "open", "team": "dba",
                 "assignee": "Priya Raman", "created": "2024-04-22", "due": "2024-09-30",
                 "description": "Epic. PG12 is EOL in November 2024. Follow the platform guide (DOC-4520). "
                                "Blocked by the tickets below.",
                 "blocked_by": ["DBA-2292", "DBA-2301", "DATA-733", "BILL-1450", "PLAT-877"],
                 "comments": [{"by": "Kenji Watanabe", "at": "2024-05-06", "text": "Images ready, PLAT-877 done."}]},
    "DBA-2292": {"id": "DBA-2292", "title": "pg-orders: drop timescaledb (audit_events_ts)", "status": "open",
                 "team": "dba", "assignee": "Marek Nowak", "created": "2024-04-22", "due": None,
                 "description": "audit_events_ts is not read since 2022 (checked pg_stat_user_tables). Export it to S3 "
                                "(~180 GB, takes about 6 hours), then DROP EXTENSION timescaledb CASCADE.",
                 "blocked_by": [], "comments": [{"by": "Marek Nowak", "at": "2024-05-15",
                                                 "text": "Legal confirmed the export is enough (retention 7 years in S3)."}]},
    "DBA-2301": {"id": "DBA-2301", "title": "pg-orders: pg_partman 4.7.4 -> 5.1.0", "status": "open", "team": "dba",
                 "assignee": "Marek Nowak", "created": "2024-04-25", "due": None,
                 "description": "Run the 5.x migration on 12 (part_config changes), test run_maintenance on staging first.",
                 "blocked_by": ["INFRA-5120"], "comments": []},
    "DATA-733": {"id": "DATA-733", "title": "Re-create analytics_cdc slot after pg-orders upgrade", "status": "open",
                 "team": "data-platform", "assignee": "Tomás Ortiz", "created": "2024-04-23", "due": None,
                 "description": "Pause cdc-loader before the window, note the LSN, re-create the pglogical slot after "
                                "the upgrade and resume. Needs 30 minutes of a data-platform engineer in the window.",
                 "blocked_by": [], "comments": [{"by": "Tomás Ortiz", "at": "2024-05-30",
                                                 "text": "We need 5 working days notice to staff the window."}]},
    "BILL-1450": {"id": "BILL-1450", "title": "legacy-billing: move to libpq 15 (scram-sha-256)", "status": "in progress",
                  "team": "billing", "assignee": "Hannah Berg", "created": "2024-03-02", "due": "2024-07-19",
                  "description": "legacy-billing links libpq 9.6 and only supports md5. Rebuild with libpq 15.",
                  "blocked_by": [], "comments": [{"by": "Hannah Berg", "at": "2024-06-10",
                                                  "text": "Build done, in QA. Production rollout planned 2024-07-17."}]},
    "PLAT-877": {"id": "PLAT-877", "title": "PG16 images and parameter groups", "status": "done", "team": "platform",
                 "assignee": "Kenji Watanabe", "created": "2024-02-12", "due": None,
                 "description": "Golden images with PG16 and the extensions we support.", "blocked_by": [], "comments": []},
    "INFRA-5120": {"id": "INFRA-5120", "title": "Refresh pg-orders-stg from production snapshot", "status": "done",
                   "team": "infra", "assignee": "Sam Osei", "created": "2024-05-02", "due": None,
                   "description": "pg-orders-stg restored from the 2024-06-02 snapshot (2.1 TB).", "blocked_by": [],
                   "comments": []},
    "DBA-2150": {"id": "DBA-2150", "title": "Logical slot checklist for upgrades", "status": "done", "team": "dba",
                 "assignee": "Priya Raman", "created": "2023-11-07", "due": None,
                 "description": "Checklist: list slots, agree re-creation with consumers, pause consumers.",
                 "blocked_by": [], "comments": []},
    "SEC-12": {"id": "SEC-12", "title": "No md5 password authentication after 2024-06-30", "status": "open",
               "team": "security", "assignee": "Ada Kim", "created": "2024-01-10", "due": "2024-06-30",
               "description": "Policy ticket. Exceptions need the CISO's approval.", "blocked_by": [], "comments": []},
}

TEAMS = {
    "dba": {"team": "dba", "lead": "Priya Raman", "members": ["Priya Raman", "Marek Nowak", "Jun Li"],
            "slack": "#dba", "oncall": "Jun Li"},
    "data-platform": {"team": "data-platform", "lead": "Tomás Ortiz", "members": ["Tomás Ortiz", "Aisha Bello"],
                      "slack": "#data-platform", "oncall": "Aisha Bello"},
    "billing": {"team": "billing", "lead": "Hannah Berg", "members": ["Hannah Berg", "Luca Conti"],
                "slack": "#billing-dev", "oncall": "Luca Conti"},
    "platform": {"team": "platform", "lead": "Kenji Watanabe", "members": ["Kenji Watanabe", "Eva Lindqvist"],
                 "slack": "#platform", "oncall": "Eva Lindqvist"},
    "infra": {"team": "infra", "lead": "Sam Osei", "members": ["Sam Osei"], "slack": "#infra", "oncall": "Sam Osei"},
}

# Sundays 02:00-06:00 UTC from July to September 2024; freezes block some.
SUNDAYS = ["2024-07-07", "2024-07-14", "2024-07-21", "2024-07-28", "2024-08-04", "2024-08-11", "2024-08-18",
           "2024-08-25", "2024-09-01", "2024-09-08", "2024-09-15", "2024-09-22", "2024-09-29"]
FROZEN = {"2024-08-25": "summer sale freeze", "2024-09-01": "summer sale freeze", "2024-09-08": "summer sale freeze",
          "2024-09-29": "quarter close freeze"}
BOOKED = {"2024-07-21": "pg-payments minor upgrade (CHG-21102)", "2024-08-11": "network maintenance (CHG-21240)"}
