//! A lenient view of `manifest.json`: whatever keys are there, read without failing on a
//! missing or oddly typed one, for the report's "run conditions" section and the warnings.

use serde::Serialize;
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

fn text(o: &Value, k: &str) -> String {
    o.get(k).map(display).unwrap_or_default()
}

fn objects<'a>(m: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    m.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|v| v.is_object())
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodecInfo {
    pub id: String,
    pub library: String,
    pub version: String,
    /// `typed`, `dom`, `baseline`, when the manifest says.
    pub style: String,
    pub child_bytes: Option<u64>,
    pub child_sha256: String,
}

pub fn codecs(m: &Value) -> Vec<CodecInfo> {
    objects(m, "codecs")
        .map(|o| CodecInfo {
            id: text(o, "id"),
            library: text(o, "library"),
            version: text(o, "version"),
            style: text(o, "style"),
            child_bytes: o.get("child_bytes").and_then(Value::as_u64),
            child_sha256: text(o, "child_sha256"),
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FixtureInfo {
    pub name: String,
    pub bytes: Option<u64>,
    pub sha256: String,
}

pub fn fixtures(m: &Value) -> Vec<FixtureInfo> {
    objects(m, "fixtures")
        .map(|o| FixtureInfo {
            name: text(o, "name"),
            bytes: o.get("bytes").and_then(Value::as_u64),
            sha256: text(o, "sha256"),
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    pub codec: String,
    pub fixture: String,
    pub op: String,
    /// `pass`, `fail` or `unsupported`.
    pub status: String,
    pub detail: String,
}

pub fn verification(m: &Value) -> Vec<Verification> {
    objects(m, "verification")
        .map(|o| Verification {
            codec: text(o, "codec"),
            fixture: text(o, "fixture"),
            op: text(o, "op"),
            status: text(o, "status"),
            detail: text(o, "detail"),
        })
        .collect()
}

pub fn finished(m: &Value) -> Option<bool> {
    m.get("finished").and_then(Value::as_bool)
}

pub fn seed(m: &Value) -> Option<u64> {
    m.get("seed")
        .and_then(|v| v.as_u64().or_else(|| v.as_str()?.parse().ok()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lenient_reading() {
        let m = json!({
            "seed": "42", "finished": true, "command_line": ["cold", "run"], "extra": 3,
            "codecs": [{"id": "serde_json", "library": "serde_json", "version": "1.0", "child_bytes": 10}, 7],
            "verification": [{"codec": "a", "fixture": "f", "op": "de", "status": "fail"}],
        });
        assert_eq!(seed(&m), Some(42));
        assert_eq!(finished(&m), Some(true));
        let c = conditions(&m);
        assert_eq!(c[0], ("command line".to_string(), "cold run".to_string()));
        assert!(c.contains(&("extra".to_string(), "3".to_string())));
        assert!(!c.iter().any(|(k, _)| k == "codecs"));
        assert_eq!(codecs(&m)[0].child_bytes, Some(10));
        assert_eq!(codecs(&m).len(), 1);
        assert_eq!(verification(&m)[0].detail, "");
        assert!(conditions(&json!([1])).is_empty());
    }
}
