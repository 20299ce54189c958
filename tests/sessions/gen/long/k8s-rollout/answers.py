#!/usr/bin/env python3
"""The model answers of the k8s-rollout session.
A platform engineer rolls checkout-api 4.18.0 out to eu-west-1-prod,
eu-central-1-prod and us-east-1-prod: calendar and incidents, the running
pods (staging, and a restarting us-east pod with its logs), HPAs and node
headroom, the helm diff, a change request, then a canary per cluster with
analysis runs, the announcement and the closed change. Pod and node names,
digests, builds, freeze and incident ids, revisions, the change id, analysis
and rollout ids, times and canary figures are taken from world.py (and
tool.py), as the model takes them from the prints of earlier turns.

Two corrections, each after the old value was printed and used:
- `image-digest` (and `image-ref`) is first resolved on the mirror the
  clusters pull from (mirror-euw1, stuck since 2025-03-14, still listing the
  first, withdrawn 4.18.0 build #8802) and goes into the helm diff and the
  change request; the admission policy refuses it at the first canary step,
  and it is redefined from the primary registry (release build #8841; the
  change request is amended to revision 2);
- `canary-verdict` is first computed from an analysis of the
  checkout-api-staging namespace (tiny traffic, better numbers: p99 ratio
  0.96) and printed; the promotion citing its analysis run is refused, and
  it is redefined from the analysis of the prod namespace (p99 431 vs 385
  ms, ratio 1.12).
Later programs write only the new values."""
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

EUW, EUC, USE = w.CLUSTERS
MIRROR_EUW = w.MIRROR[EUW]
CAL = {e["id"]: e for e in w.CALENDAR}
FRZ_US, BLK_EU, MNT_EUW, FRZ_OLD = "FRZ-2025-014", "BLK-2025-031", "MNT-3391", "FRZ-2025-013"
for _k in (FRZ_US, BLK_EU, MNT_EUW, FRZ_OLD):
    assert _k in CAL
INC = {i["number"]: i for i in w.INCIDENTS}
I_TAX, I_OOM, I_HPA, I_WEB, I_PAY, I_WRK = sorted(INC)
CANARY_EUW = w.new_pods(EUW)[0]["name"]
AR_STG = w.analysis_id(EUW, w.NS_STG, 100)
AR_EUW10 = w.analysis_id(EUW, w.NS, 10)
AR_EUW50 = w.analysis_id(EUW, w.NS, 50)
AR_EUC10 = w.analysis_id(EUC, w.NS, 10)
AR_USE10 = w.analysis_id(USE, w.NS, 10)
REV = {c: w.CL[c]["revision"] for c in w.CLUSTERS}
A = w.ANALYSIS
POST = t.ro_post({"channel": w.CHANNEL, "text": "x"})
SUFFIX = lambda name: name.rsplit("-", 1)[1]  # noqa: E731
K4M2Z, K4M7Z = SUFFIX(w.POD_K4M2Z), SUFFIX(w.POD_K4M7Z)
NEIGHBOUR = next(p["name"] for p in w.old_pods(USE) if p["node"] == w.NODE_K4M2Z and p["name"] != w.POD_K4M2Z)
RS_USE = "checkout-api-" + w.CL[USE]["rs_old"]
assert w.POD_K4M2Z.startswith(RS_USE)


def pct(e, r):
    return round(100.0 * e / r, 2)


def ratio(key):
    return round(A[key][0][4] / A[key][1][4], 2)


def gate_fig(key):
    (cr, ce, _, _, c99), (sr, se, _, _, s99) = A[key]
    return {"req": cr, "err": pct(ce, cr), "st_err": pct(se, sr), "p99": c99, "st_p99": s99, "ratio": ratio(key),
            "delta": round(pct(ce, cr) - pct(se, sr), 2)}


G_STG = gate_fig((EUW, w.NS_STG, 100))
G_EUW10 = gate_fig((EUW, w.NS, 10))
G_EUW50 = gate_fig((EUW, w.NS, 50))
G_EUC10 = gate_fig((EUC, w.NS, 10))
G_USE10 = gate_fig((USE, w.NS, 10))


def node_free_cpu(c):
    """Free millicores per node before the rollout (tool.py: base + 250m per api pod, 100m per worker,
    staging pods on eu-west-1-prod)."""
    pods = [(p, 250) for p in w.old_pods(c)] + [(p, 100) for p in w.worker_pods(c)]
    if c == EUW:
        pods += [(p, 250) for p in w.staging_pods()]
    return {n["name"]: 3920 - n["base_cpu"] - sum(m for p, m in pods if p["node"] == n["name"]) for n in w.CL[c]["nodes"]}


FREE_EUC = sum(node_free_cpu(EUC).values())
TIGHT_EUC = min(node_free_cpu(EUC).items(), key=lambda kv: kv[1])[0]


def window(c, wt):
    """The 15 minutes after a step: from the next full minute."""
    m = w.hhmm(w.STEPS[(c, wt)]) + 1
    return ("%sT%02d:%02d:00Z" % ((w.DAY,) + divmod(m, 60)), "%sT%02d:%02d:00Z" % ((w.DAY,) + divmod(m + 15, 60)))


W_EUW10, W_EUW50, W_EUC10, W_USE10 = window(EUW, 10), window(EUW, 50), window(EUC, 10), window(USE, 10)
HM = lambda ts: ts[11:16]  # noqa: E731

# --- the session -------------------------------------------------------------------------

s.turn("Starting with the request and the runbook.", r'''
(def brief data/brief)
(def req (:request brief))
(println (:ticket req) "-" (:service req) (:version req) "|" (:release req) "| by" (:requested_by req))
(println "clusters:" (:clusters req) "| namespace" (:namespace req) "| helm release" (:helm_release req))
(println "note:" (:note req))
(doseq [step (:runbook brief)]
  (println step))
(println "gates:" (:canary_gates brief))
''')

s.turn("Runbook step 1: the change calendar around today, from last Friday to the end of the week.", r'''
(def cal (tool/ro-calendar {:from "2025-03-14T00:00:00Z" :to "2025-03-21T00:00:00Z"}))
(println (count (:entries cal)) "entries between" (:from cal) "and" (:to cal))
(doseq [e (:entries cal)]
  (println (format "%-12s %-11s %s -> %s %-34s %s" (:id e) (:kind e) (:start e) (:end e)
                   (str/join "," (:scope e)) (:title e)))
  (println "            " (:notes e)))
(def constraints (filterv #(and (contains? #{"freeze" "blackout" "maintenance"} (:kind %))
                                (pos? (compare (:end %) "2025-03-18T09:40:00Z")))
                          (:entries cal)))
(println "constraints still ahead today:" (mapv (juxt :id :scope :start) constraints))
''')

s.turn(fill("Three constraints today: <<BLK>> on eu-central-1-prod from <<BS>> to <<BE>>, <<MNT>> (AMI rotation) on eu-west-1-prod from <<MS>>, and the US freeze <<FRZ>> from <<FS>>; <<OLD>> is over. Now incidents since Friday:",
            BLK=BLK_EU, BS=HM(CAL[BLK_EU]["start"]), BE=HM(CAL[BLK_EU]["end"]), MNT=MNT_EUW, MS=HM(CAL[MNT_EUW]["start"]),
            FRZ=FRZ_US, FS=HM(CAL[FRZ_US]["start"]), OLD=FRZ_OLD), r'''
(def incidents (:incidents (tool/ro-incidents {:since "2025-03-14T00:00:00Z" :status "all"})))
(println (count incidents) "incidents since 2025-03-14")
(doseq [i incidents]
  (println (format "#%d %-8s %-20s %-18s %-5s %-12s %s" (:number i) (:id i) (:service i) (:cluster i)
                   (:urgency i) (:status i) (:title i)))
  (println "        " (:created i) "->" (or (:resolved i) "open") "|" (:notes i)))
(def deps #{"checkout-api" "payments-gateway" "pricing-svc" "tax-service"})
(def blocking (filterv #(and (deps (:service %)) (not= "resolved" (:status %)) (= "high" (:urgency %))) incidents))
(println "open high-urgency incidents on checkout-api or its dependencies:" (count blocking))
(println "open, not blocking:" (mapv #(str "#" (:number %) " " (:service %) " " (:urgency %)) (remove #(= "resolved" (:status %)) incidents)))
''')

s.turn(fill("Nothing blocks: the open ones are low urgency, and #<<WRK>> is <<WRKS>>, #<<WEB>> <<WEBS>>, not checkout-api. Two resolved checkout-api incidents matter for the rollout: the memory limit raised to 768Mi (#<<OOM>>) and the eu-central HPA max raised to 12 (#<<HPA>>). What eu-west-1-prod runs now:",
            WRK=I_WRK, WRKS=INC[I_WRK]["service"], WEB=I_WEB, WEBS=INC[I_WEB]["service"], OOM=I_OOM, HPA=I_HPA), r'''
(def euw1 (tool/k8s-workloads {:cluster "eu-west-1-prod" :namespace "checkout-api"}))
(doseq [wl (:workloads euw1)]
  (println (:kind wl) (:name wl) "rev" (:revision wl) (or (:status wl) "") "ready" (str (:ready wl) "/" (:desired wl))
           "weight" (:canary_weight wl) "updated" (:updated wl))
  (when (:stable wl)
    (println "   stable" (get-in wl [:stable :replicaset]) (get-in wl [:stable :version]) (get-in wl [:stable :image])))
  (when (:image wl)
    (println "   " (:image wl))))
(println (format "%-30s %-19s %-7s %-43s %-5s %s %s" "pod" "deployment" "version" "node" "ready" "rst" "started"))
(doseq [p (:pods euw1)]
  (println (format "%-30s %-19s %-7s %-43s %-5s %3d %s" (:name p) (:deployment p) (:version p) (:node p)
                   (:ready p) (:restarts p) (:started p))))
''')

s.turn("Nine checkout-api pods on 4.17.3, all healthy. The request says staging has run 4.18.0 since yesterday; a look at it:", r'''
(def staging (tool/k8s-workloads {:cluster "eu-west-1-prod" :namespace "checkout-api-staging"}))
(doseq [wl (:workloads staging)]
  (println (:kind wl) (:name wl) (:version wl) "rev" (:revision wl) "ready" (str (:ready wl) "/" (:desired wl)) "updated" (:updated wl)))
(doseq [p (:pods staging)]
  (println "  " (:name p) (:deployment p) (:version p) (:node p) "restarts" (:restarts p) "since" (:started p)))
''')

s.turn(fill("Two 4.18.0 pods and a 4.17.3 baseline, no restarts since yesterday 16:10. Now the release digest, from the registry eu-west-1-prod pulls through (<<M>>, per the pod images):", M=MIRROR_EUW), fill(r'''
(def reg (tool/ro-registry {:repository "checkout/checkout-api" :registry "<<M>>"}))
(println (:registry reg) "-" (:kind reg) "of" (:upstream reg) "| last sync" (:last_sync reg))
(doseq [tg (:tags reg)]
  (println (format "%-12s %s %s %6.1f MB %s" (:tag tg) (:digest tg) (:pushed_at tg) (:size_mb tg) (:build tg))))
(def image-digest (:digest (first (filter #(= "4.18.0" (:tag %)) (:tags reg)))))
(def image-ref (str "<<M>>/checkout/checkout-api@" image-digest))
(println "4.18.0 ->" image-digest)
(println "pinned:" image-ref)
''', M=MIRROR_EUW))

s.turn("Pinned by digest, not by tag. The two other clusters, to compare versions and look for unhealthy pods, with the pods per node:", r'''
(def fleet (assoc (zipmap ["eu-central-1-prod" "us-east-1-prod"]
                          (pmap #(tool/k8s-workloads {:cluster % :namespace "checkout-api"})
                                ["eu-central-1-prod" "us-east-1-prod"]))
                  "eu-west-1-prod" euw1))
(doseq [c (:clusters req)]
  (let [wl (fleet c)
        ro (first (filter #(= "Rollout" (:kind %)) (:workloads wl)))
        api (filter #(= "checkout-api" (:deployment %)) (:pods wl))]
    (println c "| rollout rev" (:revision ro) (:status ro) "| stable" (get-in ro [:stable :version])
             (get-in ro [:stable :replicaset]) "|" (count api) "pods," (reduce + (map :restarts api)) "restarts")
    (println "   " (get-in ro [:stable :image]))
    (doseq [[node ps] (sort-by key (group-by :node (:pods wl)))]
      (println "     " (format "%-45s" node)
               (str/join " " (map #(str (last (str/split (:name %) #"-"))
                                        (when (= "checkout-api-worker" (:deployment %)) "[worker]")
                                        (when (pos? (:restarts %)) (str "(" (:restarts %) " restarts)")))
                                  ps))))))
(println "same 4.17.3 digest everywhere:"
         (apply = (map #(last (str/split (get-in (first (:workloads (fleet %))) [:stable :image]) #"@")) (:clusters req))))
''')

s.turn(fill("One pod of us-east-1-prod restarts: <<K>> of replica set <<RS>>, on <<N>> (4 restarts). Describing it before touching the cluster:", K=K4M2Z, RS=RS_USE, N=w.NODE_K4M2Z), fill(r'''
(def k4m2z (tool/k8s-describe-pod {:cluster "us-east-1-prod" :namespace "checkout-api" :pod "<<P>>"}))
(let [ct (first (:containers k4m2z))]
  (println (:name k4m2z) "on" (:node k4m2z) "ip" (:ip k4m2z) "| qos" (:qos_class k4m2z) "| restarts" (:restart_count ct))
  (println "  image" (:image ct))
  (println "  requests" (:requests ct) "limits" (:limits ct))
  (println "  state" (:state ct))
  (println "  last state" (:last_state ct))
  (println "  liveness" (:liveness ct)))
(doseq [e (:events k4m2z)]
  (println (format "  %-7s %-9s x%-3d %s..%s %s" (:type e) (:reason e) (:count e) (:first_seen e) (:last_seen e) (:message e))))
''', P=w.POD_K4M2Z))

s.turn("Killed by its liveness probe (503s), exit 137, not OOM. The previous container's log, and the redis lines of the current one:", fill(r'''
(def k4m2z-prev (tool/k8s-logs {:cluster "us-east-1-prod" :namespace "checkout-api" :pod "<<P>>" :previous true}))
(doseq [l (:lines k4m2z-prev)]
  (println (:ts l) (format "%-5s" (:level l)) (:msg l)))
(def k4m2z-redis (tool/k8s-logs {:cluster "us-east-1-prod" :namespace "checkout-api" :pod "<<P>>" :grep "redis"}))
(println "--- current container, redis:")
(doseq [l (:lines k4m2z-redis)]
  (println (:ts l) (format "%-5s" (:level l)) (:msg l)))
''', P=w.POD_K4M2Z))

s.turn(fill("Redis pool exhaustion at size 64 makes /healthz answer 503 until the probe kills the container. A 4.17.3 problem, not the node: <<NB>> on the same <<N>> has no restarts (nor <<K7>> next door on <<N7>>). Now the autoscalers:",
            NB=SUFFIX(NEIGHBOUR), N=w.NODE_K4M2Z.split(".")[0], K7=K4M7Z, N7=w.NODE_K4M7Z.split(".")[0]), r'''
(def hpas (into {} (map (fn [c] [c (:hpas (tool/k8s-hpa {:cluster c :namespace "checkout-api"}))]) (:clusters req))))
(doseq [[c hs] hpas
        h hs]
  (let [lim (first (filter #(= "ScalingLimited" (:type %)) (:conditions h)))]
    (println (format "%-18s %-20s %2d..%-2d current %2d desired %2d cpu %2d%% of %d%% last scale %s %s" c (:name h)
                     (:min_replicas h) (:max_replicas h) (:current_replicas h) (:desired_replicas h)
                     (:current_cpu_pct h) (:target_cpu_pct h) (:last_scale h)
                     (if (= "True" (:status lim)) (str "LIMITED: " (:message lim)) "")))))
''')

s.turn("eu-central-1-prod runs 11 of its 12 replicas. Node headroom per cluster for the canary pods:", r'''
(doseq [[c wl] fleet]
  (let [nodes (:nodes wl)
        alloc (reduce + (map :allocatable_cpu nodes))
        used (reduce + (map :requested_cpu nodes))]
    (println c "CPU requested" used "of" alloc "free" (- alloc used))))
''', "type")

s.turn("The quantities are strings (\"3920m\", \"15136Mi\"). Parsing them:", r'''
(defn millicores [q]
  (if (str/ends-with? q "m") (parse-long (subs q 0 (dec (count q)))) (* 1000 (parse-long q))))
(defn mebibytes [q]
  (cond (str/ends-with? q "Mi") (parse-long (subs q 0 (- (count q) 2)))
        (str/ends-with? q "Gi") (* 1024 (parse-long (subs q 0 (- (count q) 2))))
        :else (quot (parse-long q) 1048576)))
(def headroom
  (into {} (for [[c wl] fleet]
             (let [nodes (:nodes wl)
                   free-cpu (- (reduce + (map (comp millicores :allocatable_cpu) nodes))
                               (reduce + (map (comp millicores :requested_cpu) nodes)))
                   free-mem (- (reduce + (map (comp mebibytes :allocatable_memory) nodes))
                               (reduce + (map (comp mebibytes :requested_memory) nodes)))
                   tight (apply min-key #(- (millicores (:allocatable_cpu %)) (millicores (:requested_cpu %))) nodes)]
               [c {:nodes (count nodes) :free-cpu-m free-cpu :free-mem-mi free-mem
                   :pods-fit (min (quot free-cpu 250) (quot free-mem 512))
                   :tightest (:name tight) :tightest-req (:requested_cpu tight)}]))))
(doseq [c (:clusters req)]
  (let [h (headroom c)]
    (println (format "%-18s %d nodes, free %5dm CPU %6dMi memory -> %2d more 250m/512Mi pods; tightest %s (%s of 3920m)"
                     c (:nodes h) (:free-cpu-m h) (:free-mem-mi h) (:pods-fit h) (:tightest h) (:tightest-req h)))))
''')

s.turn(fill("Enough room everywhere; eu-central-1-prod is the tightest (<<F>>m CPU free). The helm diff for eu-west-1-prod with the pinned image:", F=FREE_EUC), r'''
(def diff-euw1 (tool/ro-helm-diff {:cluster "eu-west-1-prod" :release "checkout-api" :image image-ref}))
(println "revision" (:revision diff-euw1) (:chart diff-euw1) "values" (:values diff-euw1))
(doseq [l (str/split-lines (:diff diff-euw1))]
  (println l))
''')

s.turn(fill("Image, REDIS_POOL_SIZE 64 -> 128 (<<CHK>>, the us-east restarts), tax client v2 with <<TAX>> 800, the price cache, memory limit 768Mi -> 1Gi; HPA and PDB unchanged. Now the windows: eu-central-1-prod must end before <<B>> at <<BS>>, us-east-1-prod before <<F>> at <<FS>>, eu-west-1-prod before <<M>> at <<MS>>.",
            CHK=w.CHKOUT, TAX=w.TAX_ENV, B=BLK_EU, BS=HM(CAL[BLK_EU]["start"]), F=FRZ_US, FS=HM(CAL[FRZ_US]["start"]),
            M=MNT_EUW, MS=HM(CAL[MNT_EUW]["start"])), fill(r'''
(defn minutes-between [from to]
  (quot (- (inst-ms (clojure.instant/read-instant-date to)) (inst-ms (clojure.instant/read-instant-date from))) 60000))
(println "start -> eu-central blackout:" (minutes-between "2025-03-18T10:10:00Z" "<<BS>>") "min")
''', BS=CAL[BLK_EU]["start"]), "unbound_symbol")

s.turn("No instant reader; all windows are today, so minutes of the day will do. eu-west-1-prod needs about 50 minutes (two analyses), the others 35.", fill(r'''
(defn mins [ts] (+ (* 60 (parse-long (subs ts 11 13))) (parse-long (subs ts 14 16))))
(defn at-min [m] (format "2025-03-18T%02d:%02d:00Z" (quot m 60) (mod m 60)))
(def durations {"eu-west-1-prod" 50 "eu-central-1-prod" 35 "us-east-1-prod" 35})
(def plan
  (loop [cs (:clusters req) start (mins "2025-03-18T10:10:00Z") out []]
    (if (empty? cs)
      out
      (let [c (first cs) end (+ start (durations c))]
        (recur (rest cs) end (conj out {:cluster c :start (at-min start) :end (at-min end)}))))))
(def next-constraint {"eu-west-1-prod" ["<<M>>" "<<MS>>"]
                      "eu-central-1-prod" ["<<B>>" "<<BS>>"]
                      "us-east-1-prod" ["<<F>>" "<<FS>>"]})
(doseq [p plan]
  (let [[id at] (next-constraint (:cluster p))]
    (println (format "%-18s %s -> %s | next constraint %s at %s, slack %3d min" (:cluster p) (:start p) (:end p)
                     id at (- (mins at) (mins (:end p)))))))
''', M=MNT_EUW, MS=CAL[MNT_EUW]["start"], B=BLK_EU, BS=CAL[BLK_EU]["start"], F=FRZ_US, FS=CAL[FRZ_US]["start"]))

CR_TITLE = "checkout-api 4.18.0 to eu-west-1-prod, eu-central-1-prod, us-east-1-prod (canary, PLAT-4471)"
s.turn("The plan clears every constraint, with 25 minutes to spare before the blackout. Filing the change request:", fill(r'''
(def cr (tool/ro-change-request
          {:title "<<T>>"
           :service "checkout-api" :version "4.18.0" :image image-ref :plan plan
           :rollback "abort the canary (traffic back to stable), or helm rollback checkout-api to revision <<R1>> (eu-west-1-prod), <<R2>> (eu-central-1-prod), <<R3>> (us-east-1-prod): 4.17.3, <<OLD>>"
           :risk "medium: tax client v2 and in-process price cache are new; eu-central-1-prod HPA at 11 of 12 replicas"
           :links ["PLAT-4471" "<<F>>" "<<B>>" "<<M>>" "#<<HPA>>" "#<<OOM>>" "<<CHK>>"]}))
(println (:change_id cr) "rev" (:revision cr) (:status cr) "|" (:approval cr))
(println "created" (:created cr) (:url cr))
(doseq [f (:freeze_check cr)]
  (println "  " (:cluster f) (:window f) "conflicts:" (:conflicts f)))
''', T=CR_TITLE, R1=REV[EUW], R2=REV[EUC], R3=REV[USE], OLD=w.D_OLD, F=FRZ_US, B=BLK_EU, M=MNT_EUW, HPA=I_HPA, OOM=I_OOM,
    CHK=w.CHKOUT))

s.turn(fill("<<CR>> approved as a standard change. Canary in eu-west-1-prod at weight 10:", CR=w.CR_ID), fill(r'''
(def step-euw1-10 (tool/ro-rollout-step {:cluster "eu-west-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                         :image image-ref :step "canary" :weight 10}))
(println (:rollout_id step-euw1-10) (:status step-euw1-10) "weight" (:weight step-euw1-10) "at" (:at step-euw1-10))
''', CR=w.CR_ID), "tool")

s.turn(fill("Refused: the digest I took from <<M>> is only signed by ci-prerelease and is no longer tagged in the primary registry (it was 4.18.0 until <<UNTIL>>). The primary's view of the tags:", M=MIRROR_EUW, UNTIL=w.PUSH_REL), r'''
(def reg-primary (tool/ro-registry {:repository "checkout/checkout-api"}))
(println (:registry reg-primary) "-" (:kind reg-primary) "| keys" (:signing_keys reg-primary))
(doseq [tg (:tags reg-primary)]
  (println (format "%-12s %s %s %s %s" (:tag tg) (:digest tg) (:pushed_at tg) (:build tg) (str/join "," (:signed_by tg))))
  (doseq [p (:previous_digests tg)]
    (println "             was" (:digest p) (:build p) (:from p) "->" (:until p) "-" (:note p))))
(println "mirror last sync" (:last_sync reg) "| the mirror's 4.18.0 is the primary's withdrawn one:"
         (contains? (set (mapcat #(map :digest (:previous_digests %)) (:tags reg-primary))) image-digest))
''')

s.turn(fill("The mirror has not synced since <<SYNC>> and still lists the first 4.18.0 build (<<B2>>), withdrawn for <<CVE>>; the release is build <<B1>> (the run the request names), pushed <<P>>, release-signed. The two digests even share their first hex digits. Re-pinning by the primary's digest and amending the change request:",
            SYNC=w.MIRROR_SYNC[MIRROR_EUW], B2=w.BUILD_FIRST, CVE=w.CVE, B1=w.BUILD_REL, P=w.PUSH_REL), fill(r'''
(def image-digest-mirror image-digest)
(def image-digest "<<D>>")
(def image-ref (str "registry.fernhill.io/checkout/checkout-api@" image-digest))
(println "image-digest:" image-digest-mirror "->" image-digest)
(println "image-ref:" image-ref)
(def cr-rev2 (tool/ro-change-request
               {:amends "<<CR>>" :image image-ref
                :note "image re-pinned to release build <<B1>> (pushed <<P>>, release-signed); <<M>> is stale since <<SYNC>> and lists the withdrawn first 4.18.0 build <<B2>> (<<CVE>>)"}))
(println (:change_id cr-rev2) "rev" (:revision cr-rev2) (:status cr-rev2) "changed" (:changed cr-rev2) "at" (:at cr-rev2))
''', D=w.D_REL, CR=w.CR_ID, B1=w.BUILD_REL, P=w.PUSH_REL, M=MIRROR_EUW, SYNC=w.MIRROR_SYNC[MIRROR_EUW], B2=w.BUILD_FIRST,
    CVE=w.CVE))

s.turn("Revision 2 carries the release digest. The helm diffs of all three clusters with it, image and HPA lines only:", r'''
(def diffs (zipmap (:clusters req)
                   (pmap #(tool/ro-helm-diff {:cluster % :release "checkout-api" :image image-ref}) (:clusters req))))
(doseq [c (:clusters req)]
  (let [d (diffs c)]
    (println c "revision" (:revision d) "values" (:values d))
    (doseq [l (filter #(or (str/includes? % "image:") (str/includes? % "HorizontalPodAutoscaler"))
                      (str/split-lines (:diff d)))]
      (println "   " l))))
''')

s.turn("Every cluster moves from its mirror's 4.17.3 to the release digest; nothing else differs between them. Canary in eu-west-1-prod again:", fill(r'''
(def step-euw1-10 (tool/ro-rollout-step {:cluster "eu-west-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                         :image image-ref :step "canary" :weight 10}))
(println (:rollout_id step-euw1-10) (:step step-euw1-10) (:status step-euw1-10) "weight" (:weight step-euw1-10)
         "at" (:at step-euw1-10) "| replicas" (:replicas step-euw1-10))
(doseq [p (:new_pods step-euw1-10)]
  (println "  canary pod" (:name p) "on" (:node p) "started" (:started p)))
''', CR=w.CR_ID))

s.turn(fill("Canary at weight 10 since <<AT>> with one pod, <<P>>. Is it healthy and running the right image?", AT=w.STEPS[(EUW, 10)], P=CANARY_EUW), fill(r'''
(def canary-pod (tool/k8s-describe-pod {:cluster "eu-west-1-prod" :namespace "checkout-api" :pod "<<P>>"}))
(let [ct (first (:containers canary-pod))]
  (println (:name canary-pod) "on" (:node canary-pod) (:phase canary-pod) "| ready" (:ready ct) "| restarts" (:restart_count ct))
  (println "  image   " (:image ct))
  (println "  image_id" (:image_id ct))
  (println "  requests" (:requests ct) "limits" (:limits ct))
  (println "  labels" (:labels canary-pod)))
(doseq [e (:events canary-pod)]
  (println "  " (:type e) (:reason e) (:message e)))
''', P=CANARY_EUW))

s.turn(fill("The release digest (the host rewritten to the regional mirror, the image id from <<R>>), 1Gi limit, no restarts. The analysis of the 15 minutes after the canary started, <<F>>-<<T>>, against the runbook's gates:", R=w.PRIMARY, F=HM(W_EUW10[0]), T=HM(W_EUW10[1])), fill(r'''
(defn gate [a rules]
  (let [can (first (filter #(= "canary" (:role %)) (:versions a)))
        st (first (filter #(= "stable" (:role %)) (:versions a)))
        delta (- (:error_rate_pct can) (:error_rate_pct st))
        ratio (/ (double (:p99_ms can)) (:p99_ms st))]
    {:analysis (:analysis_id a) :cluster (:cluster a) :namespace (:namespace a) :weight (:canary_weight a)
     :canary-requests (:requests can) :canary-error-pct (:error_rate_pct can) :stable-error-pct (:error_rate_pct st)
     :error-delta-pp (/ (round (* 100 delta)) 100.0) :canary-p99 (:p99_ms can) :stable-p99 (:p99_ms st)
     :p99-ratio (/ (round (* 100 ratio)) 100.0) :restarts (:restarts can)
     :pass (and (>= (:requests can) (:min_canary_requests rules))
                (<= (:error_rate_pct can) (:max_error_rate_pct rules))
                (<= delta (:max_error_delta_pp rules))
                (<= ratio (:max_p99_ratio rules))
                (<= (:restarts can) (:max_canary_restarts rules)))}))
(def gates (:canary_gates brief))
(def analysis-euw1 (tool/ro-canary-analysis {:cluster "eu-west-1-prod" :namespace "checkout-api-staging"
                                             :from "<<F>>" :to "<<T>>"}))
(doseq [v (:versions analysis-euw1)]
  (println (format "%-7s %-7s pods %2d requests %6d 5xx %4d (%.2f%%) p50 %3d p95 %3d p99 %3d restarts %d" (:role v) (:version v)
                   (:pods v) (:requests v) (:errors_5xx v) (:error_rate_pct v) (:p50_ms v) (:p95_ms v) (:p99_ms v) (:restarts v))))
(def canary-verdict (gate analysis-euw1 gates))
(println "verdict:" canary-verdict)
''', F=W_EUW10[0], T=W_EUW10[1]))

s.turn(fill("All gates pass (p99 ratio <<R>>, error delta <<D>> pp). Promoting eu-west-1-prod to 50 with analysis <<AR>>:", R=G_STG["ratio"], D=G_STG["delta"], AR=AR_STG), fill(r'''
(def step-euw1-50 (tool/ro-rollout-step {:cluster "eu-west-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                         :image image-ref :step "promote" :weight 50 :analysis_id "<<AR>>"}))
(println (:rollout_id step-euw1-50) (:status step-euw1-50) "weight" (:weight step-euw1-50) "at" (:at step-euw1-50))
''', CR=w.CR_ID, AR=AR_STG), "tool")

s.turn("Refused, and rightly: I analysed checkout-api-staging (its 2 pods and a few thousand requests), not the prod canary, so that verdict is worthless. The same window in the checkout-api namespace:", fill(r'''
(def canary-verdict-staging canary-verdict)
(def analysis-euw1 (tool/ro-canary-analysis {:cluster "eu-west-1-prod" :namespace "checkout-api"
                                             :from "<<F>>" :to "<<T>>"}))
(doseq [v (:versions analysis-euw1)]
  (println (format "%-7s %-7s pods %2d requests %6d 5xx %4d (%.2f%%) p50 %3d p95 %3d p99 %3d restarts %d" (:role v) (:version v)
                   (:pods v) (:requests v) (:errors_5xx v) (:error_rate_pct v) (:p50_ms v) (:p95_ms v) (:p99_ms v) (:restarts v))))
(def canary-verdict (gate analysis-euw1 gates))
(println "staging (discarded):" (select-keys canary-verdict-staging [:analysis :namespace :p99-ratio :error-delta-pp]))
(println "prod verdict:" canary-verdict)
(println "canary per minute:")
(doseq [m (:canary_per_minute analysis-euw1)]
  (println (format "  %s %4d req %2d 5xx p99 %3d ms" (:minute m) (:requests m) (:errors_5xx m) (:p99_ms m))))
''', F=W_EUW10[0], T=W_EUW10[1]))

s.turn(fill("Prod passes too, with less margin: p99 <<C>> vs <<S>> ms (ratio <<R>>, limit 1.2), 5xx <<E>>% vs <<SE>>%. What are the canary's errors? Its log:", C=G_EUW10["p99"], S=G_EUW10["st_p99"], R=G_EUW10["ratio"], E=G_EUW10["err"], SE=G_EUW10["st_err"]), fill(r'''
(def canary-log (tool/k8s-logs {:cluster "eu-west-1-prod" :namespace "checkout-api" :pod "<<P>>"}))
(doseq [l (:lines canary-log)]
  (println (:ts l) (format "%-5s" (:level l)) (:msg l)))
(println "levels:" (frequencies (map :level (:lines canary-log))))
''', P=CANARY_EUW))

s.turn(fill("The 5xx are tax-v2 upstream timeouts at 800 ms after two retries; the price cache warmed up fine (heap 402MiB of 1024MiB). Within the gates, so promoting to 50 with the prod analysis <<AR>>:", AR=AR_EUW10), fill(r'''
(def step-euw1-50 (tool/ro-rollout-step {:cluster "eu-west-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                         :image image-ref :step "promote" :weight 50 :analysis_id "<<AR>>"}))
(println (:rollout_id step-euw1-50) (:status step-euw1-50) "weight" (:weight step-euw1-50) "at" (:at step-euw1-50)
         "| replicas" (:replicas step-euw1-50))
(doseq [p (:new_pods step-euw1-50)]
  (println "  new pod" (:name p) "on" (:node p) "started" (:started p)))
''', CR=w.CR_ID, AR=AR_EUW10))

s.turn(fill("Weight 50 since <<AT>>. The analysis at 50, <<F>>-<<T>>:", AT=w.STEPS[(EUW, 50)], F=HM(W_EUW50[0]), T=HM(W_EUW50[1])), fill(r'''
(def analysis-euw1-50 (tool/ro-canary-analysis {:cluster "eu-west-1-prod" :namespace "checkout-api"
                                                :from "<<F>>" :to "<<T>>"}))
(doseq [v (:versions analysis-euw1-50)]
  (println (format "%-7s %-7s pods %2d requests %6d 5xx %4d (%.2f%%) p50 %3d p95 %3d p99 %3d restarts %d" (:role v) (:version v)
                   (:pods v) (:requests v) (:errors_5xx v) (:error_rate_pct v) (:p50_ms v) (:p95_ms v) (:p99_ms v) (:restarts v))))
(def verdict-euw1-50 (gate analysis-euw1-50 gates))
(println "verdict at 50:" verdict-euw1-50)
''', F=W_EUW50[0], T=W_EUW50[1]))

s.turn(fill("At 50 the two versions are close (p99 ratio <<R>>). eu-west-1-prod to 100:", R=G_EUW50["ratio"]), fill(r'''
(def step-euw1-100 (tool/ro-rollout-step {:cluster "eu-west-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                          :image image-ref :step "promote" :weight 100 :analysis_id "<<AR>>"}))
(println (:rollout_id step-euw1-100) (:status step-euw1-100) "weight" (:weight step-euw1-100) "at" (:at step-euw1-100)
         "completed" (:completed_at step-euw1-100) "| scaled down" (:scaled_down step-euw1-100))
(println "replicas" (:replicas step-euw1-100) "|" (count (:new_pods step-euw1-100)) "new pods:"
         (str/join ", " (map :name (:new_pods step-euw1-100))))
''', CR=w.CR_ID, AR=AR_EUW50))

s.prose(fill('''eu-west-1-prod is done: 4.18.0 at 100 since <<DONE>>, rollout <<RLT>>, change <<CR>> revision 2 (release digest <<D>>, re-pinned after the stale mirror). Analyses: <<A10>> at 10 (p99 <<P10>> vs <<S10>> ms, 5xx <<E10>>% vs <<SE10>>%) and <<A50>> at 50 (p99 ratio <<R50>>); the first, staging-based verdict (<<AS>>) was discarded.

Next: check the finished cluster, then eu-central-1-prod (10 -> 100, done before the payroll blackout at <<BS>>; HPA at 11 of 12, <<F>>m CPU free), then us-east-1-prod (before the freeze at <<FS>>).''',
    DONE=w.COMPLETED[EUW], RLT=w.rollout_id(EUW), CR=w.CR_ID, D=w.D_REL, A10=AR_EUW10, P10=G_EUW10["p99"],
    S10=G_EUW10["st_p99"], E10=G_EUW10["err"], SE10=G_EUW10["st_err"], A50=AR_EUW50, R50=G_EUW50["ratio"], AS=AR_STG,
    BS=HM(CAL[BLK_EU]["start"]), F=FREE_EUC, FS=HM(CAL[FRZ_US]["start"])))

s.turn("That was meant to come with code. Checking eu-west-1-prod after the promotion:", r'''
(def euw1-after (tool/k8s-workloads {:cluster "eu-west-1-prod" :namespace "checkout-api"}))
(let [ro (first (filter #(= "Rollout" (:kind %)) (:workloads euw1-after)))
      api (filter #(= "checkout-api" (:deployment %)) (:pods euw1-after))]
  (println (:name ro) "rev" (:revision ro) (:status ro) "weight" (:canary_weight ro) "ready" (str (:ready ro) "/" (:desired ro)))
  (println "  stable" (get-in ro [:stable :replicaset]) (get-in ro [:stable :version]) (get-in ro [:stable :image]))
  (println "  versions" (frequencies (map :version api)) "| restarts" (reduce + (map :restarts api)))
  (doseq [[node ps] (sort-by key (group-by :node api))]
    (println "    " node (mapv :name ps))))
(let [h (first (:hpas (tool/k8s-hpa {:cluster "eu-west-1-prod" :namespace "checkout-api"})))]
  (println "hpa" (:name h) (:current_replicas h) "replicas, cpu" (str (:current_cpu_pct h) "%") "of" (str (:target_cpu_pct h) "%")))
''')

s.turn("All nine pods on 4.18.0, spread over the five nodes, no restarts. eu-central-1-prod, canary at 10:", fill(r'''
(def step-euc1-10 (tool/ro-rollout-step {:cluster "eu-central-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                         :image image-ref :step "canary" :weight 10}))
(println (:rollout_id step-euc1-10) (:status step-euc1-10) "weight" (:weight step-euc1-10) "at" (:at step-euc1-10)
         "| replicas" (:replicas step-euc1-10))
(doseq [p (:new_pods step-euc1-10)]
  (println "  canary pod" (:name p) "on" (:node p) "started" (:started p)))
''', CR=w.CR_ID))

s.turn(fill("Canary since <<AT>>, two pods. Analysis <<F>>-<<T>>:", AT=w.STEPS[(EUC, 10)], F=HM(W_EUC10[0]), T=HM(W_EUC10[1])), fill(r'''
(def analysis-euc1 (tool/ro-canary-analysis {:cluster "eu-central-1-prod" :namespace "checkout-api"
                                             :from "<<F>>" :to "<<T>>"}))
(def verdict-euc1 (gate analysis-euc1))
(println "verdict:" verdict-euc1)
''', F=W_EUC10[0], T=W_EUC10[1]), "arity")

s.turn("gate takes the gates as its second argument.", fill(r'''
(def analysis-euc1 (tool/ro-canary-analysis {:cluster "eu-central-1-prod" :namespace "checkout-api"
                                             :from "<<F>>" :to "<<T>>"}))
(doseq [v (:versions analysis-euc1)]
  (println (format "%-7s %-7s pods %2d requests %6d 5xx %4d (%.2f%%) p50 %3d p95 %3d p99 %3d restarts %d" (:role v) (:version v)
                   (:pods v) (:requests v) (:errors_5xx v) (:error_rate_pct v) (:p50_ms v) (:p95_ms v) (:p99_ms v) (:restarts v))))
(def verdict-euc1 (gate analysis-euc1 gates))
(println "verdict:" verdict-euc1)
''', F=W_EUC10[0], T=W_EUC10[1]))

s.turn(fill("Pass (p99 ratio <<R>>). eu-central-1-prod to 100, well before the <<BS>> blackout:", R=G_EUC10["ratio"], BS=HM(CAL[BLK_EU]["start"])), fill(r'''
(def step-euc1-100 (tool/ro-rollout-step {:cluster "eu-central-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                          :image image-ref :step "promote" :weight 100 :analysis_id "<<AR>>"}))
(println (:rollout_id step-euc1-100) (:status step-euc1-100) "at" (:at step-euc1-100) "completed" (:completed_at step-euc1-100)
         "| scaled down" (:scaled_down step-euc1-100) "| replicas" (:replicas step-euc1-100))
(println "minutes before the blackout:" (- (mins "<<BS>>") (mins (:completed_at step-euc1-100))))
''', CR=w.CR_ID, AR=AR_EUC10, BS=CAL[BLK_EU]["start"]))

s.turn("Done there. us-east-1-prod, canary at 10:", fill(r'''
(def step-use1-10 (tool/ro-rollout-step {:cluster "us-east-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                         :image image-ref :step "canary" :weight 10}))
(println (:rollout_id step-use1-10) (:status step-use1-10) "weight" (:weight step-use1-10) "at" (:at step-use1-10)
         "| replicas" (:replicas step-use1-10))
(doseq [p (:new_pods step-use1-10)]
  (println "  canary pod" (:name p) "on" (:node p) "started" (:started p)))
''', CR=w.CR_ID))

s.turn(fill("Canary since <<AT>>. Analysis <<F>>-<<T>>:", AT=w.STEPS[(USE, 10)], F=HM(W_USE10[0]), T=HM(W_USE10[1])), fill(r'''
(def analysis-use1 (tool/ro-canary-analysis {:cluster "us-east-1-prod" :namespace "checkout-api"
                                             :from "<<F>>" :to "<<T>>"}))
(doseq [v (:versions analysis-use1)]
  (println (format "%-7s %-7s pods %2d requests %6d 5xx %4d (%.2f%%) p50 %3d p95 %3d p99 %3d restarts %d" (:role v) (:version v)
                   (:pods v) (:requests v) (:errors_5xx v) (:error_rate_pct v) (:p50_ms v) (:p95_ms v) (:p99_ms v) (:restarts v))))
(def verdict-use1 (gate analysis-use1 gates))
(println "verdict:" verdict-use1)
''', F=W_USE10[0], T=W_USE10[1]))

s.turn(fill("Pass (p99 ratio <<R>>). us-east-1-prod to 100:", R=G_USE10["ratio"]), fill(r'''
(def step-use1-100 (tool/ro-rollout-step {:cluster "us-east-1-prod" :namespace "checkout-api" :change_id "<<CR>>"
                                          :image image-ref :step "promote" :weight 100 :analysis_id "<<AR>>"}))
(println (:rollout_id step-use1-100) (:status step-use1-100) "at" (:at step-use1-100) "completed" (:completed_at step-use1-100)
         "| scaled down" (:scaled_down step-use1-100) "| replicas" (:replicas step-use1-100))
(println "minutes before the US freeze:" (- (mins "<<FS>>") (mins (:completed_at step-use1-100))))
''', CR=w.CR_ID, AR=AR_USE10, FS=CAL[FRZ_US]["start"]))

s.turn(fill("All three at 100. Verifying the fleet: versions, digests, restarts, and whether the restarting pod <<K>> is gone:", K=K4M2Z), fill(r'''
(def fleet-after (zipmap (:clusters req) (pmap #(tool/k8s-workloads {:cluster % :namespace "checkout-api"}) (:clusters req))))
(def hpas-after (zipmap (:clusters req) (pmap #(first (:hpas (tool/k8s-hpa {:cluster % :namespace "checkout-api"}))) (:clusters req))))
(doseq [c (:clusters req)]
  (let [wl (fleet-after c)
        ro (first (filter #(= "Rollout" (:kind %)) (:workloads wl)))
        api (filter #(= "checkout-api" (:deployment %)) (:pods wl))
        h (hpas-after c)]
    (println (format "%-18s rev %d %-7s %2d/%2d pods %s restarts %d | hpa %d..%d at %d, cpu %d%%" c (:revision ro) (:status ro)
                     (:ready ro) (:desired ro) (frequencies (map :version api)) (reduce + (map :restarts api))
                     (:min_replicas h) (:max_replicas h) (:current_replicas h) (:current_cpu_pct h)))
    (println "   " (get-in ro [:stable :image]) "| release digest:" (str/ends-with? (get-in ro [:stable :image]) image-digest))))
(println "<<P>> still running:"
         (boolean (some #(= "<<P>>" (:name %)) (:pods (fleet-after "us-east-1-prod")))))
''', P=w.POD_K4M2Z))

s.turn("Everything on the release digest, the old pod gone with its replica set. The announcement, from the verdicts and step results:", fill(r'''
(def verdicts [canary-verdict verdict-euc1 verdict-use1])
(def completed {"eu-west-1-prod" (:completed_at step-euw1-100) "eu-central-1-prod" (:completed_at step-euc1-100)
                "us-east-1-prod" (:completed_at step-use1-100)})
(def announcement
  (str/join "\n"
    (concat
      [(str ":rocket: checkout-api 4.18.0 is live in " (str/join ", " (:clusters req)) " (" (:ticket req) ", " (:change_id cr) ")")
       (str "image: " image-ref " (release build <<B1>>)")]
      (for [v verdicts]
        (format "%s: canary %s p99 %d vs %d ms (x%s), 5xx %.2f%% vs %.2f%%%s; 100%% at %s" (:cluster v) (:analysis v)
                (:canary-p99 v) (:stable-p99 v) (:p99-ratio v) (:canary-error-pct v) (:stable-error-pct v)
                (if (= "eu-west-1-prod" (:cluster v))
                  (str ", then " (:analysis verdict-euw1-50) " at 50 x" (:p99-ratio verdict-euw1-50))
                  "")
                (completed (:cluster v))))
      ["Fixes the redis pool exhaustion of <<CHK>> (<<P>> in us-east-1-prod had restarted 4 times on 4.17.3)."
       "Heads-up: <<M>> has not synced since <<SYNC>> and still lists the withdrawn first 4.18.0 build; pin by digest."
       "Watch: tax-v2 upstream timeouts (<<TAX>>=800) make most of the canary 5xx."])))
(println announcement)
(println (count announcement) "characters")
''', B1=w.BUILD_REL, CHK=w.CHKOUT, P=w.POD_K4M2Z, M=MIRROR_EUW, SYNC=w.MIRROR_SYNC[MIRROR_EUW], TAX=w.TAX_ENV))

s.cut("Posting it to #checkout-releases, with the change and rollout ids appended:", fill(r'''
(def post (tool/ro-post {:channel "#checkout-releases"
                         :text (str announcement "\n" "Change: https://change.fernhill.io/<<CR>> | rollouts: "
                                    (str/join ", " [(:rollout_id step-euw1-100) (:rollout_id step-euc1-100)
''', CR=w.CR_ID))

s.turn("The answer was cut off; posting again, complete:", fill(r'''
(def post (tool/ro-post {:channel "#checkout-releases"
                         :text (str announcement "\n" "Change: https://change.fernhill.io/<<CR>> | rollouts: "
                                    (str/join ", " [(:rollout_id step-euw1-100) (:rollout_id step-euc1-100)
                                                    (:rollout_id step-use1-100)]))}))
(println (:ok post) (:channel post) (:ts post) (:posted_at post) (:permalink post))
''', CR=w.CR_ID))

s.turn(fill("Posted. Closing <<CR>> as implemented:", CR=w.CR_ID), fill(r'''
(def cr-closed (tool/ro-change-request
                 {:amends "<<CR>>" :status "implemented"
                  :note "implemented: eu-west-1-prod 100% at <<T1>>, eu-central-1-prod at <<T2>>, us-east-1-prod at <<T3>>; all gates passed; announced <<PL>>"}))
(println (:change_id cr-closed) "rev" (:revision cr-closed) (:status cr-closed) "changed" (:changed cr-closed) "at" (:at cr-closed))
''', CR=w.CR_ID, T1=w.COMPLETED[EUW], T2=w.COMPLETED[EUC], T3=w.COMPLETED[USE], PL=POST["permalink"]))

s.turn("Done. The rollout report:", fill(r'''
(return
  {:ticket "PLAT-4471"
   :service "checkout-api" :version "4.18.0"
   :change {:id "<<CR>>" :url "https://change.fernhill.io/<<CR>>"
            :revisions [{:rev 1 :at "<<C1>>" :what "filed, image pinned from the stale mirror (the withdrawn first build)"}
                        {:rev 2 :at "<<C2>>" :what "image re-pinned to the release digest"}
                        {:rev 3 :at "<<C3>>" :what "implemented"}]}
   :image {:ref image-ref :digest "<<D>>" :build "<<B1>>" :pushed "<<P>>"
           :refused {:digest image-digest-mirror :why "mirror-euw1's 4.18.0: withdrawn first build, ci-prerelease signature only"}}
   :clusters [{:cluster "eu-west-1-prod" :rollout "<<RW>>" :completed "<<T1>>" :pods 9
               :analyses [{:id "<<A10>>" :weight 10 :canary-requests <<Q10>> :p99-ms [<<P10>> <<S10>>] :error-pct [<<E10>> <<SE10>>] :p99-ratio <<R10>>}
                          {:id "<<A50>>" :weight 50 :p99-ratio <<R50>>}]
               :discarded-analysis {:id (:analysis canary-verdict-staging) :why "namespace checkout-api-staging"}}
              {:cluster "eu-central-1-prod" :rollout "<<RC>>" :completed "<<T2>>" :pods 11
               :analyses [{:id "<<AC>>" :weight 10 :canary-requests <<QC>> :p99-ms [<<PC>> <<SC>>] :error-pct [<<EC>> <<SEC>>] :p99-ratio <<RCR>>}]}
              {:cluster "us-east-1-prod" :rollout "<<RU>>" :completed "<<T3>>" :pods 14
               :analyses [{:id "<<AU>>" :weight 10 :canary-requests <<QU>> :p99-ms [<<PU>> <<SU>>] :error-pct [<<EU>> <<SEU>>] :p99-ratio <<RUR>>}]}]
   :calendar [{:id "<<MNT>>" :cluster "eu-west-1-prod" :from "<<MSF>>" :kind "maintenance"}
              {:id "<<BLK>>" :cluster "eu-central-1-prod" :from "<<BSF>>" :to "<<BEF>>" :kind "blackout"}
              {:id "<<FRZ>>" :cluster "us-east-1-prod" :from "<<FSF>>" :kind "freeze"}]
   :incidents {:blocking [] :reviewed ["#<<HPA>>" "#<<OOM>>" "#<<TAXI>>" "#<<WEB>> <<WEBS>>" "#<<PAY>> <<PAYS>>" "#<<WRK>> <<WRKS>>"]}
   :announcement (:permalink post)
   :follow-ups [{:what "registry mirror stuck, lists the withdrawn 4.18.0 build" :registry "<<M>>" :last-sync "<<SYNC>>"}
                {:what "tax-v2 upstream timeouts are most of the canary 5xx; review the timeout with the tax team" :env "<<TAX>>" :value-ms 800}
                {:what "eu-central-1-prod HPA at 11 of 12 replicas; raise maxReplicas, add a node" :free-cpu-m <<F>>
                 :tightest-node "<<TN>>" :postmortem "<<PM>>" :incident "#<<HPA>>"}
                {:what "fixed by REDIS_POOL_SIZE 128 in 4.18.0" :issue "<<CHK>>" :pod "<<POD>>" :node "<<NODE>>" :restarts 4}]})
''', CR=w.CR_ID, C1=w.CR_CREATED, C2=w.CR_AMENDED, C3=w.CR_CLOSED, D=w.D_REL, B1=w.BUILD_REL, P=w.PUSH_REL,
    RW=w.rollout_id(EUW), T1=w.COMPLETED[EUW], A10=AR_EUW10, Q10=G_EUW10["req"], P10=G_EUW10["p99"],
    S10=G_EUW10["st_p99"], E10=G_EUW10["err"], SE10=G_EUW10["st_err"], R10=G_EUW10["ratio"], A50=AR_EUW50,
    R50=G_EUW50["ratio"], RC=w.rollout_id(EUC), T2=w.COMPLETED[EUC], AC=AR_EUC10, QC=G_EUC10["req"],
    PC=G_EUC10["p99"], SC=G_EUC10["st_p99"], EC=G_EUC10["err"], SEC=G_EUC10["st_err"], RCR=G_EUC10["ratio"],
    RU=w.rollout_id(USE), T3=w.COMPLETED[USE], AU=AR_USE10, QU=G_USE10["req"], PU=G_USE10["p99"],
    SU=G_USE10["st_p99"], EU=G_USE10["err"], SEU=G_USE10["st_err"], RUR=G_USE10["ratio"], MNT=MNT_EUW,
    MS=HM(CAL[MNT_EUW]["start"]), BLK=BLK_EU, BS=HM(CAL[BLK_EU]["start"]), BE=HM(CAL[BLK_EU]["end"]), FRZ=FRZ_US,
    FS=HM(CAL[FRZ_US]["start"]), HPA=I_HPA, OOM=I_OOM, TAXI=I_TAX, WEB=I_WEB, WEBS=INC[I_WEB]["service"], PAY=I_PAY,
    PAYS=INC[I_PAY]["service"], WRK=I_WRK, WRKS=INC[I_WRK]["service"], M=MIRROR_EUW, SYNC=w.MIRROR_SYNC[MIRROR_EUW],
    TAX=w.TAX_ENV, F=FREE_EUC, PM=w.POSTMORTEM, CHK=w.CHKOUT, POD=w.POD_K4M2Z, NODE=w.NODE_K4M2Z,
    MSF=CAL[MNT_EUW]["start"], BSF=CAL[BLK_EU]["start"], BEF=CAL[BLK_EU]["end"], FSF=CAL[FRZ_US]["start"],
    TN=TIGHT_EUC), "return")

if __name__ == "__main__":
    t.reset()  # the clusters as they were in the morning: build.py starts the run next
    s.write(__file__)
