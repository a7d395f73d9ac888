//! What a fresh run is asked to do, once the command line is checked (`cli` makes it): the one
//! value every step of a run reads.

use codecs::{AnyCodec, Op};
use fixtures::Fixture;
use schema::run_folder::{CurveSettings, Shard, Stopping};
use schema::{Drops, Measure, Variant};
use std::path::PathBuf;
use std::time::Duration;

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
    pub memory_limit_mib: u64,
    /// Variables given to the children beyond PATH and HOME.
    pub env: Vec<(String, String)>,
    /// The builds asked for (none: every runtime's default).
    pub variants: Vec<Variant>,
    pub children_dir: Option<PathBuf>,
    pub corpora: Option<PathBuf>,
    pub measure: Measure,
    /// `--precision`: the stopping rule (its `sampling_secs` 0, nothing stopped yet).
    pub stopping: Option<Stopping>,
    pub shard: Option<Shard>,
    /// `--curve N`: the run's one batch and the window of its clock reads.
    pub curve: Option<CurveSettings>,
    pub require_runtimes: bool,
    pub dry_run: bool,
}

/// A child's memory by default, MiB: well above any fixture's need at the default batches
/// (users-1000kb `de` ×100 keeps 100 copies and 100 values, about 1 GiB), well below what
/// `--batches 1000000` of a large document would ask.
pub(crate) const DEFAULT_MEMORY_LIMIT_MIB: u64 = 8192;
