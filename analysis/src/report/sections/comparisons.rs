//! The charts of each scenario and the table of every codec against the reference.

use super::common::*;

pub(super) fn chart_blocks(r: &Report) -> Vec<Block> {
    let mut out = vec![
        h(2, "Charts"),
        p(format!("Every sample of init_plus_ops per codec and batch (log scale; at most {} points per cell are drawn, evenly spaced in rank, so the picture keeps its shape), and the median of each phase of a child's life at the smallest batch.", crate::report::model::STRIP_POINTS)),
    ];
    for (i, s) in chart_data::scenarios(r).iter().enumerate() {
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

pub(super) fn against_reference(r: &Report) -> Vec<Block> {
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
    let variants = r.has_variants();
    let mut header = vec!["fixture", "op"];
    if variants {
        header.push("variant");
    }
    header.extend([
        ">batch",
        "codec",
        ">pairs",
        ">ratio [95% CI]",
        ">p",
        ">p (Holm)",
        "verdict",
    ]);
    let mut t = Table::new(&header);
    for c in r
        .cells_in_order()
        .into_iter()
        .filter_map(|c| r.contrast(&c.key))
    {
        let (ratio, pairs, pv, ph) = match &c.contrast {
            Some(x) => (
                format::ratio_ci(x.ratio, x.interval),
                x.pairs.to_string(),
                format::p(x.test.p),
                c.p_holm.map_or("—".into(), format::p),
            ),
            None => ("—".into(), "0".into(), "—".into(), "—".into()),
        };
        let mut row: Vec<Cell> = vec![c.key.fixture.clone().into(), c.key.op.into()];
        if variants {
            row.push(c.key.variant.into());
        }
        row.extend([
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            pairs.into(),
            ratio.into(),
            pv.into(),
            ph.into(),
            contrast_verdict(c),
        ]);
        t.row(row);
    }
    out.push(Block::Table(t));
    out
}
