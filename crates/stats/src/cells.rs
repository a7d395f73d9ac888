//! The figures of one cell that every table shows, computed once for the cold runner's closing
//! table and the reports: a figure's values over the cell's ok samples, the library's cost in a
//! quantity (its three phases summed), the process less its input, and how far a cell sits above
//! its runtime's floor.

use crate::quantile::{median, sorted};
use schema::phases::{Figure, Phase, Quantity};
use schema::rows::CellSamples;

/// Figure `f` of every ok sample that has it, ascending.
pub fn values(cell: &CellSamples, f: Figure) -> Vec<f64> {
    sorted(&cell.values_by(|i| cell.get(f, i)))
}

/// Quantity `q` of sample `i` summed over `phases`; `None` when a phase lacks it.
pub fn sum(cell: &CellSamples, q: Quantity, phases: &[Phase], i: usize) -> Option<u64> {
    phases.iter().map(|&p| cell.get(Figure::Of(q, p), i)).sum()
}

/// The library's cost of every ok sample in quantity `q` (init + first_op + remaining_ops:
/// nanoseconds for a timed run, instructions for a counted one), ascending.
pub fn library(cell: &CellSamples, q: Quantity) -> Vec<f64> {
    sorted(&cell.values_by(|i| sum(cell, q, &Phase::LIBRARY, i)))
}

/// The whole process less its input phase, wall − fixture, of every ok sample, ascending: what
/// the process costs beyond building its input, which differs by codec and is not the library's.
pub fn without_input(cell: &CellSamples) -> Vec<f64> {
    sorted(&cell.values_by(|i| {
        Some(cell.get(Figure::WALL, i)? - cell.get(Figure::time(Phase::Fixture), i)?)
    }))
}

/// How far `cell` sits above its runtime's floor (`floor`, the same fixture, op, batch and
/// build): the median of wall − fixture less the floor's.
pub fn over_floor(cell: &CellSamples, floor: &CellSamples) -> Option<f64> {
    Some(median(&without_input(cell))? - median(&without_input(floor))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::rows::Figures;
    use schema::Status;

    fn cell(samples: &[(u64, u64, u64)]) -> CellSamples {
        let mut c = CellSamples::default();
        for (i, &(wall, fixture, first)) in samples.iter().enumerate() {
            let mut f = Figures::default();
            f.set(Figure::WALL, Some(wall));
            f.set(Figure::time(Phase::Fixture), Some(fixture));
            for p in Phase::LIBRARY {
                f.set(
                    Figure::time(p),
                    Some(if p == Phase::FirstOp { first } else { 0 }),
                );
            }
            c.push(i as u32, Status::Ok, &f);
        }
        c.push(9, Status::Crash, &Figures::default());
        c
    }

    #[test]
    fn known_figures() {
        let codec = cell(&[(1_500_000, 400_000, 40), (1_600_000, 400_000, 60)]);
        let floor = cell(&[(1_000_000, 20_000, 1), (1_000_000, 20_000, 1)]);
        assert_eq!(library(&codec, Quantity::Ns), [40.0, 60.0]);
        assert_eq!(library(&codec, Quantity::Instructions), Vec::<f64>::new());
        assert_eq!(without_input(&codec), [1_100_000.0, 1_200_000.0]);
        // (1,150,000) − (980,000): the codec's 380 µs more input is charged to nobody.
        assert_eq!(over_floor(&codec, &floor), Some(170_000.0));
        assert_eq!(values(&codec, Figure::WALL), [1_500_000.0, 1_600_000.0]);
    }
}
