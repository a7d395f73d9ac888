//! The answer a run gives first: for one fixture and op (and build), among the codecs of one
//! style, which codec is cheapest from which number of operations, each switch with its interval,
//! and the codecs tied with the cheapest at each count. `answer` finds it; this is its form in
//! `summary.json` (`answers`) and its one line of words, written once so that `cold run`,
//! `analysis report` (terminal, report.md, report.html) and `analysis answer` say it alike.

use schema::{Op, Style};
use serde::{Deserialize, Serialize};

/// Where the costs behind an answer were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A cold run: one fresh process per sample, its cost at each batch.
    Batches,
    /// A curve run: C(n), the cumulative cost read after n operations in one process.
    Curve,
}

/// What an answer's cost counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// init + operations: what a library adds to a program that starts anyway.
    #[default]
    Running,
    /// The whole process, spawn to exit less building its input: what a CLI or a serverless
    /// function pays (its model's classes, its package initialisation, its exit hooks).
    Process,
}

impl Basis {
    /// Both, in the order the answers are given.
    pub const ALL: [Basis; 2] = [Basis::Running, Basis::Process];

    /// The name in files (`running`, `process`).
    pub fn name(self) -> &'static str {
        match self {
            Basis::Running => "running",
            Basis::Process => "process",
        }
    }

    /// The words of a line: `in a running program`, `as a whole process`.
    pub fn words(self) -> &'static str {
        match self {
            Basis::Running => "in a running program",
            Basis::Process => "as a whole process",
        }
    }
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
    /// Whether the switch into it is one the curves make: the codec is the dearer before it and
    /// the cheaper after it, each by a paired interval that excludes 1. A switch that is not is
    /// a crossing within the noise, and is not stated as a switch.
    #[serde(default = "yes")]
    pub parted: bool,
}

fn yes() -> bool {
    true
}

/// A codec that cannot be told from the cheapest at one count: its cost over the cheapest's,
/// paired within blocks, has an interval that reaches 1 (or too few pairs for one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tie {
    pub codec: String,
    pub median_ns: f64,
    /// Its median less its floor's (the whole process only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_floor_ns: Option<f64>,
    /// Its cost over the cheapest's: the Hodges–Lehmann ratio, and its interval.
    pub ratio: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<(f64, f64)>,
}

/// The cheapest codec at one count of operations, its median cost there, and the codecs tied
/// with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cheapest {
    pub n: u64,
    pub codec: String,
    pub median_ns: f64,
    /// Its median less its floor's (the whole process only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_floor_ns: Option<f64>,
    #[serde(default)]
    pub tied: Vec<Tie>,
}

impl Cheapest {
    /// The cheapest and every codec tied with it, the cheapest first.
    pub fn names(&self) -> Vec<&str> {
        std::iter::once(self.codec.as_str())
            .chain(self.tied.iter().map(|t| t.codec.as_str()))
            .collect()
    }
}

/// The answer for one fixture × op (× build) × style, on one basis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub fixture: String,
    pub op: Op,
    /// The build, named only when the run has more than one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The codecs compared: typed (into the user's own types) or DOM (the library's tree).
    #[serde(default = "typed")]
    pub style: Style,
    /// The run has no library of the other style for this fixture and op.
    #[serde(default)]
    pub only_style: bool,
    #[serde(default)]
    pub basis: Basis,
    /// The floors a whole process's figures are read against (its runtime's), where the run has
    /// them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floors: Vec<String>,
    pub source: Source,
    /// The most operations measured: the largest batch, or the curve's N.
    pub last: u64,
    /// The intervals' level (0.95).
    pub level: f64,
    pub stretches: Vec<Stretch>,
    /// The cheapest codec, and those tied with it, at 1, 10, 100, … and the last count, where
    /// measured.
    #[serde(default)]
    pub at: Vec<Cheapest>,
}

fn typed() -> Style {
    Style::Typed
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

/// Names in words: `a`, `a and b`, `a, b and c`.
pub fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl Answer {
    /// The scenario's name at the head of its line: `de users-2kb, typed, in a running program`,
    /// `ser users-2kb (jdk25), DOM (the only style measured), as a whole process`.
    pub fn subject(&self) -> String {
        let build = self
            .variant
            .as_ref()
            .map_or(String::new(), |v| format!(" ({v})"));
        let style = match self.style {
            Style::Dom => "DOM",
            _ => "typed",
        };
        let only = if self.only_style {
            " (the only style measured)"
        } else {
            ""
        };
        format!(
            "{} {}{build}, {style}{only}, {}",
            self.op,
            self.fixture,
            self.basis.words()
        )
    }

    /// The answer in one line of words. Where every count has one cheapest codec, its stretches:
    /// `de users-2kb, typed, in a running program: serde_json is cheapest from 1 to 12
    /// operations; simd-json from 13 [9, 26] up to 100 (…how it was measured)`. Where codecs tie
    /// at a count, the counts with who is cheapest at each, then the switches the curves make:
    /// `…: miniserde, serde_json and nanoserde tie at 1 (within 95%); sonic-rs at 10 to 100,000;
    /// sonic-rs is the cheaper from 70 [40, 150] (…)`.
    pub fn line(&self) -> String {
        if self.stretches.is_empty() {
            return format!("{}: no codec has a cost to compare", self.subject());
        }
        let crossings: Vec<String> = self
            .stretches
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, s)| !s.parted)
            .map(|(k, s)| {
                format!(
                    "{} and {} cross near {} without parting",
                    self.stretches[k - 1].codec,
                    s.codec,
                    count(s.from)
                )
            })
            .collect();
        let mut parts = if self.at.iter().any(|c| !c.tied.is_empty()) {
            let mut parts = self.at_counts();
            let switches: Vec<String> = self
                .switches()
                .map(|s| {
                    let interval = s.interval.map(|i| self.interval(i)).unwrap_or_default();
                    format!(
                        "{} is the cheaper from {}{interval}",
                        s.codec,
                        count(s.from)
                    )
                })
                .collect();
            parts.extend(switches);
            parts
        } else {
            vec![self.stretches_in_words()]
        };
        parts.extend(crossings);
        format!(
            "{}: {}{}",
            self.subject(),
            parts.join("; "),
            self.measured()
        )
    }

    /// The stretches the curves make (a switch that does not part is no stretch of its own): `a
    /// is cheapest from 1 to 12 operations; b from 13 [9, 26] up to 100`.
    fn stretches_in_words(&self) -> String {
        let last = count(self.last);
        let kept: Vec<&Stretch> = self
            .stretches
            .iter()
            .take(1)
            .chain(self.switches())
            .collect();
        let first = kept[0];
        if kept.len() == 1 && first.from == self.last {
            let noun = if self.last == 1 {
                "operation"
            } else {
                "operations"
            };
            return format!(
                "{} is cheapest at {last} {noun}, the only count measured",
                first.codec
            );
        }
        if kept.len() == 1 {
            return format!(
                "{} is cheapest at every count measured, {} to {last} operations",
                first.codec,
                count(first.from)
            );
        }
        let mut parts = Vec::new();
        for (k, s) in kept.iter().enumerate() {
            let to = kept.get(k + 1).map(|next| next.from - 1);
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
        parts.join("; ")
    }

    /// The counts measured, grouped where the same codecs share them: `a and b tie at 1 and 10
    /// (within 95%)`, `c at 100 to 100,000`.
    fn at_counts(&self) -> Vec<String> {
        let mut groups: Vec<(Vec<&str>, Vec<u64>)> = Vec::new();
        for c in &self.at {
            let mut names = c.names();
            let key = {
                let mut k = names.clone();
                k.sort_unstable();
                k
            };
            match groups.last_mut() {
                Some((g, ns))
                    if {
                        let mut k = g.clone();
                        k.sort_unstable();
                        k == key
                    } =>
                {
                    ns.push(c.n)
                }
                _ => {
                    names.dedup();
                    groups.push((names, vec![c.n]));
                }
            }
        }
        let level = (self.level * 100.0).round();
        groups
            .into_iter()
            .map(|(names, ns)| {
                let at = match ns.as_slice() {
                    [one] => format!("at {}", count(*one)),
                    [a, b] => format!("at {} and {}", count(*a), count(*b)),
                    [a, .., b] => format!("at {} to {}", count(*a), count(*b)),
                    [] => String::new(),
                };
                if names.len() == 1 {
                    format!("{} {at}", names[0])
                } else {
                    format!("{} tie {at} (within {level}%)", and_list(&names))
                }
            })
            .collect()
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

    /// The switches the curves make (the stretches after the first whose curves part).
    pub fn switches(&self) -> impl Iterator<Item = &Stretch> {
        self.stretches.iter().skip(1).filter(|s| s.parted)
    }

    /// How the counts were measured, after the line.
    fn measured(&self) -> String {
        match (self.source, self.basis) {
            (Source::Batches, Basis::Running) => {
                " (init + operations, a fresh process per sample)".into()
            }
            (Source::Batches, Basis::Process) if self.floors.is_empty() => {
                " (spawn to exit less building the input, a fresh process per sample; no floor in the run)".into()
            }
            (Source::Batches, Basis::Process) => format!(
                " (spawn to exit less building the input, a fresh process per sample, against the floor {})",
                and_list(&self.floors.iter().map(String::as_str).collect::<Vec<_>>())
            ),
            (Source::Curve, _) => " (C(n), read in one process)".into(),
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
            style: Style::Typed,
            only_style: false,
            basis: Basis::Running,
            floors: Vec::new(),
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
            parted: true,
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
            "de users-2kb, typed, in a running program: serde_json is cheapest from 1 to 12 operations; simd-json from 13 [9, 26] up to 100 (init + operations, a fresh process per sample)"
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
            "de users-2kb (jdk25), typed, in a running program: kotlinx is cheapest at every count measured, 1 to 1,000,000 operations (C(n), read in one process)"
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
            "de users-2kb, typed, in a running program: serde_json is cheapest at 1 operation, the only count measured (init + operations, a fresh process per sample)"
        );
    }

    fn at(n: u64, codec: &str, tied: &[&str]) -> Cheapest {
        Cheapest {
            n,
            codec: codec.into(),
            median_ns: 1000.0,
            over_floor_ns: None,
            tied: tied
                .iter()
                .map(|c| Tie {
                    codec: (*c).into(),
                    median_ns: 1010.0,
                    over_floor_ns: None,
                    ratio: 1.01,
                    interval: Some((0.98, 1.04)),
                })
                .collect(),
        }
    }

    #[test]
    fn ties_are_named_and_a_switch_is_stated_only_where_the_curves_part() {
        // a tie at 1 and 10, then one codec alone; the switch into it parts
        let mut a = answer(vec![
            stretch("miniserde", 1, None),
            stretch("sonic-rs", 70, Some((Some(40), Some(150)))),
        ]);
        a.source = Source::Curve;
        a.last = 100_000;
        a.at = vec![
            at(1, "miniserde", &["serde_json", "nanoserde"]),
            at(10, "miniserde", &["nanoserde", "serde_json"]),
            at(100, "sonic-rs", &[]),
            at(100_000, "sonic-rs", &[]),
        ];
        assert_eq!(
            a.line(),
            "de users-2kb, typed, in a running program: miniserde, serde_json and nanoserde tie at 1 and 10 (within 95%); sonic-rs at 100 and 100,000; sonic-rs is the cheaper from 70 [40, 150] (C(n), read in one process)"
        );
        // two codecs that never part: a tie, no switch, never \"cheapest at every count\"
        let mut b = answer(vec![
            stretch("a", 1, None),
            stretch("b", 13, Some((Some(2), None))),
        ]);
        b.stretches[1].parted = false;
        b.at = vec![
            at(1, "a", &["b"]),
            at(10, "b", &["a"]),
            at(100, "a", &["b"]),
        ];
        let line = b.line();
        assert_eq!(
            line,
            "de users-2kb, typed, in a running program: a and b tie at 1 to 100 (within 95%); a and b cross near 13 without parting (init + operations, a fresh process per sample)"
        );
        // without ties, a switch that does not part is no stretch of its own
        b.at = vec![at(1, "a", &[]), at(100, "a", &[])];
        assert!(
            b.line().contains(": a is cheapest at every count measured, 1 to 100 operations; a and b cross near 13 without parting"),
            "{}",
            b.line()
        );
    }

    #[test]
    fn the_whole_process_and_a_single_style_say_so() {
        let mut a = answer(vec![stretch("easyjson", 1, None)]);
        a.basis = Basis::Process;
        a.only_style = true;
        a.floors = vec!["go-floor".into()];
        a.at = vec![at(1, "easyjson", &["goccy"])];
        assert_eq!(
            a.line(),
            "de users-2kb, typed (the only style measured), as a whole process: easyjson and goccy tie at 1 (within 95%) (spawn to exit less building the input, a fresh process per sample, against the floor go-floor)"
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
