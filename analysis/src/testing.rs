//! Rows for the analysis's tests: a timed sample, a counted one, and the store and plan of a
//! list of rows.

use schema::phases::{Figure, Phase, Quantity};
use schema::rows::{PlanRow, SampleRow};
use schema::{Op, Status, Variant};
use store::cell::Samples;
use store::rows::PlanCount;

/// A timed row of `codec` at `batch` in `block` (users-2kb de portable): ok with first_op =
/// init_plus_ops = `ns` and a wall 0.5 ms longer, or a timeout without figures when `None`.
pub(crate) fn timed(block: u32, codec: &str, batch: u32, ns: Option<u64>) -> SampleRow {
    let mut r = SampleRow::planned(&PlanRow {
        plan_index: u64::from(block),
        block,
        codec: codec.into(),
        op: Op::De,
        batch,
        fixture: "users-2kb".into(),
        variant: Variant::PORTABLE,
    });
    match ns {
        Some(ns) => {
            set_times(&mut r, 0, ns, 0);
            r.set(Figure::WALL, Some(ns + 500_000));
        }
        None => r.status = Status::Timeout,
    }
    r
}

/// Sets a row's library phases to `init`, `first` and `remaining` ns, and init_plus_ops to
/// their sum.
pub(crate) fn set_times(r: &mut SampleRow, init: u64, first: u64, remaining: u64) {
    for (p, v) in Phase::LIBRARY.into_iter().zip([init, first, remaining]) {
        r.set(Figure::time(p), Some(v));
    }
    r.set(Figure::INIT_PLUS_OPS, Some(init + first + remaining));
}

/// An ok counted row of `codec` at `batch` (users-2kb de portable, block 0) with the library
/// phases given, the other phases' instructions and the first call's allocations fixed.
pub(crate) fn counted(codec: &str, batch: u32, init: u64, first: u64, remaining: u64) -> SampleRow {
    let mut r = timed(0, codec, batch, None);
    r.status = Status::Ok;
    let instr = |p| Figure::Of(Quantity::Instructions, p);
    for (p, v) in Phase::ALL
        .into_iter()
        .zip([267_000, 0, 7_000, init, first, remaining, 8_704, 26_000])
    {
        r.set(instr(p), Some(v));
    }
    for p in Phase::LIBRARY {
        let first_op = p == Phase::FirstOp;
        r.set(
            Figure::Of(Quantity::AllocBlocks, p),
            Some(if first_op { 86 } else { 0 }),
        );
        r.set(
            Figure::Of(Quantity::AllocBytes, p),
            Some(if first_op { 6_537 } else { 0 }),
        );
    }
    r
}

/// The store of `rows`.
pub(crate) fn samples(rows: &[SampleRow]) -> Samples {
    Samples::from_rows(rows)
}

/// The plan `rows` were taken from: one planned sample per row, in order.
pub(crate) fn plan(rows: &[SampleRow]) -> Vec<PlanRow> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| PlanRow {
            plan_index: i as u64,
            block: r.block,
            codec: r.codec.clone(),
            op: r.op,
            batch: r.batch,
            fixture: r.fixture.clone(),
            variant: r.variant,
        })
        .collect()
}

/// The plan's count per cell.
pub(crate) fn planned(rows: &[SampleRow]) -> PlanCount {
    PlanCount::of(&plan(rows))
}
