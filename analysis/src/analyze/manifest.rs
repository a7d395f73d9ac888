//! The run's conditions as its `manifest.json` writes them: every scalar key, the known ones
//! first with their labels, for the report's "run conditions" section. What the code relies on
//! (codecs, fixtures, verification, seed, finished) is read through `schema::run_folder::Manifest`.

use serde_json::Value;

/// The keys shown first, in this order, with their labels; other scalar keys follow as found.
const KNOWN: &[(&str, &str)] = &[
    ("thaw_version", "thaw version"),
    ("commit", "commit"),
    ("command_line", "command line"),
    ("started_utc", "started (UTC)"),
    ("finished", "finished"),
    ("seed", "seed"),
    ("samples_per_cell", "samples per cell"),
    ("variant", "variant"),
    ("rustc", "rustc"),
    ("cpu_model", "CPU"),
    ("cores", "cores"),
    ("kernel", "kernel"),
    ("pinning", "pinning"),
    ("cold_cache", "cold cache"),
    (
        "drops",
        "de values dropped (end: after all calls; each: after each call, timed)",
    ),
    (
        "measure",
        "measure (time; or instructions, counted under Valgrind)",
    ),
    ("counting", "how the counts were taken"),
];

/// A JSON value as one line of text (arrays of scalars joined by spaces).
pub fn display(v: &Value) -> String {
    match v {
        Value::Null => "—".into(),
        Value::Array(a) if a.is_empty() => "none".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => {
            a.iter().map(display).collect::<Vec<_>>().join(" ")
        }
        Value::Object(o) if o.values().all(|x| !x.is_object()) => o
            .iter()
            .map(|(k, v)| format!("{k}: {}", display(v)))
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    }
}

/// (label, value) pairs of the run's conditions: the known keys first, then any other key
/// whose value is not a list of objects (those have their own tables).
pub fn conditions(m: &Value) -> Vec<(String, String)> {
    let Some(obj) = m.as_object() else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = KNOWN
        .iter()
        .filter_map(|(k, label)| obj.get(*k).map(|v| (label.to_string(), display(v))))
        .collect();
    for (k, v) in obj {
        let tabled = matches!(v, Value::Array(a) if a.iter().any(Value::is_object));
        if !tabled && !KNOWN.iter().any(|(known, _)| known == k) {
            out.push((k.clone(), display(v)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conditions_list_known_keys_first_then_every_other_scalar() {
        let m = json!({
            "seed": 42, "finished": true, "command_line": ["cold", "run"], "extra": 3,
            "codecs": [{"id": "serde_json", "library": "serde_json", "version": "1.0", "child_bytes": 10}],
        });
        let c = conditions(&m);
        assert_eq!(c[0], ("command line".to_string(), "cold run".to_string()));
        assert_eq!(c[1], ("finished".to_string(), "true".to_string()));
        assert!(c.contains(&("extra".to_string(), "3".to_string())));
        assert!(!c.iter().any(|(k, _)| k == "codecs"));
        assert!(conditions(&json!([1])).is_empty());
        let counting = json!({"counting": {"tool": "callgrind", "options": ["-q", "--x"]}});
        assert_eq!(
            conditions(&counting),
            [(
                "how the counts were taken".to_string(),
                "options: -q --x; tool: callgrind".to_string()
            )]
        );
    }
}
