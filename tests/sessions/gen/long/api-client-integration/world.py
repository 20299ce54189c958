"""The world of the `api-client-integration` session: Larkspur & Vine (a home
goods shop in Portland, Oregon) moves its client of the Parcelon shipping API
from v1 to v2 (ticket FUL-2291; v1 is switched off on 2025-09-30) and books
its pending shipments in Parcelon's sandbox. The agent works on 2025-06-24.

Planted:
- The v2 reference gives `parcel.weight` and `parcel.dimensions` as plain
  numbers ("see Units"); the Units section says grams and centimetres,
  integers. The shop's orders carry pounds and inches, and so does the v1
  client: a v2 request sent with pounds is accepted (3.2 "grams"), rated on
  its tiny dimensional weight, and quotes far below what the customers paid.
- v2.0 renamed `service_code` to `service_level` (and `X-Parcelon-Account`
  to `X-Carrier-Account`, `to` to `ship_to`, ...). `service_level` is
  optional in /v2/shipments (default GROUND_ECONOMY) and the sandbox ignores
  unknown fields with only an `X-Api-Warn` header: a shipment sent with the
  v1 `service_code: EXPRESS_SAVER` is booked as GROUND_ECONOMY.
- Quotes are valid 10 minutes (v2.1, down from 30); booking with a quote
  older than that is a 422 E4223 QUOTE_EXPIRED.
- ORD-58230's postal code is 98013 (Burton, Vashon Island) for a Seattle
  street: the address check corrects it to 98103; ORD-58236 has its unit in
  street1. ORD-58241 is on hold (payment review RISK-20931) and not shipped.
- The v2 contract tests (tests/carriers/test_parcelon_v2.py, by Tomasz
  Brandt) expect the idempotency key `lv-<order_id>-v2`, grams and
  centimetres rounded to the nearest integer (not truncated).
Deterministic: tool.py and answers.py read it."""
import datetime
import math

TODAY = "2025-06-24"
SHIP_DATE = "2025-06-25"
CLOCK_START = "2025-06-24T16:02:00Z"   # 09:02 in Portland (-07:00)
CLOCK_STEP = 45                         # seconds per tool call
QUOTE_TTL = 600                         # seconds (v2.1)
V1_SUNSET = "2025-09-30T23:59:59Z"
DOC_REVISION = "r2025.06.3"
SANDBOX = "https://sandbox.parcelon.dev"
ACCOUNT = "PCN-SBX-208817"
PROD_ACCOUNT = "PCN-208817"
RATE_LIMIT = 120                        # sandbox requests per rolling hour
WEBHOOK_URL = "https://ops.larkspurvine.com/hooks/parcelon"
REPO = "larkspur/fulfillment-svc"
MODULE = "fulfillment/carriers/parcelon.py"
TESTS = "tests/carriers/test_parcelon_v2.py"
CONFIG = "config/carriers.toml"
CHANGELOG_PATH = "CHANGELOG.md"
PR_NUMBER = 874
HOLD_CASE = "RISK-20931"

WAREHOUSE = {"name": "Larkspur & Vine DC1", "street1": "2150 NW Front Ave", "city": "Portland",
             "state": "OR", "postal_code": "97209", "country": "US"}

SERVICES = {
    # service: (base USD, USD per kg, transit days by zone 1..8, enabled in the sandbox account)
    "EXPRESS_SAVER": (8.40, 2.15, {1: 1, 2: 2, 4: 2, 5: 2, 8: 2}, True),
    "GROUND_ECONOMY": (5.10, 0.95, {1: 1, 2: 3, 4: 4, 5: 5, 8: 6}, True),
    "PRIORITY_OVERNIGHT": (18.90, 3.40, {1: 1, 2: 1, 4: 1, 5: 1, 8: 1}, False),
}
FUEL = 0.065


def zone_of(postal_code):
    if postal_code.startswith("972"):
        return 1
    return {"9": 2, "8": 4, "6": 5, "0": 8}.get(postal_code[0], 8)


def billable_g(weight, dims):
    dim_g = dims["length"] * dims["width"] * dims["height"] / 5.0
    return int(math.ceil(max(weight, dim_g) / 100.0) * 100)


def rate(service, postal_code, weight, dims):
    base, per_kg, _, _ = SERVICES[service]
    z = zone_of(postal_code)
    amount = (base + per_kg * billable_g(weight, dims) / 1000.0) * (1 + 0.12 * (z - 1)) * (1 + FUEL)
    return "%.2f" % (math.floor(amount * 100 + 0.5) / 100.0)


def delivery(service, postal_code, ship_date=SHIP_DATE):
    """The estimated delivery date: transit days counted in business days."""
    days = SERVICES[service][2][zone_of(postal_code)]
    d, n = datetime.date.fromisoformat(ship_date), 0
    while n < days:
        d += datetime.timedelta(days=1)
        if d.weekday() < 5:
            n += 1
    return d.isoformat()


# --- the shop's pending orders ------------------------------------------------------------------

ORDERS = [
    {"order_id": "ORD-58213", "placed_at": "2025-06-23T16:42:10-07:00", "status": "ready_to_ship",
     "customer": "Hannah Whitcombe", "email": "h.whitcombe@example.net",
     "address": {"name": "Hannah Whitcombe", "street1": "1420 NE Alberta St", "city": "Portland", "state": "OR",
                 "postal_code": "97211", "country": "US"},
     "service": "EXPRESS_SAVER", "shipping_paid": 14.95, "weight_lb": 3.2, "dims_in": [14, 10, 6],
     "items": [["LV-TBL-0412", "Walnut serving board", 1], ["LV-TXT-1180", "Linen napkins (4)", 2]]},
    {"order_id": "ORD-58219", "placed_at": "2025-06-23T19:05:44-07:00", "status": "ready_to_ship",
     "customer": "Rafael Ortiz", "email": "rafa.ortiz@example.com",
     "address": {"name": "Rafael Ortiz", "street1": "2207 W Armitage Ave", "street2": "Apt 3", "city": "Chicago",
                 "state": "IL", "postal_code": "60647", "country": "US"},
     "service": "GROUND_ECONOMY", "shipping_paid": 19.50, "weight_lb": 11.5, "dims_in": [24, 16, 12],
     "items": [["LV-CER-2210", "Stoneware dinner set (12 pc)", 1]]},
    {"order_id": "ORD-58224", "placed_at": "2025-06-24T06:18:02-07:00", "status": "ready_to_ship",
     "customer": "Priya Natarajan", "email": "priya.n@example.org",
     "address": {"name": "Priya Natarajan", "street1": "45 Larch Ct", "city": "Boulder", "state": "CO",
                 "postal_code": "80304", "country": "US"},
     "service": "EXPRESS_SAVER", "shipping_paid": 12.95, "weight_lb": 0.9, "dims_in": [9, 6, 3],
     "items": [["LV-CND-0077", "Beeswax taper candles (6)", 1]]},
    {"order_id": "ORD-58230", "placed_at": "2025-06-24T07:51:37-07:00", "status": "ready_to_ship",
     "customer": "Colm Brennan", "email": "colm@brennan.example",
     "address": {"name": "Colm Brennan", "street1": "7412 Fremont Ave N", "city": "Seattle", "state": "WA",
                 "postal_code": "98013", "country": "US"},
     "service": "GROUND_ECONOMY", "shipping_paid": 9.95, "weight_lb": 5.6, "dims_in": [18, 12, 8],
     "items": [["LV-TXT-3301", "Wool throw, moss", 1], ["LV-TXT-1180", "Linen napkins (4)", 1]]},
    {"order_id": "ORD-58236", "placed_at": "2025-06-24T08:09:15-07:00", "status": "ready_to_ship",
     "customer": "Amara Osei", "email": "amara.osei@example.com",
     "address": {"name": "Amara Osei", "street1": "19 Beacon St Unit 4", "city": "Boston", "state": "MA",
                 "postal_code": "02108", "country": "US"},
     "service": "EXPRESS_SAVER", "shipping_paid": 24.95, "weight_lb": 2.4, "dims_in": [12, 9, 4],
     "items": [["LV-GLS-0940", "Hand-blown carafe", 1]]},
    {"order_id": "ORD-58241", "placed_at": "2025-06-24T08:33:48-07:00", "status": "on_hold",
     "customer": "Jun Tanaka", "email": "jtanaka@example.jp",
     "hold": {"reason": "payment_review", "case_id": HOLD_CASE, "since": "2025-06-24T08:34:05-07:00",
              "owner": "Risk (Dalia Ferreira)"},
     "address": {"name": "Jun Tanaka", "street1": "560 Mission Bay Blvd N", "city": "San Francisco", "state": "CA",
                 "postal_code": "94158", "country": "US"},
     "service": "GROUND_ECONOMY", "shipping_paid": 11.95, "weight_lb": 7.8, "dims_in": [20, 14, 10],
     "items": [["LV-FRN-0051", "Teak side stool", 1]]},
]
ORDER = {o["order_id"]: o for o in ORDERS}
ACTIVE = [o["order_id"] for o in ORDERS if o["status"] == "ready_to_ship"]

# corrections of the address check (order id -> fields replaced)
ADDRESS_FIX = {
    "ORD-58230": {"postal_code": "98103"},
    "ORD-58236": {"street1": "19 Beacon St", "street2": "Unit 4"},
}
ADDRESS_NOTES = {
    "ORD-58230": "postal code 98013 is Burton, WA (Vashon Island); 7412 Fremont Ave N, Seattle is in 98103",
    "ORD-58236": "unit moved from street1 to street2",
}


def corrected(order_id):
    a = dict(ORDER[order_id]["address"])
    a.update(ADDRESS_FIX.get(order_id, {}))
    return a


def grams(lb):
    return max(1, int(math.floor(lb * 453.59237 + 0.5)))


def cm(inches):
    return max(1, int(math.floor(inches * 2.54 + 0.5)))


def parcel_v2(order_id):
    o = ORDER[order_id]
    l, w_, h = (cm(x) for x in o["dims_in"])
    return {"weight": grams(o["weight_lb"]), "dimensions": {"length": l, "width": w_, "height": h}}


# --- the repository -----------------------------------------------------------------------------

MODULE_V1 = '''"""Parcelon carrier client.

Used by fulfillment.shipping to quote and book parcels (Parcelon API v1).
"""
import json

BASE_URL = "https://api.parcelon.com/v1"
SANDBOX_URL = "https://sandbox.parcelon.dev/v1"
TIMEOUT_S = 10


class ParcelonError(Exception):
    def __init__(self, status, code, message, request_id=None):
        super().__init__("%s %s: %s" % (status, code, message))
        self.status = status
        self.code = code
        self.request_id = request_id


class ParcelonClient:
    def __init__(self, transport, account, ship_from, sandbox=False):
        self.transport = transport
        self.account = account
        self.ship_from = ship_from
        self.base_url = SANDBOX_URL if sandbox else BASE_URL

    def _headers(self):
        return {"Content-Type": "application/json", "X-Parcelon-Account": self.account}

    def _post(self, path, body):
        resp = self.transport("POST", self.base_url + path, self._headers(), json.dumps(body))
        data = json.loads(resp["body"])
        if resp["status"] >= 400:
            raise ParcelonError(resp["status"], data["code"], data["message"])
        return data

    def shipment_payload(self, order):
        return {
            "reference": order["order_id"],
            "service_code": order["service"],
            "to": order["address"],
            "parcel": {"weight_lb": order["weight_lb"], "dims_in": order["dims_in"]},
        }

    def quote(self, order):
        return self._post("/rates", self.shipment_payload(order))["rates"]

    def create_shipment(self, order):
        return self._post("/shipments", self.shipment_payload(order))
'''

TESTS_V2 = '''"""Contract tests of the Parcelon v2 client (FUL-2291), written against the v2
reference. xfail until the client is moved; run: pytest tests/carriers -k v2"""
import json

from fulfillment.carriers.parcelon import ParcelonClient, ParcelonError

WAREHOUSE = {"name": "Larkspur & Vine DC1", "street1": "2150 NW Front Ave", "city": "Portland",
             "state": "OR", "postal_code": "97209", "country": "US"}
ORDER = {"order_id": "ORD-58213", "service": "EXPRESS_SAVER", "ship_date": "2025-06-25",
         "weight_lb": 3.2, "dims_in": [14, 10, 6],
         "address": {"name": "Hannah Whitcombe", "street1": "1420 NE Alberta St", "city": "Portland",
                     "state": "OR", "postal_code": "97211", "country": "US"}}


class FakeTransport:
    def __init__(self, status=200, body=None, headers=None):
        self.calls = []
        self.status, self.body, self.headers = status, body or {}, headers or {}

    def __call__(self, method, url, headers, body):
        self.calls.append({"method": method, "url": url, "headers": headers, "body": json.loads(body)})
        return {"status": self.status, "headers": self.headers, "body": json.dumps(self.body)}


def client(transport):
    return ParcelonClient(transport, "PCN-SBX-208817", WAREHOUSE, sandbox=True)


def test_base_url_is_v2():
    t = FakeTransport(body={"quotes": []})
    client(t).quote(ORDER)
    assert t.calls[0]["url"] == "https://sandbox.parcelon.dev/v2/rates"


def test_account_header():
    t = FakeTransport(body={"quotes": []})
    client(t).quote(ORDER)
    assert t.calls[0]["headers"].get("X-Carrier-Account") == "PCN-SBX-208817"


def test_parcel_in_grams_and_cm():
    payload = client(FakeTransport()).shipment_payload(ORDER)
    assert payload["parcel"] == {"weight": 1451, "dimensions": {"length": 36, "width": 25, "height": 15}}


def test_payload_addresses():
    payload = client(FakeTransport()).shipment_payload(ORDER)
    assert payload["ship_from"] == WAREHOUSE
    assert payload["ship_to"] == ORDER["address"]


def test_create_shipment_idempotency_key():
    t = FakeTransport(status=201, body={"shipment_id": "shp_test"})
    client(t).create_shipment(ORDER, quote_id="qt_test")
    assert t.calls[0]["headers"].get("Idempotency-Key") == "lv-ORD-58213-v2"
    assert t.calls[0]["body"]["quote_id"] == "qt_test"


def test_error_carries_code_and_request_id():
    t = FakeTransport(status=422, headers={"X-Request-Id": "req_0000test"},
                      body={"error": {"code": "E4221", "message": "ADDRESS_UNVERIFIED"}})
    try:
        client(t).create_shipment(ORDER)
    except ParcelonError as e:
        assert (e.code, e.request_id) == ("E4221", "req_0000test")
    else:
        raise AssertionError("no ParcelonError raised")


def test_quotes_parsed():
    t = FakeTransport(body={"quotes": [{"quote_id": "qt_1", "service_level": "EXPRESS_SAVER", "amount": "12.40"}]})
    quotes = client(t).quote(ORDER)
    assert [q["quote_id"] for q in quotes] == ["qt_1"]
'''

CONFIG_TOML = '''# Carrier settings of fulfillment-svc (secrets come from the vault, never from here)

[parcelon]
api_version = "v1"
account = "PCN-208817"
sandbox_account = "PCN-SBX-208817"
api_key = "vault:parcelon/sandbox"        # the HTTP tool injects it as Authorization: Bearer
label_format = "PDF_4x6"
ship_from = "DC1"
pickup_cutoff_local = "15:00"

[warehouses.DC1]
name = "Larkspur & Vine DC1"
street1 = "2150 NW Front Ave"
city = "Portland"
state = "OR"
postal_code = "97209"
country = "US"
'''

CHANGELOG_MD = '''# Changelog of fulfillment-svc

## Unreleased

## 3.14.0 - 2025-06-10
- Packing slips list the gift note (FUL-2260).
- Retry queue: exponential backoff for carrier calls, max 5 attempts (FUL-2244).

## 3.13.2 - 2025-05-28
- Parcelon v1: map E1007 to a retryable error (FUL-2231).
'''

FILES = {MODULE: MODULE_V1, TESTS: TESTS_V2, CONFIG: CONFIG_TOML, CHANGELOG_PATH: CHANGELOG_MD}

# --- the Parcelon API reference -----------------------------------------------------------------

ADDRESS_FIELDS = "name, street1, street2 (optional), city, state, postal_code, country (ISO 3166-1 alpha-2)"

DOC_INDEX = {
    "api": "Parcelon Shipping API", "revision": DOC_REVISION, "current_version": "2.2",
    "base_urls": {"production": "https://api.parcelon.com", "sandbox": SANDBOX},
    "support": "api-support@parcelon.dev (sandbox questions: #parcelon-sandbox on the partner Slack)",
    "sections": [
        {"id": "authentication", "title": "Authentication and required headers"},
        {"id": "idempotency", "title": "Idempotent requests"},
        {"id": "units", "title": "Units, money and dates"},
        {"id": "errors", "title": "Errors and error codes"},
        {"id": "rate-limits", "title": "Rate limits"},
        {"id": "webhooks", "title": "Webhooks (v2 events)"},
        {"id": "/v2/account", "title": "GET the account and its enabled services"},
        {"id": "/v2/rates", "title": "POST quotes for a parcel"},
        {"id": "/v2/shipments", "title": "POST a shipment, GET shipments by reference"},
        {"id": "/v2/shipments/{shipment_id}", "title": "GET or DELETE (void) one shipment"},
        {"id": "/v2/labels", "title": "POST a label for a shipment"},
        {"id": "/v2/labels/{label_id}", "title": "GET one label"},
    ],
}

ERRORS = [
    {"status": 400, "code": "E4001", "name": "MISSING_IDEMPOTENCY_KEY", "retry": False,
     "meaning": "POST /v2/shipments and POST /v2/labels need an Idempotency-Key header"},
    {"status": 400, "code": "E4002", "name": "INVALID_BODY", "retry": False,
     "meaning": "a required field is missing or has the wrong type; `error.field` names it"},
    {"status": 401, "code": "E4011", "name": "ACCOUNT_HEADER_MISSING", "retry": False,
     "meaning": "no X-Carrier-Account header"},
    {"status": 403, "code": "E4031", "name": "SERVICE_NOT_ENABLED", "retry": False,
     "meaning": "the service level is not enabled for the account"},
    {"status": 404, "code": "E4040", "name": "NOT_FOUND", "retry": False, "meaning": "no such object"},
    {"status": 409, "code": "E4091", "name": "IDEMPOTENCY_CONFLICT", "retry": False,
     "meaning": "the key was used within 24 h with a different body"},
    {"status": 409, "code": "E4092", "name": "SHIPMENT_VOIDED", "retry": False,
     "meaning": "the shipment is voided; no label can be made"},
    {"status": 422, "code": "E4221", "name": "ADDRESS_UNVERIFIED", "retry": False,
     "meaning": "ship_to failed address verification; verify and send the corrected address"},
    {"status": 422, "code": "E4222", "name": "PARCEL_LIMITS", "retry": False,
     "meaning": "weight over 30000 g or a side over 150 cm"},
    {"status": 422, "code": "E4223", "name": "QUOTE_EXPIRED", "retry": False,
     "meaning": "the quote is older than its expires_at; quote again"},
    {"status": 422, "code": "E4224", "name": "QUOTE_MISMATCH", "retry": False,
     "meaning": "service_level or parcel differ from the quote's"},
    {"status": 429, "code": "E4290", "name": "RATE_LIMITED", "retry": True,
     "meaning": "wait for Retry-After seconds"},
    {"status": 503, "code": "E5030", "name": "UPSTREAM_UNAVAILABLE", "retry": True,
     "meaning": "retry with the same Idempotency-Key"},
]

PARCEL_FIELDS = [
    {"name": "parcel.weight", "type": "number", "required": True, "description": "parcel weight (see Units)"},
    {"name": "parcel.dimensions", "type": "object", "required": True,
     "description": "{length, width, height} of the packed box (see Units)"},
]

DOCS = {
    "authentication": {
        "title": "Authentication and required headers",
        "text": ["Every request carries `Authorization: Bearer <api key>` (sandbox keys start with psk_test_) "
                 "and the account it acts for in `X-Carrier-Account`.",
                 "v1's `X-Parcelon-Account` header is not read by v2.",
                 "POST /v2/shipments and POST /v2/labels also need `Idempotency-Key` (see Idempotent requests).",
                 "Send `Content-Type: application/json` with a body; responses carry `X-Request-Id`: quote it to "
                 "support."],
        "headers": [
            {"name": "Authorization", "required": "always", "example": "Bearer psk_test_..."},
            {"name": "X-Carrier-Account", "required": "always", "example": "PCN-SBX-000000"},
            {"name": "Idempotency-Key", "required": "POST /v2/shipments, POST /v2/labels",
             "example": "a string of 8-64 characters [A-Za-z0-9_-]"},
            {"name": "Content-Type", "required": "with a body", "example": "application/json"},
        ],
    },
    "idempotency": {
        "title": "Idempotent requests",
        "text": ["Send the same Idempotency-Key to retry a POST safely: within 24 h the first response is "
                 "returned again with `Idempotent-Replayed: true` and nothing new is created.",
                 "The same key with a different body is a 409 E4091 IDEMPOTENCY_CONFLICT.",
                 "Use one key per business object (an order), not one per attempt."],
    },
    "units": {
        "title": "Units, money and dates",
        "text": ["Weights are in grams and lengths in centimetres, as integers (round to the nearest; at least 1).",
                 "Dimensional weight is length x width x height / 5 (grams); the billable weight is the larger of "
                 "the two, rounded up to 100 g.",
                 "Money is a decimal string with two decimals (`\"12.40\"`) and a `currency`.",
                 "Dates are YYYY-MM-DD in the origin's time zone; timestamps are UTC (RFC 3339, `Z`).",
                 "v1 took pounds and inches (`weight_lb`, `dims_in`); v2 does not convert."],
    },
    "errors": {
        "title": "Errors and error codes",
        "text": ["An error response is `{\"error\": {\"code\", \"message\", \"field\"?}}` with the request id in the "
                 "`X-Request-Id` header (v1 put `code` and `message` at the top level)."],
        "codes": ERRORS,
    },
    "rate-limits": {
        "title": "Rate limits",
        "text": ["Sandbox: %d requests per rolling hour per account; production: 600 per minute." % RATE_LIMIT,
                 "Every response carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`; a 429 E4290 carries "
                 "`Retry-After` (seconds)."],
    },
    "webhooks": {
        "title": "Webhooks (v2 events)",
        "text": ["Events: shipment.created, shipment.voided, label.created, tracking.updated.",
                 "Each delivery is signed in `Parcelon-Signature` (v2.2; v1 used `X-Parcelon-Signature`).",
                 "The events of the last 7 days can be listed (the webhook events tool of your integration)."],
    },
    "/v2/account": {
        "method": "GET", "path": "/v2/account", "summary": "the account of X-Carrier-Account",
        "response": ["account", "name", "environment", "enabled_services", "webhook_url", "rate_limit"],
    },
    "/v2/rates": {
        "method": "POST", "path": "/v2/rates",
        "summary": "quotes for one parcel between two addresses, one per enabled service level (or the ones asked)",
        "headers": ["X-Carrier-Account"],
        "body": [
            {"name": "ship_from", "type": "address", "required": True, "description": ADDRESS_FIELDS},
            {"name": "ship_to", "type": "address", "required": True, "description": ADDRESS_FIELDS},
        ] + PARCEL_FIELDS + [
            {"name": "service_levels", "type": "[string]", "required": False,
             "description": "only these service levels (default: every enabled one)"},
            {"name": "ship_date", "type": "date", "required": False, "description": "default: today"},
        ],
        "response": {"quotes": [{"quote_id": "qt_...", "service_level": "EXPRESS_SAVER", "amount": "0.00",
                                 "currency": "USD", "billable_weight_g": 0, "zone": 0, "transit_days": 0,
                                 "estimated_delivery": "YYYY-MM-DD", "expires_at": "RFC 3339"}]},
        "notes": ["A quote can be booked (quote_id in POST /v2/shipments) until its expires_at."],
        "errors": ["E4002", "E4011", "E4031", "E4222", "E4290"],
    },
    "/v2/shipments": {
        "method": "POST", "path": "/v2/shipments",
        "summary": "books a shipment (and its tracking number); GET /v2/shipments?reference=... lists them",
        "headers": ["X-Carrier-Account", "Idempotency-Key"],
        "body": [
            {"name": "reference", "type": "string", "required": True, "description": "your order id (max 40)"},
            {"name": "ship_from", "type": "address", "required": True, "description": ADDRESS_FIELDS},
            {"name": "ship_to", "type": "address", "required": True,
             "description": ADDRESS_FIELDS + "; must pass verification"},
        ] + PARCEL_FIELDS + [
            {"name": "ship_date", "type": "date", "required": True,
             "description": "today or up to 7 days ahead (origin time zone)"},
            {"name": "service_level", "type": "string", "required": False,
             "description": "EXPRESS_SAVER, GROUND_ECONOMY, PRIORITY_OVERNIGHT; default GROUND_ECONOMY, or the "
                            "quote's"},
            {"name": "quote_id", "type": "string", "required": False,
             "description": "books at the quoted amount; must match service_level and parcel"},
            {"name": "label_format", "type": "string", "required": False, "description": "PDF_4x6 (default) or ZPL"},
        ],
        "response": {"shipment_id": "shp_...", "reference": "", "status": "created", "service_level": "",
                     "quote_id": "", "rate": {"amount": "0.00", "currency": "USD"}, "tracking_number": "1PN...",
                     "ship_date": "", "estimated_delivery": "", "parcel": {}, "created_at": ""},
        "notes": ["Unknown fields are ignored (the response has an X-Api-Warn header naming them)."],
        "errors": ["E4001", "E4002", "E4011", "E4031", "E4091", "E4221", "E4222", "E4223", "E4224"],
    },
    "/v2/shipments/{shipment_id}": {
        "method": "GET, DELETE", "path": "/v2/shipments/{shipment_id}",
        "summary": "GET one shipment; DELETE voids it before pickup (the amount is refunded)",
        "headers": ["X-Carrier-Account"],
        "response": {"shipment_id": "", "status": "created | label_created | voided", "voided_at": "RFC 3339",
                     "refund": {"amount": "0.00", "status": "pending"}},
        "errors": ["E4011", "E4040"],
    },
    "/v2/labels": {
        "method": "POST", "path": "/v2/labels", "summary": "makes the label of a shipment",
        "headers": ["X-Carrier-Account", "Idempotency-Key"],
        "body": [
            {"name": "shipment_id", "type": "string", "required": True, "description": "shp_..."},
            {"name": "format", "type": "string", "required": False, "description": "PDF_4x6 (default) or ZPL"},
        ],
        "response": {"label_id": "lbl_...", "shipment_id": "", "tracking_number": "", "format": "",
                     "status": "ready", "url": "", "pages": 1, "created_at": ""},
        "errors": ["E4001", "E4011", "E4040", "E4092"],
    },
    "/v2/labels/{label_id}": {
        "method": "GET", "path": "/v2/labels/{label_id}", "summary": "one label, with a download url valid 24 h",
        "headers": ["X-Carrier-Account"],
        "response": {"label_id": "", "shipment_id": "", "status": "ready", "url": "", "url_expires_at": ""},
        "errors": ["E4011", "E4040"],
    },
}

CHANGELOG = [
    {"version": "1", "released": "2021-04-12", "status": "deprecated",
     "summary": "deprecated since 2025-03-03; switched off %s (requests return 410 after)" % V1_SUNSET},
    {"version": "2.0", "released": "2025-03-03", "status": "current",
     "summary": "new shipment model: addresses, parcels and quotes; header and field renames (see the version)"},
    {"version": "2.1", "released": "2025-05-19", "status": "current",
     "summary": "quotes valid 10 minutes (was 30); ZPL labels; X-RateLimit-* headers on every response"},
    {"version": "2.2", "released": "2025-06-16", "status": "current",
     "summary": "webhooks signed in Parcelon-Signature; label urls valid 24 h"},
]

CHANGELOG_DETAIL = {
    "2.0": {
        "version": "2.0", "released": "2025-03-03",
        "renamed": [
            {"v1": "X-Parcelon-Account (header)", "v2": "X-Carrier-Account"},
            {"v1": "service_code", "v2": "service_level"},
            {"v1": "to", "v2": "ship_to"},
            {"v1": "from (optional, account default)", "v2": "ship_from (required)"},
            {"v1": "parcel.weight_lb", "v2": "parcel.weight (grams)"},
            {"v1": "parcel.dims_in [l w h]", "v2": "parcel.dimensions {length width height} (cm)"},
            {"v1": "rates (response)", "v2": "quotes"},
            {"v1": "rate_id", "v2": "quote_id"},
        ],
        "added": ["Idempotency-Key required on POST /v2/shipments and /v2/labels",
                  "labels are made by POST /v2/labels, no longer with the shipment",
                  "ship_date required on shipments"],
        "removed": ["v1's automatic pound conversion", "the `insurance` flag (now a separate product)"],
        "errors": "error bodies are nested: {\"error\": {\"code\", \"message\"}}; codes renumbered (E1007 -> E5030)",
        "notes": ["unknown fields are ignored, not rejected: check the X-Api-Warn header while migrating"],
    },
    "2.1": {"version": "2.1", "released": "2025-05-19",
            "changed": ["quotes expire 10 minutes after they are made (was 30)"],
            "added": ["label format ZPL", "X-RateLimit-Limit and X-RateLimit-Remaining on every response"]},
    "2.2": {"version": "2.2", "released": "2025-06-16",
            "changed": ["webhook signature header Parcelon-Signature (was X-Parcelon-Signature)",
                        "label urls valid 24 h (was 7 days)"]},
    "1": {"version": "1", "released": "2021-04-12",
          "deprecation": "deprecated 2025-03-03, switched off %s" % V1_SUNSET,
          "migration": "see version 2.0 for the renames"},
}

# webhook events of the account before today's session (v1 traffic of earlier orders)
OLD_EVENTS = [
    {"event_id": "evt_6b0e3a51", "type": "tracking.updated", "created_at": "2025-06-23T21:14:08Z",
     "data": {"reference": "ORD-58190", "tracking_number": "1PN4418230957", "status": "delivered"}},
    {"event_id": "evt_6b0e4c07", "type": "tracking.updated", "created_at": "2025-06-24T01:40:52Z",
     "data": {"reference": "ORD-58201", "tracking_number": "1PN4418236612", "status": "out_for_delivery"}},
]

PEOPLE = {"requester": "Mei Okafor (Fulfillment lead)", "reviewer": "Tomasz Brandt (Platform)",
          "risk": "Dalia Ferreira (Risk)"}

BRIEF = {
    "ticket": "FUL-2291",
    "title": "Move the Parcelon client to API v2 and book the pending shipments",
    "requested_by": PEOPLE["requester"],
    "reviewer": PEOPLE["reviewer"],
    "repo": REPO,
    "base_branch": "main",
    "files": {"client": MODULE, "contract_tests": TESTS, "config": CONFIG, "changelog": CHANGELOG_PATH},
    "today": TODAY,
    "timezone": "America/Los_Angeles (-07:00)",
    "context": "Parcelon switches API v1 off at the end of September. Our client still speaks v1. Tomasz added "
               "v2 contract tests (xfail) in PR #868.",
    "asks": [
        "Read the v2 reference and the changelog; try the calls against the sandbox.",
        "Change the client module so the v2 contract tests pass; keep the public methods (quote, create_shipment).",
        "Book every pending order that is ready to ship in the sandbox (quote, shipment, label) for tomorrow's "
        "pickup, and write the carrier data back to the order.",
        "Void whatever test objects you create in the sandbox.",
        "Open a PR against main with the change and a summary for the reviewer.",
    ],
    "notes": [
        "Sandbox credentials and the account are in the repo config; the HTTP tool adds the API key.",
        "One idempotency key per order, so the retry queue can never book twice.",
        "Orders on hold are not shipped.",
    ],
}
