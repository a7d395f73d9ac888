//! Go's warm estimates, the Go warm track (`runtimes/go/bench`, `scripts/warm-go.sh`): every
//! `*.txt` directly in `<warm>/go/`, Go's standard benchmark format (`go test -bench` output, as
//! benchstat reads it) kept as Go wrote it, read into the [`WarmEstimate`]s criterion's reader
//! gives, so a Go codec's warm time per operation stands beside a Rust or JVM codec's.
//!
//! The format (golang.org/x/perf's benchfmt): a configuration line `key: value` (a key starts
//! with a lower-case letter and holds no space) applies to the results after it; a result line is
//! `Benchmark<name>-<GOMAXPROCS> <iterations> <value> <unit> [<value> <unit>]...`, the suffix
//! absent when GOMAXPROCS is 1. Any other line (`PASS`, `ok …`) is not a result. thaw's names are
//! explicit, never guessed: `BenchmarkThaw/codec=<id>/fixture=<name>/op=<de|ser>`, the codec the
//! cold codec of that id (the Go runtime's), the value taken its `ns/op` (Go's mean over the
//! iterations of one run). `scripts/warm-go.sh` runs each fork round in fresh processes after a
//! configuration line `fork: <k>`: a cell's figure is the median of its rounds' with the
//! distribution-free interval across them ([`super::forks::across`]), as the Rust track's forks.
//!
//! Nothing here panics on a file: a line that is not a result of thaw's cells (another name, a
//! missing or impossible `ns/op`) is skipped with a note naming the file, its line and what would
//! be valid. Links are never followed.

use super::criterion::WarmEstimate;
use super::plausible_ns;
use super::rounds::{cell, estimates, texts, RoundResult};
use anyhow::Result;
use std::path::Path;

/// The top-level benchmark of thaw's Go cells.
pub(crate) const PREFIX: &str = "BenchmarkThaw/";

/// The variant (build) of the Go runtime's cold cells, `runtimes/go/runtime.toml`'s one build.
pub(crate) const VARIANT: &str = "go";

/// The most thaw reads of one file (a pass of every cell is a few KB).
pub(crate) const READ_LIMIT: u64 = 16 * 1024 * 1024;

/// The thaw results of one file's text, and notes naming each line skipped (`file` names it).
pub(crate) fn parse(file: &str, text: &str) -> (Vec<RoundResult>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    let mut fork = 0u32;
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{file}:{}", i + 1);
        if let Some((key, value)) = config(line) {
            if key == "fork" {
                match value.trim().parse::<u32>() {
                    Ok(k) => fork = k,
                    Err(_) => notes.push(format!(
                        "{}: `fork: {}` is not a whole number; the results after it keep fork {fork}",
                        at(),
                        value.escape_debug()
                    )),
                }
            }
            continue;
        }
        if !line.starts_with("Benchmark") {
            continue;
        }
        match result(line, fork) {
            Ok(Some(r)) => out.push(r),
            Ok(None) => {}
            Err(why) => notes.push(format!("{}: {why}; skipped", at())),
        }
    }
    (out, notes)
}

/// `key: value` of a configuration line.
fn config(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(": ")?;
    let mut chars = key.chars();
    let first = chars.next()?;
    (first.is_ascii_lowercase() && !key.contains(char::is_whitespace)).then_some((key, value))
}

/// The result of a `Benchmark…` line: `None` for another benchmark than thaw's.
fn result(line: &str, fork: u32) -> std::result::Result<Option<RoundResult>, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let name = fields[0];
    let Some(rest) = name.strip_prefix(PREFIX) else {
        return Ok(None);
    };
    let escaped = || name.escape_debug().to_string();
    // The -GOMAXPROCS suffix is on the last part, `op=de-2`; `de` and `ser` hold no digit.
    let rest = match rest.rsplit_once('-') {
        Some((head, procs)) if !procs.is_empty() && procs.bytes().all(|b| b.is_ascii_digit()) => {
            head
        }
        _ => rest,
    };
    let (codec, fixture, op) = cell(rest, name)?;
    let iterations = fields.get(1).and_then(|n| n.parse::<u64>().ok());
    if iterations.is_none_or(|n| n == 0) {
        return Err(format!(
            "`{}`: no whole number of iterations after the name",
            escaped()
        ));
    }
    let ns = fields[2..]
        .chunks(2)
        .find(|pair| pair.len() == 2 && pair[1] == "ns/op")
        .map(|pair| pair[0].parse::<f64>());
    match ns {
        Some(Ok(ns)) if plausible_ns(ns) => Ok(Some(RoundResult {
            codec,
            fixture,
            op,
            fork,
            ns_per_op: ns,
        })),
        Some(_) => Err(format!(
            "`{}`: its ns/op is not a plausible time",
            escaped()
        )),
        None => Err(format!("`{}`: no ns/op", escaped())),
    }
}

/// Estimates from the `*.txt` files directly in `root` (`results/warm/go`), sorted by cell, and
/// notes about what was skipped, each naming its file. `None` when `root` does not exist.
pub(crate) fn load_gobench(root: &Path) -> Result<Option<(Vec<WarmEstimate>, Vec<String>)>> {
    let Some((texts, mut notes)) = texts(root, "txt", READ_LIMIT)? else {
        return Ok(None);
    };
    let mut results = Vec::new();
    for (shown, text) in texts {
        let (more, more_notes) = parse(&shown, &text);
        results.extend(more);
        notes.extend(more_notes);
    }
    Ok(Some((estimates(&results, VARIANT), notes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::{Op, Variant};

    const RAW: &str = "\
go: go1.26.8
fork: 1
goos: linux
goarch: amd64
pkg: thaw/runtimes/go/bench
cpu: AMD EPYC
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de-2         \t   14272\t     16569 ns/op\t    5663 B/op\t      13 allocs/op
BenchmarkThaw/codec=encoding-json/fixture=users-2kb/op=ser-2\t   25495\t      9541 ns/op\t    2304 B/op\t       1 allocs/op
PASS
ok  \tthaw/runtimes/go/bench\t4.834s
fork: 2
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de-2         \t   14000\t     17000 ns/op\t    5663 B/op\t      13 allocs/op
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de           \t   14000\t     18000.5 ns/op
fork: 3
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de-2         \t   14000\t     15000 ns/op
BenchmarkOther-2 \t 10 \t 5 ns/op
";

    #[test]
    fn results_carry_their_cell_fork_and_ns_per_op_with_or_without_the_procs_suffix() {
        let (results, notes) = parse("bench.txt", RAW);
        assert!(notes.is_empty(), "{notes:?}");
        let got: Vec<(&str, &str, Op, u32, f64)> = results
            .iter()
            .map(|r| {
                (
                    r.codec.as_str(),
                    r.fixture.as_str(),
                    r.op,
                    r.fork,
                    r.ns_per_op,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("sonic", "users-2kb", Op::De, 1, 16569.0),
                ("encoding-json", "users-2kb", Op::Ser, 1, 9541.0),
                ("sonic", "users-2kb", Op::De, 2, 17000.0),
                ("sonic", "users-2kb", Op::De, 2, 18000.5),
                ("sonic", "users-2kb", Op::De, 3, 15000.0),
            ]
        );
    }

    #[test]
    fn a_cell_is_the_median_of_its_rounds_each_round_its_own_median() {
        let (results, _) = parse("bench.txt", RAW);
        let est = estimates(&results, VARIANT);
        let sonic = est.iter().find(|e| e.codec == "sonic").unwrap();
        // Rounds: 16569; median(17000, 18000.5) = 17500.25; 15000. Their median: 16569.
        assert_eq!(sonic.median_ns, 16569.0);
        assert_eq!((sonic.lo_ns, sonic.hi_ns), (15000.0, 17500.25));
        let forks = sonic.forks.as_ref().unwrap();
        assert_eq!(forks.processes, 3);
        assert_eq!(forks.rounds, vec![1, 2, 3]);
        assert_eq!(sonic.variant, Variant::parse("go").ok());
        let enc = est.iter().find(|e| e.codec == "encoding-json").unwrap();
        assert_eq!(
            (enc.op, enc.median_ns, enc.lo_ns, enc.hi_ns),
            (Op::Ser, 9541.0, 9541.0, 9541.0)
        );
    }

    #[test]
    fn lines_that_are_not_thaws_cells_are_skipped_with_the_line_named() {
        let text = "\
BenchmarkThaw/codec=sonic/op=de-2 \t 10 \t 5 ns/op
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=both-2 \t 10 \t 5 ns/op
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de-2 \t 10 \t -5 ns/op
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de-2 \t 10 \t 5 B/op
BenchmarkThaw/codec=sonic/fixture=users-2kb/op=de-2 \t zero \t 5 ns/op
BenchmarkThaw/codec=so\x1bnic/fixture=users-2kb/op=de-2 \t 10 \t 5 ns/op
fork: x
";
        let (results, notes) = parse("f.txt", text);
        assert!(results.is_empty(), "{results:?}");
        assert_eq!(notes.len(), 7, "{notes:#?}");
        assert!(notes[0].starts_with("f.txt:1: "), "{}", notes[0]);
        assert!(notes[2].contains("not a plausible time"), "{}", notes[2]);
        assert!(notes[3].contains("no ns/op"), "{}", notes[3]);
        assert!(notes.iter().all(|n| !n.contains('\x1b')), "{notes:?}");
        assert!(notes[6].starts_with("f.txt:7: `fork: x`"), "{}", notes[6]);
    }
}
