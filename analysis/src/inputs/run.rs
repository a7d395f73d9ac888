//! A cold run folder: `manifest.json`, `plan.csv`, `samples.csv` (docs/design.md, "The run
//! folder"), read through `schema`'s definitions. Resolves `results/cold/latest` whether it is a
//! symlink or a file naming the folder.

use anyhow::{bail, Context, Result};
use schema::csv_rows::{read_rows, write_rows};
use schema::run_folder::{Manifest, PlanRow, SampleRow, MANIFEST, PLAN, SAMPLES};
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
    /// Empty when plan.csv is missing (see `notes`).
    pub plan: Vec<PlanRow>,
    pub samples: Vec<SampleRow>,
    /// What was missing or repaired while reading, for the report's warnings.
    pub notes: Vec<String>,
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
        let (rows, note) = read_rows::<PlanRow>(&plan_path)?;
        notes.extend(note);
        rows
    } else {
        notes.push(format!("{} is missing", plan_path.display()));
        Vec::new()
    };

    let samples_path = dir.join(SAMPLES);
    if !samples_path.exists() {
        bail!(
            "{} is missing: not a cold run folder",
            samples_path.display()
        );
    }
    let (samples, note) = read_rows::<SampleRow>(&samples_path)?;
    notes.extend(note);

    Ok(Run {
        dir,
        manifest,
        manifest_json,
        plan,
        samples,
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
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mpath = dir.join(MANIFEST);
    fs::write(&mpath, serde_json::to_string_pretty(manifest)? + "\n")
        .with_context(|| format!("cannot write {}", mpath.display()))?;
    write_rows(&dir.join(PLAN), plan)?;
    write_rows(&dir.join(SAMPLES), samples)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
