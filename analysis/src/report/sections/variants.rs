//! Build against build: in a run of several variants, each cell's later build over its first
//! (native / portable), paired within blocks, with the verdict the codec ratios use.

use super::common::*;

pub(super) fn variants(r: &Report) -> Vec<Block> {
    let Some((a, later)) = r.variant_order.split_first() else {
        return Vec::new();
    };
    if later.is_empty() {
        return Vec::new();
    }
    let names = |v: &[schema::Variant]| v.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ");
    let builds = format!("{} / {a}", names(later));
    let mut out = vec![
        h(2, format!("Build variants ({builds})")),
        p(format!(
            "Each cell's {} build against its {a} build: ratio = {} time / {a} time (init_plus_ops), paired within blocks (every build of a cell runs in every block, so the machine's drift cancels as it does between codecs). The Hodges-Lehmann estimate with its 95% interval and ± its precision; p is the signed-rank test, Holm-adjusted with the report's other comparisons; the verdict is the codec ratios' rule: faster or slower only when the adjusted p is below {} and the interval lies wholly on one side of 1.",
            names(later),
            names(later),
            r.alpha
        )),
    ];
    if let Some(said) = allocators(r) {
        out.push(p(said));
    }
    if r.variant_contrasts.is_empty() {
        out.push(p("No cell ran in more than one build."));
        return out;
    }
    let ratio = format!(">{builds} [95% CI]");
    let mut header = vec!["fixture", "op"];
    if later.len() > 1 {
        header.push("variant");
    }
    header.extend([
        ">batch",
        "codec",
        ">pairs",
        ratio.as_str(),
        ">±",
        ">p",
        ">p (Holm)",
        "verdict",
    ]);
    let mut t = Table::new(&header);
    for c in r.cells_in_order() {
        let Some(v) = r.variant_contrast(&c.key) else {
            continue;
        };
        let mut row: Vec<Cell> = vec![v.key.fixture.clone().into(), v.key.op.into()];
        if later.len() > 1 {
            row.push(v.key.variant.into());
        }
        row.extend([v.key.batch.to_string().into(), v.key.codec.clone().into()]);
        match &v.contrast {
            Some(x) => row.extend([
                x.pairs.to_string().into(),
                format::ratio_ci(x.ratio, x.interval).into(),
                v.half_width.map_or("—".into(), format::half_width).into(),
                format::p(x.test.p).into(),
                v.p_holm.map_or("—".into(), format::p).into(),
                verdict_of(v.verdict, v.p_holm, Some(x)),
            ]),
            None => row.extend([
                "0".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                "—".into(),
                verdict_cell(v.verdict),
            ]),
        }
        t.row(row);
    }
    out.push(Block::Table(t));
    out
}

/// Which global allocator each Rust build's children ran on, as the manifest records it.
fn allocators(r: &Report) -> Option<String> {
    let m = r.manifest.as_ref()?;
    let said: Vec<String> = m
        .settings
        .variants
        .iter()
        .filter_map(|v| v.allocator.map(|a| format!("{} on {a}", v.variant)))
        .collect();
    (!said.is_empty()).then(|| format!("Allocators: {}.", said.join(", ")))
}
