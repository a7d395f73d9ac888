//! How noisy the machine was during the run, from the floors: their spread and drift.

use super::common::*;
use crate::analyze::noise::PROBE;
use crate::analyze::noise::{NoiseRow, Spread};

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The drift ρ of a spread, toned bad when the drift warning would flag it.
fn rho(s: &Spread) -> Cell {
    match s.drift {
        None => Cell::toned("—", Tone::Muted),
        Some(d) => Cell::toned(
            format!("{:+.2}", d.rho),
            if d.rho.abs() >= DRIFT_RHO && d.p < DRIFT_P {
                Tone::Bad
            } else {
                Tone::Plain
            },
        ),
    }
}

/// One sentence: the widest relative spread of a floor's wall and the strongest drift.
pub(crate) fn noise_sentence(rows: &[NoiseRow]) -> String {
    let mut all: Vec<(String, &str, &Spread)> = Vec::new();
    for r in rows {
        for (name, s) in [("wall", &r.wall), ("init_plus_ops", &r.init_plus_ops)] {
            if let Some(s) = s {
                all.push((r.key.label(), name, s));
            }
        }
    }
    let widest_wall = all
        .iter()
        .filter(|(_, name, _)| *name == "wall")
        .max_by(|a, b| a.2.iqr_ratio.total_cmp(&b.2.iqr_ratio));
    let strongest = all
        .iter()
        .filter_map(|(label, name, s)| Some((label, name, s.drift?)))
        .max_by(|a, b| a.2.rho.abs().total_cmp(&b.2.rho.abs()));
    let spread = match widest_wall {
        Some((label, _, s)) => format!(
            "the widest spread of a floor's wall was {} of its median (IQR; MAD {}), in {label}",
            pct(s.iqr_ratio),
            pct(s.mad_ratio)
        ),
        None => "no floor has a wall time".to_string(),
    };
    let drift = match strongest {
        Some((label, name, d)) => {
            let flagged = d.rho.abs() >= DRIFT_RHO && d.p < DRIFT_P;
            format!(
                "the strongest drift against the block index was ρ = {:+.2} (p = {}, {name} of {label}), {} the drift warning's |ρ| ≥ {DRIFT_RHO} with p < {DRIFT_P}",
                d.rho,
                format::p(d.p),
                if flagged { "beyond" } else { "within" }
            )
        }
        None => "no drift could be computed (too few samples)".to_string(),
    };
    format!("A floor runs no library, so its spread is the machine's and the harness's noise: {spread}; {drift}.")
}

pub(super) fn noise(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Noise")];
    if r.noise.is_empty() {
        out.push(p(
            "No floor in this run (no codec of style baseline): nothing measures the machine's noise apart from the libraries.",
        ));
        return out;
    }
    out.push(p(noise_sentence(&r.noise)));
    let mut t = Table::new(&[
        "floor",
        "runtime",
        ">n",
        ">wall median",
        ">wall IQR / median",
        ">wall MAD / median",
        ">wall drift ρ",
        ">init_plus_ops median",
        ">IQR / median",
        ">MAD / median",
        ">drift ρ",
    ]);
    let dash = || Cell::toned("—", Tone::Muted);
    let mut rows: Vec<&NoiseRow> = r.noise.iter().collect();
    rows.sort_by_key(|n| (r.runtimes.rank(&n.key.codec), &n.key));
    for n in rows {
        let mut row: Vec<Cell> = vec![
            n.key.label().into(),
            n.runtime.clone().into(),
            n.wall
                .as_ref()
                .or(n.init_plus_ops.as_ref())
                .map_or(0, |s| s.n)
                .to_string()
                .into(),
        ];
        for s in [&n.wall, &n.init_plus_ops] {
            match s {
                Some(s) => row.extend([
                    format::ns(s.median).into(),
                    pct(s.iqr_ratio).into(),
                    pct(s.mad_ratio).into(),
                    rho(s),
                ]),
                None => row.extend([dash(), dash(), dash(), dash()]),
            }
        }
        t.row(row);
    }
    out.push(Block::Table(t));
    out.extend(detection(r));
    out
}

/// The machine's price of detecting its CPU's features: the probe's first operation over its
/// runtime floor's, in each scenario where both ran (at the smallest batch).
fn detection(r: &Report) -> Vec<Block> {
    let mut items = Vec::new();
    for c in r.cells.iter().filter(|c| c.key.codec == PROBE) {
        let smallest = r
            .cells
            .iter()
            .filter(|x| x.key.codec == PROBE && Scenario::of(&x.key) == Scenario::of(&c.key))
            .map(|x| x.key.batch)
            .min();
        if Some(c.key.batch) != smallest {
            continue;
        }
        let Some(floor) = r.runtimes.floor_of(PROBE) else {
            continue;
        };
        let first = schema::phases::Phase::FirstOp;
        if let (Some(own), Some(base)) = (
            c.phase(first),
            r.cell(&c.key.with_codec(floor))
                .and_then(|f| f.phase(first)),
        ) {
            items.push(format!(
                "{}: {} ({} first op {} against {floor}'s {}).",
                scenario_title(&Scenario::of(&c.key)),
                format::ns(own - base),
                PROBE,
                format::ns(own),
                format::ns(base)
            ));
        }
    }
    if items.is_empty() {
        return Vec::new();
    }
    vec![
        h(3, "The machine's price of CPU-feature detection"),
        p(format!("The `{PROBE}` child asks the CPU which SIMD features it has, as a portable SIMD build does on its first call (std's `is_x86_feature_detected!`, which simd-json and simdutf8 use: CPUID, then a cache), and does nothing else. Its first operation over the floor's is what detection costs on this machine: in a virtual machine CPUID traps to the hypervisor, so a SIMD library's first call here holds a price that bare metal charges far less of. Read the SIMD libraries' first calls with it in mind.")),
        Block::List(items),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::spearman::Spearman;
    use schema::{CellKey, Op, Variant};

    fn spread(iqr_ratio: f64, drift: Option<(f64, f64)>) -> Spread {
        Spread {
            n: 30,
            median: 1e6,
            iqr_ratio,
            mad_ratio: iqr_ratio / 2.0,
            drift: drift.map(|(rho, p)| Spearman { n: 30, rho, p }),
        }
    }

    fn row(codec: &str, wall: Spread, ipo: Spread) -> NoiseRow {
        NoiseRow {
            key: CellKey {
                fixture: "users-2kb".into(),
                op: Op::De,
                variant: Variant::PORTABLE,
                batch: 1,
                codec: codec.into(),
            },
            runtime: "rust".into(),
            wall: Some(wall),
            init_plus_ops: Some(ipo),
        }
    }

    #[test]
    fn the_sentence_names_the_widest_spread_and_the_strongest_drift() {
        let rows = [
            row(
                "noop",
                spread(0.05, Some((0.1, 0.5))),
                spread(0.2, Some((-0.45, 0.001))),
            ),
            row("jvm-floor", spread(0.08, None), spread(0.01, None)),
        ];
        assert_eq!(
            noise_sentence(&rows),
            "A floor runs no library, so its spread is the machine's and the harness's noise: the widest spread of a floor's wall was 8.0% of its median (IQR; MAD 4.0%), in users-2kb de ×1 jvm-floor (portable); the strongest drift against the block index was ρ = -0.45 (p = 0.0010, init_plus_ops of users-2kb de ×1 noop (portable)), beyond the drift warning's |ρ| ≥ 0.3 with p < 0.01."
        );
    }
}
