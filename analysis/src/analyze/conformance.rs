//! The conformance table summarised per codec: how many test files it handled as the JSON
//! specification requires, and how it went wrong where it did.

use crate::inputs::conformance::ConformanceRow;
use schema::conformance_file::{Expected, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct ConformanceSummary {
    pub(crate) codec: String,
    pub(crate) files: usize,
    /// Files the table marks correct (for `i` files any clean outcome is correct).
    pub(crate) correct: usize,
    /// `y` files (must accept) that were rejected.
    pub(crate) rejected_valid: usize,
    /// `n` files (must reject) that were accepted.
    pub(crate) accepted_invalid: usize,
    /// `i` files (implementation-defined) accepted / rejected.
    pub(crate) impl_accepted: usize,
    pub(crate) impl_rejected: usize,
    pub(crate) crashed: usize,
    pub(crate) timeout: usize,
}

/// One summary per codec, sorted by codec.
pub(crate) fn summarize(rows: &[ConformanceRow]) -> Vec<ConformanceSummary> {
    let mut by: BTreeMap<&str, ConformanceSummary> = BTreeMap::new();
    for r in rows {
        let s = by.entry(&r.codec).or_insert_with(|| ConformanceSummary {
            codec: r.codec.clone(),
            ..Default::default()
        });
        s.files += 1;
        s.correct += usize::from(r.correct);
        match (r.expected, r.outcome) {
            (_, Outcome::Crashed) => s.crashed += 1,
            (_, Outcome::Timeout) => s.timeout += 1,
            (Expected::Accept, Outcome::Rejected) => s.rejected_valid += 1,
            (Expected::Reject, Outcome::Accepted) => s.accepted_invalid += 1,
            (Expected::Either, Outcome::Accepted) => s.impl_accepted += 1,
            (Expected::Either, Outcome::Rejected) => s.impl_rejected += 1,
            _ => {}
        }
    }
    by.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(codec: &str, expected: &str, outcome: &str, correct: bool) -> ConformanceRow {
        ConformanceRow {
            codec: codec.into(),
            file: "x.json".into(),
            expected: expected.parse().unwrap(),
            outcome: outcome.parse().unwrap(),
            correct,
            detail: None,
        }
    }

    #[test]
    fn counts() {
        let s = summarize(&[
            r("a", "y", "accepted", true),
            r("a", "y", "rejected", false),
            r("a", "n", "accepted", false),
            r("a", "i", "rejected", true),
            r("a", "n", "crashed", false),
            r("b", "y", "accepted", true),
        ]);
        assert_eq!(s.len(), 2);
        assert_eq!(
            (
                s[0].files,
                s[0].correct,
                s[0].rejected_valid,
                s[0].accepted_invalid,
                s[0].impl_rejected,
                s[0].crashed
            ),
            (5, 2, 1, 1, 1, 1)
        );
    }
}
