//! plan.csv and samples.csv read back, by the one reader of each: the runner reads its rows back
//! whole ([`read_samples`]), the analysis into a compact store by cell
//! ([`crate::cell::Samples`]); both go through [`for_each_sample`], which refuses, with the
//! file, the line and the column, any row a run cannot write: a name out of bounds, a number
//! that is not a whole number, a figure no process can produce, a row that contradicts the plan.
//! The rows themselves are `schema::rows`'.

use anyhow::{anyhow, bail, ensure, Result};
use files::csv_rows::for_each_prepared;
use files::csv_split::Record;
use files::FileAt;
use schema::phases::{Figure, Phase};
use schema::rows::{check_name, Figures, PlanRow, SampleRow, IDENTITY, MAX_BATCH, MAX_ERROR, TAIL};
use schema::words::{CellKey, Op, Status, Variant};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One record of samples.csv as read: its cell (a number, see [`Cells`]), block, status,
/// figures and the rest, borrowed from the record.
pub struct SampleView<'r> {
    pub plan_index: u64,
    pub cell: usize,
    pub block: u32,
    pub status: Status,
    pub figures: &'r Figures,
    pub evicted: Option<bool>,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub checksum: &'r str,
    pub error: &'r str,
}

/// The cells met in a file, each once: the raw bytes of a record's identity fields map to the
/// cell's number, so a record's strings are compared, never copied.
#[derive(Default)]
pub struct Cells {
    by_raw: HashMap<Vec<u8>, usize>,
    by_key: HashMap<CellKey, usize>,
    pub keys: Vec<CellKey>,
    raw: Vec<u8>,
    /// By hint (see [`Cells::number_hinted`]): the raw identity last met under it, and its cell.
    hints: Vec<Option<(Vec<u8>, usize)>>,
}

/// The most distinct cells a file may hold (a run of every codec, op, batch, fixture and
/// several builds has a few thousand).
pub const MAX_CELLS: usize = 100_000;

impl Cells {
    /// The number of the cell of `rec`'s identity (columns `key`: codec, op, batch, fixture,
    /// variant), each field checked.
    fn number(&mut self, rec: &Record, key: [usize; 5]) -> Result<usize> {
        self.raw_of(rec, key);
        self.number_of_raw(rec, key)
    }

    /// [`Cells::number`] for a record whose cell is likely the one last met under `hint` (a
    /// number below [`MAX_CELLS`]: samples.csv's rows are hinted with their planned cell): when
    /// its identity's bytes are that one's, its number is known without a look-up.
    fn number_hinted(&mut self, rec: &Record, key: [usize; 5], hint: usize) -> Result<usize> {
        self.raw_of(rec, key);
        if let Some(Some((raw, id))) = self.hints.get(hint) {
            if *raw == self.raw {
                return Ok(*id);
            }
        }
        let id = self.number_of_raw(rec, key)?;
        if hint < MAX_CELLS {
            if self.hints.len() <= hint {
                self.hints.resize(hint + 1, None);
            }
            self.hints[hint] = Some((self.raw.clone(), id));
        }
        Ok(id)
    }

    /// `rec`'s identity fields into `raw`, each after its length.
    fn raw_of(&mut self, rec: &Record, key: [usize; 5]) {
        self.raw.clear();
        for col in key {
            let f = field(rec, col);
            self.raw.extend_from_slice(&(f.len() as u32).to_le_bytes());
            self.raw.extend_from_slice(f);
        }
    }

    /// The number of the cell whose identity `raw_of` put in `raw`.
    fn number_of_raw(&mut self, rec: &Record, key: [usize; 5]) -> Result<usize> {
        if let Some(&id) = self.by_raw.get(&self.raw[..]) {
            return Ok(id);
        }
        let [codec, op, batch, fixture, variant] = key;
        let key = CellKey {
            fixture: text(field(rec, fixture), "fixture")?.to_string(),
            op: Op::parse(text(field(rec, op), "op")?).map_err(|e| anyhow!("op: {e}"))?,
            variant: Variant::parse(text(field(rec, variant), "variant")?)
                .map_err(|e| anyhow!("variant: {e}"))?,
            batch: parse_u32(field(rec, batch), "batch")?,
            codec: text(field(rec, codec), "codec")?.to_string(),
        };
        check_name("codec", &key.codec)?;
        check_name("fixture", &key.fixture)?;
        ensure!(
            (1..=MAX_BATCH).contains(&key.batch),
            "batch {}: a child performs 1 to {MAX_BATCH} operations",
            key.batch
        );
        let next = self.keys.len();
        let id = *self.by_key.entry(key.clone()).or_insert(next);
        if id == next {
            ensure!(
                next < MAX_CELLS,
                "more than {MAX_CELLS} cells: not a run thaw writes"
            );
            self.keys.push(key);
        }
        self.by_raw.insert(self.raw.clone(), id);
        Ok(id)
    }
}

/// Reads samples.csv at `path` record by record, calling `each` with every row's view and the
/// cells met so far. A row whose plan index is not in `plan` (when given), or whose block or
/// cell is not the plan's at that index, or whose plan index came before, is an error naming the
/// line. Returns the note about a torn last row, if any. A file whose header lacks the identity,
/// the status, or one of `required` is refused, naming what it lacks.
pub fn for_each_sample(
    path: impl Into<FileAt>,
    plan: Option<&Plan>,
    required: &[Figure],
    mut each: impl FnMut(SampleView, &Cells) -> Result<()>,
) -> Result<(Cells, Option<String>)> {
    let path = &path.into();
    let mut cells = Cells::default();
    let mut against = AgainstPlan::new(plan);
    let cells_ref = &mut cells;
    let note = for_each_prepared(path, |headers| {
        let older = before_model(headers);
        let mut wanted: Vec<&str> = IDENTITY.to_vec();
        wanted.push("status");
        wanted.extend(
            required
                .iter()
                .filter(|f| !older.iter().any(|(m, _)| m == *f))
                .map(|f| f.column()),
        );
        let cols = Columns::find(path, headers, &wanted)?;
        let key = [2, 3, 4, 5, 6].map(|i| cols.required(IDENTITY[i]));
        let (plan_col, block_col, status_col) = (
            cols.required("plan_index"),
            cols.required("block"),
            cols.required("status"),
        );
        // (slot in `Figures`, column, name) of each figure the file has
        let figures: Vec<(usize, usize, &str)> = Figure::all()
            .iter()
            .enumerate()
            .filter_map(|(slot, &f)| Some((slot, cols.optional(f.column())?, f.column())))
            .collect();
        let tail = TAIL.map(|c| cols.optional(c));
        let mut statuses = Statuses::default();
        // A row's figures are parsed and checked in the thread that splits the file, the rest
        // here; their error, if any, is told where one thread would have met it.
        let prepare = move |rec: &Record| -> Result<Figures> {
            let mut values = Figures::default();
            for &(slot, col, name) in &figures {
                values.set_at(slot, parse_u64_opt(rec, Some(col), name)?);
            }
            for &(model, fixture) in &older {
                values.set(model, values.get(fixture).map(|_| 0));
            }
            values.check()?;
            Ok(values)
        };
        let per_row = move |rec: &Record, values: &mut Result<Figures>| -> Result<()> {
            let plan_index = parse_u64(field(rec, plan_col), "plan_index")?;
            let block = parse_u32(field(rec, block_col), "block")?;
            let cell = match against.cell_hint(plan_index) {
                Some(hint) => cells_ref.number_hinted(rec, key, hint)?,
                None => cells_ref.number(rec, key)?,
            };
            against.check(plan_index, block, cell, cells_ref)?;
            let status = statuses.parse(field(rec, status_col))?;
            // the row's error is told once, so it is taken rather than copied
            let figures = match values {
                Ok(figures) => &*figures,
                Err(e) => return Err(std::mem::replace(e, anyhow!("told already"))),
            };
            let view = view_of(rec, &tail, (plan_index, cell, block), status, figures)?;
            each(view, cells_ref)
        };
        Ok((prepare, per_row))
    })?;
    Ok((cells, note))
}

/// What samples.csv's rows have shown of the plan so far: which planned samples have a row (or,
/// without a plan, which plan indices), and each of the file's cell numbers as the plan's.
struct AgainstPlan<'p> {
    plan: Option<&'p Plan>,
    /// By position in the plan: the sample has a row.
    seen: Vec<bool>,
    /// Without a plan: the plan indices that have a row.
    seen_any: std::collections::HashSet<u64>,
    plan_numbers: HashMap<&'p CellKey, u32>,
    /// Each of the file's cell numbers, as the plan numbers it (looked up once).
    in_plan: Vec<Option<u32>>,
}

impl<'p> AgainstPlan<'p> {
    fn new(plan: Option<&'p Plan>) -> Self {
        AgainstPlan {
            plan,
            seen: plan.map_or_else(Vec::new, |p| vec![false; p.len()]),
            seen_any: std::collections::HashSet::new(),
            plan_numbers: plan.map(Plan::numbers).unwrap_or_default(),
            in_plan: Vec::new(),
        }
    }

    /// The planned cell of `plan_index`, if the plan has the row: most likely the row's own.
    fn cell_hint(&self, plan_index: u64) -> Option<usize> {
        let plan = self.plan?;
        plan.position(plan_index)
            .map(|at| plan.samples[at].1 as usize)
    }

    /// An error unless the row of `plan_index` (in `block`, of the file's `cell`) is the plan's
    /// and the first row of its sample.
    fn check(&mut self, plan_index: u64, block: u32, cell: usize, cells: &Cells) -> Result<()> {
        let Some(plan) = self.plan else {
            ensure!(
                self.seen_any.insert(plan_index),
                "plan index {plan_index} has a row already: a sample is written once"
            );
            return Ok(());
        };
        let position = plan.position(plan_index).ok_or_else(|| {
            anyhow!(
                "plan_index {plan_index} is not in plan.csv ({} planned samples)",
                plan.len()
            )
        })?;
        let (planned_block, planned_number) = plan.samples[position];
        // this file's cell numbers are not the plan's: each is looked up once
        if self.in_plan.len() <= cell {
            let k = &cells.keys[cell];
            self.in_plan.push(self.plan_numbers.get(k).copied());
        }
        let planned = &plan.cells[planned_number as usize];
        let k = &cells.keys[cell];
        ensure!(
            planned_block == block && self.in_plan[cell] == Some(planned_number),
            "plan index {plan_index} is {} in block {planned_block} in plan.csv, but this \
             row says {} in block {block}",
            planned.label(),
            k.label()
        );
        ensure!(
            !std::mem::replace(&mut self.seen[position], true),
            "plan index {plan_index} has a row already: a sample is written once"
        );
        Ok(())
    }
}

/// The statuses met in a file, each parsed once from its raw bytes.
#[derive(Default)]
struct Statuses(Vec<(Vec<u8>, Status)>);

impl Statuses {
    fn parse(&mut self, raw: &[u8]) -> Result<Status> {
        if let Some((_, s)) = self.0.iter().find(|(r, _)| r == raw) {
            return Ok(*s);
        }
        let s = Status::parse(text(raw, "status")?).map_err(|e| anyhow!("status: {e}"))?;
        self.0.push((raw.to_vec(), s));
        Ok(s)
    }
}

/// A row's view: its place (plan index, cell, block), status and figures, and the columns after
/// the figures (`tail`: [`TAIL`]'s columns, where the file has them), each checked.
fn view_of<'r>(
    rec: &'r Record,
    tail: &[Option<usize>; TAIL.len()],
    (plan_index, cell, block): (u64, usize, u32),
    status: Status,
    figures: &'r Figures,
) -> Result<SampleView<'r>> {
    let opt = |i: usize| tail[i].map(|c| field(rec, c)).filter(|f| !f.is_empty());
    let checksum = opt(3)
        .map(|f| text(f, "checksum"))
        .transpose()?
        .unwrap_or("");
    ensure!(
        checksum.is_empty()
            || (checksum.len() == 16 && checksum.bytes().all(|b| b.is_ascii_hexdigit())),
        "checksum `{}`: 16 hex digits or nothing",
        text::clip(checksum, 20)
    );
    Ok(SampleView {
        plan_index,
        cell,
        block,
        status,
        figures,
        evicted: opt(0).map(|f| parse(f, "evicted")).transpose()?,
        exit_code: opt(1).map(|f| parse(f, "exit_code")).transpose()?,
        signal: opt(2).map(|f| parse(f, "signal")).transpose()?,
        checksum,
        error: opt(4).map(|f| text(f, "error")).transpose()?.unwrap_or(""),
    })
}

/// Every row of samples.csv at `path`, checked against `plan` when given, and the note about a
/// torn last row.
pub fn read_samples(
    path: impl Into<FileAt>,
    plan: Option<&[PlanRow]>,
) -> Result<(Vec<SampleRow>, Option<String>)> {
    let path = &path.into();
    let plan = plan.map(Plan::of);
    let mut rows = Vec::new();
    let (_, note) = for_each_sample(path, plan.as_ref(), &[], |v, cells| {
        let k = &cells.keys[v.cell];
        rows.push(SampleRow {
            plan_index: v.plan_index,
            block: v.block,
            codec: k.codec.clone(),
            op: k.op,
            batch: k.batch,
            fixture: k.fixture.clone(),
            variant: k.variant,
            status: v.status,
            figures: *v.figures,
            evicted: v.evicted,
            exit_code: v.exit_code,
            signal: v.signal,
            checksum: (!v.checksum.is_empty()).then(|| v.checksum.to_string()),
            error: (!v.error.is_empty()).then(|| text::clip(v.error, MAX_ERROR)),
        });
        Ok(())
    })?;
    Ok((rows, note))
}

/// Every row of plan.csv at `path`, each checked, and the note about a torn last row. A plan
/// numbers its samples consecutively: from 0, or, for a shard (`cold run --shard`), from its
/// first block's first index in the whole plan.
pub fn read_plan(path: impl Into<FileAt>) -> Result<(Vec<PlanRow>, Option<String>)> {
    let path = &path.into();
    let mut rows: Vec<PlanRow> = Vec::new();
    let note = for_each_plan_row(path, |row| {
        rows.push(row);
        Ok(())
    })?;
    Ok((rows, note))
}

/// Calls `each` on every row of plan.csv at `path`, each checked as [`read_plan`] says, without
/// holding the file.
fn for_each_plan_row(
    path: impl Into<FileAt>,
    mut each: impl FnMut(PlanRow) -> Result<()>,
) -> Result<Option<String>> {
    let path = &path.into();
    let mut next: Option<u64> = None;
    files::csv_rows::for_each_row(path, |row: PlanRow| {
        row.check()?;
        if let Some(next) = next {
            ensure!(
                row.plan_index == next,
                "plan_index {} where {next} comes next: a plan numbers its samples one after \
                 another",
                row.plan_index,
            );
        }
        next = Some(row.plan_index + 1);
        each(row)
    })
}

/// A plan held compactly, for reading a large run: each cell once, and each planned sample's
/// block and cell number, in plan order from its first plan index. Eight bytes a sample, where
/// a [`PlanRow`] holds two strings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    first: u64,
    cells: Vec<CellKey>,
    /// (block, number of the cell in `cells`), by position in the plan.
    samples: Vec<(u32, u32)>,
}

impl Plan {
    /// The plan of `rows` (consecutive plan indices, as [`read_plan`] returns them).
    pub fn of(rows: &[PlanRow]) -> Plan {
        let mut plan = Plan::default();
        let mut numbers = HashMap::new();
        for row in rows {
            plan.push(&mut numbers, row.plan_index, row.block, row.cell());
        }
        plan
    }

    /// Reads plan.csv at `path` (the rules of [`read_plan`]); returns the note about a torn
    /// last row, if any. Its fields are parsed from the record's bytes, as samples.csv's are:
    /// a cell's strings are made once, not once a row.
    pub fn read(path: impl Into<FileAt>) -> Result<(Plan, Option<String>)> {
        let path = &path.into();
        let mut plan = Plan::default();
        let mut cells = Cells::default();
        let (plan_ref, cells_ref) = (&mut plan, &mut cells);
        let mut next: Option<u64> = None;
        let note = files::csv_rows::for_each_record(path, |headers| {
            let cols = Columns::find(path, headers, &IDENTITY)?;
            let key = [2, 3, 4, 5, 6].map(|i| cols.required(IDENTITY[i]));
            let (index_col, block_col) = (cols.required(IDENTITY[0]), cols.required(IDENTITY[1]));
            Ok(move |rec: &Record| -> Result<()> {
                let index = parse_u64(field(rec, index_col), IDENTITY[0])?;
                let block = parse_u32(field(rec, block_col), IDENTITY[1])?;
                let cell = cells_ref.number(rec, key)?;
                if let Some(next) = next {
                    ensure!(
                        index == next,
                        "plan_index {index} where {next} comes next: a plan numbers its samples \
                         one after another",
                    );
                }
                next = Some(index + 1);
                if plan_ref.samples.is_empty() {
                    plan_ref.first = index;
                }
                plan_ref.samples.push((block, cell as u32));
                Ok(())
            })
        })?;
        plan.cells = cells.keys;
        Ok((plan, note))
    }

    /// The number of each of the plan's cells, by cell.
    fn numbers(&self) -> HashMap<&CellKey, u32> {
        self.cells.iter().zip(0..).collect()
    }

    fn push(&mut self, numbers: &mut HashMap<CellKey, u32>, index: u64, block: u32, key: CellKey) {
        if self.samples.is_empty() {
            self.first = index;
        }
        let next = self.cells.len() as u32;
        let number = *numbers.entry(key).or_insert_with_key(|key| {
            self.cells.push(key.clone());
            next
        });
        self.samples.push((block, number));
    }

    /// How many planned samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The sample planned at `plan_index`: its position in the plan, its block and its cell.
    pub fn get(&self, plan_index: u64) -> Option<(usize, u32, &CellKey)> {
        let position = self.position(plan_index)?;
        let (block, cell) = self.samples[position];
        Some((position, block, &self.cells[cell as usize]))
    }

    /// The position in the plan of the sample planned at `plan_index`.
    fn position(&self, plan_index: u64) -> Option<usize> {
        let position = usize::try_from(plan_index.checked_sub(self.first)?).ok()?;
        (position < self.samples.len()).then_some(position)
    }

    /// The planned samples counted by cell.
    pub fn count(&self) -> PlanCount {
        let mut per_cell = vec![0usize; self.cells.len()];
        for &(_, cell) in &self.samples {
            per_cell[cell as usize] += 1;
        }
        PlanCount {
            cells: self.cells.iter().cloned().zip(per_cell).collect(),
            count: self.samples.len(),
        }
    }
}

/// The planned samples of a run, counted by cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanCount {
    pub cells: BTreeMap<CellKey, usize>,
    /// How many planned samples, over all cells.
    pub count: usize,
}

impl PlanCount {
    pub fn of(rows: &[PlanRow]) -> PlanCount {
        let mut out = PlanCount::default();
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
}

/// The figures of the `model` phase that a samples.csv written before that phase existed lacks,
/// each with the same quantity's `fixture` figure, which its header has: that file's `fixture`
/// ran from `main`, so it holds the model's work and its model phase reads as 0 (the sums, the
/// process and the wall, stay exact).
fn before_model(headers: &Record) -> Vec<(Figure, Figure)> {
    let has = |column: &str| headers.iter().any(|h| h == column.as_bytes());
    Figure::all()
        .iter()
        .filter_map(|&f| match f {
            Figure::Of(q, Phase::Model) => {
                let fixture = Figure::Of(q, Phase::Fixture);
                let fixture = fixture.slot().map(|_| fixture)?;
                (!has(f.column()) && has(fixture.column())).then_some((f, fixture))
            }
            _ => None,
        })
        .collect()
}

/// Where each column is in a file's header.
struct Columns {
    index: HashMap<String, usize>,
}

impl Columns {
    /// The columns of `headers`; an error naming `path` and every column of `required` that is
    /// missing. An empty header (an empty file: no row was ever written) has every column.
    fn find(path: &Path, headers: &Record, required: &[&str]) -> Result<Columns> {
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
                    "{}: the header line lacks the column{} {}",
                    path.display(),
                    if missing.len() == 1 { "" } else { "s" },
                    missing.join(", ")
                );
            }
        }
        Ok(Columns { index })
    }

    /// A column [`Columns::find`] checked (`usize::MAX` in an empty file, which has no record
    /// to read it from).
    fn required(&self, name: &str) -> usize {
        self.optional(name).unwrap_or(usize::MAX)
    }

    fn optional(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }
}

/// Field `col` of `rec` (empty when the record is short).
fn field(rec: &Record, col: usize) -> &[u8] {
    rec.get(col).unwrap_or(b"")
}

fn text<'a>(raw: &'a [u8], name: &str) -> Result<&'a str> {
    std::str::from_utf8(raw).map_err(|_| anyhow!("{name}: not valid UTF-8"))
}

/// A whole number in decimal digits (a leading `+` allowed, as Rust's parser allows; or in hex
/// after `0x`, as the csv crate's serde reader allows).
#[inline]
fn parse_u64(raw: &[u8], name: &str) -> Result<u64> {
    // the common case, a reader's hot loop: 1 to 19 decimal digits, which no 64-bit number
    // overflows, read without a branch per digit; anything else takes the full rules
    if (1..=19).contains(&raw.len()) {
        let (mut value, mut digits) = (0u64, true);
        for &b in raw {
            let d = b.wrapping_sub(b'0');
            digits &= d <= 9;
            value = value.wrapping_mul(10).wrapping_add(u64::from(d));
        }
        if digits {
            return Ok(value);
        }
    }
    parse_u64_in_full(raw, name)
}

/// [`parse_u64`] for any spelling, and the error naming what is wrong.
#[cold]
fn parse_u64_in_full(raw: &[u8], name: &str) -> Result<u64> {
    // std's parser takes what the fast path does not: a leading `+`, more than 19 digits
    let text = std::str::from_utf8(raw).ok();
    let number = match text.and_then(|t| t.strip_prefix("0x")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.and_then(|t| t.parse::<u64>().ok()),
    };
    number.ok_or_else(|| {
        anyhow!(
            "{name}: `{}` is not a whole number of at most 64 bits",
            text::clip(&String::from_utf8_lossy(raw), 40)
        )
    })
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
fn parse_u64_opt(rec: &Record, col: Option<usize>, name: &str) -> Result<Option<u64>> {
    match col.map(|c| field(rec, c)) {
        None | Some(b"") => Ok(None),
        Some(raw) => parse_u64(raw, name).map(Some),
    }
}

fn parse<T: std::str::FromStr>(raw: &[u8], name: &str) -> Result<T> {
    text(raw, name)?.parse().map_err(|_| {
        anyhow!(
            "{name}: `{}` is not a valid value",
            text::clip(&String::from_utf8_lossy(raw), 40)
        )
    })
}

#[cfg(test)]
mod tests;
