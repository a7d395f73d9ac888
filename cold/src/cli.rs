//! The command line of `cold`, parsed once by clap and then checked into plain option structs
//! that the rest of the crate reads. Every bad input is an error that names it and lists the
//! valid values.

use crate::codec_list;
use crate::pin;
use crate::precision;
use anyhow::{bail, Result};
use clap::{Args, Parser, Subcommand};
use codecs::{registry, AnyCodec, Op};
use fixtures::catalog::CorporaOption;
use fixtures::Fixture;
use schema::run_folder::Stopping;
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
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the cold benchmark (the default job: every codec × 2 ops × 3 batches × 30 samples).
    Run(Box<RunArgs>),
    /// List the codecs (id, library, version, style) and the fixtures.
    List(ListArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// The seed the fixtures' sizes are given for.
    #[arg(long, default_value_t = fixtures::DEFAULT_SEED)]
    pub seed: u64,
    #[command(flatten)]
    pub corpora: CorporaOption,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Comma-separated codec ids (default: every codec; see `cold list`).
    #[arg(long, value_delimiter = ',')]
    pub codecs: Vec<String>,
    /// Comma-separated ops: ser, de.
    #[arg(long, value_delimiter = ',', default_value = "ser,de", value_parser = Op::parse)]
    pub ops: Vec<Op>,
    /// Comma-separated batch sizes: operations per child.
    #[arg(long, value_delimiter = ',', default_value = "1,10,100")]
    pub batches: Vec<u32>,
    /// Samples (children) per cell: the number of blocks [default: 30; 3 with --measure
    /// instructions, whose counts do not vary; with --precision, the blocks before the first
    /// check, 10].
    #[arg(long)]
    pub samples: Option<u32>,
    /// Fixture names, comma-separated or repeated.
    #[arg(long, value_delimiter = ',', default_value = "users-2kb")]
    pub fixture: Vec<String>,
    /// The seed of the fixtures' generator (and of the plan's shuffle, unless --plan-seed).
    #[arg(long, default_value_t = fixtures::DEFAULT_SEED)]
    pub seed: u64,
    /// The seed of the plan's shuffle alone [default: --seed].
    #[arg(long)]
    pub plan_seed: Option<u64>,
    /// The run folder (default: results/cold/<UTC time>, and results/cold/latest names it).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Pin the runner and its children to these CPUs (a list like 0,2-3).
    #[arg(long, value_name = "CPUS")]
    pub pin: Option<String>,
    /// Before each sample, evict the child binary and its input from the page cache.
    #[arg(long)]
    pub cold_cache: bool,
    /// Drop each `de` value right after its call, inside the timed ops (as a program that parses
    /// and discards would); by default every value is kept until all calls are done, so no drop
    /// is timed.
    #[arg(long)]
    pub drop_each: bool,
    /// Seconds a child may run before it is killed and recorded as `timeout`.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Add whole blocks until every cell's 95% interval of the median init_plus_ops, and every
    /// paired ratio to the reference, is within this of its estimate (e.g. 3%), checking every 5
    /// blocks; or until --max-samples or --max-time.
    #[arg(long, value_name = "PERCENT", value_parser = precision::parse_precision)]
    pub precision: Option<f64>,
    /// With --precision: the most samples per cell [default: 300].
    #[arg(long, value_name = "N", requires = "precision")]
    pub max_samples: Option<u32>,
    /// With --precision: no round of blocks that would end past this (90s, 10m, 2h).
    #[arg(long, value_name = "DURATION", requires = "precision", value_parser = precision::parse_duration)]
    pub max_time: Option<Duration>,
    /// With --precision: the codec the ratios are taken against [default: serde_json, when run].
    #[arg(long, value_name = "CODEC", requires = "precision")]
    pub reference: Option<String>,
    /// What each sample records: `time` (the child runs natively), or `instructions` (it runs
    /// under Valgrind's callgrind, which counts the instructions of each phase, and once more
    /// natively with an allocation counter).
    #[arg(long, default_value = "time", value_parser = Measure::parse)]
    pub measure: Measure,
    /// Also give the children this variable (repeatable). They start with PATH and HOME only.
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = key_value)]
    pub env: Vec<(String, String)>,
    /// How the children were built: portable (target/release), native (target/native/release),
    /// or both (`portable,native`: each variant of a cell in every block, paired like codecs).
    #[arg(long, value_delimiter = ',', default_value = "portable", value_parser = Variant::parse)]
    pub variant: Vec<Variant>,
    /// Where the child-<codec> binaries are (default: from --variant).
    #[arg(long, value_name = "DIR")]
    pub children_dir: Option<PathBuf>,
    #[command(flatten)]
    pub corpora: CorporaOption,
    /// Finish the run in DIR: run exactly the planned samples that have no row yet, with the
    /// run's own settings.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "codecs", "ops", "batches", "samples", "fixture", "seed", "plan_seed", "out", "pin",
        "cold_cache", "drop_each", "timeout", "env", "variant", "children_dir", "corpora",
        "measure", "precision",
    ])]
    pub resume: Option<PathBuf>,
    /// Print the plan (or, with --resume, what is left of it) as CSV and exit.
    #[arg(long)]
    pub dry_run: bool,
}

/// A fresh run, checked.
#[derive(Clone)]
pub struct RunOptions {
    pub codecs: Vec<&'static dyn AnyCodec>,
    pub ops: Vec<Op>,
    pub batches: Vec<u32>,
    pub samples: u32,
    pub fixtures: Vec<&'static Fixture>,
    pub seed: u64,
    pub plan_seed: u64,
    pub out: Option<PathBuf>,
    pub pin: Option<Vec<usize>>,
    pub cold_cache: bool,
    pub drops: Drops,
    pub timeout: Duration,
    /// Variables given to the children beyond PATH and HOME.
    pub env: Vec<(String, String)>,
    /// The build variants, each cell planned in each (usually one).
    pub variants: Vec<Variant>,
    pub children_dir: Option<PathBuf>,
    pub corpora: Option<PathBuf>,
    pub measure: Measure,
    /// `--precision`: the stopping rule (its `sampling_secs` 0, nothing stopped yet).
    pub stopping: Option<Stopping>,
    pub dry_run: bool,
}

/// What `cold run` was asked to do.
pub enum RunRequest {
    Fresh(Box<RunOptions>),
    Resume { dir: PathBuf, dry_run: bool },
}

/// The largest number of samples per cell.
pub const MAX_SAMPLES: u32 = 100_000;
/// The longest a child may be allowed to run, in seconds (a day).
pub const MAX_TIMEOUT_SECS: f64 = 86_400.0;

/// `KEY=VALUE`, for `--env`.
fn key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() && !key.contains('\0') && !value.contains('\0') => {
            Ok((key.to_string(), value.to_string()))
        }
        _ => Err(format!("`{text}` is not KEY=VALUE")),
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
    pub fn resolve(self) -> Result<RunRequest> {
        if let Some(dir) = self.resume {
            return Ok(RunRequest::Resume {
                dir,
                dry_run: self.dry_run,
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
        let batches = dedup(&self.batches);
        let max_batch = schema::protocol::MAX_BATCH as u32;
        if let Some(bad) = batches.iter().find(|&&b| !(1..=max_batch).contains(&b)) {
            bail!("--batches: {bad} operations per child; give 1 to {max_batch}");
        }
        if batches.is_empty() {
            bail!("--batches is empty; give 1 to {max_batch} operations per child");
        }
        if self.precision.is_some() && self.measure == Measure::Instructions {
            bail!(
                "--precision with --measure instructions: counts do not vary, so there is no \
                 interval to narrow; give one or the other"
            );
        }
        let samples = self
            .samples
            .unwrap_or(match (self.measure, self.precision) {
                (Measure::Instructions, _) => 3,
                (Measure::Time, Some(_)) => precision::MIN_BLOCKS,
                (Measure::Time, None) => 30,
            });
        if !(1..=MAX_SAMPLES).contains(&samples) {
            bail!("--samples {samples}: give 1 to {MAX_SAMPLES} samples per cell");
        }
        let stopping = match self.precision {
            None => None,
            Some(p) => {
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
                    None => codecs
                        .iter()
                        .find(|c| c.id() == precision::DEFAULT_REFERENCE)
                        .map(|c| c.id().to_string()),
                };
                Some(Stopping {
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
                })
            }
        };
        let fixtures = dedup(&self.fixture)
            .iter()
            .map(|name| fixtures::find(name.trim()).map_err(anyhow::Error::from))
            .collect::<Result<Vec<_>>>()?;
        if fixtures.is_empty() {
            bail!("--fixture is empty; see `cold list` for the fixtures");
        }
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= MAX_TIMEOUT_SECS) {
            bail!(
                "--timeout {}: give a number of seconds above 0 and at most {MAX_TIMEOUT_SECS} \
                 (a day)",
                self.timeout
            );
        }
        let variants = dedup(&self.variant);
        if variants.is_empty() {
            bail!("--variant is empty; give portable, native, or portable,native");
        }
        if variants.len() > 1 && self.children_dir.is_some() {
            bail!(
                "--children-dir with {} variants: each variant has its own children; give one \
                 variant with --children-dir, or none",
                variants.len()
            );
        }
        let pin = self.pin.as_deref().map(pin::parse_cpus).transpose()?;
        let corpora = self.corpora.folder();
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
            drops: if self.drop_each {
                Drops::EachCall
            } else {
                Drops::AfterOps
            },
            timeout: Duration::from_secs_f64(self.timeout),
            env: self.env,
            variants,
            children_dir: self.children_dir,
            corpora,
            measure: self.measure,
            stopping,
            dry_run: self.dry_run,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(o.variants, [Variant::Portable]);
        assert_eq!(o.plan_seed, o.seed);
        assert!(!o.dry_run && !o.cold_cache && o.pin.is_none() && o.env.is_empty());
    }

    #[test]
    fn lists_and_repeats() {
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
        ]);
        let ids: Vec<_> = o.codecs.iter().map(|c| c.id()).collect();
        assert_eq!(ids, ["noop", "serde_json"]);
        let names: Vec<_> = o.fixtures.iter().map(|f| f.name).collect();
        assert_eq!(names, ["small", "users-1kb"]);
        assert_eq!(o.pin, Some(vec![0]));
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
        assert!(error(&["--env", "NOEQUALS"]).contains("KEY=VALUE"));
        assert!(error(&["--pin", "x"]).contains("--pin"));
        assert!(error(&["--variant", "fast"]).contains("portable"));
        assert!(error(&["--resume", "d", "--seed", "3"]).contains("--seed"));
    }

    #[test]
    fn resume_takes_only_the_folder() {
        match resolve(&["--resume", "results/cold/x", "--dry-run"]).unwrap() {
            RunRequest::Resume { dir, dry_run } => {
                assert_eq!(dir, PathBuf::from("results/cold/x"));
                assert!(dry_run);
            }
            RunRequest::Fresh(_) => panic!("fresh"),
        }
    }
}
