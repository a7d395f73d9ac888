//! `cold run` from start to finish: plan the cells, write the run folder, pass the correctness
//! gate and the preflight children, take every sample, mark the manifest finished, print the
//! summary. `--resume` picks up a run folder and takes exactly the samples it lacks.
//!
//! The pieces it calls each do one thing (plan, folder, manifest, sampler, summary); this module
//! only puts them in order and says what is happening.

use crate::children::{self, Variant};
use crate::cli::RunOptions;
use crate::folder::{self, SamplesWriter};
use crate::manifest::{self, CheckEntry, CodecEntry, FixtureEntry, Settings, UnsupportedEntry};
use crate::pin;
use crate::plan::{self, Cell};
use crate::progress::Progress;
use crate::sampler::{self, Job, Sampler};
use crate::summary;
use analysis::samples::PlanRow;
use anyhow::{bail, Context, Result};
use fixtures::codecs::{find_codec, registry, AnyCodec, Op};
use fixtures::verify::{verify_all, Verdict};
use fixtures::{catalog, sha256_hex, Fixture};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A line of what the runner is doing; a closed stdout does not stop a run.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// codec × fixture × op: the unit the gate, the preflight and the checksums work on.
type Trio = (String, String, String);

fn trio(codec: &str, fixture: &str, op: &str) -> Trio {
    (codec.to_string(), fixture.to_string(), op.to_string())
}

/// A fresh run. Returns the run folder (none for `--dry-run`).
pub fn run(o: &RunOptions) -> Result<Option<PathBuf>> {
    let (cells, unsupported) = plan::cells(&o.codecs, &o.ops, &o.batches, &o.fixtures);
    if cells.is_empty() {
        let why: Vec<String> = unsupported
            .iter()
            .map(|u| format!("{} {} on {}: {}", u.codec, u.op, u.fixture, u.reason))
            .collect();
        bail!(
            "nothing to run: every cell is unsupported ({})",
            why.join("; ")
        );
    }
    if o.dry_run {
        let rows = plan::build(&cells, o.samples, o.seed, o.variant.name());
        print_plan(&rows)?;
        eprintln!(
            "{} cells × {} samples = {} samples (before the correctness gate and preflight)",
            cells.len(),
            o.samples,
            rows.len()
        );
        for u in &unsupported {
            eprintln!(
                "unsupported: {} {} on {}: {}",
                u.codec, u.op, u.fixture, u.reason
            );
        }
        return Ok(None);
    }

    // The children, found and fingerprinted before anything is written.
    let children_dir = match &o.children_dir {
        Some(dir) => dir.clone(),
        None => children::default_dir(o.variant)?,
    };
    let planned_codecs: Vec<&'static dyn AnyCodec> = o
        .codecs
        .iter()
        .copied()
        .filter(|c| cells.iter().any(|cell| cell.codec == c.id()))
        .collect();
    let ids: Vec<&str> = planned_codecs.iter().map(|c| c.id()).collect();
    let paths = children::find(&children_dir, &ids, o.variant)?;
    let mut codec_entries = Vec::new();
    let mut child_paths = HashMap::new();
    for (codec, path) in planned_codecs.iter().zip(paths) {
        let bytes = std::fs::read(&path).with_context(|| {
            format!(
                "cannot read the child of codec {}: {}",
                codec.id(),
                path.display()
            )
        })?;
        codec_entries.push(CodecEntry {
            id: codec.id().to_string(),
            library: codec.library().to_string(),
            version: codec.version().to_string(),
            style: codec.style().name().to_string(),
            child: path.display().to_string(),
            child_bytes: bytes.len() as u64,
            child_sha256: sha256_hex(&bytes),
        });
        child_paths.insert(codec.id().to_string(), path);
    }

    let pinning = match &o.pin {
        Some(cpus) => {
            let mask = pin::pin(cpus)?;
            say!("pinned to CPUs {}", pin::format_cpus(&mask));
            Some(pin::format_cpus(&mask))
        }
        None => None,
    };

    let (started, started_utc) = manifest::utc_now();
    let dir = o
        .out
        .clone()
        .unwrap_or_else(|| folder::default_dir(started));
    folder::create(&dir)?;
    folder::point_latest(&dir)?;
    say!("run folder: {}", dir.display());

    // The one canonical document per fixture, written where the children read it.
    let mut documents: HashMap<&str, Vec<u8>> = HashMap::new();
    let mut fixture_entries = Vec::new();
    for fixture in &o.fixtures {
        let document = fixture
            .document(o.seed, o.corpora.as_deref())
            .with_context(|| format!("fixture {}", fixture.name))?;
        let path = folder::fixture_file(&dir, fixture.name);
        std::fs::write(&path, &document).with_context(|| {
            format!(
                "cannot write fixture {} to {}",
                fixture.name,
                path.display()
            )
        })?;
        fixture_entries.push(FixtureEntry {
            name: fixture.name.to_string(),
            bytes: document.len() as u64,
            sha256: sha256_hex(&document),
            file: format!("{}/{}.json", folder::FIXTURES, fixture.name),
        });
        documents.insert(fixture.name, document);
    }

    // The correctness gate, in-process, on every codec × fixture × op.
    let mut excluded: Vec<CheckEntry> = Vec::new();
    let checks = verify_all(
        &planned_codecs,
        &o.fixtures,
        &o.ops,
        o.seed,
        o.corpora.as_deref(),
    );
    let verification: Vec<CheckEntry> = checks
        .iter()
        .map(|c| CheckEntry {
            codec: c.codec.to_string(),
            fixture: c.fixture.to_string(),
            op: c.op.name().to_string(),
            status: c.verdict.label().to_lowercase(),
            detail: c.verdict.detail().to_string(),
        })
        .collect();
    let failed_gate: Vec<_> = checks
        .iter()
        .filter(|c| matches!(c.verdict, Verdict::Fail(_)))
        .collect();
    say!(
        "correctness gate: {} checks, {} failed",
        checks.len(),
        failed_gate.len()
    );
    for c in &failed_gate {
        say!("  {c} — left out, never timed");
        excluded.push(CheckEntry {
            status: "gate-failed".to_string(),
            ..entry(c.codec, c.fixture, c.op.name(), c.verdict.detail())
        });
    }

    // The checksum every child of a trio must print, and one unrecorded child per trio.
    let trios: BTreeSet<(&str, &str, Op)> =
        cells.iter().map(|c| (c.codec, c.fixture, c.op)).collect();
    let mut expected: HashMap<Trio, u64> = HashMap::new();
    let mut preflight = Vec::new();
    let spawner = spawner_path()?;
    let mut sampler = Sampler::new(&spawner, o.timeout, false)?;
    for &(codec_id, fixture_name, op) in &trios {
        if is_excluded(&excluded, codec_id, fixture_name, op.name()) {
            continue;
        }
        let codec = find_codec(codec_id).map_err(anyhow::Error::msg)?;
        let fixture = catalog::find(fixture_name)?;
        let document = &documents[fixture_name];
        let sum = match codec.expected_checksum(fixture, op, o.seed, document) {
            Ok(sum) => sum,
            Err(e) => {
                let detail = format!("cannot compute the expected checksum: {e}");
                say!("  preflight {codec_id} {op} on {fixture_name}: {detail} — left out");
                excluded.push(CheckEntry {
                    status: "preflight-failed".to_string(),
                    ..entry(codec_id, fixture_name, op.name(), &detail)
                });
                continue;
            }
        };
        let job = Job {
            plan: PlanRow {
                plan_index: 0,
                block: 0,
                codec: codec_id.to_string(),
                op: op.name().to_string(),
                batch: 1,
                fixture: fixture_name.to_string(),
                variant: o.variant.name().to_string(),
            },
            child: child_paths[codec_id].clone(),
            fixture_file: folder::fixture_file(&dir, fixture_name),
            seed: o.seed,
            expected: sum,
        };
        let row = sampler.sample(&job)?;
        let detail = row.error.clone().unwrap_or_default();
        preflight.push(CheckEntry {
            status: row.status.clone(),
            ..entry(codec_id, fixture_name, op.name(), &detail)
        });
        if row.is_ok() {
            expected.insert(trio(codec_id, fixture_name, op.name()), sum);
        } else {
            say!("  preflight {codec_id} {op} on {fixture_name}: {} {detail} — left out, never timed", row.status);
            excluded.push(CheckEntry {
                status: "preflight-failed".to_string(),
                ..entry(
                    codec_id,
                    fixture_name,
                    op.name(),
                    &format!("{}: {detail}", row.status),
                )
            });
        }
    }
    drop(sampler);
    say!(
        "preflight: {} children, {} failed",
        preflight.len(),
        preflight.iter().filter(|p| p.status != "ok").count()
    );

    let timed: Vec<Cell> = cells
        .iter()
        .filter(|c| !is_excluded(&excluded, c.codec, c.fixture, c.op.name()))
        .cloned()
        .collect();
    let plan_rows = plan::build(&timed, o.samples, o.seed, o.variant.name());
    folder::write_plan(&dir, &plan_rows)?;
    let settings = Settings {
        seed: o.seed,
        samples_per_cell: o.samples,
        variant: o.variant.name().to_string(),
        children_dir: children_dir.display().to_string(),
        pinning,
        cold_cache: o.cold_cache,
        timeout_secs: o.timeout.as_secs_f64(),
    };
    let mut manifest_value = manifest::build(&manifest::Contents {
        settings: settings.clone(),
        started_utc,
        command_line: std::env::args().collect(),
        codecs: codec_entries,
        fixtures: fixture_entries,
        ops: o.ops.iter().map(|op| op.name().to_string()).collect(),
        batches: o.batches.clone(),
        cells: timed.len(),
        samples_planned: plan_rows.len(),
        unsupported: unsupported
            .iter()
            .map(|u| UnsupportedEntry {
                codec: u.codec.to_string(),
                fixture: u.fixture.to_string(),
                op: u.op.name().to_string(),
                reason: u.reason.to_string(),
            })
            .collect(),
        verification,
        preflight,
        excluded,
    });
    manifest::write(&dir, &manifest_value)?;
    if timed.is_empty() {
        bail!(
            "every cell failed the correctness gate or the preflight; see {}",
            dir.join(folder::MANIFEST).display()
        );
    }

    say!(
        "{} cells × {} samples = {} children{}",
        timed.len(),
        o.samples,
        plan_rows.len(),
        if o.cold_cache { ", cold cache" } else { "" }
    );
    let jobs = jobs(&plan_rows, &child_paths, &dir, o.seed, &expected)?;
    let tally = take_samples(&dir, &jobs, &settings, plan_rows.len(), 0)?;
    finish(&dir, &mut manifest_value, &settings, tally)?;
    Ok(Some(dir))
}

/// The `cold-spawner` next to the runner, which must exist.
fn spawner_path() -> Result<PathBuf> {
    let path =
        crate::spawner::Spawner::default_path().context("cannot find the runner's folder")?;
    if !path.is_file() {
        bail!(
            "no {} beside the runner (looked for {}); build it with `cargo build --release -p cold`",
            crate::spawner::BINARY,
            path.display()
        );
    }
    Ok(path)
}

fn entry(codec: &str, fixture: &str, op: &str, detail: &str) -> CheckEntry {
    CheckEntry {
        codec: codec.to_string(),
        fixture: fixture.to_string(),
        op: op.to_string(),
        status: String::new(),
        detail: detail.to_string(),
    }
}

fn is_excluded(excluded: &[CheckEntry], codec: &str, fixture: &str, op: &str) -> bool {
    excluded
        .iter()
        .any(|e| e.codec == codec && e.fixture == fixture && e.op == op)
}

fn print_plan(rows: &[PlanRow]) -> Result<()> {
    let mut w = csv::Writer::from_writer(std::io::stdout().lock());
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

fn jobs(
    rows: &[PlanRow],
    children: &HashMap<String, PathBuf>,
    dir: &Path,
    seed: u64,
    expected: &HashMap<Trio, u64>,
) -> Result<Vec<Job>> {
    rows.iter()
        .map(|row| {
            let key = trio(&row.codec, &row.fixture, &row.op);
            let expected = *expected.get(&key).with_context(|| {
                format!(
                    "plan index {}: no expected checksum for {key:?}",
                    row.plan_index
                )
            })?;
            let child = children
                .get(&row.codec)
                .with_context(|| {
                    format!(
                        "plan index {}: no child for codec {}",
                        row.plan_index, row.codec
                    )
                })?
                .clone();
            Ok(Job {
                plan: row.clone(),
                child,
                fixture_file: folder::fixture_file(dir, &row.fixture),
                seed,
                expected,
            })
        })
        .collect()
}

/// Takes `jobs` into the folder's samples.csv. Returns the eviction tally for the summary.
fn take_samples(
    dir: &Path,
    jobs: &[Job],
    settings: &Settings,
    total: usize,
    before: usize,
) -> Result<crate::cache::EvictionTally> {
    let timeout = Duration::from_secs_f64(settings.timeout_secs);
    let mut sampler = Sampler::new(&spawner_path()?, timeout, settings.cold_cache)?;
    let mut writer = SamplesWriter::open(dir)?;
    let mut progress = Progress::new(total as u64, before as u64);
    sampler::execute(jobs, &mut sampler, &mut writer, &mut progress)?;
    Ok(sampler.eviction)
}

/// Marks the manifest finished and prints the summary.
fn finish(
    dir: &Path,
    manifest_value: &mut Value,
    settings: &Settings,
    tally: crate::cache::EvictionTally,
) -> Result<()> {
    let (_, finished_utc) = manifest::utc_now();
    manifest_value["finished"] = Value::Bool(true);
    manifest_value["finished_utc"] = Value::String(finished_utc);
    if settings.cold_cache {
        manifest_value["cold_cache_check"] = Value::String(tally.describe());
    }
    manifest::write(dir, manifest_value)?;
    print_summary(dir, manifest_value, settings.cold_cache, Some(&tally))?;
    say!("run folder: {} (finished)", dir.display());
    Ok(())
}

fn print_summary(
    dir: &Path,
    m: &Value,
    cold_cache: bool,
    tally: Option<&crate::cache::EvictionTally>,
) -> Result<()> {
    let rows = folder::read_samples(dir)?;
    let child_bytes: HashMap<String, u64> = m["codecs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| Some((c["id"].as_str()?.to_string(), c["child_bytes"].as_u64()?)))
        .collect();
    let codec_order: Vec<&str> = registry().iter().map(|c| c.id()).collect();
    let fixture_order: Vec<&str> = fixtures::FIXTURES.iter().map(|f| f.name).collect();
    let cx = summary::Context {
        codec_order: &codec_order,
        fixture_order: &fixture_order,
        child_bytes: &child_bytes,
        cold_cache,
    };
    say!();
    say!("{}", summary::table(&rows, &cx).trim_end());
    say!("(init+ops and p90: init + first op + remaining ops; wall: spawn to reaped; medians of ok samples)");
    if let Some(f) = summary::failures(&rows) {
        say!("{f}");
    }
    for u in m["unsupported"].as_array().into_iter().flatten() {
        say!(
            "unsupported: {} {} on {}: {}",
            u["codec"].as_str().unwrap_or("?"),
            u["op"].as_str().unwrap_or("?"),
            u["fixture"].as_str().unwrap_or("?"),
            u["reason"].as_str().unwrap_or("")
        );
    }
    for e in m["excluded"].as_array().into_iter().flatten() {
        say!(
            "left out ({}): {} {} on {}: {}",
            e["status"].as_str().unwrap_or("?"),
            e["codec"].as_str().unwrap_or("?"),
            e["op"].as_str().unwrap_or("?"),
            e["fixture"].as_str().unwrap_or("?"),
            e["detail"].as_str().unwrap_or("")
        );
    }
    if let (true, Some(t)) = (cold_cache, tally) {
        say!("{}", t.describe());
    }
    Ok(())
}

/// Finishes the run in `dir`: exactly the plan indices without a row, with the run's settings.
pub fn resume(dir: &Path, dry_run: bool) -> Result<PathBuf> {
    if !dir.is_dir() {
        bail!(
            "--resume {}: no run folder there (give the folder of a run that was started, e.g. results/cold/latest)",
            dir.display()
        );
    }
    let plan_path = dir.join(folder::PLAN);
    if !plan_path.exists() {
        bail!(
            "--resume {}: no {} there, so not a run folder",
            dir.display(),
            folder::PLAN
        );
    }
    let mut manifest_value = manifest::read(dir)?;
    let settings = manifest::settings(&manifest_value)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("--resume {}", dir.display()))?;
    let plan_rows = folder::read_plan(dir)?;
    let cut = folder::repair_samples(dir)?;
    if cut > 0 {
        say!("samples.csv: cut a partial last row ({cut} bytes) left by an interrupted write");
    }
    let done = folder::finished_indices(&folder::read_samples(dir)?);
    let left: Vec<PlanRow> = plan_rows
        .iter()
        .filter(|r| !done.contains(&r.plan_index))
        .cloned()
        .collect();
    if dry_run {
        print_plan(&left)?;
        eprintln!("{} of {} planned samples left", left.len(), plan_rows.len());
        return Ok(dir.to_path_buf());
    }
    say!(
        "resuming {}: {} of {} planned samples left",
        dir.display(),
        left.len(),
        plan_rows.len()
    );

    if let Some(cpus) = &settings.pinning {
        let mask = pin::pin(&pin::parse_cpus(cpus)?)?;
        say!("pinned to CPUs {}", pin::format_cpus(&mask));
    }
    let variant = Variant::parse(&settings.variant)?;
    let children_dir = PathBuf::from(&settings.children_dir);

    // The same children and the same documents as the run began with, or no resume.
    let recorded = |key: &str, name_key: &str, name: &str| -> Option<String> {
        manifest_value[key]
            .as_array()?
            .iter()
            .find(|e| e[name_key].as_str() == Some(name))?
            .get(if key == "codecs" {
                "child_sha256"
            } else {
                "sha256"
            })?
            .as_str()
            .map(str::to_string)
    };
    let codecs: BTreeSet<&str> = left.iter().map(|r| r.codec.as_str()).collect();
    let paths = children::find(
        &children_dir,
        &codecs.iter().copied().collect::<Vec<_>>(),
        variant,
    )?;
    let mut child_paths = HashMap::new();
    for (codec, path) in codecs.iter().zip(paths) {
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        if recorded("codecs", "id", codec).as_deref() != Some(sha256_hex(&bytes).as_str()) {
            bail!(
                "the child of codec {codec} ({}) is not the one this run started with (its SHA-256 \
                 differs from manifest.json); a resumed run would mix two builds — start a new run",
                path.display()
            );
        }
        child_paths.insert(codec.to_string(), path);
    }
    let mut expected: HashMap<Trio, u64> = HashMap::new();
    let trios: BTreeSet<Trio> = left
        .iter()
        .map(|r| trio(&r.codec, &r.fixture, &r.op))
        .collect();
    for (codec_id, fixture_name, op) in trios {
        let path = folder::fixture_file(dir, &fixture_name);
        let document = std::fs::read(&path)
            .with_context(|| format!("cannot read fixture {fixture_name} at {}", path.display()))?;
        if recorded("fixtures", "name", &fixture_name).as_deref()
            != Some(sha256_hex(&document).as_str())
        {
            bail!(
                "{} differs from the document this run started with",
                path.display()
            );
        }
        let codec = find_codec(&codec_id).map_err(anyhow::Error::msg)?;
        let fixture: &Fixture = catalog::find(&fixture_name)?;
        let op_value = Op::parse(&op).map_err(anyhow::Error::msg)?;
        let sum = codec
            .expected_checksum(fixture, op_value, settings.seed, &document)
            .map_err(|e| {
                anyhow::anyhow!("codec {codec_id} {op} on {fixture_name}: expected checksum: {e}")
            })?;
        expected.insert((codec_id, fixture_name, op), sum);
    }

    let (_, now) = manifest::utc_now();
    manifest_value["finished"] = Value::Bool(false);
    match manifest_value["resumed_utc"].as_array_mut() {
        Some(list) => list.push(Value::String(now)),
        None => manifest_value["resumed_utc"] = serde_json::json!([now]),
    }
    manifest::write(dir, &manifest_value)?;

    let jobs = jobs(&left, &child_paths, dir, settings.seed, &expected)?;
    let tally = take_samples(
        dir,
        &jobs,
        &settings,
        plan_rows.len(),
        plan_rows.len() - left.len(),
    )?;
    finish(dir, &mut manifest_value, &settings, tally)?;
    Ok(dir.to_path_buf())
}
