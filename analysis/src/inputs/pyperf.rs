//! Python's warm estimates, the Python warm track (`runtimes/python/bench.py`,
//! `scripts/warm-python.sh`): every `*.json` directly in `<warm>/python/`, pyperf's JSON as
//! pyperf wrote it (`-o`), read into the [`WarmEstimate`]s criterion's reader gives, so a Python
//! codec's warm time per operation stands beside the other runtimes'.
//!
//! The format (pyperf's, version 1.0): `{"version": "1.0", "metadata": {…}, "benchmarks": [{
//! "metadata": {"name": …, …}, "runs": [{"values": [seconds, …], "warmups": …, "metadata": …},
//! …]}]}`. Each run is one worker process of pyperf's own; its values are seconds per call (pyperf
//! divides by its loops), the unit the benchmark's or the file's metadata names (`second`); a run
//! with no values is pyperf's calibration, not a measurement. thaw's names are explicit, never
//! guessed: `thaw/codec=<id>/fixture=<name>/op=<de|ser>`, the codec the cold codec of that id
//! (the Python runtime's). A run's figure is the median of its values, and its fork round its
//! place among the benchmark's measured runs (1, 2, …): a cell's figure is the median of its
//! processes' with the interval across them, as Go's and the Rust track's forks.
//!
//! Nothing here panics on a file: one that is not pyperf's JSON is skipped with a note naming it,
//! and a benchmark or run that is not thaw's or holds no plausible time is skipped with a note
//! naming the file, the benchmark and what would be valid.

use super::criterion::WarmEstimate;
use super::plausible_ns;
use super::rounds::{cell, estimates, texts, RoundResult};
use anyhow::Result;
use serde_json::Value;
use std::path::Path;

/// The prefix of thaw's benchmark names.
pub(crate) const PREFIX: &str = "thaw/";

/// The variant (build) of the Python runtime's cold cells, `runtimes/python/runtime.toml`'s one
/// build.
pub(crate) const VARIANT: &str = "python";

/// The most thaw reads of one file (pyperf's JSON of every cell in 20 processes is a few MB).
pub(crate) const READ_LIMIT: u64 = 64 * 1024 * 1024;

/// The thaw results of one file's text, and notes naming what was skipped (`file` names it).
pub(crate) fn parse(file: &str, text: &str) -> (Vec<RoundResult>, Vec<String>) {
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
            "{file}: not pyperf's JSON (no `benchmarks` list); skipped"
        ));
        return (out, notes);
    };
    let file_unit = doc.pointer("/metadata/unit").and_then(Value::as_str);
    for (i, b) in benchmarks.iter().enumerate() {
        let at = || format!("{file}: benchmark {}", i + 1);
        let Some(name) = b.pointer("/metadata/name").and_then(Value::as_str) else {
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
        let unit = b
            .pointer("/metadata/unit")
            .and_then(Value::as_str)
            .or(file_unit);
        if unit != Some("second") {
            notes.push(format!(
                "{}: `{}` is in {}, not seconds; skipped",
                at(),
                name.escape_debug(),
                unit.map_or("no unit".to_string(), |u| format!("`{}`", u.escape_debug()))
            ));
            continue;
        }
        let runs = b
            .get("runs")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice);
        let mut fork = 0u32;
        for run in runs {
            let Some(values) = run.get("values").and_then(Value::as_array) else {
                continue; // pyperf's calibration run
            };
            if values.is_empty() {
                continue;
            }
            fork += 1;
            let ns: Option<Vec<f64>> = values.iter().map(|v| v.as_f64().map(|s| s * 1e9)).collect();
            let median = ns
                .filter(|ns| ns.iter().all(|&x| plausible_ns(x)))
                .and_then(|ns| stats::quantile::median(&stats::quantile::sorted(&ns)));
            match median {
                Some(ns_per_op) => out.push(RoundResult {
                    codec: codec.clone(),
                    fixture: fixture.clone(),
                    op,
                    fork,
                    ns_per_op,
                }),
                None => notes.push(format!(
                    "{}: `{}` run {fork} holds a value that is not a plausible time; skipped",
                    at(),
                    name.escape_debug()
                )),
            }
        }
    }
    (out, notes)
}

/// Estimates from pyperf's `*.json` files directly in `root` (`results/warm/python`), sorted by
/// cell, and notes about what was skipped, each naming its file. `None` when `root` does not
/// exist.
pub(crate) fn load_pyperf(root: &Path) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    let Some((texts, mut notes)) = texts(root, "json", READ_LIMIT)? else {
        return Ok(None);
    };
    let mut results = Vec::new();
    for (shown, text) in texts {
        let (more, more_notes) = parse(&shown, &text);
        results.extend(more);
        notes.extend(more_notes);
    }
    Ok(Some((estimates(&results, VARIANT), notes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::{Op, Variant};

    /// pyperf's shape, cut down: a calibration run (warmups only), then three worker runs.
    const RAW: &str = r#"{"version": "1.0", "metadata": {"unit": "second", "python_version": "3.11.2"},
      "benchmarks": [
        {"metadata": {"name": "thaw/codec=msgspec/fixture=users-2kb/op=de", "loops": 4096},
         "runs": [
           {"metadata": {"calibrate_loops": 4096}, "warmups": [[1, 1e-05], [4096, 2e-06]]},
           {"values": [2e-06, 4e-06, 3e-06], "warmups": [[4096, 5e-06]]},
           {"values": [1e-06, 1.5e-06], "warmups": [[4096, 5e-06]]},
           {"values": [5e-06], "warmups": [[4096, 5e-06]]}
         ]},
        {"metadata": {"name": "thaw/codec=pydantic/fixture=users-2kb/op=ser", "unit": "second"},
         "runs": [{"values": [1e-05]}]},
        {"metadata": {"name": "other_benchmark"}, "runs": [{"values": [1.0]}]}
      ]}"#;

    #[test]
    fn each_measured_run_is_a_fork_round_with_the_median_of_its_values() {
        let (results, notes) = parse("bench.json", RAW);
        assert!(notes.is_empty(), "{notes:?}");
        let got: Vec<(&str, Op, u32, f64)> = results
            .iter()
            .map(|r| (r.codec.as_str(), r.op, r.fork, r.ns_per_op))
            .collect();
        assert_eq!(
            got,
            vec![
                ("msgspec", Op::De, 1, 3000.0),
                ("msgspec", Op::De, 2, 1250.0),
                ("msgspec", Op::De, 3, 5000.0),
                ("pydantic", Op::Ser, 1, 10000.0),
            ]
        );
    }

    #[test]
    fn a_cell_is_the_median_of_its_processes_with_the_interval_across_them() {
        let (results, _) = parse("bench.json", RAW);
        let est = estimates(&results, VARIANT);
        let m = est.iter().find(|e| e.codec == "msgspec").unwrap();
        // Processes 3000, 1250 and 5000 ns: their median 3000, the interval their extremes.
        assert_eq!((m.median_ns, m.lo_ns, m.hi_ns), (3000.0, 1250.0, 5000.0));
        assert_eq!(m.forks.as_ref().unwrap().rounds, vec![1, 2, 3]);
        assert_eq!(m.variant, Variant::parse("python").ok());
        assert_eq!(m.fixture, "users-2kb");
    }

    #[test]
    fn what_is_not_thaws_or_not_a_time_is_skipped_with_the_file_and_benchmark_named() {
        let text = r#"{"metadata": {"unit": "second"}, "benchmarks": [
            {"metadata": {"name": "thaw/codec=msgspec/op=de"}, "runs": [{"values": [1e-06]}]},
            {"metadata": {"name": "thaw/codec=msgspec/fixture=users-2kb/op=de", "unit": "byte"}, "runs": [{"values": [1e-06]}]},
            {"metadata": {"name": "thaw/codec=msgspec/fixture=users-2kb/op=de"}, "runs": [{"values": [-1e-06]}]},
            {"metadata": {"name": "thaw/codec=ms\u001bgspec/fixture=users-2kb/op=de"}, "runs": [{"values": [1e-06]}]},
            {"runs": []}
        ]}"#;
        let (results, notes) = parse("p.json", text);
        assert!(results.is_empty(), "{results:?}");
        assert_eq!(notes.len(), 5, "{notes:#?}");
        assert!(
            notes[0].starts_with("p.json: benchmark 1: "),
            "{}",
            notes[0]
        );
        assert!(notes[1].contains("not seconds"), "{}", notes[1]);
        assert!(notes[2].contains("not a plausible time"), "{}", notes[2]);
        assert!(notes.iter().all(|n| !n.contains('\u{1b}')), "{notes:?}");
        assert!(notes[4].contains("no name"), "{}", notes[4]);
        let (none, notes) = parse("q.json", "[1, 2]");
        assert!(none.is_empty() && notes[0].starts_with("q.json: not pyperf's JSON"));
        let (none, notes) = parse("r.json", "{");
        assert!(none.is_empty() && notes[0].starts_with("r.json: not JSON"));
    }
}
