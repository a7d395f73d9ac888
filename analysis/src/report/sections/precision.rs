//! How precise the figures are: per cell, the relative half-width of the median's interval and
//! of the ratio to the reference (as `cold run --precision` measures them), and for a run made
//! with `--precision`, its rule and why it stopped.

use super::common::*;
use crate::analyze::precision::PrecisionRun;
use schema::StopReason;

/// The sentence on a `--precision` run: the rule, the samples per cell and the time it took,
/// and why it stopped, with the widest interval at its last check.
pub(crate) fn rule_sentence(p: &PrecisionRun) -> String {
    let r = &p.rule;
    let target = format!("±{}", format::percent(r.precision));
    let against = r.reference.as_deref().map_or(String::new(), |x| {
        format!(" and every paired ratio to {x} (Hodges-Lehmann, within blocks)")
    });
    let time = r.max_time_secs.map_or("no time limit".to_string(), |t| {
        format!("no round of blocks to end past {}", format::seconds(t))
    });
    let took = match p.samples_per_cell {
        Some(n) => format!("It took {n} samples per cell"),
        None => "It took an unrecorded number of samples per cell".to_string(),
    };
    let widest = match &r.widest {
        Some((label, Some(hw))) => format!("{} ({label})", format::half_width(*hw)),
        Some((label, None)) => format!("{label}, with too few samples for an interval"),
        None => "not known (no check was made)".to_string(),
    };
    let why = match r.stopped_on {
        Some(StopReason::Precision) => format!(
            "It stopped on precision: every interval had reached {target}; the widest at the last check was {widest}."
        ),
        Some(StopReason::Samples) => format!(
            "It stopped on samples: it reached the most blocks allowed ({}) before every interval reached {target}; the widest at the last check was {widest}.",
            r.max_blocks
        ),
        Some(StopReason::Time) => format!(
            "It stopped on time: another round of {} blocks would have run past {}; the widest interval at the last check was {widest}.",
            r.check_every,
            r.max_time_secs.map_or("the time allowed".to_string(), format::seconds)
        ),
        None => format!(
            "It has not stopped (the run did not finish); the widest interval at the last check was {widest}."
        ),
    };
    format!(
        "This run was sampled to a precision (`cold run --precision {}`): it added whole blocks until every cell's {:.0}% interval of the median init_plus_ops{against} reached within {target} of its estimate (the floors sampled but not asked), deciding after {} blocks and then every {}, with at most {} blocks and {time}. {took} in {} of sampling. {why}",
        format::percent(r.precision),
        r.level * 100.0,
        r.min_blocks,
        r.check_every,
        r.max_blocks,
        format::seconds(r.sampling_secs),
    )
}

/// How many of the rule's intervals this report finds within the target.
fn recount(p: &PrecisionRun, reference: Option<&str>) -> String {
    let ratios = if reference.is_some() && reference == p.rule.reference.as_deref() {
        String::new()
    } else {
        format!(
            " (its ratios to {} are not counted: this report's reference is {})",
            p.rule.reference.as_deref().unwrap_or("no codec"),
            reference.unwrap_or("none")
        )
    };
    format!(
        "By this report's own intervals, {} of the rule's {} intervals are within ±{}{ratios}.",
        p.within,
        p.intervals,
        format::percent(p.rule.precision)
    )
}

pub(super) fn precision(r: &Report) -> Vec<Block> {
    let mut out = vec![h(2, "Precision")];
    if let Some(run) = &r.precision_run {
        out.push(p(rule_sentence(run)));
        out.push(p(recount(run, r.reference.as_deref())));
    }
    let refname = r.reference.as_deref();
    out.push(p(format!(
        "Each interval's precision is its relative half-width on the wider side, max(estimate − lo, hi − estimate) / estimate, as `cold run --precision` computes it: of the cell's 95% interval of the median init_plus_ops, and of the paired ratio to {}. — : no interval (too few samples or pairs).",
        refname.unwrap_or("the reference (none in this report)")
    )));
    let target = r.precision_run.as_ref().map(|p| p.rule.precision);
    let variants = r.has_variants();
    let mut header = vec!["fixture", "op"];
    if variants {
        header.push("variant");
    }
    let ratio_col = format!(">ratio to {} ±", refname.unwrap_or("reference"));
    header.extend([">batch", "codec", ">n ok", ">median ±", &ratio_col]);
    let mut t = Table::new(&header);
    let width = |hw: Option<f64>, asked: bool| match hw {
        None => Cell::toned("—", Tone::Muted),
        Some(w) if !asked => Cell::toned(format::half_width(w), Tone::Muted),
        Some(w) if target.is_some_and(|t| w > t) => Cell::toned(format::half_width(w), Tone::Bad),
        Some(w) => Cell::new(format::half_width(w)),
    };
    for c in r.cells_in_order() {
        let floor = r.is_baseline(&c.key.codec);
        let mut row: Vec<Cell> = vec![c.key.fixture.clone().into(), c.key.op.into()];
        if variants {
            row.push(c.key.variant.into());
        }
        row.extend([
            c.key.batch.to_string().into(),
            if floor {
                Cell::toned(format!("{} (floor)", c.key.codec), Tone::Muted)
            } else {
                c.key.codec.clone().into()
            },
            c.ok.to_string().into(),
            width(c.init_plus_ops_half_width, !floor),
        ]);
        row.push(if Some(c.key.codec.as_str()) == refname {
            Cell::toned("reference", Tone::Muted)
        } else if floor {
            Cell::new("")
        } else {
            width(r.contrast(&c.key).and_then(|x| x.half_width), true)
        });
        t.row(row);
    }
    out.push(Block::Table(t));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::run_folder::Stopping;

    fn run(stopped_on: Option<StopReason>, max_time_secs: Option<f64>) -> PrecisionRun {
        PrecisionRun {
            rule: Stopping {
                precision: 0.03,
                level: 0.95,
                reference: Some("serde_json".into()),
                min_blocks: 10,
                check_every: 5,
                max_blocks: 300,
                max_time_secs,
                sampling_secs: 1.9597,
                stopped_on,
                widest: Some((
                    "users-2kb de ×1 sonic-rs (portable) / serde_json".into(),
                    Some(0.02399),
                )),
            },
            samples_per_cell: Some(165),
            intervals: 14,
            within: 14,
        }
    }

    #[test]
    fn the_sentence_gives_the_rule_the_cost_and_why_it_stopped() {
        let s = rule_sentence(&run(Some(StopReason::Precision), None));
        assert_eq!(
            s,
            "This run was sampled to a precision (`cold run --precision 3%`): it added whole blocks until every cell's 95% interval of the median init_plus_ops and every paired ratio to serde_json (Hodges-Lehmann, within blocks) reached within ±3% of its estimate (the floors sampled but not asked), deciding after 10 blocks and then every 5, with at most 300 blocks and no time limit. It took 165 samples per cell in 1.96 s of sampling. It stopped on precision: every interval had reached ±3%; the widest at the last check was ±2.4% (users-2kb de ×1 sonic-rs (portable) / serde_json)."
        );
        let s = rule_sentence(&run(Some(StopReason::Samples), None));
        assert!(
            s.contains("It stopped on samples: it reached the most blocks allowed (300) before every interval reached ±3%"),
            "{s}"
        );
        let s = rule_sentence(&run(Some(StopReason::Time), Some(600.0)));
        assert!(s.contains("no round of blocks to end past 10.0 min"), "{s}");
        assert!(
            s.contains(
                "It stopped on time: another round of 5 blocks would have run past 10.0 min"
            ),
            "{s}"
        );
        assert!(rule_sentence(&run(None, None)).contains("It has not stopped"));
    }

    #[test]
    fn the_recount_names_a_different_reference() {
        let p = run(Some(StopReason::Precision), None);
        assert_eq!(
            recount(&p, Some("serde_json")),
            "By this report's own intervals, 14 of the rule's 14 intervals are within ±3%."
        );
        assert!(recount(&p, Some("simd-json")).ends_with(
            "(its ratios to serde_json are not counted: this report's reference is simd-json)."
        ));
    }
}
