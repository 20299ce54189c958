//! Request builders shared by the benchmarks.

use ptc_plugin_api::{Definition, FnDesc, RenderRequest, ToolCall, ToolSpec, Turn, Value};

/// A realistic session of `turns` completed turns: each defines a value and
/// a function, calls a tool twice and prints a line; every fifth fails.
/// `big` puts a 1,000,000-element vector and a 5 MB string in memory.
pub fn session(turns: u32, big: bool) -> RenderRequest {
    let mut req =
        RenderRequest::new("Find the three best-reviewed products in stock.", "You are a PTC-Lisp agent.", turns + 5)
            .with_tools(vec![
                ToolSpec::new(
                    "search",
                    Some("(query :string, limit :int) -> [{id :int, title :string}]".into()),
                    Some("Search products".into()),
                ),
                ToolSpec::new("reviews", Some("(id :int) -> {score :float, count :int}".into()), None),
            ]);
    for n in 1..=turns {
        let program = format!("(def r{n} (tool/search {{:query \"q{n}\" :limit 5}}))\n(println \"got\" (count r{n}))");
        let raw = format!("Searching.\n```clojure\n{program}\n```");
        let mut turn = Turn::new(n, raw, Some(program));
        if n % 5 == 0 {
            turn = turn.with_error(ptc_plugin_api::TurnError::new("unbound_symbol", format!("Undefined symbol: x{n}")));
        } else {
            let hits = Value::vector(
                (0..5)
                    .map(|i| {
                        Value::map(vec![
                            (Value::keyword("id"), Value::int(i)),
                            (Value::keyword("title"), Value::string(format!("Product {i}"))),
                        ])
                    })
                    .collect(),
            );
            let args = Value::map(vec![
                (Value::keyword("query"), Value::string(format!("q{n}"))),
                (Value::keyword("limit"), Value::int(5)),
            ]);
            let f = FnDesc::new(format!("score{n}"), vec!["p".into()]).with_return_type(Some("float".into()));
            turn = turn
                .with_result(Value::nil())
                .with_prints(vec![format!("got 5 for q{n}")])
                .with_tool_calls(vec![
                    ToolCall::new("search", args.clone(), Ok(hits.clone()), 3),
                    ToolCall::new("search", args, Ok(hits.clone()), 3),
                ])
                .with_definitions(vec![
                    Definition::new(format!("r{n}"), hits, None),
                    Definition::new(format!("score{n}"), Value::function(f), Some("Scores a product".into())),
                ]);
        }
        if n == 1 {
            let (vector, text) = if big {
                (Value::vector((0..1_000_000).map(Value::int).collect()), Value::string("x".repeat(5 * 1024 * 1024)))
            } else {
                (Value::vector((0..10).map(Value::int).collect()), Value::string("x".repeat(50)))
            };
            let mut defs = turn.definitions().to_vec();
            defs.push(Definition::new("ids", vector, None));
            defs.push(Definition::new("page", text, None));
            turn = turn.with_definitions(defs);
        }
        req.push_turn(turn);
    }
    req
}
