//! Taking samples: one planned sample is one child, run with the protocol's arguments (after
//! evicting its files with `--cold-cache`), turned into its row, and appended to samples.csv
//! before the next child starts. A child that misbehaves is a row with its status; only a
//! failure to write the row stops the run.

use crate::cache::EvictionTally;
use crate::classify;
use crate::folder::SamplesWriter;
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
    pub fixture_file: PathBuf,
    pub seed: u64,
    /// When a `de` child drops its values (`--drops`).
    pub drops: Drops,
    /// The checksum the child must print.
    pub expected: u64,
}

impl Job {
    /// The protocol's argv (after the program).
    pub fn args(&self) -> Vec<OsString> {
        Args {
            op: self.plan.op,
            batch: self.plan.batch as usize,
            fixture_file: self.fixture_file.clone(),
            fixture: self.plan.fixture.clone(),
            seed: self.seed,
            drops: self.drops,
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
    pub eviction: EvictionTally,
}

impl Sampler {
    /// `spawner`: the `cold-spawner` binary (see `spawner`).
    pub fn new(spawner: &Path, timeout: Duration, cold_cache: bool) -> Result<Sampler> {
        Ok(Sampler {
            spawner: Spawner::start(spawner)?,
            timeout,
            cold_cache,
            watch: Watch::Auto,
            eviction: EvictionTally::default(),
        })
    }

    /// Uses the watchdog thread instead of a pidfd (for tests of the fallback).
    pub fn with_watch(mut self, watch: Watch) -> Sampler {
        self.watch = watch;
        self
    }

    /// Takes one sample. `Err` only when the spawner itself is lost.
    pub fn sample(&mut self, job: &Job) -> Result<SampleRow> {
        if self.cold_cache {
            self.eviction.evict(&job.child);
            self.eviction.evict(&job.fixture_file);
        }
        let request = Request {
            program: job.child.clone(),
            args: job.args(),
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
        Ok(match reply {
            Ok(reaped) => {
                classify::reaped(&job.plan, &reaped, job.expected, self.timeout.as_secs_f64())
            }
            Err(why) => classify::spawn_failed(&job.plan, &why),
        })
    }
}

/// Takes every job in order, appending each row as its child is reaped. Returns how many
/// samples were not `ok`.
pub fn execute(
    jobs: &[Job],
    sampler: &mut Sampler,
    writer: &mut SamplesWriter,
    progress: &mut Progress,
) -> Result<u64> {
    let mut failed = 0;
    for job in jobs {
        let row = sampler.sample(job)?;
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
