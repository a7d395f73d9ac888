//! The plan: which cells a run has, and in what order their samples run. A pure function of the
//! codecs, ops, batches, fixtures, samples per cell and plan seed: each block holds every
//! supported cell once, in an order shuffled by ChaCha8 seeded from the plan seed, so `plan.csv`
//! can be derived again from the manifest, and machine drift falls on every cell alike.
//!
//! The order is drawn over every supported cell; cells the correctness gate or the preflight
//! leave out are then removed ([`without`]) without moving the others, so an exclusion changes
//! no other sample's place in its block.

use codecs::{AnyCodec, Op};
use fixtures::Fixture;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use schema::rows::PlanRow;
use schema::run_folder::CheckEntry;
use schema::Variant;

/// codec × op × batch × fixture: a cell before its variant is chosen.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Cell {
    pub(crate) codec: &'static str,
    pub(crate) op: Op,
    pub(crate) batch: u32,
    pub(crate) fixture: &'static str,
}

impl Cell {
    /// The cell without its batch: what the gate and the preflight check.
    pub(crate) fn gate_cell(&self) -> schema::GateCell {
        schema::GateCell {
            codec: self.codec.to_string(),
            fixture: self.fixture.to_string(),
            op: self.op,
        }
    }
}

/// A cell a library cannot express: listed in the manifest and the summary, never planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unsupported {
    pub(crate) codec: &'static str,
    pub(crate) fixture: &'static str,
    pub(crate) op: Op,
    pub(crate) reason: &'static str,
}

/// The cells of a run, in table order (fixture, codec, op, batch), and the codec × fixture × op
/// combinations left out as unsupported.
pub(crate) fn cells(
    codecs: &[&'static dyn AnyCodec],
    ops: &[Op],
    batches: &[u32],
    fixtures: &[&'static Fixture],
) -> (Vec<Cell>, Vec<Unsupported>) {
    let mut cells = Vec::new();
    let mut unsupported = Vec::new();
    for fixture in fixtures {
        for codec in codecs {
            for &op in ops {
                match codec.supports(fixture.model_kind(), op) {
                    Ok(()) => cells.extend(batches.iter().map(|&batch| Cell {
                        codec: codec.id(),
                        op,
                        batch,
                        fixture: fixture.name,
                    })),
                    Err(reason) => unsupported.push(Unsupported {
                        codec: codec.id(),
                        fixture: fixture.name,
                        op,
                        reason,
                    }),
                }
            }
        }
    }
    (cells, unsupported)
}

/// A cell in one build: what the plan holds once per block.
pub(crate) type Unit = (Cell, Variant);

/// Every cell in each of `variants`, in table order (each cell's builds in the order given).
#[cfg(test)]
#[test]
fn a_plan_too_large_for_memory_is_refused_before_it_is_made() {
    assert!(check_size(24, 30).is_ok());
    assert!(check_size(24, 100_000).is_ok());
    let e = check_size(176, 1_000_000_000).unwrap_err().to_string();
    assert!(
        e.contains("176000000000 samples") && e.contains("at most 50000000"),
        "{e}"
    );
    assert!(check_size(usize::MAX, u32::MAX).is_err(), "no overflow");
}

#[cfg(test)]
fn each_in(cells: &[Cell], variants: &[Variant]) -> Vec<Unit> {
    cells
        .iter()
        .flat_map(|c| variants.iter().map(move |&v| (c.clone(), v)))
        .collect()
}

/// The most samples a plan may hold (each row is about a hundred bytes in memory): far beyond any
/// run `cold run` makes (at most 100,000 blocks of the cells asked), well within this machine's
/// memory, so that a manifest edited to ask for a billion samples is refused before anything is
/// allocated, never an allocation failure.
pub(crate) const MAX_ROWS: u64 = 50_000_000;

/// An error unless `units` units × `samples` blocks fit in a plan ([`MAX_ROWS`]).
pub(crate) fn check_size(units: usize, samples: u32) -> anyhow::Result<()> {
    let rows = (units as u64).saturating_mul(u64::from(samples));
    anyhow::ensure!(
        rows <= MAX_ROWS,
        "{units} cells × {samples} samples per cell is {rows} samples; a plan holds at most {MAX_ROWS}"
    );
    Ok(())
}

/// `samples` blocks of every unit once, each block shuffled; plan indices count from 0. With
/// several builds, each build of a cell is a unit of its own in every block, so builds are
/// paired within blocks as codecs are.
pub(crate) fn build(units: &[Unit], samples: u32, seed: u64) -> Vec<PlanRow> {
    // Units come in table order; the shuffle (ChaCha8, `rand`'s slice shuffle) is pinned by the
    // golden test below, so a `rand` upgrade cannot change a plan silently.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let units: Vec<(&Cell, Variant)> = units.iter().map(|(c, v)| (c, *v)).collect();
    let mut rows = Vec::with_capacity(units.len() * samples as usize);
    for block in 0..samples {
        let mut order = units.clone();
        order.shuffle(&mut rng);
        for (cell, variant) in order {
            rows.push(PlanRow {
                plan_index: rows.len() as u64,
                block,
                codec: cell.codec.to_string(),
                op: cell.op,
                batch: cell.batch,
                fixture: cell.fixture.to_string(),
                variant,
            });
        }
    }
    rows
}

/// The plan without the rows that `excluded` leaves out (a codec × fixture × op, in every
/// variant or in one), the other rows in the same order, renumbered from 0.
pub(crate) fn without(rows: Vec<PlanRow>, excluded: &[CheckEntry]) -> Vec<PlanRow> {
    rows.into_iter()
        .filter(|r| {
            let cell = r.gate_cell();
            !excluded.iter().any(|e| e.leaves_out(&cell, r.variant))
        })
        .enumerate()
        .map(|(i, r)| PlanRow {
            plan_index: i as u64,
            ..r
        })
        .collect()
}

/// The rows of `shard`'s blocks of a plan of `blocks` blocks, their indices kept (`rows` whole
/// without a shard).
pub(crate) fn shard(
    rows: Vec<PlanRow>,
    shard: Option<schema::run_folder::Shard>,
    blocks: u32,
) -> Vec<PlanRow> {
    match shard {
        None => rows,
        Some(s) => {
            let taken = s.blocks(blocks);
            rows.into_iter()
                .filter(|r| taken.contains(&r.block))
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use codecs::registry;
    use schema::run_folder::CheckStatus;
    use schema::GateCell;
    use std::collections::HashSet;

    const PORTABLE: &[Variant] = &[Variant::PORTABLE];

    fn default_cells() -> (Vec<Cell>, Vec<Unsupported>) {
        let fixture = fixtures::find("users-2kb").unwrap();
        cells(&registry(), &Op::ALL, &[1, 10, 100], &[fixture])
    }

    #[test]
    fn every_supported_combination_is_a_cell_and_the_rest_are_listed() {
        let fixture = fixtures::find("users-2kb").unwrap();
        let (cells, unsupported) = default_cells();
        for codec in registry() {
            for op in Op::ALL {
                let planned = cells
                    .iter()
                    .filter(|c| c.codec == codec.id() && c.op == op)
                    .map(|c| c.batch)
                    .collect::<Vec<_>>();
                let listed = unsupported
                    .iter()
                    .filter(|u| u.codec == codec.id() && u.op == op)
                    .count();
                match codec.supports(fixture.model_kind(), op) {
                    Ok(()) => assert_eq!((planned, listed), (vec![1, 10, 100], 0)),
                    Err(why) => {
                        assert_eq!((planned.len(), listed), (0, 1), "{} {op}", codec.id());
                        assert!(!why.is_empty());
                    }
                }
            }
        }
        // jiter has no writer: the one unsupported cell of the default run.
        assert!(unsupported
            .iter()
            .any(|u| (u.codec, u.op) == ("jiter", Op::Ser)));
        assert_eq!(
            build(&each_in(&cells, PORTABLE), 30, 1).len(),
            cells.len() * 30
        );
    }

    #[test]
    fn every_cell_once_per_block() {
        let (cells, _) = default_cells();
        let plan = build(&each_in(&cells, PORTABLE), 5, 42);
        let want: HashSet<_> = cells
            .iter()
            .map(|c| (c.codec.to_string(), c.op, c.batch, c.fixture.to_string()))
            .collect();
        for block in 0..5 {
            let rows: Vec<_> = plan.iter().filter(|r| r.block == block).collect();
            assert_eq!(rows.len(), cells.len());
            let got: HashSet<_> = rows
                .iter()
                .map(|r| (r.codec.clone(), r.op, r.batch, r.fixture.clone()))
                .collect();
            assert_eq!(got, want, "block {block}");
        }
        // Indices are 0.. in run order, blocks never interleave.
        for (i, row) in plan.iter().enumerate() {
            assert_eq!(row.plan_index, i as u64);
            assert_eq!(row.block as usize, i / cells.len());
        }
    }

    #[test]
    fn deterministic_for_a_seed_and_different_for_another() {
        let (cells, _) = default_cells();
        let a = build(&each_in(&cells, PORTABLE), 3, 42);
        assert_eq!(a, build(&each_in(&cells, PORTABLE), 3, 42));
        let b = build(&each_in(&cells, PORTABLE), 3, 43);
        assert_ne!(a, b);
        // Blocks are shuffled independently: block 0 and block 1 differ in order.
        let order = |blk: u32| -> Vec<_> {
            a.iter()
                .filter(|r| r.block == blk)
                .map(|r| (r.codec.clone(), r.op, r.batch))
                .collect()
        };
        assert_ne!(order(0), order(1));
    }

    /// The plan text of a fixed list of cells (not the registry's, which grows).
    fn golden_cells() -> Vec<Cell> {
        let mut cells = Vec::new();
        for codec in ["noop", "alpha", "beta"] {
            for op in Op::ALL {
                for batch in [1, 10, 100] {
                    cells.push(Cell {
                        codec,
                        op,
                        batch,
                        fixture: "users-2kb",
                    });
                }
            }
        }
        cells
    }

    #[test]
    fn the_order_for_a_seed_is_pinned() {
        let rows = build(&each_in(&golden_cells(), PORTABLE), 3, 20_261_130);
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &rows {
            w.serialize(r).unwrap();
        }
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let first: Vec<String> = rows[..6]
            .iter()
            .map(|r| format!("{} {} {}", r.codec, r.op, r.batch))
            .collect();
        // Recorded from this code on 2026-11-30. A change here changes every plan: make it on
        // purpose, and say so.
        assert_eq!(
            (first, schema::protocol::fnv1a(text.as_bytes())),
            (
                GOLDEN_FIRST.iter().map(|s| s.to_string()).collect(),
                GOLDEN_HASH
            ),
            "{text}"
        );
    }

    const GOLDEN_FIRST: [&str; 6] = [
        "alpha de 10",
        "noop ser 10",
        "beta ser 100",
        "beta de 100",
        "noop ser 100",
        "alpha ser 100",
    ];
    const GOLDEN_HASH: u64 = 8390044448879785171;

    #[test]
    fn excluded_cells_leave_the_others_in_place() {
        let cells = golden_cells();
        let all = build(&each_in(&cells, PORTABLE), 4, 9);
        let beta_de = GateCell {
            codec: "beta".into(),
            fixture: "users-2kb".into(),
            op: Op::De,
        };
        let left_out = CheckEntry {
            codec: "beta".into(),
            fixture: "users-2kb".into(),
            op: Op::De,
            status: CheckStatus::GateFailed,
            detail: String::new(),
            variant: None,
        };
        let kept = without(all.clone(), &[left_out]);
        let expected: Vec<_> = all
            .iter()
            .filter(|r| r.gate_cell() != beta_de)
            .map(|r| (r.block, r.codec.clone(), r.op, r.batch))
            .collect();
        let got: Vec<_> = kept
            .iter()
            .map(|r| (r.block, r.codec.clone(), r.op, r.batch))
            .collect();
        assert_eq!(got, expected);
        assert_eq!(kept.len(), all.len() - 4 * 3);
        assert!(kept
            .iter()
            .enumerate()
            .all(|(i, r)| r.plan_index == i as u64));
    }

    #[test]
    fn two_variants_are_paired_within_every_block() {
        let cells = golden_cells();
        let both = [Variant::PORTABLE, Variant::NATIVE];
        let plan = build(&each_in(&cells, &both), 3, 7);
        assert_eq!(plan.len(), cells.len() * 2 * 3);
        for block in 0..3 {
            for cell in &cells {
                for v in both {
                    let n = plan
                        .iter()
                        .filter(|r| r.block == block && r.variant == v)
                        .filter(|r| {
                            (r.codec.as_str(), r.op, r.batch) == (cell.codec, cell.op, cell.batch)
                        })
                        .count();
                    assert_eq!(n, 1, "block {block} {cell:?} {v}");
                }
            }
        }
        // A preflight failure of one build leaves the other in the plan.
        let native_beta = CheckEntry {
            codec: "beta".into(),
            fixture: "users-2kb".into(),
            op: Op::De,
            status: CheckStatus::PreflightFailed,
            detail: String::new(),
            variant: Some(Variant::NATIVE),
        };
        let kept = without(plan.clone(), &[native_beta]);
        assert_eq!(kept.len(), plan.len() - 3 * 3);
        assert!(kept
            .iter()
            .any(|r| r.codec == "beta" && r.op == Op::De && r.variant == Variant::PORTABLE));
    }

    #[test]
    fn unsupported_cells_are_listed_with_their_reason() {
        let clients = fixtures::find("clients-1kb").unwrap();
        let (cells, unsupported) = cells(&registry(), &Op::ALL, &[1], &[clients]);
        let ids: HashSet<_> = unsupported.iter().map(|u| u.codec).collect();
        assert!(ids.contains("miniserde") && ids.contains("nanoserde") && ids.contains("jiter"));
        assert!(unsupported.iter().all(|u| !u.reason.is_empty()));
        assert!(!cells.iter().any(|c| c.codec == "miniserde"));
    }
}
