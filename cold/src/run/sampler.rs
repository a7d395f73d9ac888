//! Taking samples: one planned sample is one child, run with the protocol's arguments and the
//! run's environment (after evicting its files with `--cold-cache`), turned into its row, and
//! appended to samples.csv before the next child starts. A child that misbehaves is a row with
//! its status, and so is one that stopped or killed its spawner (`spawner-lost`: the spawner is
//! replaced and the run goes on); only a failure to write the row or an interrupting signal
//! stops the run.

use crate::counting::{self, Counter};
use crate::folder::SamplesWriter;
use crate::run::classify::{self, Expected, Limits};
use crate::run::progress::Progress;
use crate::system::cache::EvictionTally;
use crate::system::interrupt::{self, Interrupted};
use anyhow::{bail, Context, Result};
use schema::curve::CurveRow;
use schema::protocol::Args;
use schema::rows::{PlanRow, SampleRow};
use schema::Drops;
use spawner::process::Watch;
use spawner::{Request, Spawner};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One sample to take.
#[derive(Debug, Clone)]
pub struct Job {
    pub plan: PlanRow,
    /// The program: a child binary, or a runtime's executable.
    pub child: PathBuf,
    /// The arguments before the protocol's (a runtime's, e.g. the script or class to run).
    pub prefix: Vec<OsString>,
    /// The input file the child reads.
    pub input: PathBuf,
    /// The files it loads besides its program (another runtime's classes, jars or scripts).
    pub loads: std::sync::Arc<Vec<PathBuf>>,
    /// When a `de` child drops its values (`--drops`).
    pub drops: Drops,
    /// What the child must print (`None`: a preflight that learns it).
    pub expected: Option<Expected>,
    /// Where the child writes what it produced (a preflight's check by meaning).
    pub check_file: Option<PathBuf>,
    /// A curve run's window (`--window`): the child prints its curve line too.
    pub window: Option<u64>,
}

impl Job {
    /// The protocol's argv (after the program).
    pub(crate) fn args(&self) -> Vec<OsString> {
        let protocol = Args {
            op: self.plan.op,
            batch: self.plan.batch as usize,
            input: self.input.clone(),
            drops: self.drops,
            check_file: self.check_file.clone(),
            window: self.window,
        }
        .to_argv();
        self.prefix.iter().cloned().chain(protocol).collect()
    }
}

/// Runs jobs one child at a time, through the spawner.
pub struct Sampler {
    spawner: Spawner,
    /// The spawner's binary, to start another when a child stopped or killed this one.
    spawner_path: PathBuf,
    timeout: Duration,
    /// A child's memory limit, MiB.
    memory_limit_mib: u64,
    cold_cache: bool,
    watch: Watch,
    env: Vec<(OsString, OsString)>,
    /// With `--measure instructions`: how each sample is counted.
    counter: Option<Counter>,
    pub(crate) eviction: EvictionTally,
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
        let spawner_path = spawner.to_path_buf();
        let spawner = Spawner::start(spawner)?;
        interrupt::watch_spawner(spawner.pid());
        Ok(Sampler {
            spawner,
            spawner_path,
            timeout,
            memory_limit_mib: crate::run::options::DEFAULT_MEMORY_LIMIT_MIB,
            cold_cache,
            watch: Watch::Auto,
            env,
            counter: None,
            eviction: EvictionTally::default(),
        })
    }

    /// What contains the samples (the spawner says: `spawner::Containment::describe`).
    pub(crate) fn containment(&self) -> &str {
        self.spawner.containment()
    }

    /// Makes `path` (a file or folder the runner made for the child to write: a preflight's
    /// check file, a counted sample's scratch folder) the child's, when children run as a user
    /// of their own (docs/containment.md, "The child"); nothing else of the run folder is.
    pub(crate) fn hand_to_child(&self, path: &Path) -> Result<()> {
        if let Some(uid) = self.spawner.child_uid() {
            std::os::unix::fs::lchown(path, Some(uid), Some(spawner::isolate::CHILD_GID))
                .with_context(|| {
                    format!(
                        "cannot hand {} to the children's user {uid}",
                        path.display()
                    )
                })?;
        }
        Ok(())
    }

    /// Limits every child's memory to `mib` MiB (`--memory-limit`).
    pub(crate) fn with_memory_limit(mut self, mib: u64) -> Sampler {
        self.memory_limit_mib = mib;
        self
    }

    /// Counts each sample instead of timing it (`--measure instructions`).
    pub(crate) fn with_counter(mut self, counter: Counter) -> Sampler {
        self.counter = Some(counter);
        self
    }

    /// Uses the watchdog thread instead of a pidfd (for tests of the fallback).
    pub fn with_watch(mut self, watch: Watch) -> Sampler {
        self.watch = watch;
        self
    }

    /// Takes one sample, with its curve in a curve run. `Err` only when a signal stopped the
    /// run, or a new spawner cannot be started.
    pub(crate) fn sample(&mut self, job: &Job) -> Result<(SampleRow, Option<CurveRow>)> {
        let evicted = self.cold_cache.then(|| {
            // every file the child reads: its program, its input and what it loads
            let mut all = self.eviction.evict(&job.child);
            all &= self.eviction.evict(&job.input);
            for file in job.loads.iter() {
                all &= self.eviction.evict(file);
            }
            all
        });
        let (mut row, curve) = match self.counter.clone() {
            None => self.run(job, job.child.clone(), job.args(), self.env.clone())?,
            Some(counter) => (self.count(job, &counter)?, None),
        };
        row.evicted = evicted;
        Ok((row, curve))
    }

    /// Runs `program argv…` for `job` with `env` and classifies how it ended (and its curve, in
    /// a curve run).
    fn run(
        &mut self,
        job: &Job,
        program: PathBuf,
        args: Vec<OsString>,
        env: Vec<(OsString, OsString)>,
    ) -> Result<(SampleRow, Option<CurveRow>)> {
        let request = Request {
            program,
            args,
            env,
            timeout: self.timeout,
            memory_limit: self.memory_limit_mib << 20,
            watch: self.watch,
        };
        let stop = || interrupt::caught().is_some();
        let reply = match self.spawner.run(&request, &stop) {
            Ok(reply) => reply,
            Err(_) if stop() => bail!("stopped by a signal"),
            Err(lost) => {
                // The child stopped or killed its spawner: the sample is void, everything
                // below the spawner is dead, and the next sample gets a new spawner.
                self.spawner = Spawner::start(&self.spawner_path).with_context(|| {
                    format!(
                        "plan index {}: cannot start a new spawner",
                        job.plan.plan_index
                    )
                })?;
                interrupt::watch_spawner(self.spawner.pid());
                return Ok((classify::spawner_lost(&job.plan, &lost.to_string()), None));
            }
        };
        let limits = Limits {
            timeout_secs: self.timeout.as_secs_f64(),
            memory_limit_mib: self.memory_limit_mib,
        };
        Ok(match reply {
            Ok(reaped) => match job.window {
                None => (
                    classify::reaped(&job.plan, &reaped, job.expected.as_ref(), limits),
                    None,
                ),
                Some(window) => {
                    classify::reaped_curve(&job.plan, reaped, job.expected.as_ref(), limits, window)
                }
            },
            Err(why) => (classify::spawn_failed(&job.plan, &why), None),
        })
    }

    /// A counted sample: the child under callgrind, then natively with the allocation counter.
    /// Each run must end as a timed one would (its line, its checksum); a count that cannot be
    /// cut into phases leaves its columns empty and says why in `error`.
    fn count(&mut self, job: &Job, counter: &Counter) -> Result<SampleRow> {
        counter.clear_scratch()?;
        self.hand_to_child(&counter.scratch)?;
        let argv = counter.callgrind_argv(&job.child, &job.args());
        let (mut row, _) = self.run(job, counter.valgrind.path.clone(), argv, self.env.clone())?;
        counting::clear_times(&mut row);
        if !row.is_ok() {
            let why = format!("under callgrind: {}", row.error.take().unwrap_or_default());
            row.set_error(why);
            return Ok(row);
        }
        let mut notes = Vec::new();
        let parts = counter
            .read_scratch(counting::CALLGRIND_OUT)
            .map_err(|e| format!("callgrind wrote no output: {e}"))
            .and_then(|text| counting::parse_callgrind(&text))
            .and_then(|parts| counting::fill_instructions(&mut row, &parts));
        if let Err(e) = parts {
            notes.push(e);
        }

        let (alloc, _) = self.run(
            job,
            job.child.clone(),
            job.args(),
            counter.alloc_env(&self.env),
        )?;
        if !alloc.is_ok() {
            row.status = alloc.status;
            row.exit_code = alloc.exit_code;
            row.signal = alloc.signal;
            notes.push(format!(
                "the allocation run: {}",
                alloc.error.unwrap_or_default()
            ));
        } else {
            let counted = counter
                .read_scratch(counting::ALLOC_OUT)
                .map_err(|e| format!("the allocation counter wrote nothing: {e}"))
                .and_then(|text| counting::parse_alloc(&text))
                .and_then(|(reads, phases)| counting::fill_allocations(&mut row, reads, &phases));
            if let Err(e) = counted {
                notes.push(e);
            }
        }
        if !notes.is_empty() {
            row.set_error(notes.join("; "));
        }
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
        let (row, curve) = match sampler.sample(job) {
            Ok(taken) => taken,
            Err(e) => {
                return Err(match stop(taken) {
                    Some(stopped) => stopped.into(),
                    None => e,
                })
            }
        };
        writer.append(&row, curve.as_ref()).with_context(|| {
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
    Ok(failed)
}
