//! The run folder on disk (docs/design.md, "The run folder"): creating it, the `latest` symlink
//! beside it, `plan.csv`, and `samples.csv`, appended and flushed one row at a time so that a run
//! killed at any moment loses no finished sample. The files' names and rows are
//! `schema::run_folder`'s; the CSV rules are `schema::csv_rows`'.

use anyhow::{bail, Context, Result};
use schema::csv_rows::{self, Appender};
use schema::run_folder::{PlanRow, SampleRow, DEFAULT_ROOT, FIXTURES, LATEST, PLAN, SAMPLES};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Where a run goes by default: results/cold/<UTC time>.
pub fn default_dir(started: chrono::DateTime<chrono::Utc>) -> PathBuf {
    Path::new(DEFAULT_ROOT).join(started.format("%Y-%m-%dT%H-%M-%SZ").to_string())
}

/// Creates the run folder; refuses one that already holds a run.
pub fn create(dir: &Path) -> Result<()> {
    if dir.join(PLAN).exists() || dir.join(SAMPLES).exists() {
        bail!(
            "{} already holds a run; give another --out, or --resume {} to finish it",
            dir.display(),
            dir.display()
        );
    }
    fs::create_dir_all(dir.join(FIXTURES))
        .with_context(|| format!("cannot create the run folder {}", dir.display()))
}

/// Points `<parent>/latest` at `dir` (a relative symlink, replaced atomically).
pub fn point_latest(dir: &Path) -> Result<()> {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return Ok(());
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let latest = parent.join(LATEST);
    let temporary = parent.join(format!(".{LATEST}-{}", std::process::id()));
    let _ = fs::remove_file(&temporary);
    std::os::unix::fs::symlink(name, &temporary)
        .and_then(|()| fs::rename(&temporary, &latest))
        .with_context(|| format!("cannot point {} at {}", latest.display(), dir.display()))
}

pub fn write_plan(dir: &Path, plan: &[PlanRow]) -> Result<()> {
    csv_rows::write_rows(&dir.join(PLAN), plan)
}

pub fn read_plan(dir: &Path) -> Result<Vec<PlanRow>> {
    let path = dir.join(PLAN);
    let (rows, torn) = csv_rows::read_rows(&path)?;
    if let Some(note) = torn {
        bail!("{note}; plan.csv is written whole, so this folder was damaged");
    }
    Ok(rows)
}

/// The rows of samples.csv (none if it does not exist yet), leaving out a torn last row.
pub fn read_samples(dir: &Path) -> Result<Vec<SampleRow>> {
    let path = dir.join(SAMPLES);
    if !path.exists() {
        return Ok(Vec::new());
    }
    Ok(csv_rows::read_rows(&path)?.0)
}

/// The plan indices that already have a row.
pub fn finished_indices(samples: &[SampleRow]) -> BTreeSet<u64> {
    samples.iter().map(|r| r.plan_index).collect()
}

/// Cuts a torn last row (a runner killed in the middle of a write) off samples.csv, so that
/// appending goes on from a whole row. Returns how many bytes were cut.
pub fn repair_samples(dir: &Path) -> Result<u64> {
    csv_rows::cut_torn_tail(&dir.join(SAMPLES))
}

/// samples.csv, open for appending: every row is flushed to the OS before `append` returns.
pub struct SamplesWriter(Appender);

impl SamplesWriter {
    pub fn open(dir: &Path) -> Result<SamplesWriter> {
        Appender::open(&dir.join(SAMPLES)).map(SamplesWriter)
    }

    pub fn append(&mut self, row: &SampleRow) -> Result<()> {
        self.0
            .append(row)
            .with_context(|| format!("plan index {}", row.plan_index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema::{Op, Variant};
    use std::io::Write;

    fn tmp(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("thaw-cold-folder-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn row(i: u64) -> SampleRow {
        let plan = PlanRow {
            plan_index: i,
            block: 0,
            codec: "noop".into(),
            op: Op::De,
            batch: 1,
            fixture: "small".into(),
            variant: Variant::Portable,
        };
        SampleRow {
            wall_ns: Some(1000 + i),
            ..SampleRow::planned(&plan)
        }
    }

    #[test]
    fn samples_append_across_writers_with_one_header() {
        let dir = tmp("append");
        create(&dir).unwrap();
        SamplesWriter::open(&dir).unwrap().append(&row(0)).unwrap();
        let mut w = SamplesWriter::open(&dir).unwrap();
        w.append(&row(1)).unwrap();
        w.append(&row(2)).unwrap();
        let rows = read_samples(&dir).unwrap();
        assert_eq!(rows, vec![row(0), row(1), row(2)]);
        assert_eq!(finished_indices(&rows).len(), 3);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_partial_last_line_is_cut() {
        let dir = tmp("repair");
        create(&dir).unwrap();
        SamplesWriter::open(&dir).unwrap().append(&row(0)).unwrap();
        let path = dir.join(SAMPLES);
        let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"1,0,noop,de,1,sm").unwrap();
        assert_eq!(read_samples(&dir).unwrap(), vec![row(0)]);
        assert_eq!(repair_samples(&dir).unwrap(), 16);
        assert_eq!(repair_samples(&dir).unwrap(), 0);
        SamplesWriter::open(&dir).unwrap().append(&row(1)).unwrap();
        assert_eq!(read_samples(&dir).unwrap(), vec![row(0), row(1)]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_with_a_run_is_refused_and_latest_follows() {
        let root = tmp("latest");
        let a = root.join("a");
        let b = root.join("b");
        create(&a).unwrap();
        point_latest(&a).unwrap();
        write_plan(&a, &[]).unwrap();
        assert!(create(&a).unwrap_err().to_string().contains("--resume"));
        create(&b).unwrap();
        point_latest(&b).unwrap();
        assert_eq!(fs::read_link(root.join("latest")).unwrap(), Path::new("b"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn default_dir_is_utc_time_without_colons() {
        let t = chrono::DateTime::from_timestamp(0, 0).unwrap();
        assert_eq!(
            default_dir(t),
            Path::new("results/cold/1970-01-01T00-00-00Z")
        );
    }
}
