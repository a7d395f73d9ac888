//! The training step of a trained build (`runtimes::trained`), before a run's preflight: the
//! child's classes packed into a jar, one training run of the child on another document of its
//! model that leaves the archive, and one verification run on the measured document whose log
//! must prove the archive mapped. Everything is written in the run folder's
//! `archives/<build>/`; a cell whose archive cannot be made or was not used is left out with the
//! reason, never timed as if it were cached.

use crate::runtimes::trained::{self, Places, Trained};
use crate::runtimes::{ExternalChild, ExternalCodec};
use anyhow::{Context, Result};
use fixtures::{sha256_hex, Fixture};
use schema::protocol::Args;
use schema::run_folder::ArchiveEntry;
use schema::{Drops, GateCell, Op, Variant};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The most of a verification log that is read.
const LOG_LIMIT: u64 = 64 << 20;

/// A trained cell's child and its archive.
pub struct TrainedChild {
    pub(crate) child: ExternalChild,
    pub archive: ArchiveEntry,
}

/// What a training needs of the run.
pub struct Training<'a> {
    /// The run folder, absolute (the training runs in its archives' folder).
    pub dir: &'a Path,
    pub seed: u64,
    pub corpora: Option<&'a Path>,
    pub env: &'a [(OsString, OsString)],
}

/// Trains `cell`'s child of `variant` and proves its archive used: `Ok(Err(reason))` leaves the
/// cell out.
pub fn train(
    run: &Training,
    ext: &ExternalCodec,
    variant: Variant,
    cell: &GateCell,
    measured_input: &Path,
) -> Result<Result<TrainedChild, String>> {
    let t = ext
        .runtime
        .trained(variant)
        .with_context(|| format!("{variant} is not a trained build"))?;
    let fixture = fixtures::catalog::find(&cell.fixture)?;
    let on = match trained::training_fixture(t, fixture) {
        Ok(f) => f,
        Err(why) => return Ok(Err(why)),
    };
    let folder = trained::folder(run.dir, variant);
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let places = places(ext, variant, &folder, cell, on)?;
    let _ = std::fs::remove_file(&places.jar);
    if let Err(why) = command(&trained::fill(&t.pack, &places), &folder, run.env) {
        return Ok(Err(format!("packing its classes failed: {why}")));
    }
    let input = training_input(run, ext, on, cell.op, &folder)?;
    let _ = std::fs::remove_file(&places.archive);
    let trainer = ext.child_packed(
        variant,
        &places.jar,
        &trained::fill(&t.train.flags, &places),
    )?;
    let argv = with_protocol(&trainer, cell.op, t.train.batch, &input);
    let started = Instant::now();
    if let Err(why) = command(&argv, &folder, run.env) {
        return Ok(Err(format!("its training run failed: {why}")));
    }
    let training_ms = started.elapsed().as_millis() as u64;
    let bytes = match files::read_regular(&places.archive, files::PROGRAM_LIMIT) {
        Ok(b) => b,
        Err(e) => return Ok(Err(format!("its training run left no archive: {e}"))),
    };
    let verified = match prove(run, ext, variant, cell, on, measured_input)? {
        Ok(v) => v,
        Err(why) => return Ok(Err(why)),
    };
    let child = ext.child_packed(variant, &places.jar, &trained::fill(&t.flags, &places))?;
    Ok(Ok(TrainedChild {
        child,
        archive: ArchiveEntry {
            file: relative(run.dir, &places.archive),
            bytes: bytes.len() as u64,
            sha256: sha256_hex(&bytes),
            trained_on: on.name.to_string(),
            command: argv
                .iter()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            training_ms,
            verified,
        },
    }))
}

/// A resumed run's trained child: the same jar and archive, which must be the bytes the run
/// recorded.
pub(crate) fn resumed(
    dir: &Path,
    ext: &ExternalCodec,
    variant: Variant,
    cell: &GateCell,
    recorded: &ArchiveEntry,
) -> Result<ExternalChild> {
    let t = ext
        .runtime
        .trained(variant)
        .with_context(|| format!("{variant} is not a trained build"))?;
    let on = fixtures::catalog::find(&recorded.trained_on)?;
    let dir = std::path::absolute(dir)?;
    let places = places(ext, variant, &trained::folder(&dir, variant), cell, on)?;
    let bytes = files::read_regular(&places.archive, files::PROGRAM_LIMIT)
        .with_context(|| format!("cannot read the archive {}", places.archive.display()))?;
    if sha256_hex(&bytes) != recorded.sha256 {
        anyhow::bail!(
            "the archive {} is not the one this run trained; start a new run",
            places.archive.display()
        );
    }
    ext.child_packed(variant, &places.jar, &trained::fill(&t.flags, &places))
}

/// The placeholders of `cell`'s child trained on `on`.
fn places(
    ext: &ExternalCodec,
    variant: Variant,
    folder: &Path,
    cell: &GateCell,
    on: &Fixture,
) -> Result<Places> {
    let t = ext
        .runtime
        .trained(variant)
        .context("not a trained build")?;
    let found = ext
        .runtime
        .found(variant)
        .map_err(|e| anyhow::anyhow!("{}: {e}", ext.id))?;
    let (classes, class) = ext.classes()?;
    let stem = format!("{}-{}-{}", cell.codec, cell.op, on.name);
    Ok(Places {
        archive: folder.join(format!("{stem}.{}", t.archive)),
        jar: folder.join(format!("{stem}.jar")),
        log: folder.join(format!("{stem}-{}.log", cell.fixture)),
        classes,
        bin: found.executable.parent().unwrap_or(Path::new("/")).into(),
        class,
    })
}

/// The training document's input for `ext`'s child, written in the archive folder.
fn training_input(
    run: &Training,
    ext: &ExternalCodec,
    on: &'static Fixture,
    op: Op,
    folder: &Path,
) -> Result<PathBuf> {
    let input = crate::run::input::Input::of(ext, on, op);
    let document = on
        .document(run.seed, run.corpora)
        .with_context(|| format!("fixture {}", on.name))?;
    let bytes = input
        .prepare(on, run.seed, &document)
        .with_context(|| format!("the {} input of {}", input.name(), on.name))?;
    let name = format!("{}.{}", on.name, input.extension());
    files::Folder::new(folder).write_atomically(&name, &bytes)?;
    Ok(folder.join(name))
}

/// The verification run of `cell`'s archive trained on `on`: the child with its timed flags
/// and the log's, on the measured input. What proves the archive used, or why it was not.
pub fn prove(
    run: &Training,
    ext: &ExternalCodec,
    variant: Variant,
    cell: &GateCell,
    on: &Fixture,
    input: &Path,
) -> Result<Result<String, String>> {
    let t: &Trained = ext
        .runtime
        .trained(variant)
        .context("not a trained build")?;
    let places = places(ext, variant, &trained::folder(run.dir, variant), cell, on)?;
    // it runs in the archives' folder, so the runner's relative paths would lead elsewhere
    let input = &std::path::absolute(input)?;
    let mut flags = trained::fill(&t.flags, &places);
    flags.extend(trained::fill(&t.verify.flags, &places));
    let child = ext.child_packed(variant, &places.jar, &flags)?;
    let _ = std::fs::remove_file(&places.log);
    let folder = places.log.parent().unwrap_or(run.dir);
    if let Err(why) = command(&with_protocol(&child, cell.op, 1, input), folder, run.env) {
        return Ok(Err(format!("the archive is not usable: {why}")));
    }
    let Ok(log) = files::read_regular(&places.log, LOG_LIMIT) else {
        return Ok(Err("its verification run wrote no log".into()));
    };
    let expect = trained::fill(std::slice::from_ref(&t.verify.expect), &places).remove(0);
    Ok(trained::proof(
        &String::from_utf8_lossy(&log),
        &expect,
        &t.verify.count,
    ))
}

/// The child's whole argv: its program, its prefix and the protocol's arguments.
fn with_protocol(child: &ExternalChild, op: Op, batch: u32, input: &Path) -> Vec<OsString> {
    let protocol = Args {
        op,
        batch: batch as usize,
        input: input.to_path_buf(),
        drops: Drops::End,
        check_file: None,
        window: None,
    };
    std::iter::once(child.program.clone().into_os_string())
        .chain(child.prefix.iter().cloned())
        .chain(protocol.to_argv())
        .collect()
}

/// Runs `argv` in `folder` with the children's environment; `Err` with what it said if it
/// failed.
fn command(
    argv: &[impl AsRef<std::ffi::OsStr>],
    folder: &Path,
    env: &[(OsString, OsString)],
) -> Result<(), String> {
    let (program, rest) = argv.split_first().ok_or("an empty command")?;
    let out = Command::new(program)
        .args(rest)
        .current_dir(folder)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program.as_ref().to_string_lossy()))?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&[out.stderr, out.stdout].concat()).into_owned();
    let said = text::clip(said.trim(), 600);
    Err(format!("{} ({})", said.replace('\n', " / "), out.status))
}

fn relative(dir: &Path, file: &Path) -> String {
    file.strip_prefix(dir).unwrap_or(file).display().to_string()
}
