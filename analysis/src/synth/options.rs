//! What a synthetic run is asked for (`analysis synth`'s options) and the constants every part
//! of it shares: its fixture, batches, variant and reference.

use schema::run_folder::Shard;
use schema::{Measure, Variant};

/// The fixture of every synthetic cell.
pub const FIXTURE: &str = "users-2kb";
pub(crate) const BATCHES: [u32; 3] = [1, 10, 100];
/// The variant of a run of one variant.
pub const VARIANT: Variant = Variant::PORTABLE;
/// The codec the synthetic run's ratios are taken against.
pub const REFERENCE: &str = "serde_json";
#[derive(Debug, Clone, Default)]
pub struct SynthOptions {
    /// At least this many samples (rounded up to whole blocks); unused with a precision.
    pub samples: usize,
    pub seed: u64,
    /// Share of samples that fail (status `timeout`).
    pub fail_rate: f64,
    /// Codecs made slower (> 1) or faster (< 1) by a factor on init and every operation, for
    /// comparing two synthetic runs.
    pub scale: Vec<(String, f64)>,
    /// Time (the default), or instruction counts as a counted run records them.
    pub measure: Measure,
    /// Sample as `cold run --precision` does, to this relative half-width (e.g. 0.03).
    pub precision: Option<f64>,
    /// With a precision: the most blocks ([`store::stopping::MAX_BLOCKS`] when `None`).
    pub max_blocks: Option<u32>,
    /// The build variants, each a cell of its own in every block, in the manifest's order
    /// (empty: [`VARIANT`] alone).
    pub variants: Vec<Variant>,
    /// Only this part of the run's blocks, as `cold run --shard K/N` takes it (not with a
    /// precision).
    pub shard: Option<Shard>,
    /// The CPU model the manifest names (the default: `synthetic CPU`).
    pub machine: Option<String>,
}

impl SynthOptions {
    /// The variants of the run, in order.
    pub(crate) fn variants(&self) -> Vec<Variant> {
        if self.variants.is_empty() {
            vec![VARIANT]
        } else {
            self.variants.clone()
        }
    }
}

/// The factor `--scale` gives `codec` (1 when it names none).
pub(crate) fn scale(opts: &SynthOptions, codec: &str) -> f64 {
    opts.scale
        .iter()
        .filter(|(c, _)| c == codec)
        .map(|(_, k)| k)
        .product()
}
