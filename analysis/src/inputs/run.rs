//! A cold run folder: `manifest.json`, `plan.csv`, `samples.csv` (docs/design.md, "The run
//! folder"), read through `schema`'s definitions, the two CSV files row by row into the compact
//! store of [`super::samples`]. Resolves `results/cold/latest` whether it is a symlink or a file
//! naming the folder. A file that lacks a column the analysis relies on, or holds an implausible
//! figure, is refused with the file (and line), never read as empty.

use super::samples::{Plan, Samples};
use anyhow::{bail, Context, Result};
use schema::csv_rows::write_rows;
use schema::files::Folder;
use schema::run_folder::{Manifest, PlanRow, SampleRow, MANIFEST, PLAN, SAMPLES};
use schema::Measure;
use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// Everything a run folder holds, as read.
#[derive(Debug, Clone)]
pub struct Run {
    pub dir: PathBuf,
    /// `None` when manifest.json is missing or unreadable (see `notes`).
    pub manifest: Option<Manifest>,
    /// manifest.json as written, every key, for the report's conditions and summary.json.
    pub manifest_json: Option<Value>,
    /// The planned samples per cell; empty when plan.csv is missing (see `notes`).
    pub plan: Plan,
    /// The finished samples, by cell.
    pub samples: Samples,
    /// What the run recorded of each sample: times, or counts (`--measure instructions`).
    pub measure: Measure,
    /// What was missing or repaired while reading, for the report's warnings.
    pub notes: Vec<String>,
}

impl Run {
    /// Whether the run counted instructions instead of timing.
    pub fn is_counted(&self) -> bool {
        self.measure == Measure::Instructions
    }

    /// What the run measured, as a command's error or heading says it.
    pub fn measure_words(&self) -> &'static str {
        measure_words(self.measure)
    }
}

/// "a timed run" or "a counted run (--measure instructions)".
pub fn measure_words(m: Measure) -> &'static str {
    match m {
        Measure::Time => "a timed run",
        Measure::Instructions => "a counted run (--measure instructions)",
    }
}

/// The folder `path` names: itself if a folder (symlinks followed), or the folder named by the
/// first line of the file `path`, relative to that file's folder.
pub fn resolve_run_dir(path: &Path) -> Result<PathBuf> {
    let meta = fs::metadata(path).with_context(|| {
        format!(
            "no run folder at {} (run `cold run` first, or give RUN_DIR)",
            path.display()
        )
    })?;
    let dir = if meta.is_dir() {
        path.to_path_buf()
    } else {
        let text =
            fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let name = text.lines().next().unwrap_or("").trim();
        if name.is_empty() {
            bail!(
                "{} is empty; expected the name of a run folder",
                path.display()
            );
        }
        let target = path.parent().unwrap_or(Path::new(".")).join(name);
        if !target.is_dir() {
            bail!(
                "{} names {}, which is not a folder",
                path.display(),
                target.display()
            );
        }
        target
    };
    fs::canonicalize(&dir).with_context(|| format!("cannot resolve {}", dir.display()))
}

/// Read a run folder. samples.csv is required; the manifest and plan are optional.
pub fn load_run(path: &Path) -> Result<Run> {
    let dir = resolve_run_dir(path)?;
    let mut notes = Vec::new();

    let manifest_path = dir.join(MANIFEST);
    let manifest_json = match fs::read_to_string(&manifest_path) {
        Ok(text) => match serde_json::from_str::<Value>(&text) {
            Ok(v) => Some(v),
            Err(e) => {
                notes.push(format!(
                    "{} is not valid JSON ({e})",
                    manifest_path.display()
                ));
                None
            }
        },
        Err(_) => {
            notes.push(format!("{} is missing", manifest_path.display()));
            None
        }
    };
    let manifest = manifest_json.as_ref().and_then(|v| {
        serde_json::from_value::<Manifest>(v.clone())
            .map_err(|e| {
                notes.push(format!(
                    "{} is not a thaw manifest ({e})",
                    manifest_path.display()
                ))
            })
            .ok()
    });

    let plan_path = dir.join(PLAN);
    let plan = if plan_path.exists() {
        let (plan, note) = Plan::read(&plan_path)?;
        notes.extend(note);
        plan
    } else {
        notes.push(format!("{} is missing", plan_path.display()));
        Plan::default()
    };

    let samples_path = dir.join(SAMPLES);
    if !samples_path.exists() {
        bail!(
            "{} is missing: not a cold run folder",
            samples_path.display()
        );
    }
    // What was measured is the manifest's word; a manifest that does not say (one written
    // before counting existed, or none at all) means time, unless samples.csv holds counts and
    // no time, which only a counted run writes.
    let said = manifest.as_ref().and_then(|m| m.measure);
    let (samples, note) = Samples::read(&samples_path, said.unwrap_or_default())?;
    notes.extend(note);
    let measure = match said {
        Some(m) => m,
        None if samples.has_counts() && !samples.has_times() => {
            notes.push(format!(
                "{} does not say what the run measured; samples.csv holds instruction counts and no times, so it is read as a counted run.",
                manifest_path.display()
            ));
            Measure::Instructions
        }
        None => Measure::Time,
    };

    Ok(Run {
        dir,
        manifest,
        manifest_json,
        plan,
        samples,
        measure,
        notes,
    })
}

/// Write a run folder (used by `synth`): manifest.json, plan.csv, samples.csv.
pub fn write_run(
    dir: &Path,
    manifest: &Manifest,
    plan: &[PlanRow],
    samples: &[SampleRow],
) -> Result<()> {
    let folder = Folder::new(dir);
    folder
        .create_dirs("")
        .with_context(|| format!("cannot create {}", dir.display()))?;
    if folder.exists(MANIFEST) || folder.exists(SAMPLES) {
        bail!(
            "{} holds a run already; synth writes only into a new or empty folder",
            dir.display()
        );
    }
    folder
        .write_atomically(
            MANIFEST,
            (serde_json::to_string_pretty(manifest)? + "\n").as_bytes(),
        )
        .with_context(|| format!("cannot write {}", dir.join(MANIFEST).display()))?;
    write_rows(&dir.join(PLAN), plan)?;
    write_rows(&dir.join(SAMPLES), samples)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::samples::{MAX_NS, PLAN_COLUMNS};

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("thaw-analysis-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn latest_as_file_or_symlink() {
        let root = tmp("latest");
        let run = root.join("2026-01-01T00-00-00Z");
        fs::create_dir_all(&run).unwrap();
        fs::write(root.join("latest"), "2026-01-01T00-00-00Z\n").unwrap();
        assert_eq!(
            resolve_run_dir(&root.join("latest")).unwrap(),
            fs::canonicalize(&run).unwrap()
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&run, root.join("link")).unwrap();
            assert_eq!(
                resolve_run_dir(&root.join("link")).unwrap(),
                fs::canonicalize(&run).unwrap()
            );
        }
        fs::write(root.join("bad"), "nowhere\n").unwrap();
        let e = resolve_run_dir(&root.join("bad")).unwrap_err().to_string();
        assert!(e.contains("not a folder"), "{e}");
        assert!(resolve_run_dir(&root.join("absent")).is_err());
    }

    #[test]
    fn truncated_last_line_is_a_note_and_bad_middle_line_an_error() {
        let dir = tmp("csv");
        let row = SampleRow {
            plan_index: 0,
            block: 0,
            codec: "noop".into(),
            op: schema::Op::De,
            batch: 1,
            fixture: "users-2kb".into(),
            variant: schema::Variant::Portable,
            status: schema::Status::Ok,
            init_plus_ops_ns: Some(5),
            ..Default::default()
        };
        write_rows(&dir.join("samples.csv"), &[row.clone(), row.clone()]).unwrap();
        let mut text = fs::read_to_string(dir.join("samples.csv")).unwrap();
        text.push_str("2,0,noop,de,1,users");
        fs::write(dir.join("samples.csv"), &text).unwrap();
        let run = load_run(&dir).unwrap();
        assert_eq!(run.samples.len(), 2);
        assert!(
            run.notes.iter().any(|n| n.contains("incomplete")),
            "{:?}",
            run.notes
        );
        assert!(run
            .notes
            .iter()
            .any(|n| n.contains("manifest.json is missing")));

        let broken = text.replacen("noop,de,1", "noop,de,one", 1)
            + "\n3,0,noop,de,1,x,portable,ok,,,,,,,,,,,,,,,,,,,,,\n";
        fs::write(dir.join("samples.csv"), broken).unwrap();
        let e = format!("{:#}", load_run(&dir).unwrap_err());
        assert!(e.contains("samples.csv: line 2"), "{e}");
    }

    fn ok_row(block: u32) -> SampleRow {
        SampleRow {
            plan_index: u64::from(block),
            block,
            codec: "noop".into(),
            batch: 1,
            fixture: "users-2kb".into(),
            init_ns: Some(10),
            first_op_ns: Some(200),
            remaining_ops_ns: Some(0),
            init_plus_ops_ns: Some(210),
            wall_ns: Some(900_000),
            ..Default::default()
        }
    }

    /// samples.csv of `rows` without the columns `drop`.
    fn write_without(path: &Path, rows: &[SampleRow], drop: &[&str]) {
        write_rows(path, rows).unwrap();
        let mut r = csv::Reader::from_path(path).unwrap();
        let header = r.headers().unwrap().clone();
        let keep: Vec<usize> = (0..header.len())
            .filter(|&i| !drop.contains(&&header[i]))
            .collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(keep.iter().map(|&i| &header[i])).unwrap();
        for rec in r.records() {
            let rec = rec.unwrap();
            w.write_record(keep.iter().map(|&i| &rec[i])).unwrap();
        }
        fs::write(path, w.into_inner().unwrap()).unwrap();
    }

    #[test]
    fn missing_key_columns_are_an_error_naming_file_and_columns() {
        let dir = tmp("columns");
        let path = dir.join(SAMPLES);
        let rows = [ok_row(0), ok_row(1)];
        write_without(&path, &rows, &["hwm_kib", "evicted"]); // optional: older runs lack them
        assert_eq!(load_run(&dir).unwrap().samples.len(), 2);
        for missing in [
            &["wall_ns"][..],
            &["status", "init_plus_ops_ns"],
            &["block", "variant"],
        ] {
            write_without(&path, &rows, missing);
            let e = format!("{:#}", load_run(&dir).unwrap_err());
            assert!(
                e.contains("samples.csv: the header line lacks the column"),
                "{e}"
            );
            assert!(
                e.ends_with(&format!("{}, which the analysis needs", missing.join(", "))),
                "{e}"
            );
        }
        write_rows(&path, &rows).unwrap();
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&PLAN_COLUMNS[..6]).unwrap();
        w.write_record(["0", "0", "noop", "de", "1", "users-2kb"])
            .unwrap();
        fs::write(dir.join(PLAN), w.into_inner().unwrap()).unwrap();
        let e = format!("{:#}", load_run(&dir).unwrap_err());
        assert!(
            e.contains("plan.csv: the header line lacks the column variant"),
            "{e}"
        );
        // an empty samples.csv (a run that has not finished a sample yet) is no error
        fs::remove_file(dir.join(PLAN)).unwrap();
        fs::write(&path, "").unwrap();
        assert!(load_run(&dir).unwrap().samples.is_empty());
    }

    #[test]
    fn implausible_figures_are_refused_with_file_and_line() {
        let dir = tmp("implausible");
        let path = dir.join(SAMPLES);
        type Spoil = fn(&mut SampleRow);
        let cases: [(Spoil, &str); 5] = [
            (|r| r.wall_ns = Some(u64::MAX), "wall_ns = 18446744073709551615 is above 10^15 ns"),
            (|r| r.exit_ns = Some(MAX_NS + 1), "exit_ns = 1000000000000001 is above"),
            (
                |r| r.init_plus_ops_ns = Some(211),
                "init_plus_ops_ns = 211 but init_ns + first_op_ns + remaining_ops_ns = 10 + 200 + 0 = 210",
            ),
            (
                |r| r.wall_ns = Some(209),
                "wall_ns = 209 is less than init_plus_ops_ns = 210",
            ),
            (
                |r| {
                    r.status = schema::Status::Timeout;
                    r.first_op_ns = Some(MAX_NS * 2);
                },
                "first_op_ns = 2000000000000000 is above",
            ),
        ];
        for (spoil, said) in cases {
            let mut bad = ok_row(1);
            spoil(&mut bad);
            write_rows(&path, &[ok_row(0), bad, ok_row(2)]).unwrap();
            let e = format!("{:#}", load_run(&dir).unwrap_err());
            assert!(e.contains("samples.csv: line 3: "), "{e}");
            assert!(e.contains(said), "{e}");
        }
        // a failed sample without figures, or whose sum does not hold, is no error; nor is
        // the largest plausible duration
        let mut failed = ok_row(1);
        failed.status = schema::Status::Crash;
        failed.init_plus_ops_ns = Some(5);
        let mut long = ok_row(2);
        long.wall_ns = Some(MAX_NS);
        write_rows(
            &path,
            &[
                ok_row(0),
                failed,
                long,
                SampleRow {
                    status: schema::Status::Timeout,
                    ..Default::default()
                },
            ],
        )
        .unwrap();
        assert_eq!(load_run(&dir).unwrap().samples.len(), 4);
    }
}
