//! hyperfine's JSON export (`hyperfine --export-json`): `{"results": [...]}` with one result per
//! cell: command, mean, stddev, median, user, system, min, max, times, memory_usage_byte,
//! exit_codes, parameters; times in seconds. Only samples with status `ok` are included, as
//! hyperfine keeps only successful runs unless told to ignore failures.

use crate::analyze::cells::CellKey;
use crate::inputs::run::Run;
use crate::span::Span;
use crate::stats::quantile::{median, sorted};
use anyhow::{bail, Result};
use schema::phases::{Figure, Quantity, Whole};
use serde::Serialize;
use std::collections::BTreeMap;
use store::cell::CellSamples;

#[derive(Serialize)]
struct Export {
    results: Vec<HyperfineResult>,
}

#[derive(Serialize)]
struct HyperfineResult {
    command: String,
    mean: f64,
    stddev: Option<f64>,
    median: f64,
    user: f64,
    system: f64,
    min: f64,
    max: f64,
    times: Vec<f64>,
    memory_usage_byte: Vec<u64>,
    exit_codes: Vec<Option<i32>>,
    parameters: BTreeMap<String, String>,
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn result(run: &Run, key: &CellKey, cell: &CellSamples, figure: Span) -> Option<HyperfineResult> {
    let ok: Vec<usize> = cell
        .ok()
        .filter(|&i| figure.value(run.measure, cell, i).is_some())
        .collect();
    if ok.is_empty() {
        return None;
    }
    let times: Vec<f64> = ok
        .iter()
        .filter_map(|&i| figure.value(run.measure, cell, i))
        .map(|ns| ns as f64 / 1e9)
        .collect();
    let s = sorted(&times);
    let m = mean(&times);
    let stddev = (times.len() > 1).then(|| {
        (times.iter().map(|t| (t - m).powi(2)).sum::<f64>() / (times.len() - 1) as f64).sqrt()
    });
    let secs = |w: Whole| {
        let v: Vec<f64> = ok
            .iter()
            .filter_map(|&i| cell.get(Figure::Whole(w), i))
            .map(|us| us as f64 / 1e6)
            .collect();
        if v.is_empty() {
            0.0
        } else {
            mean(&v)
        }
    };
    let parameters = BTreeMap::from([
        ("codec".to_string(), key.codec.clone()),
        ("op".to_string(), key.op.to_string()),
        ("batch".to_string(), key.batch.to_string()),
        ("fixture".to_string(), key.fixture.clone()),
        ("variant".to_string(), key.variant.to_string()),
        ("figure".to_string(), figure.name().to_string()),
    ]);
    Some(HyperfineResult {
        command: format!(
            "thaw cold {} --op {} --batch {} --fixture {} ({})",
            key.codec, key.op, key.batch, key.fixture, key.variant
        ),
        mean: m,
        stddev,
        median: median(&s)?,
        user: secs(Whole::UserUs),
        system: secs(Whole::SysUs),
        min: s[0],
        max: s[s.len() - 1],
        times,
        memory_usage_byte: ok
            .iter()
            .map(|&i| cell.get(Figure::Whole(Whole::MaxrssKib), i).unwrap_or(0) * 1024)
            .collect(),
        exit_codes: ok.iter().map(|&i| cell.exit_codes[i]).collect(),
        parameters,
    })
}

/// The run in hyperfine's `--export-json` shape, `figure` as each sample's time.
pub(crate) fn export(run: &Run, figure: Span) -> Result<String> {
    if run.measure.quantity() != Quantity::Ns {
        bail!(
            "{} is {}: its samples hold {}, not times, and hyperfine's format holds times",
            run.dir.display(),
            run.measure.run_words(),
            run.measure.noun()
        );
    }
    let results = run
        .samples
        .cells
        .iter()
        .filter_map(|(k, cell)| result(run, k, cell, figure))
        .collect();
    Ok(serde_json::to_string_pretty(&Export { results })? + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{samples as store, timed as row};
    use schema::rows::SampleRow;
    use store::rows::PlanCount;

    #[test]
    fn hyperfine_shape() {
        let mut samples: Vec<SampleRow> = (0..3)
            .map(|b| row(b, "serde_json", 1, Some(1_000_000 * (u64::from(b) + 1))))
            .collect();
        samples.push(row(3, "serde_json", 1, None));
        for s in &mut samples {
            s.set(Figure::Whole(Whole::UserUs), Some(300));
            s.set(Figure::Whole(Whole::MaxrssKib), Some(2));
            s.exit_code = Some(0);
        }
        let run = Run {
            dir: ".".into(),
            folder: files::Folder::new("."),
            manifest: None,
            plan: PlanCount::default(),
            samples: store(&samples),
            measure: schema::Measure::Time,
            writing: None,
            notes: vec![],
        };
        let v: serde_json::Value =
            serde_json::from_str(&export(&run, Span::InitPlusOps).unwrap()).unwrap();
        let r = &v["results"][0];
        for k in [
            "command",
            "mean",
            "stddev",
            "median",
            "user",
            "system",
            "min",
            "max",
            "times",
            "memory_usage_byte",
            "exit_codes",
            "parameters",
        ] {
            assert!(r.get(k).is_some(), "missing {k}");
        }
        assert_eq!(r["times"].as_array().unwrap().len(), 3);
        assert!((r["mean"].as_f64().unwrap() - 0.002).abs() < 1e-12);
        assert!((r["median"].as_f64().unwrap() - 0.002).abs() < 1e-12);
        assert!((r["stddev"].as_f64().unwrap() - 0.001).abs() < 1e-12);
        assert!((r["user"].as_f64().unwrap() - 0.0003).abs() < 1e-12);
        assert_eq!(r["memory_usage_byte"][0], 2048);
        assert_eq!(r["parameters"]["codec"], "serde_json");
        let counted = Run {
            measure: schema::Measure::Instructions,
            ..run
        };
        let e = export(&counted, Span::InitPlusOps).unwrap_err().to_string();
        assert!(
            e.contains("is a counted run (--measure instructions)"),
            "{e}"
        );
    }
}
