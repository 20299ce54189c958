"""The world of the `cloud-cost-audit` session: the AWS organisation of
Kestrel Commerce GmbH (five accounts), its inventory with tags, its October
2024 bill, utilisation metrics, reservations, price list, budgets, people
directory and FinOps tickets, as of 2024-11-05.

Planted: the cost reports default to amortized list prices, while Kestrel
pays 9% less under its EDP contract (Support and Marketplace excepted) and
its budgets are kept at net prices; the three feature-store nodes (and their
data volumes) in the analytics account still carry the `team=search` and
`owner=yuki.tanaka` tags of the team that handed the service over to
analytics on 2024-09-16, which puts search's budget in alarm; a GPU instance
launched in the sandbox for a fine-tuning test on 2024-10-14 has been idle
since 2024-10-16 (untagged, created by Rahul Mehta of growth); a legacy
indexer in prod and a load-test instance in staging sit idle; four volumes
are unattached (one an old io1 database volume of checkout); the r5
reservation of recommendations expired on 2024-10-09; a NAT gateway spike
from 2024-10-21 to 10-24 (catalog's image backfill pulling through the NAT)
puts platform's budget in alarm. Similar names: Daniel Berg (payments) and
Daniela Berger (analytics). Deterministic: tool.py and answers.py read it."""
import hashlib
import random

COMPANY = "Kestrel Commerce GmbH"
MONTH = "2024-10"
NDAYS = 31
HOURS = 744
AS_OF = "2024-11-05"
DATES = ["2024-10-%02d" % d for d in range(1, NDAYS + 1)]
UTIL_END = "2024-11-04"  # metrics cover the days up to and including this one
PAGE_SIZE = 25
DOMAIN = "kestrel.io"

EDP = {"name": "EDP-2023-0417", "discount_pct": 9.0,
       "applies_to": "all AWS usage and reservations; not AWS Support, AWS Marketplace or taxes",
       "valid_from": "2023-04-01", "valid_until": "2026-03-31"}
DISCOUNT = EDP["discount_pct"] / 100.0

ACCOUNTS = [
    ("418295730164", "kestrel-prod"),
    ("529037461827", "kestrel-staging"),
    ("637184920553", "kestrel-analytics"),
    ("740516283946", "kestrel-shared"),
    ("851629374018", "kestrel-sandbox"),
]
ACCOUNT_NAME = dict(ACCOUNTS)
PROD, STAGING, ANALYTICS, SHARED, SANDBOX = [a for a, _ in ACCOUNTS]
ACCOUNT_OWNER = {PROD: "platform", STAGING: "platform", ANALYTICS: "analytics", SHARED: "platform",
                 SANDBOX: "platform"}

TEAMS = ["payments", "search", "catalog", "analytics", "platform", "growth"]

PEOPLE = [
    {"name": "Daniel Berg", "email": "daniel.berg@kestrel.io", "team": "payments", "role": "engineering manager"},
    {"name": "Amira Haddad", "email": "amira.haddad@kestrel.io", "team": "payments", "role": "senior engineer"},
    {"name": "Ines Duarte", "email": "ines.duarte@kestrel.io", "team": "search", "role": "engineering manager"},
    {"name": "Yuki Tanaka", "email": "yuki.tanaka@kestrel.io", "team": "search", "role": "staff engineer"},
    {"name": "Kwame Mensah", "email": "kwame.mensah@kestrel.io", "team": "catalog", "role": "engineering manager"},
    {"name": "Daniela Berger", "email": "daniela.berger@kestrel.io", "team": "analytics",
     "role": "engineering manager"},
    {"name": "Lukas Brandt", "email": "lukas.brandt@kestrel.io", "team": "analytics", "role": "data engineer"},
    {"name": "Rahul Mehta", "email": "rahul.mehta@kestrel.io", "team": "growth", "role": "engineering manager"},
    {"name": "Sofia Lindgren", "email": "sofia.lindgren@kestrel.io", "team": "platform",
     "role": "engineering manager"},
    {"name": "Jonas Keller", "email": "jonas.keller@kestrel.io", "team": "platform", "role": "site reliability engineer"},
    {"name": "Hannah Vogel", "email": "hannah.vogel@kestrel.io", "team": "finance", "role": "FinOps lead"},
]
PERSON = {p["email"]: p for p in PEOPLE}

# service -> (team, owner email, since, previous team)
SERVICES = {
    "checkout": ("payments", "daniel.berg@kestrel.io", "2021-02-01", None),
    "payment-gateway": ("payments", "daniel.berg@kestrel.io", "2021-02-01", None),
    "fraud-scoring": ("payments", "amira.haddad@kestrel.io", "2023-06-12", None),
    "search-api": ("search", "ines.duarte@kestrel.io", "2021-05-17", None),
    "indexer": ("search", "yuki.tanaka@kestrel.io", "2021-05-17", None),
    "catalog-api": ("catalog", "kwame.mensah@kestrel.io", "2021-02-01", None),
    "image-resizer": ("catalog", "kwame.mensah@kestrel.io", "2022-09-05", None),
    "etl": ("analytics", "lukas.brandt@kestrel.io", "2022-01-10", None),
    "warehouse": ("analytics", "daniela.berger@kestrel.io", "2022-01-10", None),
    "feature-store": ("analytics", "daniela.berger@kestrel.io", "2024-09-16", "search"),
    "recommendations": ("growth", "rahul.mehta@kestrel.io", "2023-03-01", None),
    "ab-testing": ("growth", "rahul.mehta@kestrel.io", "2023-03-01", None),
    "kafka": ("platform", "sofia.lindgren@kestrel.io", "2021-02-01", None),
    "network": ("platform", "sofia.lindgren@kestrel.io", "2021-02-01", None),
    "monitoring": ("platform", "jonas.keller@kestrel.io", "2021-02-01", None),
    "ci-runners": ("platform", "jonas.keller@kestrel.io", "2022-04-04", None),
}

TAGGING_POLICY = {
    "version": "2024-07",
    "required_tags": [
        {"key": "team", "allowed": TEAMS, "rule": "the team that owns and pays for the resource"},
        {"key": "service", "allowed": sorted(SERVICES), "rule": "a service registered in the directory"},
        {"key": "env", "allowed": ["prod", "staging", "dev", "sandbox"], "rule": "the environment"},
        {"key": "owner", "allowed": None, "rule": "email of the person responsible"},
    ],
    "allocation": [
        "Cost is allocated to the team of the resource's team tag.",
        "The directory is authoritative for ownership: when a service's owner team in the directory differs "
        "from the team tag (tags lag reorganisations), allocate to the directory's team and fix the tags.",
        "Untagged resources go to the team of the person who created them (created_by); when no person can be "
        "found, to the team that owns the account.",
        "Costs that are not resources (AWS Support, AWS Marketplace, CloudWatch, data transfer) are shared: "
        "split across the teams in proportion to their allocated resource cost.",
        "NAT gateway and VPN costs stay with platform.",
    ],
    "account_owners": [{"account_id": a, "account_name": n, "owner_team": ACCOUNT_OWNER[a]} for a, n in ACCOUNTS],
}

# --- prices (list, USD) --------------------------------------------------------------------------

EC2_PRICES = {  # (type, region) -> (vcpu, memory, on-demand, RI 1y no upfront, compute SP 1y)
    ("m5.large", "eu-central-1"): (2, 8.0, 0.115, 0.073, 0.083),
    ("m5.xlarge", "eu-central-1"): (4, 16.0, 0.23, 0.146, 0.166),
    ("m5.2xlarge", "eu-central-1"): (8, 32.0, 0.46, 0.292, 0.331),
    ("m5.4xlarge", "eu-central-1"): (16, 64.0, 0.92, 0.584, 0.662),
    ("c5.xlarge", "eu-central-1"): (4, 8.0, 0.194, 0.123, 0.14),
    ("c5.2xlarge", "eu-central-1"): (8, 16.0, 0.388, 0.246, 0.279),
    ("c5.4xlarge", "eu-central-1"): (16, 32.0, 0.776, 0.492, 0.559),
    ("r5.xlarge", "eu-central-1"): (4, 32.0, 0.304, 0.192, 0.219),
    ("r5.2xlarge", "eu-central-1"): (8, 64.0, 0.608, 0.383, 0.438),
    ("r5.4xlarge", "eu-central-1"): (16, 128.0, 1.216, 0.766, 0.876),
    ("t3.medium", "eu-central-1"): (2, 4.0, 0.048, 0.03, 0.035),
    ("t3.large", "eu-central-1"): (2, 8.0, 0.096, 0.061, 0.069),
    ("g5.12xlarge", "us-east-1"): (48, 192.0, 5.672, 3.573, 4.084),
    ("g5.xlarge", "us-east-1"): (4, 16.0, 1.006, 0.634, 0.724),
    ("m5.2xlarge", "us-east-1"): (8, 32.0, 0.384, 0.242, 0.276),
    ("r5.2xlarge", "us-east-1"): (8, 64.0, 0.504, 0.317, 0.363),
}
EBS_PRICES = {("gp3", "eu-central-1"): 0.0952, ("gp2", "eu-central-1"): 0.119, ("io1", "eu-central-1"): 0.149,
              ("gp3", "us-east-1"): 0.08, ("gp2", "us-east-1"): 0.10, ("io1", "us-east-1"): 0.125}
IO1_IOPS = {"eu-central-1": 0.078, "us-east-1": 0.065}
S3_GB = 0.0245
NAT_HOUR, NAT_GB = 0.052, 0.052

SVC_EC2 = "Amazon Elastic Compute Cloud - Compute"
SVC_OTHER = "EC2 - Other"
SVC_RDS = "Amazon Relational Database Service"
SVC_ES = "Amazon OpenSearch Service"
SVC_CACHE = "Amazon ElastiCache"
SVC_S3 = "Amazon Simple Storage Service"
SVC_MSK = "Amazon Managed Streaming for Apache Kafka"
SVC_RS = "Amazon Redshift"
SVC_CW = "AmazonCloudWatch"
SVC_DT = "AWS Data Transfer"
SVC_SUPPORT = "AWS Support (Business)"
SVC_MARKET = "AWS Marketplace: Sentry Business"
NO_DISCOUNT = {SVC_SUPPORT, SVC_MARKET}


def _hex(*key, n=16):
    return hashlib.sha1(":".join(map(str, key)).encode()).hexdigest()[:n]


def _r(*key):
    return random.Random(":".join(map(str, key)))


# --- the inventory -------------------------------------------------------------------------------

RESOURCES = []


def _tags(team, service, env, owner, name=None):
    t = {}
    if name:
        t["Name"] = name
    if team:
        t["team"] = team
    if service:
        t["service"] = service
    if env:
        t["env"] = env
    if owner:
        t["owner"] = owner
    return t


def _daily_flat(monthly, start_day=1, start_hour=0.0, rate_by_day=None):
    """Per-day cost of something billed by the hour from `start_day` (1-based) at `start_hour`."""
    out = []
    for d in range(1, NDAYS + 1):
        hours = 0.0 if d < start_day else (24.0 - start_hour if d == start_day else 24.0)
        hourly = rate_by_day(d) if rate_by_day else monthly / HOURS
        out.append(hours * hourly)
    return out


def add(rid, kind, account, region, rtype, service, tags, daily, launched, state="running", created_by=None,
        arn=None, **extra):
    r = {"resource_id": rid, "kind": kind, "account_id": account, "region": region, "type": rtype,
         "service_line": service, "tags": tags, "daily": daily, "launched": launched, "state": state,
         "created_by": created_by or "arn:aws:iam::%s:role/terraform-apply" % account}
    r["arn"] = arn or {
        "instance": "arn:aws:ec2:%s:%s:instance/%s",
        "volume": "arn:aws:ec2:%s:%s:volume/%s",
        "nat-gateway": "arn:aws:ec2:%s:%s:natgateway/%s",
        "db": "arn:aws:rds:%s:%s:db:%s",
        "cache": "arn:aws:elasticache:%s:%s:replicationgroup:%s",
        "opensearch": "arn:aws:es:%s:%s:domain/%s",
        "kafka": "arn:aws:kafka:%s:%s:cluster/%s",
        "redshift": "arn:aws:redshift:%s:%s:cluster:%s",
    }[kind] % (region, account, rid) if kind != "bucket" else "arn:aws:s3:::%s" % rid
    r.update(extra)
    RESOURCES.append(r)
    return r


def instance(rid, account, region, itype, tags, launched, rate=None, rate_by_day=None, start_day=1, start_hour=0.0,
             util=None, created_by=None, root_gb=100, root_id=None, vol_type="gp3"):
    od = EC2_PRICES[(itype, region)][2]
    hourly = rate if rate is not None else od
    daily = _daily_flat(hourly * HOURS, start_day, start_hour, rate_by_day)
    inst = add(rid, "instance", account, region, itype, SVC_EC2, tags, daily, launched, created_by=created_by,
               util=util or {}, az=region + "a", sp_rate=rate if rate is not None and rate < od else None)
    vid = root_id or "vol-0" + _hex("root", rid)
    gbm = EBS_PRICES[(vol_type, region)] * root_gb
    add(vid, "volume", account, region, vol_type, SVC_OTHER, dict(tags), _daily_flat(gbm, start_day, start_hour),
        launched, state="in-use", created_by=created_by, attached_to=rid, size_gb=root_gb, az=region + "a")
    return inst


def fleet(prefix, n, account, region, itype, team, service, env, owner, launched, util, rate=None,
          rate_by_day=None, data_gb=0, names=None, ids=None):
    out = []
    for k in range(n):
        rid = ids[k] if ids else "i-0" + _hex(prefix, k)
        name = names[k] if names else "%s-%d" % (prefix, k + 1)
        tags = _tags(team, service, env, owner, name)
        r = _r("util", prefix, k)
        u = {key: (round(v * r.uniform(0.9, 1.1), 1) if isinstance(v, float) else v) for key, v in util.items()}
        out.append(instance(rid, account, region, itype, tags, launched, rate=rate, rate_by_day=rate_by_day, util=u))
        if data_gb:
            add("vol-0" + _hex("data", rid), "volume", account, region, "gp3", SVC_OTHER, dict(tags),
                _daily_flat(EBS_PRICES[("gp3", region)] * data_gb), launched, state="in-use", attached_to=rid,
                size_gb=data_gb, az=region + "a")
    return out


def flat(rid, kind, account, region, rtype, service, tags, monthly, launched, **extra):
    return add(rid, kind, account, region, rtype, service, tags, _daily_flat(monthly), launched, **extra)


EU = "eu-central-1"
BUSY = {"cpu_avg": 38.0, "cpu_p95": 64.0, "cpu_max": 91.0, "mem_p95": 62.0, "net_gb": 410.0}
MID = {"cpu_avg": 24.0, "cpu_p95": 47.0, "cpu_max": 78.0, "mem_p95": 58.0, "net_gb": 180.0}
STAGE = {"cpu_avg": 6.5, "cpu_p95": 19.0, "cpu_max": 64.0, "mem_p95": 63.0, "net_gb": 12.0}

SP_RATE = 0.72  # Compute Savings Plan rate / on-demand for the covered fleets

# prod
CHECKOUT = fleet("checkout", 14, PROD, EU, "m5.4xlarge", "payments", "checkout", "prod", "daniel.berg@kestrel.io",
                 "2023-11-20", BUSY, rate=0.662)
GATEWAY = fleet("payment-gateway", 8, PROD, EU, "c5.2xlarge", "payments", "payment-gateway", "prod",
                "daniel.berg@kestrel.io", "2023-11-20", MID, rate=0.279)
FRAUD = fleet("fraud-scoring", 3, PROD, EU, "c5.4xlarge", "payments", "fraud-scoring", "prod",
              "amira.haddad@kestrel.io", "2024-02-06", BUSY)
SEARCH_API = fleet("search-api", 12, PROD, EU, "c5.2xlarge", "search", "search-api", "prod", "ines.duarte@kestrel.io",
                   "2024-01-15", BUSY, rate=0.279)
INDEXER = fleet("indexer", 6, PROD, EU, "m5.2xlarge", "search", "indexer", "prod", "yuki.tanaka@kestrel.io",
                "2024-05-02", MID)
LEGACY_INDEXER = instance("i-0a3f9c21d7e84b615", PROD, EU, "m5.2xlarge",
                          _tags("search", "indexer", "prod", "yuki.tanaka@kestrel.io", "indexer-legacy-1"),
                          "2022-03-14", root_gb=500, root_id="vol-05e1c7b3a9d2f4068",
                          util={"cpu_avg": 0.9, "cpu_p95": 2.1, "cpu_max": 4.8, "mem_p95": 11.3, "net_gb": 0.4})
CATALOG_API = fleet("catalog-api", 10, PROD, EU, "m5.xlarge", "catalog", "catalog-api", "prod",
                    "kwame.mensah@kestrel.io", "2023-08-01", MID, rate=0.166)
RESIZER = fleet("image-resizer", 8, PROD, EU, "c5.xlarge", "catalog", "image-resizer", "prod",
                "kwame.mensah@kestrel.io", "2023-08-01", BUSY)


def _reco_rate(d):
    return 0.383 if d <= 8 else 0.608  # the r5 reservation ran out at the end of 2024-10-08 (expiry 2024-10-09)


RECO = fleet("recommendations", 4, PROD, EU, "r5.2xlarge", "growth", "recommendations", "prod",
             "rahul.mehta@kestrel.io", "2023-10-09", MID, rate_by_day=_reco_rate)
ABTEST = fleet("ab-testing", 3, PROD, EU, "t3.large", "growth", "ab-testing", "prod", "rahul.mehta@kestrel.io",
               "2024-03-11", {"cpu_avg": 11.0, "cpu_p95": 27.0, "cpu_max": 55.0, "mem_p95": 71.0, "net_gb": 30.0})

flat("payments-db", "db", PROD, EU, "db.r6g.4xlarge (Multi-AZ)", SVC_RDS,
     _tags("payments", "checkout", "prod", "daniel.berg@kestrel.io"), 2.704 * HOURS + 1500 * 0.276, "2023-11-20",
     util={"cpu_avg": 31.0, "cpu_p95": 58.0, "cpu_max": 83.0, "mem_p95": None, "net_gb": 220.0})
flat("catalog-db", "db", PROD, EU, "db.r6g.2xlarge (Multi-AZ)", SVC_RDS,
     _tags("catalog", "catalog-api", "prod", "kwame.mensah@kestrel.io"), 1.352 * HOURS + 800 * 0.276, "2023-08-01",
     util={"cpu_avg": 27.0, "cpu_p95": 49.0, "cpu_max": 76.0, "mem_p95": None, "net_gb": 140.0})
flat("checkout-sessions", "cache", PROD, EU, "cache.r6g.xlarge x3", SVC_CACHE,
     _tags("payments", "checkout", "prod", "daniel.berg@kestrel.io"), 3 * 0.494 * HOURS, "2023-11-20",
     util={"cpu_avg": 14.0, "cpu_p95": 33.0, "cpu_max": 51.0, "mem_p95": 64.0, "net_gb": 95.0})
flat("search-prod", "opensearch", PROD, EU, "r6g.2xlarge.search x9", SVC_ES,
     _tags("search", "search-api", "prod", "ines.duarte@kestrel.io"), 9 * 0.811 * HOURS + 9 * 1024 * 0.146,
     "2024-01-15", util={"cpu_avg": 41.0, "cpu_p95": 69.0, "cpu_max": 94.0, "mem_p95": 77.0, "net_gb": 310.0})
flat("kestrel-catalog-images", "bucket", PROD, EU, "s3 standard", SVC_S3,
     _tags("catalog", "image-resizer", "prod", "kwame.mensah@kestrel.io"), 640000 * S3_GB + 1188.41, "2021-03-02",
     size_gb=640000)
flat("kestrel-order-exports", "bucket", PROD, EU, "s3 standard", SVC_S3, {}, 41800 * S3_GB + 37.2, "2024-04-18",
     created_by="arn:aws:iam::418295730164:user/daniela.berger", size_gb=41800)
CHECKOUT_OLD_VOL = flat("vol-0d2c7a9e4b1f83c56", "volume", PROD, EU, "io1", SVC_OTHER,
                        _tags("payments", "checkout", "prod", "daniel.berg@kestrel.io", "checkout-pg-data-old"),
                        4000 * 0.149 + 10000 * 0.078, "2022-06-30", state="available", size_gb=4000, iops=10000,
                        az=EU + "b", detached="2024-09-02")

NAT_IDS = ["nat-0" + _hex("nat", k) for k in range(3)]
SPIKE = {21: 9420.0, 22: 10180.0, 23: 9870.0, 24: 8530.0}  # extra GB through the NAT (image backfill)


def nat_gb(k):
    """GB processed each day of October by NAT gateway k."""
    r = _r("natgb", k)
    return [31.0 * r.uniform(0.85, 1.15) + (SPIKE.get(d, 0.0) if k == 0 else 0.0) for d in range(1, NDAYS + 1)]


def _nat_daily(k):
    return [24 * NAT_HOUR + gb * NAT_GB for gb in nat_gb(k)]


for _k, _nid in enumerate(NAT_IDS):
    add(_nid, "nat-gateway", PROD, EU, "nat-gateway", SVC_OTHER,
        _tags("platform", "network", "prod", "sofia.lindgren@kestrel.io", "nat-prod-%s" % "abc"[_k]),
        _nat_daily(_k), "2021-03-02", az=EU + "abc"[_k], gb=nat_gb(_k))

# staging
fleet("checkout-stg", 2, STAGING, EU, "m5.xlarge", "payments", "checkout", "staging", "daniel.berg@kestrel.io",
      "2023-11-22", STAGE)
fleet("search-api-stg", 2, STAGING, EU, "c5.xlarge", "search", "search-api", "staging", "ines.duarte@kestrel.io",
      "2024-01-16", STAGE)
fleet("catalog-api-stg", 2, STAGING, EU, "m5.large", "catalog", "catalog-api", "staging", "kwame.mensah@kestrel.io",
      "2023-08-03", STAGE)
LOADTEST = instance("i-04e6b1d8c2a7f3950", STAGING, EU, "m5.4xlarge",
                    _tags("catalog", "catalog-api", "staging", "kwame.mensah@kestrel.io", "catalog-loadtest-2"),
                    "2024-08-12", root_gb=200, root_id="vol-0a9b8c7d6e5f40312",
                    util={"cpu_avg": 0.4, "cpu_p95": 0.8, "cpu_max": 3.9, "mem_p95": None, "net_gb": 0.1})
flat("staging-pg", "db", STAGING, EU, "db.m6g.xlarge", SVC_RDS,
     _tags("payments", "checkout", "staging", "daniel.berg@kestrel.io"), 0.356 * HOURS + 200 * 0.138, "2023-11-22",
     util={"cpu_avg": 4.0, "cpu_p95": 15.0, "cpu_max": 58.0, "mem_p95": None, "net_gb": 6.0})
STG_VOL_A = flat("vol-0b7e2f1a9c3d58e42", "volume", STAGING, EU, "gp2", SVC_OTHER, {}, 1000 * 0.119, "2024-02-19",
                 state="available", size_gb=1000, az=EU + "a", detached="2024-06-03",
                 created_by="arn:aws:iam::529037461827:role/ci-deployer")
STG_VOL_B = flat("vol-03c9d4e8f1a2b7c65", "volume", STAGING, EU, "gp2", SVC_OTHER, {}, 500 * 0.119, "2024-05-06",
                 state="available", size_gb=500, az=EU + "b", detached="2024-07-22",
                 created_by="arn:aws:iam::529037461827:role/ci-deployer")

# analytics
fleet("etl", 8, ANALYTICS, EU, "m5.2xlarge", "analytics", "etl", "prod", "lukas.brandt@kestrel.io", "2023-01-09",
      MID, data_gb=500, rate=0.331)
FEATURE_IDS = ["i-07c1e5b92f3d4a086", "i-0e2b8d4f6a1c93d57", "i-0596a3c8e1f7b2d40"]
FEATURE = fleet("feature-store", 3, ANALYTICS, EU, "r5.4xlarge", "search", "feature-store", "prod",
                "yuki.tanaka@kestrel.io", "2024-03-04",
                {"cpu_avg": 7.8, "cpu_p95": 14.6, "cpu_max": 36.0, "mem_p95": 38.2, "net_gb": 64.0},
                data_gb=2000, ids=FEATURE_IDS)
flat("kestrel-dwh", "redshift", ANALYTICS, EU, "ra3.4xlarge x4", SVC_RS,
     _tags("analytics", "warehouse", "prod", "daniela.berger@kestrel.io"), 4 * 3.894 * HOURS + 36000 * 0.0261,
     "2022-01-10", util={"cpu_avg": 36.0, "cpu_p95": 72.0, "cpu_max": 99.0, "mem_p95": None, "net_gb": 0.0})
flat("kestrel-datalake", "bucket", ANALYTICS, EU, "s3 standard", SVC_S3,
     _tags("analytics", "etl", "prod", "lukas.brandt@kestrel.io"), 410400 * S3_GB + 911.7, "2022-01-10",
     size_gb=410400)

# shared
flat("kestrel-events", "kafka", SHARED, EU, "kafka.m5.2xlarge x6", SVC_MSK,
     _tags("platform", "kafka", "prod", "sofia.lindgren@kestrel.io"), 6 * 1.008 * HOURS + 6 * 2000 * 0.119,
     "2021-06-14", util={"cpu_avg": 29.0, "cpu_p95": 51.0, "cpu_max": 70.0, "mem_p95": None, "net_gb": 880.0},
     arn="arn:aws:kafka:eu-central-1:740516283946:cluster/kestrel-events/6a1f3c9e-2b7d-4e8a-9f01-c3d5e7a9b2f4-3")
fleet("monitoring", 3, SHARED, EU, "m5.xlarge", "platform", "monitoring", "prod", "jonas.keller@kestrel.io",
      "2022-02-21", {"cpu_avg": 17.0, "cpu_p95": 34.0, "cpu_max": 60.0, "mem_p95": 68.0, "net_gb": 140.0},
      data_gb=1000)
fleet("ci-runner", 4, SHARED, EU, "c5.2xlarge", "platform", "ci-runners", "prod", "jonas.keller@kestrel.io",
      "2022-04-04", {"cpu_avg": 9.0, "cpu_p95": 88.0, "cpu_max": 100.0, "mem_p95": 54.0, "net_gb": 260.0})
fleet("vpn", 2, SHARED, EU, "t3.medium", "platform", "network", "prod", "sofia.lindgren@kestrel.io", "2021-03-02",
      {"cpu_avg": 5.0, "cpu_p95": 11.0, "cpu_max": 30.0, "mem_p95": 58.0, "net_gb": 90.0})

# sandbox
GPU_START = (14, 9 + 22 / 60 + 41 / 3600)
GPU = instance("i-0f5d8e3c1b2a49d70", SANDBOX, "us-east-1", "g5.12xlarge", {"Name": "llm-finetune-test"},
               "2024-10-14T09:22:41Z", start_day=GPU_START[0], start_hour=GPU_START[1], root_gb=500,
               root_id="vol-07b3e9f2c6d1a4805", created_by="arn:aws:iam::851629374018:user/rahul.mehta",
               util={"cpu_avg": 0.3, "cpu_p95": 0.6, "cpu_max": 2.2, "mem_p95": 3.1, "gpu_avg": 0.0, "net_gb": 0.2})
fleet("dev", 3, SANDBOX, EU, "t3.medium", "search", "search-api", "dev", "ines.duarte@kestrel.io", "2024-06-24",
      {"cpu_avg": 8.0, "cpu_p95": 22.0, "cpu_max": 71.0, "mem_p95": 57.0, "net_gb": 3.0},
      names=["dev-ines", "dev-yuki", "dev-marco"])
SANDBOX_VOL = flat("vol-0e4a1b9c8d7f62a35", "volume", SANDBOX, EU, "gp3", SVC_OTHER,
                   _tags("growth", "recommendations", "dev", "rahul.mehta@kestrel.io", "reco-experiments"),
                   750 * 0.0952, "2024-05-13", state="available", size_gb=750, az=EU + "a", detached="2024-08-30")

SVC_ELB = "Elastic Load Balancing"
for _name, _team, _svc, _owner, _lcu in [
        ("checkout-prod", "payments", "checkout", "daniel.berg@kestrel.io", 412.6),
        ("payment-gateway-prod", "payments", "payment-gateway", "daniel.berg@kestrel.io", 138.2),
        ("search-api-prod", "search", "search-api", "ines.duarte@kestrel.io", 377.9),
        ("catalog-api-prod", "catalog", "catalog-api", "kwame.mensah@kestrel.io", 291.4)]:
    flat("app/%s/%s" % (_name, _hex("alb", _name)), "load-balancer", PROD, EU, "application", SVC_ELB,
         _tags(_team, _svc, "prod", _owner, _name), 0.0270 * HOURS + _lcu, "2023-08-01",
         arn="arn:aws:elasticloadbalancing:eu-central-1:418295730164:loadbalancer/app/%s/%s"
             % (_name, _hex("alb", _name)))

RES_BY_ID = {r["resource_id"]: r for r in RESOURCES}
for _r0 in RESOURCES:
    _r0["monthly"] = sum(_r0["daily"])

# --- lines that are not resources (untagged) -----------------------------------------------------

OTHER_LINES = []  # (account, service, daily)


def other(account, service, monthly, wobble=0.06):
    r = _r("other", account, service)
    w = [1 + r.uniform(-wobble, wobble) for _ in range(NDAYS)]
    s = sum(w)
    OTHER_LINES.append((account, service, [monthly * x / s for x in w]))


other(PROD, SVC_CW, 2184.37)
other(PROD, SVC_DT, 9846.58, 0.12)
other(STAGING, SVC_CW, 142.61)
other(ANALYTICS, SVC_CW, 618.9)
other(SHARED, SVC_CW, 1306.14)
other(SANDBOX, SVC_CW, 21.87)
other(SHARED, SVC_MARKET, 1450.0, 0.0)
other(SHARED, "Amazon Route 53", 212.4, 0.02)
other(SHARED, "Amazon Elastic Container Registry", 96.3, 0.02)
other(PROD, "AWS Key Management Service", 148.0, 0.02)
other(ANALYTICS, "AWS Key Management Service", 61.0, 0.02)
other(PROD, "AWS Lambda", 183.12, 0.2)
other(ANALYTICS, "AWS Glue", 742.85, 0.3)
other(PROD, "Amazon Simple Queue Service", 58.77, 0.1)
other(STAGING, SVC_DT, 41.3, 0.2)


def _usage_total_net():
    total = sum(r["monthly"] for r in RESOURCES) + sum(sum(d) for _, s, d in OTHER_LINES if s not in NO_DISCOUNT)
    return total * (1 - DISCOUNT)


def business_support(net_usage):
    """AWS Business Support: 10% of the first 10K, 7% to 80K, 5% to 250K, 3% above."""
    tiers = [(10000, 0.10), (80000, 0.07), (250000, 0.05), (float("inf"), 0.03)]
    fee, lo = 0.0, 0
    for hi, pct in tiers:
        if net_usage > lo:
            fee += (min(net_usage, hi) - lo) * pct
        lo = hi
    return fee


other(SHARED, SVC_SUPPORT, round(business_support(_usage_total_net()), 2), 0.0)


# --- cost lines ------------------------------------------------------------------------------------

def lines():
    """Every cost line: (account, service, team tag or None, resource id or None, daily list costs)."""
    out = [(r["account_id"], r["service_line"], r["tags"].get("team"), r["resource_id"], r["daily"])
           for r in RESOURCES]
    out += [(a, s, None, None, d) for a, s, d in OTHER_LINES]
    return out


def factor(service, cost_type):
    return 1.0 if cost_type in ("amortized", "unblended") or service in NO_DISCOUNT else 1 - DISCOUNT


# --- budgets (net amortized, by team tag; one per account for the sandbox) ------------------------

BUDGET_LIMITS = {
    "payments": 16000.0, "search": 13500.0, "catalog": 21500.0, "analytics": 25000.0, "platform": 8500.0,
    "growth": 2200.0,
}
SANDBOX_LIMIT = 1500.0


def _breach(limit, daily_net):
    """The day the running net cost first exceeds the limit."""
    acc = 0.0
    for d, x in enumerate(daily_net, 1):
        acc += x
        if acc > limit:
            return DATES[d - 1]
    return None


def budgets():
    out = []
    for k, team in enumerate(TEAMS):
        daily = [sum(dd[i] * factor(s, "net_amortized") for a, s, t, _, dd in lines() if t == team)
                 for i in range(NDAYS)]
        actual = sum(daily)
        limit = BUDGET_LIMITS[team]
        out.append({"alert_id": "BA-%s-%s" % (team[:4].upper(), "1024"), "budget": "team-%s-monthly" % team,
                    "scope": "tag team=%s" % team, "actual_raw": actual, "limit_raw": limit,
                    "first_breach": _breach(limit, daily)})
    daily = [sum(dd[i] * factor(s, "net_amortized") for a, s, t, _, dd in lines() if a == SANDBOX)
             for i in range(NDAYS)]
    out.append({"alert_id": "BA-SBOX-1024", "budget": "account-sandbox-monthly", "scope": "account %s" % SANDBOX,
                "actual_raw": sum(daily), "limit_raw": SANDBOX_LIMIT, "first_breach": _breach(SANDBOX_LIMIT, daily)})
    return out


def usd(x):
    return "USD {:,.2f}".format(x)


# --- utilisation -------------------------------------------------------------------------------------

def util_of(r, days):
    u = r.get("util") or {}
    # a little day-to-day spread: shorter windows see slightly different figures
    k = 1.0 + (14 - days) * 0.004
    def f(key):
        v = u.get(key)
        return None if v is None else round(min(100.0, v * k), 1) if key != "net_gb" else round(v * days / 14, 1)
    return {"cpu_avg_pct": f("cpu_avg"), "cpu_p95_pct": f("cpu_p95"), "cpu_max_pct": f("cpu_max"),
            "mem_p95_pct": f("mem_p95"), "gpu_avg_pct": u.get("gpu_avg"), "network_gb": f("net_gb")}


# --- reservations -------------------------------------------------------------------------------------

SAVINGS_PLANS = [
    {"arn": "arn:aws:savingsplans::740516283946:savingsplan/3f8e2a1c-7b4d-4e9a-9c2f-5d1b8a6e4f07",
     "type": "Compute", "term": "1y no upfront",
     "commitment_hourly": round(sum(r.get("sp_rate") or 0 for r in RESOURCES if r["kind"] == "instance"), 3), "utilisation_pct": 100.0,
     "start": "2023-11-20", "end": "2024-11-19"},
]
RESERVATIONS = [
    {"ri_id": "ri-2023-10-09-r5-4f1a8c2e", "service": "EC2", "instance_type": "r5.2xlarge", "region": EU,
     "count": 4, "term": "1y no upfront", "start": "2023-10-09", "end": "2024-10-09", "state": "retired",
     "utilisation_pct": 100.0},
    {"ri_id": "ri-2023-11-20-rds-9b3e7d10", "service": "RDS", "instance_type": "db.r6g.4xlarge", "region": EU,
     "count": 1, "term": "1y no upfront", "start": "2023-11-20", "end": "2024-11-19", "state": "active",
     "utilisation_pct": 100.0},
    {"ri_id": "ri-2023-08-01-rds-5c2a6f84", "service": "RDS", "instance_type": "db.r6g.2xlarge", "region": EU,
     "count": 1, "term": "3y no upfront", "start": "2023-08-01", "end": "2026-07-31", "state": "active",
     "utilisation_pct": 100.0},
]
COVERAGE_TARGET = 80.0


def coverage_rows():
    """EC2 hours by family and region in the month: on-demand vs covered."""
    fam = {}
    for r in RESOURCES:
        if r["kind"] != "instance":
            continue
        f = r["type"].split(".")[0]
        key = (f, r["region"])
        od = EC2_PRICES[(r["type"], r["region"])][2]
        rates = _rates(r)
        total_h = sum(r["daily"][i] / rate for i, rate in enumerate(rates))
        covered_h = sum(r["daily"][i] / rate for i, rate in enumerate(rates) if rate < od)
        od_cost = sum(r["daily"][i] for i, rate in enumerate(rates) if rate >= od)
        e = fam.setdefault(key, [0.0, 0.0, 0.0])
        e[0] += total_h - covered_h
        e[1] += covered_h
        e[2] += od_cost
    rows = []
    for (f, region), (odh, cov, odc) in sorted(fam.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
        rows.append({"family": f, "region": region, "on_demand_hours": round(odh, 1), "covered_hours": round(cov, 1),
                     "coverage_pct": round(100 * cov / (odh + cov), 1), "on_demand_cost": round(odc, 2)})
    return rows


def _rates(r):
    """The hourly rate billed each day of an instance."""
    od = EC2_PRICES[(r["type"], r["region"])][2]
    sid = r["tags"].get("service")
    if r.get("sp_rate"):
        return [r["sp_rate"]] * NDAYS
    if sid == "recommendations" and r["account_id"] == PROD:
        return [_reco_rate(d) for d in range(1, NDAYS + 1)]
    return [od] * NDAYS


# --- tickets ---------------------------------------------------------------------------------------

TICKETS = [
    {"key": "FINOPS-371", "summary": "Rightsize search-api staging instances", "status": "done",
     "assignee": "ines.duarte@kestrel.io", "created": "2024-05-14", "labels": ["rightsizing", "staging"],
     "resources": [], "text": "Moved search-api staging from c5.2xlarge to c5.xlarge. Saves about USD 280 a month."},
    {"key": "FINOPS-388", "summary": "Unattached gp2 volumes in kestrel-staging",
     "status": "open", "assignee": "jonas.keller@kestrel.io", "created": "2024-08-20",
     "labels": ["unattached-volume", "staging"], "resources": ["vol-0b7e2f1a9c3d58e42", "vol-03c9d4e8f1a2b7c65"],
     "text": "Two gp2 volumes left by the CI deployer after the May staging rebuild. Snapshot, then delete."},
    {"key": "FINOPS-395", "summary": "r5 reserved instances for recommendations expire 2024-10-09",
     "status": "open", "assignee": "hannah.vogel@kestrel.io", "created": "2024-09-25",
     "labels": ["reservation", "renewal"], "resources": ["ri-2023-10-09-r5-4f1a8c2e"],
     "text": "Decide whether to renew the 4 x r5.2xlarge RI (1y no upfront) or move recommendations to the "
             "Compute Savings Plan. Waiting for growth's capacity plan."},
    {"key": "FINOPS-402", "summary": "Tag policy v2024-07 rollout: required owner tag",
     "status": "done", "assignee": "sofia.lindgren@kestrel.io", "created": "2024-07-08", "labels": ["tagging"],
     "resources": [], "text": "owner is required on every resource created by Terraform from 2024-07-15."},
    {"key": "FINOPS-409", "summary": "NAT gateway processing spike in kestrel-prod 2024-10-21..24",
     "status": "open", "assignee": "sofia.lindgren@kestrel.io", "created": "2024-10-25",
     "labels": ["network", "anomaly"], "resources": [NAT_IDS[0]],
     "text": "nat-prod-a processed ~38 TB in four days: catalog's image-resizer backfill pulled images from "
             "kestrel-catalog-images through the NAT. An S3 gateway endpoint in the prod VPC would take S3 "
             "traffic off the NAT."},
]
LABELS = ["idle", "rightsizing", "unattached-volume", "reservation", "renewal", "tagging", "network", "anomaly",
          "staging", "budget", "sandbox"]
