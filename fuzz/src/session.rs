//! Session files: real ones from the corpus with one JSON value replaced,
//! removed or added, or their text cut; and JSON of any shape.

use proptest::prelude::*;
use serde_json::Value;

/// A JSON value of any shape, with strings that are EDN now and then (a
/// session's values are EDN inside JSON strings).
pub fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop::sample::select(vec![u64::MAX, 0, 1, 4_294_967_296]).prop_map(Value::from),
        any::<f64>().prop_map(|x| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)),
        crate::edn::text().prop_map(Value::String),
        crate::any_text(20).prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec(("[a-z_]{1,10}", inner), 0..4)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// How one corpus file is changed.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// The value at the `n`-th place (depth first) becomes another.
    Replace(prop::sample::Index, Value),
    /// The `n`-th place is removed from its object or array.
    Remove(prop::sample::Index),
    /// An entry is added to the `n`-th object.
    Add(prop::sample::Index, String, Value),
    /// The text is cut.
    Cut(prop::sample::Index),
}

/// A corpus file (by index) and what happens to it.
pub fn mutation() -> impl Strategy<Value = (prop::sample::Index, Mutation)> {
    let mutation = prop_oneof![
        4 => (any::<prop::sample::Index>(), json()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        2 => any::<prop::sample::Index>().prop_map(Mutation::Remove),
        1 => (any::<prop::sample::Index>(), "[a-z_]{1,12}", json()).prop_map(|(at, k, v)| Mutation::Add(at, k, v)),
        1 => any::<prop::sample::Index>().prop_map(Mutation::Cut),
    ];
    (any::<prop::sample::Index>(), mutation)
}

/// Every place in `v`, depth first, as paths of keys and indices.
fn places(v: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(path.clone());
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                places(item, path, out);
                path.pop();
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                path.push(Step::Key(k.clone()));
                places(item, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[derive(Debug, Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn at<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// `text` (a session file) changed by `mutation`.
pub fn apply(text: &str, mutation: &Mutation) -> String {
    let mut doc: Value = serde_json::from_str(text).expect("a corpus file is JSON");
    let mut all = Vec::new();
    places(&doc, &mut Vec::new(), &mut all);
    match mutation {
        Mutation::Replace(i, value) => *at(&mut doc, &all[i.index(all.len())]) = value.clone(),
        Mutation::Remove(i) => {
            let path = &all[i.index(all.len())];
            if let Some((last, parent)) = path.split_last() {
                match (at(&mut doc, parent), last) {
                    (Value::Object(map), Step::Key(k)) => {
                        map.shift_remove(k);
                    }
                    (Value::Array(items), Step::Index(i)) => {
                        items.remove(*i);
                    }
                    _ => {}
                }
            }
        }
        Mutation::Add(i, key, value) => {
            if let Value::Object(map) = at(&mut doc, &all[i.index(all.len())]) {
                map.insert(key.clone(), value.clone());
            }
        }
        Mutation::Cut(i) => return crate::edn::cut(text, *i),
    }
    doc.to_string()
}
