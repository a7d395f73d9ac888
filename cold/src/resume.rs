//! `cold run --resume DIR`: finish a run that stopped early. It reads plan.csv and samples.csv,
//! and takes exactly the plan indices that have no row, with the run's own settings (seed,
//! variant, timeout, cold cache, pinning, from manifest.json), its own fixture documents, and
//! only if the children are byte for byte the ones the run started with.

use crate::binaries;
use crate::folder;
use crate::manifest;
use crate::pin;
use crate::session::{self, say};
use anyhow::{bail, Context, Result};
use fixtures::codecs::find_codec;
use fixtures::{catalog, sha256_hex};
use schema::run_folder::{fixture_file, Manifest, PlanRow, PLAN};
use schema::{GateCell, Variant};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Finishes the run in `dir` (with `dry_run`: prints what is left of its plan).
pub fn resume(dir: &Path, dry_run: bool) -> Result<PathBuf> {
    if !dir.is_dir() {
        bail!(
            "--resume {}: no run folder there (give the folder of a run that was started, \
             e.g. results/cold/latest)",
            dir.display()
        );
    }
    if !dir.join(PLAN).exists() {
        bail!(
            "--resume {}: no {} there: not a run folder, or a run that stopped before its plan \
             was written (during the correctness gate or the preflight); start a new run",
            dir.display(),
            PLAN
        );
    }
    let mut manifest = manifest::read(dir)?;
    let settings = manifest
        .settings()
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("--resume {}", dir.display()))?;
    let plan_rows = folder::read_plan(dir)?;
    let cut = folder::repair_samples(dir)?;
    if cut > 0 {
        say!("samples.csv: cut a partial last row ({cut} bytes) left by an interrupted write");
    }
    let done = folder::finished_indices(&folder::read_samples(dir)?);
    let left: Vec<PlanRow> = plan_rows
        .iter()
        .filter(|r| !done.contains(&r.plan_index))
        .cloned()
        .collect();
    if dry_run {
        session::print_plan(&left)?;
        eprintln!("{} of {} planned samples left", left.len(), plan_rows.len());
        return Ok(dir.to_path_buf());
    }
    say!(
        "resuming {}: {} of {} planned samples left",
        dir.display(),
        left.len(),
        plan_rows.len()
    );

    if let Some(cpus) = &settings.pinning {
        let mask = pin::pin(&pin::parse_cpus(cpus)?)?;
        say!("pinned to CPUs {}", pin::format_cpus(&mask));
    }
    let child_paths = same_children(&manifest, &left, &settings.children_dir, settings.variant)?;
    let expected = expected_checksums(dir, &manifest, &left, settings.seed)?;

    manifest.finished = false;
    manifest.resumed_utc.push(manifest::utc_now().1);
    manifest::write(dir, &manifest)?;

    let jobs = session::jobs(&left, &child_paths, dir, &settings, &expected)?;
    let before = plan_rows.len() - left.len();
    let tally = session::take_samples(dir, &jobs, &settings, plan_rows.len(), before)?;
    session::finish(dir, &mut manifest, &settings, &tally)?;
    Ok(dir.to_path_buf())
}

/// The children of the codecs left, checked against the manifest's SHA-256.
fn same_children(
    m: &Manifest,
    left: &[PlanRow],
    children_dir: &str,
    variant: Variant,
) -> Result<HashMap<String, PathBuf>> {
    let codecs: Vec<&str> = left
        .iter()
        .map(|r| r.codec.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let paths = binaries::find(Path::new(children_dir), &codecs, variant)?;
    let mut by_codec = HashMap::new();
    for (codec, path) in codecs.into_iter().zip(paths) {
        let bytes =
            std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let recorded = m.codecs.iter().find(|c| c.id == codec);
        if recorded.and_then(|c| c.child_sha256.as_deref()) != Some(sha256_hex(&bytes).as_str()) {
            bail!(
                "the child of codec {codec} ({}) is not the one this run started with (its \
                 SHA-256 differs from manifest.json); a resumed run would mix two builds — \
                 start a new run",
                path.display()
            );
        }
        by_codec.insert(codec.to_string(), path);
    }
    Ok(by_codec)
}

/// The checksum each codec × fixture × op left must print, from the run's own documents
/// (checked against the manifest's SHA-256).
fn expected_checksums(
    dir: &Path,
    m: &Manifest,
    left: &[PlanRow],
    seed: u64,
) -> Result<HashMap<GateCell, u64>> {
    let cells: BTreeSet<GateCell> = left.iter().map(PlanRow::gate_cell).collect();
    let mut expected = HashMap::new();
    for cell in cells {
        let path = fixture_file(dir, &cell.fixture);
        let document = std::fs::read(&path).with_context(|| {
            format!("cannot read fixture {} at {}", cell.fixture, path.display())
        })?;
        let recorded = m.fixtures.iter().find(|f| f.name == cell.fixture);
        if recorded.map(|f| f.sha256.as_str()) != Some(sha256_hex(&document).as_str()) {
            bail!(
                "{} differs from the document this run started with",
                path.display()
            );
        }
        let codec = find_codec(&cell.codec).map_err(anyhow::Error::msg)?;
        let fixture = catalog::find(&cell.fixture)?;
        let sum = codec
            .expected_checksum(fixture, cell.op, seed, &document)
            .map_err(|e| anyhow::anyhow!("{cell}: expected checksum: {e}"))?;
        expected.insert(cell, sum);
    }
    Ok(expected)
}
