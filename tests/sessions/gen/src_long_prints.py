import random

rnd = random.Random(21)
PATHS = [("/api/orders", 14), ("/index.html", 11), ("/api/products", 9), ("/static/app.js", 8), ("/api/checkout", 7),
         ("/login", 6), ("/api/cart", 5), ("/wp-admin/setup.php", 4), ("/favicon.ico", 3), ("/.env", 2)]
IPS = [("198.51.100.23", 15), ("203.0.113.7", 12), ("192.0.2.44", 10), ("198.51.100.90", 9), ("203.0.113.150", 8),
       ("192.0.2.201", 6), ("45.33.12.9", 5), ("185.220.101.4", 4)]
paths = [p for p, n in PATHS for _ in range(n)]
ips = [i for i, n in IPS for _ in range(n)]
rnd.shuffle(paths)
rnd.shuffle(ips)
# scanners hit the suspicious paths
for k, p in enumerate(paths):
    if p in ("/wp-admin/setup.php", "/.env"):
        j = ips.index("185.220.101.4") if "185.220.101.4" in ips[k:] else None
        j = next((m for m in range(len(ips)) if ips[m] in ("185.220.101.4", "45.33.12.9") and m >= k), None)
        if j is not None:
            ips[k], ips[j] = ips[j], ips[k]
times = sorted("2024-05-14T%02d:%02d:%02dZ" % (rnd.choice([8, 9, 9, 10, 10, 10, 11, 12, 13, 14, 14, 15, 16, 17]),
                                                rnd.randint(0, 59), rnd.randint(0, 59)) for _ in paths)
lines = []
for k, (p, ip) in enumerate(zip(paths, ips)):
    method = "POST" if p in ("/api/checkout", "/login") and rnd.random() < 0.7 else "GET"
    if p in ("/wp-admin/setup.php", "/.env"):
        status = 404
    elif p == "/api/checkout" and k % 3 == 0:
        status = 500
    elif p == "/login" and k % 4 == 1:
        status = 401
    elif p == "/index.html" and k % 5 == 0:
        status = 304
    else:
        status = 200
    size = 0 if status == 304 else rnd.randint(180, 9000)
    lines.append("%s [%s] %s %s %d %d" % (ip, times[k], method, p, status, size))
LOG = "\n".join(lines)

GEO = {"198.51.100.23": ("NL", "Example Hosting BV"), "203.0.113.7": ("US", "TestNet Cloud"),
       "192.0.2.44": ("DE", "Doc Telecom"), "198.51.100.90": ("NL", "Example Hosting BV"),
       "203.0.113.150": ("US", "TestNet Cloud"), "192.0.2.201": ("FR", "Exemple SAS"),
       "45.33.12.9": ("US", "Linode"), "185.220.101.4": ("DE", "Tor exit relay")}
TOOL_IMPL = '''
(def geo {%s})
{"geo-ip" (fn [{:keys [ip]}]
            (if-let [[c o] (get geo ip)] {:ip ip :country c :org o} (terr (str "no data for " ip))))}
''' % " ".join('"%s" ["%s" "%s"]' % (k, c, o) for k, (c, o) in GEO.items())


def edn_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n') + '"'


SESSION = {
    "agent": "log-analyst",
    "mission": "Analyze the web server log in data/access_log. Report the status code distribution, the most requested "
               "paths, the traffic per hour, and which IPs (with country) cause 4xx/5xx errors. Return a summary map.",
    "max_turns": 12,
    "tools": [{"name": "geo-ip", "signature": "(ip :string) -> {ip :string, country :string, org :string}",
               "description": "Country and network owner of an IPv4 address"}],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"geo-ip": [25, 70]},
    "seed": 3,
    "data": {"access_log": edn_string(LOG)},
    "turns": [
        T("Let me split the log into lines and look at the beginning.",
          "(def lines (str/split-lines data/access_log))\n(println \"lines:\" (count lines))\n(println (first lines))"),
        T("A few more lines to see the variety.",
          "(doseq [l (take 6 (drop 1 lines))] (println l))"),
        T("The format is `ip [timestamp] method path status bytes`. I'll parse every line into a map.",
          "(defn parse-line [l]\n  (let [[_ ip ts method path status bytes] (re-find #\"^(\\S+) \\[([^\\]]+)\\] (\\w+) (\\S+) (\\d+) (\\d+)$\" l)]\n    {:ip ip :ts ts :method method :path path :status (parse-long status) :bytes (parse-long bytes)}))\n(def entries (mapv parse-line lines))\n(println (first entries))\n(println (last entries))"),
        T("Status code distribution:",
          "(def status-counts (frequencies (map :status entries)))\n(doseq [[s n] (sort status-counts)] (println s n))"),
        T("Most requested paths, as a small table.",
          "(def path-counts (sort-by val > (frequencies (map :path entries))))\n(println (str/join \"\\n\" (map (fn [[p n]] (format \"%-22s %3d\" p n)) path-counts)))"),
        T("Now all requests that ended in a server error, in full.",
          "(def server-errors (filterv #(>= (:status %) 500) entries))\n(println \"5xx count:\" (count server-errors))\n(println server-errors)"),
        T("And the client errors, grouped by IP.",
          "(def client-errors (filterv #(<= 400 (:status %) 499) entries))\n(println (count client-errors) \"client errors:\" (mapv (juxt :ts :ip :status :path) client-errors))\n(def errors-by-ip (update-vals (group-by :ip client-errors) #(mapv (juxt :status :path) %)))\n(doseq [[ip errs] errors-by-ip] (println ip errs))"),
        T("Let me look up where the error-causing IPs come from.",
          "(def error-ips (distinct (map :ip (concat client-errors server-errors))))\n(def geo (mapv #(tool/geo-ip {:ip %}) error-ips))\n(doseq [g geo] (println (:ip g) \"->\" (:country g) (:org g)))"),
        T("Traffic per hour as a histogram.",
          "(def per-hour (sort (frequencies (map #(subs (:ts %) 11 13) entries))))\n(doseq [[h n] per-hour] (println (str h \":00\") (apply str (repeat n \"#\")) n))"),
        T("The scanner-looking paths (/wp-admin, /.env) deserve a closer look: every raw line that touched them.",
          "(def suspicious (filterv #(re-find #\"wp-admin|\\.env\" %) lines))\n(println (str/join \"\\n\" suspicious))\n(println \"bytes served to scanners:\" (reduce + (map #(:bytes (parse-line %)) suspicious)))"),
        T("I'll also print a full report block before returning, so the numbers are in one place.",
          "(def report\n  {:total (count entries)\n   :status status-counts\n   :top-paths (take 5 path-counts)\n   :busiest-hour (first (apply max-key second per-hour))\n   :error-ips (mapv (juxt :ip :country) geo)})\n(println \"REPORT\\n\" report)"),
        T("Before returning, let me double-check the failed logins and the bytes per status, since the report should mention them.",
          "(doseq [e (filter #(= 401 (:status %)) entries)] (println (:ts e) (:ip e) (:method e) (:path e)))\n(println \"bytes by status:\" (update-vals (group-by :status entries) #(reduce + (map :bytes %))))"),
    ],
}
