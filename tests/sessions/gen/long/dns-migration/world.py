"""The world of the `dns-migration` session: Corvane Logistics moves its four
DNS zones from DynaZone (the old provider) to Tessera DNS ahead of the
nameserver change on 2025-03-18 06:00 UTC; the agent works on 2025-03-14.

Planted:
- DynaZone's export of corvane.io writes some TTLs with units (`2d`, `1d`):
  a parser that only takes digits drops those lines (SOA, NS, both MX, the
  SPF and DMARC TXT, the CAA), so the MX, TXT and CAA of corvane.io are never
  created at Tessera and the largest TTL looks like 86400 (the CAA of
  corvane.com) when it is 172800 (corvane.io's MX and TXT, `2d`).
- Tessera already holds a partial import made by a colleague in February:
  in eu.corvane.com `api-eu` (trc-4f1a0c93) has only 185.40.12.70 of its two
  addresses and `api-eu1` (trc-4f1a0c39) has 185.40.12.71 instead of
  185.40.12.17.
- int.corvane.com (private) still points api-eu-origin at 10.20.30.14, a VM
  retired on 2025-03-10; its replacement is 10.20.30.41.
- The DKIM key of corvane.com is one 410-character TXT string in the export
  (DynaZone serves it split at 255); Tessera wants strings of at most 255.
- corvane.io's apex is a DynaZone ALIAS, which Tessera calls ANAME.
- The certificate of api-eu1.eu.corvane.com expires 2025-03-19 and renews by
  ACME dns-01 through a CNAME into acme.dynazone.net, which DynaZone froze.
- Look-alikes: api-eu / api-eu1, 10.20.30.14 / 10.20.30.41, 185.40.12.17 /
  185.40.12.71, trc-4f1a0c93 / trc-4f1a0c39, TZ-7Q4M3B / TZ-7Q4M3F.
Deterministic: tool.py and answers.py read it."""
import base64
import hashlib

AS_OF = "2025-03-14T09:30:00Z"
NS_CHANGE_AT = "2025-03-18T06:00:00Z"
WINDOW_END = "2025-03-18T08:00:00Z"
DYNAZONE_END = "2025-03-31"
COMPANY = "Corvane Logistics GmbH"

OLD_NS = ["ns1.dynazone.net.", "ns2.dynazone.net.", "ns3.dynazone.org."]
ZONES = ["corvane.com", "eu.corvane.com", "int.corvane.com", "corvane.io"]

DZ_ZONES = {
    "corvane.com": {"dz_id": "dz-20417", "serial": 2025031102, "visibility": "public",
                    "last_modified": "2025-03-11T14:02:51Z", "dnssec": "off", "parent": "com",
                    "registrar": "Gandi SAS", "sub_zones": ["eu.corvane.com", "int.corvane.com"]},
    "eu.corvane.com": {"dz_id": "dz-20418", "serial": 2025021703, "visibility": "public",
                       "last_modified": "2025-02-17T09:41:10Z", "dnssec": "off", "parent": "corvane.com",
                       "registrar": None, "sub_zones": []},
    "int.corvane.com": {"dz_id": "dz-20931", "serial": 2025030601, "visibility": "private",
                        "last_modified": "2025-03-06T16:20:33Z", "dnssec": "off", "parent": "corvane.com",
                        "registrar": None, "sub_zones": [], "vpc": "vpc-0a7e3c19 (eu-central-1)",
                        "resolver": "10.20.0.2"},
    "corvane.io": {"dz_id": "dz-31102", "serial": 2025022001, "visibility": "public",
                   "last_modified": "2025-02-20T11:05:47Z", "dnssec": "off", "parent": "io",
                   "registrar": "Gandi SAS", "sub_zones": []},
}


def _dkim():
    raw = b""
    seed = b"corvane selector1 2024"
    while len(raw) < 294:
        seed = hashlib.sha256(seed).digest()
        raw += seed
    body = base64.b64encode(raw[:291]).decode()[:386]
    return "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + body[:348] + "IDAQAB"


DKIM = _dkim()
SPF = ("v=spf1 ip4:203.0.113.0/26 ip4:198.51.100.16/28 ip6:2001:db8:4c0::/48 include:spf.protection.outlook.com "
       "include:_spf.salesforce.com include:mail.zendesk.com include:sendgrid.net ~all")
DMARC = "v=DMARC1; p=quarantine; rua=mailto:dmarc@corvane.com; ruf=mailto:dmarc-forensic@corvane.com; pct=100; adkim=s; aspf=r"
GSV = "google-site-verification=Qm7c1xV4rT0pL9yZ2wB8nE5kS3dH6fJ1aU0oI7gC4eM"


def q(s):
    return '"%s"' % s


SOA = "ns1.dynazone.net. hostmaster.corvane.com. %d 7200 900 1209600 300"

# (owner, ttl as exported ("" = the zone's $TTL), type, rdata as exported)
RECORDS = {
    "corvane.com": [
        ("@", "86400", "SOA", SOA % 2025031102),
        ("@", "86400", "NS", "ns1.dynazone.net."),
        ("@", "86400", "NS", "ns2.dynazone.net."),
        ("@", "86400", "NS", "ns3.dynazone.org."),
        ("@", "300", "A", "203.0.113.10"),
        ("@", "300", "A", "203.0.113.11"),
        ("@", "300", "AAAA", "2001:db8:4c0::10"),
        ("@", "3600", "MX", "10 mx1.corvane.com."),
        ("@", "3600", "MX", "20 mx2.corvane.com."),
        ("@", "", "TXT", q(SPF)),
        ("@", "", "TXT", q(GSV)),
        ("@", "", "TXT", q("MS=ms48213370")),
        ("@", "86400", "CAA", '0 issue "letsencrypt.org"'),
        ("@", "86400", "CAA", '0 issue "digicert.com"'),
        ("@", "86400", "CAA", '0 iodef "mailto:security@corvane.com"'),
        ("www", "300", "CNAME", "corvane-www.edgecdn.net."),
        ("api", "60", "A", "203.0.113.20"),
        ("api", "60", "A", "203.0.113.21"),
        ("api", "60", "AAAA", "2001:db8:4c0::20"),
        ("api-eu", "300", "CNAME", "api-eu.eu.corvane.com."),
        ("app", "300", "CNAME", "app-prod-1843.eu-central-1.elb.amazonaws.com."),
        ("status", "300", "CNAME", "corvane.statuspage.io."),
        ("vpn", "300", "A", "198.51.100.40"),
        ("mx1", "3600", "A", "203.0.113.25"),
        ("mx2", "3600", "A", "198.51.100.25"),
        ("selector1._domainkey", "3600", "TXT", q(DKIM)),
        ("s2._domainkey", "3600", "CNAME", "s2.domainkey.u4402.wl.sendgrid.net."),
        ("_dmarc", "3600", "TXT", q(DMARC)),
        ("_sip._tls", "3600", "SRV", "100 1 443 sipdir.online.lync.com."),
        ("_sipfederationtls._tcp", "3600", "SRV", "100 1 5061 sipfed.online.lync.com."),
        ("autodiscover", "3600", "CNAME", "autodiscover.outlook.com."),
        ("_acme-challenge.www", "300", "CNAME", "www.corvane.com.acme.dynazone.net."),
        ("_acme-challenge.api", "300", "CNAME", "api.corvane.com.acme.dynazone.net."),
        ("eu", "86400", "NS", "ns1.dynazone.net."),
        ("eu", "86400", "NS", "ns2.dynazone.net."),
    ],
    "eu.corvane.com": [
        ("@", "86400", "SOA", SOA % 2025021703),
        ("@", "86400", "NS", "ns1.dynazone.net."),
        ("@", "86400", "NS", "ns2.dynazone.net."),
        ("@", "3600", "CAA", '0 issue "letsencrypt.org"'),
        ("api-eu", "300", "A", "185.40.12.70"),
        ("api-eu", "300", "A", "185.40.12.71"),
        ("api-eu", "300", "AAAA", "2a0b:7280:12::70"),
        ("api-eu1", "300", "A", "185.40.12.17"),
        ("api-eu1", "300", "AAAA", "2a0b:7280:12::17"),
        ("cdn", "300", "CNAME", "corvane-eu.edgecdn.net."),
        ("vpn-fra", "300", "A", "185.40.12.90"),
        ("vpn-ams", "300", "A", "185.40.13.90"),
        ("smtp-eu", "", "A", "185.40.12.25"),
        ("smtp-eu", "", "TXT", q("v=spf1 ip4:185.40.12.25 -all")),
        ("_acme-challenge.api-eu", "300", "CNAME", "api-eu.eu.corvane.com.acme.dynazone.net."),
        ("_acme-challenge.api-eu1", "300", "CNAME", "api-eu1.eu.corvane.com.acme.dynazone.net."),
    ],
    "int.corvane.com": [
        ("@", "3600", "SOA", SOA.replace(" 300", " 60") % 2025030601),
        ("@", "3600", "NS", "ns1.dynazone.net."),
        ("api-origin", "", "A", "10.20.30.21"),
        ("api-origin", "", "A", "10.20.30.22"),
        ("api-eu-origin", "", "A", "10.20.30.14"),
        ("bastion", "", "A", "10.20.30.5"),
        ("db-proxy", "", "A", "10.20.40.5"),
        ("grafana", "", "A", "10.20.50.11"),
        ("harbor", "", "A", "10.20.50.30"),
        ("registry", "", "CNAME", "harbor.int.corvane.com."),
        ("kafka-1", "", "A", "10.20.60.11"),
        ("kafka-2", "", "A", "10.20.60.12"),
        ("kafka-3", "", "A", "10.20.60.13"),
        ("ldap", "", "A", "10.20.70.4"),
        ("vault", "", "A", "10.20.70.9"),
        ("_ldap._tcp", "", "SRV", "0 100 389 ldap.int.corvane.com."),
    ],
    "corvane.io": [
        ("@", "1d", "SOA", SOA % 2025022001),
        ("@", "2d", "NS", "ns1.dynazone.net."),
        ("@", "2d", "NS", "ns2.dynazone.net."),
        ("@", "2d", "NS", "ns3.dynazone.org."),
        ("@", "300", "ALIAS", "corvane-docs.pages.dev."),
        ("@", "2d", "MX", "10 mx1.corvane.com."),
        ("@", "2d", "MX", "20 mx2.corvane.com."),
        ("@", "2d", "TXT", q("v=spf1 include:corvane.com -all")),
        ("@", "1d", "CAA", '0 issue "letsencrypt.org"'),
        ("www", "300", "CNAME", "corvane-docs.pages.dev."),
        ("docs", "300", "CNAME", "corvane-docs.pages.dev."),
        ("developer", "300", "A", "203.0.113.30"),
        ("developer", "300", "AAAA", "2001:db8:4c0::30"),
        ("sandbox", "300", "A", "203.0.113.31"),
        ("status", "300", "CNAME", "corvane.statuspage.io."),
        ("_dmarc", "2d", "TXT", q("v=DMARC1; p=reject; rua=mailto:dmarc@corvane.com")),
        ("_github-challenge-corvane-org", "", "TXT", q("7c1e9b04d2")),
    ],
}
DEFAULT_TTL = {"corvane.com": 3600, "eu.corvane.com": 3600, "int.corvane.com": 300, "corvane.io": 3600}
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def ttl_seconds(zone, tok):
    if tok == "":
        return DEFAULT_TTL[zone]
    if tok[-1] in UNITS:
        return int(tok[:-1]) * UNITS[tok[-1]]
    return int(tok)


def fqdn(zone, owner):
    return zone + "." if owner == "@" else "%s.%s." % (owner, zone)


def truth(zone):
    """The zone as DynaZone serves it: [{fqdn, ttl (s), type, data}]."""
    return [{"fqdn": fqdn(zone, o), "ttl": ttl_seconds(zone, t), "type": ty, "data": d}
            for o, t, ty, d in RECORDS[zone]]


def zone_of(name):
    name = name.rstrip(".").lower()
    best = None
    for z in ZONES:
        if name == z or name.endswith("." + z):
            if best is None or len(z) > len(best):
                best = z
    return best


def export_text(zone):
    z = DZ_ZONES[zone]
    lines = ["; DynaZone zone export (BIND format)",
             "; zone %s  id %s  serial %d  visibility %s" % (zone, z["dz_id"], z["serial"], z["visibility"]),
             "; exported 2025-03-14T09:12:44Z by svc-migration@corvane.com",
             "$ORIGIN %s." % zone,
             "$TTL %d" % DEFAULT_TTL[zone]]
    for o, t, ty, d in RECORDS[zone]:
        lines.append("%-28s %-6s IN  %-6s %s" % (o, t, ty, d))
    return "\n".join(lines) + "\n"


# --- Tessera -------------------------------------------------------------------------------------

TS_ZONES = {
    "corvane.com": {"zone_id": "TZ-7Q4M2K", "visibility": "public",
                    "nameservers": ["ns-1187.tessera-dns.net.", "ns-402.tessera-dns.org.",
                                    "ns-1730.tessera-dns.com.", "ns-88.tessera-dns.co.uk."]},
    "eu.corvane.com": {"zone_id": "TZ-7Q4M3B", "visibility": "public",
                       "nameservers": ["ns-1433.tessera-dns.net.", "ns-611.tessera-dns.org.",
                                       "ns-1906.tessera-dns.com.", "ns-245.tessera-dns.co.uk."]},
    "int.corvane.com": {"zone_id": "TZ-7Q4M3F", "visibility": "private", "nameservers": [],
                        "vpc_associations": ["vpc-0a7e3c19 (eu-central-1)"]},
    "corvane.io": {"zone_id": "TZ-9D2X6W", "visibility": "public",
                   "nameservers": ["ns-950.tessera-dns.net.", "ns-27.tessera-dns.org.",
                                   "ns-1318.tessera-dns.com.", "ns-1642.tessera-dns.co.uk."]},
}
TS_TYPES = ["A", "AAAA", "CNAME", "MX", "TXT", "SRV", "CAA", "NS", "ANAME", "PTR"]
IMPORT = "import 2025-02-12 a.okafor"
# the partial import of February: record_id -> record
TS_PARTIAL = {
    "trc-2b7e9a40": {"zone": "corvane.com", "fqdn": "www.corvane.com.", "type": "CNAME", "ttl": 300,
                     "values": ["corvane-www.edgecdn.net."], "source": IMPORT, "updated_at": "2025-02-12T15:20:04Z"},
    "trc-2b7e9a44": {"zone": "corvane.com", "fqdn": "api.corvane.com.", "type": "A", "ttl": 60,
                     "values": ["203.0.113.20", "203.0.113.21"], "source": IMPORT,
                     "updated_at": "2025-02-12T15:20:05Z"},
    "trc-4f1a0c93": {"zone": "eu.corvane.com", "fqdn": "api-eu.eu.corvane.com.", "type": "A", "ttl": 300,
                     "values": ["185.40.12.70"], "source": IMPORT, "updated_at": "2025-02-12T15:24:31Z"},
    "trc-4f1a0c39": {"zone": "eu.corvane.com", "fqdn": "api-eu1.eu.corvane.com.", "type": "A", "ttl": 300,
                     "values": ["185.40.12.71"], "source": IMPORT, "updated_at": "2025-02-12T15:24:33Z"},
    "trc-4f1a0d12": {"zone": "eu.corvane.com", "fqdn": "cdn.eu.corvane.com.", "type": "CNAME", "ttl": 300,
                     "values": ["corvane-eu.edgecdn.net."], "source": IMPORT, "updated_at": "2025-02-12T15:24:36Z"},
}

PARENT_NS = {"corvane.com": ("a.gtld-servers.net.", 172800), "corvane.io": ("a0.nic.io.", 86400)}

# --- IPAM ----------------------------------------------------------------------------------------

PREFIXES = {
    "203.0.113.0/24": ("Corvane public, FRA1 edge (AS64511)", "fra1"),
    "198.51.100.0/24": ("Corvane public, AMS2 secondary (AS64511)", "ams2"),
    "185.40.12.0/23": ("Corvane EU public (leased, AS64511)", "fra1/ams2"),
    "2001:db8:4c0::/48": ("Corvane public IPv6", "fra1"),
    "2a0b:7280:12::/48": ("Corvane EU public IPv6", "fra1"),
    "10.20.30.0/24": ("prod-app subnet, vpc-0a7e3c19", "eu-central-1"),
    "10.20.40.0/24": ("prod-data subnet, vpc-0a7e3c19", "eu-central-1"),
    "10.20.50.0/24": ("prod-tools subnet, vpc-0a7e3c19", "eu-central-1"),
    "10.20.60.0/24": ("prod-streaming subnet, vpc-0a7e3c19", "eu-central-1"),
    "10.20.70.0/24": ("prod-identity subnet, vpc-0a7e3c19", "eu-central-1"),
}

# ip -> (status, hostname, owner, allocated, note, replaced_by)
IPAM = {
    "203.0.113.10": ("active", "web-fra1-a", "team-web", "2021-06-02", "apex web, behind edgecdn", None),
    "203.0.113.11": ("active", "web-fra1-b", "team-web", "2021-06-02", "apex web, behind edgecdn", None),
    "203.0.113.12": ("reserved", "web-fra1-c", "team-web", "2024-11-20", "capacity reserve", None),
    "203.0.113.20": ("active", "api-lb-fra1-a", "team-platform", "2022-01-17", "api.corvane.com", None),
    "203.0.113.21": ("active", "api-lb-fra1-b", "team-platform", "2022-01-17", "api.corvane.com", None),
    "203.0.113.25": ("active", "mx1-fra1", "team-it", "2020-03-09", "inbound mail relay", None),
    "203.0.113.30": ("active", "devportal-fra1", "team-devrel", "2023-05-11", "developer.corvane.io", None),
    "203.0.113.31": ("active", "sandbox-fra1", "team-devrel", "2023-05-11", "sandbox.corvane.io", None),
    "203.0.113.40": ("decommissioned", "vpn-fra1-old", "team-it", "2019-08-01",
                     "retired 2024-06-30, moved to 198.51.100.40", "198.51.100.40"),
    "198.51.100.25": ("active", "mx2-ams2", "team-it", "2020-03-09", "secondary mail relay", None),
    "198.51.100.40": ("active", "vpn-ams2", "team-it", "2024-06-20", "vpn.corvane.com (GlobalProtect)", None),
    "198.51.100.41": ("reserved", "vpn-ams2-b", "team-it", "2024-06-20", "HA pair, not yet in service", None),
    "185.40.12.17": ("active", "api-eu1-legacy", "team-platform", "2021-02-08",
                     "legacy single node for EU partners pinned to api-eu1; keep until 2025-06-30", None),
    "185.40.12.25": ("active", "smtp-eu-fra1", "team-it", "2022-09-14", "outbound EU mail", None),
    "185.40.12.70": ("active", "api-eu-lb-a", "team-platform", "2023-10-02", "EU API load balancer, node a", None),
    "185.40.12.71": ("active", "api-eu-lb-b", "team-platform", "2023-10-02", "EU API load balancer, node b", None),
    "185.40.12.77": ("decommissioned", "api-eu-lb-old", "team-platform", "2021-02-08",
                     "retired 2023-10-15, replaced by the api-eu-lb pair", None),
    "185.40.12.90": ("active", "vpn-fra", "team-it", "2022-04-01", "site VPN Frankfurt", None),
    "185.40.13.90": ("active", "vpn-ams", "team-it", "2022-04-01", "site VPN Amsterdam", None),
    "2001:db8:4c0::10": ("active", "web-fra1", "team-web", "2021-06-02", "apex web v6", None),
    "2001:db8:4c0::20": ("active", "api-lb-fra1", "team-platform", "2022-01-17", "api v6", None),
    "2001:db8:4c0::30": ("active", "devportal-fra1", "team-devrel", "2023-05-11", "developer v6", None),
    "2a0b:7280:12::17": ("active", "api-eu1-legacy", "team-platform", "2021-02-08", "legacy v6", None),
    "2a0b:7280:12::70": ("active", "api-eu-lb", "team-platform", "2023-10-02", "EU API v6 (anycast to a/b)", None),
    "10.20.30.5": ("active", "bastion-1", "team-platform", "2022-02-01", "SSH bastion", None),
    "10.20.30.14": ("decommissioned", "api-eu-node-3", "team-platform", "2021-02-08",
                    "VM retired 2025-03-10 (CHG-2025-0388); api-eu origin moved to 10.20.30.41", "10.20.30.41"),
    "10.20.30.21": ("active", "api-node-1", "team-platform", "2022-01-17", "api origin", None),
    "10.20.30.22": ("active", "api-node-2", "team-platform", "2022-01-17", "api origin", None),
    "10.20.30.40": ("reserved", "api-eu-origin-v2-b", "team-platform", "2025-03-06", "second node, Q2", None),
    "10.20.30.41": ("active", "api-eu-origin-v2", "team-platform", "2025-03-06",
                    "api-eu origin since 2025-03-10 (CHG-2025-0388)", None),
    "10.20.30.114": ("active", "ci-runner-14", "team-devex", "2024-09-02", "CI runner", None),
    "10.20.30.141": ("reserved", "ci-runner-41", "team-devex", "2024-09-02", "CI runner (spare)", None),
    "10.20.40.5": ("active", "db-proxy-1", "team-data", "2022-05-10", "pgbouncer front", None),
    "10.20.50.11": ("active", "grafana-1", "team-sre", "2022-07-01", "grafana", None),
    "10.20.50.30": ("active", "harbor-1", "team-platform", "2023-01-19", "container registry", None),
    "10.20.60.11": ("active", "kafka-1", "team-data", "2022-05-10", "broker 1", None),
    "10.20.60.12": ("active", "kafka-2", "team-data", "2022-05-10", "broker 2", None),
    "10.20.60.13": ("active", "kafka-3", "team-data", "2022-05-10", "broker 3", None),
    "10.20.70.4": ("active", "ldap-1", "team-it", "2021-11-03", "directory", None),
    "10.20.70.9": ("active", "vault-1", "team-sre", "2023-03-15", "secrets", None),
}
DOWN = {"10.20.30.14": "no route to host (ARP timeout from probe-vpc-euc1)",
        "185.40.12.77": "connection timed out"}

# --- certificates --------------------------------------------------------------------------------

CERTS = {
    "corvane.com": {"sans": ["corvane.com", "www.corvane.com"], "issuer": "Let's Encrypt R11",
                    "serial": "04:1f:9c:2e:77:0a:b3:51:d8:6e:20:4c:93:1a:e7:05:58:61",
                    "not_before": "2025-02-01T07:12:40Z", "not_after": "2025-05-02T07:12:39Z", "key": "ECDSA P-256",
                    "renewal": {"method": "acme dns-01", "via": "_acme-challenge.www.corvane.com. CNAME www.corvane.com.acme.dynazone.net.",
                                "status": "ok", "last_attempt": "2025-02-01T07:12:40Z"}},
    "api.corvane.com": {"sans": ["api.corvane.com", "api-eu.corvane.com"],
                        "issuer": "DigiCert Global G2 TLS RSA SHA256 2020 CA1",
                        "serial": "0b:5e:31:c4:90:22:7d:f1:6a:0e:8b:44:c2:19:70:3d",
                        "not_before": "2024-12-01T00:00:00Z", "not_after": "2025-11-30T23:59:59Z", "key": "RSA 2048",
                        "renewal": {"method": "manual (DigiCert CertCentral, DCV by email)", "status": "ok"}},
    "api-eu.eu.corvane.com": {"sans": ["api-eu.eu.corvane.com", "api-eu.corvane.com"], "issuer": "Let's Encrypt R10",
                              "serial": "03:a8:61:0f:d2:9b:44:e0:17:c5:3a:92:6d:08:b1:f4:2e:77",
                              "not_before": "2025-02-09T03:00:12Z", "not_after": "2025-05-10T03:00:11Z",
                              "key": "ECDSA P-256",
                              "renewal": {"method": "acme dns-01",
                                          "via": "_acme-challenge.api-eu.eu.corvane.com. CNAME api-eu.eu.corvane.com.acme.dynazone.net.",
                                          "status": "ok", "last_attempt": "2025-02-09T03:00:12Z"}},
    "api-eu1.eu.corvane.com": {"sans": ["api-eu1.eu.corvane.com"], "issuer": "Let's Encrypt E5",
                               "serial": "04:77:e2:1d:5c:08:f3:9a:61:b0:2e:c4:85:3f:d1:6a:09:e2",
                               "not_before": "2024-12-19T11:42:08Z", "not_after": "2025-03-19T11:42:07Z",
                               "key": "ECDSA P-256",
                               "renewal": {"method": "acme dns-01",
                                           "via": "_acme-challenge.api-eu1.eu.corvane.com. CNAME api-eu1.eu.corvane.com.acme.dynazone.net.",
                                           "status": "failing",
                                           "last_attempt": "2025-03-13T02:00:04Z",
                                           "last_error": "urn:ietf:params:acme:error:unauthorized: DynaZone ACME delegation is disabled for account CORVANE-8841 (migration freeze since 2025-03-10)"}},
    "developer.corvane.io": {"sans": ["developer.corvane.io", "sandbox.corvane.io"], "issuer": "Let's Encrypt R11",
                             "serial": "03:19:bd:48:e6:2a:70:95:cf:01:5e:8d:33:a4:72:c0:1b:5d",
                             "not_before": "2025-01-28T10:05:51Z", "not_after": "2025-04-28T10:05:50Z",
                             "key": "ECDSA P-256", "renewal": {"method": "acme http-01", "status": "ok",
                                                               "last_attempt": "2025-01-28T10:05:51Z"}},
    "corvane.io": {"sans": ["corvane.io", "www.corvane.io", "docs.corvane.io"], "issuer": "Let's Encrypt R10",
                   "serial": "04:c2:6f:90:1a:3e:d7:58:b2:0c:e9:41:7a:66:13:8f:d0:2b",
                   "not_before": "2025-02-14T18:30:02Z", "not_after": "2025-05-15T18:30:01Z", "key": "ECDSA P-256",
                   "renewal": {"method": "managed by Cloudflare Pages (http-01)", "status": "ok"}},
}
CERT_OF = {"corvane.com": "corvane.com", "www.corvane.com": "corvane.com", "api.corvane.com": "api.corvane.com",
           "api-eu.corvane.com": "api.corvane.com", "api-eu.eu.corvane.com": "api-eu.eu.corvane.com",
           "api-eu1.eu.corvane.com": "api-eu1.eu.corvane.com", "developer.corvane.io": "developer.corvane.io",
           "sandbox.corvane.io": "developer.corvane.io", "corvane.io": "corvane.io", "www.corvane.io": "corvane.io",
           "docs.corvane.io": "corvane.io"}
