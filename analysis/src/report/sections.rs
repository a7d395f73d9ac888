//! The report's layout: which sections, in which order, with which tables, charts and words.
//! Everything here reads the model; nothing computes a statistic.

use super::charts;
use super::doc::{Block, Cell, Table, Tone};
use super::format;
use super::model::Report;
use crate::analyze::cells::{CellSummary, PHASES};
use crate::analyze::coldwarm::{find_warm, BreakEven, Scenario};
use crate::analyze::contrasts::{ContrastRow, NOT_COMPARED};
use crate::analyze::warnings::{DRIFT_P, DRIFT_RHO, OUTLIER_SHARE};
use crate::stats::paired::Verdict;
use crate::stats::signed_rank::EXACT_MAX_N;

fn h(level: u8, s: impl Into<String>) -> Block {
    Block::Heading(level, s.into())
}

fn p(s: impl Into<String>) -> Block {
    Block::Para(s.into())
}

fn scenario_title(s: &Scenario) -> String {
    format!("{} · {} · {}", s.fixture, s.op, s.variant)
}

fn verdict_cell(v: Verdict) -> Cell {
    let tone = match v {
        Verdict::Faster => Tone::Good,
        Verdict::Slower => Tone::Bad,
        Verdict::NoDifference | Verdict::TooFewPairs => Tone::Muted,
    };
    Cell::toned(v.label(), tone)
}

/// The verdict of a contrast; "no difference" says why when the interval alone excludes 1
/// (the Holm-adjusted p is what held it back).
fn contrast_verdict(row: &ContrastRow) -> Cell {
    let excludes_one = row
        .contrast
        .as_ref()
        .and_then(|c| c.interval)
        .is_some_and(|(lo, hi)| hi < 1.0 || lo > 1.0);
    match (row.verdict, row.p_holm) {
        (Verdict::NoDifference, Some(p)) if excludes_one => Cell::toned(
            format!("no difference (Holm p = {})", format::p(p)),
            Tone::Muted,
        ),
        (v, _) => verdict_cell(v),
    }
}

fn median_ci(c: &CellSummary) -> String {
    c.init_plus_ops.as_ref().map_or("—".into(), |d| {
        format::ns_ci(d.median, d.median_lo, d.median_hi)
    })
}

fn contrast_cells(row: Option<&ContrastRow>) -> (Cell, Cell) {
    match row.and_then(|r| r.contrast.as_ref().map(|c| (r, c))) {
        Some((r, c)) => (
            Cell::new(format::ratio_ci(c.ratio, c.interval)),
            contrast_verdict(r),
        ),
        None => (Cell::toned("—", Tone::Muted), Cell::toned("", Tone::Muted)),
    }
}

fn cells_of<'a>(r: &'a Report, s: &'a Scenario) -> impl Iterator<Item = &'a CellSummary> {
    r.cells.iter().filter(move |c| {
        c.key.fixture == s.fixture && c.key.op == s.op && c.key.variant == s.variant
    })
}

/// The headline table of one scenario: batch, codec, n, median and interval, wall, vs reference,
/// verdict.
pub fn headline_table(r: &Report, s: &Scenario) -> Table {
    let refname = r.reference.as_deref().unwrap_or("reference");
    let vs = format!(">vs {refname} [95% CI]");
    let mut t = Table::new(&[
        ">batch",
        "codec",
        ">n ok",
        ">init_plus_ops median [95% CI]",
        ">wall median",
        &vs,
        "verdict",
    ]);
    let mut cells: Vec<&CellSummary> = cells_of(r, s).collect();
    cells.sort_by(|a, b| {
        let m = |c: &CellSummary| c.init_plus_ops.as_ref().map_or(f64::INFINITY, |d| d.median);
        a.key.batch.cmp(&b.key.batch).then(m(a).total_cmp(&m(b)))
    });
    for c in cells {
        let (ratio, verdict) = if Some(c.key.codec.as_str()) == r.reference.as_deref() {
            (Cell::toned("reference", Tone::Muted), Cell::new(""))
        } else if NOT_COMPARED.contains(&c.key.codec.as_str()) {
            (Cell::toned("harness floor", Tone::Muted), Cell::new(""))
        } else {
            contrast_cells(r.contrast(&c.key))
        };
        let n = if c.failed > 0 {
            Cell::toned(format!("{} ({} failed)", c.ok, c.failed), Tone::Bad)
        } else {
            Cell::new(c.ok.to_string())
        };
        t.row(vec![
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            n,
            median_ci(c).into(),
            c.wall
                .as_ref()
                .map_or("—".into(), |d| format::ns(d.median))
                .into(),
            ratio,
            verdict,
        ]);
    }
    t
}

fn intro(r: &Report) -> Vec<Block> {
    let cells = r.cells.len();
    let planned = if r.planned > 0 {
        format!(" of {} planned", format::count(r.planned as f64))
    } else {
        String::new()
    };
    let reference = r
        .reference
        .as_ref()
        .map_or("no reference codec".into(), |x| {
            format!("reference codec {x}")
        });
    vec![
        h(1, "thaw: cold start and steady state"),
        p(format!(
            "Run folder {}: {} samples{planned} in {cells} cells; {reference}; bootstrap seed {}.",
            r.run_dir,
            format::count(r.samples as f64),
            r.seed
        )),
    ]
}

fn warnings(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Warnings")];
    if r.warnings.is_empty() {
        out.push(p(format!(
            "None: the run finished, no sample failed, no codec failed verification, no cell drifted (|ρ| ≥ {DRIFT_RHO} with p < {DRIFT_P}) or had more than {:.0}% outliers.",
            OUTLIER_SHARE * 100.0
        )));
    } else {
        out.push(Block::Warnings(r.warnings.clone()));
    }
    out
}

fn headline(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Headline"),
        p("One row per cell: each sample is a fresh child process that performs `batch` operations. init_plus_ops is the library's whole cost in that process (its set-up, the first operation, the rest); wall is the process from spawn to reaped. The ratio is this codec's time over the reference's, paired within blocks."),
    ];
    for s in charts::scenarios(r) {
        out.push(h(3, scenario_title(&s)));
        out.push(Block::Table(headline_table(r, &s)));
    }
    out
}

fn how_to_read(r: &Report) -> Vec<Block> {
    let n_contrasts = r.contrasts.iter().filter(|c| c.contrast.is_some()).count();
    // The DOM codecs (by the style the manifest gives) whose `ser` children ran here.
    let dom: Vec<&str> = r
        .codecs
        .iter()
        .filter(|c| c.style == "dom")
        .map(|c| c.id.as_str())
        .filter(|id| {
            r.cells
                .iter()
                .any(|c| c.key.codec == *id && c.key.op == "ser")
        })
        .collect();
    let dom_list = if dom.is_empty() {
        "the DOM codecs".to_string()
    } else {
        dom.join(", ")
    };
    vec![
        h(2, "How to read this report"),
        Block::List(vec![
            "The process is the unit: one child process is one observation. The operations inside a child are never treated as independent samples.".into(),
            "Phases of a child's life: spawn_to_main (exec, loader, runtime start), fixture (reading or building the input, not charged to the library), init (the library's own set-up), first_op (the first call: cold code, lazy tables, CPU-feature dispatch, first allocations), remaining_ops (the other batch − 1 calls), check (the child computing the checksum of what it produced, outside every library phase), exit (drops, teardown, reaping). init_plus_ops = init + first_op + remaining_ops.".into(),
            format!("median [95% CI]: a seeded percentile bootstrap of the median ({} resamples, ChaCha8, seed {}). p90 and quartiles are type-7 quantiles (R and NumPy's default). MAD is unscaled (median |x − median|). Outliers are counted with Tukey's fences (1.5 and 3 IQR). Drift is Spearman's ρ of init_plus_ops against the block index.", r.resamples, r.seed),
            format!("Against the reference: in every block where both ran, the log ratio ln(codec / reference); its Hodges-Lehmann estimate (median of the Walsh averages) is shown as a ratio with a distribution-free 95% interval (order statistics of the Walsh averages; exact up to {EXACT_MAX_N} pairs). p is Wilcoxon's signed-rank test (exact up to {EXACT_MAX_N} pairs without ties, else normal with tie correction), Holm-adjusted across all {n_contrasts} comparisons of this report. The verdict says faster or slower only when the adjusted p is below {} and the interval lies wholly on one side of 1; otherwise no difference.", r.alpha),
            format!("DOM `ser` children ({dom_list}) have to start from their library's own tree, and build it with that library's parser during the fixture phase, before the timed region. That parser shares no code with the writer being timed, but it has run once in the process."),
            "noop reads its input and does nothing else: it is the harness floor every figure can be read against, and it is not compared.".into(),
        ]),
    ]
}

fn chart_blocks(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Charts"),
        p(format!("Every sample of init_plus_ops per codec and batch (log scale; at most {} points per cell are drawn, evenly spaced in rank, so the picture keeps its shape), and the median of each phase of a child's life at the smallest batch.", super::model::STRIP_POINTS)),
    ];
    for (i, s) in charts::scenarios(r).iter().enumerate() {
        out.push(h(3, scenario_title(s)));
        if let Some(svg) = charts::strip(r, s) {
            out.push(Block::Chart {
                file: format!("strip-{i}.svg"),
                title: format!("init_plus_ops samples, {}", scenario_title(s)),
                svg,
            });
        }
        let batch = cells_of(r, s).map(|c| c.key.batch).min().unwrap_or(1);
        if let Some(svg) = charts::phases(r, s, batch) {
            out.push(Block::Chart {
                file: format!("phases-{i}.svg"),
                title: format!("median phases at batch {batch}, {}", scenario_title(s)),
                svg,
            });
        }
    }
    out
}

fn against_reference(r: &Report) -> Vec<Block> {
    let Some(refname) = &r.reference else {
        return vec![
            h(2, "Against the reference"),
            p("No reference codec in this run (pass --reference CODEC)."),
        ];
    };
    let mut out = vec![
        h(2, format!("Against the reference ({refname})")),
        p("Ratio = codec time / reference time (init_plus_ops), paired within blocks: below 1 is faster."),
    ];
    let mut t = Table::new(&[
        "fixture",
        "op",
        ">batch",
        "codec",
        ">pairs",
        ">ratio [95% CI]",
        ">p",
        ">p (Holm)",
        "verdict",
    ]);
    for c in &r.contrasts {
        let (ratio, pairs, pv, ph) = match &c.contrast {
            Some(x) => (
                format::ratio_ci(x.ratio, x.interval),
                x.pairs.to_string(),
                format::p(x.test.p),
                c.p_holm.map_or("—".into(), format::p),
            ),
            None => ("—".into(), "0".into(), "—".into(), "—".into()),
        };
        t.row(vec![
            c.key.fixture.clone().into(),
            c.key.op.clone().into(),
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            pairs.into(),
            ratio.into(),
            pv.into(),
            ph.into(),
            contrast_verdict(c),
        ]);
    }
    out.push(Block::Table(t));
    out
}

fn break_even_text(b: &BreakEven) -> (String, String) {
    let first = b.cheaper_first.clone().unwrap_or_else(|| "tie".into());
    if b.crossings.is_empty() {
        let to = if b.searched_to >= crate::analyze::coldwarm::HORIZON {
            "1..10⁹".to_string()
        } else {
            format!("1..{} (no warm figure beyond)", b.searched_to)
        };
        return (first, format!("none in {to}"));
    }
    let text = b
        .crossings
        .iter()
        .map(|c| {
            format!(
                "{} cheaper from n = {}{}",
                c.cheaper_after,
                format::ops(c.n),
                if c.extrapolated {
                    " (extrapolated)"
                } else {
                    " (measured)"
                }
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    (first, text)
}

/// "sonic-rs: 109 [62, 480]": from which n the codec cheaper at the far end stays cheaper, with
/// its bootstrap interval ("never" for a bound beyond the search range).
fn settles_text(b: &BreakEven) -> String {
    let Some(s) = &b.settles else {
        return String::new();
    };
    let bound = |v: Option<u64>| v.map_or("never".to_string(), format::ops);
    format!(
        "{}: {} [{}, {}]",
        s.codec,
        format::ops(s.n),
        bound(s.lo),
        bound(s.hi)
    )
}

fn cold_warm(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Cold against warm"),
        p("The cold penalty is the median first operation in a fresh process (smallest batch) over criterion's median time per operation in a warm loop. The cumulative cost C(n) of n operations in one process is the cold median of init_plus_ops at each measured batch, linear between them, and beyond the largest batch that figure plus the warm time per operation for each further one. Two codecs break even where their curves cross."),
    ];
    if !r.warm_source.present {
        out.push(p(format!(
            "No warm results: {} holds no criterion output (run `THAW_WARM=quick cargo bench -p warm`). Break-evens below cover the measured batches only.",
            r.warm_source.path
        )));
    }
    if !r.penalties.is_empty() {
        out.push(h(3, "Cold penalty"));
        let mut t = Table::new(&[
            "fixture",
            "op",
            "codec",
            ">cold first_op (median)",
            ">warm per op (median [95% CI])",
            ">penalty",
        ]);
        let mut rows: Vec<_> = r.penalties.iter().collect();
        rows.sort_by(|a, b| {
            a.scenario
                .cmp(&b.scenario)
                .then(b.penalty.total_cmp(&a.penalty))
        });
        for x in rows {
            let w = find_warm(&r.warm, &x.scenario, &x.codec);
            let warm = w.map_or(format::ns(x.warm_ns), |w| {
                format::ns_ci(w.median_ns, w.lo_ns, w.hi_ns)
            });
            t.row(vec![
                x.scenario.fixture.clone().into(),
                x.scenario.op.clone().into(),
                x.codec.clone().into(),
                format::ns(x.first_op_ns).into(),
                warm.into(),
                format::factor(x.penalty).into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    if !r.break_evens.is_empty() || !r.curves.is_empty() {
        out.push(h(3, "Break-even"));
        out.push(p("Per fixture and op, for each pair of codecs: which is cheaper for a process that does one operation, and the number of operations from which the other is cheaper (the first whole n past the crossing), or that the curves do not cross. Crossings inside the measured batches rest on cold medians only; those beyond them on the warm figure too (extrapolated). The last column gives the n from which the codec cheaper at the far end stays cheaper, with a 95% bootstrap interval: every cell's samples resampled (the same draws as its median's interval), the curves rebuilt and the crossing found again; \"never\" means no such n within 10⁹ operations in that share of resamples. Pairs with the reference come first; the charts follow each table."));
    }
    for (i, s) in charts::scenarios(r).iter().enumerate() {
        let mut rows: Vec<&BreakEven> = r.break_evens.iter().filter(|b| &b.scenario == s).collect();
        if !rows.is_empty() {
            out.push(h(4, format!("Break-even, {}", scenario_title(s))));
            let mut t = Table::new(&[
                "codecs",
                "cheaper at 1 op",
                "~crossing",
                "stays cheaper from n = [95% CI]",
            ]);
            let has_ref =
                |b: &BreakEven| r.reference.as_ref().is_some_and(|x| &b.a == x || &b.b == x);
            rows.sort_by_key(|b| !has_ref(b));
            for b in rows {
                let (first, crossing) = break_even_text(b);
                // the reference first, so its pairs read alike
                let pair = if r.reference.as_deref() == Some(b.b.as_str()) {
                    format!("{} / {}", b.b, b.a)
                } else {
                    format!("{} / {}", b.a, b.b)
                };
                let tone = if b.crossings.is_empty() {
                    Tone::Muted
                } else {
                    Tone::Plain
                };
                t.row(vec![
                    pair.into(),
                    first.into(),
                    Cell::toned(crossing, tone),
                    settles_text(b).into(),
                ]);
            }
            out.push(Block::Table(t));
        }
        if let Some(svg) = charts::cost(r, s) {
            out.push(Block::Chart {
                file: format!("cost-{i}.svg"),
                title: format!("cumulative cost, {}: solid where measured cold, dashed where the warm time per operation extends it", scenario_title(s)),
                svg,
            });
        }
        if let Some(svg) = charts::relative(r, s) {
            out.push(Block::Chart {
                file: format!("relative-{i}.svg"),
                title: format!("the same curves over the reference's: a line crosses 1 where that codec breaks even with {}", r.reference.as_deref().unwrap_or("the reference")),
                svg,
            });
        }
    }
    if !r.warm.is_empty() {
        out.push(h(3, "Warm time per operation (criterion)"));
        out.push(p("criterion's median time per operation in a warm loop, for every fixture the warm benches ran (its 95% intervals are in summary.json). Empty: no bench of that codec on that cell."));
        let mut codecs: Vec<&str> = r.warm.iter().map(|w| w.codec.as_str()).collect();
        codecs.sort_unstable();
        codecs.dedup();
        let mut rows: Vec<(&str, &str, &str)> = r
            .warm
            .iter()
            .map(|w| (w.fixture.as_str(), w.op.as_str(), w.variant.as_str()))
            .collect();
        rows.dedup();
        let variants = rows.iter().any(|x| x.2 != rows[0].2);
        let mut header = vec!["fixture", "op"];
        if variants {
            header.push("variant");
        }
        let codec_cols: Vec<String> = codecs.iter().map(|c| format!(">{c}")).collect();
        header.extend(codec_cols.iter().map(String::as_str));
        let mut t = Table::new(&header);
        for (fixture, op, variant) in rows {
            let mut row: Vec<Cell> = vec![fixture.into(), op.into()];
            if variants {
                row.push(variant.into());
            }
            for c in &codecs {
                let w = r.warm.iter().find(|w| {
                    w.fixture == fixture && w.op == op && w.variant == variant && w.codec == *c
                });
                row.push(w.map_or(Cell::new(""), |w| Cell::new(format::ns(w.median_ns))));
            }
            t.row(row);
        }
        out.push(Block::Table(t));
    }
    out
}

fn timing_table<'a>(cells: impl Iterator<Item = &'a CellSummary>) -> Table {
    let mut t = Table::new(&[
        ">batch",
        "codec",
        ">ok",
        ">failed",
        ">init_plus_ops median [95% CI]",
        ">p90",
        ">min",
        ">max",
        ">MAD",
        ">outliers",
        ">drift ρ",
        ">wall median [95% CI]",
    ]);
    for c in cells {
        let d = c.init_plus_ops.as_ref();
        let opt = |f: &dyn Fn(&crate::stats::describe::Describe) -> f64| {
            d.map_or("—".into(), |d| format::ns(f(d)))
        };
        let outliers = d.map_or("—".into(), |d| {
            let o = &d.outliers;
            format!("{} ({} severe)", o.total(), o.low_severe + o.high_severe)
        });
        let drift = c.drift.map_or(Cell::toned("—", Tone::Muted), |s| {
            let flagged = s.rho.abs() >= DRIFT_RHO && s.p < DRIFT_P;
            let rho = if s.rho.abs() < 0.005 {
                "0.00".to_string()
            } else {
                format!("{:+.2}", s.rho)
            };
            Cell::toned(rho, if flagged { Tone::Bad } else { Tone::Plain })
        });
        let planned = c.planned.map_or(String::new(), |p| format!(" / {p}"));
        t.row(vec![
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            format!("{}{planned}", c.ok).into(),
            Cell::toned(
                c.failed.to_string(),
                if c.failed > 0 { Tone::Bad } else { Tone::Plain },
            ),
            median_ci(c).into(),
            opt(&|d| d.p90).into(),
            opt(&|d| d.min).into(),
            opt(&|d| d.max).into(),
            opt(&|d| d.mad).into(),
            outliers.into(),
            drift,
            c.wall
                .as_ref()
                .map_or("—".into(), |d| {
                    format::ns_ci(d.median, d.median_lo, d.median_hi)
                })
                .into(),
        ]);
    }
    t
}

fn life_table<'a>(r: &Report, cells: impl Iterator<Item = &'a CellSummary>) -> Table {
    let mut header = vec![">batch", "codec"];
    let phase_cols: Vec<String> = PHASES.iter().map(|(n, _)| format!(">{n}")).collect();
    header.extend(phase_cols.iter().map(String::as_str));
    header.extend([
        ">user",
        ">sys",
        ">max RSS",
        ">minor faults",
        ">major faults",
        ">child size",
    ]);
    let mut t = Table::new(&header);
    for c in cells {
        let mut row: Vec<Cell> = vec![c.key.batch.to_string().into(), c.key.codec.clone().into()];
        for (name, _) in PHASES {
            row.push(
                c.phases
                    .0
                    .get(name)
                    .map_or("—".into(), |v| format::ns(*v))
                    .into(),
            );
        }
        let us = |v: Option<f64>| v.map_or("—".into(), |v| format::ns(v * 1000.0));
        row.push(us(c.user_us).into());
        row.push(us(c.sys_us).into());
        row.push(
            c.maxrss_kib
                .map_or("—".into(), |v| format::bytes(v * 1024.0))
                .into(),
        );
        row.push(c.minflt.map_or("—".into(), format::count).into());
        row.push(c.majflt.map_or("—".into(), format::count).into());
        row.push(
            r.child_bytes(&c.key.codec)
                .map_or("—".into(), |b| format::bytes(b as f64))
                .into(),
        );
        t.row(row);
    }
    t
}

fn per_cell(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Per cell"),
        p("For each cell, the timing of init_plus_ops (ok shows finished / planned samples; outliers are beyond Tukey's 1.5·IQR fences, severe beyond 3·IQR; drift ρ is against the block index), then the median of each phase and resource of the child process (user and system CPU time, max RSS and page faults from wait4; child size is the binary's size from the manifest)."),
    ];
    for s in charts::scenarios(r) {
        out.push(h(3, format!("Timing, {}", scenario_title(&s))));
        out.push(Block::Table(timing_table(cells_of(r, &s))));
        out.push(h(
            3,
            format!("Process life (medians), {}", scenario_title(&s)),
        ));
        out.push(Block::Table(life_table(r, cells_of(r, &s))));
    }
    out
}

fn allocations(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Allocations (warm)")];
    let Some(rows) = &r.alloc else {
        out.push(p(format!(
            "Absent: no allocation table at {} (run `cargo run --release -p warm --bin alloc`).",
            r.alloc_source.path
        )));
        return out;
    };
    out.push(p(format!(
        "From {}: heap allocations and bytes allocated per operation in a warm loop, and the peak of live heap bytes during one operation.",
        r.alloc_source.path
    )));
    let variant = |a: &crate::inputs::alloc::AllocRow| a.variant.clone().unwrap_or_default();
    let scenarios = charts::scenarios(r);
    let in_run: Vec<_> = rows
        .iter()
        .filter(|a| {
            scenarios.iter().any(|s| {
                s.fixture == a.fixture
                    && s.op == a.op
                    && a.variant.as_deref().is_none_or(|v| v == s.variant)
            })
        })
        .collect();
    let beyond_run = in_run.len() < rows.len();
    if !in_run.is_empty() {
        out.push(h(3, "On the run's fixtures"));
        let mut t = Table::new(&[
            "fixture",
            "op",
            "codec",
            ">allocations / op",
            ">bytes / op",
            ">peak live",
        ]);
        for a in in_run {
            t.row(vec![
                a.fixture.clone().into(),
                a.op.clone().into(),
                a.codec.clone().into(),
                format::amount(a.allocs_per_op).into(),
                format::bytes(a.bytes_per_op).into(),
                format::bytes(a.peak_live_bytes).into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    let mut keys: Vec<(String, String, String)> = rows
        .iter()
        .map(|a| (a.fixture.clone(), a.op.clone(), variant(a)))
        .collect();
    keys.dedup();
    if beyond_run {
        out.push(h(3, "Every fixture: allocations per operation"));
        let mut codecs: Vec<&str> = rows.iter().map(|a| a.codec.as_str()).collect();
        codecs.sort_unstable();
        codecs.dedup();
        let variants = keys.iter().any(|k| k.2 != keys[0].2);
        let mut header = vec!["fixture", "op"];
        if variants {
            header.push("variant");
        }
        let cols: Vec<String> = codecs.iter().map(|c| format!(">{c}")).collect();
        header.extend(cols.iter().map(String::as_str));
        let mut t = Table::new(&header);
        for (fixture, op, v) in &keys {
            let mut row: Vec<Cell> = vec![fixture.clone().into(), op.clone().into()];
            if variants {
                row.push(v.clone().into());
            }
            for c in &codecs {
                let a = rows.iter().find(|a| {
                    &a.fixture == fixture && &a.op == op && &variant(a) == v && a.codec == *c
                });
                row.push(a.map_or(Cell::new(""), |a| format::amount(a.allocs_per_op).into()));
            }
            t.row(row);
        }
        out.push(Block::Table(t));
    }
    out
}

fn conformance(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Conformance")];
    let Some(rows) = &r.conformance else {
        out.push(p(format!(
            "Absent: no conformance table at {}.",
            r.conformance_source.path
        )));
        return out;
    };
    out.push(p(format!("From {}: each codec's parser on the JSON test suite; y files must be accepted, n files rejected, i files may go either way.", r.conformance_source.path)));
    let mut t = Table::new(&[
        "codec",
        ">files",
        ">correct",
        ">valid rejected",
        ">invalid accepted",
        ">i accepted",
        ">i rejected",
        ">crashed",
        ">timeout",
    ]);
    let bad = |n: usize| Cell::toned(n.to_string(), if n > 0 { Tone::Bad } else { Tone::Plain });
    for s in rows {
        t.row(vec![
            s.codec.clone().into(),
            s.files.to_string().into(),
            s.correct.to_string().into(),
            bad(s.rejected_valid),
            bad(s.accepted_invalid),
            s.impl_accepted.to_string().into(),
            s.impl_rejected.to_string().into(),
            bad(s.crashed),
            bad(s.timeout),
        ]);
    }
    out.push(Block::Table(t));
    if !r.conformance_failures.is_empty() {
        const SHOW: usize = 60;
        let mut items: Vec<String> = r
            .conformance_failures
            .iter()
            .take(SHOW)
            .map(|f| {
                let detail = f.detail.as_deref().filter(|d| !d.is_empty());
                let detail = detail.map_or(String::new(), |d| format!(": {d}"));
                format!(
                    "{}: {} (expected {}, {}){detail}",
                    f.codec, f.file, f.expected, f.outcome
                )
            })
            .collect();
        if r.conformance_failures.len() > SHOW {
            items.push(format!(
                "… and {} more in summary.json",
                r.conformance_failures.len() - SHOW
            ));
        }
        out.push(h(3, "Incorrect outcomes"));
        out.push(Block::List(items));
    }
    out
}

fn conditions(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Run conditions")];
    if r.conditions.is_empty() {
        out.push(p("No manifest: conditions unknown."));
    } else {
        let mut t = Table::new(&["", "value"]);
        for (k, v) in &r.conditions {
            t.row(vec![k.clone().into(), v.clone().into()]);
        }
        out.push(Block::Table(t));
    }
    if !r.codecs.is_empty() {
        out.push(h(3, "Codecs"));
        let mut t = Table::new(&[
            "codec",
            "library",
            "version",
            "style",
            ">child size",
            "child SHA-256",
        ]);
        for c in &r.codecs {
            t.row(vec![
                c.id.clone().into(),
                c.library.clone().into(),
                c.version.clone().into(),
                c.style.clone().into(),
                c.child_bytes
                    .map_or("—".into(), |b| format::bytes(b as f64))
                    .into(),
                c.child_sha256.chars().take(16).collect::<String>().into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    if !r.fixtures.is_empty() {
        out.push(h(3, "Fixtures"));
        let mut t = Table::new(&["fixture", ">bytes", "SHA-256"]);
        for f in &r.fixtures {
            t.row(vec![
                f.name.clone().into(),
                f.bytes
                    .map_or("—".into(), |b| format::count(b as f64))
                    .into(),
                f.sha256.chars().take(16).collect::<String>().into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    if !r.verification.is_empty() {
        let passed = r.verification.iter().filter(|v| v.status == "pass").count();
        out.push(h(3, "Verification"));
        out.push(p(format!(
            "Every codec's output on every fixture was checked against the reference before timing: {passed} of {} checks passed; the others are listed.",
            r.verification.len()
        )));
        let mut t = Table::new(&["codec", "fixture", "op", "status", "~detail"]);
        for v in r.verification.iter().filter(|v| v.status != "pass") {
            let tone = if v.status == "fail" {
                Tone::Bad
            } else {
                Tone::Muted
            };
            t.row(vec![
                v.codec.clone().into(),
                v.fixture.clone().into(),
                v.op.clone().into(),
                Cell::toned(v.status.clone(), tone),
                v.detail.clone().into(),
            ]);
        }
        if !t.rows.is_empty() {
            out.push(Block::Table(t));
        }
    }
    out
}

fn notes(r: &Report) -> Vec<Block> {
    let mut items = r.notes.clone();
    items.push(format!(
        "Inputs: run {}; warm {} ({}); allocations {} ({}); conformance {} ({}).",
        r.run_dir,
        r.warm_source.path,
        if r.warm_source.present {
            "read"
        } else {
            "absent"
        },
        r.alloc_source.path,
        if r.alloc_source.present {
            "read"
        } else {
            "absent"
        },
        r.conformance_source.path,
        if r.conformance_source.present {
            "read"
        } else {
            "absent"
        },
    ));
    items.push(format!(
        "Written by thaw analysis {}; the same numbers are in summary.csv and summary.json.",
        r.analysis_version
    ));
    vec![h(2, "Notes"), Block::List(items)]
}

/// The whole report as a document.
pub fn document(r: &Report) -> Vec<Block> {
    let mut out = intro(r);
    out.extend(warnings(r));
    out.extend(headline(r));
    out.extend(how_to_read(r));
    out.extend(chart_blocks(r));
    out.extend(against_reference(r));
    out.extend(cold_warm(r));
    out.extend(per_cell(r));
    out.extend(allocations(r));
    out.extend(conformance(r));
    out.extend(conditions(r));
    out.extend(notes(r));
    out
}

/// The headline as plain text for the terminal: one table per scenario, then the warnings.
pub fn headline_text(r: &Report) -> String {
    let mut out = String::new();
    for s in charts::scenarios(r) {
        out.push_str(&format!("\n{}\n", scenario_title(&s)));
        out.push_str(&super::console::render(&headline_table(r, &s)));
    }
    if !r.warnings.is_empty() {
        out.push_str(&format!("\n{} warning(s):\n", r.warnings.len()));
        for w in &r.warnings {
            out.push_str(&format!("  - {w}\n"));
        }
    }
    out
}
