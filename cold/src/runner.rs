//! A fresh `cold run`, step by step: plan the cells, find and fingerprint the children, write
//! the run folder and the fixtures' documents, pass the correctness gate, run one unrecorded
//! preflight child per codec × fixture × op, write plan.csv and the manifest, take every sample,
//! mark the manifest finished and print the summary.
//!
//! Each step is a function of its own; the pieces they call each do one thing (plan, folder,
//! manifest, sampler, session). A codec × fixture × op that fails the gate or the preflight is
//! reported and left out of the plan, never timed.

use crate::binaries;
use crate::cli::RunOptions;
use crate::folder;
use crate::manifest;
use crate::pin;
use crate::plan::{self, Cell, Unsupported};
use crate::sampler::{Job, Sampler};
use crate::session::{self, say};
use anyhow::{bail, Context, Result};
use fixtures::codecs::{find_codec, AnyCodec};
use fixtures::verify::{verify_all, GateVerdict};
use fixtures::{catalog, sha256_hex};
use schema::run_folder::{
    fixture_file, CheckEntry, CodecEntry, FixtureEntry, Manifest, PlanRow, Settings,
    UnsupportedEntry, FIXTURES, MANIFEST,
};
use schema::{GateCell, Status};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// A fresh run. Returns the run folder (none for `--dry-run`).
pub fn run(o: &RunOptions) -> Result<Option<PathBuf>> {
    let (cells, unsupported) = plan::cells(&o.codecs, &o.ops, &o.batches, &o.fixtures);
    if cells.is_empty() {
        let why: Vec<String> = unsupported.iter().map(describe_unsupported).collect();
        bail!(
            "nothing to run: every cell is unsupported ({})",
            why.join("; ")
        );
    }
    if o.dry_run {
        let rows = plan::build(&cells, o.samples, o.seed, o.variant);
        session::print_plan(&rows)?;
        eprintln!(
            "{} cells × {} samples = {} samples (before the correctness gate and preflight)",
            cells.len(),
            o.samples,
            rows.len()
        );
        for u in &unsupported {
            eprintln!("unsupported: {}", describe_unsupported(u));
        }
        return Ok(None);
    }

    let codecs: Vec<&'static dyn AnyCodec> = o
        .codecs
        .iter()
        .copied()
        .filter(|c| cells.iter().any(|cell| cell.codec == c.id()))
        .collect();
    let children_dir = match &o.children_dir {
        Some(dir) => dir.clone(),
        None => {
            if let Some(command) = binaries::cargo_build_command(o.variant)? {
                say!(
                    "building the {} children (started by cargo run)",
                    o.variant.name()
                );
                binaries::build(command)?;
            }
            binaries::default_dir(o.variant)?
        }
    };
    let (codec_entries, child_paths) = fingerprint_children(&codecs, &children_dir, o)?;
    let documents = make_documents(o)?;

    let pinning = match &o.pin {
        Some(cpus) => {
            let mask = pin::format_cpus(&pin::pin(cpus)?);
            say!("pinned to CPUs {mask}");
            Some(mask)
        }
        None => None,
    };

    let (started, started_utc) = manifest::utc_now();
    let dir = o
        .out
        .clone()
        .unwrap_or_else(|| folder::default_dir(started));
    folder::create(&dir)?;
    if o.out.is_none() {
        // results/cold/latest names the newest default run; a folder given with --out is left
        // alone, and so are its neighbours.
        folder::point_latest(&dir)?;
    }
    say!("run folder: {}", dir.display());
    let fixture_entries = write_documents(&dir, o, &documents)?;

    let (verification, mut excluded) = gate(&codecs, o);
    let (expected, preflight) =
        preflight(&cells, &documents, &child_paths, &dir, o, &mut excluded)?;

    let timed: Vec<Cell> = cells
        .iter()
        .filter(|c| !is_excluded(&excluded, &c.gate_cell()))
        .cloned()
        .collect();
    let plan_rows = plan::build(&timed, o.samples, o.seed, o.variant);
    folder::write_plan(&dir, &plan_rows)?;
    let settings = Settings {
        seed: o.seed,
        samples_per_cell: o.samples,
        variant: o.variant,
        children_dir: children_dir.display().to_string(),
        pinning,
        cold_cache: o.cold_cache,
        timeout_secs: o.timeout.as_secs_f64(),
        drops: o.drops,
    };
    let mut manifest = Manifest {
        thaw_version: env!("CARGO_PKG_VERSION").to_string(),
        commit: manifest::git_commit(),
        command_line: std::env::args().collect(),
        seed: Some(settings.seed),
        samples_per_cell: Some(settings.samples_per_cell),
        ops: o.ops.clone(),
        batches: o.batches.clone(),
        cells: Some(timed.len()),
        samples_planned: Some(plan_rows.len()),
        variant: Some(settings.variant),
        children_dir: Some(settings.children_dir.clone()),
        rustc: Some(manifest::RUSTC.to_string()),
        codecs: codec_entries,
        fixtures: fixture_entries,
        cpu_model: manifest::cpu_model(),
        cores: Some(pin::online_cpus()),
        kernel: manifest::kernel(),
        pinning: settings.pinning.clone(),
        cold_cache: settings.cold_cache,
        timeout_secs: Some(settings.timeout_secs),
        drops: Some(settings.drops),
        started_utc,
        unsupported: unsupported
            .iter()
            .map(|u| UnsupportedEntry {
                codec: u.codec.to_string(),
                fixture: u.fixture.to_string(),
                op: u.op,
                reason: u.reason.to_string(),
            })
            .collect(),
        verification,
        preflight,
        excluded,
        ..Manifest::default()
    };
    manifest::write(&dir, &manifest)?;
    if timed.is_empty() {
        bail!(
            "every cell failed the correctness gate or the preflight; see {}",
            dir.join(MANIFEST).display()
        );
    }

    say!(
        "{} cells × {} samples = {} children{}",
        timed.len(),
        o.samples,
        plan_rows.len(),
        if o.cold_cache { ", cold cache" } else { "" }
    );
    let jobs = session::jobs(&plan_rows, &child_paths, &dir, &settings, &expected)?;
    let tally = session::take_samples(&dir, &jobs, &settings, plan_rows.len(), 0)?;
    session::finish(&dir, &mut manifest, &settings, &tally)?;
    Ok(Some(dir))
}

fn describe_unsupported(u: &Unsupported) -> String {
    format!("{} {} on {}: {}", u.codec, u.op, u.fixture, u.reason)
}

/// Finds every planned codec's child and records its size and SHA-256.
fn fingerprint_children(
    codecs: &[&'static dyn AnyCodec],
    dir: &Path,
    o: &RunOptions,
) -> Result<(Vec<CodecEntry>, HashMap<String, PathBuf>)> {
    let ids: Vec<&str> = codecs.iter().map(|c| c.id()).collect();
    let paths = binaries::find(dir, &ids, o.variant)?;
    let mut entries = Vec::new();
    let mut by_codec = HashMap::new();
    for (codec, path) in codecs.iter().zip(paths) {
        let bytes = std::fs::read(&path).with_context(|| {
            format!(
                "cannot read the child of codec {}: {}",
                codec.id(),
                path.display()
            )
        })?;
        entries.push(CodecEntry {
            id: codec.id().to_string(),
            library: codec.library().to_string(),
            version: codec.version().to_string(),
            style: Some(codec.style()),
            child: Some(path.display().to_string()),
            child_bytes: Some(bytes.len() as u64),
            child_sha256: Some(sha256_hex(&bytes)),
        });
        by_codec.insert(codec.id().to_string(), path);
    }
    Ok((entries, by_codec))
}

/// Each fixture's canonical document, by fixture name.
type Documents = HashMap<&'static str, Vec<u8>>;

/// Makes each fixture's one canonical document (before anything is written, so a fixture that
/// cannot be had leaves no folder behind).
fn make_documents(o: &RunOptions) -> Result<Documents> {
    o.fixtures
        .iter()
        .map(|fixture| {
            let document = fixture
                .document(o.seed, o.corpora.as_deref())
                .with_context(|| format!("fixture {}", fixture.name))?;
            Ok((fixture.name, document))
        })
        .collect()
}

/// Writes the documents where the children read them, and lists them for the manifest.
fn write_documents(dir: &Path, o: &RunOptions, documents: &Documents) -> Result<Vec<FixtureEntry>> {
    let mut entries = Vec::new();
    for fixture in &o.fixtures {
        let document = &documents[fixture.name];
        let path = fixture_file(dir, fixture.name);
        std::fs::write(&path, document).with_context(|| {
            format!(
                "cannot write fixture {} to {}",
                fixture.name,
                path.display()
            )
        })?;
        entries.push(FixtureEntry {
            name: fixture.name.to_string(),
            bytes: document.len() as u64,
            sha256: sha256_hex(document),
            file: Some(format!("{FIXTURES}/{}.json", fixture.name)),
        });
    }
    Ok(entries)
}

fn entry(cell: &GateCell, status: &str, detail: &str) -> CheckEntry {
    CheckEntry {
        codec: cell.codec.clone(),
        fixture: cell.fixture.clone(),
        op: cell.op,
        status: status.to_string(),
        detail: detail.to_string(),
    }
}

fn is_excluded(excluded: &[CheckEntry], cell: &GateCell) -> bool {
    excluded.iter().any(|e| e.gate_cell() == *cell)
}

/// The correctness gate, in-process, on every codec × fixture × op: every verdict for the
/// manifest, and the failures, to be left out.
fn gate(codecs: &[&'static dyn AnyCodec], o: &RunOptions) -> (Vec<CheckEntry>, Vec<CheckEntry>) {
    let checks = verify_all(codecs, &o.fixtures, &o.ops, o.seed, o.corpora.as_deref());
    let verdicts = checks
        .iter()
        .map(|c| {
            let status = c.verdict.label().to_lowercase();
            entry(&c.gate_cell(), &status, c.verdict.detail())
        })
        .collect();
    let failed: Vec<_> = checks
        .iter()
        .filter(|c| matches!(c.verdict, GateVerdict::Fail(_)))
        .collect();
    say!(
        "correctness gate: {} checks, {} failed",
        checks.len(),
        failed.len()
    );
    for c in &failed {
        say!("  {c} — left out, never timed");
    }
    let failed = failed
        .iter()
        .map(|c| entry(&c.gate_cell(), "gate-failed", c.verdict.detail()))
        .collect();
    (verdicts, failed)
}

/// The checksum each codec × fixture × op must print, and one unrecorded child (batch 1) per
/// codec × fixture × op that checks it. Failures join `excluded`.
fn preflight(
    cells: &[Cell],
    documents: &Documents,
    child_paths: &HashMap<String, PathBuf>,
    dir: &Path,
    o: &RunOptions,
    excluded: &mut Vec<CheckEntry>,
) -> Result<(HashMap<GateCell, u64>, Vec<CheckEntry>)> {
    let gate_cells: BTreeSet<GateCell> = cells.iter().map(Cell::gate_cell).collect();
    let mut expected = HashMap::new();
    let mut verdicts = Vec::new();
    let mut sampler = Sampler::new(&session::spawner_path()?, o.timeout, false)?;
    for cell in gate_cells {
        if is_excluded(excluded, &cell) {
            continue;
        }
        let codec = find_codec(&cell.codec).map_err(anyhow::Error::msg)?;
        let fixture = catalog::find(&cell.fixture)?;
        let sum = match codec.expected_checksum(fixture, cell.op, o.seed, &documents[fixture.name])
        {
            Ok(sum) => sum,
            Err(e) => {
                let detail = format!("cannot compute the expected checksum: {e}");
                say!("  preflight {cell}: {detail} — left out");
                excluded.push(entry(&cell, "preflight-failed", &detail));
                continue;
            }
        };
        let job = Job {
            plan: PlanRow {
                plan_index: 0,
                block: 0,
                codec: cell.codec.clone(),
                op: cell.op,
                batch: 1,
                fixture: cell.fixture.clone(),
                variant: o.variant,
            },
            child: child_paths[&cell.codec].clone(),
            fixture_file: fixture_file(dir, &cell.fixture),
            seed: o.seed,
            drops: o.drops,
            expected: sum,
        };
        let row = sampler.sample(&job)?;
        let detail = row.error.clone().unwrap_or_default();
        verdicts.push(entry(&cell, &row.status.name(), &detail));
        if row.is_ok() {
            expected.insert(cell, sum);
        } else {
            let why = format!("{}: {detail}", row.status);
            say!("  preflight {cell}: {why} — left out, never timed");
            excluded.push(entry(&cell, "preflight-failed", &why));
        }
    }
    say!(
        "preflight: {} children, {} failed",
        verdicts.len(),
        verdicts
            .iter()
            .filter(|p| p.status != Status::Ok.name())
            .count()
    );
    Ok((expected, verdicts))
}
