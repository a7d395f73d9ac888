//! `analysis answer`: the answer table of committed runs, as README.md shows it, rebuilt from the
//! raw runs. Each committed answer is a folder per runtime (`docs/runs/<runtime>/`) holding raw
//! run folders: a cold run at batches (`batches/`: init + operations and the whole process at ×1,
//! ×10, ×100) and a curve run (`curve/`: C(n) up to N in one process, and each process's steady
//! state), or a run folder itself. Each run is analysed as `analysis report` analyses it, and each
//! fixture × op × style (× build) is one row: the cheapest at ×1 and ×100 in a running program and
//! as a whole process, the codecs tied with it named beside it; the cheapest warm, which is the
//! curve's in-process steady state where at least 3 processes ran and at least half found one;
//! and where the answer flips, with its interval. Under the table, each runtime's date, machine,
//! commit and commands, and the answers in words. A figure changes only by committing a new run: a
//! test holds README.md's table to this output.

use crate::analyze::curve::{CurveCell, CurveOptions};
use crate::inputs::{curves, run};
use crate::report::format;
use crate::report::model::{answers_of, baselines_of, ReportOptions};
use ::answer::form::{count, Answer, Basis, Cheapest, Source};
use anyhow::{bail, Context, Result};
use schema::run_folder::{CodecEntry, Manifest};
use schema::{Op, Style};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The committed runs' names in the table's order; any other name follows, by name.
const RUNTIME_ORDER: [&str; 5] = ["rust", "jvm", "go", "python", "node"];

/// One committed runtime: its name (the folder's) and each of its runs as a report sees it.
struct Committed {
    name: String,
    runs: Vec<Judged>,
}

/// The run folders of a committed answer at `dir`: itself when it is a run, else each subfolder
/// that is, in name order.
fn run_folders(dir: &Path) -> Result<Vec<PathBuf>> {
    if files::Folder::new(dir).exists(schema::run_folder::MANIFEST) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut out: Vec<PathBuf> = files::entries(dir)
        .with_context(|| format!("{}: a committed answer", dir.display()))?
        .into_iter()
        .filter(|e| e.kind == files::Kind::Folder)
        .map(|e| e.path)
        .filter(|p| files::Folder::new(p).exists(schema::run_folder::MANIFEST))
        .collect();
    out.sort();
    if out.is_empty() {
        bail!(
            "{}: neither a run folder nor a folder of runs (no manifest.json in it or in a subfolder)",
            dir.display()
        );
    }
    Ok(out)
}

/// What the table takes of one run, computed as `analysis report` computes it: the answers, and
/// for a curve run each cell's steady state (the warm figure). The report's other figures (its
/// contrasts with a reference, a curve's crossings with it) are not computed: the table shows
/// none of them.
struct Judged {
    dir: PathBuf,
    manifest: Option<Manifest>,
    codecs: Vec<CodecEntry>,
    answers: Vec<Answer>,
    cells: Option<Vec<CurveCell>>,
}

fn judge(dir: &Path) -> Result<Judged> {
    let run = run::load_run(dir)?;
    let curves = curves::load_curves(&run)?;
    let manifest = run.manifest.clone();
    let baselines = baselines_of(manifest.as_ref());
    let seed = manifest.as_ref().map_or(0, |m| m.settings.seed);
    let opts = ReportOptions {
        reference: None,
        resamples: ::answer::RESAMPLES,
        level: ::answer::LEVEL,
        alpha: 0.05,
        seed: None,
    };
    let lineup = manifest
        .as_ref()
        .map_or_else(::answer::Lineup::default, |m| {
            ::answer::Lineup::of(&m.codecs)
        });
    let processes = curves.as_ref().map(|(p, _)| p.as_slice());
    let answers = answers_of(&run, processes, &lineup, seed, &opts);
    let cells = processes.map(|ps| {
        crate::analyze::curve::analyze(
            ps,
            &CurveOptions {
                reference: None,
                baselines: &baselines,
                warm: &[],
                level: opts.level,
                resamples: opts.resamples,
                seed,
            },
        )
        .cells
    });
    Ok(Judged {
        dir: dir.to_path_buf(),
        codecs: manifest
            .as_ref()
            .map_or_else(Vec::new, |m| m.codecs.clone()),
        manifest,
        answers,
        cells,
    })
}

fn read(dir: &Path) -> Result<Committed> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{}: not a folder name", dir.display()))?;
    schema::rows::check_name("run folder", name)?;
    let runs = run_folders(dir)?
        .iter()
        .map(|d| judge(d))
        .collect::<Result<_>>()?;
    Ok(Committed {
        name: name.to_string(),
        runs,
    })
}

/// A row of the table: one fixture × op × style (× build) of one runtime.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    op: Op,
    fixture: String,
    /// Typed before DOM.
    style: usize,
    variant: Option<String>,
}

impl Row {
    fn of(a: &Answer) -> Row {
        Row {
            op: a.op,
            fixture: a.fixture.clone(),
            style: Style::ALL.iter().position(|s| *s == a.style).unwrap_or(0),
            variant: a.variant.clone(),
        }
    }

    fn holds(&self, a: &Answer) -> bool {
        Row::of(a) == *self
    }
}

/// The answer of `row` from a run's reports, by source and basis.
fn find<'a>(c: &'a Committed, row: &Row, source: Source, basis: Basis) -> Option<&'a Answer> {
    c.runs
        .iter()
        .flat_map(|r| &r.answers)
        .find(|a| row.holds(a) && a.source == source && a.basis == basis)
}

/// `a ≈ b ≈ c (24.5 µs)`: the cheapest and those tied with it, and its median (with what it
/// costs over its floor, for a whole process).
fn pick(c: &Cheapest) -> String {
    let names = c.names().join(" ≈ ");
    match c.over_floor_ns {
        // a light library's process can read below its floor's by the machine's noise
        Some(over) if over < 0.0 => format!(
            "{names} ({}, {} below the floor)",
            format::ns(c.median_ns),
            format::ns(-over)
        ),
        Some(over) => format!(
            "{names} ({}, {} over the floor)",
            format::ns(c.median_ns),
            format::ns(over)
        ),
        None => format!("{names} ({})", format::ns(c.median_ns)),
    }
}

/// The picks at ×1 and ×100 on one basis: `… · …`.
fn picks(a: Option<&Answer>) -> String {
    let Some(a) = a else {
        return "not measured".into();
    };
    [1, 100]
        .iter()
        .map(|&n| match a.cheapest_at(n) {
            Some(c) => format!("×{n}: {}", pick(c)),
            None => format!("×{n}: not measured"),
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The cheapest warm figure of `row`'s codecs that stands (the curve's steady state), with how
/// many processes found it.
fn warm(c: &Committed, row: &Row) -> String {
    let mut standing: Vec<(&str, f64, usize, usize)> = Vec::new();
    let mut fallen: Vec<String> = Vec::new();
    for r in &c.runs {
        let style_of = |codec: &str| {
            r.codecs
                .iter()
                .find(|e| e.id == codec)
                .map_or(Style::Typed, |e| e.style)
        };
        for cell in r.cells.iter().flatten() {
            let k = &cell.key;
            let style = style_of(&k.codec);
            let in_row = k.op == row.op
                && k.fixture == row.fixture
                && Style::ALL.iter().position(|s| *s == style) == Some(row.style)
                && row.variant.as_ref().is_none_or(|v| v == k.variant.name());
            if !in_row || style == Style::Baseline {
                continue;
            }
            match cell.steady_ns {
                Some(ns) if cell.steady_stands => {
                    standing.push((&k.codec, ns, cell.steady_processes, cell.processes))
                }
                _ => fallen.push(k.codec.clone()),
            }
        }
    }
    let best = standing.iter().min_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((codec, ns, steady, all)) => {
            format!("{codec} ({}, steady in {steady} of {all})", format::ns(*ns))
        }
        None if fallen.is_empty() => "no curve run".into(),
        None => "no figure stands".into(),
    }
}

/// Where the answer flips: each switch the curves make, with its interval.
fn flips(a: Option<&Answer>) -> String {
    let Some(a) = a else {
        return "not measured".into();
    };
    let switches: Vec<String> = a
        .switches()
        .map(|s| {
            let bound = |b: Option<u64>| b.map_or(format!("beyond {}", count(a.last)), count);
            match s.interval {
                Some((lo, hi)) => format!(
                    "{} from {} [{}, {}]",
                    s.codec,
                    count(s.from),
                    bound(lo),
                    bound(hi)
                ),
                None => format!("{} from {}", s.codec, count(s.from)),
            }
        })
        .collect();
    if switches.is_empty() {
        let tied = a.at.iter().any(|c| !c.tied.is_empty()) || a.stretches.len() > 1;
        return if tied {
            format!("none that parts up to {}", count(a.last))
        } else {
            format!("none up to {}", count(a.last))
        };
    }
    switches.join("; ")
}

/// The table, the runs it came from, and the answers in words, in Markdown.
pub(crate) fn table(dirs: &[PathBuf]) -> Result<String> {
    if dirs.is_empty() {
        bail!("no run given: name the folders of committed runs (docs/runs/*)");
    }
    let mut runs: Vec<Committed> = dirs.iter().map(|d| read(d)).collect::<Result<_>>()?;
    // the runtimes in the order a reader meets them (Rust first), others after by name
    let rank = |name: &str| {
        RUNTIME_ORDER
            .iter()
            .position(|r| *r == name)
            .unwrap_or(RUNTIME_ORDER.len())
    };
    runs.sort_by(|a, b| (rank(&a.name), &a.name).cmp(&(rank(&b.name), &b.name)));
    let mut out = String::from(
        "| question | cheapest in a running program (init + operations) | cheapest as a whole process (spawn to exit) | cheapest warm: the curve's steady state | where it flips [95%] |\n|---|---|---|---|---|\n",
    );
    for c in &runs {
        let rows: BTreeSet<Row> = c
            .runs
            .iter()
            .flat_map(|r| &r.answers)
            .map(Row::of)
            .collect();
        for row in &rows {
            let running = find(c, row, Source::Batches, Basis::Running)
                .or_else(|| find(c, row, Source::Curve, Basis::Running));
            let process = find(c, row, Source::Batches, Basis::Process);
            let curve = find(c, row, Source::Curve, Basis::Running).or(running);
            let any = running.or(process).or(curve);
            let style = match Style::ALL.get(row.style) {
                Some(Style::Dom) => "DOM",
                _ => "typed",
            };
            let only = if any.is_some_and(|a| a.only_style) {
                " (only)"
            } else {
                ""
            };
            let build = row
                .variant
                .as_ref()
                .map_or(String::new(), |v| format!(" ({v})"));
            out.push_str(&format!(
                "| {} · `{}` {}{build} · {style}{only} | {} | {} | {} | {} |\n",
                c.name,
                row.op,
                row.fixture,
                picks(running),
                picks(process),
                warm(c, row),
                flips(curve)
            ));
        }
    }
    out.push_str("\nA pick names every codec tied with the cheapest (≈: its paired ratio's 95% interval reaches 1). A warm figure stands where at least 3 processes ran and at least half found a steady state. Under each runtime, the runs it is made from:\n\n");
    for c in &runs {
        out.push_str(&format!("- **{}**\n", c.name));
        for r in &c.runs {
            let Some(m) = &r.manifest else { continue };
            let date = m.started_utc.get(..10).unwrap_or(&m.started_utc);
            let cpu = m.machine.cpu_model.as_deref().unwrap_or("an unnamed CPU");
            let commit = m
                .commit
                .as_deref()
                .map_or("unknown", |c| c.get(..10).unwrap_or(c));
            // the command as the user typed it after the program's name, inert in Markdown
            let command = m
                .command_line
                .iter()
                .skip(1)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
                .replace('`', "'");
            let folder = r.dir.file_name().and_then(|n| n.to_str()).unwrap_or("run");
            out.push_str(&format!(
                "  - {}: {}, {}, {} cores, commit {}: ",
                text::for_markdown(folder),
                text::for_markdown(date),
                text::for_markdown(cpu),
                m.machine.cores,
                text::for_markdown(commit)
            ));
            out.push_str(&format!("`cold {}`", text::for_markdown(&command)));
            if r.cells.is_some() {
                out.push_str(" (its warm figures too)");
            }
            out.push('\n');
            for a in &r.answers {
                // every name in it was checked when the run was read
                out.push_str(&format!("    - {}\n", a.line()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A committed answer `name` holding a synthetic batch run (its manifest names the codecs'
    /// styles; `noop` is the floor).
    fn plant(root: &Path, name: &str) -> PathBuf {
        let dir = root.join(name);
        let run = dir.join("batches");
        std::fs::create_dir_all(&dir).unwrap();
        let s = crate::synth::synth(crate::synth::SynthOptions {
            samples: 400,
            ..Default::default()
        });
        run::write_run(&run, &s.manifest, &s.plan, &s.samples).unwrap();
        dir
    }

    #[test]
    fn a_committed_run_becomes_rows_by_style_with_both_bases_and_its_words() {
        let root = std::env::temp_dir().join(format!("thaw-answer-table-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = plant(&root, "rust");
        let t = table(&[dir]).unwrap();
        let rows: Vec<&str> = t.lines().filter(|l| l.starts_with("| rust ·")).collect();
        // de and ser, typed and DOM
        assert_eq!(rows.len(), 4, "{t}");
        assert!(
            rows[0].starts_with("| rust · `de` users-2kb · typed | ×1: "),
            "{t}"
        );
        assert!(
            rows[1].starts_with("| rust · `de` users-2kb · DOM | ×1: "),
            "{t}"
        );
        for row in &rows {
            let cells: Vec<&str> = row.split(" | ").collect();
            assert!(cells[1].contains(" · ×100: "), "{row}");
            assert!(
                cells[2].contains("over the floor"),
                "the whole process: {row}"
            );
            assert_eq!(cells[3], "no curve run", "{row}");
        }
        assert!(t.contains("  - batches: "), "{t}");
        assert!(
            t.contains("    - de users-2kb, typed, as a whole process: "),
            "{t}"
        );
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_folder_that_is_not_a_run_and_a_name_that_is_not_a_name_are_refused() {
        let root = std::env::temp_dir().join(format!("thaw-answer-hostile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let empty = root.join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let e = format!("{:#}", table(&[empty]).unwrap_err());
        assert!(
            e.contains("neither a run folder nor a folder of runs"),
            "{e}"
        );
        let hostile = root.join("<img src=x>");
        std::fs::create_dir_all(&hostile).unwrap();
        let e = format!("{:#}", table(&[hostile]).unwrap_err());
        assert!(e.contains("a name is 1 to"), "{e}");
        assert!(table(&[]).is_err(), "no run named");
        let _ = std::fs::remove_dir_all(&root);
    }
}
