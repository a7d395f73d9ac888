//! The runtimes of a run with children in more than one language: each runtime's version, its
//! floor and its libraries, and what its floor costs.

use super::common::*;
use crate::analyze::runtimes::Runtime;

/// What a runtime's floor is, in one sentence.
pub(crate) const FLOOR: &str = "A runtime's floor is its start plus the harness with no library: a child of that runtime that reads its input and does nothing else. Each codec's over floor is measured from its own runtime's floor, and the floors are not compared with the libraries.";

/// The floor's median wall (spawn to reaped) in scenario `s` at its smallest batch.
fn floor_wall(r: &Report, rt: &Runtime, s: &Scenario) -> Cell {
    let Some(floor) = rt.floor.as_deref() else {
        return Cell::toned("no floor", Tone::Muted);
    };
    cells_of(r, s)
        .filter(|c| c.key.codec == floor)
        .find_map(|c| c.wall.as_ref())
        .map_or(Cell::toned("—", Tone::Muted), |d| {
            Cell::new(format::ns(d.median))
        })
}

pub(super) fn runtimes(r: &Report) -> Vec<Block> {
    if !r.runtimes.several() {
        return Vec::new();
    }
    let scenarios = chart_data::scenarios(r);
    let mut out = vec![
        h(2, "Runtimes"),
        p(format!(
            "The codecs by runtime, Rust first, then the others in the manifest's order; each table of this report lists them so. {FLOOR} Its median wall time is given per fixture and op, at the smallest batch."
        )),
    ];
    let cols: Vec<String> = scenarios
        .iter()
        .map(|s| {
            let batch = cells_of(r, s).map(|c| c.key.batch).min().unwrap_or(1);
            format!(">floor wall, {} ×{batch}", scenario_title(s))
        })
        .collect();
    let mut header = vec!["runtime", "version", "floor", "~libraries"];
    header.extend(cols.iter().map(String::as_str));
    let mut t = Table::new(&header);
    for rt in &r.runtimes.0 {
        let libraries: Vec<&str> = rt
            .codecs
            .iter()
            .map(String::as_str)
            .filter(|c| Some(*c) != rt.floor.as_deref())
            .collect();
        let mut row: Vec<Cell> = vec![
            rt.name.clone().into(),
            rt.version.clone().unwrap_or_default().into(),
            rt.floor
                .clone()
                .map_or(Cell::toned("none", Tone::Bad), Cell::new),
            libraries.join(", ").into(),
        ];
        row.extend(scenarios.iter().map(|s| floor_wall(r, rt, s)));
        t.row(row);
    }
    out.push(Block::Table(t));
    out
}
