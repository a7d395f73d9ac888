//! Synthetic runs with a known truth, for tests, demos and the report's scaling check:
//! a cold run folder (manifest, plan, samples), and the warm side (criterion estimates, an
//! allocation table, a conformance table) consistent with it.
//!
//! Each codec has a made-up cost model (start-up, init, first operation, time per further
//! operation, and how much faster its `native` build is); samples get a drift shared by the
//! block and lognormal noise. The library's phases (init, first_op, remaining_ops) of a sample
//! share one noise factor: lognormal (σ = [`LIBRARY_SIGMA`]) with, in a share of samples, a
//! right tail (a busy moment), drawn alike for every cell. So the within-block log ratio of two
//! cells is symmetric about the log of their planted ratio ([`truth`] over [`truth`]), which is
//! exactly what the Hodges-Lehmann interval of a paired ratio estimates: a coverage check
//! against the planted ratio is fair. The other phases are noisy each on its own. The numbers
//! are plausible, not measured: never publish them.
//!
//! With a precision ([`SynthOptions::precision`]) the run is sampled as `cold run --precision`
//! samples: 10 whole blocks, then 5 more at a time until the stopping rule
//! ([`store::stopping`]) is met or the most blocks are taken, and the manifest records
//! the rule and why it stopped. With two variants (`portable,native`) each variant of a cell is
//! a cell of its own in every block, the native one planted [`CostModel::native`] times the
//! portable one.
//!
//! With a shard ([`SynthOptions::shard`], `K/N`) it is one part of the run, as `cold run --shard`
//! writes it: every block is drawn as the whole run draws it, and only the shard's blocks are
//! kept, with their indices in the whole plan; so N shards of a seed hold, between them, exactly
//! the samples of the whole run of that seed. [`SynthOptions::machine`] names the CPU the
//! manifest says it ran on: shards of different names are different machines to `analysis
//! merge`, and a `--scale` given to one shard only is that machine's planted effect.
//!
//! With [`schema::Measure::Instructions`] the run is a counted one, as `cold run --measure
//! instructions` writes it: no times, and in every ok sample the counts [`planted`] derives from
//! the same cost model ([`INSTRUCTIONS_PER_NS`] instructions per ns of truth, no noise), the same
//! in every sample of a cell, as real counts are.

mod files;
mod models;
mod options;
mod sampling;

pub use models::{models, planted, truth, CostModel, INSTRUCTIONS_PER_NS};
pub use options::{SynthOptions, FIXTURE, REFERENCE, VARIANT};

use crate::inputs::alloc::AllocRow;
use crate::inputs::conformance::ConformanceRow;
use crate::inputs::criterion::WarmEstimate;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sampling::{cells, sample_to_precision, Sampler};
use schema::rows::{PlanRow, SampleRow};
use schema::run_folder::Manifest;
use store::stopping::MAX_BLOCKS;

pub struct SynthRun {
    pub manifest: Manifest,
    pub plan: Vec<PlanRow>,
    pub samples: Vec<SampleRow>,
    pub(crate) warm: Vec<WarmEstimate>,
    pub(crate) alloc: Vec<AllocRow>,
    pub(crate) conformance: Vec<ConformanceRow>,
}

/// Build a synthetic run.
pub fn synth(opts: SynthOptions) -> SynthRun {
    let variants = opts.variants();
    let cells = cells(&variants);
    let mut sampler = Sampler {
        opts: &opts,
        rng: ChaCha8Rng::seed_from_u64(opts.seed),
        order: (0..cells.len()).collect(),
        plan: Vec::new(),
        samples: Vec::new(),
        wall_secs: 0.0,
        cells,
    };
    let stopping = match opts.precision {
        Some(target) => Some(sample_to_precision(
            &mut sampler,
            target,
            opts.max_blocks.unwrap_or(MAX_BLOCKS),
        )),
        None => {
            let blocks = opts.samples.div_ceil(sampler.cells.len()).max(1);
            for block in 0..blocks as u32 {
                sampler.block(block);
            }
            None
        }
    };
    let n_cells = sampler.cells.len();
    let blocks = (sampler.plan.len() / n_cells) as u32;
    let (mut plan, mut samples) = (sampler.plan, sampler.samples);
    if let Some(shard) = opts.shard {
        // every block was drawn, so the shard's are the whole run's; the others are dropped
        let taken = shard.blocks(blocks);
        plan.retain(|p| taken.contains(&p.block));
        samples.retain(|s| taken.contains(&s.block));
    }
    let (warm, alloc, conformance) = files::warm_side(&opts, &variants);
    let manifest = files::manifest(&opts, &variants, stopping, n_cells, blocks, &plan);
    SynthRun {
        manifest,
        plan,
        samples,
        warm,
        alloc,
        conformance,
    }
}

/// How many cells one build of a synthetic run has: every codec's ops at every batch.
pub fn cells_per_build() -> usize {
    cells(&[VARIANT]).len()
}

#[cfg(test)]
mod tests {
    use super::models::MODELS;
    use super::options::BATCHES;
    use super::*;
    use schema::phases::{Figure, Phase, Quantity};
    use schema::Op;
    use schema::{Measure, Variant};

    fn cells_of_one_build() -> usize {
        cells(&[VARIANT]).len()
    }

    #[test]
    fn shape() {
        let n_cells = cells_of_one_build();
        let s = synth(SynthOptions {
            samples: n_cells + 1,
            seed: 1,
            ..Default::default()
        });
        // every cell of every codec's ops and batches, in two whole blocks
        let ops: usize = MODELS.iter().map(|m| if m.can_ser() { 2 } else { 1 }).sum();
        assert_eq!(n_cells, ops * BATCHES.len());
        assert_eq!(s.samples.len(), 2 * n_cells);
        assert_eq!(s.plan.len(), s.samples.len());
        assert!(s.samples.iter().all(|r| r.is_ok()));
        let r = &s.samples[0];
        let library: u64 = Phase::LIBRARY
            .iter()
            .map(|&p| r.get(Figure::time(p)).unwrap())
            .sum();
        assert_eq!(r.get(Figure::INIT_PLUS_OPS), Some(library));
        let instr = Figure::Of(Quantity::Instructions, Phase::FirstOp);
        assert!(s.samples.iter().all(|r| r.get(instr).is_none()));
        // the manifest lists a child per codec × op, its size in bytes
        assert_eq!(s.manifest.children.len(), ops);
        assert_eq!(s.manifest.settings.stopping, None);
        assert_eq!(s.manifest.settings.variants.len(), 1);
    }

    #[test]
    fn the_truth_is_the_cost_model_worked_by_hand() {
        // serde_json de ×10: 30 ns init, 26,000 ns first call, 9 × 4,000 × 1.02 further
        assert_eq!(
            truth("serde_json", Op::De, 10, Variant::PORTABLE, 1.0),
            Some(30.0 + 26_000.0 + 9.0 * 4_000.0 * 1.02)
        );
        // simd-json native: 0.48 × its portable truth; scaled 2× on top
        let portable = 2_000.0 + 44_000.0;
        assert_eq!(
            truth("simd-json", Op::De, 1, Variant::NATIVE, 2.0),
            Some(portable * 2.0 * 0.48)
        );
        assert_eq!(truth("jiter", Op::Ser, 1, Variant::PORTABLE, 1.0), None);
        assert_eq!(truth("nothing", Op::De, 1, Variant::PORTABLE, 1.0), None);
    }

    #[test]
    fn the_library_phases_are_the_truth_times_one_noise_factor() {
        // Every ok sample's init, first_op and remaining_ops are its truth's phases times one
        // shared factor (rounded): so init_plus_ops / truth is that factor, and the phases
        // keep the model's proportions.
        let s = synth(SynthOptions {
            samples: cells_of_one_build() * 4,
            seed: 9,
            ..SynthOptions::default()
        });
        for r in &s.samples {
            let t = truth(&r.codec, r.op, r.batch, r.variant, 1.0).unwrap();
            let f = r.get(Figure::INIT_PLUS_OPS).unwrap() as f64 / t;
            assert!((0.5..6.0).contains(&f), "{f}");
            let (first, _) = MODELS.iter().find(|m| m.id == r.codec).unwrap().costs(r.op);
            let expect = (first * f).round();
            let first_op = r.get(Figure::time(Phase::FirstOp)).unwrap() as f64;
            assert!((first_op - expect).abs() <= 1.0 + expect * 1e-9, "{r:?}");
        }
    }

    #[test]
    fn two_variants_are_cells_of_their_own_in_every_block() {
        let n = cells_of_one_build();
        let s = synth(SynthOptions {
            samples: 2 * n * 3,
            seed: 2,
            variants: vec![Variant::PORTABLE, Variant::NATIVE],
            ..SynthOptions::default()
        });
        assert_eq!(s.plan.len(), 2 * n * 3);
        for block in 0..3 {
            let native = s
                .plan
                .iter()
                .filter(|p| p.block == block && p.variant == Variant::NATIVE)
                .count();
            assert_eq!(native, n);
        }
        let names: Vec<Variant> = s
            .manifest
            .settings
            .variants
            .iter()
            .map(|v| v.variant)
            .collect();
        assert_eq!(names, [Variant::PORTABLE, Variant::NATIVE]);
        let size = |v: Variant| {
            s.manifest
                .children
                .iter()
                .find(|c| c.codec == "simd-json" && c.variant == v)
                .unwrap()
                .bytes
        };
        assert_eq!(size(Variant::NATIVE) - size(Variant::PORTABLE), 8 * 1024);
        assert!(s
            .manifest
            .command_line
            .join(" ")
            .ends_with("--variants portable,native"));
    }

    #[test]
    fn a_counted_run_plants_its_counts_in_every_ok_sample_and_no_time() {
        let s = synth(SynthOptions {
            samples: cells_of_one_build() * 3,
            seed: 1,
            fail_rate: 0.05,
            scale: vec![("simd-json".into(), 1.5)],
            measure: Measure::Instructions,
            ..SynthOptions::default()
        });
        assert_eq!(s.manifest.settings.measure, Measure::Instructions);
        assert!(s.manifest.counting.is_some());
        assert!(s.samples.iter().any(|r| !r.is_ok()));
        let instr = |p| Figure::Of(Quantity::Instructions, p);
        for r in &s.samples {
            assert!(Figure::all()
                .iter()
                .filter(|f| f.is_ns())
                .all(|&f| r.get(f).is_none()));
            if !r.is_ok() {
                assert_eq!(r.get(instr(Phase::FirstOp)), None);
                continue;
            }
            let k = if r.codec == "simd-json" { 1.5 } else { 1.0 };
            assert_eq!(Some(r.figures), planted(&r.codec, r.op, r.batch, k));
        }
        // the truth, worked by hand: simd-json de, 2,000 ns init and 44,000 ns first call at
        // 4 instructions per ns, scaled by 1.5; 2,500 ns per further call
        let simd = planted("simd-json", Op::De, 10, 1.5).unwrap();
        assert_eq!(simd.get(instr(Phase::Init)), Some(12_000));
        assert_eq!(simd.get(instr(Phase::FirstOp)), Some(264_000));
        assert_eq!(simd.get(instr(Phase::RemainingOps)), Some(9 * 15_000));
        assert_eq!(
            simd.get(Figure::Of(Quantity::AllocBlocks, Phase::FirstOp)),
            Some(88)
        );
        assert_eq!(planted("jiter", Op::Ser, 1, 1.0), None);
        assert_eq!(planted("nothing", Op::De, 1, 1.0), None);
    }
}
