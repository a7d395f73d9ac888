//! Taking samples: one planned sample is one child, run with the protocol's arguments and the
//! run's environment (after evicting its files with `--cold-cache`), turned into its row, and
//! appended to samples.csv before the next child starts. A child that misbehaves is a row with
//! its status; only a failure to write the row, a lost spawner or an interrupting signal stops
//! the run.

use crate::cache::EvictionTally;
use crate::classify::{self, Expected};
use crate::folder::SamplesWriter;
use crate::interrupt::{self, Interrupted};
use crate::process::Watch;
use crate::progress::Progress;
use crate::spawner::{Request, Spawner};
use anyhow::{Context, Result};
use children::protocol::Args;
use schema::run_folder::{PlanRow, SampleRow};
use schema::Drops;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One sample to take.
#[derive(Debug, Clone)]
pub struct Job {
    pub plan: PlanRow,
    pub child: PathBuf,
    /// The input file the child reads.
    pub input: PathBuf,
    /// When a `de` child drops its values (`--drops`).
    pub drops: Drops,
    /// What the child must print.
    pub expected: Expected,
}

impl Job {
    /// The protocol's argv (after the program).
    pub fn args(&self) -> Vec<OsString> {
        Args {
            op: self.plan.op,
            batch: self.plan.batch as usize,
            input: self.input.clone(),
            drops: self.drops,
            check_file: None,
        }
        .to_argv()
    }
}

/// Runs jobs one child at a time, through the spawner.
pub struct Sampler {
    spawner: Spawner,
    timeout: Duration,
    cold_cache: bool,
    watch: Watch,
    env: Vec<(OsString, OsString)>,
    pub eviction: EvictionTally,
}

impl Sampler {
    /// `spawner`: the `cold-spawner` binary (see `spawner`); `env`: every child's whole
    /// environment.
    pub fn new(
        spawner: &Path,
        timeout: Duration,
        cold_cache: bool,
        env: Vec<(OsString, OsString)>,
    ) -> Result<Sampler> {
        let spawner = Spawner::start(spawner)?;
        interrupt::watch_spawner(spawner.pid());
        Ok(Sampler {
            spawner,
            timeout,
            cold_cache,
            watch: Watch::Auto,
            env,
            eviction: EvictionTally::default(),
        })
    }

    /// Uses the watchdog thread instead of a pidfd (for tests of the fallback).
    pub fn with_watch(mut self, watch: Watch) -> Sampler {
        self.watch = watch;
        self
    }

    /// Takes one sample. `Err` only when the spawner itself is lost (or was stopped by a
    /// signal).
    pub fn sample(&mut self, job: &Job) -> Result<SampleRow> {
        let evicted = self.cold_cache.then(|| {
            let binary = self.eviction.evict(&job.child);
            let input = self.eviction.evict(&job.input);
            binary && input
        });
        let request = Request {
            program: job.child.clone(),
            args: job.args(),
            env: self.env.clone(),
            timeout: self.timeout,
            watch: self.watch,
        };
        let reply = self.spawner.run(&request).with_context(|| {
            format!(
                "plan index {} ({})",
                job.plan.plan_index,
                job.child.display()
            )
        })?;
        let mut row = match reply {
            Ok(reaped) => classify::reaped(
                &job.plan,
                &reaped,
                &job.expected,
                self.timeout.as_secs_f64(),
            ),
            Err(why) => classify::spawn_failed(&job.plan, &why),
        };
        row.evicted = evicted;
        Ok(row)
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        interrupt::watch_spawner(0);
    }
}

/// Takes every job in order, appending each row as its child is reaped. Returns how many
/// samples were not `ok`. A signal stops it with an [`Interrupted`] error (`done` counts the
/// samples already in the folder before these jobs: `before`).
pub fn execute(
    jobs: &[Job],
    sampler: &mut Sampler,
    writer: &mut SamplesWriter,
    progress: &mut Progress,
    stop: &dyn Fn(usize) -> Option<Interrupted>,
) -> Result<u64> {
    let mut failed = 0;
    for (taken, job) in jobs.iter().enumerate() {
        if let Some(stopped) = stop(taken) {
            return Err(stopped.into());
        }
        let row = match sampler.sample(job) {
            Ok(row) => row,
            Err(e) => {
                return Err(match stop(taken) {
                    Some(stopped) => stopped.into(),
                    None => e,
                })
            }
        };
        writer.append(&row).with_context(|| {
            format!(
                "plan index {} ({} {} ×{} on {})",
                job.plan.plan_index, job.plan.codec, job.plan.op, job.plan.batch, job.plan.fixture
            )
        })?;
        if !row.is_ok() {
            failed += 1;
        }
        progress.sample_done(&row);
    }
    progress.finish();
    Ok(failed)
}
