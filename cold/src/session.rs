//! The part of a run that a fresh run and a resumed one share: turning plan rows into jobs,
//! taking the samples into samples.csv, marking the manifest finished, and printing the summary
//! from what samples.csv holds (so a resumed run's summary covers every sample).

use crate::cache::EvictionTally;
use crate::counting::Counter;
use crate::folder::{self, SamplesWriter};
use crate::interrupt::{self, Interrupted};
use crate::manifest;
use crate::prepare::Route;
use crate::progress::Progress;
use crate::sampler::{self, Job, Sampler};
use crate::summary;
use anyhow::{bail, Context, Result};
use fixtures::codecs::{registry, Style};
use schema::run_folder::{Manifest, PlanRow, Settings};
use schema::GateCell;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A line of what the runner is doing; a closed stdout does not stop a run.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if $crate::session::status_on_stderr() {
            let _ = writeln!(std::io::stderr(), $($arg)*);
        } else {
            let _ = writeln!(std::io::stdout(), $($arg)*);
        }
    }};
}
pub(crate) use say;

static STATUS_ON_STDERR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sends the runner's status lines to stderr from now on (a dry run's stdout is the plan).
pub fn status_to_stderr() {
    STATUS_ON_STDERR.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether status lines go to stderr.
pub fn status_on_stderr() -> bool {
    STATUS_ON_STDERR.load(std::sync::atomic::Ordering::Relaxed)
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

/// One job per plan row: its child, its input file, what it must print.
pub fn jobs(
    rows: &[PlanRow],
    routes: &HashMap<GateCell, Route>,
    settings: &Settings,
) -> Result<Vec<Job>> {
    rows.iter()
        .map(|row| {
            let key = row.gate_cell();
            let route = routes
                .get(&key)
                .with_context(|| format!("plan index {}: no child for {key}", row.plan_index))?;
            Ok(Job {
                plan: row.clone(),
                child: route.child.clone(),
                input: route.input.clone(),
                drops: settings.drops,
                expected: route.expected,
            })
        })
        .collect()
}

/// The children's environment as the settings record it (`KEY=VALUE`).
pub fn env_of(settings: &Settings) -> Vec<(OsString, OsString)> {
    settings
        .child_env
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.into(), v.into()),
            None => (kv.into(), OsString::new()),
        })
        .collect()
}

/// Takes `jobs` (counted, with `counter`) into the folder's samples.csv (`before` of `total` planned samples are there
/// already). Returns how eviction went, for the summary. A signal stops it with an
/// [`Interrupted`] error that says how to resume.
pub fn take_samples(
    dir: &Path,
    jobs: &[Job],
    settings: &Settings,
    counter: Option<Counter>,
    total: usize,
    before: usize,
) -> Result<EvictionTally> {
    let timeout = Duration::from_secs_f64(settings.timeout_secs);
    let mut sampler = Sampler::new(
        &spawner_path()?,
        timeout,
        settings.cold_cache,
        env_of(settings),
    )?;
    if let Some(counter) = counter {
        sampler = sampler.with_counter(counter);
    }
    let mut writer = SamplesWriter::open(dir)?;
    let mut progress = Progress::new(total as u64, before as u64);
    let stop = |taken: usize| {
        interrupt::caught().map(|signal| Interrupted {
            signal,
            dir: dir.to_path_buf(),
            done: before + taken,
            planned: total,
        })
    };
    sampler::execute(jobs, &mut sampler, &mut writer, &mut progress, &stop)?;
    Ok(std::mem::take(&mut sampler.eviction))
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
    let child_bytes: HashMap<GateCell, u64> = m
        .children
        .iter()
        .map(|c| {
            let cell = GateCell {
                codec: c.codec.clone(),
                fixture: c.fixture.clone(),
                op: c.op,
            };
            (cell, c.bytes)
        })
        .collect();
    let outputs: HashMap<String, schema::OutputMode> = m
        .codecs
        .iter()
        .filter_map(|c| Some((c.id.clone(), c.output?)))
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
        outputs: &outputs,
        cold_cache: tally.is_some(),
    };
    say!();
    if m.measure == Some(schema::Measure::Instructions) {
        say!("{}", summary::counts_table(&rows, &cx).trim_end());
        say!("{}", summary::COUNTS_LEGEND);
    } else {
        say!("{}", summary::table(&rows, &cx).trim_end());
        say!("{}", summary::LEGEND);
    }
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
