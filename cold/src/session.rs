//! The part of a run that a fresh run and a resumed one share: turning plan rows into jobs,
//! taking the samples into samples.csv, marking the manifest finished, and printing the summary
//! from what samples.csv holds (so a resumed run's summary covers every sample).

use crate::cache::EvictionTally;
use crate::folder::{self, SamplesWriter};
use crate::manifest;
use crate::progress::Progress;
use crate::sampler::{self, Job, Sampler};
use crate::summary;
use anyhow::{bail, Context, Result};
use fixtures::codecs::{registry, Style};
use schema::run_folder::{fixture_file, Manifest, PlanRow, Settings};
use schema::GateCell;
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
    expected: &HashMap<GateCell, u64>,
) -> Result<Vec<Job>> {
    rows.iter()
        .map(|row| {
            let key = row.gate_cell();
            let expected = *expected.get(&key).with_context(|| {
                format!(
                    "plan index {}: no expected checksum for {key}",
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
                fixture_file: fixture_file(dir, &row.fixture),
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
    manifest: &mut Manifest,
    settings: &Settings,
    tally: &EvictionTally,
) -> Result<()> {
    manifest.finished = true;
    manifest.finished_utc = Some(manifest::utc_now().1);
    if settings.cold_cache {
        manifest.cold_cache_check = Some(tally.describe());
    }
    manifest::write(dir, manifest)?;
    print_summary(dir, manifest, settings.cold_cache.then_some(tally))?;
    say!("run folder: {} (finished)", dir.display());
    Ok(())
}

fn print_summary(dir: &Path, m: &Manifest, tally: Option<&EvictionTally>) -> Result<()> {
    let rows = folder::read_samples(dir)?;
    let child_bytes: HashMap<String, u64> = m
        .codecs
        .iter()
        .filter_map(|c| Some((c.id.clone(), c.child_bytes?)))
        .collect();
    let codecs = registry();
    let codec_order: Vec<&str> = codecs.iter().map(|c| c.id()).collect();
    let baseline = codecs
        .iter()
        .find(|c| c.style() == Style::Baseline)
        .map(|c| c.id());
    let fixture_order: Vec<&str> = fixtures::FIXTURES.iter().map(|f| f.name).collect();
    let cx = summary::Context {
        codec_order: &codec_order,
        baseline,
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
    for u in &m.unsupported {
        say!(
            "unsupported: {} {} on {}: {}",
            u.codec,
            u.op,
            u.fixture,
            u.reason
        );
    }
    for e in &m.excluded {
        say!("left out ({}): {}: {}", e.status, e.gate_cell(), e.detail);
    }
    if let Some(t) = tally {
        say!("{}", t.describe());
    }
    Ok(())
}
