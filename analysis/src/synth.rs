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
//! ([`crate::analyze::precision`]) is met or the most blocks are taken, and the manifest records
//! the rule and why it stopped. With two variants (`portable,native`) each variant of a cell is
//! a cell of its own in every block, the native one planted [`CostModel::native`] times the
//! portable one.
//!
//! With [`Measure::Instructions`] the run is a counted one, as `cold run --measure
//! instructions` writes it: no times, and in every ok sample the counts [`planted`] derives from
//! the same cost model ([`INSTRUCTIONS_PER_NS`] instructions per ns of truth, no noise), the same
//! in every sample of a cell, as real counts are.

use crate::analyze::precision::{next, reaches, Next, CHECK_EVERY, LEVEL, MAX_BLOCKS, MIN_BLOCKS};
use crate::inputs::alloc::AllocRow;
use crate::inputs::conformance::ConformanceRow;
use crate::inputs::criterion::WarmEstimate;
use crate::inputs::samples::{Count, Counts};
use crate::stats::precision::standing;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schema::conformance_file::{Expected, Outcome};
use schema::run_folder::{
    CheckEntry, ChildEntry, CodecEntry, Counting, FixtureEntry, Manifest, PlanRow, SampleRow,
    Stopping, VariantEntry,
};
use schema::{Measure, Op, Status, Style, Variant};

/// A made-up codec: its style and costs in ns (init; first call and each further call of `de`
/// and `ser`), its child's size, and its native build's cost over its portable one. `ser_first`
/// of 0 means it cannot serialise (like jiter).
pub struct CostModel {
    pub id: &'static str,
    style: Style,
    init: f64,
    de_first: f64,
    de_per_op: f64,
    ser_first: f64,
    ser_per_op: f64,
    child_kib: u64,
    /// The library's phases of a `native` child over a `portable` one's (the planted variant
    /// ratio).
    pub native: f64,
}

const fn model(
    id: &'static str,
    style: Style,
    init: f64,
    (de_first, de_per_op): (f64, f64),
    (ser_first, ser_per_op): (f64, f64),
    child_kib: u64,
) -> CostModel {
    CostModel {
        id,
        style,
        init,
        de_first,
        de_per_op,
        ser_first,
        ser_per_op,
        child_kib,
        native: 1.0,
    }
}

/// `m` with a native build `native` times its portable one.
const fn native(m: CostModel, native: f64) -> CostModel {
    CostModel { native, ..m }
}

/// The synthetic run's codecs: made-up cost models named after thaw's codecs so a synthetic
/// report reads like a real one. They are test data, not the registry.
const MODELS: &[CostModel] = &[
    model(
        "noop",
        Style::Baseline,
        0.0,
        (300.0, 60.0),
        (300.0, 60.0),
        400,
    ),
    model(
        "serde_json",
        Style::Typed,
        30.0,
        (26_000.0, 4_000.0),
        (12_000.0, 1_500.0),
        560,
    ),
    model(
        "serde_json-value",
        Style::Dom,
        30.0,
        (31_000.0, 6_000.0),
        (15_000.0, 2_500.0),
        600,
    ),
    native(
        model(
            "simd-json",
            Style::Typed,
            2_000.0,
            (44_000.0, 2_500.0),
            (14_000.0, 1_800.0),
            900,
        ),
        0.48,
    ),
    native(
        model(
            "simd-json-value",
            Style::Dom,
            2_000.0,
            (50_000.0, 3_200.0),
            (16_000.0, 2_200.0),
            950,
        ),
        0.44,
    ),
    native(
        model(
            "sonic-rs",
            Style::Typed,
            40.0,
            (62_000.0, 2_000.0),
            (18_000.0, 1_200.0),
            1_100,
        ),
        0.69,
    ),
    native(
        model(
            "sonic-rs-value",
            Style::Dom,
            40.0,
            (66_000.0, 2_600.0),
            (20_000.0, 1_600.0),
            1_150,
        ),
        0.49,
    ),
    model(
        "miniserde",
        Style::Typed,
        20.0,
        (21_000.0, 7_000.0),
        (10_000.0, 3_000.0),
        480,
    ),
    model(
        "nanoserde",
        Style::Typed,
        20.0,
        (18_000.0, 5_000.0),
        (9_000.0, 2_500.0),
        470,
    ),
    model(
        "jiter",
        Style::Dom,
        20.0,
        (23_000.0, 3_000.0),
        (0.0, 0.0),
        700,
    ),
];

impl CostModel {
    fn can_ser(&self) -> bool {
        self.ser_first > 0.0
    }

    /// (first call, each further call) of `op`.
    fn costs(&self, op: Op) -> (f64, f64) {
        match op {
            Op::De => (self.de_first, self.de_per_op),
            Op::Ser => (self.ser_first, self.ser_per_op),
        }
    }
}

pub const FIXTURE: &str = "users-2kb";
pub const BATCHES: [u32; 3] = [1, 10, 100];
/// The variant of a run of one variant.
pub const VARIANT: Variant = Variant::Portable;
/// The codec the synthetic run's ratios are taken against.
pub const REFERENCE: &str = "serde_json";
/// The noise of the library's phases (init, first_op, remaining_ops), which share one factor per
/// sample: lognormal with this σ…
pub const LIBRARY_SIGMA: f64 = 0.08;
/// …and, in this share of samples, a right tail: a further factor exp(σ·|z|), σ =
/// [`TAIL_SIGMA`], as a busy moment of the machine gives.
pub const TAIL_SHARE: f64 = 0.06;
pub const TAIL_SIGMA: f64 = 0.4;

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
    /// With a precision: the most blocks ([`MAX_BLOCKS`] when `None`).
    pub max_blocks: Option<u32>,
    /// The build variants, each a cell of its own in every block, in the manifest's order
    /// (empty: [`VARIANT`] alone).
    pub variants: Vec<Variant>,
}

impl SynthOptions {
    /// The variants of the run, in order.
    pub fn variants(&self) -> Vec<Variant> {
        if self.variants.is_empty() {
            vec![VARIANT]
        } else {
            self.variants.clone()
        }
    }
}

/// The planted truth of a cell's init_plus_ops, ns: init, the first call and batch − 1 further
/// calls (each 2% dearer than a warm one) of the cost model, `scale`d, times the model's native
/// factor for a native build. `None` for a codec the synthetic run does not have, or a `ser` it
/// cannot do. The ratio of two cells' truths is the ratio their within-block pairs estimate.
pub fn truth(codec: &str, op: Op, batch: u32, variant: Variant, scale: f64) -> Option<f64> {
    let m = MODELS.iter().find(|m| m.id == codec)?;
    if op == Op::Ser && !m.can_ser() {
        return None;
    }
    let (first, per) = m.costs(op);
    let build = if variant == Variant::Native {
        m.native
    } else {
        1.0
    };
    Some((m.init + first + f64::from(batch - 1) * per * 1.02) * scale * build)
}

/// The cost models of the synthetic run, in its codec order.
pub fn models() -> &'static [CostModel] {
    MODELS
}

/// Instructions a counted synthetic run plants per ns of its cost model's truth.
pub const INSTRUCTIONS_PER_NS: f64 = 4.0;

/// The counts a counted synthetic run plants in every ok sample of a cell: the library's phases
/// from the cost model's truth (init, the first call, batch − 1 further calls; `scale` applied
/// as `--scale` does, and a native build's factor), times [`INSTRUCTIONS_PER_NS`], rounded; the
/// process's other phases and the allocations from simple rules. `None` for a codec the
/// synthetic run does not have, or a `ser` it cannot do.
pub fn planted(codec: &str, op: Op, batch: u32, scale: f64) -> Option<Counts> {
    let m = MODELS.iter().find(|m| m.id == codec)?;
    if op == Op::Ser && !m.can_ser() {
        return None;
    }
    let (first, per) = m.costs(op);
    let instr = |ns: f64| (ns * scale * INSTRUCTIONS_PER_NS).round() as u64;
    let further = u64::from(batch.saturating_sub(1));
    // a block per 500 ns of first call, of 75 bytes; simd-json-like inits allocate 4 blocks
    let first_blocks = (first / 500.0).round() as u64;
    let per_blocks = (per / 500.0).round() as u64;
    let init_blocks = if m.init >= 1_000.0 { 4 } else { 0 };
    Some(Counts::of(&[
        (Count::InstrToMain, 250_000 + m.child_kib * 20),
        (
            Count::InstrFixture,
            if op == Op::De { 7_400 } else { 35_000 },
        ),
        (Count::InstrInit, instr(m.init)),
        (Count::InstrFirstOp, instr(first)),
        (Count::InstrRemainingOps, further * instr(per)),
        (Count::InstrCheck, if op == Op::De { 8_704 } else { 7_076 }),
        (Count::InstrExit, 26_000 + m.child_kib * 2),
        (Count::AllocInitBlocks, init_blocks),
        (Count::AllocInitBytes, init_blocks * 95),
        (Count::AllocFirstOpBlocks, first_blocks),
        (Count::AllocFirstOpBytes, first_blocks * 75),
        (Count::AllocRemainingOpsBlocks, further * per_blocks),
        (Count::AllocRemainingOpsBytes, further * per_blocks * 75),
    ]))
}

/// `row` with `counts` in its count columns.
fn with_counts(mut row: SampleRow, counts: &Counts) -> SampleRow {
    row.instr_to_main = counts.get(Count::InstrToMain);
    row.instr_fixture = counts.get(Count::InstrFixture);
    row.instr_init = counts.get(Count::InstrInit);
    row.instr_first_op = counts.get(Count::InstrFirstOp);
    row.instr_remaining_ops = counts.get(Count::InstrRemainingOps);
    row.instr_check = counts.get(Count::InstrCheck);
    row.instr_exit = counts.get(Count::InstrExit);
    row.alloc_init_blocks = counts.get(Count::AllocInitBlocks);
    row.alloc_init_bytes = counts.get(Count::AllocInitBytes);
    row.alloc_first_op_blocks = counts.get(Count::AllocFirstOpBlocks);
    row.alloc_first_op_bytes = counts.get(Count::AllocFirstOpBytes);
    row.alloc_remaining_ops_blocks = counts.get(Count::AllocRemainingOpsBlocks);
    row.alloc_remaining_ops_bytes = counts.get(Count::AllocRemainingOpsBytes);
    row
}

pub struct SynthRun {
    pub manifest: Manifest,
    pub plan: Vec<PlanRow>,
    pub samples: Vec<SampleRow>,
    pub warm: Vec<WarmEstimate>,
    pub alloc: Vec<AllocRow>,
    pub conformance: Vec<ConformanceRow>,
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A cell of the synthetic run: a cost model, an op, a batch, a variant.
struct SynthCell {
    model: usize,
    op: Op,
    batch: u32,
    variant: Variant,
}

fn cells(variants: &[Variant]) -> Vec<SynthCell> {
    let mut out = Vec::new();
    for &variant in variants {
        for (m, model) in MODELS.iter().enumerate() {
            for op in [Op::De, Op::Ser] {
                if op == Op::Ser && !model.can_ser() {
                    continue;
                }
                for batch in BATCHES {
                    out.push(SynthCell {
                        model: m,
                        op,
                        batch,
                        variant,
                    });
                }
            }
        }
    }
    out
}

/// The samples of a run as they are drawn, block by block.
struct Sampler<'a> {
    opts: &'a SynthOptions,
    rng: ChaCha8Rng,
    cells: Vec<SynthCell>,
    order: Vec<usize>,
    plan: Vec<PlanRow>,
    samples: Vec<SampleRow>,
    /// The wall time of every sample so far, s: the synthetic run's sampling time.
    wall_secs: f64,
}

impl Sampler<'_> {
    /// Every cell once, in a seeded shuffle, with a drift the block shares.
    fn block(&mut self, block: u32) {
        let opts = self.opts;
        let rng = &mut self.rng;
        self.order.shuffle(rng);
        let drift = (0.04 * normal(rng)).exp();
        for &ci in &self.order {
            let c = &self.cells[ci];
            let m = &MODELS[c.model];
            let (first, per) = m.costs(c.op);
            let kib = m.child_kib;
            let k = scale(opts, m.id)
                * if c.variant == Variant::Native {
                    m.native
                } else {
                    1.0
                };
            let (init, first, per) = (m.init * k, first * k, per * k);
            let p = PlanRow {
                plan_index: self.plan.len() as u64,
                block,
                codec: m.id.to_string(),
                op: c.op,
                batch: c.batch,
                fixture: FIXTURE.to_string(),
                variant: c.variant,
            };
            let mut noisy =
                |x: f64, sigma: f64| (x * drift * (sigma * normal(rng)).exp()).round() as u64;
            let spawn = noisy(550_000.0 + kib as f64 * 40.0, 0.06);
            let fixture = noisy(if c.op == Op::De { 18_000.0 } else { 9_000.0 }, 0.1);
            let check = noisy(400.0, 0.1);
            let exit = noisy(90_000.0, 0.08);
            // the library's phases share one factor, drawn alike for every cell
            let mut f = drift * (LIBRARY_SIGMA * normal(rng)).exp();
            if rng.random::<f64>() < TAIL_SHARE {
                f *= (TAIL_SIGMA * normal(rng).abs()).exp();
            }
            let init_ns = (init * f).round() as u64;
            let first_ns = (first * f).round() as u64;
            let rem = (f64::from(c.batch - 1) * per * 1.02 * f).round() as u64;
            let ipo = init_ns + first_ns + rem;
            let wall = spawn + fixture + ipo + check + exit;
            let failed = rng.random::<f64>() < opts.fail_rate;
            let checksum = Some(format!(
                "{:016x}",
                c.model as u64 * 7919 + u64::from(c.batch)
            ));
            let row = if failed {
                SampleRow {
                    status: Status::Timeout,
                    error: Some("child did not finish within the timeout".into()),
                    ..SampleRow::planned(&p)
                }
            } else if opts.measure == Measure::Instructions {
                // no times, as the runner clears them; the checksum and exit code as a timed run
                let counts = planted(m.id, c.op, c.batch, k).unwrap_or_default();
                with_counts(
                    SampleRow {
                        exit_code: Some(0),
                        checksum,
                        ..SampleRow::planned(&p)
                    },
                    &counts,
                )
            } else {
                SampleRow {
                    status: Status::Ok,
                    spawn_to_main_ns: Some(spawn),
                    fixture_ns: Some(fixture),
                    init_ns: Some(init_ns),
                    first_op_ns: Some(first_ns),
                    remaining_ops_ns: Some(rem),
                    check_ns: Some(check),
                    exit_ns: Some(exit),
                    init_plus_ops_ns: Some(ipo),
                    wall_ns: Some(wall),
                    user_us: Some(wall * 6 / 10_000),
                    sys_us: Some(wall * 3 / 10_000),
                    maxrss_kib: Some(1_800 + kib + u64::from(c.batch) * 2),
                    minflt: Some(120 + kib / 8),
                    majflt: Some(0),
                    inblock: Some(0),
                    nvcsw: Some(1),
                    nivcsw: Some(rng.random_range(0..3)),
                    exit_code: Some(0),
                    signal: None,
                    checksum,
                    error: None,
                    ..SampleRow::planned(&p)
                }
            };
            self.wall_secs += wall as f64 / 1e9;
            self.plan.push(p);
            self.samples.push(row);
        }
    }
}

/// Sample `sampler` as `cold run --precision target` would: [`MIN_BLOCKS`] blocks (fewer when
/// `max_blocks` is fewer), then [`CHECK_EVERY`] more at a time while the rule asks for more.
/// Returns the rule with why it stopped and its widest interval at the last check.
fn sample_to_precision(sampler: &mut Sampler, target: f64, max_blocks: u32) -> Stopping {
    let floors: Vec<&str> = MODELS
        .iter()
        .filter(|m| m.style == Style::Baseline)
        .map(|m| m.id)
        .collect();
    let mut rule = Stopping {
        precision: target,
        level: LEVEL,
        reference: Some(REFERENCE.to_string()),
        min_blocks: MIN_BLOCKS.min(max_blocks),
        check_every: CHECK_EVERY,
        max_blocks,
        max_time_secs: None,
        sampling_secs: 0.0,
        stopped_on: None,
        widest: None,
    };
    let mut taken = 0;
    let mut more = rule.min_blocks;
    loop {
        for _ in 0..more {
            sampler.block(taken);
            taken += 1;
        }
        rule.sampling_secs = sampler.wall_secs;
        let now = standing(
            &reaches(&sampler.samples, rule.reference.as_deref(), &floors),
            target,
        );
        rule.widest = now.widest.map(|w| (w.label, w.half_width));
        match next(&rule, taken, now.met) {
            Next::Stop(reason) => {
                rule.stopped_on = Some(reason);
                return rule;
            }
            Next::More(k) => more = k,
        }
    }
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
    let (plan, samples) = (sampler.plan, sampler.samples);
    let blocks = plan.len() / n_cells;

    let mut warm = Vec::new();
    let mut alloc = Vec::new();
    let mut conformance = Vec::new();
    for m in MODELS {
        let id = m.id;
        let k = scale(&opts, id);
        for (op, per) in [(Op::De, m.de_per_op * k), (Op::Ser, m.ser_per_op * k)] {
            if per == 0.0 {
                continue;
            }
            for &variant in &variants {
                let per = if variant == Variant::Native {
                    per * m.native
                } else {
                    per
                };
                warm.push(WarmEstimate {
                    fixture: FIXTURE.into(),
                    op,
                    codec: id.into(),
                    variant: Some(variant),
                    median_ns: per,
                    lo_ns: per * 0.99,
                    hi_ns: per * 1.01,
                    criterion_samples: Some(crate::inputs::criterion::FULL_SAMPLES),
                });
            }
            alloc.push(AllocRow {
                fixture: FIXTURE.into(),
                op,
                codec: id.into(),
                variant: None,
                allocs_per_op: if m.style == Style::Baseline {
                    0.0
                } else {
                    (per / 40.0).round()
                },
                bytes_per_op: if m.style == Style::Baseline {
                    0.0
                } else {
                    (per * 1.5).round()
                },
                peak_live_bytes: if m.style == Style::Baseline {
                    0.0
                } else {
                    (per * 2.0).round()
                },
            });
        }
        if m.style == Style::Baseline {
            continue;
        }
        for (file, expected) in [
            ("y_ok.json", Expected::Accept),
            ("n_trailing_comma.json", Expected::Reject),
            ("i_big_number.json", Expected::Either),
        ] {
            let lax = file.starts_with('n') && id.starts_with("nanoserde");
            let outcome = if expected != Expected::Reject || lax {
                Outcome::Accepted
            } else {
                Outcome::Rejected
            };
            conformance.push(ConformanceRow {
                codec: id.into(),
                file: file.into(),
                expected,
                outcome,
                correct: !lax,
                detail: lax.then(|| "accepted a trailing comma".to_string()),
            });
        }
    }

    let mut command_line: Vec<String> = vec!["analysis".into(), "synth".into()];
    match (opts.precision, stopping.as_ref()) {
        (Some(p), Some(rule)) => command_line.extend([
            "--precision".into(),
            p.to_string(),
            "--max-samples".into(),
            rule.max_blocks.to_string(),
        ]),
        _ => command_line.extend(["--samples".into(), opts.samples.to_string()]),
    }
    command_line.extend([
        "--seed".into(),
        opts.seed.to_string(),
        "--measure".into(),
        opts.measure.to_string(),
    ]);
    if variants.len() > 1 {
        command_line.extend([
            "--variants".into(),
            variants
                .iter()
                .map(|v| v.name())
                .collect::<Vec<_>>()
                .join(","),
        ]);
    }
    let children_dir = |v: Variant| format!("synthetic/{v}");
    let manifest = Manifest {
        synthetic: true,
        thaw_version: env!("CARGO_PKG_VERSION").to_string(),
        commit: Some("synthetic".into()),
        command_line,
        measure: Some(opts.measure),
        counting: (opts.measure == Measure::Instructions).then(|| Counting {
            valgrind: "synthetic".into(),
            tool: "callgrind".into(),
            options: Vec::new(),
            alloc_library: "synthetic".into(),
            alloc_library_sha256: "0".repeat(64),
        }),
        seed: Some(opts.seed),
        samples_per_cell: Some(blocks as u32),
        ops: vec![Op::Ser, Op::De],
        batches: BATCHES.to_vec(),
        cells: Some(n_cells),
        samples_planned: Some(plan.len()),
        variant: Some(variants[0]),
        children_dir: Some(children_dir(variants[0])),
        variants: if variants.len() > 1 {
            variants
                .iter()
                .map(|&variant| VariantEntry {
                    variant,
                    children_dir: children_dir(variant),
                })
                .collect()
        } else {
            Vec::new()
        },
        stopping,
        rustc: Some("synthetic".into()),
        codecs: MODELS
            .iter()
            .map(|m| CodecEntry {
                id: m.id.into(),
                library: m.id.trim_end_matches("-value").into(),
                version: "0.0.0-synthetic".into(),
                style: Some(m.style),
                output: None,
                child: None,
                child_bytes: None,
                child_sha256: None,
                runtime: None,
                runtime_version: None,
            })
            .collect(),
        children: variants
            .iter()
            .flat_map(|&variant| {
                MODELS.iter().flat_map(move |m| {
                    [Op::De, Op::Ser]
                        .into_iter()
                        .filter(|&op| op == Op::De || m.can_ser())
                        .map(move |op| child(m, op, variant))
                })
            })
            .collect(),
        fixtures: vec![FixtureEntry {
            name: FIXTURE.into(),
            bytes: 2048,
            sha256: "0".repeat(64),
            file: None,
        }],
        cpu_model: Some("synthetic CPU".into()),
        cores: Some(2),
        kernel: Some("synthetic".into()),
        pinning: Some("none".into()),
        cold_cache: false,
        finished: true,
        started_utc: "1970-01-01T00:00:00Z".into(),
        verification: MODELS
            .iter()
            .flat_map(|m| {
                [Op::De, Op::Ser].map(|op| {
                    let unsupported = op == Op::Ser && !m.can_ser();
                    CheckEntry {
                        variant: None,
                        codec: m.id.into(),
                        fixture: FIXTURE.into(),
                        op,
                        status: if unsupported { "unsupported" } else { "pass" }.into(),
                        detail: if unsupported { "no serializer" } else { "" }.into(),
                    }
                })
            })
            .collect(),
        ..Manifest::default()
    };
    SynthRun {
        manifest,
        plan,
        samples,
        warm,
        alloc,
        conformance,
    }
}

/// The synthetic child of `m`'s `op` in `variant`: its size the model's, a native build 8 KiB
/// larger (so the two read apart).
fn child(m: &CostModel, op: Op, variant: Variant) -> ChildEntry {
    let target = if m.style == Style::Baseline {
        "any"
    } else if m.style == Style::Dom {
        "dom"
    } else {
        "users"
    };
    let extra = if variant == Variant::Native { 8 } else { 0 };
    ChildEntry {
        codec: m.id.into(),
        op,
        fixture: FIXTURE.into(),
        binary: format!("child-{}-{op}-{target}", m.id),
        path: format!("synthetic/{variant}/child-{}-{op}-{target}", m.id),
        bytes: (m.child_kib + extra) * 1024,
        sha256: "0".repeat(64),
        variant: Some(variant),
        learned: None,
    }
}

fn scale(opts: &SynthOptions, codec: &str) -> f64 {
    opts.scale
        .iter()
        .filter(|(c, _)| c == codec)
        .map(|(_, k)| k)
        .product()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape() {
        let s = synth(SynthOptions {
            samples: 100,
            seed: 1,
            ..Default::default()
        });
        let n_cells = cells(&[VARIANT]).len();
        assert_eq!(n_cells, 57);
        assert_eq!(s.samples.len(), 2 * n_cells);
        assert_eq!(s.plan.len(), s.samples.len());
        assert!(s.samples.iter().all(|r| r.is_ok()));
        let r = &s.samples[0];
        assert_eq!(
            r.init_plus_ops_ns,
            Some(r.init_ns.unwrap() + r.first_op_ns.unwrap() + r.remaining_ops_ns.unwrap())
        );
        assert!(s.samples.iter().all(|r| r.instr_first_op.is_none()));
        // the manifest lists a child per codec × op, its size in bytes
        assert_eq!(s.manifest.children.len(), 19);
        assert_eq!(s.manifest.stopping, None);
        assert!(s.manifest.variants.is_empty());
    }

    #[test]
    fn the_truth_is_the_cost_model_worked_by_hand() {
        // serde_json de ×10: 30 ns init, 26,000 ns first call, 9 × 4,000 × 1.02 further
        assert_eq!(
            truth("serde_json", Op::De, 10, Variant::Portable, 1.0),
            Some(30.0 + 26_000.0 + 9.0 * 4_000.0 * 1.02)
        );
        // simd-json native: 0.48 × its portable truth; scaled 2× on top
        let portable = 2_000.0 + 44_000.0;
        assert_eq!(
            truth("simd-json", Op::De, 1, Variant::Native, 2.0),
            Some(portable * 2.0 * 0.48)
        );
        assert_eq!(truth("jiter", Op::Ser, 1, Variant::Portable, 1.0), None);
        assert_eq!(truth("nothing", Op::De, 1, Variant::Portable, 1.0), None);
    }

    #[test]
    fn the_library_phases_are_the_truth_times_one_noise_factor() {
        // Every ok sample's init, first_op and remaining_ops are its truth's phases times one
        // shared factor (rounded): so init_plus_ops / truth is that factor, and the phases
        // keep the model's proportions.
        let s = synth(SynthOptions {
            samples: 57 * 4,
            seed: 9,
            ..SynthOptions::default()
        });
        for r in &s.samples {
            let t = truth(&r.codec, r.op, r.batch, r.variant, 1.0).unwrap();
            let f = r.init_plus_ops_ns.unwrap() as f64 / t;
            assert!((0.5..6.0).contains(&f), "{f}");
            let (first, _) = MODELS.iter().find(|m| m.id == r.codec).unwrap().costs(r.op);
            let expect = (first * f).round();
            assert!(
                (r.first_op_ns.unwrap() as f64 - expect).abs() <= 1.0 + expect * 1e-9,
                "{r:?}"
            );
        }
    }

    #[test]
    fn two_variants_are_cells_of_their_own_in_every_block() {
        let s = synth(SynthOptions {
            samples: 114 * 3,
            seed: 2,
            variants: vec![Variant::Portable, Variant::Native],
            ..SynthOptions::default()
        });
        assert_eq!(s.plan.len(), 114 * 3);
        for block in 0..3 {
            let native = s
                .plan
                .iter()
                .filter(|p| p.block == block && p.variant == Variant::Native)
                .count();
            assert_eq!(native, 57);
        }
        let names: Vec<Variant> = s.manifest.variants.iter().map(|v| v.variant).collect();
        assert_eq!(names, [Variant::Portable, Variant::Native]);
        assert_eq!(s.manifest.variant, Some(Variant::Portable));
        assert_eq!(s.manifest.children.len(), 38);
        let size = |v: Variant| {
            s.manifest
                .children
                .iter()
                .find(|c| c.codec == "simd-json" && c.variant == Some(v))
                .unwrap()
                .bytes
        };
        assert_eq!(size(Variant::Native) - size(Variant::Portable), 8 * 1024);
        assert!(s
            .manifest
            .command_line
            .join(" ")
            .ends_with("--variants portable,native"));
    }

    #[test]
    fn a_counted_run_plants_its_counts_in_every_ok_sample_and_no_time() {
        let s = synth(SynthOptions {
            samples: 57 * 3,
            seed: 1,
            fail_rate: 0.05,
            scale: vec![("simd-json".into(), 1.5)],
            measure: Measure::Instructions,
            ..SynthOptions::default()
        });
        assert_eq!(s.manifest.measure, Some(Measure::Instructions));
        assert!(s.manifest.counting.is_some());
        assert!(s.samples.iter().any(|r| !r.is_ok()));
        for r in &s.samples {
            assert_eq!(
                (r.init_plus_ops_ns, r.wall_ns, r.first_op_ns),
                (None, None, None)
            );
            if !r.is_ok() {
                assert_eq!(r.instr_first_op, None);
                continue;
            }
            let k = if r.codec == "simd-json" { 1.5 } else { 1.0 };
            let want = planted(&r.codec, r.op, r.batch, k).unwrap();
            assert_eq!(Counts::of_row_for_tests(r), want);
        }
        // the truth, worked by hand: simd-json de, 2,000 ns init and 44,000 ns first call at
        // 4 instructions per ns, scaled by 1.5; 2,500 ns per further call
        let simd = planted("simd-json", Op::De, 10, 1.5).unwrap();
        assert_eq!(simd.get(Count::InstrInit), Some(12_000));
        assert_eq!(simd.get(Count::InstrFirstOp), Some(264_000));
        assert_eq!(simd.get(Count::InstrRemainingOps), Some(9 * 15_000));
        assert_eq!(simd.get(Count::AllocFirstOpBlocks), Some(88));
        assert_eq!(planted("jiter", Op::Ser, 1, 1.0), None);
        assert_eq!(planted("nothing", Op::De, 1, 1.0), None);
    }
}
