//! The part of a run that a fresh run and a resumed one share: turning plan rows into jobs,
//! taking the samples into samples.csv, marking the manifest finished, and printing the summary
//! from what samples.csv holds (so a resumed run's summary covers every sample).

use crate::cache::EvictionTally;
use crate::folder::{self, SamplesWriter};
use crate::manifest::{self, Settings};
use crate::progress::Progress;
use crate::sampler::{self, Job, Sampler};
use crate::summary;
use analysis::samples::PlanRow;
use anyhow::{bail, Context, Result};
use fixtures::codecs::registry;
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A line of what the runner is doing; a closed stdout does not stop a run.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
pub(crate) use say;

/// codec × fixture × op: the unit the gate, the preflight and the checksums work on.
pub type Trio = (String, String, String);

pub fn trio(codec: &str, fixture: &str, op: &str) -> Trio {
    (codec.to_string(), fixture.to_string(), op.to_string())
}

/// The `cold-spawner` next to the runner, which must exist.
pub fn spawner_path() -> Result<PathBuf> {
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

/// The plan as CSV on stdout (`--dry-run`).
pub fn print_plan(rows: &[PlanRow]) -> Result<()> {
    let mut w = csv::Writer::from_writer(std::io::stdout().lock());
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    Ok(())
}

/// One job per plan row: its child, its input file, the checksum it must print.
pub fn jobs(
    rows: &[PlanRow],
    children: &HashMap<String, PathBuf>,
    dir: &Path,
    settings: &Settings,
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
            let child = children.get(&row.codec).with_context(|| {
                format!(
                    "plan index {}: no child for codec {}",
                    row.plan_index, row.codec
                )
            })?;
            Ok(Job {
                plan: row.clone(),
                child: child.clone(),
                fixture_file: folder::fixture_file(dir, &row.fixture),
                seed: settings.seed,
                drops: settings.drops,
                expected,
            })
        })
        .collect()
}

/// Takes `jobs` into the folder's samples.csv (`before` of `total` planned samples are there
/// already). Returns how eviction went, for the summary.
pub fn take_samples(
    dir: &Path,
    jobs: &[Job],
    settings: &Settings,
    total: usize,
    before: usize,
) -> Result<EvictionTally> {
    let timeout = Duration::from_secs_f64(settings.timeout_secs);
    let mut sampler = Sampler::new(&spawner_path()?, timeout, settings.cold_cache)?;
    let mut writer = SamplesWriter::open(dir)?;
    let mut progress = Progress::new(total as u64, before as u64);
    sampler::execute(jobs, &mut sampler, &mut writer, &mut progress)?;
    Ok(sampler.eviction)
}

/// Marks the manifest finished and prints the summary.
pub fn finish(
    dir: &Path,
    manifest_value: &mut Value,
    settings: &Settings,
    tally: &EvictionTally,
) -> Result<()> {
    let (_, finished_utc) = manifest::utc_now();
    manifest_value["finished"] = Value::Bool(true);
    manifest_value["finished_utc"] = Value::String(finished_utc);
    if settings.cold_cache {
        manifest_value["cold_cache_check"] = Value::String(tally.describe());
    }
    manifest::write(dir, manifest_value)?;
    print_summary(dir, manifest_value, settings.cold_cache.then_some(tally))?;
    say!("run folder: {} (finished)", dir.display());
    Ok(())
}

fn print_summary(dir: &Path, m: &Value, tally: Option<&EvictionTally>) -> Result<()> {
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
        cold_cache: tally.is_some(),
    };
    say!();
    say!("{}", summary::table(&rows, &cx).trim_end());
    say!(
        "(init+ops: init + first op + remaining ops; wall: spawn to reaped; \
         medians and p90 of the ok samples)"
    );
    if let Some(f) = summary::failures(&rows) {
        say!("{f}");
    }
    let text = |v: &Value, key: &str| v[key].as_str().unwrap_or("?").to_string();
    for u in m["unsupported"].as_array().into_iter().flatten() {
        say!(
            "unsupported: {} {} on {}: {}",
            text(u, "codec"),
            text(u, "op"),
            text(u, "fixture"),
            text(u, "reason")
        );
    }
    for e in m["excluded"].as_array().into_iter().flatten() {
        say!(
            "left out ({}): {} {} on {}: {}",
            text(e, "status"),
            text(e, "codec"),
            text(e, "op"),
            text(e, "fixture"),
            text(e, "detail")
        );
    }
    if let Some(t) = tally {
        say!("{}", t.describe());
    }
    Ok(())
}
