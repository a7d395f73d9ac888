//! Synthetic runs with a known truth, for tests, demos and the report's scaling check:
//! a cold run folder (manifest, plan, samples), and the warm side (criterion estimates, an
//! allocation table, a conformance table) consistent with it.
//!
//! Each codec has a made-up cost model (start-up, init, first operation, time per further
//! operation); samples get a drift shared by the block and lognormal noise per phase. The
//! numbers are plausible, not measured: never publish them.
//!
//! With [`Measure::Instructions`] the run is a counted one, as `cold run --measure
//! instructions` writes it: no times, and in every ok sample the counts [`planted`] derives from
//! the same cost model ([`INSTRUCTIONS_PER_NS`] instructions per ns of truth, no noise), the same
//! in every sample of a cell, as real counts are.

use crate::inputs::alloc::AllocRow;
use crate::inputs::conformance::ConformanceRow;
use crate::inputs::criterion::WarmEstimate;
use crate::inputs::samples::{Count, Counts};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schema::conformance_file::{Expected, Outcome};
use schema::run_folder::{
    CheckEntry, CodecEntry, Counting, FixtureEntry, Manifest, PlanRow, SampleRow,
};
use schema::{Measure, Op, Status, Style, Variant};

/// A made-up codec: its style and costs in ns (init; first call and each further call of `de`
/// and `ser`) and its child's size. `ser_first` of 0 means it cannot serialise (like jiter).
struct CostModel {
    id: &'static str,
    style: Style,
    init: f64,
    de_first: f64,
    de_per_op: f64,
    ser_first: f64,
    ser_per_op: f64,
    child_kib: u64,
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
    }
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
    model(
        "simd-json",
        Style::Typed,
        2_000.0,
        (44_000.0, 2_500.0),
        (14_000.0, 1_800.0),
        900,
    ),
    model(
        "simd-json-value",
        Style::Dom,
        2_000.0,
        (50_000.0, 3_200.0),
        (16_000.0, 2_200.0),
        950,
    ),
    model(
        "sonic-rs",
        Style::Typed,
        40.0,
        (62_000.0, 2_000.0),
        (18_000.0, 1_200.0),
        1_100,
    ),
    model(
        "sonic-rs-value",
        Style::Dom,
        40.0,
        (66_000.0, 2_600.0),
        (20_000.0, 1_600.0),
        1_150,
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
pub const VARIANT: Variant = Variant::Portable;

#[derive(Debug, Clone, Default)]
pub struct SynthOptions {
    /// At least this many samples (rounded up to whole blocks).
    pub samples: usize,
    pub seed: u64,
    /// Share of samples that fail (status `timeout`).
    pub fail_rate: f64,
    /// Codecs made slower (> 1) or faster (< 1) by a factor on init and every operation, for
    /// comparing two synthetic runs.
    pub scale: Vec<(String, f64)>,
    /// Time (the default), or instruction counts as a counted run records them.
    pub measure: Measure,
}

/// Instructions a counted synthetic run plants per ns of its cost model's truth.
pub const INSTRUCTIONS_PER_NS: f64 = 4.0;

/// The counts a counted synthetic run plants in every ok sample of a cell: the library's phases
/// from the cost model's truth (init, the first call, batch − 1 further calls; `scale` applied
/// as `--scale` does), times [`INSTRUCTIONS_PER_NS`], rounded; the process's other phases and
/// the allocations from simple rules. `None` for a codec the synthetic run does not have, or
/// a `ser` it cannot do.
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

/// A cell of the synthetic run: a cost model, an op, a batch.
struct SynthCell {
    model: usize,
    op: Op,
    batch: u32,
}

fn cells() -> Vec<SynthCell> {
    let mut out = Vec::new();
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
                });
            }
        }
    }
    out
}

/// Build a synthetic run.
pub fn synth(opts: SynthOptions) -> SynthRun {
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let cells = cells();
    let blocks = opts.samples.div_ceil(cells.len()).max(1);
    let mut plan = Vec::with_capacity(blocks * cells.len());
    let mut samples = Vec::with_capacity(blocks * cells.len());
    let mut order: Vec<usize> = (0..cells.len()).collect();
    for block in 0..blocks as u32 {
        order.shuffle(&mut rng);
        let drift = (0.04 * normal(&mut rng)).exp();
        for &ci in &order {
            let c = &cells[ci];
            let m = &MODELS[c.model];
            let (first, per) = m.costs(c.op);
            let kib = m.child_kib;
            let k = scale(&opts, m.id);
            let (init, first, per) = (m.init * k, first * k, per * k);
            let p = PlanRow {
                plan_index: plan.len() as u64,
                block,
                codec: m.id.to_string(),
                op: c.op,
                batch: c.batch,
                fixture: FIXTURE.to_string(),
                variant: VARIANT,
            };
            let mut noisy =
                |x: f64, sigma: f64| (x * drift * (sigma * normal(&mut rng)).exp()).round() as u64;
            let spawn = noisy(550_000.0 + kib as f64 * 40.0, 0.06);
            let fixture = noisy(if c.op == Op::De { 18_000.0 } else { 9_000.0 }, 0.1);
            let init_ns = noisy(init, 0.1);
            let first_ns = noisy(first, 0.08);
            let rem = noisy(f64::from(c.batch - 1) * per * 1.02, 0.05);
            let check = noisy(400.0, 0.1);
            let exit = noisy(90_000.0, 0.08);
            let ipo = init_ns + first_ns + rem;
            let wall = spawn + fixture + ipo + check + exit;
            let failed = rng.random::<f64>() < opts.fail_rate;
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
                        checksum: Some(format!(
                            "{:016x}",
                            c.model as u64 * 7919 + u64::from(c.batch)
                        )),
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
                    checksum: Some(format!(
                        "{:016x}",
                        c.model as u64 * 7919 + u64::from(c.batch)
                    )),
                    error: None,
                    ..SampleRow::planned(&p)
                }
            };
            plan.push(p);
            samples.push(row);
        }
    }

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
            warm.push(WarmEstimate {
                fixture: FIXTURE.into(),
                op,
                codec: id.into(),
                variant: Some(VARIANT),
                median_ns: per,
                lo_ns: per * 0.99,
                hi_ns: per * 1.01,
                criterion_samples: Some(crate::inputs::criterion::FULL_SAMPLES),
            });
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

    let manifest = Manifest {
        synthetic: true,
        thaw_version: env!("CARGO_PKG_VERSION").to_string(),
        commit: Some("synthetic".into()),
        command_line: [
            "analysis".to_string(),
            "synth".into(),
            "--samples".into(),
            opts.samples.to_string(),
            "--seed".into(),
            opts.seed.to_string(),
            "--measure".into(),
            opts.measure.to_string(),
        ]
        .to_vec(),
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
        variant: Some(VARIANT),
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
                child_bytes: Some(m.child_kib * 1024),
                child_sha256: Some("0".repeat(64)),
                runtime: None,
                runtime_version: None,
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
        let n_cells = cells().len();
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
    }

    #[test]
    fn a_counted_run_plants_its_counts_in_every_ok_sample_and_no_time() {
        let s = synth(SynthOptions {
            samples: 57 * 3,
            seed: 1,
            fail_rate: 0.05,
            scale: vec![("simd-json".into(), 1.5)],
            measure: Measure::Instructions,
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
