//! A cold run folder: `manifest.json`, `plan.csv`, `samples.csv` (docs/design.md, "The run
//! folder"), read through `schema`'s one reader of each file: the samples into the columnar store
//! of `schema::rows`, checked against the plan. Resolves `results/cold/latest` whether it is a
//! symlink or a file naming the folder. A file that lacks a column the run's measure needs, or
//! holds an implausible figure, is refused with the file (and line), never read as empty; the
//! files below the folder are opened without following a link, and read within bounds. The
//! folder is opened once and held ([`Run::folder`]): every file of it, and a report written into
//! it, is reached from that descriptor, never by the folder's path again.

use anyhow::{bail, Context, Result};
use files::csv_rows::write_rows;
use files::Folder;
use schema::phases::{Figure, Phase, Quantity};
use schema::rows::{PlanRow, SampleRow};
use schema::run_folder::{Manifest, MANIFEST, PLAN, SAMPLES};
use schema::Measure;
use std::fs;
use std::path::{Path, PathBuf};
use store::cell::Samples;
use store::rows::{Plan, PlanCount};

/// Everything a run folder holds, as read.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    /// Where the folder is, for messages.
    pub(crate) dir: PathBuf,
    /// The folder, opened once: what reads or writes anything of the run goes through it.
    pub(crate) folder: Folder,
    /// `None` when manifest.json is missing or not a thaw manifest (see `notes`).
    pub(crate) manifest: Option<Manifest>,
    /// The planned samples per cell; empty when plan.csv is missing (see `notes`).
    pub(crate) plan: PlanCount,
    /// The finished samples, by cell.
    pub(crate) samples: Samples,
    /// What the run recorded of each sample: times, or counts (`--measure instructions`).
    pub(crate) measure: Measure,
    /// A run or resume is writing the folder now (it holds the folder's lock): who (the pid and
    /// command line it wrote into the lock), and its samples are the ones so far.
    pub(crate) writing: Option<String>,
    /// What was missing or repaired while reading, for the report's warnings.
    pub(crate) notes: Vec<String>,
}

/// The most a manifest may weigh (a run of every codec has a few hundred KiB).
pub(crate) const MANIFEST_LIMIT: u64 = 16 * 1024 * 1024;

/// Whether a run or resume is writing `folder` now: it holds the lock on the folder itself.
pub(crate) fn being_written(folder: &Folder) -> bool {
    writer_of(folder).is_some()
}

/// Who is writing `folder` now, as it wrote into its `.lock` (its pid and command line); `None`
/// when no run holds the folder's lock (`files::Held::locked_elsewhere`).
pub(crate) fn writer_of(folder: &Folder) -> Option<String> {
    use std::io::Read;
    if !folder.hold().ok()?.locked_elsewhere() {
        return None;
    }
    let mut holder = String::new();
    if let Ok(f) = folder.open_read(schema::run_folder::LOCK) {
        let _ = f.take(4096).read_to_string(&mut holder);
    }
    Some(text::clip(holder.trim(), 300))
}

/// The most read of a file that names a run folder (`results/cold/latest` as a file).
const POINTER_LIMIT: u64 = 4096;

/// The folder `path` names, opened and held ([`Folder::open`], named by where it is): itself if a
/// folder (symlinks followed), or the folder named by the first line of the file `path`,
/// relative to that file's folder. Only a regular file of at most [`POINTER_LIMIT`] bytes is
/// read: a FIFO or a device (`/dev/zero`) is refused at once.
pub(crate) fn resolve_run_dir(path: &Path) -> Result<Folder> {
    let meta = fs::metadata(path).with_context(|| {
        format!(
            "no run folder at {} (run `cold run` first, or give RUN_DIR)",
            path.display()
        )
    })?;
    let dir = if meta.is_dir() {
        path.to_path_buf()
    } else {
        let bytes = files::read_regular(path, POINTER_LIMIT).with_context(|| {
            format!(
                "{}: not a run folder, nor a file naming one (RUN_DIR is a folder, or a small \
                 file whose first line names one)",
                path.display()
            )
        })?;
        let text = String::from_utf8_lossy(&bytes);
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
    Folder::open(&dir).with_context(|| format!("cannot open {}", dir.display()))
}

/// Read a run folder. samples.csv is required; the manifest and plan are optional.
pub(crate) fn load_run(path: &Path) -> Result<Run> {
    let folder = resolve_run_dir(path)?;
    let dir = folder.path();
    let mut notes = Vec::new();
    let manifest = read_manifest(&folder, &dir, &mut notes)?;
    let plan = read_plan(&folder, &dir, manifest.as_ref(), &mut notes)?;

    let samples_path = dir.join(SAMPLES);
    if !folder.exists(SAMPLES) {
        bail!(
            "{} is missing: not a cold run folder",
            samples_path.display()
        );
    }
    // What was measured is the manifest's word; without a manifest it is time, unless
    // samples.csv holds counts and no time, which only a counted run writes.
    let said = manifest.as_ref().map(|m| m.settings.measure);
    let required = said.map_or(&[][..], |m| m.required());
    let (samples, note) = Samples::read(folder.file(SAMPLES), plan.as_ref(), required)?;
    notes.extend(note);
    let measure = said.unwrap_or_else(|| measure_of_samples(&samples, &dir, &mut notes));

    let writing = writer_of(&folder);
    Ok(Run {
        dir,
        folder,
        writing,
        manifest,
        plan: plan.as_ref().map(Plan::count).unwrap_or_default(),
        samples,
        measure,
        notes,
    })
}

/// The run's manifest.json: `None` (and a note) when it is missing or not a manifest; refused
/// when it cannot be read or holds what no run writes.
fn read_manifest(folder: &Folder, dir: &Path, notes: &mut Vec<String>) -> Result<Option<Manifest>> {
    let manifest_path = dir.join(MANIFEST);
    Ok(match folder.read_bounded(MANIFEST, MANIFEST_LIMIT) {
        Ok(bytes) => match store::manifest::parse_manifest(&bytes) {
            Ok(m) => Some(m),
            Err(store::manifest::ManifestError::Beyond(e)) => {
                // a text or a list no run writes: refused, not passed on to a reader
                bail!("{}: {e}", manifest_path.display())
            }
            Err(e) => {
                notes.push(format!(
                    "{} is {e}: the run's conditions are unknown",
                    manifest_path.display()
                ));
                None
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            notes.push(format!("{} is missing", manifest_path.display()));
            None
        }
        Err(e) => bail!("cannot read {}: {e}", manifest_path.display()),
    })
}

/// The run's plan.csv: `None` (and a note) when it is missing; refused when it is empty but the
/// manifest plans samples.
fn read_plan(
    folder: &Folder,
    dir: &Path,
    manifest: Option<&Manifest>,
    notes: &mut Vec<String>,
) -> Result<Option<Plan>> {
    let plan_path = dir.join(PLAN);
    // The plan, compactly: a million planned samples are eight megabytes, not a row of strings
    // each.
    Ok(if folder.exists(PLAN) {
        let (rows, note) = Plan::read(folder.file(PLAN))?;
        notes.extend(note);
        if let Some(m) = manifest.filter(|m| rows.is_empty() && m.samples_planned > 0) {
            bail!(
                "{}: empty, but manifest.json plans {} samples: the plan was lost or emptied, so \
                 no sample's place can be checked (`cold resume` writes it again from the \
                 manifest)",
                plan_path.display(),
                m.samples_planned
            );
        }
        Some(rows)
    } else {
        notes.push(format!("{} is missing", plan_path.display()));
        None
    })
}

/// What a run without a manifest measured, by its samples: time, unless samples.csv holds
/// counts and no time (then a note says so).
fn measure_of_samples(samples: &Samples, dir: &Path, notes: &mut Vec<String>) -> Measure {
    let m = of_samples(samples);
    if m != Measure::Time {
        notes.push(format!(
            "{} does not say what the run measured; samples.csv holds {} and no times, so it is read as {}.",
            dir.join(MANIFEST).display(),
            m.noun(),
            m.run_words()
        ));
    }
    m
}

/// Write a run folder (used by `synth`): manifest.json, plan.csv, samples.csv.
pub(crate) fn write_run(
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
    write_rows(folder.file(PLAN), plan)?;
    write_rows(folder.file(SAMPLES), samples)?;
    Ok(())
}

/// The measure of a run whose manifest does not say: a counted run when its samples hold
/// instructions and no time, which only a counted run writes; else time.
fn of_samples(samples: &Samples) -> Measure {
    let instructions = Figure::Of(Quantity::Instructions, Phase::FirstOp);
    if samples.has(instructions) && !samples.has(Figure::INIT_PLUS_OPS) {
        Measure::Instructions
    } else {
        Measure::Time
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{synth, SynthOptions};
    use crate::testing::{counted, plan, timed};

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
            resolve_run_dir(&root.join("latest")).unwrap().path(),
            fs::canonicalize(&run).unwrap()
        );
        std::os::unix::fs::symlink(&run, root.join("link")).unwrap();
        assert_eq!(
            resolve_run_dir(&root.join("link")).unwrap().path(),
            fs::canonicalize(&run).unwrap()
        );
        fs::write(root.join("bad"), "nowhere\n").unwrap();
        let e = resolve_run_dir(&root.join("bad")).unwrap_err().to_string();
        assert!(e.contains("not a folder"), "{e}");
        assert!(resolve_run_dir(&root.join("absent")).is_err());
        // neither a FIFO nor a device is read: refused at once, saying what it is
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("fifo"))
            .status()
            .unwrap();
        assert!(made.success());
        let e = format!("{:#}", resolve_run_dir(&root.join("fifo")).unwrap_err());
        assert!(e.contains("FIFO") && e.contains("RUN_DIR"), "{e}");
        let e = format!("{:#}", resolve_run_dir(Path::new("/dev/zero")).unwrap_err());
        assert!(e.contains("device"), "{e}");
    }

    #[test]
    fn a_torn_last_row_is_a_note_and_what_is_missing_is_said() {
        let dir = tmp("csv");
        let rows = [timed(0, "noop", 1, Some(5)), timed(1, "noop", 1, Some(6))];
        write_rows(&dir.join(SAMPLES), &rows).unwrap();
        let text = fs::read_to_string(dir.join(SAMPLES)).unwrap() + "2,0,noop,de,1,users";
        fs::write(dir.join(SAMPLES), &text).unwrap();
        let run = load_run(&dir).unwrap();
        assert_eq!((run.samples.len(), run.measure), (2, Measure::Time));
        let notes = run.notes.join("\n");
        assert!(notes.contains("incomplete"), "{notes}");
        assert!(notes.contains("manifest.json is missing"), "{notes}");
        assert!(notes.contains("plan.csv is missing"), "{notes}");
        // a row the plan does not hold is refused, naming the line
        write_rows(&dir.join(PLAN), &plan(&rows[..1])).unwrap();
        let e = format!("{:#}", load_run(&dir).unwrap_err());
        assert!(
            e.contains("samples.csv: line 3: plan_index 1 is not in plan.csv"),
            "{e}"
        );
        // an empty samples.csv (a run that has not finished a sample yet) is no error
        fs::write(dir.join(SAMPLES), "").unwrap();
        assert!(load_run(&dir).unwrap().samples.is_empty());
        fs::remove_file(dir.join(SAMPLES)).unwrap();
        let e = format!("{:#}", load_run(&dir).unwrap_err());
        assert!(
            e.contains("samples.csv is missing: not a cold run folder"),
            "{e}"
        );
    }

    #[test]
    fn the_manifest_says_what_was_measured_and_what_columns_it_needs() {
        let dir = tmp("measure");
        let s = synth(SynthOptions {
            samples: 1,
            ..SynthOptions::default()
        });
        write_run(&dir, &s.manifest, &s.plan, &s.samples).unwrap();
        assert_eq!(load_run(&dir).unwrap().measure, Measure::Time);
        // a timed run's file without init_plus_ops is refused: the analysis needs it
        let text = fs::read_to_string(dir.join(SAMPLES)).unwrap();
        fs::write(
            dir.join(SAMPLES),
            text.replacen("init_plus_ops_ns", "something_else", 1),
        )
        .unwrap();
        let e = format!("{:#}", load_run(&dir).unwrap_err());
        assert!(e.contains("lacks the column init_plus_ops_ns"), "{e}");
        // a manifest that is not thaw's is a note, and counts without times read as counted
        let dir = tmp("measure-counted");
        let rows = [counted("noop", 1, 1, 2, 3)];
        write_rows(&dir.join(SAMPLES), &rows).unwrap();
        fs::write(dir.join(MANIFEST), "{\"thaw_version\": 1}").unwrap();
        let run = load_run(&dir).unwrap();
        assert_eq!(run.measure, Measure::Instructions);
        let notes = run.notes.join("\n");
        assert!(notes.contains("is not a thaw manifest"), "{notes}");
        assert!(notes.contains("read as a counted run"), "{notes}");
    }
}
