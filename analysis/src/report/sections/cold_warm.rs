//! Cold against warm: the cold penalty and the break-even tables, with their charts.

use super::common::*;
use crate::inputs::criterion::WarmEstimate;
use schema::phases::Phase;
use schema::warm_files::GateDecision;
use schema::{Op, Variant};

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

pub(super) fn cold_warm(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Cold against warm"),
        p("The cold penalty is the median first operation in a fresh process (smallest batch) over the median time per operation in a warm loop (criterion's for Rust, JMH's for the JVM); none is given where the warm time is below 1 ns, the resolution of the cold side's clock (its figures are whole nanoseconds), since the ratio would then divide a measured time by less than the unit it was measured in. The cumulative cost C(n) of n operations in one process is the cold median of init_plus_ops at each measured batch, linear between them, and beyond the largest batch that figure plus the warm time per operation for each further one. Two codecs break even where their curves cross."),
    ];
    if !r.warm_source.present {
        out.push(p(format!(
            "No warm results: {} holds no criterion output (criterion/; run `THAW_WARM=quick cargo bench -p warm`) and no JMH output (jmh/; run `scripts/warm-jvm.sh --quick`). Break-evens below cover the measured batches only.",
            r.warm_source.path
        )));
    }
    out.extend(penalties(r));
    if !r.break_evens.is_empty() || !r.curves.is_empty() {
        out.push(h(3, "Break-even"));
        out.push(p("Per fixture and op, for each pair of codecs: which is cheaper for a process that does one operation, and the number of operations from which the other is cheaper (the first whole n past the crossing), or that the curves do not cross. Crossings inside the measured batches rest on cold medians only; those beyond them on the warm figure too (extrapolated). The last column gives the n from which the codec cheaper at the far end stays cheaper, with a 95% bootstrap interval: every cell's samples resampled (the same draws as its median's interval), the curves rebuilt and the crossing found again; \"never\" means no such n within 10⁹ operations in that share of resamples. The last two columns give the same for the second headline figure, the process over its runtime's floor (wall less the input phase, less the floor's, at each measured batch; the warm time per operation beyond): where it crosses later or never, loading, checking and ending a larger program costs more than the calls save. Pairs with the reference come first; the charts follow each table (of the library's calls)."));
    }
    for (i, s) in chart_data::scenarios(r).iter().enumerate() {
        out.extend(scenario_break_evens(r, i, s));
    }
    out.extend(warm_table(r));
    out
}

/// The cold penalty of each codec with a warm figure, the largest first in each scenario.
fn penalties(r: &Report) -> Vec<Block> {
    let mut out = Vec::new();
    if !r.penalties.is_empty() {
        out.push(h(3, "Cold penalty"));
        let mut t = Table::new(&[
            "fixture",
            "op",
            "codec",
            &format!(">cold {} (median)", Phase::FirstOp),
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
                format::ns_ci(w.median_ns, Some((w.lo_ns, w.hi_ns)))
            });
            t.row(vec![
                x.scenario.fixture.clone().into(),
                x.scenario.op.name().into(),
                x.codec.clone().into(),
                format::ns(x.first_op_ns).into(),
                warm.into(),
                format::factor(x.penalty).into(),
            ]);
        }
        out.push(Block::Table(t));
    }
    out
}

/// A scenario's break-even table, then its cost charts (absolute and over the reference).
fn scenario_break_evens(r: &Report, i: usize, s: &Scenario) -> Vec<Block> {
    let mut out = Vec::new();
    let mut rows: Vec<&BreakEven> = r.break_evens.iter().filter(|b| &b.scenario == s).collect();
    if !rows.is_empty() {
        out.push(h(4, format!("Break-even, {}", scenario_title(s))));
        let mut t = Table::new(&[
            "codecs",
            "cheaper at 1 op",
            "~crossing",
            "stays cheaper from n = [95% CI]",
            "~crossing, process over floor",
            "stays cheaper from n = [95% CI], process",
        ]);
        let has_ref = |b: &BreakEven| r.reference.as_ref().is_some_and(|x| &b.a == x || &b.b == x);
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
            let process = r.process_break_evens.iter().find(|x| {
                x.scenario == b.scenario
                    && ((x.a == b.a && x.b == b.b) || (x.a == b.b && x.b == b.a))
            });
            let (process_crossing, process_settles) = process.map_or_else(
                || ("—".to_string(), String::new()),
                |x| (break_even_text(x).1, settles_text(x)),
            );
            t.row(vec![
                pair.into(),
                first.into(),
                Cell::toned(crossing, tone),
                settles_text(b).into(),
                process_crossing.into(),
                process_settles.into(),
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
    out
}

/// The codecs (sorted) and the fixture × op × variant rows of the warm figures, and whether the
/// rows differ in variant.
type WarmGrid<'a> = (Vec<&'a str>, Vec<(&'a str, Op, Option<Variant>)>, bool);

fn warm_grid(r: &Report) -> WarmGrid<'_> {
    let mut codecs: Vec<&str> = r.warm.iter().map(|w| w.codec.as_str()).collect();
    codecs.sort_unstable();
    codecs.dedup();
    let mut rows: Vec<(&str, Op, Option<Variant>)> = r
        .warm
        .iter()
        .map(|w| (w.fixture.as_str(), w.op, w.variant))
        .collect();
    rows.dedup();
    let variants = rows.iter().any(|x| x.2 != rows[0].2);
    (codecs, rows, variants)
}

/// A warm table's header and the first cells of one of its rows.
fn warm_header(variants: bool, codec_cols: &[String]) -> Vec<&str> {
    let mut header = vec!["fixture", "op"];
    if variants {
        header.push("variant");
    }
    header.extend(codec_cols.iter().map(String::as_str));
    header
}

fn warm_row_start(fixture: &str, op: Op, variant: Option<Variant>, variants: bool) -> Vec<Cell> {
    let mut row: Vec<Cell> = vec![fixture.into(), op.name().into()];
    if variants {
        row.push(variant.map_or("", Variant::name).into());
    }
    row
}

/// The warm figure of `codec` in the row `(fixture, op, variant)`, forked or not.
fn warm_in_row<'a>(
    r: &'a Report,
    (fixture, op, variant): (&str, Op, Option<Variant>),
    codec: &str,
) -> Option<&'a WarmEstimate> {
    r.warm
        .iter()
        .find(|w| w.fixture == fixture && w.op == op && w.variant == variant && w.codec == codec)
}

/// The warm time per operation of every codec and fixture the warm benches ran, then each
/// codec's ratio to the reference paired within fork rounds.
fn warm_table(r: &Report) -> Vec<Block> {
    let mut out = Vec::new();
    if !r.warm.is_empty() {
        out.push(h(3, "Warm time per operation (criterion, JMH)"));
        out.push(p("The median time per operation in a warm loop, for every fixture the warm benches ran: for the Rust codecs the median across fresh processes of criterion's median in each (`cargo bench -p warm` runs every cell in 5 processes by default), with the distribution-free interval across processes (95% from 6 processes; below, the whole range, 93.75% for 5), each process's own criterion estimate and the allocator in summary.json; criterion's one-process median where a cell has no forks; JMH's average time for the JVM's (its 99.9% error as the interval; the variant is the JDK). A runtime with neither has no warm figure, so no cold penalty and no break-even past its measured batches. \"unsupported\": the library cannot express that cell (the reasons: `fixtures list --codecs`); \"refused\": it failed the correctness gate and was not timed; empty: not benched."));
        out.push(warm_grid_table(r, |w| Some(format::ns(w.median_ns))));
    }
    if r.warm.iter().any(|w| w.fastest.is_some()) {
        out.push(h(
            3,
            "Warm time per operation, the fastest sample (criterion)",
        ));
        out.push(p("The fastest of criterion's samples in each process, per operation (a sample's time over its iterations; the smallest samples are one or a few operations), for the Rust codecs: the median across processes with the interval across them, as above. It is the statistic of serde-rs/json-benchmark's figures, and on a shared machine the one that moves least between runs: what slows a warm loop there (other work on the host) only ever adds time, and criterion's median sample takes its share, while the fastest sample is the one it spared (docs/statistics.md). The cold penalty and the break-evens use the median above; empty: no criterion samples."));
        out.push(warm_grid_table(r, |w| {
            w.fastest
                .map(|f| format::ns_ci(f.ns, Some((f.lo_ns, f.hi_ns))))
        }));
    }
    out.extend(warm_ratio_table(r));
    out
}

/// A table of every codec's warm `figure` by fixture, op and variant (a cell without a warm
/// figure says what the warm gate decided, where it did).
fn warm_grid_table(r: &Report, figure: impl Fn(&WarmEstimate) -> Option<String>) -> Block {
    let (codecs, rows, variants) = warm_grid(r);
    let codec_cols: Vec<String> = codecs.iter().map(|c| format!(">{c}")).collect();
    let mut t = Table::new(&warm_header(variants, &codec_cols));
    for (fixture, op, variant) in rows {
        let mut row = warm_row_start(fixture, op, variant, variants);
        for c in &codecs {
            row.push(match warm_in_row(r, (fixture, op, variant), c) {
                Some(w) => Cell::new(figure(w).unwrap_or_default()),
                None => gate_cell(r, fixture, op, c),
            });
        }
        t.row(row);
    }
    Block::Table(t)
}

/// Each forked codec's warm time over the reference's, paired within fork rounds; nothing when
/// the reference has no forked figure.
fn warm_ratio_table(r: &Report) -> Vec<Block> {
    let Some(reference) = r.reference.as_deref() else {
        return Vec::new();
    };
    let (codecs, rows, variants) = warm_grid(r);
    let codecs: Vec<&str> = codecs.into_iter().filter(|c| *c != reference).collect();
    let codec_cols: Vec<String> = codecs.iter().map(|c| format!(">{c}")).collect();
    let mut t = Table::new(&warm_header(variants, &codec_cols));
    let mut any = false;
    for key in rows {
        let Some(base) = warm_in_row(r, key, reference).and_then(|w| w.forks.as_ref()) else {
            continue;
        };
        let mut row = warm_row_start(key.0, key.1, key.2, variants);
        for c in &codecs {
            let paired = warm_in_row(r, key, c)
                .and_then(|w| w.forks.as_ref())
                .and_then(|f| crate::inputs::forks::paired_ratio(f, base));
            row.push(match paired {
                Some(x) => Cell::new(format::ratio_ci(x.ratio, Some((x.lo, x.hi)))),
                None => Cell::new(""),
            });
        }
        t.row(row);
        any = true;
    }
    if !any {
        return Vec::new();
    }
    vec![
        h(3, format!("Warm ratio to {reference}, paired within fork rounds")),
        p(format!("Each codec's warm time over {reference}'s, paired within fork rounds: a forked run measures every cell once per round, in a shuffled order, so in each round the codec's process and the reference's ran minutes apart at most. The ratio of the two processes' medians is taken in every round both ran; shown is its median over rounds with the distribution-free interval across rounds (95% from 6 rounds; below, the whole range, 93.75% for 5). A shift of the whole machine between sittings moves the time per operation above by as much as it moves; it moves both processes of a round much alike, so this ratio moves less from one run to the next, though not to nothing: work that allocates much can slow more than the reference (docs/statistics.md). Empty: no forked figure of that codec.")),
        Block::Table(t),
    ]
}

/// A warm table cell with no figure: what the warm gate decided for it, if it says.
fn gate_cell(r: &Report, fixture: &str, op: Op, codec: &str) -> Cell {
    let decision = r
        .warm_gate
        .iter()
        .find(|g| g.fixture == fixture && g.op == op && g.codec == codec)
        .map(|g| g.decision);
    match decision {
        Some(GateDecision::Unsupported) => Cell::toned("unsupported", Tone::Muted),
        Some(GateDecision::Refused) => Cell::toned("refused", Tone::Bad),
        _ => Cell::new(""),
    }
}
