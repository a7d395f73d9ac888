//! JMH's warm estimates, the JVM's warm track (`warm/jvm`, `scripts/warm-jvm.sh`): every `*.json`
//! below `<warm>/jmh/` (one per JDK run, `results/warm/jmh/jdk25/jmh.json`, JMH's own result
//! format kept as JMH wrote it) read into the [`WarmEstimate`]s criterion's reader gives, so a
//! JVM codec's warm time per operation stands beside a Rust codec's.
//!
//! The mapping is explicit, never guessed: a result's `benchmark` is `<class>.<op>`, the class
//! one of [`BENCHES`] (each the bench of one cold codec id: `thaw.jmh.GsonBench` → `gson`), the
//! op `de` or `ser`, and its one parameter `fixture` the fixture; the variant is the JDK that ran
//! it, `jdk<major>` from the result's `jdkVersion` (`25.0.3` → `jdk25`).
//!
//! The time per operation is JMH's score with JMH's own 99.9% interval (`scoreConfidence`): as it
//! is for average time (`avgt`), converted for throughput (`thrpt`: ns = threads × 10⁹ / ops per
//! second, the interval's ends swapped). Where a cell has both, average time is taken. JMH gives no
//! interval for fewer than 3 measurement iterations in all (a quick pass: 1 fork × 2 iterations);
//! there, and where the interval reaches zero, the range of the measurement iterations stands in,
//! and a note says so. JMH's score is the mean over its iterations; it stands where criterion's
//! median does.
//!
//! Nothing here panics on a file: a file that is not JMH's format, or a result that is not one of
//! thaw's cells (an unknown class or op, a negative or non-finite score, a unit or mode JMH does
//! not write), is skipped with a note naming the file and what would be valid. Links below the
//! folder are never followed.

use super::criterion::WarmEstimate;
use super::plausible_ns;
use super::warm_gate::{load_gate, GateRow};
use anyhow::Result;
use files::Kind;
use schema::{Op, Variant};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// JMH bench class → the cold codec id it measures. `warm/jvm/src/main/java/thaw/jmh/Codecs.java`
/// holds the same table (`BENCHES`); a test checks that the two agree and that every id is a
/// cold codec's (`runtimes/jvm/codec-<id>.toml`).
pub(crate) const BENCHES: &[(&str, &str)] = &[
    ("thaw.jmh.KotlinxBench", "kotlinx"),
    ("thaw.jmh.GsonBench", "gson"),
    ("thaw.jmh.JacksonBench", "jackson"),
    ("thaw.jmh.ForyBench", "fory"),
];

/// The one JMH parameter of thaw's benches: the fixture.
pub(crate) const FIXTURE_PARAM: &str = "fixture";

/// The most thaw reads of one JMH result file (a full pass of every cell is a few hundred KB).
pub(crate) const READ_LIMIT: u64 = 64 * 1024 * 1024;

/// How deep below the root a result file may lie (`jmh/<jdk>/jmh.json` is one folder down).
const MAX_DEPTH: usize = 8;

/// The codec and op of a JMH benchmark name (`thaw.jmh.GsonBench.de` → `gson`, `de`); the error
/// says what would be valid.
pub(crate) fn cell_of(benchmark: &str) -> std::result::Result<(&'static str, Op), String> {
    let Some((class, method)) = benchmark.rsplit_once('.') else {
        return Err(format!(
            "benchmark `{}` is not <class>.<op> ({})",
            benchmark.escape_debug(),
            valid_benches()
        ));
    };
    let Some(&(_, codec)) = BENCHES.iter().find(|(c, _)| *c == class) else {
        return Err(format!(
            "benchmark `{}`: `{}` is not one of thaw's JMH bench classes ({})",
            benchmark.escape_debug(),
            class.escape_debug(),
            valid_benches()
        ));
    };
    let op = Op::parse(method).map_err(|_| {
        format!(
            "benchmark `{}`: unknown op `{}`: thaw's JMH benches are <class>.de and <class>.ser",
            benchmark.escape_debug(),
            method.escape_debug()
        )
    })?;
    Ok((codec, op))
}

fn valid_benches() -> String {
    BENCHES
        .iter()
        .map(|(class, codec)| format!("{class} → {codec}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The variant of a JDK version as JMH writes it (`25.0.3` → `jdk25`, `1.8.0_392` → `jdk8`).
pub(crate) fn jdk_variant(version: &str) -> std::result::Result<Variant, String> {
    let rest = version.strip_prefix("1.").unwrap_or(version);
    let major: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    match major.parse::<u32>() {
        Ok(n) if n > 0 && major.len() <= 4 => Variant::parse(&format!("jdk{n}")),
        _ => Err(format!(
            "jdkVersion `{}` does not start with a JDK's major version (25.0.3, 17.0.15, 1.8.0_392)",
            version.escape_debug()
        )),
    }
}

/// Estimates under `root` (`results/warm/jmh`), sorted, and notes about files and results
/// skipped, each naming its file. `None` when `root` does not exist.
pub(crate) fn load_jmh(root: &Path) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    load_jmh_limited(root, READ_LIMIT)
}

fn load_jmh_limited(root: &Path, limit: u64) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    if !root.is_dir() {
        return Ok(None);
    }
    let mut files = Vec::new();
    let mut notes = Vec::new();
    find_json(root, Path::new(""), 0, &mut files, &mut notes)?;
    files.sort();
    let folder = files::Folder::new(root);
    // The kept estimate of each cell, and the file it came from.
    let mut kept: BTreeMap<Key, (Candidate, PathBuf)> = BTreeMap::new();
    for rel in files {
        let path = root.join(&rel);
        let text = match folder
            .read_bounded(&rel, limit)
            .map_err(|e| e.to_string())
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8 text".to_string()))
        {
            Ok(t) => t,
            Err(why) => {
                notes.push(format!(
                    "{}: cannot read it: {why}; skipped",
                    path.display()
                ));
                continue;
            }
        };
        let Some(cells) = read_file(&path, &text, &mut notes) else {
            continue;
        };
        for (key, c) in cells {
            match kept.get(&key) {
                Some((_, first)) => notes.push(format!(
                    "{}: {} {} {} {} is also in {}, which is kept; skipped here",
                    path.display(),
                    key.codec,
                    key.fixture,
                    key.op,
                    key.variant,
                    first.display()
                )),
                None => {
                    kept.insert(key, (c, path.clone()));
                }
            }
        }
    }
    let out = kept
        .into_iter()
        .map(|(k, (c, _))| WarmEstimate {
            fixture: k.fixture,
            op: k.op,
            codec: k.codec.to_string(),
            variant: Some(k.variant),
            median_ns: c.ns,
            lo_ns: c.lo_ns,
            hi_ns: c.hi_ns,
            criterion_samples: None,
            fastest: None,
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        })
        .collect();
    Ok(Some((out, notes)))
}

/// The JMH gate's decisions: the `gate.csv` that `scripts/warm-jvm.sh` writes beside each
/// `jmh.json` under `root`, so that a JVM codec's unsupported or refused cells show as such in
/// the report rather than as blanks. Empty when `root` does not exist.
pub(crate) fn load_jmh_gates(root: &Path) -> Result<Vec<GateRow>> {
    if !root.is_dir() {
        return Ok(Vec::new());
    }
    let (mut files, mut notes) = (Vec::new(), Vec::new());
    find_json(root, Path::new(""), 0, &mut files, &mut notes)?;
    let mut folders: Vec<&Path> = files.iter().filter_map(|f| f.parent()).collect();
    folders.sort_unstable();
    folders.dedup();
    let mut rows = Vec::new();
    for folder in folders {
        if let Some((more, _)) = load_gate(&root.join(folder).join("gate.csv"))? {
            rows.extend(more);
        }
    }
    Ok(rows)
}

/// Every `*.json` below `dir` (relative to the root), links noted and never followed.
fn find_json(
    root: &Path,
    rel: &Path,
    depth: usize,
    out: &mut Vec<PathBuf>,
    notes: &mut Vec<String>,
) -> Result<()> {
    for entry in files::entries(&root.join(rel))? {
        let sub = rel.join(&entry.name);
        let is_json = Path::new(&entry.name)
            .extension()
            .is_some_and(|e| e == "json");
        match entry.kind {
            Kind::Link => {
                if is_json || root.join(&sub).is_dir() {
                    notes.push(format!(
                        "{}: a symbolic link; thaw reads no link below {}; skipped",
                        root.join(&sub).display(),
                        root.display()
                    ));
                }
            }
            Kind::Folder => {
                if depth < MAX_DEPTH {
                    find_json(root, &sub, depth + 1, out, notes)?;
                } else {
                    notes.push(format!(
                        "{}: more than {MAX_DEPTH} folders below {}; not searched",
                        root.join(&sub).display(),
                        root.display()
                    ));
                }
            }
            Kind::File if is_json => out.push(sub),
            Kind::File | Kind::Other => {}
        }
    }
    Ok(())
}

/// One cell of a run: codec × fixture × op × JDK.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    variant: Variant,
    fixture: String,
    op: Op,
    codec: &'static str,
}

#[derive(Debug, Clone)]
struct Candidate {
    mode: Mode,
    ns: f64,
    lo_ns: f64,
    hi_ns: f64,
}

/// Why the iterations' range stood in for JMH's interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StandIn {
    /// JMH wrote none (`NaN`: fewer than 3 measurements in all).
    NoInterval = 0,
    /// Its low end is zero or below (the error is as large as the score).
    ReachesZero = 1,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Throughput,
    AverageTime,
}

#[derive(Deserialize)]
struct RawResult {
    benchmark: String,
    mode: String,
    #[serde(default = "one")]
    threads: u32,
    #[serde(rename = "jdkVersion")]
    jdk_version: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, String>,
    #[serde(rename = "primaryMetric")]
    primary: RawMetric,
}

fn one() -> u32 {
    1
}

#[derive(Deserialize)]
struct RawMetric {
    score: Value,
    #[serde(rename = "scoreConfidence", default)]
    score_confidence: Vec<Value>,
    #[serde(rename = "scoreUnit")]
    score_unit: String,
    #[serde(rename = "rawData", default)]
    raw_data: Vec<Vec<Value>>,
}

/// What a JMH result file is, for the notes on one that is not.
const SHAPE: &str = "JMH's JSON result format (-rf json): an array of results, each with \
                     benchmark, mode, params and primaryMetric {score, scoreConfidence, \
                     scoreUnit}";

/// The cells of one file (average time preferred to throughput), with notes for what is skipped;
/// `None` (and a note) when the file is not JMH's result format.
fn read_file(path: &Path, text: &str, notes: &mut Vec<String>) -> Option<Vec<(Key, Candidate)>> {
    let all: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            notes.push(format!(
                "{}: not {SHAPE} ({e}; a run cut short leaves a truncated file); skipped",
                path.display()
            ));
            return None;
        }
    };
    let Value::Array(items) = all else {
        notes.push(format!(
            "{}: not {SHAPE} (not an array); skipped",
            path.display()
        ));
        return None;
    };
    let mut cells: BTreeMap<Key, Candidate> = BTreeMap::new();
    // How many results had no interval, and how many one reaching zero or below.
    let mut stand_ins = [0usize; 2];
    for (i, item) in items.into_iter().enumerate() {
        let (what, raw) = parse_result(i, item);
        let (key, cand, stood_in) = match raw.and_then(|raw| cell(&raw)) {
            Ok(c) => c,
            Err(why) => {
                notes.push(format!("{}: {what}: {why}; skipped", path.display()));
                continue;
            }
        };
        match cells.get(&key) {
            Some(prev) if prev.mode == cand.mode => notes.push(format!(
                "{}: {what}: a second {} result for {} {} {}; the first is kept",
                path.display(),
                mode_name(cand.mode),
                key.codec,
                key.fixture,
                key.op
            )),
            Some(prev) if prev.mode == Mode::AverageTime => {}
            _ => {
                if let Some(why) = stood_in {
                    stand_ins[why as usize] += 1;
                }
                cells.insert(key, cand);
            }
        }
    }
    notes.extend(stand_in_notes(path, stand_ins));
    Some(cells.into_iter().collect())
}

/// Result `i` of a file as JMH's result, and the words a note names it by (its benchmark, where
/// it has one); the error says why it is not a result.
fn parse_result(i: usize, item: Value) -> (String, std::result::Result<RawResult, String>) {
    let what = item
        .get("benchmark")
        .and_then(Value::as_str)
        .map(|b| format!("result {i} (`{}`)", b.escape_debug()))
        .unwrap_or_else(|| format!("result {i}"));
    let raw = serde_json::from_value(item).map_err(|e| format!("not a result of {SHAPE}: {e}"));
    (what, raw)
}

/// A file's notes on the results whose measurement iterations' range stood in for JMH's
/// interval, one per reason ([`StandIn`] indexes `stand_ins`).
fn stand_in_notes(path: &Path, stand_ins: [usize; 2]) -> Vec<String> {
    let mut notes = Vec::new();
    if stand_ins[StandIn::NoInterval as usize] > 0 {
        notes.push(format!(
            "{}: {} result(s) without a JMH interval (JMH gives none for fewer than 3 measurement \
             iterations in all, as in a quick pass): the range of their measurement iterations \
             stands in",
            path.display(),
            stand_ins[StandIn::NoInterval as usize]
        ));
    }
    if stand_ins[StandIn::ReachesZero as usize] > 0 {
        notes.push(format!(
            "{}: {} result(s) whose JMH interval reaches zero or below (an error as large as the \
             score: too few or too scattered iterations): the range of their measurement \
             iterations stands in",
            path.display(),
            stand_ins[StandIn::ReachesZero as usize]
        ));
    }
    notes
}

fn mode_name(m: Mode) -> &'static str {
    match m {
        Mode::Throughput => "thrpt",
        Mode::AverageTime => "avgt",
    }
}

/// A number as JMH writes one: a JSON number, or `"NaN"`, `"+INF"`, `"-INF"` for those.
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.as_str() {
            "NaN" => Some(f64::NAN),
            "+INF" | "INF" | "Infinity" => Some(f64::INFINITY),
            "-INF" | "-Infinity" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

/// Seconds in one of JMH's time units (`TimeUnit`'s short labels).
fn unit_seconds(label: &str) -> Option<f64> {
    Some(match label {
        "ns" => 1e-9,
        "us" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        "min" => 60.0,
        "hr" => 3600.0,
        "day" => 86400.0,
        _ => return None,
    })
}

/// One result as a cell: its key, its time per operation, and why the iterations' range stood in
/// for JMH's interval, if it did.
fn cell(r: &RawResult) -> std::result::Result<(Key, Candidate, Option<StandIn>), String> {
    let (codec, op) = cell_of(&r.benchmark)?;
    let mode = mode_of(&r.mode)?;
    let fixture = fixture_of(&r.params)?;
    let Some(version) = r.jdk_version.as_deref() else {
        return Err(
            "no jdkVersion (JMH writes the JDK that ran it; its major version is the \
                    variant)"
                .into(),
        );
    };
    let variant = jdk_variant(version)?;
    if r.threads == 0 {
        return Err("threads is 0".into());
    }
    let m = &r.primary;
    let unit = m.score_unit.as_str();
    let to_ns = ns_per_op(mode, unit, r.threads)?;
    let Some(score) = number(&m.score) else {
        return Err(format!("score `{}` is not a number", m.score));
    };
    if !(score.is_finite() && score > 0.0) {
        return Err(format!("score {score} is not a positive finite number"));
    }
    let ns = to_ns(score);
    if !plausible_ns(ns) {
        return Err(format!(
            "score {score} {unit} is {ns:e} ns per operation: not a time per operation (finite, \
             from {} ns to below {:e} ns)",
            super::MIN_NS,
            super::MAX_NS
        ));
    }
    let (interval, stood_in) = interval_of(m, score)?;
    // Throughput's interval is turned over: its high end is the shorter time.
    let (a, b) = (to_ns(interval.0), to_ns(interval.1));
    let (lo_ns, hi_ns) = if a <= b { (a, b) } else { (b, a) };
    if !(plausible_ns(lo_ns) && plausible_ns(hi_ns)) {
        return Err(format!(
            "interval [{lo_ns:e}, {hi_ns:e}] ns is not a range of times per operation"
        ));
    }
    Ok((
        Key {
            variant,
            fixture: fixture.clone(),
            op,
            codec,
        },
        Candidate {
            mode,
            ns,
            lo_ns,
            hi_ns,
        },
        stood_in,
    ))
}

/// The mode of a result's `mode`: average time or throughput, the two thaw reads.
fn mode_of(mode: &str) -> std::result::Result<Mode, String> {
    match mode {
        "thrpt" => Ok(Mode::Throughput),
        "avgt" => Ok(Mode::AverageTime),
        other => Err(format!(
            "mode `{}` is not one thaw reads (thrpt or avgt)",
            other.escape_debug()
        )),
    }
}

/// The fixture of a result's parameters: its one parameter, checked to be a fixture's name.
fn fixture_of(params: &BTreeMap<String, String>) -> std::result::Result<&String, String> {
    let Some(fixture) = params.get(FIXTURE_PARAM) else {
        return Err(format!(
            "no `{FIXTURE_PARAM}` parameter (thaw's benches have that one)"
        ));
    };
    if let Some(other) = params.keys().find(|k| *k != FIXTURE_PARAM) {
        return Err(format!(
            "parameter `{}` is not one of thaw's benches (they have `{FIXTURE_PARAM}` only)",
            other.escape_debug()
        ));
    }
    let fixture_ok = (1..=64).contains(&fixture.len())
        && fixture
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c));
    if !fixture_ok {
        return Err(format!(
            "fixture `{}` is not a fixture's name (1 to 64 of a-z, 0-9, `-`, `_`, `.`)",
            fixture.escape_debug()
        ));
    }
    Ok(fixture)
}

/// The conversion of a value in the score's unit to ns per operation (per thread, for
/// throughput), or why the unit is not one JMH writes for the mode.
fn ns_per_op(
    mode: Mode,
    unit: &str,
    threads: u32,
) -> std::result::Result<impl Fn(f64) -> f64, String> {
    let (per_op, secs) = match (mode, unit.split_once('/')) {
        (Mode::Throughput, Some(("ops", t))) => (false, unit_seconds(t)),
        (Mode::AverageTime, Some((t, "op"))) => (true, unit_seconds(t)),
        _ => (false, None),
    };
    let Some(secs) = secs else {
        return Err(format!(
            "score unit `{}` is not one JMH writes for {} (ops/s, ops/ms, ops/us, ops/ns for \
             thrpt; s/op, ms/op, us/op, ns/op for avgt)",
            unit.escape_debug(),
            mode_name(mode)
        ));
    };
    let threads = f64::from(threads);
    Ok(move |v: f64| {
        if per_op {
            v * secs * 1e9
        } else {
            threads * secs * 1e9 / v
        }
    })
}

/// The interval of a score in its own unit: JMH's, or where JMH gave none or one reaching zero,
/// the range of the measurement iterations (with why it stood in).
fn interval_of(
    m: &RawMetric,
    score: f64,
) -> std::result::Result<((f64, f64), Option<StandIn>), String> {
    let interval = match m.score_confidence.as_slice() {
        [lo, hi] => match (number(lo), number(hi)) {
            (Some(lo), Some(hi))
                if lo.is_finite() && hi.is_finite() && lo <= score && score <= hi =>
            {
                if lo > 0.0 {
                    Ok((lo, hi))
                } else {
                    Err(StandIn::ReachesZero)
                }
            }
            _ => Err(StandIn::NoInterval),
        },
        _ => Err(StandIn::NoInterval),
    };
    match interval {
        Ok(i) => Ok((i, None)),
        Err(why) => {
            let all: Vec<f64> = m.raw_data.iter().flatten().filter_map(number).collect();
            if all.is_empty() || !all.iter().all(|v| v.is_finite() && *v > 0.0) {
                return Err(format!(
                    "no usable interval (scoreConfidence {:?}) and no measurement iterations \
                     (rawData) to stand in",
                    m.score_confidence
                ));
            }
            let lo = all.iter().copied().fold(f64::INFINITY, f64::min).min(score);
            let hi = all
                .iter()
                .copied()
                .fold(f64::NEG_INFINITY, f64::max)
                .max(score);
            Ok(((lo, hi), Some(why)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::warm_files::GateDecision;
    use std::fs;

    /// A fresh folder for one test.
    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("thaw-jmh-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
        let p = root.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        p
    }

    /// One result as JMH 1.37 writes it (`score`, `lo`, `hi` as JSON values: numbers or "NaN").
    fn result(
        bench: &str,
        mode: &str,
        fixture: &str,
        score: &str,
        ci: (&str, &str),
        unit: &str,
    ) -> String {
        format!(
            r#"{{
        "jmhVersion" : "1.37",
        "benchmark" : "{bench}",
        "mode" : "{mode}",
        "threads" : 1,
        "forks" : 2,
        "jvm" : "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java",
        "jvmArgs" : ["-Xms1g", "-Xmx1g"],
        "jdkVersion" : "25.0.3",
        "vmName" : "OpenJDK 64-Bit Server VM",
        "vmVersion" : "25.0.3+9-LTS",
        "warmupIterations" : 1,
        "warmupTime" : "5 s",
        "warmupBatchSize" : 1,
        "measurementIterations" : 3,
        "measurementTime" : "1 s",
        "measurementBatchSize" : 1,
        "params" : {{ "fixture" : "{fixture}" }},
        "primaryMetric" : {{
            "score" : {score},
            "scoreError" : 1.0,
            "scoreConfidence" : [ {}, {} ],
            "scorePercentiles" : {{ "50.0" : {score} }},
            "scoreUnit" : "{unit}",
            "rawData" : [ [ {score}, {score} ] ]
        }},
        "secondaryMetrics" : {{ }}
    }}"#,
            ci.0, ci.1
        )
    }

    fn array(items: &[String]) -> String {
        format!("[\n{}\n]\n", items.join(",\n"))
    }

    fn est(codec: &str, fixture: &str, op: Op, ns: f64, lo: f64, hi: f64) -> WarmEstimate {
        WarmEstimate {
            fixture: fixture.into(),
            op,
            codec: codec.into(),
            variant: Some(Variant::parse("jdk25").unwrap()),
            median_ns: ns,
            lo_ns: lo,
            hi_ns: hi,
            criterion_samples: None,
            fastest: None,
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
    }

    fn assert_est(got: &WarmEstimate, want: &WarmEstimate) {
        assert_eq!(
            (
                &got.fixture,
                got.op,
                &got.codec,
                got.variant,
                got.criterion_samples
            ),
            (
                &want.fixture,
                want.op,
                &want.codec,
                want.variant,
                want.criterion_samples
            )
        );
        for (g, w) in [
            (got.median_ns, want.median_ns),
            (got.lo_ns, want.lo_ns),
            (got.hi_ns, want.hi_ns),
        ] {
            assert!(close(g, w), "{got:?} is not {want:?}");
        }
    }

    #[test]
    fn known_answers_throughput_and_average_time() {
        let root = tmp("known");
        write(
            &root,
            "jdk25/jmh.json",
            &array(&[
                // 250,000 ops/s is 4,000 ns per op; [200,000, 312,500] ops/s is [3,200, 5,000] ns.
                result(
                    "thaw.jmh.GsonBench.de",
                    "thrpt",
                    "users-2kb",
                    "250000.0",
                    ("200000.0", "312500.0"),
                    "ops/s",
                ),
                // 4 us/op is 4,000 ns, as it is.
                result(
                    "thaw.jmh.ForyBench.ser",
                    "avgt",
                    "users-1000kb",
                    "4.0",
                    ("3.5", "4.5"),
                    "us/op",
                ),
                // 0.5 ops/ms is 500 ops/s, 2,000,000 ns per op.
                result(
                    "thaw.jmh.KotlinxBench.ser",
                    "thrpt",
                    "users-1kb",
                    "0.5",
                    ("0.4", "0.625"),
                    "ops/ms",
                ),
                result(
                    "thaw.jmh.JacksonBench.de",
                    "avgt",
                    "clients-1kb",
                    "1234.5",
                    ("1200", "1300"),
                    "ns/op",
                ),
            ]),
        );
        let (got, notes) = load_jmh(&root).unwrap().unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        // Sorted by variant, fixture, op, codec.
        let want = [
            est("jackson", "clients-1kb", Op::De, 1234.5, 1200.0, 1300.0),
            est("fory", "users-1000kb", Op::Ser, 4000.0, 3500.0, 4500.0),
            est("kotlinx", "users-1kb", Op::Ser, 2e6, 1.6e6, 2.5e6),
            est("gson", "users-2kb", Op::De, 4000.0, 3200.0, 5000.0),
        ];
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(&want) {
            assert_est(g, w);
        }
        assert_eq!(got[0].variant.unwrap().name(), "jdk25");
        assert!(load_jmh(&root.join("absent")).unwrap().is_none());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn average_time_is_preferred_and_threads_divide_throughput() {
        let root = tmp("modes");
        let mut two_threads = result(
            "thaw.jmh.GsonBench.ser",
            "thrpt",
            "users-10kb",
            "500000",
            ("400000", "625000"),
            "ops/s",
        );
        two_threads = two_threads.replace("\"threads\" : 1", "\"threads\" : 2");
        write(
            &root,
            "jdk25/jmh.json",
            &array(&[
                result(
                    "thaw.jmh.GsonBench.de",
                    "thrpt",
                    "users-2kb",
                    "250000",
                    ("200000", "312500"),
                    "ops/s",
                ),
                result(
                    "thaw.jmh.GsonBench.de",
                    "avgt",
                    "users-2kb",
                    "4100",
                    ("4000", "4200"),
                    "ns/op",
                ),
                two_threads,
            ]),
        );
        let (got, notes) = load_jmh(&root).unwrap().unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(got.len(), 2, "{got:?}");
        // 500,000 ops/s over 2 threads: each op takes 4,000 ns of one thread.
        assert_est(
            &got[0],
            &est("gson", "users-10kb", Op::Ser, 4000.0, 3200.0, 5000.0),
        );
        assert_est(
            &got[1],
            &est("gson", "users-2kb", Op::De, 4100.0, 4000.0, 4200.0),
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_quick_pass_without_an_interval_takes_the_iterations_range() {
        let root = tmp("quick");
        let quick = result(
            "thaw.jmh.JacksonBench.ser",
            "thrpt",
            "users-2kb",
            "250000",
            ("\"NaN\"", "\"NaN\""),
            "ops/s",
        )
        .replace("[ [ 250000, 250000 ] ]", "[ [ 200000, 300000 ] ]");
        // An error larger than the score: the interval reaches below zero.
        let wide = result(
            "thaw.jmh.JacksonBench.de",
            "avgt",
            "users-2kb",
            "4000",
            ("-100", "8100"),
            "ns/op",
        )
        .replace("[ [ 4000, 4000 ] ]", "[ [ 3000, 5000 ] ]");
        write(
            &root,
            "jdk17/jmh.json",
            &array(&[quick.replace("25.0.3", "17.0.15")]),
        );
        write(&root, "jdk25/jmh.json", &array(&[wide]));
        let (got, mut notes) = load_jmh(&root).unwrap().unwrap();
        assert_eq!(got.len(), 2, "{notes:?}");
        assert_est(
            &got[1],
            &est("jackson", "users-2kb", Op::De, 4000.0, 3000.0, 5000.0),
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[1].contains("jdk25/jmh.json") && notes[1].contains("reaches zero"),
            "{notes:?}"
        );
        notes.pop();
        assert_eq!(got[0].variant.unwrap().name(), "jdk17");
        assert!(close(got[0].median_ns, 4000.0));
        assert!(
            close(got[0].lo_ns, 1e9 / 300000.0) && close(got[0].hi_ns, 5000.0),
            "{got:?}"
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("jdk17/jmh.json") && notes[0].contains("range"),
            "{notes:?}"
        );
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn bad_inputs_are_notes_naming_the_file_never_panics() {
        let root = tmp("bad");
        let good = result(
            "thaw.jmh.GsonBench.de",
            "avgt",
            "users-2kb",
            "4000",
            ("3900", "4100"),
            "ns/op",
        );
        // A run cut short: the file ends mid-way.
        write(
            &root,
            "a/truncated.json",
            &array(std::slice::from_ref(&good))[..200],
        );
        // Not an array.
        write(&root, "b/object.json", &good);
        write(&root, "c/empty.json", "");
        let bad = |from: &str, to: &str| good.replacen(from, to, 1);
        write(
            &root,
            "d/jmh.json",
            &array(&[
                bad("\"score\" : 4000", "\"score\" : -4000"),
                bad("\"score\" : 4000", "\"score\" : \"NaN\""),
                bad("\"score\" : 4000", "\"score\" : \"+INF\""),
                bad("\"score\" : 4000", "\"score\" : \"fast\""),
                bad("GsonBench.de", "GsonBench.parse"),
                bad("thaw.jmh.GsonBench", "org.example.GsonBench"),
                bad("GsonBench.de", "GsonBench"),
                bad("\"avgt\"", "\"ss\""),
                bad("\"ns/op\"", "\"furlongs/op\""),
                bad("\"fixture\" : \"users-2kb\"", "\"size\" : \"2kb\""),
                bad("\"fixture\" : \"users-2kb\"", "\"fixture\" : \"../../etc\""),
                bad("\"jdkVersion\" : \"25.0.3\",", ""),
                bad(
                    "\"jdkVersion\" : \"25.0.3\"",
                    "\"jdkVersion\" : \"unknown\"",
                ),
                bad("\"primaryMetric\"", "\"otherMetric\""),
                bad(
                    "\"params\" : { \"fixture\" : \"users-2kb\" }",
                    "\"params\" : { \"fixture\" : 2 }",
                ),
                bad("\"score\" : 4000", "\"score\" : 1e300"),
                // No interval and no iterations to stand in.
                bad("[ 3900, 4100 ]", "[ \"NaN\", \"NaN\" ]")
                    .replace("\"rawData\" : [ [ 4000, 4000 ] ]", "\"rawData\" : [ ]"),
                "42".to_string(),
                good.clone(),
            ]),
        );
        // Not JSON at all, and not UTF-8.
        fs::write(root.join("d/binary.json"), [0xff, 0xfe, 0x00]).unwrap();
        // Files of other kinds are not read.
        write(&root, "d/gate.csv", "fixture,op,codec,decision,reason\n");
        let (got, notes) = load_jmh(&root).unwrap().unwrap();
        assert_eq!(got.len(), 1, "{got:?} {notes:?}");
        assert_est(
            &got[0],
            &est("gson", "users-2kb", Op::De, 4000.0, 3900.0, 4100.0),
        );
        let has = |file: &str, what: &str| {
            assert!(
                notes.iter().any(|n| n.contains(file) && n.contains(what)),
                "no note on {file} saying {what}: {notes:#?}"
            )
        };
        has("truncated.json", "not JMH's JSON result format");
        has("object.json", "not an array");
        has("empty.json", "not JMH's JSON result format");
        has("binary.json", "not UTF-8");
        has("d/jmh.json", "score -4000 is not a positive finite number");
        has("d/jmh.json", "score NaN is not a positive finite number");
        has("d/jmh.json", "score inf is not a positive finite number");
        has("d/jmh.json", "score `\"fast\"` is not a number");
        has(
            "d/jmh.json",
            "unknown op `parse`: thaw's JMH benches are <class>.de and <class>.ser",
        );
        has("d/jmh.json", "`org.example.GsonBench` is not one of thaw's JMH bench classes (thaw.jmh.KotlinxBench → kotlinx");
        has(
            "d/jmh.json",
            "`thaw.jmh` is not one of thaw's JMH bench classes",
        );
        has(
            "d/jmh.json",
            "mode `ss` is not one thaw reads (thrpt or avgt)",
        );
        has("d/jmh.json", "score unit `furlongs/op`");
        has("d/jmh.json", "no `fixture` parameter");
        has("d/jmh.json", "is not a fixture's name");
        has("d/jmh.json", "no jdkVersion");
        has("d/jmh.json", "jdkVersion `unknown`");
        has("d/jmh.json", "not a result of JMH's JSON result format");
        has("d/jmh.json", "not a time per operation");
        has("d/jmh.json", "no usable interval");
        has("d/jmh.json", "result 17: not a result");
        assert_eq!(notes.len(), 4 + 18, "{notes:#?}");
        assert!(!notes.iter().any(|n| n.contains("gate.csv")), "{notes:?}");
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn the_gate_beside_each_jmh_file_is_read() {
        let root = tmp("gates");
        write(&root, "jdk25/jmh.json", "[]");
        write(
            &root,
            "jdk25/gate.csv",
            "fixture,op,codec,decision,reason\n\
             clients-1kb,de,kotlinx,unsupported,no serializer for an exact decimal\n\
             users-1kb,de,kotlinx,run,\n",
        );
        write(&root, "jdk17/jmh.json", "[]");
        write(
            &root,
            "jdk17/gate.csv",
            "fixture,op,codec,decision,reason\nusers-1kb,ser,gson,refused,wrong output\n",
        );
        // a gate.csv with no jmh.json beside it is not the JMH track's
        write(
            &root,
            "stray/gate.csv",
            "fixture,op,codec,decision,reason\nusers-1kb,ser,fory,refused,x\n",
        );
        let got = load_jmh_gates(&root).unwrap();
        let seen: Vec<(&str, &str, GateDecision)> = got
            .iter()
            .map(|g| (g.fixture.as_str(), g.codec.as_str(), g.decision))
            .collect();
        assert_eq!(
            seen,
            [
                ("users-1kb", "gson", GateDecision::Refused),
                ("clients-1kb", "kotlinx", GateDecision::Unsupported),
                ("users-1kb", "kotlinx", GateDecision::Run),
            ]
        );
        assert!(load_jmh_gates(&root.join("absent")).unwrap().is_empty());
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn links_are_refused_large_files_skipped_and_duplicates_noted() {
        let root = tmp("links");
        let outside = tmp("links-outside");
        let good = result(
            "thaw.jmh.GsonBench.de",
            "avgt",
            "users-2kb",
            "4000",
            ("3900", "4100"),
            "ns/op",
        );
        let other = result(
            "thaw.jmh.GsonBench.de",
            "avgt",
            "users-2kb",
            "9000",
            ("8900", "9100"),
            "ns/op",
        );
        write(&root, "jdk25/jmh.json", &array(std::slice::from_ref(&good)));
        // The same cell again in a later file: the first file's is kept.
        write(
            &root,
            "jdk25/k-again.json",
            &array(std::slice::from_ref(&other)),
        );
        let target = write(
            &outside,
            "elsewhere.json",
            &array(&[other.replace("users-2kb", "users-1kb")]),
        );
        std::os::unix::fs::symlink(&target, root.join("jdk25/linked.json")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("linked-dir")).unwrap();
        let (got, notes) = load_jmh(&root).unwrap().unwrap();
        assert_eq!(got.len(), 1, "{got:?} {notes:?}");
        assert!(close(got[0].median_ns, 4000.0), "{got:?}");
        assert!(
            notes.iter().any(|n| n.contains("k-again.json")
                && n.contains("is also in")
                && n.contains("jdk25/jmh.json")),
            "{notes:#?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("linked.json") && n.contains("symbolic link")),
            "{notes:#?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("linked-dir") && n.contains("symbolic link")),
            "{notes:#?}"
        );
        assert_eq!(notes.len(), 3, "{notes:#?}");
        // A file over the bound is refused with its size, not read.
        let (got, notes) = load_jmh_limited(&root, 100).unwrap().unwrap();
        assert!(got.is_empty());
        assert!(
            notes
                .iter()
                .any(|n| n.contains("jmh.json") && n.contains("larger than the 100 bytes")),
            "{notes:#?}"
        );
        fs::remove_dir_all(&root).unwrap();
        fs::remove_dir_all(&outside).unwrap();
    }

    #[test]
    fn the_mapping_is_explicit_and_agrees_with_the_java_benches_and_the_cold_codecs() {
        assert_eq!(cell_of("thaw.jmh.GsonBench.de"), Ok(("gson", Op::De)));
        assert_eq!(cell_of("thaw.jmh.GsonBench.ser"), Ok(("gson", Op::Ser)));
        assert_eq!(
            cell_of("thaw.jmh.JacksonBench.ser"),
            Ok(("jackson", Op::Ser))
        );
        assert_eq!(cell_of("thaw.jmh.ForyBench.de"), Ok(("fory", Op::De)));
        assert_eq!(cell_of("thaw.jmh.KotlinxBench.de"), Ok(("kotlinx", Op::De)));
        assert!(cell_of("thaw.jmh.Bench.de").is_err());
        assert!(cell_of("thaw.jmh.gsonbench.de").is_err());
        assert!(cell_of("de").is_err());
        assert_eq!(jdk_variant("25.0.3").unwrap().name(), "jdk25");
        assert_eq!(jdk_variant("17.0.15").unwrap().name(), "jdk17");
        assert_eq!(jdk_variant("21-ea").unwrap().name(), "jdk21");
        assert_eq!(jdk_variant("1.8.0_392").unwrap().name(), "jdk8");
        assert!(jdk_variant("").is_err() && jdk_variant("jdk").is_err());

        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        // The Java side's table: `BENCHES.put("gson", GsonBench.class.getName());`, same order.
        let java =
            fs::read_to_string(repo.join("warm/jvm/src/main/java/thaw/jmh/Codecs.java")).unwrap();
        let java_table: Vec<(String, String)> = java
            .lines()
            .filter_map(|l| {
                let rest = l.trim().strip_prefix("BENCHES.put(\"")?;
                let (id, rest) = rest.split_once("\", ")?;
                let class = rest.strip_suffix(".class.getName());")?;
                Some((format!("thaw.jmh.{class}"), id.to_string()))
            })
            .collect();
        let rust_table: Vec<(String, String)> = BENCHES
            .iter()
            .map(|(c, id)| (c.to_string(), id.to_string()))
            .collect();
        assert_eq!(java_table, rust_table);
        for (class, id) in BENCHES {
            // Each bench class exists and names its codec id.
            let simple = class.rsplit('.').next().unwrap();
            let src = fs::read_to_string(
                repo.join(format!("warm/jvm/src/main/java/thaw/jmh/{simple}.java")),
            )
            .unwrap();
            assert!(src.contains(&format!("return \"{id}\";")), "{simple}.java");
            // Each id is a cold codec's.
            let toml =
                fs::read_to_string(repo.join(format!("runtimes/jvm/codec-{id}.toml"))).unwrap();
            assert!(
                toml.lines().any(|l| l.trim() == format!("id = \"{id}\"")),
                "codec-{id}.toml"
            );
        }
    }
}
