#!/usr/bin/env python3
"""The model answers of the security-triage session.
Alert ids, addresses, networks, accounts, session ids, hosts, hashes, the
user agent, timestamps and the ids the tools hand out (change, action,
containment, incident) are taken from world.py (and tool.py's numbering), as
the model takes them from the prints of earlier turns. Two corrections, each
after the old value was printed: patient zero is first taken from the
"successful sign-in after multiple failures" alert (`patient-zero`,
`compromised` = j.doe) and, once his sign-in turns out to come through the
company VPN from his own laptop and the sign-in log shows the attacker's
success on j.dae, redefined (j.dae); the block list is first the three /32s
of the spray alert's samples plus the VPN address (`block-cidrs`, refused by
the firewall), then, once the reputation lookup and the sign-in log show the
exits rotating over the /24, redefined as 185.220.101.0/24 and the VPS's
/64. Containment, the incident and the result use only the new values."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.append(os.path.dirname(HERE))  # gen/long/
sys.path.append(HERE)
import tool as t  # noqa: E402
import world as w  # noqa: E402
from script import Script, fill  # noqa: E402

s = Script()

# --- what the agent sees, mirrored to write the literals it copies -------------------------

BLOCK_NEW = [w.TOR_NET, w.V6_NET]
BLOCK_REASON = ("ALRT-7731942 credential stuffing from Tor exits of AS60729 (rotating within the /24); "
                "attacker VPS used with the stolen j.dae session")
CHG1 = t.fw_block({"cidrs": BLOCK_NEW, "reason": BLOCK_REASON, "ttl_hours": 720})
EXFIL_CHG = t.fw_block({"cidrs": [w.EXFIL_IP + "/32"], "reason": "exfil", "ttl_hours": 720})
ISO = t.edr_isolate({"host": w.HOST_DAE, "reason": "x"})
ACT_DAE = t.idp_account_action({"user": w.JDAE, "action": "disable", "reason": "x"})
ACT_LUND = t.idp_account_action({"user": w.KLUND, "action": "force-password-reset", "reason": "x"})
INC_TITLE = "Credential stuffing from Tor: j.dae@lumenbrook.com compromised via MFA fatigue, finance data exfiltrated from FIN-LT-0124"
INC = t.soc_incident({"title": INC_TITLE, "severity": "P1", "summary": "x"})["incident_id"]
SMB = [f for f in w.FILES if f["channel"] == "smb"]
SP = [f for f in w.FILES if f["channel"] == "sharepoint"]
assert sum(f["bytes"] for f in w.FILES if f["ts"] >= "2024-11-13T02:47:33") == sum(f["bytes"] for f in w.FILES)

# --- the session -------------------------------------------------------------------------

s.turn("Starting with the handover and every alert of the night.", r'''
(println (:handover data/brief))
(def alerts (tool/siem-alerts {}))
(println (:count alerts) "alerts between" (:since alerts) "and" (:until alerts))
(doseq [a (:alerts alerts)]
  (println (format "%-13s %s %-8s %-48s %-21s %3d" (:alert_id a) (subs (:created a) 11 19) (:severity a)
                   (:rule a) (:entity a) (:events a))))
(doseq [a (:alerts alerts)]
  (println (:alert_id a) "-" (:summary a)))
''')

s.turn("The spray alert first. Its raw events, parsed:", r'''
(def spray (tool/alert-events {:alert_id "ALRT-7731942" :limit 40}))
(println (:rule spray) "-" (:total_events spray) "events," (:returned spray) "samples")
(println (:raw (first (:events spray))))
(def spray-events (mapv #(json/read-str (:raw %) :key-fn keyword) (:events spray)))
(println (first spray-events))
''', "unbound_symbol")

s.turn("No JSON reader. The raw events are flat JSON objects, so a regex per field will do.", r'''
(def spray-raw (mapv :raw (:events (tool/alert-events {:alert_id "ALRT-7731942" :limit 40}))))
(defn field [raw k]
  (or (second (re-find (re-pattern (str "\"" k "\":\"([^\"]*)\"")) raw))
      (second (re-find (re-pattern (str "\"" k "\":(-?[0-9.]+)")) raw))))
(defn signin-row [raw]
  {:ts (field raw "@timestamp") :user (field raw "user.name") :ip (field raw "source.ip")
   :asn (field raw "source.as.number") :country (field raw "source.geo.country_iso_code")
   :outcome (field raw "event.outcome") :reason (field raw "reason") :mfa (field raw "mfa")
   :app (field raw "app") :session (field raw "session.id") :ua (field raw "user_agent.original")})
(def spray-rows (mapv signin-row spray-raw))
(println "samples from" (:ts (first spray-rows)) "to" (:ts (last spray-rows)))
(println "source IPs:" (frequencies (map :ip spray-rows)))
(println "ASN/country:" (frequencies (map #(str "AS" (:asn %) " " (:country %)) spray-rows)))
(println "accounts:" (count (distinct (map :user spray-rows))) "| reasons:" (frequencies (map :reason spray-rows)))
(println "user agents:" (frequencies (map :ua spray-rows)))
''')

s.turn("40 samples of 159 events, all from three Tor-looking addresses of AS60729 with one outdated Chrome 119 user agent: credential stuffing. Now the high alert, the successful sign-in after failures:", r'''
(def s-after-f (tool/alert-events {:alert_id "ALRT-7731968"}))
(def saf-rows (mapv (comp signin-row :raw) (:events s-after-f)))
(println (:rule s-after-f) "-" (:total_events s-after-f) "events")
(doseq [r saf-rows]
  (println (:ts r) (format "%-8s %-17s %-16s %-8s" (:outcome r) (or (:reason r) "-") (:ip r) (:app r)) (or (:mfa r) "")))
(def patient-zero "j.doe@lumenbrook.com")
(def compromised [patient-zero])
(println "patient zero:" patient-zero "| success at" (:ts (last saf-rows)) "from" (:ip (last saf-rows)))
''')

s.turn("j.doe's password was guessed at 02:41 after 11 failures; the attacker apparently switched to another exit for the last attempt. The MFA alert on j.dae, to see whether MFA held there:", r'''
(def mfa-alert (tool/alert-events {:alert_id "ALRT-7731955"}))
(println (:rule mfa-alert) "-" (:total_events mfa-alert) "events")
(doseq [r (map (comp signin-row :raw) (:events mfa-alert))]
  (println (:ts r) (:user r) (:ip r) (:reason r) "|" (:mfa r)))
''')

s.turn("Six pushes denied for j.dae, none approved in the alert: MFA held for him. The WAF alert on the sign-in page:", r'''
(def waf-alert (tool/alert-events {:alert_id "ALRT-7731951"}))
(println (:raw (first (:events waf-alert))))
(println (count (:events waf-alert)) "requests answered 429 by"
         (distinct (map #(field (:raw %) "rule.id") (:events waf-alert))))
''')

s.turn("The WAF only rate-limited .47 for a minute. Block list from the addresses in the two identity alerts:", r'''
(def attacker-ips (vec (distinct (concat (map :ip spray-rows) (map :ip saf-rows)))))
(def block-cidrs (mapv #(str % (if (str/includes? % ":") "/128" "/32")) attacker-ips))
(println "attacker addresses:" attacker-ips)
(println "block list:" block-cidrs)
''')

s.turn("Blocking them at the edge for a week:", r'''
(def block-1 (tool/fw-block {:cidrs block-cidrs
                             :reason "ALRT-7731942 / ALRT-7731968 credential stuffing from AS60729"
                             :ttl_hours 168}))
(println (:change_id block-1) (:status block-1) (:cidrs block-1))
''', "tool")

s.turn(fill("Refused: <<VPN>> is in our own VPN pool (193.36.128.0/25). So j.doe's success came through our VPN, not from the attacker. His sign-ins tonight:", VPN=w.VPN_IP), r'''
(def doe-signins (tool/idp-signins {:user "j.doe@lumenbrook.com"}))
(println (:total doe-signins) "sign-ins")
(doseq [r (:signins doe-signins)]
  (println (subs (:ts r) 11 19)
           (format "%-7s %-16s %-19s %-11s %-18s %-17s %s %s" (:result r) (or (:failure_reason r) "-") (:ip r) (:app r)
                   (or (:mfa r) "-") (or (:session_id r) "-") (or (:device_id r) "-") (or (:device_name r) "-"))))
(println "user agent of the success:" (:user_agent (last (filter #(= "success" (:result %)) (:signins doe-signins)))))
''')

s.turn(fill("j.doe's success at 02:41:09 is Outlook on his own registered laptop (<<DEV>>, <<HOST>>) through the VPN, with MFA approved; the failures before it were the stuffing. His directory entry and his laptop's processes to be sure:", DEV=w.DEV_DOE, HOST=w.HOST_DOE), fill(r'''
(def doe (tool/idp-user {:user "j.doe@lumenbrook.com"}))
(println (:display_name doe) "|" (:department doe) "|" (:title doe) "| hosts" (:hosts doe) "| password changed" (:last_password_change doe))
(def doe-tree (tool/edr-process-tree {:host "<<HOST>>" :since "2024-11-13T00:00:00+01:00"}))
(doseq [p (:processes doe-tree)]
  (println (:pid p) (:ppid p) (:name p) "|" (:user p) "|" (subs (:start p) 0 19))
  (println "    " (:cmdline p)))
''', HOST=w.HOST_DOE))

s.turn("Nothing unusual on FIN-LT-0142 since midnight: Outlook started at 02:40, a minute before his sign-in, and the 00:47 PowerShell bypass (ALRT-7731936) is the Intune detection script run as SYSTEM. Did any attacker address get a success at all?", fill(r'''
(def tor-success (tool/idp-signins {:ip "<<IP52>>" :result "success"}))
(println (:total tor-success) "successful sign-ins from <<IP52>>")
(doseq [r (:signins tor-success)]
  (prn r))
(println (:total (tool/idp-signins {:ip "<<IP47>>" :result "success"})) "from <<IP47>>,"
         (:total (tool/idp-signins {:ip "<<IP133>>" :result "success"})) "from <<IP133>>")
''', IP52=w.IP52, IP47=w.IP47, IP133=w.IP133))

s.turn(fill("There it is: j.dae approved a 7th push at 02:47:33 from <<IP52>> (MFA fatigue), session <<S>>, no registered device. Patient zero is j.dae, not j.doe. Correcting, and his whole night:", IP52=w.IP52, S=w.SESS_ATT), r'''
(def patient-zero-alert patient-zero)
(def patient-zero "j.dae@lumenbrook.com")
(def compromised [patient-zero])
(def cleared ["j.doe@lumenbrook.com"])
(println "patient zero:" patient-zero-alert "->" patient-zero "| compromised:" compromised "| cleared:" cleared)
(def dae-signins (tool/idp-signins {:user patient-zero}))
(doseq [r (:signins dae-signins)]
  (println (subs (:ts r) 11 19)
           (format "%-7s %-16s %-19s %-22s %-18s %s" (:result r) (or (:failure_reason r) "-") (:ip r) (:app r)
                   (or (:mfa r) "-") (or (:session_id r) "-"))))
''')

s.turn(fill("After the approval the session was used from <<V6>> (token, no new MFA): SharePoint at 02:58 and 03:44, the Remote Desktop Gateway at 03:12. His directory entry, and the RDG alert:", V6=w.V6), r'''
(def dae (tool/idp-user {:user patient-zero}))
(prn dae)
(def rdg-alert (tool/alert-events {:alert_id "ALRT-7731979"}))
(println (:raw (first (:events rdg-alert))))
''')

s.turn(fill("The RDG connection went from the VPS to j.dae's own laptop <<H>> (not <<HD>>, j.doe's), from a client named <<C>>. Reputation of the three attacker addresses:", H=w.HOST_DAE, HD=w.HOST_DOE, C=w.RDG_CLIENT), fill(r'''
(def intel-ips (pmap #(tool/ti-lookup {:indicator %}) ["<<IP47>>" "<<IP52>>" "<<V6>>"]))
(doseq [i intel-ips]
  (println (:indicator i) (:verdict i) (str "AS" (:asn i)) (:as_org i) (:country i) (:network i) (:tags i) "score" (:abuse_score i))
  (when (:note i) (println "   " (:note i)))
  (when (:related_ips i) (println "    related:" (str/join ", " (:related_ips i))))
  (when (:passive_dns i) (println "    passive DNS:" (:passive_dns i))))
''', IP47=w.IP47, IP52=w.IP52, V6=w.V6))

s.turn("The exits rotate within 185.220.101.0/24, so /32s will not hold. A CIDR helper, to check the /24 against our ranges and count the exits that hit us:", r'''
(defn ip->long [ip]
  (reduce (fn [acc o] (bit-or (bit-shift-left acc 8) o)) 0 (str/split ip #"\.")))
(defn in-cidr? [cidr ip]
  (let [[net bits] (str/split cidr #"/")
        mask (bit-shift-left -1 (- 32 (parse-long bits)))]
    (= (bit-and (ip->long net) mask) (bit-and (ip->long ip) mask))))
(println (in-cidr? "185.220.101.0/24" "185.220.101.47") (in-cidr? "193.36.128.0/25" "193.36.128.17"))
''', "type")

s.turn("The octets are strings; parse them first. Then every sign-in from the /24:", fill(r'''
(defn ip->long [ip]
  (reduce (fn [acc o] (bit-or (bit-shift-left acc 8) o)) 0 (mapv parse-long (str/split ip #"\."))))
(defn in-cidr? [cidr ip]
  (let [[net bits] (str/split cidr #"/")
        mask (bit-shift-left -1 (- 32 (parse-long bits)))]
    (= (bit-and (ip->long net) mask) (bit-and (ip->long ip) mask))))
(def tor-rows (mapv #(select-keys % [:ts :user :ip :result :failure_reason :mfa])
                   (:signins (tool/idp-signins {:ip "<<NET>>" :limit 500}))))
(println (count tor-rows) "sign-ins from <<NET>>:" (count (distinct (map :ip tor-rows))) "addresses,"
         (count (distinct (map :user tor-rows))) "accounts," (:ts (first tor-rows)) "to" (:ts (last tor-rows)))
(println "outcomes:" (frequencies (map #(or (:failure_reason %) (:result %)) tor-rows)))
(println "busiest exits:")
(doseq [[ip n] (take 8 (sort-by val > (frequencies (map :ip tor-rows))))]
  (println (format "  %-16s %3d" ip n)))
(println "password accepted for:" (distinct (map :user (filter #(contains? #{"mfa_denied" nil} (:failure_reason %)) tor-rows))))
(println "/24 overlaps our 193.36.128.0/25:" (in-cidr? "193.36.128.0/25" "185.220.101.0")
         "| VPN address in the /24:" (in-cidr? "<<NET>>" "<<VPN>>"))
''', NET=w.TOR_NET, VPN=w.VPN_IP))

s.turn("38 exits, 41 accounts, and two passwords that worked (j.dae, k.lund). Widening the block list to the /24, dropping our VPN address, and adding the VPS's /64:", fill(r'''
(def block-cidrs-first block-cidrs)
(def block-cidrs ["<<NET>>" "<<V6NET>>"])
(println "block list:" block-cidrs-first "->" block-cidrs)
''', NET=w.TOR_NET, V6NET=w.V6_NET))

s.turn("Applying it for 30 days:", fill(r'''
(def block-change (tool/fw-block {:cidrs block-cidrs :ttl_hours 720
                                  :reason "<<REASON>>"}))
(println (:change_id block-change) (:rule_id block-change) (:status block-change) (:cidrs block-change)
         "on" (str/join ", " (:applied_to block-change)))
''', REASON=BLOCK_REASON))

s.turn("Blocked. k.lund's password worked too (ALRT-7731947); her sign-ins:", r'''
(def lund-signins (tool/idp-signins {:user "k.lund@lumenbrook.com"}))
(doseq [r (:signins lund-signins)]
  (println (subs (:ts r) 11 19) (:result r) (:failure_reason r) (:ip r) (or (:mfa r) "-") (or (:session_id r) "no session")))
(def exposed ["k.lund@lumenbrook.com"])
(println "password known to the attacker, no session:" exposed)
''')

s.turn(fill("Number matching stopped k.lund at the third prompt: no session, but her password needs a reset. Now the endpoint side on <<H>>: the EDR alert's raw event.", H=w.HOST_DAE), r'''
(def edr-alert (tool/alert-events {:alert_id "ALRT-7731990"}))
(println (:raw (first (:events edr-alert))))
''')

s.turn("A renamed rclone started by PowerShell under j.dae. The process tree from 03:00:", fill(r'''
(def dae-tree (tool/edr-process-tree {:host "<<H>>" :since "2024-11-13T03:00:00+01:00"}))
(defn print-tree [procs pid depth]
  (doseq [p (filter #(= pid (:ppid %)) procs)]
    (let [pad (apply str (repeat depth "  "))]
      (println (str pad (:pid p) " " (:name p) " [" (:user p) "] " (subs (:start p) 11 19)))
      (println (str pad "    " (:cmdline p)))
      (println (str pad "    sha256 " (:sha256 p)))
      (doseq [n (:network p)]
        (println (str pad "    -> " (:dst n) ":" (:port n) " " (:domain n) " " (dissoc n :dst :port :domain)))))
    (print-tree procs (:pid p) (inc depth))))
(print-tree (:processes dae-tree) 812 0)
(defn defang [s] (str/replace s "." "[.]"))
(println "IOCs so far:" (defang "cdn-msupdate-sync.com") (defang "<<EXFIL>>") "<<V6>>")
''', H=w.HOST_DAE, EXFIL=w.EXFIL_IP, V6=w.V6))

s.turn("Intel on the domain and the svchst.exe hash:", fill(r'''
(def intel-iocs (mapv #(tool/ti-lookup {:indicator %}) ["cdn-msupdate-sync[.]com" "<<HE>>"]))
(doseq [i intel-iocs]
  (prn i))
''', HE=w.H_EVIL), "tool")

s.turn("The lookup wants it refanged.", fill(r'''
(def intel-iocs (mapv #(tool/ti-lookup {:indicator %}) ["cdn-msupdate-sync.com" "<<HE>>"]))
(doseq [i intel-iocs]
  (println (:indicator i) "->" (:verdict i) "|" (or (:family i) (:registrar i)) "|" (or (:description i) (:registered i)))
  (doseq [[k v] (select-keys i [:resolves_to :urls :names :detections :first_seen])]
    (println "   " (name k) v))
  (doseq [r (:related i)]
    (println "    related" (:sha256 r) (:name r) (:verdict r) "-" (:note r))))
''', HE=w.H_EVIL))

s.turn("The domain registered three days ago resolves to the VPS and to the exfil address; the hash is a repacked rclone whose official build differs only in the last characters. Where each was seen in the fleet:", fill(r'''
(doseq [h ["<<HE>>" "<<HR>>"]]
  (let [r (tool/edr-hash-search {:sha256 h})]
    (println h "->" (:hosts r) "host(s)")
    (doseq [x (:sightings r)]
      (println "   " (:host x) (:path x) (:first_seen x) "->" (:last_seen x) (:user x) (:executions x) "executions"))))
''', HE=w.H_EVIL, HR=w.H_RCLONE))

s.turn("The repacked one only on FIN-LT-0124; the official rclone is IT's backup job on IT-ADM-007, not related. What j.dae's account touched after the stolen sign-in:", r'''
(def dae-files (tool/file-audit {:user patient-zero :since "2024-11-13T02:47:33+01:00" :limit 200}))
(println (:total dae-files) "file events," (format "%.2f GB" (/ (:bytes dae-files) 1e9)))
(doseq [[ch evs] (group-by :channel (:events dae-files))]
  (println ch (count evs) "files" (format "%.2f GB" (/ (reduce + (map :bytes evs)) 1e9))
           "| from" (distinct (keep :ip evs)) (distinct (keep :host evs)) (distinct (keep :process evs))
           "| sessions" (distinct (keep :session_id evs)) "|" (subs (:ts (first evs)) 11 19) "->" (subs (:ts (last evs)) 11 19)))
(println "SharePoint downloads:")
(doseq [e (filter #(= "sharepoint" (:channel %)) (:events dae-files))]
  (println "  " (subs (:ts e) 11 19) (:path e) (:bytes e)))
''')

s.turn("14 SharePoint files through the replayed session, and the file server read by svchst.exe. Which folders of the share:", r'''
(let [smb-reads (filter #(= "smb" (:channel %)) (:events dae-files))]
  (println "share:" (first (str/split (:path (first smb-reads)) #"\\GL\\|\\AP\\")))
  (doseq [[dir evs] (sort-by key (group-by #(second (re-find #"2024-10\\(\w+)\\" (:path %))) smb-reads))]
    (println (format "  %-8s %3d files %6.2f GB" dir (count evs) (/ (reduce + (map :bytes evs)) 1e9))))
  (println "largest:")
  (doseq [e (take 5 (sort-by :bytes > smb-reads))]
    (println "  " (:path e) (:bytes e))))
''')

s.turn("And where it went: the DLP alert and the destination's reputation.", fill(r'''
(def dlp-alert (tool/alert-events {:alert_id "ALRT-7731994"}))
(println (:raw (first (:events dlp-alert))))
(def exfil-intel (tool/ti-lookup {:indicator "<<EXFIL>>"}))
(println (:indicator exfil-intel) (:verdict exfil-intel) (str "AS" (:asn exfil-intel)) (:as_org exfil-intel)
         (:tags exfil-intel) (:passive_dns exfil-intel) "-" (:note exfil-intel))
''', EXFIL=w.EXFIL_IP))

s.prose(fill("""Where the triage stands:

- 01:04-02:47: credential stuffing from 38 rotating Tor exits of 185.220.101.0/24 (AS60729) against 41 accounts, Chrome 119 user agent. Blocked with the /24 and the VPS's /64 (<<CHG>>).
- j.doe's "success after failures" (ALRT-7731968) is a false positive: his own Outlook through the VPN (193.36.128.17) from FIN-LT-0142.
- j.dae is compromised: password from a leak (unchanged since 2023-02-14), 6 pushes denied, the 7th approved at 02:47:33 from 185.220.101.52; session <<S>> replayed from <<V6>> for 14 SharePoint downloads and an RDG connection to FIN-LT-0124, where PowerShell fetched upd.ps1 from cdn-msupdate-sync.com and a repacked rclone (svchst.exe) copied the 2024-10 close folder of the finance share to <<EXFIL>> (2.0 GB).
- k.lund's password works too; number matching stopped the sign-in.

Next: isolate FIN-LT-0124, block the exfil address, disable j.dae with session revocation, reset k.lund, check the user agent for exits outside the blocks, then the incident (P1: data left the company).""",
    CHG=CHG1["change_id"], S=w.SESS_ATT, V6=w.V6, EXFIL=w.EXFIL_IP))

s.turn("Containment, host first:", fill(r'''
(def isolation (tool/edr-isolate {:host "<<H>>" :reason "ALRT-7731990: repacked rclone exfiltration under a stolen j.dae session"}))
(println (:host isolation) (:status isolation) (:containment_id isolation) "at" (:at isolation) "| reachable:" (:allowed isolation))
''', H=w.HOST_DAE))

s.turn("The exfil address at the edge, as its own change:", fill(r'''
(def exfil-change (tool/fw-block {:cidrs ["<<EXFIL>>/32"] :ttl_hours 720
                                  :reason "ALRT-7731994: exfiltration endpoint s3.cdn-msupdate-sync.com"}))
(println (:change_id exfil-change) (:rule_id exfil-change) (:status exfil-change) (:cidrs exfil-change))
''', EXFIL=w.EXFIL_IP))

s.turn("Now the account: disable j.dae, which revokes every session.", fill(r'''
(def dae-disable (tool/idp-account-action {:user (first compromised) :action "disable"
                                           :reason "Compromised via MFA fatigue; attacker session <<S>>"}))
(println (:action_id dae-disable) (:user dae-disable) (:status dae-disable) (:account_status dae-disable) "at" (:at dae-disable))
(doseq [x (:sessions_revoked dae-disable)]
  (println "  revoked" (:session_id x) "created" (:created x) "from" (:ip x) (or (:device_name x) "(no device)")))
(println "attacker session revoked:" (contains? (set (map :session_id (:sessions_revoked dae-disable))) "<<S>>"))
''', S=w.SESS_ATT))

s.turn("Both of j.dae's sessions are gone, the attacker's included. k.lund gets a forced password reset:", r'''
(def lund-reset (tool/idp-account-action {:user (first exposed) :action "force-password-reset"
                                          :reason "Password accepted from 185.220.101.133 during the credential stuffing; MFA denied"}))
(println (:action_id lund-reset) (:user lund-reset) (:status lund-reset) "-" (:account_status lund-reset))
''')

s.turn("Last check before the incident: any successful sign-in with the attacker's user agent from outside the two blocked networks?", fill(r'''
(def ua-signins (tool/idp-signins {:user_agent "<<UA>>" :result "success"}))
(defn covered? [cidrs ip]
  (if (str/includes? ip ":")
    (str/starts-with? ip "2a01:4f8:c17:3b2:")
    (boolean (some #(in-cidr? % ip) (remove #(str/includes? % ":") cidrs)))))
(def ua-ips (distinct (map :ip (:signins ua-signins))))
(def uncovered (remove covered? ua-ips))
(println (:total ua-signins) "successful sign-ins with that user agent from" (count ua-ips) "addresses; not covered:" uncovered)
''', UA=w.UA_ATTACK), "arity")

s.turn("covered? takes the block list first.", fill(r'''
(def ua-signins (tool/idp-signins {:user_agent "<<UA>>" :result "success"}))
(defn covered? [cidrs ip]
  (if (str/includes? ip ":")
    (str/starts-with? ip "2a01:4f8:c17:3b2:")
    (boolean (some #(in-cidr? % ip) (remove #(str/includes? % ":") cidrs)))))
(def ua-ips (distinct (map :ip (:signins ua-signins))))
(def uncovered (remove #(covered? block-cidrs %) ua-ips))
(println (:total ua-signins) "successful sign-ins with that user agent from" (count ua-ips) "addresses; not covered by" block-cidrs ":" (vec uncovered))
(doseq [r (:signins ua-signins)]
  (println "  " (:ts r) (:user r) (:ip r) (:app r) (:session_id r)))
''', UA=w.UA_ATTACK))

s.turn("Every success with that user agent is j.dae's stolen session, inside the blocks. How many attempts each targeted account took, for the incident:", r'''
(def per-account (frequencies (map :user tor-rows)))
(println (count per-account) "accounts;" (count (filter #(= "user_not_found" (:failure_reason %)) tor-rows)) "attempts on accounts that do not exist")
(doseq [[u n] (take 6 (sort-by val > per-account))]
  (println (format "  %-28s %3d" u n)))
''')

s.turn("The timeline, from the prints above:", fill(r'''
(def timeline
  [["01:04:12" "credential stuffing starts: Tor exits of 185.220.101.0/24 (AS60729), 41 accounts, Chrome 119 UA"]
   ["01:34:12" "k.lund@lumenbrook.com: password accepted from 185.220.101.133, 3 number-match prompts denied"]
   ["02:22:13" "j.dae@lumenbrook.com: password accepted from 185.220.101.52, MFA pushes denied (ALRT-7731955)"]
   ["02:41:09" "j.doe@lumenbrook.com signs in himself via VPN 193.36.128.17 on FIN-LT-0142 (ALRT-7731968, false positive)"]
   ["02:47:33" "j.dae approves the 7th push: session <<S>>"]
   ["02:58:10" "session replayed from <<V6>>: 14 files downloaded from SharePoint Finance-Close"]
   ["03:12:40" "Remote Desktop Gateway from <<V6>> (client <<C>>) to <<H>> (ALRT-7731979)"]
   ["03:15:40" "powershell.exe fetches <<URL>>"]
   ["03:20:58" "svchst.exe (repacked rclone) copies the 2024-10 close folder of the finance share (ALRT-7731990)"]
   ["03:38:47" "transfer to <<EXFIL>>:443 ends, 2009381742 bytes out (ALRT-7731994)"]
   ["03:39:41" "cmd.exe deletes upd.ps1 and w.txt"]])
(doseq [[ts what] timeline]
  (println ts what))
''', S=w.SESS_ATT, V6=w.V6, C=w.RDG_CLIENT, H=w.HOST_DAE, URL=w.EVIL_URL, EXFIL=w.EXFIL_IP))

s.turn("The indicators:", fill(r'''
(def iocs
  {:networks ["<<NET>>" "<<V6NET>>" "<<EXFIL>>/32"]
   :addresses ["<<IP52>>" "<<IP47>>" "<<IP133>>" "<<V6>>" "<<EXFIL>>"]
   :domains ["cdn-msupdate-sync.com" "s3.cdn-msupdate-sync.com"]
   :urls ["<<URL>>"]
   :sha256 ["<<HE>>"]
   :files ["C:\\Users\\j.dae\\AppData\\Local\\Temp\\svchst.exe" "C:\\Users\\j.dae\\AppData\\Local\\Temp\\rc.conf"]
   :user-agent "<<UA>>"
   :rdg-client "<<C>>"
   :session "<<S>>"})
(doseq [[k v] iocs]
  (println (format "%-11s" (name k)) (if (string? v) v (str/join ", " v))))
(def ioc-list (vec (mapcat (fn [[k v]] (map #(str (name k) ":" %) (if (string? v) [v] v))) iocs)))
(println (count ioc-list) "indicators")
''', NET=w.TOR_NET, V6NET=w.V6_NET, EXFIL=w.EXFIL_IP, IP52=w.IP52, IP47=w.IP47, IP133=w.IP133, V6=w.V6, URL=w.EVIL_URL,
    HE=w.H_EVIL, UA=w.UA_ATTACK, C=w.RDG_CLIENT, S=w.SESS_ATT))

s.turn("The incident summary:", fill(r'''
(def actions
  [(str "edge block " (:change_id block-change) " (" (:rule_id block-change) "): " (str/join ", " block-cidrs))
   (str "edge block " (:change_id exfil-change) " (" (:rule_id exfil-change) "): <<EXFIL>>/32")
   (str "EDR isolation " (:containment_id isolation) ": <<H>>")
   (str "disabled j.dae@lumenbrook.com, sessions revoked (" (:action_id dae-disable) ")")
   (str "forced password reset k.lund@lumenbrook.com (" (:action_id lund-reset) ")")])
(def incident-summary
  (str/join "\n"
    (concat
      ["Credential stuffing from rotating Tor exits (185.220.101.0/24, AS60729) against 41 accounts between 01:04 and 02:47."
       "j.dae@lumenbrook.com (password unchanged since 2023-02-14) approved the 7th MFA push at 02:47:33 (MFA fatigue); the session was replayed from a Hetzner VPS (<<V6>>) to download 14 files from SharePoint Finance-Close and to open an RDG session to <<H>>, where a repacked rclone (svchst.exe) copied 2.0 GB of the finance share's 2024-10 close folder to <<EXFIL>> (cdn-msupdate-sync.com)."
       "ALRT-7731968 on j.doe@lumenbrook.com is a false positive (his own sign-in through the VPN from FIN-LT-0142); the rule missed j.dae because his failures were MFA denials."
       "k.lund@lumenbrook.com: password known to the attacker, no session."
       "Timeline:"]
      (map (fn [[ts what]] (str "  " ts " " what)) timeline)
      ["Actions:"]
      (map #(str "  " %) actions))))
(println incident-summary)
''', V6=w.V6, H=w.HOST_DAE, EXFIL=w.EXFIL_IP))

INC_HEAD = fill(r'''
(def incident
  (tool/soc-incident
    {:title "<<TITLE>>"
     :severity "P1"
     :summary incident-summary
     :alerts ["ALRT-7731942" "ALRT-7731947" "ALRT-7731951" "ALRT-7731955" "ALRT-7731968" "ALRT-7731979" "ALRT-7731990" "ALRT-7731994"]
''', TITLE=INC_TITLE)

s.cut("Data left the company, so P1 by the playbook. Opening it:", INC_HEAD.lstrip("\n") + fill(r'''     :accounts ["j.dae@lumenbrook.com (disabled)" "k.lund@lumenbrook.com (password reset)"]
     :hosts ["<<H>> (isolated)"]
     :iocs ioc-list
     :actions (conj actions "follow-up: rotate credentials in ''', H=w.HOST_DAE))

s.turn("Cut off; again, complete:", INC_HEAD + fill(r'''     :accounts ["j.dae@lumenbrook.com (disabled)" "k.lund@lumenbrook.com (password reset)"]
     :hosts ["<<H>> (isolated)"]
     :iocs ioc-list
     :actions (conj actions
                    "follow-up: rotate any credentials stored on the finance share's 2024-10 close folder"
                    "follow-up: number matching for every push MFA user; tune ALRT rule 'Successful sign-in after multiple failures' to count mfa_denied"
                    "follow-up: WAF rule RL-ADFS-30 rate-limits per address only; add a per-ASN limit on /adfs/ls/"
                    "follow-up: legal and DPO on the exfiltrated payroll and vendor bank files"
                    "notify j.dae's manager h.solberg@lumenbrook.com")}))
(println (:incident_id incident) (:severity incident) (:status incident) (:assigned_to incident) (:url incident))
''', H=w.HOST_DAE))

s.turn("Done. The summary:", fill(r'''
(return
  {:incident "<<INC>>"
   :severity "P1"
   :patient-zero "j.dae@lumenbrook.com"
   :accounts {:disabled ["j.dae@lumenbrook.com"] :password-reset ["k.lund@lumenbrook.com"]
              :cleared ["j.doe@lumenbrook.com"]}
   :sessions-revoked ["<<S>>" "<<S0>>"]
   :blocks [{:change-id "<<CHG1>>" :rule-id "<<RULE1>>" :cidrs ["<<NET>>" "<<V6NET>>"]}
            {:change-id "<<CHG2>>" :rule-id "<<RULE2>>" :cidrs ["<<EXFIL>>/32"]}]
   :hosts-isolated [{:host "<<H>>" :containment-id "<<CNT>>"}]
   :data-accessed {:sharepoint-files 14 :smb-files 86 :bytes-out 2009381742
                   :share "\\\\fs01.corp.lumenbrook.com\\finance$\\Close\\2024-10"}
   :iocs iocs
   :false-positives [{:alert "ALRT-7731968" :user "j.doe@lumenbrook.com" :ip "193.36.128.17" :host "FIN-LT-0142"
                      :device "dev-8a21d4c7" :session "sess-2f9c81d04b7e" :why "his own Outlook sign-in through the VPN"}
                     {:alert "ALRT-7731936" :host "FIN-LT-0142" :why "Intune detection script run as SYSTEM"}]
   :follow-ups {:waf-rule "RL-ADFS-30" :notify "h.solberg@lumenbrook.com" :detection-gap "ALRT-7731968 ignores mfa_denied"}
   :not-related {:host "IT-ADM-007" :sha256 "<<HR>>" :why "official rclone v1.66.0 of svc-backup"}})
''', INC=INC, S=w.SESS_ATT, S0=w.SESS_DAE_OWN, CHG1=CHG1["change_id"], RULE1=CHG1["rule_id"], NET=w.TOR_NET,
    V6NET=w.V6_NET, CHG2=EXFIL_CHG["change_id"], RULE2=EXFIL_CHG["rule_id"], EXFIL=w.EXFIL_IP, H=w.HOST_DAE,
    CNT=ISO["containment_id"], HR=w.H_RCLONE), "return")

if __name__ == "__main__":
    s.write(__file__)
