//! The command line, parsed once into plain structs that the rest of `main` reads.

use crate::export::Format;
use crate::span::Span;
use clap::{Args, Parser, Subcommand};
use schema::phases::Phase;
use schema::run_folder::Shard;
use schema::{Measure, Variant};
use std::path::PathBuf;

pub(crate) const DEFAULT_RUN: &str = "results/cold/latest";

#[derive(Debug, Parser)]
#[command(
    name = "analysis",
    version,
    about = "thaw's statistics and reports: reads what the cold and warm tracks wrote"
)]
pub struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Turn a cold run (and the warm results) into report.md, report.html, summary.csv and
    /// summary.json, and print the headline table.
    Report(ReportArgs),
    /// Compare two cold runs cell by cell: timed runs by the ratio of medians with a bootstrap
    /// interval, counted runs exactly, phase by phase.
    Compare(CompareArgs),
    /// Write a cold run in another tool's format.
    Export(ExportArgs),
    /// Join the folders of a run's shards (`cold run --shard K/N`, run on one machine or
    /// several) into one run folder, refusing folders that are not the parts of one run.
    Merge(MergeArgs),
    /// Write a synthetic run folder (and warm results) with a known truth, for tests and demos.
    Synth(SynthArgs),
    /// Print the answer table of committed runs (each a folder with the summary.json and
    /// manifest.json of its report), as README.md shows it.
    Answer(AnswerArgs),
}

/// Where the committed runs behind README.md's answer table live.
pub(crate) const COMMITTED_RUNS: &str = "docs/runs";

#[derive(Debug, Args)]
pub(crate) struct AnswerArgs {
    /// The runs' folders (each holding summary.json and manifest.json, or a run folder whose
    /// report is in report/); without one, every folder in docs/runs.
    #[arg(value_name = "RUN")]
    pub(crate) runs: Vec<PathBuf>,
}

fn fraction(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|_| format!("`{s}` is not a number"))?;
    if (0.0..1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside [0, 1)"))
    }
}

fn codec_factor(s: &str) -> Result<(String, f64), String> {
    let (codec, factor) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not CODEC=FACTOR"))?;
    let f: f64 = factor
        .parse()
        .map_err(|_| format!("`{factor}` is not a number"))?;
    if f > 0.0 && f.is_finite() {
        Ok((codec.to_string(), f))
    } else {
        Err(format!("{f} is not a positive factor"))
    }
}

/// The most blocks of a precision run: from the first check's blocks to 100,000.
fn max_samples(s: &str) -> Result<u32, String> {
    let v: u32 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number"))?;
    let min = store::stopping::MIN_BLOCKS;
    if (min..=100_000).contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{v}: give {min} (the samples before the first check) to 100000"
        ))
    }
}

fn resamples(s: &str) -> Result<usize, String> {
    let v: usize = s
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number"))?;
    if (100..=1_000_000).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside 100..=1000000"))
    }
}

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// The cold run folder (or a file naming it, like results/cold/latest).
    #[arg(default_value = DEFAULT_RUN)]
    pub(crate) run_dir: PathBuf,
    /// The warm results folder: the forked runs' under DIR/forks/VARIANT/fork-K/ (the figure
    /// across processes), criterion's one-process estimates under DIR/criterion/VARIANT/, JMH's
    /// under DIR/jmh/JDK/jmh.json, Go's benchmark output DIR/go/*.txt, the allocation count
    /// DIR/alloc.csv and the warm gate's DIR/gate.csv.
    #[arg(long, value_name = "DIR", default_value = "results/warm")]
    pub(crate) warm: PathBuf,
    /// The conformance table.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "results/conformance/conformance.csv"
    )]
    pub(crate) conformance: PathBuf,
    /// The codec every other is compared against [default: serde_json, else kotlinx, else
    /// kotlinx-common, the first the run has].
    #[arg(long, value_name = "CODEC")]
    pub(crate) reference: Option<String>,
    /// Where to write the report [default: RUN_DIR/report].
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// Report a run whose samples.csv does not hold the rows its manifest says the runner
    /// wrote (`samples_written`), as it is; refused without it.
    #[arg(long)]
    pub(crate) allow_unfinished: bool,
    /// Bootstrap resamples per interval.
    #[arg(long, default_value_t = 2000, value_parser = resamples)]
    pub(crate) resamples: usize,
    /// Bootstrap seed [default: the run's seed].
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// With a counted RUN_DIR: a timed run of the same cells, whose medians are set beside
    /// the counts.
    #[arg(long, value_name = "TIMED_RUN")]
    pub(crate) timed: Option<PathBuf>,
    /// With a run merged from several machines: report one of them alone (M1, M2, … as the
    /// Machines section names them, or its CPU model) [default --out: RUN_DIR/report-NAME].
    #[arg(long, value_name = "NAME")]
    pub(crate) machine: Option<String>,
}

#[derive(Debug, Args)]
pub(crate) struct CompareArgs {
    /// The baseline run (with --variants: the one run that holds both builds).
    pub(crate) run_a: PathBuf,
    /// The run compared with it.
    #[arg(required_unless_present = "variants", conflicts_with = "variants")]
    pub(crate) run_b: Option<PathBuf>,
    /// Compare two builds of one run: BASE's cells as A, CANDIDATE's as B, matched by all but
    /// the build (both ran in every block, so the machine's drift is shared).
    #[arg(long, value_name = "BASE,CANDIDATE", value_delimiter = ',', value_parser = Variant::parse, conflicts_with = "ignore_variant")]
    pub(crate) variants: Vec<Variant>,
    /// Only this phase decides a cell's verdict (`first_op`: a first-call regression); the
    /// others are shown. Timed runs compare that phase's time instead of --figure.
    #[arg(long, value_parser = Phase::parse)]
    pub(crate) phase: Option<Phase>,
    /// How the table is written: `text` for a terminal, `markdown` for a pull request's comment.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    pub(crate) format: TableFormat,
    /// Changes smaller than this fraction are noise. Timed runs: a cell changed only when the
    /// whole interval of B/A lies beyond 1 ± threshold [default: 0.02]. Counted runs: a phase
    /// changed when its count moved by more than this fraction [default: 0.005].
    #[arg(long, value_parser = fraction)]
    pub(crate) threshold: Option<f64>,
    /// Exit with status 1 when any cell regressed (for CI).
    #[arg(long)]
    pub(crate) fail_on_regression: bool,
    /// Which timing to compare (timed runs; counted runs compare every phase).
    #[arg(long, value_enum, default_value_t = Span::InitPlusOps)]
    pub(crate) figure: Span,
    /// Match cells across variants (compare a portable run with a native one).
    #[arg(long)]
    pub(crate) ignore_variant: bool,
    /// Bootstrap resamples per interval.
    #[arg(long, default_value_t = 2000, value_parser = resamples)]
    pub(crate) resamples: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Also write the table as CSV to this file (refused if a file is there, or if its folder
    /// holds a run or warm results).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Let --out replace a file that is there already.
    #[arg(long)]
    pub(crate) force: bool,
}

/// How `compare` writes its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TableFormat {
    Text,
    Markdown,
}

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// Output format.
    #[arg(long, value_enum)]
    pub(crate) format: Format,
    /// The cold run folder.
    #[arg(default_value = DEFAULT_RUN)]
    pub(crate) run_dir: PathBuf,
    /// Write here instead of standard output (refused if a file is there, or if its folder holds
    /// a run or warm results).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
    /// Let --out replace a file that is there already.
    #[arg(long)]
    pub(crate) force: bool,
    /// Which timing stands for a run's time (hyperfine measures wall-clock time).
    #[arg(long, value_enum, default_value_t = Span::Wall)]
    pub(crate) figure: Span,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The merged run folder to create (new or empty).
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// The shards' run folders: every K of one split K/N, each once, in any order.
    #[arg(required = true, value_name = "RUN")]
    pub(crate) runs: Vec<PathBuf>,
}

fn machine_name(s: &str) -> Result<String, String> {
    if (1..=64).contains(&s.chars().count()) && !s.chars().any(char::is_control) {
        Ok(s.to_string())
    } else {
        Err("a machine's name is 1 to 64 characters, none a control character".into())
    }
}

#[derive(Debug, Args)]
pub(crate) struct SynthArgs {
    /// The run folder to create.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: PathBuf,
    /// At least this many samples (rounded up to whole blocks: one sample of every cell of every variant).
    #[arg(long, default_value_t = 2000)]
    pub(crate) samples: usize,
    /// Sample as `cold run --precision` does: 10 whole blocks, then 5 more at a time until every
    /// cell's 95% interval of the median init_plus_ops and every paired ratio to serde_json is
    /// within this of its estimate (3% or 0.03), or --max-samples.
    #[arg(long, value_name = "PERCENT", value_parser = schema::run_folder::parse_precision, conflicts_with = "samples")]
    pub(crate) precision: Option<f64>,
    /// With --precision: the most samples per cell [default: 300].
    #[arg(long, value_name = "N", requires = "precision", value_parser = max_samples)]
    pub(crate) max_samples: Option<u32>,
    /// The build variants, each a cell of its own in every block (portable,native), the native
    /// children planted faster for the SIMD libraries (simd-json 0.48×, sonic-rs 0.69×, their
    /// DOMs 0.44× and 0.49×; the others 1×).
    #[arg(long, value_name = "V,V", value_delimiter = ',', value_parser = Variant::parse)]
    pub(crate) variants: Vec<Variant>,
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Share of samples that fail (status timeout).
    #[arg(long, default_value_t = 0.001, value_parser = fraction)]
    pub(crate) fail_rate: f64,
    /// Make CODEC slower (FACTOR > 1) or faster (< 1) on init and every operation;
    /// repeatable. Two runs with different scales make a test case for `compare`.
    #[arg(long, value_name = "CODEC=FACTOR", value_parser = codec_factor)]
    pub(crate) scale: Vec<(String, f64)>,
    /// What the samples record: times, or instruction and allocation counts as
    /// `cold run --measure instructions` writes them (the same truth, no noise).
    #[arg(long, default_value = "time", value_parser = Measure::parse)]
    pub(crate) measure: Measure,
    /// Write only the K-th of N parts of the run, by whole blocks, as `cold run --shard K/N`
    /// does: the same samples the whole run of this seed has in those blocks.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, conflicts_with = "precision")]
    pub(crate) shard: Option<Shard>,
    /// The CPU model the manifest says the run was on [default: synthetic CPU]: shards of
    /// different names are different machines to `analysis merge` (a --scale given to one of
    /// them is that machine's planted effect).
    #[arg(long, value_name = "NAME", value_parser = machine_name)]
    pub(crate) machine: Option<String>,
    /// Also write warm results here (criterion/portable/… and alloc.csv); refused if it holds
    /// warm results or a run already.
    #[arg(long, value_name = "DIR")]
    pub(crate) warm: Option<PathBuf>,
    /// Also write a conformance table here; refused if a file is there already.
    #[arg(long, value_name = "FILE")]
    pub(crate) conformance: Option<PathBuf>,
    /// Let --warm and --conformance replace what is there already.
    #[arg(long)]
    pub(crate) force: bool,
}
