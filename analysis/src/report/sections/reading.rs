//! The words around the figures: the introduction, the warnings, how to read the report, and
//! the closing notes.

use super::common::*;
use schema::phases::Phase;
use schema::Measure;

pub(super) fn intro(r: &Report) -> Vec<Block> {
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
    let what = intro_clause(r.measure, r.seed);
    vec![
        h(1, "thaw: cold start and steady state"),
        p(format!(
            "Run folder {}: {} samples{planned} in {cells} cells; {reference}; {what}.",
            r.run_dir,
            format::count(r.samples as f64),
        )),
    ]
}

pub(super) fn warnings(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Warnings")];
    if r.warnings.is_empty() {
        out.push(p(crate::analyze::warnings::none_text(r.measure)));
    } else {
        out.push(Block::Warnings(r.warnings.clone()));
    }
    out
}

pub(super) fn how_to_read(r: &Report) -> Vec<Block> {
    let n_contrasts = r.contrasts.iter().filter(|c| c.contrast.is_some()).count()
        + r.variant_contrasts
            .iter()
            .filter(|c| c.contrast.is_some())
            .count();
    let builds = if r.variant_contrasts.is_empty() {
        ""
    } else {
        " (the builds' comparisons with each other among them)"
    };
    // The DOM codecs (by the style the manifest gives) whose `ser` children ran here.
    let dom: Vec<&str> = r
        .codecs
        .iter()
        .filter(|c| c.style == schema::Style::Dom)
        .map(|c| c.id.as_str())
        .filter(|id| {
            r.cells
                .iter()
                .any(|c| c.key.codec == *id && c.key.op == schema::Op::Ser)
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
            format!(
                "Phases of a child's life: {}. init_plus_ops = {}.",
                Phase::ALL.map(|p| format!("{p} ({})", p.holds())).join("; "),
                Phase::library_names(" + ")
            ),
            format!("median [95% CI]: the {}, which covers the true median at least 95% of the time (a cell of fewer than 6 samples has none, and shows —). p90 and quartiles are type-7 quantiles (R and NumPy's default). MAD is unscaled (median |x − median|). Outliers are counted with Tukey's fences (1.5 and 3 IQR). Drift is Spearman's ρ of init_plus_ops against the block index.", crate::stats::median_interval::METHOD),
            format!("Against the reference: in every block where both ran, the log ratio ln(codec / reference); its Hodges-Lehmann estimate (median of the Walsh averages) is shown as a ratio with a distribution-free 95% interval (order statistics of the Walsh averages; exact up to {EXACT_MAX_N} pairs). p is Wilcoxon's signed-rank test (exact up to {EXACT_MAX_N} pairs without ties, else normal with tie correction), Holm-adjusted across all {n_contrasts} comparisons of this report{builds}. The verdict says faster or slower only when the adjusted p is below {} and the interval lies wholly on one side of 1; otherwise no difference.", r.alpha),
            if r.inputs.iter().any(|i| i.kind == "tree") {
                format!("DOM `ser` children ({dom_list}) start from their library's own tree, built during the fixture phase, before the timed region, from a neutral tree of the document with the library's constructors: its parser never runs in the process.")
            } else {
                format!("DOM `ser` children ({dom_list}) have to start from their library's own tree, and build it with that library's parser during the fixture phase, before the timed region. That parser shares no code with the writer being timed, but it has run once in the process.")
            },
            floors_item(r),
        ]),
    ]
}

/// The floors of the run, each with its runtime, and what a floor is.
fn floors_item(r: &Report) -> String {
    let floors: Vec<String> = r
        .runtimes
        .0
        .iter()
        .filter_map(|rt| Some(format!("{} ({})", rt.floor.as_deref()?, rt.name)))
        .collect();
    let which = if floors.is_empty() {
        "This run has no floor (no codec of style baseline).".to_string()
    } else {
        format!("The floors: {}.", floors.join(", "))
    };
    format!("{which} {}", super::runtimes::FLOOR)
}

pub(super) fn notes(r: &Report) -> Vec<Block> {
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

/// The report's first paragraph's last clause.
fn intro_clause(measure: Measure, seed: u64) -> String {
    match measure {
        Measure::Time => format!("bootstrap seed {seed}"),
        Measure::Instructions => "counted run: instructions and allocations, no times".into(),
    }
}
