//! The answer a run gives first: for one fixture and op (and build), which codec is cheapest from
//! which number of operations, each switch with its interval. `stats::cheapest` finds it; this
//! is its form in `summary.json` (`answers`) and its one line of words, written once so that
//! `cold run`, `analysis report` (terminal, report.md, report.html) and `analysis answer` say it
//! alike.

use schema::Op;
use serde::{Deserialize, Serialize};

/// Where the costs behind an answer were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A cold run: one fresh process per sample, its init + operations at each batch.
    Batches,
    /// A curve run: C(n), the cumulative cost read after n operations in one process.
    Curve,
}

/// One codec's stretch: cheapest from `from` operations until the next stretch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stretch {
    pub codec: String,
    pub from: u64,
    /// The switch's interval (every stretch but the first); a bound of `None` lies beyond the
    /// last count measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<(Option<u64>, Option<u64>)>,
}

/// The cheapest codec at one count of operations, and its median cost there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cheapest {
    pub n: u64,
    pub codec: String,
    pub median_ns: f64,
}

/// The answer for one fixture × op (× build).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub fixture: String,
    pub op: Op,
    /// The build, named only when the run has more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub source: Source,
    /// The most operations measured: the largest batch, or the curve's N.
    pub last: u64,
    /// The intervals' level (0.95).
    pub level: f64,
    pub stretches: Vec<Stretch>,
    /// The cheapest codec at 1, 10, 100, … and the last count, where measured.
    #[serde(default)]
    pub at: Vec<Cheapest>,
}

/// `n` with its thousands separated: 881622 → "881,622".
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

impl Answer {
    /// The scenario's name at the head of its line: `de users-2kb`, `ser users-2kb (jdk25)`.
    pub fn subject(&self) -> String {
        match &self.variant {
            Some(v) => format!("{} {} ({v})", self.op, self.fixture),
            None => format!("{} {}", self.op, self.fixture),
        }
    }

    /// The answer in one line of words, e.g. `de users-2kb: serde_json is cheapest from 1 to 12
    /// operations; simd-json from 13 [9, 26] up to 100 (…how it was measured)`.
    pub fn line(&self) -> String {
        let last = count(self.last);
        let Some(first) = self.stretches.first() else {
            return format!("{}: no codec has a cost to compare", self.subject());
        };
        if self.stretches.len() == 1 && first.from == self.last {
            let noun = if self.last == 1 {
                "operation"
            } else {
                "operations"
            };
            return format!(
                "{}: {} is cheapest at {last} {noun}, the only count measured{}",
                self.subject(),
                first.codec,
                self.measured()
            );
        }
        if self.stretches.len() == 1 {
            return format!(
                "{}: {} is cheapest at every count measured, {} to {last} operations{}",
                self.subject(),
                first.codec,
                count(first.from),
                self.measured()
            );
        }
        let mut parts = Vec::new();
        for (k, s) in self.stretches.iter().enumerate() {
            let to = self.stretches.get(k + 1).map(|next| next.from - 1);
            let interval = s.interval.map(|i| self.interval(i)).unwrap_or_default();
            let from = format!("{}{interval}", count(s.from));
            let span = match to {
                Some(to) if to == s.from => format!("at {from}"),
                Some(to) => format!("from {from} to {}", count(to)),
                None => format!("from {from} up to {last}"),
            };
            if k == 0 {
                let noun = if to == Some(1) {
                    "operation"
                } else {
                    "operations"
                };
                parts.push(format!("{} is cheapest {span} {noun}", s.codec));
            } else {
                parts.push(format!("{} {span}", s.codec));
            }
        }
        format!(
            "{}: {}{}",
            self.subject(),
            parts.join("; "),
            self.measured()
        )
    }

    /// ` [9, 26]`, or the same with what it does not allow where a bound lies beyond the run.
    fn interval(&self, (lo, hi): (Option<u64>, Option<u64>)) -> String {
        let bound = |b: Option<u64>| match b {
            Some(n) => count(n),
            None => format!("beyond {}", count(self.last)),
        };
        let level = (self.level * 100.0).round();
        match (lo, hi) {
            (Some(_), Some(_)) => format!(" [{}, {}]", bound(lo), bound(hi)),
            _ => format!(
                " (its {level}% interval [{}, {}] allows no verdict: the switch may not happen within {} operations)",
                bound(lo),
                bound(hi),
                count(self.last)
            ),
        }
    }

    /// The cheapest codec at `n` operations, where the run measured that count.
    pub fn cheapest_at(&self, n: u64) -> Option<&Cheapest> {
        self.at.iter().find(|c| c.n == n)
    }

    /// How the counts were measured, after the line.
    fn measured(&self) -> &'static str {
        match self.source {
            Source::Batches => " (init + operations, a fresh process per sample)",
            Source::Curve => " (C(n), read in one process)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(stretches: Vec<Stretch>) -> Answer {
        Answer {
            fixture: "users-2kb".into(),
            op: Op::De,
            variant: None,
            source: Source::Batches,
            last: 100,
            level: 0.95,
            stretches,
            at: Vec::new(),
        }
    }

    fn stretch(codec: &str, from: u64, interval: Option<(Option<u64>, Option<u64>)>) -> Stretch {
        Stretch {
            codec: codec.into(),
            from,
            interval,
        }
    }

    #[test]
    fn a_switch_reads_as_the_issue_asked() {
        let a = answer(vec![
            stretch("serde_json", 1, None),
            stretch("simd-json", 13, Some((Some(9), Some(26)))),
        ]);
        assert_eq!(
            a.line(),
            "de users-2kb: serde_json is cheapest from 1 to 12 operations; simd-json from 13 [9, 26] up to 100 (init + operations, a fresh process per sample)"
        );
        let b = answer(vec![
            stretch("serde_json", 1, None),
            stretch("simd-json", 2, Some((Some(2), Some(4)))),
        ]);
        assert!(
            b.line().contains(
                "serde_json is cheapest at 1 operation; simd-json from 2 [2, 4] up to 100"
            ),
            "{}",
            b.line()
        );
    }

    #[test]
    fn one_codec_throughout_an_open_interval_and_a_build() {
        let mut a = answer(vec![stretch("kotlinx", 1, None)]);
        a.variant = Some("jdk25".into());
        a.source = Source::Curve;
        a.last = 1_000_000;
        assert_eq!(
            a.line(),
            "de users-2kb (jdk25): kotlinx is cheapest at every count measured, 1 to 1,000,000 operations (C(n), read in one process)"
        );
        a.stretches
            .push(stretch("fory", 881_622, Some((Some(266_886), None))));
        let line = a.line();
        assert!(
            line.contains("fory from 881,622 (its 95% interval [266,886, beyond 1,000,000] allows no verdict: the switch may not happen within 1,000,000 operations) up to 1,000,000"),
            "{line}"
        );
    }

    #[test]
    fn one_count_measured_says_so() {
        let mut a = answer(vec![stretch("serde_json", 1, None)]);
        a.last = 1;
        assert_eq!(
            a.line(),
            "de users-2kb: serde_json is cheapest at 1 operation, the only count measured (init + operations, a fresh process per sample)"
        );
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(881_622), "881,622");
        assert_eq!(count(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn an_answer_reads_back_from_its_json() {
        let a = answer(vec![
            stretch("serde_json", 1, None),
            stretch("simd-json", 13, Some((Some(9), None))),
        ]);
        let text = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Answer>(&text).unwrap(), a);
    }
}
