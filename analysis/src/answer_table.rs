//! `analysis answer`: the answer table of committed runs, as README.md shows it. Each run is a
//! folder holding the `summary.json` and `manifest.json` its report wrote (`docs/runs/<name>/`,
//! or a run folder whose report is in `report/`); each answer of each run is one row: the
//! question (the run's name, the op and the fixture), the cheapest codec at one operation and at
//! 100, the cheapest warm (criterion's or JMH's figure, else a curve's in-process steady state),
//! and where the answer flips, with its interval. Under the table, each run's date, machine and
//! command, and the answers in words. A figure can change only by committing a new run: a test
//! holds README.md's table to this output.

use crate::report::format;
use ::answer::form::{count, Answer};
use anyhow::{bail, Context, Result};
use files::Folder;
use schema::rows::check_name;
use schema::run_folder::Manifest;
use schema::{Op, Variant};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use store::manifest::parse_manifest;

/// The most thaw reads of a summary.json (a curve run's holds every median curve: a few MB).
const SUMMARY_LIMIT: u64 = 64 * 1024 * 1024;
/// The committed runs' names in the table's order; any other name follows, by name.
const RUNTIME_ORDER: [&str; 5] = ["rust", "jvm", "go", "python", "node"];

/// The most thaw reads of a manifest.json.
const MANIFEST_LIMIT: u64 = 16 * 1024 * 1024;

/// What the table reads of a summary.json.
#[derive(Deserialize)]
struct Summary {
    #[serde(default)]
    answers: Vec<Answer>,
    #[serde(default)]
    warm: Vec<Warm>,
    #[serde(default)]
    curve: Option<Curve>,
}

#[derive(Deserialize)]
struct Warm {
    fixture: String,
    op: Op,
    codec: String,
    variant: Option<Variant>,
    median_ns: f64,
}

#[derive(Deserialize)]
struct Curve {
    cells: Vec<CurveCell>,
}

#[derive(Deserialize)]
struct CurveCell {
    key: Key,
    steady_ns: Option<f64>,
}

#[derive(Deserialize)]
struct Key {
    fixture: String,
    op: Op,
    variant: Variant,
    codec: String,
}

/// One committed run: its name (the folder's), what its report said, and its manifest.
struct Committed {
    name: String,
    summary: Summary,
    manifest: Manifest,
}

/// Reads the run at `dir`: `summary.json` and `manifest.json` in it, or the summary in its
/// `report/` folder.
fn read(dir: &Path) -> Result<Committed> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{}: not a folder name", dir.display()))?
        .to_string();
    let folder = Folder::new(dir);
    let report = folder.sub("report");
    let summary_folder = if folder.exists("summary.json") {
        &folder
    } else {
        &report
    };
    let text = summary_folder
        .read_bounded("summary.json", SUMMARY_LIMIT)
        .with_context(|| {
            format!(
                "{}: no readable summary.json (run `analysis report` on it)",
                dir.display()
            )
        })?;
    let summary: Summary = serde_json::from_slice(&text)
        .with_context(|| format!("{}/summary.json: not a report's summary", dir.display()))?;
    check_names(&name, &summary).with_context(|| format!("{}/summary.json", dir.display()))?;
    let manifest = folder
        .read_bounded("manifest.json", MANIFEST_LIMIT)
        .map_err(anyhow::Error::from)
        .and_then(|b| parse_manifest(&b).map_err(|e| anyhow::anyhow!("{e}")))
        .with_context(|| format!("{}/manifest.json", dir.display()))?;
    Ok(Committed {
        name,
        summary,
        manifest,
    })
}

/// Every name the table shows from a folder must be a name (no markup can ride in one).
fn check_names(run: &str, summary: &Summary) -> Result<()> {
    check_name("run folder", run)?;
    for a in &summary.answers {
        check_name("fixture", &a.fixture)?;
        for codec in a
            .stretches
            .iter()
            .map(|s| &s.codec)
            .chain(a.at.iter().map(|c| &c.codec))
        {
            check_name("codec", codec)?;
        }
        if let Some(v) = &a.variant {
            Variant::parse(v).map_err(anyhow::Error::msg)?;
        }
    }
    for w in &summary.warm {
        check_name("codec", &w.codec)?;
    }
    for c in summary.curve.iter().flat_map(|c| &c.cells) {
        check_name("codec", &c.key.codec)?;
    }
    Ok(())
}

/// The cheapest warm figure among the run's libraries (its codecs but the floors and probes):
/// criterion's or JMH's, else a curve's in-process steady state (so marked).
fn cheapest_warm(run: &Committed, a: &Answer) -> String {
    let library = |codec: &str| {
        run.manifest
            .codecs
            .iter()
            .any(|c| c.id == codec && c.style != schema::Style::Baseline)
    };
    let scenario = |fixture: &str, op: Op, v: Option<Variant>| {
        let build = match (&a.variant, v) {
            (Some(want), Some(v)) => v.name() == want,
            _ => true,
        };
        fixture == a.fixture && op == a.op && build
    };
    let warm = run
        .summary
        .warm
        .iter()
        .filter(|w| scenario(&w.fixture, w.op, w.variant) && library(&w.codec))
        .min_by(|x, y| x.median_ns.total_cmp(&y.median_ns));
    if let Some(w) = warm {
        return format!("{} ({})", w.codec, format::ns(w.median_ns));
    }
    let steady = run
        .summary
        .curve
        .iter()
        .flat_map(|c| &c.cells)
        .filter(|c| {
            scenario(&c.key.fixture, c.key.op, Some(c.key.variant)) && library(&c.key.codec)
        })
        .filter_map(|c| Some((c, c.steady_ns?)))
        .min_by(|x, y| x.1.total_cmp(&y.1));
    match steady {
        Some((c, ns)) => format!(
            "{} ({}, in-process steady state)",
            c.key.codec,
            format::ns(ns)
        ),
        None => "no warm figure".into(),
    }
}

/// The cheapest codec at `n`, with its median.
fn at(a: &Answer, n: u64) -> String {
    match a.cheapest_at(n) {
        Some(c) => format!("{} ({})", c.codec, format::ns(c.median_ns)),
        None => format!("not measured at {}", count(n)),
    }
}

/// Where the answer flips: each switch after the first stretch, with its interval.
fn flips(a: &Answer) -> String {
    if a.stretches.len() < 2 {
        return format!("none up to {}", count(a.last));
    }
    a.stretches[1..]
        .iter()
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
        .collect::<Vec<_>>()
        .join("; ")
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
        "| question | cheapest at ×1 | cheapest at ×100 | cheapest warm | where it flips [95%] |\n|---|---|---|---|---|\n",
    );
    for run in &runs {
        for a in &run.summary.answers {
            out.push_str(&format!(
                "| {} · `{}` {} | {} | {} | {} | {} |\n",
                run.name,
                a.op,
                a.variant
                    .as_ref()
                    .map_or(a.fixture.clone(), |v| format!("{} ({v})", a.fixture)),
                at(a, 1),
                at(a, 100),
                cheapest_warm(run, a),
                flips(a)
            ));
        }
    }
    out.push('\n');
    for run in &runs {
        let m = &run.manifest;
        let date = m.started_utc.get(..10).unwrap_or(&m.started_utc);
        let cpu = text::for_markdown(m.machine.cpu_model.as_deref().unwrap_or("an unnamed CPU"));
        let date = text::for_markdown(date);
        // the command as the user typed it after the program's name, inert in Markdown
        let command = text::for_markdown(
            &m.command_line
                .iter()
                .skip(1)
                .cloned()
                .collect::<Vec<_>>()
                .join(" "),
        )
        .replace('`', "'");
        // the runner's own name, as `cargo run --release -p cold --` starts it
        out.push_str(&format!(
            "- **{}** ({date}, {cpu}, {} cores): `cold {}`\n",
            run.name, m.machine.cores, command
        ));
        for a in &run.summary.answers {
            out.push_str(&format!("  - {}\n", a.line()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A committed run folder named `name` holding a synthetic run's manifest and `summary`.
    fn plant(root: &Path, name: &str, summary: &serde_json::Value) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let folder = Folder::new(&dir);
        let manifest = serde_json::to_string(
            &crate::synth::synth(crate::synth::SynthOptions {
                samples: 1,
                ..Default::default()
            })
            .manifest,
        )
        .unwrap();
        folder
            .write_atomically("manifest.json", manifest.as_bytes())
            .unwrap();
        folder
            .write_atomically("summary.json", summary.to_string().as_bytes())
            .unwrap();
        dir
    }

    fn summary(codec: &str) -> serde_json::Value {
        serde_json::json!({
            "answers": [{
                "fixture": "users-2kb", "op": "de", "source": "batches", "last": 100, "level": 0.95,
                "stretches": [
                    {"codec": "serde_json", "from": 1},
                    {"codec": codec, "from": 13, "interval": [9, 26]}
                ],
                "at": [
                    {"n": 1, "codec": "serde_json", "median_ns": 20700.0},
                    {"n": 100, "codec": codec, "median_ns": 450000.0}
                ]
            }],
            "warm": [{"fixture": "users-2kb", "op": "de", "codec": codec, "variant": "portable", "median_ns": 4700.0}]
        })
    }

    #[test]
    fn a_committed_run_becomes_a_row_and_its_words() {
        let root = std::env::temp_dir().join(format!("thaw-answer-table-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = plant(&root, "rust", &summary("simd-json"));
        let t = table(&[dir]).unwrap();
        let row = t.lines().nth(2).unwrap();
        assert!(
            row.starts_with(
                "| rust · `de` users-2kb | serde_json (20.7 µs) | simd-json (450 µs) |"
            ),
            "{row}"
        );
        assert!(row.contains("simd-json from 13 [9, 26]"), "{row}");
        assert!(t.contains("  - de users-2kb: serde_json is cheapest from 1 to 12 operations; simd-json from 13 [9, 26] up to 100"), "{t}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_name_that_is_not_a_name_is_refused_naming_the_file() {
        let root = std::env::temp_dir().join(format!("thaw-answer-hostile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = plant(&root, "rust", &summary("<img src=x onerror=alert(1)>"));
        let e = format!("{:#}", table(&[dir]).unwrap_err());
        assert!(
            e.contains("summary.json") && e.contains("a name is 1 to"),
            "{e}"
        );
        assert!(table(&[]).is_err(), "no run named");
        let _ = std::fs::remove_dir_all(&root);
    }
}
