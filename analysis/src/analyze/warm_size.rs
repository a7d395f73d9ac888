//! The warm figures' check against their own harness: a cell whose cost per operation moves with
//! criterion's sample size (in most of its processes, significantly and by more than
//! [`THRESHOLD`] across the sampled range) is measuring its batches, not its library, and the
//! report says so by name (docs/statistics.md, "A warm `de` batch").

use crate::inputs::criterion::WarmEstimate;
use stats::quantile::median_unsorted;

/// A trend smaller than this fraction across the sampled range is not warned of.
pub(crate) const THRESHOLD: f64 = 0.05;
/// Spearman's p below which a process's trend counts.
pub(crate) const ALPHA: f64 = 0.05;

/// One warning naming every cell whose processes mostly show a size effect; `None` when none do.
pub(crate) fn warning(warm: &[WarmEstimate]) -> Option<String> {
    let named: Vec<String> = warm.iter().filter_map(cell_effect).collect();
    (!named.is_empty()).then(|| {
        format!(
            "The warm cost per operation moves with criterion's sample size (significant at p < {ALPHA} and beyond ±{:.0}% across the sampled range, in most of a cell's processes) in {} of {} warm figures: {}. Such a figure measures the harness's batches (cache, allocator), not the library; docs/statistics.md says how the warm `de` batch is chosen.",
            THRESHOLD * 100.0,
            named.len(),
            warm.len(),
            super::warnings::list(&named)
        )
    })
}

/// `fixture/op/codec (variant): +31% [largest quarter 1.35×], in 5 of 5 processes`, when most
/// of the cell's processes show the effect.
fn cell_effect(w: &WarmEstimate) -> Option<String> {
    let effects = &w.size_effects;
    let hits = effects
        .iter()
        .filter(|e| e.matters(ALPHA, THRESHOLD))
        .count();
    if effects.is_empty() || 2 * hits <= effects.len() {
        return None;
    }
    let effect = median_unsorted(effects.iter().map(|e| e.effect).collect())?;
    let quarters = median_unsorted(effects.iter().map(|e| e.quarters).collect())?;
    let variant = w
        .variant
        .map(|v| format!(" ({})", v.name()))
        .unwrap_or_default();
    Some(format!(
        "{}/{}/{}{variant}: {:+.0}% (largest quarter of samples over the smallest {quarters:.2}×), in {hits} of {} processes",
        w.fixture,
        w.op,
        w.codec,
        effect * 100.0,
        effects.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::criterion::load_criterion;
    use files::Folder;
    use std::path::Path;

    /// One criterion bench of `codec` under `root/portable/`, whose samples cost `per_op(iters)`
    /// each per iteration, in criterion's linear sampling of 100 samples of 79 × i iterations.
    fn bench(root: &Path, codec: &str, per_op: impl Fn(f64) -> f64) {
        let dir = root.join("portable/users-2kb_de").join(codec).join("new");
        std::fs::create_dir_all(&dir).unwrap();
        let iters: Vec<f64> = (1..=100).map(|i| 79.0 * i as f64).collect();
        let times: Vec<f64> = iters.iter().map(|&n| n * per_op(n)).collect();
        let id = format!("users-2kb/de/{codec}");
        let estimate = serde_json::json!({"point_estimate": 6000.0,
            "confidence_interval": {"lower_bound": 5900.0, "upper_bound": 6100.0}});
        let folder = Folder::new(&dir);
        let write = |name: &str, v: serde_json::Value| {
            folder
                .write_atomically(name, v.to_string().as_bytes())
                .unwrap()
        };
        write("benchmark.json", serde_json::json!({"full_id": id}));
        write("estimates.json", serde_json::json!({"median": estimate}));
        write(
            "sample.json",
            serde_json::json!({"iters": iters, "times": times}),
        );
    }

    #[test]
    fn a_cost_planted_to_grow_with_the_batch_is_named_and_a_flat_one_is_not() {
        let root = std::env::temp_dir().join(format!("thaw-warm-size-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        // the old batching: a sample cut into 10 batches, so a batch of n/10 calls whose inputs
        // and values outgrow the cache from about 100 calls on (the planted cost: 5.5 µs per call
        // in a small batch, 7.5 µs once a batch passes 1 MiB of 2 KiB documents and values)
        bench(&root, "grows", |n| {
            let batch = n / 10.0;
            5500.0 + 2000.0 * (batch * 4096.0 / (1 << 20) as f64).min(1.0)
        });
        // a batch of fixed size: the same cost in every sample, with a little noise
        bench(&root, "flat", |n| 5500.0 + (n % 7.0));
        let (warm, notes) = load_criterion(&root).unwrap().unwrap();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(warm.len(), 2);
        let said = warning(&warm).expect("the planted cost is warned of");
        assert!(said.contains("in 1 of 2 warm figures"), "{said}");
        assert!(said.contains("users-2kb/de/grows (portable): +"), "{said}");
        assert!(!said.contains("flat"), "{said}");
        let flat: Vec<WarmEstimate> = warm.into_iter().filter(|w| w.codec == "flat").collect();
        assert_eq!(warning(&flat), None);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn one_process_of_five_is_not_enough() {
        let e = |effect: f64| stats::size_effect::SizeEffect {
            n: 100,
            effect,
            p: 0.001,
            quarters: 1.0 + effect,
        };
        let mut w = WarmEstimate {
            fixture: "users-2kb".into(),
            op: schema::Op::De,
            codec: "serde_json".into(),
            variant: None,
            median_ns: 6000.0,
            lo_ns: 5900.0,
            hi_ns: 6100.0,
            criterion_samples: Some(100),
            fastest: None,
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        };
        w.size_effects = vec![e(0.3), e(0.01), e(0.02), e(-0.01), e(0.0)];
        assert_eq!(warning(std::slice::from_ref(&w)), None);
        w.size_effects = vec![e(0.3), e(0.25), e(0.31), e(-0.01), e(0.0)];
        let said = warning(std::slice::from_ref(&w)).unwrap();
        assert!(
            said.contains("+25%") && said.contains("in 3 of 5 processes"),
            "{said}"
        );
    }
}
