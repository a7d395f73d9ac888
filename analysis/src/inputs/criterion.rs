//! Criterion's warm estimates: walks `<warm>/criterion/<variant>/…/new/` for `benchmark.json`
//! (the id, `<fixture>/<op>/<codec>`), `estimates.json` (the median time per iteration, ns,
//! with criterion's own interval) and `sample.json` (each sample's iterations and time, whose
//! fastest per iteration is the figure beside the median). One iteration is one operation in
//! thaw's warm benches.

use super::{plausible_ns, MAX_NS, MIN_NS};
use anyhow::{Context, Result};
use files::Kind;
use schema::{Allocator, Op, Variant};
use serde::{Deserialize, Serialize};
use stats::size_effect::SizeEffect;
use std::path::{Path, PathBuf};

/// One warm benchmark's median time per operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct WarmEstimate {
    pub(crate) fixture: String,
    pub(crate) op: Op,
    pub(crate) codec: String,
    /// The folder under criterion's root (`portable`, `native`); `None` when there is none.
    pub(crate) variant: Option<Variant>,
    pub(crate) median_ns: f64,
    pub(crate) lo_ns: f64,
    pub(crate) hi_ns: f64,
    /// How many samples criterion took (`sample.json`); a quick pass takes 10, a full one 100.
    pub(crate) criterion_samples: Option<usize>,
    /// The fastest of criterion's samples, per iteration (a sample's time over its iterations):
    /// one process's, or across a forked figure's processes the median of theirs with the
    /// interval across them. The statistic of serde-rs/json-benchmark's figures, and the one
    /// that moves least from one run to the next on a shared machine (docs/statistics.md).
    /// `None` without criterion's samples (JMH's figures).
    pub(crate) fastest: Option<Fastest>,
    /// A forked run's figure: the median and interval above are across these processes, each
    /// process's own estimate kept as a detail. `None`: one process's estimate (criterion's or
    /// JMH's own).
    pub(crate) forks: Option<Forks>,
    /// The global allocator the processes ran on, where the run recorded it.
    pub(crate) allocator: Option<Allocator>,
    /// How each process's cost per operation moved with its samples' iterations (criterion's
    /// samples; none for JMH's figures): a cost that grows with the sample is the harness's,
    /// not the library's (`analyze::warm_size`).
    pub(crate) size_effects: Vec<SizeEffect>,
}

/// The fastest sample's time per operation, with its interval across processes (one process:
/// the figure itself at both ends).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub(crate) struct Fastest {
    pub(crate) ns: f64,
    pub(crate) lo_ns: f64,
    pub(crate) hi_ns: f64,
}

/// The processes behind a forked warm figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Forks {
    /// How many processes measured the cell.
    pub(crate) processes: usize,
    /// What the interval across them guarantees for the median of the processes' figures: 95%
    /// from 6 processes, or the whole range's own coverage below (93.75% for 5).
    pub(crate) coverage: f64,
    /// Each process's criterion estimate (median, and criterion's interval within the process),
    /// in fork order.
    pub(crate) within: Vec<(f64, f64, f64)>,
    /// The fork round of each process in `within` (`fork-<k>`): a forked run measures every
    /// cell once per round, so two cells' processes of one round ran minutes apart at most.
    pub(crate) rounds: Vec<u32>,
}

/// Criterion's full mode takes this many samples; fewer means a quick or shortened pass.
pub(crate) const FULL_SAMPLES: usize = 100;

#[derive(Deserialize)]
struct SampleJson {
    /// Absent: the samples still count, and give no fastest.
    #[serde(default)]
    iters: Vec<f64>,
    times: Vec<f64>,
}

impl SampleJson {
    /// How the cost per iteration moves with the samples' iterations.
    fn size_effect(&self) -> Option<SizeEffect> {
        let per_op: Vec<f64> = self
            .times
            .iter()
            .zip(&self.iters)
            .map(|(t, n)| t / n)
            .collect();
        stats::size_effect::size_effect(&self.iters[..per_op.len()], &per_op)
    }

    /// The fastest sample's time per iteration; `None` when no sample gives a plausible one.
    fn fastest(&self) -> Option<f64> {
        self.times
            .iter()
            .zip(&self.iters)
            .filter(|&(_, &n)| n >= 1.0)
            .map(|(t, n)| t / n)
            .filter(|&ns| plausible_ns(ns))
            .min_by(f64::total_cmp)
    }
}

#[derive(Deserialize)]
struct BenchmarkJson {
    full_id: String,
}

#[derive(Deserialize)]
struct Interval {
    lower_bound: f64,
    upper_bound: f64,
}

#[derive(Deserialize)]
struct Estimate {
    point_estimate: f64,
    confidence_interval: Interval,
}

#[derive(Deserialize)]
struct EstimatesJson {
    median: Estimate,
}

/// Estimates under `root` (criterion's output folder), sorted, and notes about benches skipped.
/// `None` when `root` does not exist.
pub(crate) fn load_criterion(root: &Path) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    if !root.is_dir() {
        return Ok(None);
    }
    let mut found = Vec::new();
    find_new_dirs(root, &mut found, 0)?;
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for new_dir in found {
        match bench(root, &new_dir) {
            Ok(Some(estimate)) => out.push(estimate),
            Ok(None) => {}
            Err(note) => notes.push(format!("{note}; skipped")),
        }
    }
    out.sort_by(|a, b| {
        (&a.variant, &a.fixture, &a.op, &a.codec).cmp(&(&b.variant, &b.fixture, &b.op, &b.codec))
    });
    Ok(Some((out, notes)))
}

/// The estimate of the bench whose `new` folder (below `root`) is `new_dir`: `None` when
/// criterion's benchmark.json and estimates.json are not both there, the reason when it is
/// skipped.
fn bench(root: &Path, new_dir: &Path) -> std::result::Result<Option<WarmEstimate>, String> {
    let bpath = new_dir.join("benchmark.json");
    let epath = new_dir.join("estimates.json");
    if !bpath.is_file() || !epath.is_file() {
        return Ok(None);
    }
    let (b, e): (BenchmarkJson, EstimatesJson) = match (read_json(&bpath), read_json(&epath)) {
        (Ok(b), Ok(e)) => (b, e),
        (Err(why), _) | (_, Err(why)) => return Err(format!("{why:#}")),
    };
    let m = &e.median;
    let (lo, hi) = (
        m.confidence_interval.lower_bound,
        m.confidence_interval.upper_bound,
    );
    if ![m.point_estimate, lo, hi].iter().all(|v| plausible_ns(*v)) || lo > hi {
        return Err(format!(
            "{}: the median {:e} ns [{lo:e}, {hi:e}] is not a time per operation (finite, \
             from {MIN_NS} ns to below {MAX_NS:e} ns, the interval in order)",
            epath.display(),
            m.point_estimate
        ));
    }
    let (fixture, op, codec) = bench_cell(&b.full_id)?;
    let variant = variant_of(root, new_dir, fixture)?;
    let sample = read_json::<SampleJson>(&new_dir.join("sample.json")).ok();
    Ok(Some(WarmEstimate {
        fixture: fixture.to_string(),
        op,
        codec: codec.to_string(),
        variant,
        median_ns: e.median.point_estimate,
        lo_ns: e.median.confidence_interval.lower_bound,
        hi_ns: e.median.confidence_interval.upper_bound,
        criterion_samples: sample.as_ref().map(|sample| sample.times.len()),
        fastest: sample
            .as_ref()
            .and_then(SampleJson::fastest)
            .map(|ns| Fastest {
                ns,
                lo_ns: ns,
                hi_ns: ns,
            }),
        forks: None,
        allocator: None,
        size_effects: sample
            .as_ref()
            .and_then(SampleJson::size_effect)
            .into_iter()
            .collect(),
    }))
}

/// The fixture, op and codec of a criterion bench id, `<fixture>/<op>/<codec>`.
fn bench_cell(full_id: &str) -> std::result::Result<(&str, Op, &str), String> {
    let parts: Vec<&str> = full_id.split('/').collect();
    let [fixture, op, codec] = parts[..] else {
        return Err(format!(
            "criterion bench `{full_id}` is not <fixture>/<op>/<codec>"
        ));
    };
    match Op::parse(op) {
        Ok(op) => Ok((fixture, op, codec)),
        Err(e) => Err(format!("criterion bench `{full_id}`: {e}")),
    }
}

/// The variant of a bench of `fixture` in `new_dir`: the folder thaw puts above criterion's
/// (`None` where criterion's own folder, named after the fixture first, is at the top).
fn variant_of(
    root: &Path,
    new_dir: &Path,
    fixture: &str,
) -> std::result::Result<Option<Variant>, String> {
    let first = new_dir
        .strip_prefix(root)
        .ok()
        .and_then(|rel| rel.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .unwrap_or_default();
    // Criterion names a bench's folder after its group (the fixture first); anything
    // else in first place is the variant folder thaw puts above it.
    if first.starts_with(fixture) {
        return Ok(None);
    }
    match Variant::parse(&first) {
        Ok(v) => Ok(Some(v)),
        Err(e) => Err(format!(
            "criterion folder {}: {e}",
            root.join(&first).display()
        )),
    }
}

/// The most thaw reads of one criterion JSON file (they are a few KB).
const JSON_LIMIT: u64 = 16 * 1024 * 1024;

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let (folder, name) = files::Folder::of_file(path);
    let text = folder
        .read_bounded(&name, JSON_LIMIT)
        .map_err(anyhow::Error::from)
        .and_then(|b| Ok(String::from_utf8(b)?))
        .with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{}: not criterion's format", path.display()))
}

/// Every folder named `new` below `dir` (criterion's `report` folders are skipped).
/// How deep below criterion's root a bench's `new` folder may lie (criterion's own layout is
/// three or four folders deep).
const MAX_DEPTH: usize = 8;

fn find_new_dirs(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let subdirs = files::entries(dir)?
        .into_iter()
        .filter(|e| e.kind == Kind::Folder)
        .map(|e| e.path);
    for sub in subdirs {
        match sub.file_name().and_then(|n| n.to_str()) {
            Some("new") => out.push(sub),
            Some("report") | Some("base") | Some("change") => {}
            _ => find_new_dirs(&sub, out, depth + 1)?,
        }
    }
    Ok(())
}

/// Write one fake criterion bench (used by `synth` and tests): the two files this module reads,
/// below `root` (held: reached from it without following a link).
pub(crate) fn write_fake_bench(
    root: &files::Folder,
    variant: Variant,
    est: &WarmEstimate,
) -> Result<()> {
    let folder = root.sub(
        Path::new(variant.name())
            .join(format!("{}_{}", est.fixture, est.op))
            .join(&est.codec)
            .join("new"),
    );
    folder
        .create_dirs("")
        .with_context(|| format!("cannot create {}", folder.path().display()))?;
    let id = format!("{}/{}/{}", est.fixture, est.op, est.codec);
    let bench = serde_json::json!({
        "group_id": format!("{}/{}", est.fixture, est.op),
        "function_id": est.codec,
        "value_str": null,
        "throughput": null,
        "full_id": id,
        "directory_name": format!("{}_{}/{}", est.fixture, est.op, est.codec),
        "title": id,
    });
    let interval = serde_json::json!({
        "confidence_level": 0.95, "lower_bound": est.lo_ns, "upper_bound": est.hi_ns
    });
    let estimate = serde_json::json!({
        "confidence_interval": interval, "point_estimate": est.median_ns, "standard_error": 0.0
    });
    let estimates = serde_json::json!({
        "mean": estimate, "median": estimate, "median_abs_dev": estimate, "slope": null,
        "std_dev": estimate,
    });
    // written new and renamed: a link or a hard link planted in the folder is never written through
    folder.write_atomically("benchmark.json", bench.to_string().as_bytes())?;
    folder.write_atomically("estimates.json", estimates.to_string().as_bytes())?;
    if let Some(n) = est.criterion_samples {
        // every sample at the median, but the first at the fastest, where there is one
        let mut times = vec![est.median_ns; n];
        if let (Some(first), Some(f)) = (times.first_mut(), est.fastest) {
            *first = f.ns;
        }
        let sample =
            serde_json::json!({"sampling_mode": "Linear", "iters": vec![1.0; n], "times": times});
        folder.write_atomically("sample.json", sample.to_string().as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fastest_is_the_quickest_sample_per_iteration() {
        let sample = |json: &str| serde_json::from_str::<SampleJson>(json).unwrap();
        // 400 ns over 2 iterations is the quickest per iteration, not the 300 ns of one
        let s = sample(r#"{"iters": [1, 2, 4], "times": [300, 400, 1000]}"#);
        assert_eq!(s.fastest(), Some(200.0));
        // without iterations the samples still count, and give no fastest
        let s = sample(r#"{"times": [300, 400]}"#);
        assert_eq!((s.times.len(), s.fastest()), (2, None));
        // an implausible sample is passed over
        let s = sample(r#"{"iters": [1, 1], "times": [0, 500]}"#);
        assert_eq!(s.fastest(), Some(500.0));
    }

    #[test]
    fn reads_fake_criterion_tree() {
        let root = std::env::temp_dir().join(format!("thaw-criterion-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let est = WarmEstimate {
            fixture: "users-2kb".into(),
            op: Op::De,
            codec: "serde_json".into(),
            variant: Some(Variant::PORTABLE),
            median_ns: 1234.5,
            lo_ns: 1200.0,
            hi_ns: 1300.0,
            criterion_samples: Some(10),
            fastest: Some(Fastest {
                ns: 1100.0,
                lo_ns: 1100.0,
                hi_ns: 1100.0,
            }),
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        };
        write_fake_bench(&files::Folder::new(&root), Variant::PORTABLE, &est).unwrap();
        // a bench with a foreign id is skipped with a note
        let other = WarmEstimate {
            codec: "x/y".into(),
            ..est.clone()
        };
        write_fake_bench(&files::Folder::new(&root), Variant::NATIVE, &other).unwrap();
        // impossible estimates (the 1e308 that once hung a report's chart) are skipped with a note
        for (i, bad) in [1e308, f64::NAN, -5.0, 0.0, 1e-9, 1e-300, 5e-324]
            .into_iter()
            .enumerate()
        {
            let impossible = WarmEstimate {
                fixture: format!("bad-{i}"),
                median_ns: bad,
                ..est.clone()
            };
            write_fake_bench(&files::Folder::new(&root), Variant::PORTABLE, &impossible).unwrap();
        }
        let (got, notes) = load_criterion(&root).unwrap().unwrap();
        assert_eq!(got, vec![est], "{notes:?}");
        assert_eq!(notes.len(), 8, "{notes:?}");
        // NaN cannot be written in JSON: that file does not read, and is skipped too
        let why = |n: &String| n.contains("not a time per operation") as usize;
        assert_eq!(notes[1..].iter().map(why).sum::<usize>(), 6, "{notes:?}");
        assert!(notes[2].contains("not criterion's format"), "{notes:?}");
        assert!(load_criterion(&root.join("absent")).unwrap().is_none());
    }
}
