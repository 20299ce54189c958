TOOL_IMPL = r'''
(def calendars
  {"alice" [{:day "Mon" :start "09:00" :end "12:00" :title "Quarterly planning"}
            {:day "Mon" :start "13:00" :end "17:00" :title "Customer visit"}
            {:day "Tue" :start "10:00" :end "11:00" :title "1:1 with Bob"}
            {:day "Wed" :start "09:30" :end "10:00" :title "Standup"}
            {:day "Thu" :start "14:00" :end "16:30" :title "Design review"}]
   "bob"   [{:day "Tue" :start "09:00" :end "12:30" :title "Hiring loop"}
            {:day "Tue" :start "10:00" :end "11:00" :title "1:1 with Alice"}
            {:day "Wed" :start "09:30" :end "10:00" :title "Standup"}
            {:day "Wed" :start "13:00" :end "15:00" :title "Vendor call"}
            {:day "Fri" :start "09:00" :end "17:00" :title "Out of office"}]
   "chen"  [{:day "Mon" :start "09:00" :end "17:00" :title "Training"}
            {:day "Tue" :start "13:00" :end "15:00" :title "Focus time"}
            {:day "Wed" :start "09:30" :end "10:00" :title "Standup"}
            {:day "Wed" :start "10:00" :end "12:00" :title "Incident postmortem"}
            {:day "Thu" :start "09:00" :end "11:00" :title "Focus time"}]
   "dana"  [{:day "Tue" :start "15:30" :end "17:00" :title "Dentist"}
            {:day "Wed" :start "09:30" :end "10:00" :title "Standup"}
            {:day "Wed" :start "15:00" :end "16:00" :title "Budget sync"}
            {:day "Thu" :start "12:00" :end "13:00" :title "Lunch & learn"}]})
(def rooms [{:id "R-101" :name "Fjord" :capacity 4 :floor 1}
            {:id "R-204" :name "Tundra" :capacity 8 :floor 2}
            {:id "R-105" :name "Atoll" :capacity 6 :floor 1}
            {:id "R-310" :name "Canyon" :capacity 12 :floor 3}
            {:id "R-102" :name "Cove" :capacity 2 :floor 1}])
{"get-calendar" (fn [{:keys [person week]}]
                  (if (= week "2024-W23") (get calendars person []) (terr "week not available")))
 "list-rooms" (fn [{:keys [capacity]}] (filterv #(>= (:capacity %) capacity) rooms))
 "book-room" (fn [{:keys [room-id day start minutes]}]
               (if (and (= room-id "R-101") (= day "Wed") (= start "12:00"))
                 {:ok false :booking_id nil :reason "R-101 is already booked at that time"}
                 {:ok true :booking_id (str "BK-" room-id "-" day "-" (subs start 0 2)) :reason nil}))}
'''

SESSION = {
    "agent": "meeting-planner",
    "mission": "Find the earliest one-hour slot in week data/week (working hours 9:00-17:00) when everyone in data/team "
               "is free, book the smallest room that fits the team, and return the day, start time, room name and booking id.",
    "max_turns": 12,
    "tools": [
        {"name": "get-calendar",
         "signature": "(person :string, week :string) -> [{day :string, start :string, end :string, title :string}]",
         "description": "Busy blocks of one person for an ISO week"},
        {"name": "list-rooms", "signature": "(capacity :int) -> [{id :string, name :string, capacity :int, floor :int}]",
         "description": "Meeting rooms with at least that capacity"},
        {"name": "book-room",
         "signature": "(room-id :string, day :string, start :string, minutes :int) -> {ok :bool, booking_id :string?, reason :string?}",
         "description": "Books a room; ok is false when the room is taken"},
    ],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"get-calendar": [60, 180], "list-rooms": [20, 50], "book-room": [90, 250]},
    "seed": 17,
    "data": {"team": '["alice" "bob" "chen" "dana"]', "week": '"2024-W23"'},
    "turns": [
        T("First I'll fetch everyone's calendar for the week.",
          "(def cals\n  (into {} (map (fn [p] [p (tool/get-calendar {:person p :week data/week})]) data/team)))"),
        T("I need the times in minutes. Let me add a helper and group all busy blocks by day.",
          "(defn to-min [t]\n  (let [[h m] (str/split t #\":\")]\n    (+ (* 60 (parse-long h)) (parse-long m))))\n(def busy (group-by :day (mapcat val cals)))\n(update-vals busy count)"),
        T("Now the one-hour slots on the hour where nobody has an overlapping block.",
          "(defn free? [day start]\n  (not-any? #(and (< start (to-min (:end %))) (> (+ start 60) (to-min (:start %))))\n            (get busy day)))\n(def slots (for [d [\"Mon\" \"Tue\" \"Wed\" \"Thu\" \"Fri\"] h (range 9 17) :when (free? d (* 60 h))] [d h]))\n(println (count slots) \"free slots:\" (take 5 slots))"),
        T("",
          "(def rooms (tool/list-rooms {:capacity (count data/team)}))"),
        T("I'll take the smallest room that fits.",
          "(def room (first (sort-by :capacity (filter #(>= (:capacity %) data/team) rooms))))\nroom",
          error=("type", ">=: expected number, got vector")),
        T("I compared against the team vector instead of its size.",
          "(def room (first (sort-by :capacity (filter #(>= (:capacity %) (count data/team)) rooms))))\n(println \"room:\" room)"),
        T("Book the earliest slot.",
          "(def slot (first slots))\n(def booking (tool/book-room {:room-id (:id room) :day (first slot) :start (format \"%02d:00\" (second slot)) :minutes 60}))\nbooking"),
        T("The room is taken then. I'll try the next free slot.",
          "(def slot (second slots))\n(def booking (tool/book-room {:room-id (:id room) :day (first slot) :start (format \"%02d:00\" (second slot)) :minutes 60}))\n(println booking)"),
        T("Booked. Let me print a confirmation line.",
          "(println \"Booked\" (:booking_id booking) \"-\" (:name room) \"floor\" (:floor room) \"on\" (first slot) (format \"%02d:00\" (second slot)))"),
        T("Returning the booking.",
          "(return {:day (first slot) :start (format \"%02d:00\" (second slot)) :room (:name room) :booking-id (:booking_id booking)})"),
    ],
}
