//! Node's warm estimates, the Node warm track (`runtimes/node/bench.mjs`, `scripts/warm-node.sh`):
//! every `fork-<k>.json` directly in `<warm>/node/`, the JSON mitata printed (`format: 'json'`)
//! in fork round k, one fresh process, kept as mitata wrote it, read into the [`WarmEstimate`]s
//! criterion's reader gives, so a Node codec's warm time per operation stands beside the other
//! runtimes'.
//!
//! The format (mitata 1.0's): `{"layout": …, "benchmarks": [{"alias": <name>, "runs": [{"name":
//! <name>, "stats": {"p50": ns, "avg": ns, "min": ns, …}, "args": {}}], …}], "context": {…}}`, its
//! times nanoseconds per call. thaw's names are explicit, never guessed:
//! `thaw/codec=<id>/fixture=<name>/op=<de|ser>`, the codec the cold codec of that id (the Node
//! runtime's). A run's figure is its `p50`, the median of mitata's samples in that process; a
//! cell's figure is the median of its rounds' with the interval across them, as Go's and the
//! Rust track's forks. A run that failed (mitata keeps an `error` and no `stats`) is skipped with
//! a note.
//!
//! Nothing here panics on a file: one that is not mitata's JSON, or whose name is not
//! `fork-<k>.json`, is skipped with a note naming it.

use super::criterion::WarmEstimate;
use super::plausible_ns;
use super::rounds::{cell, estimates, texts, RoundResult};
use anyhow::Result;
use serde_json::Value;
use std::path::Path;

/// The prefix of thaw's benchmark names.
pub(crate) const PREFIX: &str = "thaw/";

/// The variant (build) of the Node runtime's cold cells, `runtimes/node/runtime.toml`'s one build.
pub(crate) const VARIANT: &str = "node";

/// The most thaw reads of one file (mitata's JSON without its samples is a few KB a cell).
pub(crate) const READ_LIMIT: u64 = 64 * 1024 * 1024;

/// The fork round of a file named `fork-<k>.json` (its shown path's last part).
fn fork_of(shown: &str) -> Option<u32> {
    let name = Path::new(shown).file_name()?.to_str()?;
    let k = name.strip_prefix("fork-")?.strip_suffix(".json")?;
    (!k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
        .then(|| k.parse().ok())
        .flatten()
}

/// The thaw results of one file's text in fork round `fork`, and notes naming what was skipped.
pub(crate) fn parse(file: &str, fork: u32, text: &str) -> (Vec<RoundResult>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let doc: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            notes.push(format!("{file}: not JSON ({e}); skipped"));
            return (out, notes);
        }
    };
    let Some(benchmarks) = doc.get("benchmarks").and_then(Value::as_array) else {
        notes.push(format!(
            "{file}: not mitata's JSON (no `benchmarks` list); skipped"
        ));
        return (out, notes);
    };
    for (i, b) in benchmarks.iter().enumerate() {
        let runs = b
            .get("runs")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        for run in runs {
            let at = || format!("{file}: benchmark {}", i + 1);
            let Some(name) = run
                .get("name")
                .or_else(|| b.get("alias"))
                .and_then(Value::as_str)
            else {
                notes.push(format!("{}: no name; skipped", at()));
                continue;
            };
            let Some(rest) = name.strip_prefix(PREFIX) else {
                continue;
            };
            let (codec, fixture, op) = match cell(rest, name) {
                Ok(c) => c,
                Err(why) => {
                    notes.push(format!("{}: {why}; skipped", at()));
                    continue;
                }
            };
            match run.pointer("/stats/p50").and_then(Value::as_f64) {
                Some(ns) if plausible_ns(ns) => out.push(RoundResult {
                    codec,
                    fixture,
                    op,
                    fork,
                    ns_per_op: ns,
                }),
                Some(_) => notes.push(format!(
                    "{}: `{}`: its p50 is not a plausible time; skipped",
                    at(),
                    name.escape_debug()
                )),
                None => notes.push(format!(
                    "{}: `{}`: no stats.p50 (a failed run?); skipped",
                    at(),
                    name.escape_debug()
                )),
            }
        }
    }
    (out, notes)
}

/// Estimates from the `fork-<k>.json` files directly in `root` (`results/warm/node`), sorted by
/// cell, and notes about what was skipped, each naming its file. `None` when `root` does not
/// exist.
pub(crate) fn load_mitata(root: &Path) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    let Some((texts, mut notes)) = texts(root, "json", READ_LIMIT)? else {
        return Ok(None);
    };
    let mut results = Vec::new();
    for (shown, text) in texts {
        let Some(fork) = fork_of(&shown) else {
            notes.push(format!(
                "{}: not named fork-<k>.json (scripts/warm-node.sh names each round's so); skipped",
                shown.escape_debug()
            ));
            continue;
        };
        let (more, more_notes) = parse(&shown, fork, &text);
        results.extend(more);
        notes.extend(more_notes);
    }
    Ok(Some((estimates(&results, VARIANT), notes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::{Op, Variant};

    /// mitata's shape, cut down (its samples and debug left out, as bench.mjs asks).
    fn raw(p50_de: f64) -> String {
        format!(
            r#"{{"layout":[{{"name":null,"types":[]}}],"benchmarks":[
              {{"kind":"static","args":{{}},"alias":"thaw/codec=ajv/fixture=users-2kb/op=de","group":0,
                "runs":[{{"stats":{{"kind":"fn","min":900.5,"max":5000,"p50":{p50_de},"avg":1100}},"args":{{}},
                          "name":"thaw/codec=ajv/fixture=users-2kb/op=de"}}]}},
              {{"kind":"static","args":{{}},"alias":"thaw/codec=fast-json-stringify/fixture=users-2kb/op=ser",
                "runs":[{{"stats":{{"p50":2500.25}},"args":{{}},"name":"thaw/codec=fast-json-stringify/fixture=users-2kb/op=ser"}}]}},
              {{"alias":"noop","runs":[{{"stats":{{"p50":0.1}},"name":"noop"}}]}}
            ],"context":{{"runtime":"node","version":"20.20.2"}}}}"#
        )
    }

    #[test]
    fn each_run_is_its_p50_in_the_files_fork_round() {
        let (results, notes) = parse("fork-2.json", 2, &raw(1000.0));
        assert!(notes.is_empty(), "{notes:?}");
        let got: Vec<(&str, Op, u32, f64)> = results
            .iter()
            .map(|r| (r.codec.as_str(), r.op, r.fork, r.ns_per_op))
            .collect();
        assert_eq!(
            got,
            vec![
                ("ajv", Op::De, 2, 1000.0),
                ("fast-json-stringify", Op::Ser, 2, 2500.25),
            ]
        );
    }

    #[test]
    fn a_cell_is_the_median_of_its_rounds_with_the_interval_across_them() {
        let mut results = Vec::new();
        for (k, p50) in [(1, 1000.0), (2, 1200.0), (3, 800.0)] {
            results.extend(parse("f", k, &raw(p50)).0);
        }
        let est = estimates(&results, VARIANT);
        let ajv = est.iter().find(|e| e.codec == "ajv").unwrap();
        assert_eq!(
            (ajv.median_ns, ajv.lo_ns, ajv.hi_ns),
            (1000.0, 800.0, 1200.0)
        );
        assert_eq!(ajv.forks.as_ref().unwrap().rounds, vec![1, 2, 3]);
        assert_eq!(ajv.variant, Variant::parse("node").ok());
    }

    #[test]
    fn fork_rounds_come_from_the_file_name_alone() {
        assert_eq!(fork_of("results/warm/node/fork-3.json"), Some(3));
        assert_eq!(fork_of("fork-12.json"), Some(12));
        for bad in [
            "fork-.json",
            "fork-x.json",
            "bench.json",
            "fork-1.json.txt",
            "fork--1.json",
        ] {
            assert_eq!(fork_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn failed_runs_and_others_names_are_skipped_with_a_note() {
        let text = r#"{"benchmarks":[
            {"alias":"thaw/codec=ajv/fixture=users-2kb/op=de","runs":[{"name":"thaw/codec=ajv/fixture=users-2kb/op=de","error":{"message":"x"}}]},
            {"alias":"thaw/codec=ajv/op=de","runs":[{"name":"thaw/codec=ajv/op=de","stats":{"p50":5}}]},
            {"alias":"thaw/codec=ajv/fixture=users-2kb/op=de","runs":[{"name":"thaw/codec=ajv/fixture=users-2kb/op=de","stats":{"p50":-5}}]},
            {"runs":[{"stats":{"p50":5}}]}
        ]}"#;
        let (results, notes) = parse("m.json", 1, text);
        assert!(results.is_empty(), "{results:?}");
        assert_eq!(notes.len(), 4, "{notes:#?}");
        assert!(notes[0].contains("no stats.p50"), "{}", notes[0]);
        assert!(notes[2].contains("not a plausible time"), "{}", notes[2]);
        assert!(notes[3].contains("no name"), "{}", notes[3]);
        let (none, notes) = parse("n.json", 1, "{}");
        assert!(none.is_empty() && notes[0].starts_with("n.json: not mitata's JSON"));
    }
}
