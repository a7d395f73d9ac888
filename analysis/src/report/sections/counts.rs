//! A counted run's sections (`cold run --measure instructions`): the instructions of each phase
//! per cell with the samples' agreement and the ratios to the reference, the allocations of the
//! library's phases, the timed run beside the counts (with `--timed`), what instructions do not
//! show, and the one sentence that stands for the timing sections a counted run cannot have.

use super::common::*;
use crate::analyze::beside::Beside;
use crate::analyze::cells::{allocation_figures, CellKey, Spread};
use crate::stats::spearman::Spearman;
use schema::phases::{Figure, Phase};

/// What instruction counts leave out, for the reader of a counted report.
pub(crate) const NOT_SHOWN: [&str; 8] = [
    "Page faults, and the kernel's share of exec and of page faults: callgrind counts the instructions the process executes in user space, not the kernel's work for it.",
    "Cache and TLB misses: an instruction that waits for memory counts as one, like one that does not.",
    "Branch mispredictions.",
    "Memory bandwidth.",
    "Frequency and SMT effects: a count is the same on a throttled core, a turbo core or one shared with another thread.",
    "Time waiting on I/O.",
    "How long an instruction takes: a division counts as much as an addition, a SIMD instruction as much as a scalar one.",
    "Valgrind emulates a CPU of its own, whose features (no AVX-512, among others) decide which SIMD paths a library that detects CPU features at run time takes: such a library runs its code for Valgrind's CPU, which need not be the path it takes natively.",
];

/// A count for a table: whole numbers with separators (a median of an even number of samples
/// may end in .5).
fn count_cell(v: Option<f64>) -> Cell {
    v.map_or(Cell::toned("—", Tone::Muted), |v| {
        format::amount(v).into()
    })
}

/// "47,449" when every sample agreed, "47,300 (47,196–47,449)" otherwise.
fn spread_cell(s: Option<&Spread>) -> Cell {
    match s {
        None => Cell::toned("—", Tone::Muted),
        Some(s) if s.identical() => format::amount(s.median).into(),
        Some(s) => format!(
            "{} ({}–{})",
            format::amount(s.median),
            format::count(s.min as f64),
            format::count(s.max as f64)
        )
        .into(),
    }
}

/// A cell's figure over the reference's same cell (`of` reads the figure): exact when both
/// cells' samples agreed, else marked.
fn ratio_cell(r: &Report, c: &CellSummary, of: impl Fn(&CellSummary) -> Option<f64>) -> Cell {
    if Some(c.key.codec.as_str()) == r.reference.as_deref() {
        return Cell::toned("reference", Tone::Muted);
    }
    if r.is_baseline(&c.key.codec) {
        return Cell::toned("harness floor", Tone::Muted);
    }
    let Some(reference) = r
        .reference
        .as_deref()
        .and_then(|x| r.cell(&c.key.with_codec(x)))
    else {
        return Cell::toned("—", Tone::Muted);
    };
    match (of(c), of(reference)) {
        (Some(x), Some(y)) if y > 0.0 => {
            let x = x / y;
            if c.identical && reference.identical {
                let tone = if x < 1.0 {
                    Tone::Good
                } else if x > 1.0 {
                    Tone::Bad
                } else {
                    Tone::Plain
                };
                Cell::toned(format::ratio(x), tone)
            } else {
                Cell::new(format!("{} (samples differ)", format::ratio(x)))
            }
        }
        _ => Cell::toned("—", Tone::Muted),
    }
}

fn n_cell(c: &CellSummary) -> Cell {
    let text = if c.counted() == c.ok {
        c.ok.to_string()
    } else {
        format!("{} of {} ok", c.counted(), c.ok)
    };
    if c.failed > 0 || c.counted() < c.ok {
        Cell::toned(format!("{text} ({} failed)", c.failed), Tone::Bad)
    } else {
        Cell::new(text)
    }
}

/// Per cell of a scenario: n, whether the samples agreed, the instructions of each phase,
/// init+ops, and the ratios to the reference.
pub(crate) fn counts_table(r: &Report, s: &Scenario) -> Table {
    let refname = r.reference.as_deref().unwrap_or("reference");
    let vs_ipo = format!(">init+ops vs {refname}");
    let vs_first = format!(">{} vs {refname}", Phase::FirstOp);
    let phases: Vec<String> = Phase::ALL.iter().map(|p| format!(">{p}")).collect();
    let mut header = vec![">batch", "codec", ">n", "samples"];
    header.extend(phases.iter().map(String::as_str));
    header.extend([">init+ops", vs_ipo.as_str(), vs_first.as_str()]);
    let mut t = Table::new(&header);
    let mut cells: Vec<&CellSummary> = cells_of(r, s).collect();
    cells.sort_by(|a, b| {
        let m = |c: &CellSummary| c.init_plus_ops.as_ref().map_or(f64::INFINITY, |d| d.median);
        a.key.batch.cmp(&b.key.batch).then(m(a).total_cmp(&m(b)))
    });
    for c in cells {
        let tone = if c.identical { Tone::Plain } else { Tone::Bad };
        let mut row = vec![
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            n_cell(c),
            Cell::toned(c.agreement(format::count), tone),
        ];
        row.extend(Phase::ALL.iter().map(|&p| count_cell(c.phase(p))));
        row.push(count_cell(c.init_plus_ops.as_ref().map(|d| d.median)));
        row.push(ratio_cell(r, c, |x| {
            x.init_plus_ops.as_ref().map(|d| d.median)
        }));
        row.push(ratio_cell(r, c, |x| x.phase(Phase::FirstOp)));
        t.row(row);
    }
    t
}

/// Per cell of a scenario: heap blocks and bytes of init, first_op and the remaining ops.
fn allocations_table(r: &Report, s: &Scenario) -> Table {
    let columns: Vec<(Figure, String)> = allocation_figures().collect();
    let mut header = vec![">batch".to_string(), "codec".to_string()];
    header.extend(columns.iter().map(|(_, label)| format!(">{label}")));
    let mut t = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
    for c in cells_of(r, s) {
        let mut row = vec![c.key.batch.to_string().into(), c.key.codec.clone().into()];
        row.extend(
            columns
                .iter()
                .map(|(f, _)| spread_cell(c.allocations.get(f.column()))),
        );
        t.row(row);
    }
    t
}

/// "ρ = +0.93 (n = 12, p = 0.0001)", or why there is none.
fn rho_text(rho: Option<Spearman>, cells: usize) -> String {
    match rho {
        Some(s) => {
            let p = format::p(s.p);
            let p = match p.strip_prefix('<') {
                Some(bound) => format!("p < {bound}"),
                None => format!("p = {p}"),
            };
            format!("ρ = {:+.2} (n = {} cells, {p})", s.rho, s.n)
        }
        None if cells < 4 => format!("no ρ: {cells} cells hold both, fewer than the 4 it needs"),
        None => format!("no ρ: one side is the same in all {cells} cells"),
    }
}

fn beside_blocks(b: &Beside) -> Vec<Block> {
    let mut out = vec![
        h(3, "Instructions beside times"),
        p(format!(
            "The timed run {} has {} of these cells. Across them, Spearman's rank correlation between {first} instructions and the timed median {first}: {}; between init+ops instructions and the timed median init_plus_ops: {}. A ρ near 1 says the counts order the cells as the clock does; where a cell's time is out of line with its count, the difference is what instructions do not show (below).",
            b.timed_dir,
            b.rows.len(),
            rho_text(b.first_op, b.first_op_cells),
            rho_text(b.init_plus_ops, b.init_plus_ops_cells),
            first = Phase::FirstOp,
        )),
    ];
    if !b.only_counted.is_empty() || !b.only_timed.is_empty() {
        let names = |v: &[CellKey]| v.iter().map(CellKey::label).collect::<Vec<_>>().join("; ");
        let mut items = Vec::new();
        if !b.only_counted.is_empty() {
            items.push(format!(
                "Only in the counted run ({}): {}.",
                b.only_counted.len(),
                names(&b.only_counted)
            ));
        }
        if !b.only_timed.is_empty() {
            items.push(format!(
                "Only in the timed run ({}): {}.",
                b.only_timed.len(),
                names(&b.only_timed)
            ));
        }
        out.push(Block::List(items));
    }
    let mut t = Table::new(&[
        "fixture",
        "op",
        "variant",
        ">batch",
        "codec",
        ">init+ops instructions",
        ">init_plus_ops time",
        &format!(">{} instructions", Phase::FirstOp),
        &format!(">{} time", Phase::FirstOp),
        ">n timed",
    ]);
    let time = |v: Option<f64>| v.map_or(Cell::toned("—", Tone::Muted), |v| format::ns(v).into());
    for row in &b.rows {
        t.row(vec![
            row.key.fixture.clone().into(),
            row.key.op.into(),
            row.key.variant.into(),
            row.key.batch.to_string().into(),
            row.key.codec.clone().into(),
            count_cell(row.instr_init_plus_ops),
            time(row.init_plus_ops_ns),
            count_cell(row.instr_first_op),
            time(row.first_op_ns),
            row.n_timed.to_string().into(),
        ]);
    }
    out.push(Block::Table(t));
    out
}

/// The counts' sections: the headline of a counted report.
pub(super) fn counts(r: &Report) -> Vec<Block> {
    let how = r
        .counting
        .as_ref()
        .map_or("Valgrind's callgrind".to_string(), |c| {
            format!(
                "{} ({}, options {})",
                c.valgrind,
                c.tool,
                c.options.join(" ")
            )
        });
    let refname = r.reference.as_deref().unwrap_or("the reference");
    let (library, sum) = (Phase::library_names(", "), Phase::library_names(" + "));
    let mut out = vec![
        h(2, "Instruction counts"),
        p(format!(
            "This run counted instead of timing: each sample's child ran under {how}, its instructions cut into the protocol's phases at the child's clock reads, and once more natively with a counter of heap allocations per phase. A count is exact and, for a library's phases ({library}), the same in every sample of a cell: \"identical ×n\" says all n samples agreed to the instruction, otherwise the range of each phase that differed is shown. Figures are medians over the samples (no interval: there is no noise to bound). spawn_to_main is exec to main (the dynamic loader and the runtime's start); it moves by a few dozen instructions with the command line and the environment. init+ops = {sum}. The ratios are this codec's instructions over {refname}'s in the same cell: exact when both cells' samples agreed."
        )),
    ];
    for s in chart_data::scenarios(r) {
        out.push(h(3, scenario_title(&s)));
        out.push(Block::Table(counts_table(r, &s)));
    }
    out.push(h(3, "Heap allocations in the library's phases"));
    out.push(p("Blocks and bytes allocated in init, in the first operation and in the remaining ones, counted natively by an LD_PRELOAD counter (a realloc counts as a block of its new size); the range is shown where samples differed."));
    for s in chart_data::scenarios(r) {
        out.push(h(4, scenario_title(&s)));
        out.push(Block::Table(allocations_table(r, &s)));
    }
    if let Some(b) = &r.beside {
        out.extend(beside_blocks(b));
    }
    out.push(h(3, "What instructions do not show"));
    out.push(p("An instruction count is a measure of work that no other process, no frequency change and no cold cache can disturb, which is why it can be compared exactly. It is not time. It does not show:"));
    out.push(Block::List(
        NOT_SHOWN.iter().map(|s| s.to_string()).collect(),
    ));
    out
}

/// The one sentence that stands for the timing sections in a counted report.
pub(super) fn timing_skipped(r: &Report) -> Vec<Block> {
    let beside = if r.beside.is_some() {
        "the timed run's medians are beside the counts above"
    } else {
        "`analysis report COUNTED_RUN --timed TIMED_RUN` sets a timed run's medians beside the counts"
    };
    vec![
        h(2, "Timing"),
        p(format!("This run recorded no times (`--measure instructions`), so the sections that rest on them (the timing charts, the paired comparison against the reference, cold against warm with the break-even, and each cell's timing and process life) are left out; {beside}.")),
    ]
}

/// The counted headline as plain text for the terminal.
pub(crate) fn counted_text(r: &Report) -> String {
    let mut out = String::new();
    for s in chart_data::scenarios(r) {
        out.push_str(&format!("\n{} (instructions)\n", scenario_title(&s)));
        out.push_str(&crate::report::console::render(&counts_table(r, &s)));
    }
    if let Some(b) = &r.beside {
        out.push_str(&format!(
            "\nbeside {}: {} instructions against time, {}; init+ops against init_plus_ops, {}\n",
            b.timed_dir,
            Phase::FirstOp,
            rho_text(b.first_op, b.first_op_cells),
            rho_text(b.init_plus_ops, b.init_plus_ops_cells)
        ));
    }
    out
}
