//! The run folder on disk (docs/design.md, "The run folder"): creating it, the `latest` symlink
//! beside it, `plan.csv`, and `samples.csv`, appended and flushed one row at a time so that a run
//! killed at any moment loses no finished sample; its lock ([`lock`]) and its manifest with the
//! machine's facts ([`manifest`]). The files' names and rows are `schema`'s; so are the CSV rules
//! and the one reader of each file.

pub(crate) mod lock;
pub(crate) mod manifest;

use anyhow::{bail, Context, Result};
use codecs::inputs::InputKind;
use files::csv_rows::{self, Appender};
use files::{self, Folder};
use schema::curve::{CurveRow, CURVES};
use schema::rows::{PlanRow, SampleRow};
use schema::run_folder::{DEFAULT_ROOT, FIXTURES, LATEST, MANIFEST, PLAN, SAMPLES, SET_ASIDE};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use store::cell::Samples;

/// The run folder's `.preflight-output`: a child of another runtime's `--check-file` during
/// its preflight.
pub(crate) const CHECK_FILE: &str = ".preflight-output";

/// Where a run goes by default: results/cold/<UTC time> (with `-2`, `-3`… when a run started
/// in the same second).
pub(crate) fn default_dir(started: chrono::DateTime<chrono::Utc>) -> PathBuf {
    let base = Path::new(DEFAULT_ROOT).join(started.format("%Y-%m-%dT%H-%M-%SZ").to_string());
    let mut dir = base.clone();
    let mut n = 2;
    while dir.exists() {
        dir = PathBuf::from(format!("{}-{n}", base.display()));
        n += 1;
    }
    dir
}

/// What a run writes before its manifest (its lock, its inputs, a counted run's tools and
/// scratch, a preflight's check file, trained builds' archives): a folder holding nothing else was left by a run killed
/// before it started measuring.
const BEFORE_MANIFEST: [&str; 6] = [
    FIXTURES,
    schema::run_folder::LOCK,
    crate::counting::TOOLS,
    crate::counting::SCRATCH,
    CHECK_FILE,
    crate::runtimes::trained::ARCHIVES,
];

/// Whether `dir` holds no manifest and nothing but what a run writes before it (and temporary
/// files of its writers): a run killed before its manifest, which a new run may take over.
pub(crate) fn unstarted(dir: &Path) -> bool {
    let Ok(entries) = files::entries(dir) else {
        return false;
    };
    let mut any = false;
    for entry in entries {
        let name = entry.name.to_string_lossy().into_owned();
        let temporary = name.starts_with('.') && name.contains(".tmp-");
        if !(BEFORE_MANIFEST.contains(&name.as_str()) || temporary) {
            return false;
        }
        any = true;
    }
    any
}

/// Creates a fresh run folder: `dir` must not exist, be an empty folder, or hold only what a run
/// killed before its manifest left ([`unstarted`]; its lock then says whether that run still
/// lives). Anything else is refused (a run: finish it with `cold resume`; other files: never
/// overwritten).
pub fn create(dir: &Path) -> Result<()> {
    if dir.exists() {
        let empty = files::entries(dir).is_ok_and(|e| e.is_empty());
        if !empty && !unstarted(dir) {
            let what = if dir.join(MANIFEST).exists() {
                format!(
                    "it holds a run: finish it with `cold resume {}`, or give another --out",
                    text::for_shell(&dir.display().to_string())
                )
            } else {
                "it is not an empty folder, and a run never writes over other files: give a \
                 new or empty --out"
                    .to_string()
            };
            bail!("--out {}: {what}", dir.display());
        }
    }
    Folder::new(dir)
        .create_dirs(FIXTURES)
        .with_context(|| format!("cannot create the run folder {}", dir.display()))
}

/// What a fresh run made of its folder, undone if it fails before its manifest is written (a
/// missing `--children-dir`, a gate that cannot start): a folder it created is removed, a
/// folder that was empty is emptied again of the names a run writes before its manifest, and a
/// folder a killed run left ([`unstarted`]) stays as it was. Nothing else is removed: a folder
/// that holds another name by then is left whole.
pub(crate) struct Made {
    dir: PathBuf,
    /// The folder did not exist (`Some(true)`), or was empty (`Some(false)`); `None`: neither,
    /// or the manifest is written and the folder is the run's.
    undo: Option<bool>,
    /// The run holds the folder's lock: only then is anything undone (before, the folder may
    /// be another run's).
    armed: bool,
}

impl Made {
    /// What `dir` is before a fresh run creates it.
    pub(crate) fn before(dir: &Path) -> Made {
        let undo = match files::entries(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(true),
            Ok(entries) if entries.is_empty() => Some(false),
            _ => None,
        };
        Made {
            dir: dir.to_path_buf(),
            undo,
            armed: false,
        }
    }

    /// The run holds the folder's lock: a failure from now on undoes what it made.
    pub(crate) fn arm(&mut self) {
        self.armed = true;
    }

    /// The manifest is written: the folder is the run's from now on.
    pub(crate) fn keep(&mut self) {
        self.undo = None;
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        let Some(created) = self.undo.filter(|_| self.armed) else {
            return;
        };
        if !unstarted(&self.dir) {
            return;
        }
        if created {
            let _ = fs::remove_dir_all(&self.dir);
            return;
        }
        for entry in files::entries(&self.dir).unwrap_or_default() {
            let _ = match entry.kind {
                files::Kind::Folder => fs::remove_dir_all(&entry.path),
                _ => fs::remove_file(&entry.path),
            };
        }
    }
}

/// Removes the temporary files (`.<name>.tmp-<pid>`) a writer killed mid-write left behind.
pub(crate) fn clear_temporaries(dir: &Path) -> Result<()> {
    let run = Folder::new(dir);
    for sub in ["", FIXTURES] {
        let Ok(entries) = files::entries(&run.join(sub)) else {
            continue;
        };
        for entry in entries {
            let name = entry.name.to_string_lossy().into_owned();
            if name.starts_with('.') && name.contains(".tmp-") {
                run.remove_file(Path::new(sub).join(&name))
                    .with_context(|| format!("cannot remove {}", entry.path.display()))?;
            }
        }
    }
    Ok(())
}

/// The input file's path relative to the run folder, as the manifest records it.
pub(crate) fn input_relative(fixture: &str, kind: InputKind) -> String {
    format!("{FIXTURES}/{fixture}.{}", kind.extension())
}

/// Points `<parent>/latest` at `dir` (a relative symlink, replaced atomically).
pub(crate) fn point_latest(dir: &Path) -> Result<()> {
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

pub(crate) fn write_plan(dir: &Path, plan: &[PlanRow]) -> Result<()> {
    csv_rows::write_rows(&dir.join(PLAN), plan)
}

pub(crate) fn read_plan(dir: &Path) -> Result<Vec<PlanRow>> {
    let (rows, torn) = store::rows::read_plan(&dir.join(PLAN))?;
    if let Some(note) = torn {
        bail!("{note}; plan.csv is written whole, so this folder was damaged");
    }
    Ok(rows)
}

/// The rows of samples.csv (none if it does not exist yet), leaving out a torn last row, each
/// checked against `plan` (its index and cell; no index twice).
pub fn read_samples(dir: &Path, plan: &[PlanRow]) -> Result<Vec<SampleRow>> {
    if !Folder::new(dir).exists(SAMPLES) {
        return Ok(Vec::new());
    }
    Ok(store::rows::read_samples(&dir.join(SAMPLES), Some(plan))?.0)
}

/// samples.csv by cell (empty if it does not exist yet), checked against `plan`.
pub(crate) fn read_store(dir: &Path, plan: &[PlanRow]) -> Result<Samples> {
    if !Folder::new(dir).exists(SAMPLES) {
        return Ok(Samples::default());
    }
    let plan = store::rows::Plan::of(plan);
    Ok(Samples::read(&dir.join(SAMPLES), Some(&plan), &[])?.0)
}

/// The plan indices that already have a row (checked against `plan`).
pub(crate) fn finished_indices(dir: &Path, plan: &[PlanRow]) -> Result<BTreeSet<u64>> {
    Ok(read_samples(dir, plan)?
        .iter()
        .map(|r| r.plan_index)
        .collect())
}

/// Where two runners once wrote one folder (each plan index taken twice): keeps each index's
/// first row in samples.csv, in order, and appends the later ones to samples.set-aside.csv (the
/// kept file is replaced whole: a new file renamed over it). Returns how many rows were set
/// aside.
pub(crate) fn set_aside_repeats(dir: &Path) -> Result<usize> {
    if !Folder::new(dir).exists(SAMPLES) {
        return Ok(0);
    }
    csv_rows::keep_first_of_each_key(&dir.join(SAMPLES), &dir.join(SET_ASIDE))
}

/// The largest samples.csv a repair copies whole (millions of rows).
const MAX_SAMPLES_BYTES: u64 = 4 << 30;

/// Where samples.csv has a second name (a hard link made to it while a run ran): replaces it
/// with a new file of the same bytes (renamed over the name), so the other name keeps the old
/// file and nothing written through it reaches the run. Returns whether it did.
pub(crate) fn unlink_other_names(dir: &Path) -> Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let path = dir.join(SAMPLES);
    let folder = Folder::new(dir);
    let links = folder
        .open_read(SAMPLES)
        .and_then(|f| f.metadata())
        .map(|m| m.nlink())
        .unwrap_or(1);
    if links <= 1 {
        return Ok(false);
    }
    let bytes = folder
        .read_bounded(SAMPLES, MAX_SAMPLES_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    folder
        .write_atomically(SAMPLES, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(true)
}

/// Cuts a torn last row (a runner killed in the middle of a write) off samples.csv, so that
/// appending goes on from a whole row. Returns how many bytes were cut.
pub(crate) fn repair_samples(dir: &Path) -> Result<u64> {
    csv_rows::cut_torn_tail(&dir.join(SAMPLES))
}

/// Keeps in curves.csv only the curves of samples that have a row (`finished`): a runner
/// stopped between a sample's curve and its row left a curve its resume will take again. The
/// file is replaced whole (a new file renamed over it).
pub(crate) fn prune_curves(dir: &Path, finished: &BTreeSet<u64>) -> Result<()> {
    if !Folder::new(dir).exists(CURVES) {
        return Ok(());
    }
    let path = dir.join(CURVES);
    csv_rows::cut_torn_tail(&path)?;
    let (curves, _) = schema::curve::read_curves(&path)?;
    if curves.keys().all(|i| finished.contains(i)) {
        return Ok(());
    }
    let kept: Vec<CurveRow> = curves
        .into_values()
        .filter(|c| finished.contains(&c.plan_index))
        .collect();
    csv_rows::write_rows(&path, &kept)
}

/// samples.csv (and, in a curve run, curves.csv), open for appending: every row goes to the OS
/// before `append` returns. The writer knows what it wrote (the file's size, its rows) and checks
/// after each row that the file is still what it wrote ([`SamplesWriter::still_ours`]).
pub struct SamplesWriter {
    samples: Appender,
    curves: Option<Appender>,
    dir: PathBuf,
    /// The run folder, held open since samples.csv was: each row is appended only while the
    /// name samples.csv in it is still the file open here.
    held: files::Held,
    /// The size samples.csv must have: its size when opened plus every byte appended since.
    bytes: u64,
    /// The rows it holds: those it had when opened plus those appended since.
    rows: u64,
}

/// What samples.csv is, against what its writer wrote: the first difference, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileFacts {
    pub size: u64,
    pub links: u64,
}

/// Why samples.csv is not what its writer wrote (`None`: it is): shorter or longer than the
/// bytes written, or with a second name (a hard link, through which it could be changed unseen).
pub(crate) fn samples_differ(expected_bytes: u64, seen: FileFacts) -> Option<String> {
    if seen.size != expected_bytes {
        return Some(format!(
            "it holds {} bytes where this run wrote {expected_bytes}: it was cut or written to \
             by something else",
            seen.size
        ));
    }
    if seen.links != 1 {
        return Some(format!(
            "it has {} names (a hard link was made to it): it could be changed through another",
            seen.links
        ));
    }
    None
}

impl SamplesWriter {
    /// Opens samples.csv in `dir` for appending; `rows`: how many rows it holds now.
    pub fn open(dir: &Path, rows: u64) -> Result<SamplesWriter> {
        let held = Folder::new(dir)
            .hold()
            .with_context(|| format!("cannot open the run folder {}", dir.display()))?;
        let samples = Appender::open(&dir.join(SAMPLES))?;
        let bytes = samples
            .file()
            .metadata()
            .with_context(|| format!("cannot read {}", dir.join(SAMPLES).display()))?
            .len();
        let writer = SamplesWriter {
            samples,
            curves: None,
            dir: dir.to_path_buf(),
            held,
            bytes,
            rows,
        };
        writer.still_ours()?;
        Ok(writer)
    }

    /// The rows samples.csv holds, as this writer knows them.
    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// An error unless samples.csv in the run folder (as held open) is still the file this
    /// writer appends to, with the size it wrote and one name: a file renamed over it (`sed -i`
    /// by a child), removed, replaced, cut (`truncate`) or given a second name would take rows
    /// out of the run, and the run would say "finished" over rows it does not have.
    pub(crate) fn still_ours(&self) -> Result<()> {
        use std::os::unix::fs::MetadataExt;
        let path = self.held.path().join(SAMPLES);
        let same = self
            .held
            .still_names(SAMPLES, self.samples.file())
            .with_context(|| format!("cannot check {}", path.display()))?;
        if !same {
            bail!(
                "{} is no longer the file this run appends to: it was replaced, renamed or \
                 removed while the run ran (by a child, or by hand); the rows since then are not \
                 in it, and the run is not finished. `cold resume` takes the missing samples again",
                path.display()
            );
        }
        let meta = self
            .samples
            .file()
            .metadata()
            .with_context(|| format!("cannot check {}", path.display()))?;
        let seen = FileFacts {
            size: meta.len(),
            links: meta.nlink(),
        };
        if let Some(why) = samples_differ(self.bytes, seen) {
            bail!(
                "{}: {why}; the run is not finished. `cold resume` takes the missing samples \
                 again",
                path.display()
            );
        }
        Ok(())
    }

    /// Appends a sample's row, after its curve where it has one (so that a sample with a row
    /// always has its curve), checking the file before and after ([`SamplesWriter::still_ours`]:
    /// a row is never appended to a file cut meanwhile, which would leave it without its header).
    pub(crate) fn append(&mut self, row: &SampleRow, curve: Option<&CurveRow>) -> Result<()> {
        self.still_ours()?;
        if let Some(curve) = curve {
            if self.curves.is_none() {
                self.curves = Some(Appender::open(&self.dir.join(CURVES))?);
            }
            if let Some(curves) = self.curves.as_mut() {
                curves
                    .append(curve)
                    .with_context(|| format!("the curve of plan index {}", curve.plan_index))?;
            }
        }
        let written = self
            .samples
            .append(row)
            .with_context(|| format!("plan index {}", row.plan_index))?;
        self.bytes += written;
        self.rows += 1;
        self.still_ours()
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

    fn plan(i: u64) -> PlanRow {
        PlanRow {
            plan_index: i,
            block: 0,
            codec: "noop".into(),
            op: Op::De,
            batch: 1,
            fixture: "small".into(),
            variant: Variant::PORTABLE,
        }
    }

    fn row(i: u64) -> SampleRow {
        let mut row = SampleRow::planned(&plan(i));
        row.set(schema::phases::Figure::WALL, Some(1000 + i));
        row
    }

    #[test]
    fn a_samples_file_replaced_under_the_writer_stops_it() {
        let dir = tmp("replaced");
        create(&dir).unwrap();
        let mut w = SamplesWriter::open(&dir, 0).unwrap();
        w.append(&row(0), None).unwrap();
        // what `sed -i` does: a new file renamed over the name
        let copy = dir.join("samples.csv.sed");
        fs::copy(dir.join(SAMPLES), &copy).unwrap();
        fs::rename(&copy, dir.join(SAMPLES)).unwrap();
        let e = w.append(&row(1), None).unwrap_err().to_string();
        assert!(e.contains("no longer the file this run appends to"), "{e}");
        assert!(w.still_ours().is_err());
        // a new writer takes the new file as its own
        let mut w = SamplesWriter::open(&dir, 0).unwrap();
        w.append(&row(2), None).unwrap();
        w.still_ours().unwrap();
        fs::remove_file(dir.join(SAMPLES)).unwrap();
        assert!(w.still_ours().is_err(), "removed");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn samples_append_across_writers_with_one_header() {
        let dir = tmp("append");
        create(&dir).unwrap();
        SamplesWriter::open(&dir, 0)
            .unwrap()
            .append(&row(0), None)
            .unwrap();
        let mut w = SamplesWriter::open(&dir, 0).unwrap();
        w.append(&row(1), None).unwrap();
        w.append(&row(2), None).unwrap();
        let planned: Vec<PlanRow> = (0..3).map(plan).collect();
        let rows = read_samples(&dir, &planned).unwrap();
        assert_eq!(rows, vec![row(0), row(1), row(2)]);
        assert_eq!(finished_indices(&dir, &planned).unwrap().len(), 3);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_samples_file_cut_or_linked_under_the_writer_stops_it() {
        let dir = tmp("cut");
        create(&dir).unwrap();
        let mut w = SamplesWriter::open(&dir, 0).unwrap();
        w.append(&row(0), None).unwrap();
        w.append(&row(1), None).unwrap();
        assert_eq!(w.rows(), 2);
        // cut to its header line, as a child could: the next append sees it
        let header = fs::read_to_string(dir.join(SAMPLES)).unwrap();
        let header = header.lines().next().unwrap().len() as u64 + 1;
        fs::OpenOptions::new()
            .write(true)
            .open(dir.join(SAMPLES))
            .unwrap()
            .set_len(header)
            .unwrap();
        let e = w.append(&row(2), None).unwrap_err().to_string();
        assert!(e.contains("bytes where this run wrote"), "{e}");
        // a second name
        let w = SamplesWriter::open(&dir, 1).unwrap();
        w.still_ours().unwrap();
        let other = dir.with_extension("other.csv");
        fs::hard_link(dir.join(SAMPLES), &other).unwrap();
        let e = w.still_ours().unwrap_err().to_string();
        assert!(e.contains("2 names"), "{e}");
        fs::remove_file(&other).unwrap();
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn what_the_writer_wrote_against_what_the_file_is() {
        let facts = |size, links| FileFacts { size, links };
        assert_eq!(samples_differ(10, facts(10, 1)), None);
        assert!(samples_differ(10, facts(9, 1)).unwrap().contains("9 bytes"));
        assert!(samples_differ(10, facts(11, 1))
            .unwrap()
            .contains("11 bytes"));
        assert!(samples_differ(10, facts(10, 2))
            .unwrap()
            .contains("2 names"));
    }

    #[test]
    fn rows_that_repeat_an_index_are_set_aside_and_the_first_kept() {
        let dir = tmp("repeats");
        create(&dir).unwrap();
        let mut w = SamplesWriter::open(&dir, 0).unwrap();
        let mut second = row(1);
        second.set(schema::phases::Figure::WALL, Some(7));
        for r in [row(0), row(1), second, row(2), row(0)] {
            w.append(&r, None).unwrap();
        }
        drop(w);
        assert_eq!(set_aside_repeats(&dir).unwrap(), 2);
        let planned: Vec<PlanRow> = (0..3).map(plan).collect();
        assert_eq!(
            read_samples(&dir, &planned).unwrap(),
            vec![row(0), row(1), row(2)]
        );
        let aside = fs::read_to_string(dir.join(SET_ASIDE)).unwrap();
        let lines: Vec<&str> = aside.lines().collect();
        assert_eq!(lines.len(), 3, "a header and two rows: {aside}");
        assert!(lines[0].starts_with("plan_index,"), "{aside}");
        assert!(
            lines[1].starts_with("1,") && lines[2].starts_with("0,"),
            "{aside}"
        );
        assert_eq!(
            set_aside_repeats(&dir).unwrap(),
            0,
            "nothing more to set aside"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_partial_last_line_is_cut() {
        let dir = tmp("repair");
        create(&dir).unwrap();
        SamplesWriter::open(&dir, 0)
            .unwrap()
            .append(&row(0), None)
            .unwrap();
        let path = dir.join(SAMPLES);
        let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"1,0,noop,de,1,sm").unwrap();
        let planned: Vec<PlanRow> = (0..2).map(plan).collect();
        assert_eq!(read_samples(&dir, &planned).unwrap(), vec![row(0)]);
        assert_eq!(repair_samples(&dir).unwrap(), 16);
        assert_eq!(repair_samples(&dir).unwrap(), 0);
        SamplesWriter::open(&dir, 0)
            .unwrap()
            .append(&row(1), None)
            .unwrap();
        assert_eq!(read_samples(&dir, &planned).unwrap(), vec![row(0), row(1)]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_new_or_empty_folder_is_taken_and_latest_follows() {
        let root = tmp("latest");
        let a = root.join("a");
        let b = root.join("b");
        create(&a).unwrap();
        point_latest(&a).unwrap();
        fs::write(a.join(MANIFEST), "{}").unwrap();
        let e = create(&a).unwrap_err().to_string();
        assert!(e.contains("cold resume"), "{e}");
        // A folder of the user's own files is never written over.
        let theirs = root.join("theirs");
        fs::create_dir_all(&theirs).unwrap();
        fs::write(theirs.join("notes.txt"), "mine").unwrap();
        let e = create(&theirs).unwrap_err().to_string();
        assert!(e.contains("never writes over"), "{e}");
        assert_eq!(
            fs::read_to_string(theirs.join("notes.txt")).unwrap(),
            "mine"
        );
        // An empty folder is fine.
        let empty = root.join("empty");
        fs::create_dir_all(&empty).unwrap();
        create(&empty).unwrap();
        create(&b).unwrap();
        point_latest(&b).unwrap();
        assert_eq!(fs::read_link(root.join("latest")).unwrap(), Path::new("b"));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn leftover_temporaries_are_cleared_and_nothing_else() {
        let dir = tmp("temporaries");
        create(&dir).unwrap();
        fs::write(dir.join(".manifest.json.tmp-123"), "half").unwrap();
        fs::write(dir.join("fixtures/.users-2kb.json.tmp-9"), "half").unwrap();
        fs::write(dir.join("fixtures/users-2kb.json"), "{}").unwrap();
        clear_temporaries(&dir).unwrap();
        assert!(!dir.join(".manifest.json.tmp-123").exists());
        assert!(!dir.join("fixtures/.users-2kb.json.tmp-9").exists());
        assert!(dir.join("fixtures/users-2kb.json").exists());
        fs::remove_dir_all(&dir).unwrap();
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
