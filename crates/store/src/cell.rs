//! One cell's samples stored compactly, column by column, and every run's samples by cell
//! ([`Samples`]); with the figures of one cell that every table shows, computed once for the
//! cold runner's closing table and the reports.

use crate::rows::{for_each_sample, Plan};
use anyhow::Result;
use files::FileAt;
use schema::phases::{Figure, Phase, Quantity, FIGURES};
use schema::rows::{Figures, SampleRow};
use schema::words::{CellKey, Status};
use stats::quantile::{median, sorted};
use std::collections::BTreeMap;

/// The samples of one cell, column by column: each figure's values in file order (absent ones
/// as [`ABSENT`]), beside each sample's block and status.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellSamples {
    pub blocks: Vec<u32>,
    pub statuses: Vec<Status>,
    pub exit_codes: Vec<Option<i32>>,
    pub evicted: Vec<Option<bool>>,
    /// By figure index: empty when no sample of the cell has the figure.
    figures: Vec<Column>,
}

/// A figure a sample does not have, in [`CellSamples`]' columns.
pub const ABSENT: u64 = u64::MAX;

/// One figure's values in one cell, each stored as narrow as the largest value so far allows
/// (most figures of a sample fit in one, two or four bytes), with the width's largest number
/// standing for [`ABSENT`]: a million samples' figures take a quarter of what `u64`s would.
#[derive(Debug, Clone, PartialEq)]
enum Column {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
}

impl Default for Column {
    fn default() -> Column {
        Column::U8(Vec::new())
    }
}

impl Column {
    fn len(&self) -> usize {
        match self {
            Column::U8(v) => v.len(),
            Column::U16(v) => v.len(),
            Column::U32(v) => v.len(),
            Column::U64(v) => v.len(),
        }
    }

    /// Value `i` ([`ABSENT`] for a missing one).
    fn get(&self, i: usize) -> Option<u64> {
        fn wide<T: Copy + Into<u64> + PartialEq>(v: &[T], i: usize, absent: T) -> Option<u64> {
            v.get(i)
                .map(|&x| if x == absent { ABSENT } else { x.into() })
        }
        match self {
            Column::U8(v) => wide(v, i, u8::MAX),
            Column::U16(v) => wide(v, i, u16::MAX),
            Column::U32(v) => wide(v, i, u32::MAX),
            Column::U64(v) => v.get(i).copied(),
        }
    }

    /// The values present at the indices `keep` keeps, in order (one pass over the column, not
    /// a look-up per index).
    fn present(&self, keep: impl Fn(usize) -> bool) -> Vec<u64> {
        fn of<T: Copy + Into<u64> + PartialEq>(
            v: &[T],
            absent: T,
            keep: impl Fn(usize) -> bool,
        ) -> Vec<u64> {
            v.iter()
                .enumerate()
                .filter(|&(i, &x)| x != absent && keep(i))
                .map(|(_, &x)| x.into())
                .collect()
        }
        match self {
            Column::U8(v) => of(v, u8::MAX, keep),
            Column::U16(v) => of(v, u16::MAX, keep),
            Column::U32(v) => of(v, u32::MAX, keep),
            Column::U64(v) => of(v, ABSENT, keep),
        }
    }

    /// Appends `value` ([`ABSENT`] for a missing one), widening the column first if it must.
    fn push(&mut self, value: u64) {
        let fits = match self {
            Column::U8(_) => value < u64::from(u8::MAX),
            Column::U16(_) => value < u64::from(u16::MAX),
            Column::U32(_) => value < u64::from(u32::MAX),
            Column::U64(_) => true,
        };
        if !fits && value != ABSENT {
            self.widen_for(value);
        }
        // A value that fits is below the width's largest number, which stands for ABSENT.
        match self {
            Column::U8(v) => v.push(u8::try_from(value).unwrap_or(u8::MAX)),
            Column::U16(v) => v.push(u16::try_from(value).unwrap_or(u16::MAX)),
            Column::U32(v) => v.push(u32::try_from(value).unwrap_or(u32::MAX)),
            Column::U64(v) => v.push(value),
        }
    }

    /// Rewrites the column in the narrowest width that holds `value`.
    /// Keeps the room the column had (a reserved cell's widened column still never grows).
    fn widen_for(&mut self, value: u64) {
        let room = self.capacity();
        let all = (0..self.len()).filter_map(|i| self.get(i));
        let narrow = |x: u64, max: u64| if x == ABSENT { max } else { x };
        fn with_room<T>(room: usize, values: impl Iterator<Item = T>) -> Vec<T> {
            let mut v = Vec::new();
            // room is a hint: a memory limit that refuses it only leaves the column to grow
            let _ = v.try_reserve_exact(room);
            v.extend(values);
            v
        }
        *self = if value < u64::from(u16::MAX) {
            Column::U16(with_room(room, all.map(|x| narrow(x, 0xffff) as u16)))
        } else if value < u64::from(u32::MAX) {
            Column::U32(with_room(room, all.map(|x| narrow(x, 0xffff_ffff) as u32)))
        } else {
            Column::U64(with_room(room, all))
        };
    }

    fn capacity(&self) -> usize {
        match self {
            Column::U8(v) => v.capacity(),
            Column::U16(v) => v.capacity(),
            Column::U32(v) => v.capacity(),
            Column::U64(v) => v.capacity(),
        }
    }

    /// Room for `n` more values, if the memory can be had (a hint: refused, the column grows).
    fn try_reserve(&mut self, n: usize) {
        let _ = match self {
            Column::U8(v) => v.try_reserve_exact(n),
            Column::U16(v) => v.try_reserve_exact(n),
            Column::U32(v) => v.try_reserve_exact(n),
            Column::U64(v) => v.try_reserve_exact(n),
        };
    }

    fn resize(&mut self, n: usize) {
        while self.len() < n {
            self.push(ABSENT);
        }
    }
}

impl CellSamples {
    /// A cell without a sample.
    pub const EMPTY: CellSamples = CellSamples {
        blocks: Vec::new(),
        statuses: Vec::new(),
        exit_codes: Vec::new(),
        evicted: Vec::new(),
        figures: Vec::new(),
    };

    pub fn len(&self) -> usize {
        self.statuses.len()
    }

    pub fn is_empty(&self) -> bool {
        self.statuses.is_empty()
    }

    /// Figure `f` of sample `i`.
    pub fn get(&self, f: Figure, i: usize) -> Option<u64> {
        self.figures
            .get(f.slot()?)
            .and_then(|column| column.get(i))
            .filter(|&v| v != ABSENT)
    }

    /// The indices of the ok samples.
    pub fn ok(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).filter(|&i| self.statuses[i].is_ok())
    }

    pub fn ok_count(&self) -> usize {
        self.ok().count()
    }

    /// Figure `f` of every ok sample that has it, in file order.
    pub fn values(&self, f: Figure) -> Vec<u64> {
        match f.slot().and_then(|slot| self.figures.get(slot)) {
            Some(column) => column.present(|i| self.statuses[i].is_ok()),
            None => Vec::new(),
        }
    }

    /// `value(i)` of every ok sample `i` where it is `Some`, in file order, as f64.
    pub fn values_by(&self, value: impl Fn(usize) -> Option<u64>) -> Vec<f64> {
        self.ok()
            .filter_map(|i| value(i).map(|v| v as f64))
            .collect()
    }

    /// (block, figure `f`) of every ok sample that has it, in file order.
    pub fn by_block(&self, f: Figure) -> Vec<(u32, u64)> {
        self.by_block_of(|i| self.get(f, i))
    }

    /// (block, `value(i)`) of every ok sample `i` where it is `Some`, in file order.
    pub fn by_block_of(&self, value: impl Fn(usize) -> Option<u64>) -> Vec<(u32, u64)> {
        self.ok()
            .filter_map(|i| Some((self.blocks[i], value(i)?)))
            .collect()
    }

    /// Room for `n` samples in all, so that no column is copied to grow: a cell read with its
    /// plan's count reserved holds its samples and no more (a grown `Vec` leaves its old block
    /// in the heap, and doubling leaves up to half of the new one empty). A figure's column
    /// takes its room when its first value comes. A hint: room the memory cannot give (a plan
    /// that promises more than its samples hold, under a limit) is not taken, never a failure.
    pub fn reserve(&mut self, n: usize) {
        let more = n.saturating_sub(self.len());
        let _ = self.blocks.try_reserve_exact(more);
        let _ = self.statuses.try_reserve_exact(more);
        let _ = self.exit_codes.try_reserve_exact(more);
        let _ = self.evicted.try_reserve_exact(more);
    }

    /// Appends one sample.
    pub fn push(&mut self, block: u32, status: Status, figures: &Figures) {
        let n = self.len();
        // the room `reserve` gave the cell, which a figure's column takes at its first value
        let room = self.statuses.capacity();
        if self.figures.is_empty() {
            self.figures = vec![Column::default(); FIGURES];
        }
        for (slot, v) in figures.present() {
            let column = &mut self.figures[slot];
            let len = column.len();
            if len == 0 {
                column.try_reserve(room);
            }
            if len < n {
                column.resize(n);
            }
            column.push(v);
        }
        self.blocks.push(block);
        self.statuses.push(status);
        self.exit_codes.push(None);
        self.evicted.push(None);
    }
}

/// Every sample of a run by cell: cells in key order, each cell's samples in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    pub cells: BTreeMap<CellKey, CellSamples>,
    /// The cells in the order of their first sample in the file.
    pub first_seen: Vec<CellKey>,
    /// How many samples, over all cells.
    pub count: usize,
}

impl Samples {
    /// The samples of `rows` (as written, unchecked).
    pub fn from_rows(rows: &[SampleRow]) -> Samples {
        let mut out = Samples::default();
        for r in rows {
            let key = r.cell();
            if !out.cells.contains_key(&key) {
                out.first_seen.push(key.clone());
            }
            let cell = out.cells.entry(key).or_default();
            cell.push(r.block, r.status, &r.figures);
            *cell.exit_codes.last_mut().expect("pushed") = r.exit_code;
            *cell.evicted.last_mut().expect("pushed") = r.evicted;
            out.count += 1;
        }
        out
    }

    /// Reads samples.csv at `path` into the store (see [`for_each_sample`] for the rules, and
    /// `required` for the figures whose columns must be there); returns the note about a torn
    /// last row, if any.
    pub fn read(
        path: impl Into<FileAt>,
        plan: Option<&Plan>,
        required: &[Figure],
    ) -> Result<(Samples, Option<String>)> {
        let path = &path.into();
        let mut by_cell: Vec<CellSamples> = Vec::new();
        let mut count = 0;
        let planned = plan.map(Plan::count);
        let (cells, note) = for_each_sample(path, plan, required, |v, cells| {
            if by_cell.len() <= v.cell {
                by_cell.resize_with(v.cell + 1, CellSamples::default);
            }
            let cell = &mut by_cell[v.cell];
            if cell.is_empty() {
                let key = &cells.keys[v.cell];
                if let Some(&n) = planned.as_ref().and_then(|p| p.cells.get(key)) {
                    cell.reserve(n);
                }
            }
            cell.push(v.block, v.status, v.figures);
            *cell.exit_codes.last_mut().expect("pushed") = v.exit_code;
            *cell.evicted.last_mut().expect("pushed") = v.evicted;
            count += 1;
            Ok(())
        })?;
        let first_seen = cells.keys;
        let cells = first_seen.iter().cloned().zip(by_cell).collect();
        Ok((
            Samples {
                cells,
                first_seen,
                count,
            },
            note,
        ))
    }

    /// The cells of build `variant` alone.
    pub fn only_variant(&self, variant: schema::Variant) -> Samples {
        let cells: BTreeMap<CellKey, CellSamples> = self
            .cells
            .iter()
            .filter(|(k, _)| k.variant == variant)
            .map(|(k, c)| (k.clone(), c.clone()))
            .collect();
        Samples {
            count: cells.values().map(CellSamples::len).sum(),
            first_seen: self
                .first_seen
                .iter()
                .filter(|k| k.variant == variant)
                .cloned()
                .collect(),
            cells,
        }
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether any ok sample has figure `f`.
    pub fn has(&self, f: Figure) -> bool {
        self.cells.values().any(|c| !c.values(f).is_empty())
    }

    /// The codecs with at least one sample.
    pub fn codecs(&self) -> std::collections::BTreeSet<&str> {
        self.cells
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, _)| k.codec.as_str())
            .collect()
    }
}

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

/// The whole process less its input phase, wall − fixture, of sample `i`: what the process costs
/// beyond building its input, which differs by codec and is not the library's.
pub fn process(cell: &CellSamples, i: usize) -> Option<u64> {
    cell.get(Figure::WALL, i)?
        .checked_sub(cell.get(Figure::time(Phase::Fixture), i)?)
}

/// [`process`] of every ok sample that has it, ascending.
pub fn without_input(cell: &CellSamples) -> Vec<f64> {
    sorted(&cell.values_by(|i| process(cell, i)))
}

/// How far `cell` sits above its runtime's floor (`floor`, the same fixture, op, batch and
/// build): the median of wall − fixture less the floor's.
pub fn over_floor(cell: &CellSamples, floor: &CellSamples) -> Option<f64> {
    Some(median(&without_input(cell))? - median(&without_input(floor))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::rows::{Figures, MAX_FIGURE};
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

    #[test]
    fn columns_widen_and_keep_every_value_and_every_absence() {
        let values = [
            5,
            ABSENT,
            254,
            255,
            300,
            70_000,
            5_000_000_000,
            MAX_FIGURE,
            0,
        ];
        let mut column = Column::default();
        for (n, &v) in values.iter().enumerate() {
            column.push(v);
            let back: Vec<u64> = (0..=n).filter_map(|i| column.get(i)).collect();
            assert_eq!(back, values[..=n], "after {v}");
        }
        assert!(matches!(column, Column::U64(_)));
        let mut narrow = Column::default();
        narrow.resize(3);
        narrow.push(254);
        assert!(matches!(narrow, Column::U8(_)));
        assert_eq!(narrow.get(0), Some(ABSENT));
        assert_eq!(narrow.get(3), Some(254));
    }

    #[test]
    fn a_reserved_cell_holds_its_samples_without_growing() {
        // room for 6 samples, a figure that widens twice and one that first comes late: no
        // column grows past its room (a grown column would leave a copy in the heap), and
        // every value reads back
        let mut cell = CellSamples::default();
        cell.reserve(6);
        let walls = [5, 300, 70_000, 2, 5_000_000_000, 7];
        for (i, &wall) in walls.iter().enumerate() {
            let mut figures = Figures::default();
            figures.set(Figure::WALL, Some(wall));
            figures.set(Figure::INIT_PLUS_OPS, (i >= 4).then_some(i as u64));
            cell.push(i as u32, Status::Ok, &figures);
        }
        assert_eq!(cell.statuses.capacity(), 6);
        for f in [Figure::WALL, Figure::INIT_PLUS_OPS] {
            assert_eq!(cell.figures[f.index()].capacity(), 6, "{f:?}");
        }
        let back: Vec<u64> = (0..6).filter_map(|i| cell.get(Figure::WALL, i)).collect();
        assert_eq!(back, walls);
        assert_eq!(cell.get(Figure::INIT_PLUS_OPS, 3), None);
        assert_eq!(cell.get(Figure::INIT_PLUS_OPS, 5), Some(5));

        // a plan that promises more samples than any memory holds: the room is not taken, and
        // the cell still reads its samples
        let mut promised = CellSamples::default();
        promised.reserve(usize::MAX / 2);
        let mut figures = Figures::default();
        figures.set(Figure::WALL, Some(70_000));
        promised.push(0, Status::Ok, &figures);
        assert_eq!(promised.get(Figure::WALL, 0), Some(70_000));
    }
}
