//! Synthetic runs with a known truth, for tests, demos and the 100,000-sample timing check:
//! a cold run folder (manifest, plan, samples), and the warm side (criterion estimates, an
//! allocation table, a conformance table) consistent with it.
//!
//! Each codec has a made-up cost model (start-up, init, first operation, time per further
//! operation); samples get a drift shared by the block and lognormal noise per phase. The
//! numbers are plausible, not measured: never publish them.

use crate::inputs::alloc::AllocRow;
use crate::inputs::conformance::ConformanceRow;
use crate::inputs::criterion::WarmEstimate;
use crate::samples::{PlanRow, SampleRow};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// A codec's cost model, ns: (id, init, de first, de per op, ser first, ser per op, child KiB).
/// `ser` = 0 means the codec cannot serialise (jiter).
const MODELS: &[(&str, f64, f64, f64, f64, f64, u64)] = &[
    ("noop", 0.0, 300.0, 60.0, 300.0, 60.0, 400),
    (
        "serde_json",
        30.0,
        26_000.0,
        4_000.0,
        12_000.0,
        1_500.0,
        560,
    ),
    (
        "serde_json-value",
        30.0,
        31_000.0,
        6_000.0,
        15_000.0,
        2_500.0,
        600,
    ),
    (
        "simd-json",
        2_000.0,
        44_000.0,
        2_500.0,
        14_000.0,
        1_800.0,
        900,
    ),
    (
        "simd-json-value",
        2_000.0,
        50_000.0,
        3_200.0,
        16_000.0,
        2_200.0,
        950,
    ),
    (
        "sonic-rs", 40.0, 62_000.0, 2_000.0, 18_000.0, 1_200.0, 1_100,
    ),
    (
        "sonic-rs-value",
        40.0,
        66_000.0,
        2_600.0,
        20_000.0,
        1_600.0,
        1_150,
    ),
    ("miniserde", 20.0, 21_000.0, 7_000.0, 10_000.0, 3_000.0, 480),
    ("nanoserde", 20.0, 18_000.0, 5_000.0, 9_000.0, 2_500.0, 470),
    ("jiter", 20.0, 23_000.0, 3_000.0, 0.0, 0.0, 700),
];

pub const FIXTURE: &str = "users-2kb";
pub const BATCHES: [u32; 3] = [1, 10, 100];
pub const VARIANT: &str = "portable";

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
}

pub struct SynthRun {
    pub manifest: Value,
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

struct Cell {
    model: usize,
    op: &'static str,
    batch: u32,
}

fn cells() -> Vec<Cell> {
    let mut out = Vec::new();
    for (m, model) in MODELS.iter().enumerate() {
        for op in ["de", "ser"] {
            if op == "ser" && model.4 == 0.0 {
                continue;
            }
            for batch in BATCHES {
                out.push(Cell {
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
            let (id, init, de_first, de_per, ser_first, ser_per, kib) = MODELS[c.model];
            let (first, per) = if c.op == "de" {
                (de_first, de_per)
            } else {
                (ser_first, ser_per)
            };
            let k = scale(&opts, id);
            let (init, first, per) = (init * k, first * k, per * k);
            let p = PlanRow {
                plan_index: plan.len() as u64,
                block,
                codec: id.to_string(),
                op: c.op.to_string(),
                batch: c.batch,
                fixture: FIXTURE.to_string(),
                variant: VARIANT.to_string(),
            };
            let mut noisy =
                |x: f64, sigma: f64| (x * drift * (sigma * normal(&mut rng)).exp()).round() as u64;
            let spawn = noisy(550_000.0 + kib as f64 * 40.0, 0.06);
            let fixture = noisy(if c.op == "de" { 18_000.0 } else { 9_000.0 }, 0.1);
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
                    status: "timeout".into(),
                    error: Some("child did not finish within the timeout".into()),
                    ..sample_ids(&p)
                }
            } else {
                SampleRow {
                    status: "ok".into(),
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
                    ..sample_ids(&p)
                }
            };
            plan.push(p);
            samples.push(row);
        }
    }

    let mut warm = Vec::new();
    let mut alloc = Vec::new();
    let mut conformance = Vec::new();
    for &(id, _, _, de_per, _, ser_per, _) in MODELS {
        let k = scale(&opts, id);
        for (op, per) in [("de", de_per * k), ("ser", ser_per * k)] {
            if per == 0.0 {
                continue;
            }
            warm.push(WarmEstimate {
                fixture: FIXTURE.into(),
                op: op.into(),
                codec: id.into(),
                variant: VARIANT.into(),
                median_ns: per,
                lo_ns: per * 0.99,
                hi_ns: per * 1.01,
                criterion_samples: Some(crate::inputs::criterion::FULL_SAMPLES),
            });
            alloc.push(AllocRow {
                fixture: FIXTURE.into(),
                op: op.into(),
                codec: id.into(),
                variant: None,
                allocs_per_op: if id == "noop" {
                    0.0
                } else {
                    (per / 40.0).round()
                },
                bytes_per_op: if id == "noop" {
                    0.0
                } else {
                    (per * 1.5).round()
                },
                peak_live_bytes: if id == "noop" {
                    0.0
                } else {
                    (per * 2.0).round()
                },
            });
        }
        if id == "noop" {
            continue;
        }
        for (file, expected) in [
            ("y_ok.json", "y"),
            ("n_trailing_comma.json", "n"),
            ("i_big_number.json", "i"),
        ] {
            let lax = file.starts_with('n') && id.starts_with("nanoserde");
            let outcome = if expected == "y" || expected == "i" || lax {
                "accepted"
            } else {
                "rejected"
            };
            conformance.push(ConformanceRow {
                codec: id.into(),
                file: file.into(),
                expected: expected.into(),
                outcome: outcome.into(),
                correct: !lax,
                detail: lax.then(|| "accepted a trailing comma".to_string()),
            });
        }
    }

    let manifest = json!({
        "synthetic": true,
        "thaw_version": env!("CARGO_PKG_VERSION"),
        "commit": "synthetic",
        "command_line": ["analysis", "synth", "--samples", opts.samples.to_string(), "--seed", opts.seed.to_string()],
        "seed": opts.seed,
        "samples_per_cell": blocks,
        "variant": VARIANT,
        "rustc": "synthetic",
        "codecs": MODELS.iter().map(|m| json!({
            "id": m.0, "library": m.0.trim_end_matches("-value"), "version": "0.0.0-synthetic",
            "child_bytes": m.6 * 1024, "child_sha256": "0".repeat(64),
        })).collect::<Vec<_>>(),
        "fixtures": [{"name": FIXTURE, "bytes": 2048, "sha256": "0".repeat(64)}],
        "cpu_model": "synthetic CPU",
        "cores": 2,
        "kernel": "synthetic",
        "pinning": "none",
        "cold_cache": false,
        "finished": true,
        "started_utc": "1970-01-01T00:00:00Z",
        "verification": MODELS.iter().flat_map(|m| ["de", "ser"].map(|op| json!({
            "codec": m.0, "fixture": FIXTURE, "op": op,
            "status": if op == "ser" && m.4 == 0.0 { "unsupported" } else { "pass" },
            "detail": if op == "ser" && m.4 == 0.0 { "no serializer" } else { "" },
        }))).collect::<Vec<_>>(),
    });
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

fn sample_ids(p: &PlanRow) -> SampleRow {
    SampleRow {
        plan_index: p.plan_index,
        block: p.block,
        codec: p.codec.clone(),
        op: p.op.clone(),
        batch: p.batch,
        fixture: p.fixture.clone(),
        variant: p.variant.clone(),
        ..Default::default()
    }
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
    }
}
