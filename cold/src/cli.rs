//! The command line of `cold`, parsed once by clap and then checked into the [`RunOptions`] of a
//! run. Every bad input is an error that names it and lists the valid
//! values. The option table of docs/manual.md is this file's `--help`, checked by a test.

use crate::run::options::{RunOptions, DEFAULT_MEMORY_LIMIT_MIB};
use crate::run::precision;
use crate::runtimes::codec_list;
use crate::system::pin;
use anyhow::{bail, ensure, Context, Result};
use clap::{Args, Parser, Subcommand};
use codecs::{registry, AnyCodec, Op};
use schema::run_folder::{CurveSettings, Shard, Stopping};
use schema::{Drops, Measure, Variant};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(
    name = "cold",
    version,
    about = "thaw's cold track: a fresh process per sample, timed phase by phase"
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the cold benchmark (the default job: every codec × 2 ops × 3 batches × 30 samples).
    Run(Box<RunArgs>),
    /// Finish the run in DIR: run exactly the planned samples that have no row yet, with the
    /// run's own settings, after checking every child and input against its manifest.
    Resume(ResumeArgs),
    /// List the codecs (id, library, version, style), the other runtimes and the fixtures.
    List(ListArgs),
    /// Build every child of the described builds named (cold/variants/*.toml, $THAW_VARIANTS),
    /// each into target/variants/<name>/ (a run builds what it needs by itself).
    Build(BuildArgs),
}

#[derive(Debug, Args)]
pub(crate) struct BuildArgs {
    /// The described builds to make, comma-separated.
    #[arg(value_delimiter = ',', value_parser = Variant::parse, required = true)]
    pub(crate) variants: Vec<Variant>,
}

/// `--corpora DIR`, the classic corpora folder, as `cold list` and `cold run` take it.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct Corpora {
    /// The classic corpora folder (twitter, citm_catalog, canada) [default: $THAW_CORPORA]. A
    /// relative path is taken from the current folder, else from the workspace root.
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) corpora: Option<PathBuf>,
}

impl Corpora {
    /// The folder given, else `THAW_CORPORA`'s (`fixtures::catalog::corpora_given`).
    pub(crate) fn folder(&self) -> Option<PathBuf> {
        fixtures::catalog::corpora_given(self.corpora.clone())
    }
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// The seed the fixtures' sizes are given for.
    #[arg(long, default_value_t = fixtures::DEFAULT_SEED)]
    pub(crate) seed: u64,
    #[command(flatten)]
    pub(crate) corpora: Corpora,
}

#[derive(Debug, Args)]
pub(crate) struct ResumeArgs {
    /// The run folder to finish.
    pub(crate) dir: PathBuf,
    /// Print what is left of the plan as CSV and exit.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Codec ids or runtime groups, comma-separated (default: every Rust codec; see `cold list`).
    #[arg(long, value_delimiter = ',')]
    pub(crate) codecs: Vec<String>,
    /// Operations, comma-separated: ser, de.
    #[arg(long, value_delimiter = ',', default_value = "ser,de", value_parser = Op::parse)]
    pub(crate) ops: Vec<Op>,
    /// Operations per child, comma-separated (1 to 1,000,000 each).
    #[arg(long, value_delimiter = ',', default_value = "1,10,100")]
    pub(crate) batches: Vec<u32>,
    /// Samples (children) per cell, the number of blocks, 1 to 100,000 [default: 30; 3 with
    /// --measure instructions, whose counts do not vary; 10 with --precision, before its first
    /// check].
    #[arg(long)]
    pub(crate) samples: Option<u32>,
    /// Fixture names, comma-separated or repeated (see `cold list`).
    #[arg(long, value_delimiter = ',', default_value = "users-2kb")]
    pub(crate) fixture: Vec<String>,
    /// The seed of the fixtures' generator (and of the plan's shuffle, unless --plan-seed).
    #[arg(long, default_value_t = fixtures::DEFAULT_SEED)]
    pub(crate) seed: u64,
    /// The seed of the plan's shuffle alone [default: --seed].
    #[arg(long)]
    pub(crate) plan_seed: Option<u64>,
    /// The run folder, new or empty (default: results/cold/<UTC time>, and results/cold/latest
    /// names it).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Pin the runner and its children to these CPUs (a list like 0,2-3).
    #[arg(long, value_name = "CPUS")]
    pub(crate) pin: Option<String>,
    /// Before each sample, evict the child and every file it loads from the page cache.
    #[arg(long)]
    pub(crate) cold_cache: bool,
    /// When a `de` child drops its values: `end` (every value kept until all calls are done, so
    /// no drop is timed) or `each` (each dropped right after its call, inside the timed ops, as
    /// a program that parses and discards would).
    #[arg(long, default_value = "end", value_parser = Drops::parse)]
    pub(crate) drops: Drops,
    /// The same as --drops each (an older spelling).
    #[arg(long, hide = true, conflicts_with = "drops")]
    pub(crate) drop_each: bool,
    /// Seconds a child may run before it is killed and recorded as `timeout` (at most a day).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub(crate) timeout: f64,
    /// The most memory a sample may take, MiB, 64 to 1,048,576: where contained, its memory
    /// cgroup's limit, swap, shared memory and every process of the sample included (the kernel
    /// ends a process past it); elsewhere each child's hard RLIMIT_DATA, its peak and the
    /// system's Shmem checked after. A sample past it is recorded as `memory`.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MEMORY_LIMIT_MIB)]
    pub(crate) memory_limit: u64,
    /// Add whole blocks until every cell's 95% interval of the median init_plus_ops, and every
    /// paired ratio to the reference, is within this of its estimate (e.g. 3%), checking every 5
    /// blocks; or until --max-samples or --max-time.
    #[arg(long, value_name = "PERCENT", value_parser = schema::run_folder::parse_precision)]
    pub(crate) precision: Option<f64>,
    /// With --precision: the most samples per cell [default: 300].
    #[arg(long, value_name = "N", requires = "precision")]
    pub(crate) max_samples: Option<u32>,
    /// With --precision: no round of blocks that would end past this (90s, 10m, 2h).
    #[arg(long, value_name = "DURATION", requires = "precision", value_parser = precision::parse_duration)]
    pub(crate) max_time: Option<Duration>,
    /// With --precision: the codec the ratios are taken against [default: serde_json, else
    /// kotlinx, else kotlinx-common, the first the run has].
    #[arg(long, value_name = "CODEC", requires = "precision")]
    pub(crate) reference: Option<String>,
    /// What each sample records: `time` (the child runs natively), or `instructions` (it runs
    /// under Valgrind's callgrind, which counts the instructions of each phase, and once more
    /// natively with an allocation counter).
    #[arg(long, default_value = "time", value_parser = Measure::parse)]
    pub(crate) measure: Measure,
    /// Also give the children this variable (repeatable). They start with PATH and HOME only.
    /// Its value goes into the manifest and every report: never a secret.
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = key_value)]
    pub(crate) env: Vec<(String, String)>,
    /// The builds of the children to run, comma-separated: each cell runs in every build of its
    /// runtime given (paired within blocks), or in its runtime's default build (Rust: portable;
    /// native is `-C target-cpu=native`; `cold list` shows every runtime's).
    #[arg(long, value_delimiter = ',', value_parser = Variant::parse)]
    pub(crate) variant: Vec<Variant>,
    /// Where the Rust child binaries are (default: from --variant).
    #[arg(long, value_name = "DIR")]
    pub(crate) children_dir: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) corpora: Corpora,
    /// The same as `cold resume DIR` (an older spelling), given alone.
    #[arg(long, value_name = "DIR", hide = true, exclusive = true)]
    pub(crate) resume: Option<PathBuf>,
    /// Run the K-th of N parts of the plan, by whole blocks (each machine of a CI matrix one
    /// part; `analysis merge` joins their folders). `auto`: from the environment: THAW_SHARD
    /// (`K/N`); GitLab's CI_NODE_INDEX and CI_NODE_TOTAL; a Kubernetes Indexed Job's
    /// JOB_COMPLETION_INDEX (from 0) with THAW_SHARDS (N); a Slurm array's SLURM_ARRAY_TASK_ID,
    /// SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP and SLURM_ARRAY_TASK_COUNT.
    #[arg(long, value_name = "K/N|auto", conflicts_with = "precision")]
    pub(crate) shard: Option<String>,
    /// A curve run: every child performs N operations in one process (1 to 1,000,000) and reads
    /// its clock at log-spaced checkpoints and at 2,000 windows, written to curves.csv (given
    /// alone: 100,000; samples per cell: 10 unless --samples).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "100000",
          conflicts_with_all = ["precision", "batches"])]
    pub(crate) curve: Option<u32>,
    /// Fail, rather than leave cells unsupported, when a runtime, a build of it or a library a
    /// chosen codec needs is not there (for CI, which states what it provides).
    #[arg(long)]
    pub(crate) require_runtimes: bool,
    /// Print the plan as CSV and exit.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// What `cold run` was asked to do.
pub(crate) enum RunRequest {
    Fresh(Box<RunOptions>),
    Resume { dir: PathBuf, dry_run: bool },
}

/// Samples per cell of a curve run unless `--samples` says otherwise: enough for a median's 95%
/// interval (6) with room, few enough that a curve of the Rust matrix stays within minutes.
pub(crate) const CURVE_SAMPLES: u32 = 10;

/// The largest number of samples per cell.
pub(crate) const MAX_SAMPLES: u32 = 100_000;
/// The longest a child may be allowed to run, in seconds (a day).
pub(crate) const MAX_TIMEOUT_SECS: f64 = 86_400.0;
/// The bounds of `--memory-limit`, MiB.
pub(crate) const MEMORY_LIMIT_MIB: std::ops::RangeInclusive<u64> = 64..=1 << 20;

/// `KEY=VALUE`, for `--env`.
/// `--env KEY=VALUE`: a key and a value without NUL, the whole at most the manifest's longest
/// text (it is recorded there whole, and a manifest with a longer one is refused by every reader).
fn key_value(text: &str) -> Result<(String, String), String> {
    use schema::run_folder::MAX_TEXT;
    let shown = text::echo(text);
    let chars = text.chars().count();
    if chars > MAX_TEXT {
        return Err(format!(
            "`{shown}` is {chars} characters; KEY=VALUE is at most {MAX_TEXT} (the manifest \
             records it whole, and holds no longer text)"
        ));
    }
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() && !key.contains('\0') && !value.contains('\0') => {
            Ok((key.to_string(), value.to_string()))
        }
        _ => Err(format!("`{shown}` is not KEY=VALUE")),
    }
}

fn dedup<T: PartialEq + Clone>(items: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for item in items {
        if !out.contains(item) {
            out.push(item.clone());
        }
    }
    out
}

impl RunArgs {
    /// Checks every input; the error names the bad one and the valid values.
    pub(crate) fn resolve(self) -> Result<RunRequest> {
        if let Some(dir) = self.resume {
            return Ok(RunRequest::Resume {
                dir,
                dry_run: false,
            });
        }
        let codecs = if self.codecs.is_empty() {
            registry()
        } else {
            codec_list::select(&self.codecs)?
        };
        let ops = dedup(&self.ops);
        if ops.is_empty() {
            bail!("--ops is empty; valid ops: ser, de");
        }
        let curve = self.curve_settings()?;
        let batches = self.batches_of(curve)?;
        let samples = self.samples_of(curve)?;
        let stopping = self.stopping(samples, &codecs)?;
        let fixtures = dedup(&self.fixture)
            .iter()
            .map(|name| fixtures::find(name.trim()).map_err(anyhow::Error::from))
            .collect::<Result<Vec<_>>>()?;
        if fixtures.is_empty() {
            bail!("--fixture is empty; see `cold list` for the fixtures");
        }
        self.check_limits()?;
        let variants = self.variants_of()?;
        let pin = self.pin.as_deref().map(pin::parse_cpus).transpose()?;
        let corpora = self.corpora.folder();
        let shard = self.shard_for(samples, stopping.is_some())?;
        Ok(RunRequest::Fresh(Box::new(RunOptions {
            codecs,
            ops,
            batches,
            samples,
            fixtures,
            seed: self.seed,
            plan_seed: self.plan_seed.unwrap_or(self.seed),
            out: self.out,
            pin,
            cold_cache: self.cold_cache,
            drops: if self.drop_each || curve.is_some() {
                Drops::Each
            } else {
                self.drops
            },
            timeout: Duration::from_secs_f64(self.timeout),
            memory_limit_mib: self.memory_limit,
            env: self.env,
            variants,
            children_dir: self.children_dir,
            corpora,
            measure: self.measure,
            stopping,
            shard,
            curve,
            require_runtimes: self.require_runtimes,
            dry_run: self.dry_run,
        })))
    }

    /// `--curve`: how many operations each child's curve has, and its clock reads' window.
    fn curve_settings(&self) -> Result<Option<CurveSettings>> {
        let max_batch = schema::rows::MAX_BATCH;
        Ok(match self.curve {
            None => None,
            Some(n) if (1..=max_batch).contains(&n) && self.measure == Measure::Time => {
                Some(CurveSettings {
                    ops: u64::from(n),
                    window: schema::curve::window_for(u64::from(n)),
                })
            }
            Some(n) if self.measure == Measure::Time => {
                bail!("--curve {n}: give 1 to {max_batch} operations per child")
            }
            Some(_) => bail!(
                "--curve with --measure instructions: a curve is timed; give one or the other"
            ),
        })
    }

    /// The batches: `--batches`, or a curve's one batch of all its operations.
    fn batches_of(&self, curve: Option<CurveSettings>) -> Result<Vec<u32>> {
        let max_batch = schema::rows::MAX_BATCH;
        let batches = match curve {
            Some(c) => vec![c.ops as u32],
            None => dedup(&self.batches),
        };
        if let Some(bad) = batches.iter().find(|&&b| !(1..=max_batch).contains(&b)) {
            bail!("--batches: {bad} operations per child; give 1 to {max_batch}");
        }
        if batches.is_empty() {
            bail!("--batches is empty; give 1 to {max_batch} operations per child");
        }
        Ok(batches)
    }

    /// Samples per cell: `--samples`, or the default of the measure, `--precision` or a curve.
    fn samples_of(&self, curve: Option<CurveSettings>) -> Result<u32> {
        let default_samples = match (self.measure, self.precision.is_some()) {
            (Measure::Time, true) => crate::run::precision::MIN_BLOCKS,
            (Measure::Time, false) => 30,
            (Measure::Instructions, true) => bail!(
                "--precision with --measure instructions: counts do not vary, so there is no \
                 interval to narrow; give one or the other"
            ),
            // counts repeat: three samples show that they do
            (Measure::Instructions, false) => 3,
        };
        let default_samples = if curve.is_some() {
            CURVE_SAMPLES
        } else {
            default_samples
        };
        let samples = self.samples.unwrap_or(default_samples);
        if !(1..=MAX_SAMPLES).contains(&samples) {
            bail!("--samples {samples}: give 1 to {MAX_SAMPLES} samples per cell");
        }
        Ok(samples)
    }

    /// `--precision`'s stopping rule, with its reference among `codecs` and its most blocks.
    fn stopping(&self, samples: u32, codecs: &[&'static dyn AnyCodec]) -> Result<Option<Stopping>> {
        let Some(p) = self.precision else {
            return Ok(None);
        };
        let max_blocks = self.max_samples.unwrap_or(precision::MAX_BLOCKS);
        if !(samples..=MAX_SAMPLES).contains(&max_blocks) {
            bail!(
                "--max-samples {max_blocks}: give {samples} (the samples before the first \
                 check) to {MAX_SAMPLES}"
            );
        }
        let reference = match &self.reference {
            Some(id) => {
                let c = codec_list::find(id.trim())?;
                if !codecs.iter().any(|k| k.id() == c.id()) {
                    bail!("--reference {id}: not among the codecs of this run");
                }
                Some(c.id().to_string())
            }
            None => {
                let ids: Vec<&str> = codecs.iter().map(|c| c.id()).collect();
                schema::words::default_reference(&ids).map(str::to_string)
            }
        };
        Ok(Some(Stopping {
            precision: p,
            level: precision::LEVEL,
            reference,
            min_blocks: samples,
            check_every: precision::CHECK_EVERY,
            max_blocks,
            max_time_secs: self.max_time.map(|d| d.as_secs_f64()),
            sampling_secs: 0.0,
            stopped_on: None,
            widest: None,
        }))
    }

    /// `--timeout` and `--memory-limit` within their bounds.
    fn check_limits(&self) -> Result<()> {
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= MAX_TIMEOUT_SECS) {
            bail!(
                "--timeout {}: give a number of seconds above 0 and at most {MAX_TIMEOUT_SECS} \
                 (a day)",
                text::echo_number(self.timeout)
            );
        }
        if !MEMORY_LIMIT_MIB.contains(&self.memory_limit) {
            bail!(
                "--memory-limit {}: give {} to {} MiB",
                self.memory_limit,
                MEMORY_LIMIT_MIB.start(),
                MEMORY_LIMIT_MIB.end()
            );
        }
        Ok(())
    }

    /// The builds, once each; `--children-dir` names the children of one Rust build only.
    fn variants_of(&self) -> Result<Vec<Variant>> {
        let variants = dedup(&self.variant);
        let rust_variants = variants
            .iter()
            .filter(|v| codec_list::runtime_of_variant(**v) == codec_list::RUST)
            .count();
        if rust_variants > 1 && self.children_dir.is_some() {
            bail!(
                "--children-dir with {rust_variants} Rust builds: each build has its own \
                 children; give one --variant with --children-dir, or none"
            );
        }
        Ok(variants)
    }

    /// `--shard`, which must leave this shard at least one block of a plan of fixed size.
    fn shard_for(&self, samples: u32, precision: bool) -> Result<Option<Shard>> {
        let shard = self
            .shard
            .as_deref()
            .map(|s| shard_of(s, |k| std::env::var(k).ok()))
            .transpose()?;
        if let Some(s) = shard.filter(|s| !precision && s.blocks(samples).is_empty()) {
            bail!(
                "--shard {s} with --samples {samples}: the plan has {samples} blocks (one per \
                 sample), split by whole blocks, and this shard gets none; give at most \
                 {samples} shards, or at least {} samples",
                s.count
            );
        }
        Ok(shard)
    }
}

/// `--shard`'s value: `K/N`, or `auto`, read from the variables (`var`) the job engines set.
pub(crate) fn shard_of(text: &str, var: impl Fn(&str) -> Option<String>) -> Result<Shard> {
    let parsed = |t: &str| Shard::parse(t).map_err(|e| anyhow::anyhow!("--shard: {e}"));
    if text != "auto" {
        return parsed(text);
    }
    let number = |k: &str| -> Result<Option<u32>> {
        var(k)
            .map(|v| {
                v.trim().parse::<u32>().map_err(|_| {
                    anyhow::anyhow!("--shard auto: {k}=`{}` is not a number", clip(&v))
                })
            })
            .transpose()
    };
    if let Some(t) = var("THAW_SHARD") {
        return parsed(&t);
    }
    if let (Some(k), Some(n)) = (number("CI_NODE_INDEX")?, number("CI_NODE_TOTAL")?) {
        return parsed(&format!("{k}/{n}"));
    }
    if let (Some(i), Some(n)) = (number("JOB_COMPLETION_INDEX")?, number("THAW_SHARDS")?) {
        return parsed(&format!("{}/{n}", i + 1));
    }
    if let (Some(id), Some(count)) = (
        number("SLURM_ARRAY_TASK_ID")?,
        number("SLURM_ARRAY_TASK_COUNT")?,
    ) {
        let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
        let k = id
            .checked_sub(min)
            .context("--shard auto: SLURM_ARRAY_TASK_ID below SLURM_ARRAY_TASK_MIN")?;
        ensure!(
            k % step == 0,
            "--shard auto: SLURM_ARRAY_TASK_ID {id} is not SLURM_ARRAY_TASK_MIN {min} plus a \
             multiple of SLURM_ARRAY_TASK_STEP {step}"
        );
        return parsed(&format!("{}/{count}", k / step + 1));
    }
    bail!(
        "--shard auto: no shard in the environment; set THAW_SHARD=K/N, or run under GitLab's \
         parallel (CI_NODE_INDEX, CI_NODE_TOTAL), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX \
         with THAW_SHARDS=N) or a Slurm array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT)"
    )
}

fn clip(text: &str) -> String {
    text::echo(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_entries_are_bounded_at_the_input() {
        assert_eq!(key_value("A=1").unwrap(), ("A".into(), "1".into()));
        let max = schema::run_folder::MAX_TEXT;
        let fits = format!("{}=1", "K".repeat(max - 2));
        assert!(key_value(&fits).is_ok());
        let e = key_value(&format!("{}=1", "K".repeat(100_000))).unwrap_err();
        assert!(e.contains("100002 characters") && e.contains(&format!("at most {max}")));
        assert!(e.len() < 200, "the value is echoed clipped: {e}");
        assert!(key_value("=1").is_err() && key_value("A").is_err());
    }

    fn resolve(args: &[&str]) -> Result<RunRequest> {
        let mut argv = vec!["cold", "run"];
        argv.extend_from_slice(args);
        let Command::Run(run) = Cli::try_parse_from(argv)?.command else {
            panic!("not run")
        };
        run.resolve()
    }

    fn fresh(args: &[&str]) -> RunOptions {
        match resolve(args).unwrap() {
            RunRequest::Fresh(o) => *o,
            RunRequest::Resume { .. } => panic!("resume"),
        }
    }

    fn error(args: &[&str]) -> String {
        match resolve(args) {
            Err(e) => format!("{e:#}"),
            Ok(_) => panic!("{args:?} was accepted"),
        }
    }

    #[test]
    fn defaults_are_the_default_run() {
        let o = fresh(&[]);
        assert_eq!(o.codecs.len(), registry().len());
        assert_eq!(o.ops, vec![Op::Ser, Op::De]);
        assert_eq!(o.batches, vec![1, 10, 100]);
        assert_eq!(o.samples, 30);
        assert_eq!(o.fixtures.len(), 1);
        assert_eq!(o.fixtures[0].name, "users-2kb");
        assert!(o.variants.is_empty(), "each runtime's default build");
        assert_eq!(o.plan_seed, o.seed);
        assert_eq!(o.drops, Drops::End);
        assert_eq!(o.memory_limit_mib, DEFAULT_MEMORY_LIMIT_MIB);
        assert!(!o.dry_run && !o.cold_cache && o.pin.is_none() && o.env.is_empty());
    }

    #[test]
    fn lists_repeats_and_old_spellings() {
        let o = fresh(&[
            "--codecs",
            "noop,serde_json,noop",
            "--fixture",
            "small",
            "--fixture",
            "users-1kb,small",
            "--batches",
            "1",
            "--ops",
            "de",
            "--pin",
            "0",
            "--drop-each",
        ]);
        let ids: Vec<_> = o.codecs.iter().map(|c| c.id()).collect();
        assert_eq!(ids, ["noop", "serde_json"]);
        let names: Vec<_> = o.fixtures.iter().map(|f| f.name).collect();
        assert_eq!(names, ["small", "users-1kb"]);
        assert_eq!(o.pin, Some(vec![0]));
        assert_eq!(o.drops, Drops::Each);
        assert_eq!(fresh(&["--drops", "each"]).drops, Drops::Each);
    }

    #[test]
    fn bad_inputs_name_themselves_and_the_valid_values() {
        let e = error(&["--codecs", "yaml"]);
        assert!(e.contains("yaml") && e.contains("serde_json"), "{e}");
        let e = error(&["--fixture", "nope"]);
        assert!(e.contains("nope") && e.contains("users-2kb"), "{e}");
        let e = error(&["--ops", "zip"]);
        assert!(e.contains("zip") && e.contains("ser, de"), "{e}");
        assert!(error(&["--batches", "1,0"]).contains("give 1 to 1000000"));
        assert!(error(&["--batches", "1000000000"]).contains("give 1 to 1000000"));
        assert!(error(&["--samples", "0"]).contains("give 1 to 100000"));
        assert!(error(&["--samples", "4294967295"]).contains("give 1 to 100000"));
        assert!(error(&["--samples", "4294967296"]).contains("--samples"));
        assert!(error(&["--timeout", "0"]).contains("--timeout"));
        assert!(error(&["--timeout", "1e20"]).contains("at most 86400"));
        assert!(error(&["--timeout", "nan"]).contains("--timeout"));
        assert!(error(&["--memory-limit", "1"]).contains("give 64 to 1048576 MiB"));
        assert!(error(&["--env", "NOEQUALS"]).contains("KEY=VALUE"));
        assert!(error(&["--pin", "x"]).contains("--pin"));
        assert!(error(&["--variant", "Fast"]).contains("portable, native, or a name"));
        assert!(error(&["--drops", "sometimes"]).contains("end, each"));
    }

    #[test]
    fn a_shard_comes_from_the_option_or_the_job_engine() {
        let none = |_: &str| None;
        assert_eq!(shard_of("2/4", none).unwrap().to_string(), "2/4");
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(name, _)| *name == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let auto = |pairs| shard_of("auto", env(pairs)).map(|s| s.to_string());
        assert_eq!(auto(&[("THAW_SHARD", "3/5")]).unwrap(), "3/5");
        assert_eq!(
            auto(&[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "3")]).unwrap(),
            "2/3"
        );
        assert_eq!(
            auto(&[("JOB_COMPLETION_INDEX", "0"), ("THAW_SHARDS", "4")]).unwrap(),
            "1/4"
        );
        assert_eq!(
            auto(&[
                ("SLURM_ARRAY_TASK_ID", "7"),
                ("SLURM_ARRAY_TASK_MIN", "5"),
                ("SLURM_ARRAY_TASK_COUNT", "4")
            ])
            .unwrap(),
            "3/4"
        );
        // --array=1-7:2 runs tasks 1, 3, 5, 7: shards 1/4 to 4/4
        let task = |id| {
            [
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_STEP", "2"),
                ("SLURM_ARRAY_TASK_COUNT", "4"),
            ]
        };
        let stepped = |id: &'static str| {
            let vars = task(id);
            shard_of("auto", |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            })
            .map(|s| s.to_string())
        };
        assert_eq!(stepped("5").unwrap(), "3/4");
        assert_eq!(stepped("7").unwrap(), "4/4");
        assert!(stepped("4").unwrap_err().to_string().contains("multiple"));
        assert!(auto(&[])
            .unwrap_err()
            .to_string()
            .contains("THAW_SHARD=K/N"));
        assert!(shard_of("5/4", none)
            .unwrap_err()
            .to_string()
            .contains("1 ≤ K ≤ N"));
        assert!(error(&["--shard", "1/2", "--precision", "3%"]).contains("--precision"));
    }

    #[test]
    fn the_old_resume_flag_still_resumes_and_takes_nothing_else() {
        match resolve(&["--resume", "results/cold/x"]).unwrap() {
            RunRequest::Resume { dir, dry_run } => {
                assert_eq!(dir, PathBuf::from("results/cold/x"));
                assert!(!dry_run);
            }
            RunRequest::Fresh(_) => panic!("fresh"),
        }
        let e = error(&["--resume", "d", "--seed", "3"]);
        assert!(e.contains("'--resume <DIR>' cannot be used with"), "{e}");
    }
}
