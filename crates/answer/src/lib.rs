//! The answer a run gives first: for each fixture and op (and build), which codec is cheapest
//! from which number of operations, each switch with a bootstrap interval over blocks. From a
//! cold run's samples (init + operations, a fresh process per sample, at each batch) or a curve
//! run's curves (C(n) at each clock read of one process). The numbers are `stats::cheapest`'s,
//! the form and the words [`form`]'s; the runner's closing lines and every report call this one crate,
//! so they say the same.

use form::{Answer, Cheapest, Source, Stretch};
use schema::curve::CurveRow;
use schema::phases::{Figure, Whole};
use schema::rows::SampleRow;
use schema::{CellKey, Op, Variant};
use stats::cheapest::{cheapest, Bootstrap, Costs};
use stats::quantile::median_unsorted;
use std::collections::{BTreeMap, BTreeSet};
use store::cell::Samples;

pub mod form;

/// The intervals' level.
pub const LEVEL: f64 = 0.95;

/// The bootstrap resamples of a switch's interval (the report's default, `--resamples`).
pub const RESAMPLES: usize = 2000;

/// How the switches' intervals are drawn: `resamples` over blocks, from `seed` (a report's, so
/// the same run gives the same intervals in every output).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Draws {
    pub resamples: usize,
    pub seed: u64,
}

/// One cell's curve: each process's cost at each of `ops` (its block and its costs, in order).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub key: CellKey,
    pub ops: Vec<u64>,
    pub processes: Vec<(u32, Vec<f64>)>,
}

/// The curves of a curve run: each ok sample of `rows` joined by plan index with its row of
/// curves.csv (a curve without an ok sample, or an ok sample without a curve, is left out), one
/// [`Curve`] per cell, its processes in block order.
pub fn curves_of(rows: &[SampleRow], curves: &BTreeMap<u64, CurveRow>) -> Vec<Curve> {
    group(rows.iter().filter(|r| r.is_ok()).filter_map(|r| {
        let c = curves.get(&r.plan_index)?;
        Some((r.cell(), r.block, c.ops.as_slice(), c.cost_ns.as_slice()))
    }))
}

/// One [`Curve`] per cell of processes given as (cell, block, reads, cost at each read): a
/// process whose reads are not its cell's first is left out; processes in block order.
pub fn group<'a>(
    processes: impl Iterator<Item = (CellKey, u32, &'a [u64], &'a [u64])>,
) -> Vec<Curve> {
    let mut by: BTreeMap<CellKey, Curve> = BTreeMap::new();
    for (key, block, ops, costs) in processes {
        let curve = by.entry(key.clone()).or_insert_with(|| Curve {
            key,
            ops: ops.to_vec(),
            processes: Vec::new(),
        });
        if curve.ops == ops {
            curve
                .processes
                .push((block, costs.iter().map(|&v| v as f64).collect()));
        }
    }
    let mut out: Vec<Curve> = by.into_values().collect();
    for c in &mut out {
        c.processes.sort_by_key(|p| p.0);
    }
    out
}

/// A fixture × op × build: the codecs compared in one answer.
type Scenario = (String, Op, Variant);

fn scenario(k: &CellKey) -> Scenario {
    (k.fixture.clone(), k.op, k.variant)
}

/// The answers of a cold run's samples: per fixture × op × build, the codecs other than
/// `baselines` (the floors and probes, which are not libraries), their init + operations at each
/// batch. A counted run's samples hold no time, and give none.
pub fn from_batches(samples: &Samples, baselines: &BTreeSet<String>, draws: Draws) -> Vec<Answer> {
    let figure = Figure::Whole(Whole::InitPlusOps);
    // per scenario: the batches, and per codec per batch the (block, cost) of its ok samples
    type ByCodec = BTreeMap<String, BTreeMap<u64, Vec<(u32, f64)>>>;
    let mut by: BTreeMap<Scenario, ByCodec> = BTreeMap::new();
    for (key, cell) in &samples.cells {
        if baselines.contains(&key.codec) {
            continue;
        }
        let costs: Vec<(u32, f64)> = cell
            .by_block(figure)
            .into_iter()
            .map(|(b, v)| (b, v as f64))
            .collect();
        if costs.is_empty() {
            continue;
        }
        by.entry(scenario(key))
            .or_default()
            .entry(key.codec.clone())
            .or_default()
            .insert(u64::from(key.batch), costs);
    }
    let variants = variants(by.keys());
    by.into_iter()
        .filter_map(|(s, codecs)| {
            let ops: Vec<u64> = codecs
                .values()
                .flat_map(|b| b.keys().copied())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let named: Vec<(String, Costs)> = codecs
                .into_iter()
                .map(|(codec, batches)| {
                    let at = ops
                        .iter()
                        .map(|n| batches.get(n).cloned().unwrap_or_default())
                        .collect();
                    (codec, Costs { at })
                })
                .collect();
            answer(s, Source::Batches, &ops, named, variants > 1, draws)
        })
        .collect()
}

/// The answers of a curve run's curves: per fixture × op × build, the codecs other than
/// `baselines`, C(n) at every read they share.
pub fn from_curves(curves: &[Curve], baselines: &BTreeSet<String>, draws: Draws) -> Vec<Answer> {
    let mut by: BTreeMap<Scenario, Vec<&Curve>> = BTreeMap::new();
    for c in curves.iter().filter(|c| !baselines.contains(&c.key.codec)) {
        by.entry(scenario(&c.key)).or_default().push(c);
    }
    let variants = variants(by.keys());
    by.into_iter()
        .filter_map(|(s, cs)| {
            // the reads every codec's curve has (every process of a run reads on one schedule)
            let mut ops: Vec<u64> = cs.first()?.ops.clone();
            ops.retain(|n| cs.iter().all(|c| c.ops.binary_search(n).is_ok()));
            let named: Vec<(String, Costs)> = cs
                .iter()
                .map(|c| {
                    let at = ops
                        .iter()
                        .map(|n| {
                            let i = c.ops.binary_search(n).unwrap_or_default();
                            c.processes
                                .iter()
                                .filter_map(|(b, costs)| Some((*b, *costs.get(i)?)))
                                .collect()
                        })
                        .collect();
                    (c.key.codec.clone(), Costs { at })
                })
                .collect();
            answer(s, Source::Curve, &ops, named, variants > 1, draws)
        })
        .collect()
}

/// How many builds the scenarios span.
fn variants<'a>(scenarios: impl Iterator<Item = &'a Scenario>) -> usize {
    scenarios.map(|s| s.2).collect::<BTreeSet<_>>().len()
}

/// One scenario's answer; `None` without a codec to compare.
fn answer(
    (fixture, op, variant): Scenario,
    source: Source,
    ops: &[u64],
    named: Vec<(String, Costs)>,
    name_variant: bool,
    draws: Draws,
) -> Option<Answer> {
    let costs: Vec<Costs> = named.iter().map(|(_, c)| c.clone()).collect();
    let boot = Bootstrap {
        resamples: draws.resamples,
        level: LEVEL,
        seed: draws.seed ^ seed_of(&fixture, op, variant),
    };
    let stretches: Vec<Stretch> = cheapest(ops, &costs, boot)
        .into_iter()
        .map(|s| Stretch {
            codec: named[s.codec].0.clone(),
            from: s.from,
            interval: s.interval,
        })
        .collect();
    let last = *ops.last()?;
    let at = ops
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n == last || is_power_of_ten(n))
        .filter_map(|(i, &n)| cheapest_at(&named, i, n))
        .collect();
    (!stretches.is_empty()).then(|| Answer {
        fixture,
        op,
        variant: name_variant.then(|| variant.name().to_string()),
        source,
        last,
        level: LEVEL,
        stretches,
        at,
    })
}

fn is_power_of_ten(mut n: u64) -> bool {
    while n >= 10 && n.is_multiple_of(10) {
        n /= 10;
    }
    n == 1
}

/// The codec with the lowest median at read `i` (count `n`), the first of equals.
fn cheapest_at(named: &[(String, Costs)], i: usize, n: u64) -> Option<Cheapest> {
    named
        .iter()
        .filter_map(|(codec, c)| {
            let values = c.at.get(i)?.iter().map(|&(_, v)| v).collect();
            Some((codec, median_unsorted(values)?))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(codec, median_ns)| Cheapest {
            n,
            codec: codec.clone(),
            median_ns,
        })
}

/// A scenario's own stream of draws (FNV-1a of its names), so adding a fixture to a run moves no
/// other answer's interval.
fn seed_of(fixture: &str, op: Op, variant: Variant) -> u64 {
    let text = format!("{fixture}/{op}/{}", variant.name());
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::Status;

    const DRAWS: Draws = Draws {
        resamples: 400,
        seed: 20261130,
    };

    fn key(codec: &str, batch: u32) -> CellKey {
        CellKey {
            fixture: "users-2kb".into(),
            op: Op::De,
            variant: Variant::PORTABLE,
            batch,
            codec: codec.into(),
        }
    }

    /// 20 blocks of `codec` at each batch, costing `cost(batch)` with ±1% by block.
    fn rows(codec: &str, cost: impl Fn(f64) -> f64) -> Vec<SampleRow> {
        let mut out = Vec::new();
        for batch in [1u32, 10, 100] {
            for block in 0..20u32 {
                let plan = schema::rows::PlanRow {
                    plan_index: 0,
                    block,
                    codec: codec.into(),
                    op: Op::De,
                    batch,
                    fixture: "users-2kb".into(),
                    variant: Variant::PORTABLE,
                };
                let mut r = SampleRow::planned(&plan);
                r.status = Status::Ok;
                let noise = 1.0 + 0.001 * (f64::from(block) - 9.5);
                let v = (cost(f64::from(batch)) * noise).round() as u64;
                r.set(Figure::Whole(Whole::InitPlusOps), Some(v));
                out.push(r);
            }
        }
        out
    }

    #[test]
    fn a_cold_run_answers_which_codec_is_cheapest_where_and_leaves_out_the_floor() {
        // serde_json: a cheap first call, 7 µs a call after; simd-json: 50 µs first, 5 µs after
        let mut all = rows("serde_json", |n| 20_000.0 + 7_000.0 * (n - 1.0));
        all.extend(rows("simd-json", |n| 50_000.0 + 5_000.0 * (n - 1.0)));
        // the floor is cheapest everywhere and must not be the answer
        all.extend(rows("noop", |n| 100.0 * n));
        let samples = Samples::from_rows(&all);
        let baselines = BTreeSet::from(["noop".to_string()]);
        let answers = from_batches(&samples, &baselines, DRAWS);
        assert_eq!(answers.len(), 1);
        let a = &answers[0];
        assert_eq!(
            (a.source, a.last, a.variant.as_deref()),
            (Source::Batches, 100, None)
        );
        let names: Vec<&str> = a.stretches.iter().map(|s| s.codec.as_str()).collect();
        assert_eq!(names, ["serde_json", "simd-json"]);
        // 20,000 + 7,000 (n − 1) = 50,000 + 5,000 (n − 1) at n = 16, between the batches 10 and
        // 100 (read linearly between them: 83,000 and 713,000 against 95,000 and 545,000)
        let s = &a.stretches[1];
        let exact: f64 = 10.0 + 90.0 * 12_000.0 / (12_000.0 + 168_000.0);
        assert_eq!(s.from, exact.ceil() as u64, "{a:?}");
        let (lo, hi) = s.interval.unwrap();
        assert!(lo.unwrap() <= s.from && s.from <= hi.unwrap(), "{a:?}");
        let at: Vec<(u64, &str)> = a.at.iter().map(|c| (c.n, c.codec.as_str())).collect();
        assert_eq!(
            at,
            [(1, "serde_json"), (10, "serde_json"), (100, "simd-json")]
        );
        assert!((a.cheapest_at(100).unwrap().median_ns - 545_000.0).abs() < 1.0);
        assert!(
            a.line().starts_with(
                "de users-2kb: serde_json is cheapest from 1 to 15 operations; simd-json from 16 ["
            ),
            "{}",
            a.line()
        );
    }

    #[test]
    fn a_curve_run_answers_on_the_reads_every_codec_has() {
        let curve = |codec: &str, first: f64, per: f64| Curve {
            key: key(codec, 1000),
            ops: vec![1, 10, 100, 1000],
            processes: (0..10)
                .map(|b| {
                    let costs = [1.0, 10.0, 100.0, 1000.0]
                        .iter()
                        .map(|n| first + per * (n - 1.0) + f64::from(b))
                        .collect();
                    (b, costs)
                })
                .collect(),
        };
        let curves = [
            curve("kotlinx", 30e6, 2_000.0),
            curve("fory", 200e6, 1_000.0),
        ];
        let answers = from_curves(&curves, &BTreeSet::new(), DRAWS);
        assert_eq!(answers.len(), 1);
        let a = &answers[0];
        assert_eq!(a.source, Source::Curve);
        assert_eq!(
            a.stretches.len(),
            1,
            "kotlinx throughout up to 1,000: {a:?}"
        );
        assert_eq!(a.stretches[0].codec, "kotlinx");
    }

    #[test]
    fn curves_join_their_ok_samples_by_plan_index() {
        let mut rows = rows("serde_json", |n| n);
        rows.truncate(3);
        for (i, r) in rows.iter_mut().enumerate() {
            r.plan_index = i as u64;
            r.batch = 3;
        }
        rows[2].status = Status::Crash;
        let row = |i: u64, cost: Vec<u64>| CurveRow {
            plan_index: i,
            clock_1000_ns: 20,
            ops: vec![1, 2, 3],
            cost_ns: cost,
        };
        let curves = BTreeMap::from([
            (0, row(0, vec![10, 20, 30])),
            (1, row(1, vec![11, 21, 31])),
            (2, row(2, vec![12, 22, 32])),
            (9, row(9, vec![1, 2, 3])),
        ]);
        let got = curves_of(&rows, &curves);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].ops, [1, 2, 3]);
        // samples 0 and 1 (blocks 0 and 1); the crashed sample and the curve without a row out
        assert_eq!(
            got[0].processes,
            [(0, vec![10.0, 20.0, 30.0]), (1, vec![11.0, 21.0, 31.0])]
        );
    }

    #[test]
    fn the_same_run_gives_the_same_answer_and_another_build_is_named() {
        let mut all = rows("serde_json", |n| 20_000.0 + 7_000.0 * (n - 1.0));
        all.extend(rows("simd-json", |n| 50_000.0 + 5_000.0 * (n - 1.0)));
        let mut native = rows("serde_json", |n| 19_000.0 + 7_000.0 * (n - 1.0));
        for r in &mut native {
            r.variant = Variant::parse("native").unwrap();
        }
        all.extend(native);
        let samples = Samples::from_rows(&all);
        let one = from_batches(&samples, &BTreeSet::new(), DRAWS);
        assert_eq!(one, from_batches(&samples, &BTreeSet::new(), DRAWS));
        let named: Vec<Option<&str>> = one.iter().map(|a| a.variant.as_deref()).collect();
        assert_eq!(named, [Some("native"), Some("portable")]);
    }
}
