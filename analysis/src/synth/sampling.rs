//! Drawing the synthetic samples, block by block as `cold run` takes them: every cell once per
//! block in a seeded shuffle, a drift the block shares, lognormal noise with a right tail; and
//! sampling to a precision as `cold run --precision` does.

use super::models::{planted, MODELS};
use super::options::{scale, SynthOptions, BATCHES, FIXTURE, REFERENCE};
use crate::stats::precision::standing;
use rand::seq::SliceRandom;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use schema::phases::{Figure, Phase, Whole};
use schema::rows::{PlanRow, SampleRow};
use schema::run_folder::Stopping;
use schema::{Op, Status, Style, Variant};
use store::stopping::{next, reaches, Next, CHECK_EVERY, LEVEL, MIN_BLOCKS};

/// The noise of the library's phases (init, first_op, remaining_ops), which share one factor per
/// sample: lognormal with this σ…
pub(crate) const LIBRARY_SIGMA: f64 = 0.08;
/// …and, in this share of samples, a right tail: a further factor exp(σ·|z|), σ =
/// [`TAIL_SIGMA`], as a busy moment of the machine gives.
pub(crate) const TAIL_SHARE: f64 = 0.06;
pub(crate) const TAIL_SIGMA: f64 = 0.4;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A cell of the synthetic run: a cost model, an op, a batch, a variant.
pub(super) struct SynthCell {
    model: usize,
    op: Op,
    batch: u32,
    variant: Variant,
}

pub(super) fn cells(variants: &[Variant]) -> Vec<SynthCell> {
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
pub(super) struct Sampler<'a> {
    pub(super) opts: &'a SynthOptions,
    pub(super) rng: ChaCha8Rng,
    pub(super) cells: Vec<SynthCell>,
    pub(super) order: Vec<usize>,
    pub(super) plan: Vec<PlanRow>,
    pub(super) samples: Vec<SampleRow>,
    /// The wall time of every sample so far, s: the synthetic run's sampling time.
    pub(super) wall_secs: f64,
}

impl Sampler<'_> {
    /// Every cell once, in a seeded shuffle, with a drift the block shares.
    pub(super) fn block(&mut self, block: u32) {
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
                * if c.variant == Variant::NATIVE {
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
            let f = library_factor(rng, drift);
            let init_ns = (init * f).round() as u64;
            let first_ns = (first * f).round() as u64;
            let rem = (f64::from(c.batch - 1) * per * 1.02 * f).round() as u64;
            let ipo = init_ns + first_ns + rem;
            let wall = spawn + fixture + ipo + check + exit;
            let failed = rng.random::<f64>() < opts.fail_rate;
            let mut row = SampleRow::planned(&p);
            if failed {
                row.status = Status::Timeout;
                row.set_error("child did not finish within the timeout");
            } else {
                row.exit_code = Some(0);
                row.checksum = Some(format!(
                    "{:016x}",
                    c.model as u64 * 7919 + u64::from(c.batch)
                ));
                match opts.measure.quantity() {
                    // no times, as the runner clears them
                    q if q != schema::phases::Quantity::Ns => {
                        row.figures = planted(m.id, c.op, c.batch, k).unwrap_or_default();
                    }
                    _ => {
                        // model: a Rust child has none to load (0 at this precision)
                        let phases = [spawn, 0, fixture, init_ns, first_ns, rem, check, exit];
                        let nivcsw = rng.random_range(0..3);
                        set_times(&mut row, phases, (ipo, wall), kib, c.batch, nivcsw);
                    }
                }
            }
            self.wall_secs += wall as f64 / 1e9;
            self.plan.push(p);
            self.samples.push(row);
        }
    }
}

/// The factor the library's phases of one sample share, drawn alike for every cell: the block's
/// `drift`, the library's noise and, now and then, a tail.
fn library_factor(rng: &mut ChaCha8Rng, drift: f64) -> f64 {
    let mut f = drift * (LIBRARY_SIGMA * normal(rng)).exp();
    if rng.random::<f64>() < TAIL_SHARE {
        f *= (TAIL_SIGMA * normal(rng).abs()).exp();
    }
    f
}

/// A timed sample's figures: each phase's time, init_plus_ops and wall (`ipo`, `wall`), and the
/// whole process's (its resources made up from the wall time, the child's size `kib` in KiB and
/// the batch).
fn set_times(
    row: &mut SampleRow,
    phases: [u64; 8],
    (ipo, wall): (u64, u64),
    kib: u64,
    batch: u32,
    nivcsw: u64,
) {
    for (ph, v) in Phase::ALL.into_iter().zip(phases) {
        row.set(Figure::time(ph), Some(v));
    }
    for (w, v) in [
        (Whole::InitPlusOps, ipo),
        (Whole::Wall, wall),
        (Whole::UserUs, wall * 6 / 10_000),
        (Whole::SysUs, wall * 3 / 10_000),
        (Whole::MaxrssKib, 1_800 + kib + u64::from(batch) * 2),
        (Whole::Minflt, 120 + kib / 8),
        (Whole::Majflt, 0),
        (Whole::Inblock, 0),
        (Whole::Nvcsw, 1),
        (Whole::Nivcsw, nivcsw),
    ] {
        row.set(Figure::Whole(w), Some(v));
    }
}

/// Sample `sampler` as `cold run --precision target` would: [`MIN_BLOCKS`] blocks (fewer when
/// `max_blocks` is fewer), then [`CHECK_EVERY`] more at a time while the rule asks for more.
/// Returns the rule with why it stopped and its widest interval at the last check.
pub(super) fn sample_to_precision(sampler: &mut Sampler, target: f64, max_blocks: u32) -> Stopping {
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
            &reaches(
                &store::cell::Samples::from_rows(&sampler.samples),
                rule.reference.as_deref(),
                &floors,
            ),
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
