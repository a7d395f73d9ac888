//! `cold resume DIR`: finish a run that stopped early, exactly as it started. It takes the
//! folder's lock, then checks everything the manifest promises before running a sample: the plan
//! derived again from the manifest's settings must be plan.csv (written now if the run stopped
//! before it), every input file and every child binary must have the SHA-256 the manifest
//! recorded, and the manifest's seed must generate the fixtures it lists. Then it takes exactly
//! the plan indices that have no row, with the run's own settings (variant, timeout, cold cache,
//! pinning, drops, environment).

use crate::folder::{self, lock, manifest};
use crate::run::classify::Expected;
use crate::run::input::Input;
use crate::run::plan::{self, Unit};
use crate::run::prepare::{self, Route, Routes};
use crate::run::session;
use crate::run::status::{self, say};
use crate::runtimes::{codec_list, ExternalCodec};
use crate::system::{interrupt, pin};
use anyhow::{bail, Context, Result};
use fixtures::{catalog, sha256_hex};
use schema::rows::PlanRow;
use schema::run_folder::{utc_text, ChildEntry, Manifest, MANIFEST, PLAN, SAMPLES, SET_ASIDE};
use schema::{GateCell, Variant};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Finishes the run in `dir` (with `dry_run`: prints what is left of its plan).
pub(crate) fn resume(dir: &Path, dry_run: bool) -> Result<PathBuf> {
    interrupt::install();
    if dry_run {
        status::status_to_stderr();
    }
    // held before anything is read, as a fresh run holds its folder (following a link in its
    // name, as the user gave it: `results/cold/latest`): every file is then the held folder's
    if let Err(e) = files::hold(dir, true) {
        is_a_started_run(dir)?; // no folder, or no run in it: said as without a hold
        return Err(e).with_context(|| format!("cannot hold {}", dir.display()));
    }
    is_a_started_run(dir)?;
    let _lock = if dry_run {
        None
    } else {
        Some(lock::lock(dir)?)
    };
    if !dry_run {
        folder::clear_temporaries(dir)?;
    }
    let mut manifest = manifest::read(dir)?;
    let checked = check(dir, &manifest, dry_run)?;
    if !dry_run {
        if folder::unlink_other_names(dir)? {
            say!(
                "samples.csv had another name (a hard link): replaced by a file of its own with \
                 the same rows"
            );
        }
        let cut = folder::repair_samples(dir)?;
        if cut > 0 {
            say!("samples.csv: cut a partial last row ({cut} bytes) left by an interrupted write");
        }
        let repeats = folder::set_aside_repeats(dir)?;
        if repeats > 0 {
            say!(
                "samples.csv: {repeats} rows repeated a plan index an earlier row has (two \
                 runners wrote this folder): the first row of each index kept, the others moved \
                 to {SET_ASIDE}"
            );
        }
    }
    // Every row is checked against the plan: its index, its cell, no index twice.
    let done = folder::finished_indices(dir, &checked.plan).with_context(|| {
        format!(
            "{}: samples.csv does not match plan.csv; this folder was written by something \
             else, or edited: start a new run",
            dir.display()
        )
    })?;
    let left: Vec<PlanRow> = checked
        .plan
        .iter()
        .filter(|r| !done.contains(&r.plan_index))
        .cloned()
        .collect();
    if dry_run {
        session::print_plan(&left)?;
        eprintln!(
            "{} of {} planned samples left",
            left.len(),
            checked.plan.len()
        );
        return Ok(dir.to_path_buf());
    }
    say!(
        "resuming {}: {} of {} planned samples left",
        dir.display(),
        left.len(),
        checked.plan.len()
    );

    if let Some(cpus) = &manifest.settings.pinning {
        let mask = pin::pin(&pin::parse_cpus(cpus)?)?;
        say!("pinned to CPUs {}", pin::format_cpus(&mask));
    }
    manifest.finished = false;
    let changed = std::fs::metadata(dir.join(SAMPLES))
        .and_then(|f| f.modified())
        .ok()
        .map(utc_text);
    let stopped = session_end(&manifest, changed);
    manifest.stopped_utc.push(stopped);
    manifest.resumed_utc.push(manifest::utc_now().1);
    manifest::write(dir, &manifest)?;
    take_rest(dir, &mut manifest, checked)?;
    Ok(dir.to_path_buf())
}

/// When the last session of `m` took its last sample, from samples.csv's last change
/// (`changed`): that, or the session's start when the file is older (the session took no sample)
/// or absent.
fn session_end(m: &Manifest, changed: Option<String>) -> String {
    let start = m.resumed_utc.last().unwrap_or(&m.started_utc);
    changed
        .filter(|c| c > start)
        .unwrap_or_else(|| start.clone())
}

/// An error unless `dir` is a run folder with a manifest: saying, for a run that stopped before
/// it had one, that it measured nothing, and how to start again in the same folder.
fn is_a_started_run(dir: &Path) -> Result<()> {
    if !dir.is_dir() {
        bail!(
            "resume {}: no run folder there (give the folder of a run that was started, \
             e.g. results/cold/latest)",
            dir.display()
        );
    }
    if !files::Folder::new(dir).exists(MANIFEST) {
        bail!(
            "resume {}: no {MANIFEST} there: not a run folder, or a run that stopped before \
             it had one (while preparing its children and inputs), which measured nothing; \
             start a new run{}",
            dir.display(),
            if folder::unstarted(dir) {
                format!(
                    ", which may reuse this folder: cold run --out {} …",
                    text::for_shell(&dir.display().to_string())
                )
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// What a run folder's manifest promises, checked against the folder: the units it describes,
/// its plan (plan.csv, written or extended from the manifest when the run stopped before), where
/// each cell runs, and how samples are counted.
pub(crate) struct Checked {
    units: Vec<Unit>,
    plan: Vec<PlanRow>,
    routes: Routes,
    counter: Option<crate::counting::Counter>,
}

/// Checks everything the manifest of the run in `dir` promises before a sample is taken: the
/// seed generates its fixtures, the plan derived from its settings is plan.csv, every input file
/// and child has the SHA-256 it recorded.
pub(crate) fn check(dir: &Path, manifest: &Manifest, dry_run: bool) -> Result<Checked> {
    check_seed(dir, manifest)?;
    let units = units_of(manifest)?;
    let plan = planned(dir, manifest, &units, dry_run)?;
    let routes = checked_routes(dir, manifest, &plan)?;
    let counter = crate::counting::resumed_counter(
        manifest.settings.measure,
        dir,
        manifest.counting.as_ref(),
    )?;
    Ok(Checked {
        units,
        plan,
        routes,
        counter,
    })
}

/// Takes every planned sample that has no row yet, from the routes the manifest was checked
/// out to (adding whole blocks under `--precision`), then marks the run finished and prints its
/// summary. The one way samples are taken: a fresh run, once its folder is written, goes through
/// here as a resumed one does.
pub(crate) fn take_rest(dir: &Path, manifest: &mut Manifest, checked: Checked) -> Result<()> {
    let settings = &manifest.settings;
    let blocks = settings.stopping.is_some().then(|| session::Blocks {
        units: checked.units,
        excluded: manifest.excluded.clone(),
        seed: settings.plan_seed,
    });
    let tally = session::take_samples(
        dir,
        manifest,
        &checked.routes,
        checked.counter,
        checked.plan,
        blocks.as_ref(),
    )?;
    session::finish(dir, manifest, &tally)
}

/// Every generated fixture, generated again from the manifest's seed, must be the document the
/// run started with: an edited seed would otherwise pass unnoticed (the children read the input
/// files, which still hold the old seed's documents).
fn check_seed(dir: &Path, m: &Manifest) -> Result<()> {
    let seed = m.settings.seed;
    for entry in &m.fixtures {
        let fixture = catalog::find(&entry.name)?;
        if fixture.is_corpus() {
            continue; // Not generated; its input file's hash is checked below.
        }
        let document = fixture
            .document(seed, None)
            .with_context(|| format!("fixture {}", entry.name))?;
        if sha256_hex(&document) != entry.sha256 {
            bail!(
                "{}: manifest.json's seed {seed} does not generate the fixture {} this run \
                 started with (its SHA-256 differs): the seed was changed since the run started; \
                 start a new run",
                dir.display(),
                entry.name
            );
        }
    }
    Ok(())
}

/// The units (cell × build) the manifest's settings describe.
fn units_of(m: &Manifest) -> Result<Vec<Unit>> {
    let s = &m.settings;
    let codecs = s
        .codecs
        .iter()
        .map(|id| codec_list::find(id))
        .collect::<Result<Vec<_>>>()?;
    let fixtures = s
        .fixtures
        .iter()
        .map(|f| catalog::find(f).map_err(anyhow::Error::from))
        .collect::<Result<Vec<_>>>()?;
    let (cells, _) = plan::cells(&codecs, &s.ops, &s.batches, &fixtures);
    prepare::units(&cells, &s.variants, &codecs)
}

/// The plan the manifest describes (its codecs, ops, batches, fixtures, builds, samples, plan
/// seed, and the cells it left out), checked against plan.csv, or written as plan.csv when the
/// run stopped before writing it.
fn planned(dir: &Path, m: &Manifest, units: &[Unit], dry_run: bool) -> Result<Vec<PlanRow>> {
    let s = &m.settings;
    // an edited manifest may ask for more samples than memory holds: refused before the plan
    plan::check_size(units.len(), s.samples_per_cell).with_context(|| {
        format!(
            "{}: the plan its settings describe",
            dir.join("manifest.json").display()
        )
    })?;
    let derived = plan::shard(
        plan::without(
            plan::build(units, s.samples_per_cell, s.plan_seed),
            &m.excluded,
        ),
        s.shard,
        s.samples_per_cell,
    );
    if !files::Folder::new(dir).exists(PLAN) {
        if !dry_run {
            folder::write_plan(dir, &derived)?;
            say!("plan.csv: written from manifest.json (the run stopped before writing it)");
        }
        return Ok(derived);
    }
    let written = folder::read_plan(dir)?;
    if written != derived && s.stopping.is_some() && derived.starts_with(&written) {
        // A --precision run stopped between recording more blocks in the manifest and writing
        // them into plan.csv.
        if !dry_run {
            folder::write_plan(dir, &derived)?;
            say!("plan.csv: extended to the blocks manifest.json planned (the run stopped while adding them)");
        }
        return Ok(derived);
    }
    if written != derived {
        let first = written
            .iter()
            .zip(&derived)
            .position(|(a, b)| a != b)
            .unwrap_or(written.len().min(derived.len()));
        bail!(
            "{}: plan.csv ({} rows) is not the plan manifest.json describes ({} rows; first \
             difference at row {first}): one of them was changed since the run started; a \
             resumed run would not be the run that started, so start a new run",
            dir.display(),
            written.len(),
            derived.len()
        );
    }
    Ok(written)
}

/// Where each codec × fixture × op of the plan runs, once every input file and every child has
/// been checked against the manifest's SHA-256, and what its children must print (computed again
/// from those inputs).
fn checked_routes(dir: &Path, m: &Manifest, rows: &[PlanRow]) -> Result<Routes> {
    let inputs = checked_inputs(dir, m)?;
    let mut children: HashMap<(Variant, String), PathBuf> = HashMap::new();
    let cells: BTreeSet<(GateCell, Variant)> =
        rows.iter().map(|r| (r.gate_cell(), r.variant)).collect();
    let mut routes = HashMap::new();
    for (cell, variant) in cells {
        let recorded = m
            .children
            .iter()
            .find(|c| c.gate_cell() == cell && c.variant == variant)
            .with_context(|| {
                format!("manifest.json records no child for {cell} ({variant}); start a new run")
            })?;
        let codec = codec_list::find(&cell.codec)?;
        let fixture = catalog::find(&cell.fixture)?;
        let file = Input::of(codec, fixture, cell.op).relative(&cell.fixture);
        let bytes = inputs.get(&file).with_context(|| {
            format!("manifest.json records no input {file} for {cell}; start a new run")
        })?;
        let input = dir.join(&file);
        let route = match codec_list::external_of(codec) {
            Some(ext) => external_route(dir, ext, &cell, variant, recorded, input)?,
            None => {
                let path = checked_child(m, variant, recorded, &mut children)?;
                let out = codec
                    .expected_output(cell.op, fixture.model_kind(), bytes)
                    .map_err(|e| anyhow::anyhow!("{cell}: what its child must print: {e}"))?;
                Route {
                    child: path,
                    prefix: Vec::new(),
                    input,
                    expected: Some(Expected {
                        checksum: out.checksum,
                        bytes: out.bytes,
                    }),
                    external: false,
                    loads: Default::default(),
                }
            }
        };
        routes.insert((cell, variant), route);
    }
    Ok(routes)
}

/// Every input file of the run, read and checked against the manifest's SHA-256.
fn checked_inputs(dir: &Path, m: &Manifest) -> Result<HashMap<String, Vec<u8>>> {
    let mut inputs = HashMap::new();
    for entry in &m.inputs {
        let path = dir.join(&entry.file);
        let bytes = files::Folder::new(dir)
            .read_bounded(&entry.file, files::PROGRAM_LIMIT)
            .with_context(|| format!("cannot read the input {} of this run", path.display()))?;
        if sha256_hex(&bytes) != entry.sha256 {
            bail!(
                "{} is not the input this run started with (its SHA-256 differs from \
                 manifest.json); a resumed run would time other work — start a new run",
                path.display()
            );
        }
        inputs.insert(entry.file.clone(), bytes);
    }
    Ok(inputs)
}

/// The route of a child in another language: the same sources, runtime and class path (and
/// archive, for a trained build), and what its preflight learned, reading `input`.
fn external_route(
    dir: &Path,
    ext: &ExternalCodec,
    cell: &GateCell,
    variant: Variant,
    recorded: &ChildEntry,
    input: PathBuf,
) -> Result<Route> {
    let child = match &recorded.archive {
        Some(archive) => crate::run::train::resumed(dir, ext, variant, cell, archive)?,
        None => ext.child(variant)?,
    };
    if child.sha256 != recorded.sha256 {
        bail!(
            "the {} children are not the ones this run started with (their sources, \
             runtime or class path changed since); start a new run",
            ext.runtime.name
        );
    }
    let (checksum, learned_bytes) = recorded.learned.clone().with_context(|| {
        format!("manifest.json records no learned output for {cell}; start a new run")
    })?;
    let checksum = u64::from_str_radix(&checksum, 16)
        .with_context(|| format!("manifest.json: {cell}: bad learned checksum"))?;
    Ok(Route {
        child: child.program,
        prefix: child.prefix,
        input,
        expected: Some(Expected {
            checksum,
            bytes: learned_bytes,
        }),
        external: true,
        loads: child.loads,
    })
}

/// A Rust cell's child binary in its build's folder, checked once per build against the
/// manifest's SHA-256.
fn checked_child(
    m: &Manifest,
    variant: Variant,
    recorded: &ChildEntry,
    checked: &mut HashMap<(Variant, String), PathBuf>,
) -> Result<PathBuf> {
    let key = (variant, recorded.binary.clone());
    if let Some(path) = checked.get(&key) {
        return Ok(path.clone());
    }
    let children_dir = &m
        .settings
        .variants
        .iter()
        .find(|v| v.variant == variant)
        .with_context(|| format!("manifest.json records no children folder for {variant}"))?
        .children_dir;
    let path = crate::system::binaries::find(
        Path::new(children_dir),
        std::slice::from_ref(&recorded.binary),
        variant,
    )?
    .remove(0);
    let bytes = files::read_regular(&path, files::PROGRAM_LIMIT)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if sha256_hex(&bytes) != recorded.sha256 {
        bail!(
            "the child {} is not the one this run started with (its SHA-256 \
             differs from manifest.json); a resumed run would mix two builds \
             — start a new run",
            path.display()
        );
    }
    checked.insert(key, path.clone());
    Ok(path)
}
