//! Whether two shards' manifests belong to one run: everything a manifest records must be the
//! same, but for the facts of the machine and the session each shard ran in ([`PER_SHARD`]).
//! The rule is written as what may differ, so a field a later manifest adds must agree until it
//! is listed here. A difference is named by its path in the manifest (`settings.seed: 1 in A,
//! 2 in B`).
//!
//! Children are built on each machine, so their paths, sizes and SHA-256 may differ between
//! machines (a build is reproducible only where paths and toolchain are the same); what they are
//! (codec × op × fixture × build, binary name, and the thaw commit, rustc and library versions
//! that made them) may not. Shards of one machine pool as one machine, so their children must be
//! the very same files ([`same_build`]).

use schema::run_folder::{ChildEntry, Manifest};
use serde_json::Value;

/// What may differ between the shards of one run, as paths in manifest.json: the session
/// (command line, times, whether it finished), the machine, what the gate and the preflight said
/// in words (the cells they left out, `excluded`, must agree: they shape the plan), the
/// shard's own part of the plan, and where things were on its machine.
pub(crate) const PER_SHARD: &[&str] = &[
    "command_line",
    "machine",
    "started_utc",
    "resumed_utc",
    "stopped_utc",
    "finished",
    "finished_utc",
    "samples_planned",
    "verification",
    "preflight",
    "notes",
    "cold_cache_check",
    "settings.shard",
    "settings.variants[].children_dir",
    "settings.variants[].executable",
    "settings.variants[].described",
    "children[].path",
    "children[].bytes",
    "children[].sha256",
    "children[].files",
    "counting.alloc_library",
    "counting.alloc_library_sha256",
];

/// The variables the runner passes to every child from its own environment (cold's `PASSED`):
/// their values are the machine's (`PATH=…`, `HOME=…`) and may differ; any other `--env` must
/// not.
pub(crate) const MACHINE_ENV: [&str; 2] = ["PATH", "HOME"];

/// `m` as JSON without the fields that may differ between shards.
fn comparable(m: &Manifest) -> Value {
    let mut v = serde_json::to_value(m).expect("a manifest serialises");
    for path in PER_SHARD {
        remove(&mut v, path);
    }
    if let Some(env) = v
        .pointer_mut("/settings/child_env")
        .and_then(Value::as_array_mut)
    {
        env.retain(|e| {
            let text = e.as_str().unwrap_or("");
            !MACHINE_ENV
                .iter()
                .any(|k| text.strip_prefix(k).is_some_and(|r| r.starts_with('=')))
        });
    }
    v
}

/// Removes `path` (`a.b`, `a[].b` for every element of the list `a`) from `v`.
fn remove(v: &mut Value, path: &str) {
    let (head, rest) = match path.split_once('.') {
        Some((h, r)) => (h, Some(r)),
        None => (path, None),
    };
    let (name, each) = match head.strip_suffix("[]") {
        Some(n) => (n, true),
        None => (head, false),
    };
    let Some(obj) = v.as_object_mut() else {
        return;
    };
    match (rest, each) {
        (None, _) => {
            obj.remove(name);
        }
        (Some(rest), false) => {
            if let Some(inner) = obj.get_mut(name) {
                remove(inner, rest);
            }
        }
        (Some(rest), true) => {
            if let Some(Value::Array(items)) = obj.get_mut(name) {
                for item in items {
                    remove(item, rest);
                }
            }
        }
    }
}

/// A value as a reason quotes it: compact JSON, cut to 80 characters.
fn quote(v: Option<&Value>) -> String {
    match v {
        None => "absent".into(),
        Some(v) => text::clip(&v.to_string(), 80),
    }
}

/// Every path where `a` and `b` differ (at most `max`), each with both values.
fn differences(
    path: &str,
    a: Option<&Value>,
    b: Option<&Value>,
    max: usize,
    out: &mut Vec<String>,
) {
    if out.len() >= max || a == b {
        return;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                differences(&join(k), x.get(k), y.get(k), max, out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                differences(&format!("{path}[{i}]"), Some(p), Some(q), max, out);
            }
        }
        _ => out.push(format!(
            "{}: {} here, {} in the first shard",
            if path.is_empty() {
                "the manifest"
            } else {
                path
            },
            quote(b),
            quote(a)
        )),
    }
}

/// Why the shard of manifest `b` does not belong with the first shard's, `a`: each difference
/// outside [`PER_SHARD`], named by its path (at most 8); empty when they belong together.
pub(crate) fn mismatches(a: &Manifest, b: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    differences("", Some(&comparable(a)), Some(&comparable(b)), 8, &mut out);
    out
}

/// A child's identity: codec × op × fixture × build.
fn key(c: &ChildEntry) -> (&str, schema::Op, &str, schema::Variant) {
    (&c.codec, c.op, &c.fixture, c.variant)
}

/// Why two shards that ran on one machine did not run the same children (a rebuild between
/// them): each child whose SHA-256 or files differ (at most 8); empty when the same.
pub(crate) fn same_build(a: &Manifest, b: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    for x in &a.children {
        if let Some(y) = b.children.iter().find(|y| key(y) == key(x)) {
            if x.sha256 != y.sha256 || x.files != y.files {
                out.push(format!(
                    "{} ({}): SHA-256 {} here, {} in the other",
                    x.binary,
                    x.variant,
                    clip_hash(&y.sha256),
                    clip_hash(&x.sha256)
                ));
            }
        }
    }
    if let (Some(x), Some(y)) = (&a.counting, &b.counting) {
        if x.alloc_library_sha256 != y.alloc_library_sha256 {
            out.push(format!(
                "the allocation counter {}: SHA-256 {} here, {} in the other",
                x.alloc_library,
                clip_hash(&y.alloc_library_sha256),
                clip_hash(&x.alloc_library_sha256)
            ));
        }
    }
    out.truncate(8);
    out
}

/// How many of `a`'s children `b` ran in another build (another SHA-256 or other files).
pub(crate) fn children_rebuilt(a: &Manifest, b: &Manifest) -> usize {
    a.children
        .iter()
        .filter(|x| {
            b.children
                .iter()
                .find(|y| key(y) == key(x))
                .is_some_and(|y| x.sha256 != y.sha256 || x.files != y.files)
        })
        .count()
}

fn clip_hash(h: &str) -> String {
    format!("{}…", h.chars().take(12).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{synth, SynthOptions};

    fn manifest() -> Manifest {
        synth(SynthOptions {
            samples: 1,
            seed: 4,
            ..SynthOptions::default()
        })
        .manifest
    }

    #[test]
    fn the_facts_of_a_machine_and_a_session_may_differ() {
        let a = manifest();
        let mut b = a.clone();
        b.machine.cpu_model = Some("another CPU".into());
        b.started_utc = "2030-01-01T00:00:00Z".into();
        b.command_line.push("--shard".into());
        b.settings.variants[0].children_dir = "/elsewhere".into();
        b.settings.child_env = vec!["PATH=/other/bin".into(), "HOME=/home/x".into()];
        b.children[0].path = "/elsewhere/child".into();
        b.children[0].sha256 = "1".repeat(64);
        b.samples_planned += 7;
        assert_eq!(mismatches(&a, &b), Vec::<String>::new());
        // …but not on one machine: the same children there
        let same = same_build(&a, &b);
        assert_eq!(same.len(), 1, "{same:?}");
        assert!(same[0].starts_with("child-noop-de-any (portable): SHA-256 111111111111…"));
        assert_eq!(children_rebuilt(&a, &b), 1);
    }

    #[test]
    fn a_setting_or_a_library_that_differs_is_named_by_its_path() {
        let a = manifest();
        let mut b = a.clone();
        b.settings.seed += 1;
        b.settings.child_env = vec!["THAW_X=1".into()];
        b.codecs[1].version = "9.9.9".into();
        b.fixtures[0].sha256 = "f".repeat(64);
        b.rustc = None;
        assert_eq!(
            mismatches(&a, &b),
            [
                "codecs[1].version: \"9.9.9\" here, \"0.0.0-synthetic\" in the first shard",
                format!(
                    "fixtures[0].sha256: \"{}\" here, \"{}\" in the first shard",
                    "f".repeat(64),
                    "0".repeat(64)
                )
                .as_str(),
                "rustc: null here, \"synthetic\" in the first shard",
                "settings.child_env: [\"THAW_X=1\"] here, [] in the first shard",
                "settings.seed: 5 here, 4 in the first shard",
            ]
        );
    }
}
