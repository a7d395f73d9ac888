//! The part of a run that a fresh run and a resumed one share: turning plan rows into jobs,
//! taking the samples into samples.csv, marking the manifest finished, and printing the summary
//! from what samples.csv holds (so a resumed run's summary covers every sample).

use crate::cache::EvictionTally;
use crate::codec_list;
use crate::counting::Counter;
use crate::folder::{self, SamplesWriter};
use crate::interrupt::{self, Interrupted};
use crate::manifest;
use crate::plan;
use crate::precision::{self, Next};
use crate::prepare::Routes;
use crate::progress::Progress;
use crate::sampler::{self, Job, Sampler};
use crate::summary;
use anyhow::{bail, Context, Result};
use codecs::{AnyCodec, Style};
use schema::run_folder::{Manifest, PlanRow, Settings};
use schema::{GateCell, StopReason};
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
    let path = spawner::Spawner::default_path().context("cannot find the runner's folder")?;
    if !path.is_file() {
        bail!(
            "no {} beside the runner (looked for {}); build it with `cargo build --release -p cold`",
            spawner::BINARY,
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
pub fn jobs(rows: &[PlanRow], routes: &Routes, settings: &Settings) -> Result<Vec<Job>> {
    rows.iter()
        .map(|row| {
            let key = (row.gate_cell(), row.variant);
            let route = routes.get(&key).with_context(|| {
                format!(
                    "plan index {}: no child for {} ({})",
                    row.plan_index, key.0, row.variant
                )
            })?;
            let expected = route.expected.with_context(|| {
                format!(
                    "plan index {}: {} ({}) has no learned output (its preflight did not pass)",
                    row.plan_index, key.0, row.variant
                )
            })?;
            Ok(Job {
                plan: row.clone(),
                child: route.child.clone(),
                prefix: route.prefix.clone(),
                input: route.input.clone(),
                drops: settings.drops,
                expected: Some(expected),
                check_file: None,
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

/// How a `--precision` run adds whole blocks to its plan: the cells and what the gate and the
/// preflight left out, as `plan::build` and `plan::without` take them (a longer plan keeps the
/// shorter one as its beginning).
pub struct Blocks {
    pub cells: Vec<plan::Cell>,
    pub excluded: Vec<schema::run_folder::CheckEntry>,
    pub seed: u64,
    pub variants: Vec<schema::Variant>,
}

impl Blocks {
    /// The plan of `blocks` blocks.
    pub fn plan(&self, blocks: u32) -> Vec<PlanRow> {
        plan::without(
            plan::build(&self.cells, blocks, self.seed, &self.variants),
            &self.excluded,
        )
    }
}

/// Takes every planned sample that has no row yet into the folder's samples.csv (counted, with
/// `counter`); then, for a `--precision` run (`blocks`, and the rule in the manifest), checks
/// the intervals and adds blocks until the rule says stop, writing the longer plan and the
/// manifest before each new block's first sample. Returns how eviction went, for the summary. A
/// signal stops it with an [`Interrupted`] error that says how to resume.
pub fn take_samples(
    dir: &Path,
    manifest: &mut Manifest,
    settings: &Settings,
    routes: &Routes,
    counter: Option<Counter>,
    mut plan: Vec<PlanRow>,
    blocks: Option<&Blocks>,
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
    let done = folder::finished_indices(&folder::read_samples(dir)?);
    let mut left: Vec<PlanRow> = plan
        .iter()
        .filter(|r| !done.contains(&r.plan_index))
        .cloned()
        .collect();
    let mut writer = SamplesWriter::open(dir)?;
    let mut before = plan.len() - left.len();
    let mut progress = Progress::new(plan.len() as u64, before as u64);
    let floors: Vec<&str> = manifest
        .codecs
        .iter()
        .filter(|c| c.style == Some(Style::Baseline))
        .map(|c| c.id.as_str())
        .collect::<Vec<_>>()
        .into_iter()
        .map(|id| codec_list::find(id).map_or("", |c| c.id()))
        .collect();
    loop {
        let jobs = jobs(&left, routes, settings)?;
        let total = plan.len();
        let stop = |taken: usize| {
            interrupt::caught().map(|signal| Interrupted {
                signal,
                dir: dir.to_path_buf(),
                done: before + taken,
                planned: total,
            })
        };
        let started = std::time::Instant::now();
        sampler::execute(&jobs, &mut sampler, &mut writer, &mut progress, &stop)?;
        let (Some(blocks), Some(rule)) = (blocks, manifest.stopping.as_mut()) else {
            break;
        };
        rule.sampling_secs += started.elapsed().as_secs_f64();
        if rule.stopped_on.is_some() {
            break;
        }
        let taken = manifest.samples_per_cell.unwrap_or(0);
        let now = precision::stand(&folder::read_samples(dir)?, rule, &floors);
        rule.widest = now.widest.as_ref().map(|w| (w.label.clone(), w.half_width));
        progress.note(precision::describe_widest(&now));
        match precision::next(rule, taken, now.met) {
            Next::Stop(reason) => {
                rule.stopped_on = Some(reason);
                manifest::write(dir, manifest)?;
                say_stop(reason, taken, &now);
                break;
            }
            Next::More(more) => {
                let longer = blocks.plan(taken + more);
                manifest.samples_per_cell = Some(taken + more);
                manifest.samples_planned = Some(longer.len());
                manifest::write(dir, manifest)?;
                folder::write_plan(dir, &longer)?;
                left = longer[plan.len()..].to_vec();
                progress.grow(left.len() as u64);
                before = plan.len();
                plan = longer;
            }
        }
    }
    progress.finish();
    Ok(std::mem::take(&mut sampler.eviction))
}

fn say_stop(reason: StopReason, blocks: u32, now: &stats::precision::Standing) {
    let why = match reason {
        StopReason::Precision => "every interval reached the precision asked",
        StopReason::Samples => "--max-samples reached",
        StopReason::Time => "another round would run past --max-time",
    };
    say!(
        "stopped after {blocks} samples per cell: {why} ({})",
        precision::describe_widest(now)
    );
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
    // The run's codecs in the order it took them (the registry's for the default run).
    let codecs: Vec<&'static dyn AnyCodec> = m
        .codecs
        .iter()
        .filter_map(|c| codec_list::find(&c.id).ok())
        .collect();
    let codec_order: Vec<&str> = codecs.iter().map(|c| c.id()).collect();
    let floors: HashMap<String, String> = codecs
        .iter()
        .filter_map(|c| {
            let floor = codec_list::floor_of(c.id(), &codecs)?;
            Some((c.id().to_string(), floor.to_string()))
        })
        .collect();
    let fixture_order: Vec<&str> = fixtures::FIXTURES.iter().map(|f| f.name).collect();
    let cx = summary::Context {
        codec_order: &codec_order,
        floors: &floors,
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
