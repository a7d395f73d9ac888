//! The run folder on disk (DESIGN.md, "The run folder"): creating it, the `latest` symlink
//! beside it, `plan.csv`, the fixture documents the children read, and `samples.csv`, appended
//! and flushed one row at a time so that a run killed at any moment loses no finished sample.
//! Rows are written with `analysis::samples`, the one definition of their columns.

use analysis::samples::{PlanRow, SampleRow};
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const MANIFEST: &str = "manifest.json";
pub const PLAN: &str = "plan.csv";
pub const SAMPLES: &str = "samples.csv";
pub const FIXTURES: &str = "fixtures";

/// Where a run goes by default: results/cold/<UTC time>.
pub fn default_dir(started: chrono::DateTime<chrono::Utc>) -> PathBuf {
    Path::new("results")
        .join("cold")
        .join(started.format("%Y-%m-%dT%H-%M-%SZ").to_string())
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
    let latest = parent.join("latest");
    let temporary = parent.join(format!(".latest-{}", std::process::id()));
    let _ = fs::remove_file(&temporary);
    std::os::unix::fs::symlink(name, &temporary)
        .and_then(|()| fs::rename(&temporary, &latest))
        .with_context(|| format!("cannot point {} at {}", latest.display(), dir.display()))
}

/// The path of a fixture's document inside the run folder.
pub fn fixture_file(dir: &Path, fixture: &str) -> PathBuf {
    dir.join(FIXTURES).join(format!("{fixture}.json"))
}

pub fn write_plan(dir: &Path, plan: &[PlanRow]) -> Result<()> {
    let path = dir.join(PLAN);
    let mut w = csv::Writer::from_path(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    for row in plan {
        w.serialize(row)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))
}

pub fn read_plan(dir: &Path) -> Result<Vec<PlanRow>> {
    let path = dir.join(PLAN);
    read_csv(&path)
}

/// The rows of samples.csv (none if it does not exist yet).
pub fn read_samples(dir: &Path) -> Result<Vec<SampleRow>> {
    let path = dir.join(SAMPLES);
    if !path.exists() {
        return Ok(Vec::new());
    }
    read_csv(&path)
}

fn read_csv<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| {
            row.with_context(|| format!("{}: row {} is unreadable", path.display(), i + 1))
        })
        .collect()
}

/// The plan indices that already have a row.
pub fn finished_indices(samples: &[SampleRow]) -> BTreeSet<u64> {
    samples.iter().map(|r| r.plan_index).collect()
}

/// Cuts a partial last line (a runner killed in the middle of a write) off samples.csv, so that
/// appending goes on from a whole row. Returns how many bytes were cut.
pub fn repair_samples(dir: &Path) -> Result<u64> {
    let path = dir.join(SAMPLES);
    let Ok(mut file) = OpenOptions::new().read(true).write(true).open(&path) else {
        return Ok(0);
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(0);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    file.set_len(keep as u64)
        .with_context(|| format!("cannot repair {}", path.display()))?;
    Ok((bytes.len() - keep) as u64)
}

/// samples.csv, open for appending: every row is flushed to the OS before `append` returns.
pub struct SamplesWriter {
    writer: csv::Writer<File>,
    path: PathBuf,
}

impl SamplesWriter {
    pub fn open(dir: &Path) -> Result<SamplesWriter> {
        let path = dir.join(SAMPLES);
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let empty = file.seek(SeekFrom::End(0))? == 0;
        let writer = csv::WriterBuilder::new()
            .has_headers(empty)
            .from_writer(file);
        Ok(SamplesWriter { writer, path })
    }

    pub fn append(&mut self, row: &SampleRow) -> Result<()> {
        self.writer
            .serialize(row)
            .and_then(|()| self.writer.flush().map_err(csv::Error::from))
            .with_context(|| {
                format!(
                    "cannot append plan index {} to {}",
                    row.plan_index,
                    self.path.display()
                )
            })
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so a reader never sees half.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
    let mut file = File::create(&temporary)
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("thaw-cold-folder-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn row(i: u64) -> SampleRow {
        SampleRow {
            plan_index: i,
            codec: "noop".into(),
            op: "de".into(),
            batch: 1,
            fixture: "small".into(),
            variant: "portable".into(),
            status: "ok".into(),
            wall_ns: Some(1000 + i),
            ..SampleRow::default()
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
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"1,0,noop,de,1,sm").unwrap();
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
