# -*- coding: utf-8 -*-
FEEDBACK = [
    (1, "ja", 2, "sakura-kettle", "桜ケトルを購入しました。デザインはとても可愛いですが、お湯が沸くまでに時間がかかりすぎます。取っ手も熱くなるので注意が必要です。☕️",
     "I bought the Sakura Kettle. The design is very cute, but it takes far too long to boil water. The handle also gets hot, so be careful. ☕️"),
    (2, "zh", 5, "sakura-kettle", "樱花水壶颜色很漂亮，烧水很快，送给妈妈当生日礼物，她非常喜欢！🌸🌸🌸 包装也很精致，物流三天就到了。",
     "The cherry-blossom kettle has a beautiful colour and boils water quickly. I gave it to my mum as a birthday present and she loves it! 🌸🌸🌸 The packaging is lovely too and delivery took three days."),
    (3, "en", 4, "sakura-kettle", "Lovely kettle 🌸 — pours cleanly, the lid clicks shut and it looks great on the counter. Only gripe: the cherry-blossom print is already fading after a month 😕",
     "Lovely kettle 🌸 — pours cleanly, the lid clicks shut and it looks great on the counter. Only gripe: the cherry-blossom print is already fading after a month 😕"),
    (4, "ja", 3, "sakura-kettle", "見た目は最高🌸。でも蓋の閉まりが少し甘くて、注ぐときに水滴が垂れます。値段を考えると普通かな…",
     "It looks great 🌸. But the lid doesn't close tightly and water drips when pouring. Considering the price, it's just okay..."),
    (5, "ko", 1, "sakura-kettle", "주전자 바닥에서 물이 샙니다. 교환을 요청했지만 아직 답이 없어요. 👎👎 다시는 안 살 거예요.",
     "The kettle leaks from the bottom. I asked for an exchange but there is still no answer. 👎👎 I will never buy it again."),
    (6, "fr", 5, "matcha-whisk", "Le fouet à matcha est parfait : la mousse est fine et légère. Livre\u0301 avec un joli e\u0301tui en bambou. Mon the\u0301 du matin n'a jamais été aussi bon ! 🍵",
     "The matcha whisk is perfect: the foam is fine and light. Delivered with a nice bamboo case. Coffee and tea have never been this good! 🍵"),
    (7, "vi", 4, "tea-set", "Bộ ấm trà rất đẹp, men sứ mịn, nhưng hộp bị móp một góc khi giao hàng. Gia đình tôi 👨‍👩‍👧 dùng mỗi ngày.",
     "The tea set is very beautiful with smooth glaze, but the box had a dented corner on delivery. My family 👨‍👩‍👧 uses it every day."),
    (8, "de", 5, "matcha-whisk", "Großartiger Besen! Schäumt den Matcha in Sekunden auf, fühlt sich hochwertig an. Würde ich sofort wieder kaufen. 🇯🇵➡️🇩🇪",
     "Great whisk! Froths the matcha in seconds and feels high quality. I would buy it again right away. 🇯🇵➡️🇩🇪"),
    (9, "ar", 4, "tea-set", "طقم الشاي جميل جداً والتغليف ممتاز، لكن الأكواب أصغر مما توقعت. ⭐⭐⭐⭐",
     "The tea set is very beautiful and the packaging is excellent, but the cups are smaller than I expected. ⭐⭐⭐⭐"),
    (10, "ja", 5, "tea-set", "急須と湯呑みのセット、手触りが良くて毎朝使っています。桜ケトルと一緒に使うと統一感があって素敵です✨",
     "A set of teapot and cups with a nice feel; I use it every morning. Used together with the Sakura Kettle it looks coordinated and lovely ✨"),
]


def q(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


TOOL_IMPL = '''
(def translations {%s})
{"translate" (fn [{:keys [text target]}]
               (if (= target "en")
                 (if-let [[src en] (get translations text)] {:text en :source_lang src} (terr "could not detect language"))
                 (terr (str "unsupported target language " target))))}
''' % " ".join(q(t) + " [" + q(lang) + " " + q(en) + "]" for (_, lang, _, _, t, en) in FEEDBACK)

SESSION = {
    "agent": "testimonial-finder",
    "mission": "Find a Japanese customer review of the Sakura Kettle (桜ケトル) rated 4 or more in data/feedback and return "
               "its English translation for use as a testimonial. If there is none, fail with a short explanation.",
    "max_turns": 12,
    "tools": [{"name": "translate", "signature": "(text :string, target :string) -> {text :string, source_lang :string}",
               "description": "Machine translation; target is an ISO 639-1 code such as \"en\""}],
    "tool_impl": TOOL_IMPL,
    "tool_latency": {"translate": [150, 420]},
    "seed": 23,
    "data": {"feedback": "[" + " ".join('{:id %d :lang %s :rating %d :product %s :text %s}' % (i, q(l), r, q(p), q(t))
                                        for (i, l, r, p, t, _) in FEEDBACK) + "]"},
    "turns": [
        T("Let me see how much feedback there is and what a record looks like.",
          "(count data/feedback)\n(first data/feedback)"),
        T("Which languages are present?",
          "(def langs (frequencies (map :lang data/feedback)))"),
        T("I'll look for reviews that mention 桜ケトル in the text.",
          "(def kettle (filterv #(str/includes? (:text %) \"桜ケトル\") data/feedback))\n(mapv (juxt :id :lang :rating :product) kettle)"),
        T("Review 10 is about a tea set, it only mentions the kettle. The :product field is more reliable.",
          "(def kettle (filterv #(= \"sakura-kettle\" (:product %)) data/feedback))\n(mapv (juxt :id :lang :rating) kettle)"),
        T("I'll translate all kettle reviews to English so I can read them.",
          "(def translated\n  (mapv (fn [f] (assoc f :en (:text (tool/translate :text (:text f) :target \"en\")))) kettle))"),
        T("Let me read the translations.",
          "(doseq [t translated] (println (:id t) (:lang t) (str (:rating t) \"★\") (:en t)))"),
        T("And the original texts, to check nothing was lost in translation.",
          "(println (str/join \"\\n\" (map #(str (:id %) \" \" (:text %)) kettle)))"),
        T("Now the ones rated 4 or more, and among them the Japanese ones.",
          "(def high (filterv #(>= (:rating %) 4) kettle))\n(def jp-high (filterv #(= \"ja\" (:lang %)) high))\n[(mapv :id high) (mapv :id jp-high)]"),
        T("Maybe other reviews mention the kettle in other words (水壶, 주전자, kettle).",
          "(def mentions (filterv #(re-find #\"(?i)kettle|ケトル|水壶|주전자\" (:text %)) data/feedback))\n(mapv (juxt :id :lang :product :rating) mentions)"),
        T("Only reviews 1 and 4 are Japanese kettle reviews, and the tea-set review 10 only mentions it. Let me confirm their ratings.",
          "(println \"ja kettle ratings:\" (map (juxt :id :rating) (filter #(= \"ja\" (:lang %)) kettle)))\n(println \"review 10 product:\" (:product (first (filter #(= 10 (:id %)) data/feedback))))"),
        T("There is no qualifying review, so I have to fail with an explanation.",
          "(fail \"No Japanese review of 桜ケトル (sakura-kettle) is rated 4 or more: reviews #1 and #4 are rated 2 and 3 ⭐. The only 5★ Japanese review (#10) is about the tea set.\")"),
    ],
}
