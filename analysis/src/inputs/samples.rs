//! samples.csv and plan.csv read row by row into a compact store: each cell's identity once (a
//! [`CellKey`] per distinct cell, not strings per row), each sample as a small fixed-size record
//! of the figures the analysis reads. Nothing holds a whole file's rows: a million samples take
//! about 150 MB, not the gigabytes of `SampleRow`s with their strings.
//!
//! The rules are the ones [`schema::run_folder`] and [`schema::csv_rows`] define (the columns by
//! name, a torn last row left out, errors naming file and line), and more: a column the
//! analysis relies on must be there, and a figure no run can produce is refused.
//!
//! A counted run (`cold run --measure instructions`) writes no times: its ok rows have every
//! timing column empty and the instruction and allocation counts filled. The counts live in a
//! side table ([`Samples::counts`]), one [`Counts`] record per ok sample that holds any count,
//! so a timed run's store is as small as before; the timing checks apply to the values present.

use anyhow::{anyhow, bail, ensure, Result};
use schema::csv_rows::for_each_record;
use schema::run_folder::{PlanRow, SampleRow};
use schema::{CellKey, Measure, Op, Status, Variant};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::str::FromStr;

/// A figure of a sample the analysis reads, by its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    SpawnToMain,
    Fixture,
    Init,
    FirstOp,
    RemainingOps,
    Check,
    Exit,
    InitPlusOps,
    Wall,
    UserUs,
    SysUs,
    MaxrssKib,
    HwmKib,
    Minflt,
    Majflt,
}

const NUMS: usize = 15;

impl Num {
    /// Every figure, in the order of their columns.
    pub const ALL: [Num; NUMS] = [
        Num::SpawnToMain,
        Num::Fixture,
        Num::Init,
        Num::FirstOp,
        Num::RemainingOps,
        Num::Check,
        Num::Exit,
        Num::InitPlusOps,
        Num::Wall,
        Num::UserUs,
        Num::SysUs,
        Num::MaxrssKib,
        Num::HwmKib,
        Num::Minflt,
        Num::Majflt,
    ];

    /// Its column in samples.csv.
    pub fn column(self) -> &'static str {
        match self {
            Num::SpawnToMain => "spawn_to_main_ns",
            Num::Fixture => "fixture_ns",
            Num::Init => "init_ns",
            Num::FirstOp => "first_op_ns",
            Num::RemainingOps => "remaining_ops_ns",
            Num::Check => "check_ns",
            Num::Exit => "exit_ns",
            Num::InitPlusOps => "init_plus_ops_ns",
            Num::Wall => "wall_ns",
            Num::UserUs => "user_us",
            Num::SysUs => "sys_us",
            Num::MaxrssKib => "maxrss_kib",
            Num::HwmKib => "hwm_kib",
            Num::Minflt => "minflt",
            Num::Majflt => "majflt",
        }
    }

    /// Whether it is a duration in ns (bounded by [`MAX_NS`]).
    pub fn is_duration(self) -> bool {
        self.column().ends_with("_ns")
    }

    fn of(self, r: &SampleRow) -> Option<u64> {
        match self {
            Num::SpawnToMain => r.spawn_to_main_ns,
            Num::Fixture => r.fixture_ns,
            Num::Init => r.init_ns,
            Num::FirstOp => r.first_op_ns,
            Num::RemainingOps => r.remaining_ops_ns,
            Num::Check => r.check_ns,
            Num::Exit => r.exit_ns,
            Num::InitPlusOps => r.init_plus_ops_ns,
            Num::Wall => r.wall_ns,
            Num::UserUs => r.user_us,
            Num::SysUs => r.sys_us,
            Num::MaxrssKib => r.maxrss_kib,
            Num::HwmKib => r.hwm_kib,
            Num::Minflt => r.minflt,
            Num::Majflt => r.majflt,
        }
    }
}

/// A count of a sample in a counted run, by its column: instructions (callgrind's) from exec
/// to `main` and in each phase, and heap blocks and bytes allocated in the library's phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    InstrToMain,
    InstrFixture,
    InstrInit,
    InstrFirstOp,
    InstrRemainingOps,
    InstrCheck,
    InstrExit,
    AllocInitBlocks,
    AllocInitBytes,
    AllocFirstOpBlocks,
    AllocFirstOpBytes,
    AllocRemainingOpsBlocks,
    AllocRemainingOpsBytes,
}

const COUNTS: usize = 13;

impl Count {
    /// Every count, in the order of their columns.
    pub const ALL: [Count; COUNTS] = [
        Count::InstrToMain,
        Count::InstrFixture,
        Count::InstrInit,
        Count::InstrFirstOp,
        Count::InstrRemainingOps,
        Count::InstrCheck,
        Count::InstrExit,
        Count::AllocInitBlocks,
        Count::AllocInitBytes,
        Count::AllocFirstOpBlocks,
        Count::AllocFirstOpBytes,
        Count::AllocRemainingOpsBlocks,
        Count::AllocRemainingOpsBytes,
    ];

    /// The instruction counts, one per phase of the process, in order.
    pub const INSTRUCTIONS: [Count; 7] = [
        Count::InstrToMain,
        Count::InstrFixture,
        Count::InstrInit,
        Count::InstrFirstOp,
        Count::InstrRemainingOps,
        Count::InstrCheck,
        Count::InstrExit,
    ];

    /// The library's phases, whose counts are the library's own work and do not depend on the
    /// environment: init, first_op, remaining_ops.
    pub const LIBRARY: [Count; 3] = [
        Count::InstrInit,
        Count::InstrFirstOp,
        Count::InstrRemainingOps,
    ];

    /// The allocation counts: blocks and bytes of init, first_op, remaining_ops.
    pub const ALLOCATIONS: [Count; 6] = [
        Count::AllocInitBlocks,
        Count::AllocInitBytes,
        Count::AllocFirstOpBlocks,
        Count::AllocFirstOpBytes,
        Count::AllocRemainingOpsBlocks,
        Count::AllocRemainingOpsBytes,
    ];

    /// Its column in samples.csv.
    pub fn column(self) -> &'static str {
        match self {
            Count::InstrToMain => "instr_to_main",
            Count::InstrFixture => "instr_fixture",
            Count::InstrInit => "instr_init",
            Count::InstrFirstOp => "instr_first_op",
            Count::InstrRemainingOps => "instr_remaining_ops",
            Count::InstrCheck => "instr_check",
            Count::InstrExit => "instr_exit",
            Count::AllocInitBlocks => "alloc_init_blocks",
            Count::AllocInitBytes => "alloc_init_bytes",
            Count::AllocFirstOpBlocks => "alloc_first_op_blocks",
            Count::AllocFirstOpBytes => "alloc_first_op_bytes",
            Count::AllocRemainingOpsBlocks => "alloc_remaining_ops_blocks",
            Count::AllocRemainingOpsBytes => "alloc_remaining_ops_bytes",
        }
    }

    /// The phase an instruction count is of (`to_main`, `fixture`, `init`, …), or the column of
    /// an allocation count without its `alloc_` (`init_blocks`, …).
    pub fn name(self) -> &'static str {
        let c = self.column();
        c.strip_prefix("instr_")
            .or_else(|| c.strip_prefix("alloc_"))
            .unwrap_or(c)
    }

    fn of(self, r: &SampleRow) -> Option<u64> {
        match self {
            Count::InstrToMain => r.instr_to_main,
            Count::InstrFixture => r.instr_fixture,
            Count::InstrInit => r.instr_init,
            Count::InstrFirstOp => r.instr_first_op,
            Count::InstrRemainingOps => r.instr_remaining_ops,
            Count::InstrCheck => r.instr_check,
            Count::InstrExit => r.instr_exit,
            Count::AllocInitBlocks => r.alloc_init_blocks,
            Count::AllocInitBytes => r.alloc_init_bytes,
            Count::AllocFirstOpBlocks => r.alloc_first_op_blocks,
            Count::AllocFirstOpBytes => r.alloc_first_op_bytes,
            Count::AllocRemainingOpsBlocks => r.alloc_remaining_ops_blocks,
            Count::AllocRemainingOpsBytes => r.alloc_remaining_ops_bytes,
        }
    }
}

/// The counts of one ok sample of a counted run (those given: a count that could not be cut
/// into phases is left empty by the runner, which says why in the row's `error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Bit i set: `values[i]` was given.
    present: u16,
    values: [u64; COUNTS],
}

impl Counts {
    pub fn get(&self, c: Count) -> Option<u64> {
        let i = c as usize;
        (self.present & (1 << i) != 0).then(|| self.values[i])
    }

    pub fn set(&mut self, c: Count, v: Option<u64>) {
        let i = c as usize;
        match v {
            Some(v) => {
                self.values[i] = v;
                self.present |= 1 << i;
            }
            None => {
                self.values[i] = 0;
                self.present &= !(1 << i);
            }
        }
    }

    /// Counts built from `(count, value)` pairs (the others absent).
    pub fn of(given: &[(Count, u64)]) -> Counts {
        let mut c = Counts::default();
        for &(k, v) in given {
            c.set(k, Some(v));
        }
        c
    }

    pub fn is_empty(&self) -> bool {
        self.present == 0
    }

    /// init + first_op + remaining_ops instructions, when all three were counted (each at most
    /// [`MAX_COUNT`], so the sum cannot overflow).
    pub fn init_plus_ops(&self) -> Option<u64> {
        Count::LIBRARY
            .iter()
            .map(|&c| self.get(c))
            .sum::<Option<u64>>()
    }

    /// The counts of a row, for tests.
    #[cfg(test)]
    pub fn of_row_for_tests(r: &SampleRow) -> Counts {
        Counts::of_row(r)
    }

    fn of_row(r: &SampleRow) -> Counts {
        let mut c = Counts::default();
        for k in Count::ALL {
            c.set(k, k.of(r));
        }
        c
    }

    /// An error when a count is above [`MAX_COUNT`].
    fn check(&self) -> Result<()> {
        for k in Count::ALL {
            if let Some(v) = self.get(k).filter(|&v| v > MAX_COUNT) {
                bail!(
                    "{} = {v} is above 10^15: not a count a run can produce",
                    k.column()
                );
            }
        }
        Ok(())
    }
}

/// No count of a sample comes near this (10^15 instructions take callgrind months; 10^15 bytes
/// are a petabyte): a larger one is a corrupt value.
pub const MAX_COUNT: u64 = 1_000_000_000_000_000;

/// The columns of samples.csv the analysis relies on: a sample's identity, its status and the
/// two figures every statistic is about. (Other figures may be absent in runs of older thaws.)
pub const SAMPLE_COLUMNS: [&str; 10] = [
    "plan_index",
    "block",
    "codec",
    "op",
    "batch",
    "fixture",
    "variant",
    "status",
    "init_plus_ops_ns",
    "wall_ns",
];

/// The further columns of samples.csv a counted run's analysis relies on: every count.
pub fn count_columns() -> [&'static str; COUNTS] {
    Count::ALL.map(Count::column)
}

/// The columns of plan.csv: every one.
pub const PLAN_COLUMNS: [&str; 7] = [
    "plan_index",
    "block",
    "codec",
    "op",
    "batch",
    "fixture",
    "variant",
];

/// No duration of a sample comes near this (10^15 ns, about 11.6 days): a larger one is a
/// corrupt value, not a measurement.
pub const MAX_NS: u64 = 1_000_000_000_000_000;

/// One finished sample: its block, status and figures (the cell is where it is kept).
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub block: u32,
    pub status: Status,
    /// Bit i set: `values[i]` was given.
    present: u16,
    values: [u64; NUMS],
    pub exit_code: Option<i32>,
    /// With `--cold-cache`: whether the child and its input were fully evicted.
    pub evicted: Option<bool>,
}

impl Sample {
    pub fn get(&self, n: Num) -> Option<u64> {
        let i = n as usize;
        (self.present & (1 << i) != 0).then(|| self.values[i])
    }

    pub fn is_ok(&self) -> bool {
        self.status.is_ok()
    }

    fn set(&mut self, n: Num, v: Option<u64>) {
        let i = n as usize;
        match v {
            Some(v) => {
                self.values[i] = v;
                self.present |= 1 << i;
            }
            None => {
                self.values[i] = 0;
                self.present &= !(1 << i);
            }
        }
    }

    /// The sample of a row, and its cell.
    pub fn from_row(r: &SampleRow) -> (CellKey, Sample) {
        let mut s = Sample {
            block: r.block,
            status: r.status,
            present: 0,
            values: [0; NUMS],
            exit_code: r.exit_code,
            evicted: r.evicted,
        };
        for n in Num::ALL {
            s.set(n, n.of(r));
        }
        (r.cell(), s)
    }

    /// An error when the sample holds a figure no run can produce: a duration above
    /// [`MAX_NS`]; or, in an ok sample, init_plus_ops that is not init + first_op +
    /// remaining_ops, or a wall time shorter than init_plus_ops.
    pub fn check(&self) -> Result<()> {
        for n in Num::ALL.into_iter().filter(|n| n.is_duration()) {
            if let Some(v) = self.get(n).filter(|&v| v > MAX_NS) {
                bail!(
                    "{} = {v} is above 10^15 ns (11.6 days): not a measurement",
                    n.column()
                );
            }
        }
        if !self.is_ok() {
            return Ok(());
        }
        if let (Some(ipo), Some(i), Some(f), Some(rem)) = (
            self.get(Num::InitPlusOps),
            self.get(Num::Init),
            self.get(Num::FirstOp),
            self.get(Num::RemainingOps),
        ) {
            // each is at most 10^15 (checked above): the sum cannot overflow
            ensure!(
                ipo == i + f + rem,
                "init_plus_ops_ns = {ipo} but init_ns + first_op_ns + remaining_ops_ns = {i} + {f} + {rem} = {}",
                i + f + rem
            );
        }
        if let (Some(ipo), Some(wall)) = (self.get(Num::InitPlusOps), self.get(Num::Wall)) {
            ensure!(
                wall >= ipo,
                "wall_ns = {wall} is less than init_plus_ops_ns = {ipo}, which it contains"
            );
        }
        Ok(())
    }
}

/// Every sample of a run by cell: cells in key order, each cell's samples in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    pub cells: BTreeMap<CellKey, Vec<Sample>>,
    /// The cells in the order of their first sample in the file.
    pub first_seen: Vec<CellKey>,
    /// How many samples, over all cells.
    pub count: usize,
    /// The counts of every ok sample that holds any (a counted run's), by cell, in file order:
    /// empty for a timed run.
    pub counts: BTreeMap<CellKey, Vec<Counts>>,
}

impl Samples {
    /// The samples of `rows` (as read, unchecked).
    pub fn from_rows(rows: &[SampleRow]) -> Samples {
        let mut out = Samples::default();
        for r in rows {
            let (key, s) = Sample::from_row(r);
            if !out.cells.contains_key(&key) {
                out.first_seen.push(key.clone());
            }
            let counts = Counts::of_row(r);
            if r.is_ok() && !counts.is_empty() {
                out.counts.entry(key.clone()).or_default().push(counts);
            }
            out.cells.entry(key).or_default().push(s);
            out.count += 1;
        }
        out
    }

    /// Whether any sample holds a count.
    pub fn has_counts(&self) -> bool {
        !self.counts.is_empty()
    }

    /// Whether any ok sample holds a time (init_plus_ops or wall).
    pub fn has_times(&self) -> bool {
        self.cells
            .values()
            .flatten()
            .any(|s| s.is_ok() && (s.get(Num::InitPlusOps).is_some() || s.get(Num::Wall).is_some()))
    }

    /// The counts of `key`'s ok samples that hold any.
    pub fn counts_of(&self, key: &CellKey) -> &[Counts] {
        self.counts.get(key).map_or(&[], Vec::as_slice)
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The codecs with at least one sample.
    pub fn codecs(&self) -> BTreeSet<&str> {
        self.cells
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, _)| k.codec.as_str())
            .collect()
    }

    /// Reads samples.csv at `path` row by row (see the module's rules); returns the note about
    /// a torn last row, if any. `measure` is what the run's manifest says it recorded: a
    /// counted run's file must have every count column too (a timed run's may lack them, as
    /// files written before counting existed do).
    pub fn read(path: &Path, measure: Measure) -> Result<(Samples, Option<String>)> {
        let mut interner = Interner::default();
        let mut samples: Vec<Vec<Sample>> = Vec::new();
        let mut counts: Vec<Vec<Counts>> = Vec::new();
        let mut count = 0;
        let (cells, by_cell, counts_by_cell, counted) =
            (&mut interner, &mut samples, &mut counts, &mut count);
        let note = for_each_record(path, |headers| {
            let mut required = SAMPLE_COLUMNS.to_vec();
            if measure == Measure::Instructions {
                required.extend(count_columns());
            }
            let cols = Columns::find(path, headers, &required)?;
            let status_col = cols.required("status");
            let nums: Vec<(Num, Option<usize>)> = Num::ALL
                .into_iter()
                .map(|n| (n, cols.optional(n.column())))
                .collect();
            let count_cols: Vec<(Count, usize)> = Count::ALL
                .into_iter()
                .filter_map(|c| Some((c, cols.optional(c.column())?)))
                .collect();
            let exit_code_col = cols.optional("exit_code");
            let evicted_col = cols.optional("evicted");
            let mut statuses: Vec<(Vec<u8>, Status)> = Vec::new();
            Ok(move |rec: &csv::ByteRecord| -> Result<()> {
                let (cell, block) = cells.cell_of(rec, &cols)?;
                let raw_status = field(rec, status_col);
                let status = match statuses.iter().find(|(raw, _)| raw == raw_status) {
                    Some((_, s)) => *s,
                    None => {
                        let s = Status::parse(text(raw_status, "status")?)
                            .map_err(|e| anyhow!("status: {e}"))?;
                        statuses.push((raw_status.to_vec(), s));
                        s
                    }
                };
                let mut s = Sample {
                    block,
                    status,
                    present: 0,
                    values: [0; NUMS],
                    exit_code: parse_opt(rec, exit_code_col, "exit_code")?,
                    evicted: parse_opt(rec, evicted_col, "evicted")?,
                };
                for &(n, col) in &nums {
                    s.set(n, parse_u64_opt(rec, col, n.column())?);
                }
                s.check()?;
                let mut c = Counts::default();
                for &(k, col) in &count_cols {
                    c.set(k, parse_u64_opt(rec, Some(col), k.column())?);
                }
                c.check()?;
                if by_cell.len() <= cell {
                    by_cell.resize_with(cell + 1, Vec::new);
                }
                if status.is_ok() && !c.is_empty() {
                    if counts_by_cell.len() <= cell {
                        counts_by_cell.resize_with(cell + 1, Vec::new);
                    }
                    counts_by_cell[cell].push(c);
                }
                by_cell[cell].push(s);
                *counted += 1;
                Ok(())
            })
        })?;
        // every cell met got its sample: one list per key
        let first_seen = interner.keys;
        let cells = first_seen.iter().cloned().zip(samples).collect();
        let counts = first_seen
            .iter()
            .cloned()
            .zip(counts)
            .filter(|(_, v)| !v.is_empty())
            .collect();
        Ok((
            Samples {
                cells,
                first_seen,
                count,
                counts,
            },
            note,
        ))
    }
}

/// The planned samples of a run, counted by cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub cells: BTreeMap<CellKey, usize>,
    /// How many planned samples, over all cells.
    pub count: usize,
}

impl Plan {
    pub fn from_rows(rows: &[PlanRow]) -> Plan {
        let mut out = Plan::default();
        for p in rows {
            *out.cells.entry(p.cell()).or_default() += 1;
            out.count += 1;
        }
        out
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Reads plan.csv at `path` row by row; returns the note about a torn last row, if any.
    pub fn read(path: &Path) -> Result<(Plan, Option<String>)> {
        let mut interner = Interner::default();
        let mut counts: Vec<usize> = Vec::new();
        let (cells, by_cell) = (&mut interner, &mut counts);
        let note = for_each_record(path, |headers| {
            let cols = Columns::find(path, headers, &PLAN_COLUMNS)?;
            Ok(move |rec: &csv::ByteRecord| -> Result<()> {
                let (cell, _) = cells.cell_of(rec, &cols)?;
                if by_cell.len() <= cell {
                    by_cell.resize(cell + 1, 0);
                }
                by_cell[cell] += 1;
                Ok(())
            })
        })?;
        let count = counts.iter().sum();
        let cells = interner.keys.into_iter().zip(counts).collect();
        Ok((Plan { cells, count }, note))
    }
}

/// Where each column the reader wants is in the file.
struct Columns {
    index: HashMap<String, usize>,
    /// plan_index, block, codec, op, batch, fixture, variant.
    key: [usize; 7],
}

impl Columns {
    /// The columns of `headers`; an error naming `path` and every column of `required` that
    /// is missing. An empty header (an empty file: no row was ever written) has every column.
    fn find(path: &Path, headers: &csv::ByteRecord, required: &[&str]) -> Result<Columns> {
        let mut index = HashMap::new();
        for (i, h) in headers.iter().enumerate() {
            index
                .entry(String::from_utf8_lossy(h).into_owned())
                .or_insert(i);
        }
        if !headers.is_empty() {
            let missing: Vec<&str> = required
                .iter()
                .copied()
                .filter(|c| !index.contains_key(*c))
                .collect();
            if !missing.is_empty() {
                bail!(
                    "{}: the header line lacks the column{} {}, which the analysis needs",
                    path.display(),
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                );
            }
        }
        let mut cols = Columns { index, key: [0; 7] };
        cols.key = PLAN_COLUMNS.map(|c| cols.required(c));
        Ok(cols)
    }

    /// A column that [`Columns::find`] checked (`usize::MAX` in an empty file, which has no
    /// record to read it from).
    fn required(&self, name: &str) -> usize {
        self.optional(name).unwrap_or(usize::MAX)
    }

    fn optional(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }
}

/// The cells met so far, each once: the raw bytes of a record's identity fields map to the
/// cell's number, so a record's strings are compared, never copied.
#[derive(Default)]
struct Interner {
    by_raw: HashMap<Vec<u8>, usize>,
    by_key: HashMap<CellKey, usize>,
    keys: Vec<CellKey>,
    raw: Vec<u8>,
}

impl Interner {
    /// The number of `rec`'s cell, and its block; plan_index and block are checked to be whole
    /// numbers.
    fn cell_of(&mut self, rec: &csv::ByteRecord, cols: &Columns) -> Result<(usize, u32)> {
        let [plan_index, block, codec, op, batch, fixture, variant] = cols.key;
        parse_u64(field(rec, plan_index), "plan_index")?;
        let block = parse_u32(field(rec, block), "block")?;
        self.raw.clear();
        for col in [codec, op, batch, fixture, variant] {
            let f = field(rec, col);
            self.raw.extend_from_slice(&(f.len() as u32).to_le_bytes());
            self.raw.extend_from_slice(f);
        }
        if let Some(&id) = self.by_raw.get(&self.raw[..]) {
            return Ok((id, block));
        }
        let key = CellKey {
            fixture: text(field(rec, fixture), "fixture")?.to_string(),
            op: Op::parse(text(field(rec, op), "op")?).map_err(|e| anyhow!("op: {e}"))?,
            variant: Variant::parse(text(field(rec, variant), "variant")?)
                .map_err(|e| anyhow!("variant: {e}"))?,
            batch: parse_u32(field(rec, batch), "batch")?,
            codec: text(field(rec, codec), "codec")?.to_string(),
        };
        let next = self.keys.len();
        let id = *self.by_key.entry(key.clone()).or_insert(next);
        if id == next {
            self.keys.push(key);
        }
        self.by_raw.insert(self.raw.clone(), id);
        Ok((id, block))
    }
}

/// Field `col` of `rec` (empty when the record is short).
fn field(rec: &csv::ByteRecord, col: usize) -> &[u8] {
    rec.get(col).unwrap_or(b"")
}

fn text<'a>(raw: &'a [u8], name: &str) -> Result<&'a str> {
    std::str::from_utf8(raw).map_err(|_| anyhow!("{name}: not valid UTF-8"))
}

/// A whole number in decimal digits (a leading `+` allowed, as Rust's parser allows; or in hex
/// after `0x`, as the csv crate's serde reader allows).
fn parse_u64(raw: &[u8], name: &str) -> Result<u64> {
    if let Some(hex) = raw.strip_prefix(b"0x") {
        return std::str::from_utf8(hex)
            .ok()
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .ok_or_else(|| {
                anyhow!(
                    "{name}: `{}` is not a whole number of at most 64 bits",
                    String::from_utf8_lossy(raw)
                )
            });
    }
    let digits = raw.strip_prefix(b"+").unwrap_or(raw);
    let mut v: u64 = 0;
    let ok = !digits.is_empty()
        && digits.iter().all(|&b| {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                return false;
            }
            match v.checked_mul(10).and_then(|x| x.checked_add(u64::from(d))) {
                Some(x) => {
                    v = x;
                    true
                }
                None => false,
            }
        });
    if ok {
        Ok(v)
    } else {
        bail!(
            "{name}: `{}` is not a whole number of at most 64 bits",
            String::from_utf8_lossy(raw)
        )
    }
}

fn parse_u32(raw: &[u8], name: &str) -> Result<u32> {
    u32::try_from(parse_u64(raw, name)?).map_err(|_| {
        anyhow!(
            "{name}: `{}` is larger than 32 bits",
            String::from_utf8_lossy(raw)
        )
    })
}

/// An optional figure: empty (or no such column) is `None`.
fn parse_u64_opt(rec: &csv::ByteRecord, col: Option<usize>, name: &str) -> Result<Option<u64>> {
    match col.map(|c| field(rec, c)) {
        None | Some(b"") => Ok(None),
        Some(raw) => parse_u64(raw, name).map(Some),
    }
}

fn parse<T: FromStr>(raw: &[u8], name: &str) -> Result<T> {
    text(raw, name)?.parse().map_err(|_| {
        anyhow!(
            "{name}: `{}` is not a valid value",
            String::from_utf8_lossy(raw)
        )
    })
}

fn parse_opt<T: FromStr>(
    rec: &csv::ByteRecord,
    col: Option<usize>,
    name: &str,
) -> Result<Option<T>> {
    match col.map(|c| field(rec, c)) {
        None | Some(b"") => Ok(None),
        Some(raw) => parse(raw, name).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{synth, SynthOptions};
    use schema::csv_rows::{read_rows, write_rows};
    use std::path::PathBuf;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "thaw-analysis-samples-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A synthetic run's rows, with every kind of field a real run writes: failures of each
    /// status, empty figures, eviction flags, exit codes and signals, a second variant.
    fn varied_rows() -> Vec<SampleRow> {
        let mut rows = synth(SynthOptions {
            samples: 600,
            seed: 4,
            fail_rate: 0.05,
            scale: vec![],
            measure: Measure::Time,
            ..SynthOptions::default()
        })
        .samples;
        let statuses = [
            Status::Crash,
            Status::Signal(9),
            Status::BadOutput,
            Status::WrongChecksum,
            Status::SpawnFailed,
        ];
        for (i, r) in rows.iter_mut().enumerate() {
            match i % 7 {
                0 => r.evicted = Some(i % 2 == 0),
                1 => r.hwm_kib = Some(i as u64),
                2 => r.majflt = None,
                3 if !r.is_ok() => r.status = statuses[i % statuses.len()],
                4 => r.variant = Variant::Native,
                5 => r.exit_code = Some(-(i as i32)),
                _ => {}
            }
        }
        rows
    }

    #[test]
    fn reads_what_the_serde_rows_hold() {
        let dir = tmp("same");
        let path = dir.join("samples.csv");
        let rows = varied_rows();
        write_rows(&path, &rows).unwrap();
        let (read, note) = Samples::read(&path, Measure::Time).unwrap();
        assert_eq!(note, None);
        let (back, _) = read_rows::<SampleRow>(&path).unwrap();
        assert_eq!(back, rows);
        let expected = Samples::from_rows(&rows);
        assert_eq!(read, expected);
        assert_eq!(read.len(), rows.len());
        assert!(read.cells.keys().any(|k| k.variant == Variant::Native));
        // first_seen is the order of the cells' first rows
        let mut seen = Vec::new();
        for r in &rows {
            if !seen.contains(&r.cell()) {
                seen.push(r.cell());
            }
        }
        assert_eq!(read.first_seen, seen);
        let plan = synth(SynthOptions {
            samples: 600,
            seed: 4,
            ..SynthOptions::default()
        })
        .plan;
        write_rows(&dir.join("plan.csv"), &plan).unwrap();
        let (read, _) = Plan::read(&dir.join("plan.csv")).unwrap();
        assert_eq!(read, Plan::from_rows(&plan));
        assert_eq!(read.len(), plan.len());
    }

    #[test]
    fn the_same_cell_written_two_ways_is_one_cell() {
        let dir = tmp("spelling");
        let path = dir.join("samples.csv");
        let row = |block: u32| SampleRow {
            plan_index: u64::from(block),
            block,
            codec: "a".into(),
            batch: 10,
            fixture: "f".into(),
            ..Default::default()
        };
        write_rows(&path, &[row(0), row(1), row(2)]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        // the second row's batch as +10, the third's plan_index in hex: still the same cell
        let text = text.replacen("1,1,a,de,10,", "1,1,a,de,+10,", 1);
        let text = text.replacen("2,2,a,de,10,", "0x2,2,a,de,10,", 1);
        std::fs::write(&path, text).unwrap();
        let (read, _) = Samples::read(&path, Measure::Time).unwrap();
        assert_eq!(read.cells.len(), 1);
        let blocks: Vec<u32> = read
            .cells
            .values()
            .next()
            .unwrap()
            .iter()
            .map(|s| s.block)
            .collect();
        assert_eq!(blocks, [0, 1, 2]);
    }

    #[test]
    fn a_bad_field_is_an_error_naming_file_line_and_column() {
        let dir = tmp("bad");
        let path = dir.join("samples.csv");
        let rows = synth(SynthOptions {
            samples: 57,
            seed: 1,
            ..SynthOptions::default()
        })
        .samples;
        write_rows(&path, &rows).unwrap();
        let good = std::fs::read_to_string(&path).unwrap();
        let third = good.lines().nth(2).unwrap().to_string();
        let fields: Vec<&str> = third.split(',').collect();
        let header: Vec<&str> = good.lines().next().unwrap().split(',').collect();
        for (column, value, said) in [
            ("batch", "ten", "batch: `ten` is not a whole number"),
            (
                "batch",
                "4294967296",
                "batch: `4294967296` is larger than 32 bits",
            ),
            ("op", "parse", "op: unknown op `parse`"),
            ("variant", "fast", "variant: unknown variant `fast`"),
            ("status", "fine", "status: unknown status `fine`"),
            ("wall_ns", "-5", "wall_ns: `-5` is not a whole number"),
            ("user_us", "1.5", "user_us: `1.5` is not a whole number"),
            ("exit_code", "x", "exit_code: `x` is not a valid value"),
            ("evicted", "yes", "evicted: `yes` is not a valid value"),
        ] {
            let i = header.iter().position(|h| *h == column).unwrap();
            let mut spoiled = fields.clone();
            spoiled[i] = value;
            let text = good.replacen(&third, &spoiled.join(","), 1);
            std::fs::write(&path, text).unwrap();
            let e = format!("{:#}", Samples::read(&path, Measure::Time).unwrap_err());
            assert!(e.contains("samples.csv: line 3: "), "{e}");
            assert!(e.contains(said), "{e}");
        }
    }

    fn counted_rows() -> Vec<SampleRow> {
        synth(SynthOptions {
            samples: 57 * 2,
            seed: 3,
            fail_rate: 0.05,
            measure: Measure::Instructions,
            ..SynthOptions::default()
        })
        .samples
    }

    #[test]
    fn a_counted_run_reads_with_its_counts_in_a_side_table() {
        let dir = tmp("counted");
        let path = dir.join("samples.csv");
        let rows = counted_rows();
        write_rows(&path, &rows).unwrap();
        let (read, _) = Samples::read(&path, Measure::Instructions).unwrap();
        assert_eq!(read, Samples::from_rows(&rows));
        assert!(read.has_counts() && !read.has_times());
        // one Counts per ok sample, none for a failed one, each as the row gave it
        let ok = rows.iter().filter(|r| r.is_ok()).count();
        assert!(ok < rows.len());
        assert_eq!(read.counts.values().map(Vec::len).sum::<usize>(), ok);
        let r = rows.iter().find(|r| r.is_ok()).unwrap();
        let counts = read.counts_of(&r.cell());
        assert!(counts.iter().all(|c| *c == Counts::of_row(r)));
        assert_eq!(
            counts[0].init_plus_ops(),
            Some(
                r.instr_init.unwrap() + r.instr_first_op.unwrap() + r.instr_remaining_ops.unwrap()
            )
        );
        // a timed run keeps no side table, and a sample is no larger than it was
        let timed = Samples::from_rows(&varied_rows());
        assert!(timed.counts.is_empty() && !timed.has_counts() && timed.has_times());
        assert!(
            std::mem::size_of::<Sample>() <= 144,
            "{}",
            std::mem::size_of::<Sample>()
        );
    }

    #[test]
    fn a_counted_run_lacking_a_count_column_or_holding_an_absurd_count_is_refused() {
        let dir = tmp("counted-bad");
        let path = dir.join("samples.csv");
        let rows = counted_rows();
        write_rows(&path, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let col = header.iter().position(|h| *h == "instr_first_op").unwrap();
        // without the column: refused as a counted run, read as a timed one (older files)
        let without: String = text
            .lines()
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(col);
                f.join(",") + "\n"
            })
            .collect();
        std::fs::write(&path, &without).unwrap();
        let e = format!(
            "{:#}",
            Samples::read(&path, Measure::Instructions).unwrap_err()
        );
        assert!(
            e.contains("samples.csv: the header line lacks the column instr_first_op, which the analysis needs"),
            "{e}"
        );
        assert!(Samples::read(&path, Measure::Time).is_ok());
        // a count above 10^15 on line 3
        let third = text.lines().nth(2).unwrap();
        let mut f: Vec<&str> = third.split(',').collect();
        f[col] = "1000000000000001";
        std::fs::write(&path, text.replacen(third, &f.join(","), 1)).unwrap();
        let e = format!(
            "{:#}",
            Samples::read(&path, Measure::Instructions).unwrap_err()
        );
        assert!(e.contains("samples.csv: line 3: "), "{e}");
        assert!(
            e.contains("instr_first_op = 1000000000000001 is above 10^15: not a count"),
            "{e}"
        );
    }
}
