//! machines.csv, beside summary.csv in the report of a run merged from several machines: one row
//! per comparison against the reference and machine, and one more for the machines pooled, with
//! the comparison's heterogeneity (Cochran's Q, its degrees of freedom, p, Holm-adjusted p, I²
//! and whether the machines disagree) repeated on each of its rows, so a spreadsheet can filter
//! and pivot without joining. Raw numbers: ratios as fractions, I² in [0, 1].

use super::model::Report;
use crate::analyze::machines::AcrossReport;
use crate::stats::paired::PairedContrast;
use anyhow::Result;

const HEADER: [&str; 18] = [
    "fixture",
    "op",
    "variant",
    "batch",
    "codec",
    "against",
    "machine",
    "cpu_model",
    "pairs",
    "ratio",
    "ratio_lo",
    "ratio_hi",
    "q",
    "df",
    "p",
    "p_holm",
    "i2",
    "disagree",
];

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// The rows of machines.csv (without the header), in the report's order of cells.
pub(crate) fn rows(r: &Report, a: &AcrossReport) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for c in r.cells_in_order() {
        let Some(x) = a.ratios.iter().find(|x| x.key == c.key) else {
            continue;
        };
        let k = &x.key;
        let h = x.heterogeneity;
        let per = x
            .machines
            .iter()
            .zip(&a.machines.0)
            .map(|(m, e)| (e.name.clone(), opt(e.machine.cpu_model.clone()), m.as_ref()));
        let pooled = std::iter::once(("pooled".to_string(), String::new(), x.pooled.as_ref()));
        for (machine, cpu, contrast) in per.chain(pooled) {
            let c: Option<&PairedContrast> = contrast;
            out.push(vec![
                k.fixture.clone(),
                k.op.to_string(),
                k.variant.to_string(),
                k.batch.to_string(),
                k.codec.clone(),
                x.against.codec.clone(),
                machine,
                cpu,
                opt(c.map(|c| c.pairs)),
                opt(c.map(|c| c.ratio)),
                opt(c.and_then(|c| c.interval).map(|i| i.0)),
                opt(c.and_then(|c| c.interval).map(|i| i.1)),
                opt(h.map(|h| h.q)),
                opt(h.map(|h| h.df)),
                opt(h.map(|h| h.p)),
                opt(x.p_holm),
                opt(h.map(|h| h.i2)),
                if x.p_holm.is_some() {
                    x.disagree.to_string()
                } else {
                    String::new()
                },
            ]);
        }
    }
    out
}

/// machines.csv of `r`; `None` unless the run was merged from several machines.
pub(crate) fn text(r: &Report) -> Result<Option<String>> {
    let Some(a) = r.machines.as_ref().filter(|a| a.machines.several()) else {
        return Ok(None);
    };
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    for row in rows(r, a) {
        // a cell a spreadsheet would run as a formula is made text
        w.write_record(row.iter().map(|c| text::for_spreadsheet(c)))?;
    }
    Ok(Some(String::from_utf8(
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))?,
    )?))
}
