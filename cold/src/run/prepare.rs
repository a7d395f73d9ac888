//! Everything a run does before its first timed sample, shared by a fresh run and its dry run, in
//! two stages on one value. [`ready`] takes the run's options and writes nothing: the cells (and
//! the unsupported ones), the builds of the children (built when started by `cargo run`), each
//! fixture's document, the children's environment; so a build or a document that cannot be had
//! leaves no folder behind. [`Ready::prepare`] then works in the run's folder: the child binary
//! of every codec × op × fixture (found and fingerprinted), the input files the children read,
//! what each child must print, the correctness gate, one unrecorded preflight child per cell, and
//! the plan without the cells that failed either check.
//!
//! The order of the plan is drawn over every supported cell before anything is left out (see
//! `plan`), so a dry run, which does all of this in a temporary folder, prints exactly the plan
//! the run takes.

use crate::folder;
use crate::run::builds;
use crate::run::classify::Expected;
use crate::run::input::Input;
use crate::run::options::RunOptions;
use crate::run::plan::{self, Cell, Unit, Unsupported};
use crate::run::sampler::{Job, Sampler};

use crate::run::status::say;
use crate::runtimes::{codec_list, ExternalCodec};
use anyhow::{bail, Context, Result};
use children::catalog::binary_for;
use codecs::inputs::InputKind;
use codecs::verify::GateVerdict;
use codecs::AnyCodec;
use fixtures::gate::verify_all;
use fixtures::{catalog, sha256_hex, Fixture};
use schema::rows::{PlanRow, SampleRow};
use schema::run_folder::{
    CheckEntry, CheckStatus, ChildEntry, FixtureEntry, InputEntry, VariantEntry,
};
use schema::{GateCell, Op, Status, Variant};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Each fixture's canonical document, by fixture name.
pub(crate) type Documents = HashMap<&'static str, Vec<u8>>;

/// What a run knows before its first sample.
pub struct Prepared {
    /// Every cell in each build of its runtime, in table order: what each block holds once.
    pub(crate) units: Vec<Unit>,
    pub(crate) fixtures: Vec<FixtureEntry>,
    pub(crate) inputs: Vec<InputEntry>,
    pub(crate) children: Vec<ChildEntry>,
    pub(crate) verification: Vec<CheckEntry>,
    pub(crate) preflight: Vec<CheckEntry>,
    /// Left out because they failed the gate or the preflight.
    pub excluded: Vec<CheckEntry>,
    pub plan: Vec<PlanRow>,
}

/// Where each codec × fixture × op of each build variant runs.
pub(crate) type Routes = HashMap<(GateCell, Variant), Route>;

/// Where one codec × fixture × op runs: its child, its input, what it must print.
#[derive(Debug, Clone)]
pub(crate) struct Route {
    /// The program: a child binary, or a runtime's executable.
    pub(crate) child: PathBuf,
    /// The arguments before the protocol's (a runtime's script or class).
    pub(crate) prefix: Vec<OsString>,
    pub(crate) input: PathBuf,
    /// What the child must print; `None` until an external child's preflight has learned it.
    pub(crate) expected: Option<Expected>,
    /// A child in another language (checked by meaning in its preflight).
    pub(crate) external: bool,
    /// The files it loads besides its program (another runtime's classes, jars or scripts),
    /// evicted with it under `--cold-cache`.
    pub(crate) loads: std::sync::Arc<Vec<PathBuf>>,
}

/// What a run knows before its folder exists; nothing of it is written yet.
pub struct Ready {
    pub(crate) cells: Vec<Cell>,
    pub(crate) unsupported: Vec<Unsupported>,
    /// Every build of every runtime the run takes, each with the folder of its children.
    pub(crate) builds: Vec<VariantEntry>,
    pub(crate) documents: Documents,
    /// What the children start with (`builds::child_env`).
    pub(crate) env: Vec<(OsString, OsString)>,
}

/// The first stage: the run's cells, builds, documents and the children's environment, from
/// its options alone.
pub fn ready(o: &RunOptions) -> Result<Ready> {
    let (cells, unsupported) = cells(o)?;
    let builds = builds::of(o, &binaries(&o.codecs, &cells)?)?;
    let documents = documents(o)?;
    let env = builds::child_env(&o.env);
    Ok(Ready {
        cells,
        unsupported,
        builds,
        documents,
        env,
    })
}

/// The cells of the options, and the unsupported ones; an error when nothing can run.
fn cells(o: &RunOptions) -> Result<(Vec<Cell>, Vec<Unsupported>)> {
    let (cells, unsupported) = plan::cells(&o.codecs, &o.ops, &o.batches, &o.fixtures);
    if cells.is_empty() {
        let why: Vec<String> = unsupported.iter().map(describe_unsupported).collect();
        bail!(
            "nothing to run: every cell is unsupported ({})",
            why.join("; ")
        );
    }
    Ok((cells, unsupported))
}

pub(crate) fn describe_unsupported(u: &Unsupported) -> String {
    format!("{} {} on {}: {}", u.codec, u.op, u.fixture, u.reason)
}

/// The run's codec of a cell (`codecs`: the run's).
fn codec_of<'c>(codecs: &[&'c dyn AnyCodec], cell: &Cell) -> Result<&'c dyn AnyCodec> {
    codecs
        .iter()
        .copied()
        .find(|c| c.id() == cell.codec)
        .with_context(|| format!("no codec {} in the run", cell.codec))
}

/// The Rust child binaries the cells need.
fn binaries(codecs: &[&dyn AnyCodec], cells: &[Cell]) -> Result<Vec<String>> {
    let mut names = BTreeSet::new();
    for cell in cells {
        let codec = codec_of(codecs, cell)?;
        if codec_list::external_of(codec).is_some() {
            continue; // A runtime's child, not a Rust binary.
        }
        let fixture = catalog::find(cell.fixture)?;
        names.insert(binary_for(codec, cell.op, fixture.model_kind()));
    }
    Ok(names.into_iter().collect())
}

/// Makes each fixture's canonical document (before anything is written, so a fixture that
/// cannot be had leaves no folder behind).
fn documents(o: &RunOptions) -> Result<Documents> {
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

/// The builds of `codec`'s runtime among `builds`.
pub(crate) fn builds_of<'b>(
    codec: &dyn AnyCodec,
    builds: &'b [VariantEntry],
) -> Vec<&'b VariantEntry> {
    let runtime = codec_list::runtime_of(codec);
    builds.iter().filter(|b| b.runtime == runtime).collect()
}

/// Every cell in each build of its runtime, in table order (`codecs`: the run's).
pub(crate) fn units(
    cells: &[Cell],
    builds: &[VariantEntry],
    codecs: &[&dyn AnyCodec],
) -> Result<Vec<Unit>> {
    let mut units = Vec::new();
    for cell in cells {
        let codec = codec_of(codecs, cell)?;
        units.extend(
            builds_of(codec, builds)
                .iter()
                .map(|b| (cell.clone(), b.variant)),
        );
    }
    Ok(units)
}

impl Ready {
    /// The second stage: everything else before the first sample, with the input files written
    /// under `dir` (the run's folder, or a dry run's scratch folder).
    pub fn prepare(&self, o: &RunOptions, dir: &Path) -> Result<Prepared> {
        prepare(o, self, dir)
    }
}

fn prepare(o: &RunOptions, ready: &Ready, dir: &Path) -> Result<Prepared> {
    let Ready {
        cells,
        builds,
        documents,
        env,
        ..
    } = ready;
    let units = units(cells, builds, &o.codecs)?;
    let gate_cells: BTreeSet<GateCell> = cells.iter().map(Cell::gate_cell).collect();
    let fixtures = fixture_entries(o, documents);

    // The gate first, in-process: a codec × fixture × op that fails it needs no child.
    let (verification, excluded) = gate(&o.codecs, o);
    let failed_gate: BTreeSet<GateCell> = excluded.iter().map(CheckEntry::gate_cell).collect();

    // Children and inputs of every other codec × fixture × op, each binary read and each input
    // written once.
    let mut routing = Routing {
        o,
        documents,
        builds,
        dir,
        env,
        fingerprints: BTreeMap::new(),
        written: BTreeMap::new(),
        children: Vec::new(),
        inputs: Vec::new(),
        routes: HashMap::new(),
        excluded,
    };
    for cell in gate_cells.iter().filter(|c| !failed_gate.contains(c)) {
        routing.cell(cell)?;
    }
    let Routing {
        mut children,
        inputs,
        mut routes,
        mut excluded,
        ..
    } = routing;

    let preflight = preflight(&units, &mut routes, o, env, documents, dir, &mut excluded)?;
    // What the external children's preflight learned, for the manifest and a resume.
    for child in &mut children {
        let key = (child.gate_cell(), child.variant);
        if let Some(route) = routes.get(&key).filter(|r| r.external) {
            child.learned = route
                .expected
                .map(|e| (format!("{:016x}", e.checksum), e.bytes));
        }
    }

    plan::check_size(units.len(), o.samples)?;
    let plan = plan::shard(
        plan::without(plan::build(&units, o.samples, o.plan_seed), &excluded),
        o.shard,
        o.samples,
    );
    Ok(Prepared {
        units,
        fixtures,
        inputs,
        children,
        verification,
        preflight,
        excluded,
        plan,
    })
}

/// The manifest's entry of each fixture's document.
fn fixture_entries(o: &RunOptions, documents: &Documents) -> Vec<FixtureEntry> {
    o.fixtures
        .iter()
        .map(|fixture| {
            let document = &documents[fixture.name];
            FixtureEntry {
                name: fixture.name.to_string(),
                bytes: document.len() as u64,
                sha256: sha256_hex(document),
                file: folder::input_relative(fixture.name, InputKind::Document),
            }
        })
        .collect()
}

/// How a child is started: its program, the arguments before the protocol's, and the files it
/// loads.
type Launch = (PathBuf, Vec<OsString>, std::sync::Arc<Vec<PathBuf>>);

/// The child of one build of a cell.
type Program = (Variant, Launch);

/// The children, inputs and routes of a run's cells, built one codec × fixture × op at a time:
/// each child binary is read and each input written once, and a cell that cannot run is
/// excluded with why.
struct Routing<'a> {
    o: &'a RunOptions,
    documents: &'a Documents,
    builds: &'a [VariantEntry],
    dir: &'a Path,
    env: &'a [(OsString, OsString)],
    /// Each Rust child binary of each build: its path, size and SHA-256.
    fingerprints: BTreeMap<(Variant, String), (PathBuf, u64, String)>,
    /// Each input file written: its path and bytes, by fixture and extension.
    written: BTreeMap<(String, String), (PathBuf, Vec<u8>)>,
    children: Vec<ChildEntry>,
    inputs: Vec<InputEntry>,
    routes: Routes,
    excluded: Vec<CheckEntry>,
}

impl Routing<'_> {
    /// The routes of one codec × fixture × op in each of its builds.
    fn cell(&mut self, cell: &GateCell) -> Result<()> {
        let codec = self
            .o
            .codecs
            .iter()
            .copied()
            .find(|c| c.id() == cell.codec)
            .with_context(|| format!("no codec {}", cell.codec))?;
        let fixture: &Fixture = catalog::find(&cell.fixture)?;
        let external = codec_list::external_of(codec);
        let programs = match external {
            None => self.rust_programs(cell, codec, fixture)?,
            Some(ext) => self.external_programs(cell, codec, ext)?,
        };
        let (file, bytes) = self.input(cell, codec, fixture)?;
        // What the child must print: computed here for a Rust child, learned in the preflight
        // (once its output is checked by meaning) for a child in another language.
        let expected = match external {
            Some(_) => None,
            None => match codec.expected_output(cell.op, fixture.model_kind(), &bytes) {
                Ok(out) => Some(Expected {
                    checksum: out.checksum,
                    bytes: out.bytes,
                }),
                Err(e) => {
                    let detail = format!("cannot compute what its child must print: {e}");
                    say!("  {cell}: {detail} — left out");
                    self.excluded
                        .push(entry(cell, CheckStatus::PreflightFailed, &detail));
                    return Ok(());
                }
            },
        };
        for (variant, launch) in programs {
            let Some((child, prefix, loads)) =
                self.trained(cell, external, &file, variant, launch)?
            else {
                continue;
            };
            self.routes.insert(
                (cell.clone(), variant),
                Route {
                    child,
                    prefix,
                    input: file.clone(),
                    expected,
                    external: external.is_some(),
                    loads,
                },
            );
        }
        Ok(())
    }

    /// A Rust cell's child in each build: its binary, read once per build for the manifest.
    fn rust_programs(
        &mut self,
        cell: &GateCell,
        codec: &'static dyn AnyCodec,
        fixture: &Fixture,
    ) -> Result<Vec<Program>> {
        let binary = binary_for(codec, cell.op, fixture.model_kind());
        let mut programs = Vec::new();
        for build in builds_of(codec, self.builds) {
            let variant = &build.variant;
            let key = (*variant, binary.clone());
            if !self.fingerprints.contains_key(&key) {
                let path = crate::system::binaries::find(
                    Path::new(&build.children_dir),
                    std::slice::from_ref(&binary),
                    *variant,
                )?
                .remove(0);
                let bytes = files::read_regular(&path, files::PROGRAM_LIMIT)
                    .with_context(|| format!("cannot read the child {}", path.display()))?;
                self.fingerprints
                    .insert(key.clone(), (path, bytes.len() as u64, sha256_hex(&bytes)));
            }
            let (path, size, sha) = &self.fingerprints[&key];
            self.children
                .push(child_entry(cell, &binary, path, *size, sha, *variant));
            programs.push((*variant, (path.clone(), Vec::new(), Default::default())));
        }
        Ok(programs)
    }

    /// A cell of another runtime: its child in each build, as the runtime's description says.
    fn external_programs(
        &mut self,
        cell: &GateCell,
        codec: &'static dyn AnyCodec,
        ext: &ExternalCodec,
    ) -> Result<Vec<Program>> {
        let mut programs = Vec::new();
        for build in builds_of(codec, self.builds) {
            let child = ext.child(build.variant)?;
            let mut entry = child_entry(
                cell,
                &child.name,
                &child.program,
                child.bytes,
                &child.sha256,
                build.variant,
            );
            entry.files = child.files.clone();
            self.children.push(entry);
            programs.push((build.variant, (child.program, child.prefix, child.loads)));
        }
        Ok(programs)
    }

    /// The input file of a cell, written into the run folder the first time a cell needs it.
    fn input(
        &mut self,
        cell: &GateCell,
        codec: &'static dyn AnyCodec,
        fixture: &Fixture,
    ) -> Result<(PathBuf, Vec<u8>)> {
        let input = Input::of(codec, fixture, cell.op);
        let key = (cell.fixture.clone(), input.extension().to_string());
        if !self.written.contains_key(&key) {
            let bytes = input
                .prepare(fixture, self.o.seed, &self.documents[fixture.name])
                .with_context(|| format!("the {} input of {}", input.name(), fixture.name))?;
            let file = self.dir.join(input.relative(fixture.name));
            files::Folder::new(self.dir).write_atomically(input.relative(fixture.name), &bytes)?;
            self.inputs.push(InputEntry {
                fixture: cell.fixture.clone(),
                kind: input.name(),
                file: input.relative(fixture.name),
                bytes: bytes.len() as u64,
                sha256: sha256_hex(&bytes),
            });
            self.written.insert(key.clone(), (file, bytes));
        }
        Ok(self.written[&key].clone())
    }

    /// The program of a build whose runtime trains an archive (AOT cache, AppCDS): trained now
    /// on `file`, the child's entry taking the archive; `None` when the training failed and the
    /// build is excluded. Any other build's program as it is. A dry run trains nothing: its plan
    /// does not depend on the archives.
    fn trained(
        &mut self,
        cell: &GateCell,
        external: Option<&'static ExternalCodec>,
        file: &Path,
        variant: Variant,
        program: Launch,
    ) -> Result<Option<Launch>> {
        let trained = external.filter(|e| e.runtime.trained(variant).is_some() && !self.o.dry_run);
        let Some(ext) = trained else {
            return Ok(Some(program));
        };
        let absolute = std::path::absolute(self.dir)?;
        let run = crate::run::train::Training {
            dir: &absolute,
            seed: self.o.seed,
            corpora: self.o.corpora.as_deref(),
            env: self.env,
        };
        say!("  training the {variant} child of {cell}");
        let entry = self
            .children
            .iter_mut()
            .rfind(|c| c.gate_cell() == *cell && c.variant == variant)
            .context("a child without its entry")?;
        match crate::run::train::train(&run, ext, variant, cell, file)? {
            Ok(t) => {
                // The child is now the packed one with its archive: what a resume checks.
                entry.bytes = t.child.bytes;
                entry.sha256 = t.child.sha256.clone();
                entry.files = t.child.files.clone();
                entry.archive = Some(t.archive);
                Ok(Some((t.child.program, t.child.prefix, t.child.loads)))
            }
            Err(why) => {
                say!("  {cell} ({variant}): {why} — left out");
                let mut left = self::entry(cell, CheckStatus::PreflightFailed, &why);
                left.variant = Some(variant);
                self.excluded.push(left);
                Ok(None)
            }
        }
    }
}

/// What an external child must print from now on, once what it wrote to its check file means
/// the fixture (`document`): the checksum it printed (a digest of what it produced, computed by
/// its harness without the library: docs/child-protocol.md), and the byte count of its cell (the
/// document's for `de`, the output's for `ser`). The floor of a runtime produces no value: what
/// it printed is learned as it is.
fn learn(
    cell: &Cell,
    document: &[u8],
    check_file: &Path,
    row: &SampleRow,
) -> Result<Expected, String> {
    let (folder, name) = (
        files::Folder::new(check_file.parent().unwrap_or(Path::new("."))),
        check_file.file_name().unwrap_or_default(),
    );
    let written = folder
        .read_bounded(name, spawner::FILE_SIZE_LIMIT)
        .map_err(|e| format!("it wrote no check file ({e}): it does not follow --check-file"))?;
    let codec = codec_list::find(cell.codec).map_err(|e| e.to_string())?;
    if codec.style() != codecs::Style::Baseline {
        crate::runtimes::check::same_meaning(document, &written)
            .map_err(|e| format!("what it produced is not the fixture: {e}"))?;
    }
    let printed = row.checksum.as_deref().unwrap_or_default();
    let checksum = u64::from_str_radix(printed, 16)
        .map_err(|_| format!("it printed no checksum (`{printed}`)"))?;
    let bytes = match cell.op {
        Op::De => document.len() as u64,
        Op::Ser => written.len() as u64,
    };
    Ok(Expected { checksum, bytes })
}

fn child_entry(
    cell: &GateCell,
    binary: &str,
    path: &Path,
    bytes: u64,
    sha256: &str,
    variant: Variant,
) -> ChildEntry {
    ChildEntry {
        codec: cell.codec.clone(),
        op: cell.op,
        fixture: cell.fixture.clone(),
        binary: binary.to_string(),
        path: path.display().to_string(),
        bytes,
        sha256: sha256.to_string(),
        variant,
        learned: None,
        files: Vec::new(),
        archive: None,
    }
}

fn entry(cell: &GateCell, status: CheckStatus, detail: &str) -> CheckEntry {
    CheckEntry {
        codec: cell.codec.clone(),
        fixture: cell.fixture.clone(),
        op: cell.op,
        status,
        detail: detail.to_string(),
        variant: None,
    }
}

/// The correctness gate, in-process, on every codec × fixture × op: every verdict for the
/// manifest, and the failures, to be left out.
fn gate(codecs: &[&'static dyn AnyCodec], o: &RunOptions) -> (Vec<CheckEntry>, Vec<CheckEntry>) {
    // A child in another language cannot be checked in-process: its preflight checks what it
    // wrote by meaning instead.
    let (external, rust): (Vec<_>, Vec<_>) = codecs
        .iter()
        .copied()
        .partition(|c| codec_list::external_of(*c).is_some());
    let checks = verify_all(&rust, &o.fixtures, &o.ops, o.seed, o.corpora.as_deref());
    let mut verdicts: Vec<CheckEntry> = checks
        .iter()
        .map(|c| entry(&c.gate_cell(), c.verdict.status(), c.verdict.detail()))
        .collect();
    for codec in external {
        for fixture in &o.fixtures {
            for &op in &o.ops {
                if codec.supports(fixture.model_kind(), op).is_ok() {
                    let cell = GateCell {
                        codec: codec.id().to_string(),
                        fixture: fixture.name.to_string(),
                        op,
                    };
                    let how = "a child in another language: checked by meaning in its preflight";
                    verdicts.push(entry(&cell, CheckStatus::ByPreflight, how));
                }
            }
        }
    }
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
        .map(|c| entry(&c.gate_cell(), CheckStatus::GateFailed, c.verdict.detail()))
        .collect();
    (verdicts, failed)
}

/// One unrecorded child per cell (every batch) in every build, which must print what the
/// runner computed. A child in another language is first asked to write what it produced
/// (`--check-file`), which must mean the fixture; what it printed is then learned as what every
/// later child of its cell and build must print. A codec × fixture × op of a build with a
/// failing cell joins `excluded` (a child that fails at one batch is not trusted at another).
fn preflight(
    units: &[Unit],
    routes: &mut Routes,
    o: &RunOptions,
    env: &[(OsString, OsString)],
    documents: &Documents,
    dir: &Path,
    excluded: &mut Vec<CheckEntry>,
) -> Result<Vec<CheckEntry>> {
    let mut verdicts = Vec::new();
    let mut sampler = Sampler::new(
        &crate::system::binaries::spawner_path()?,
        o.timeout,
        false,
        env.to_vec(),
    )?
    .with_memory_limit(o.memory_limit_mib);
    let several = units.iter().any(|(_, v)| *v != units[0].1);
    let check_file = dir.join(folder::CHECK_FILE);
    for (cell, variant) in units {
        let (gate_cell, variant) = (cell.gate_cell(), *variant);
        if excluded.iter().any(|e| e.leaves_out(&gate_cell, variant)) {
            continue;
        }
        let key = (gate_cell.clone(), variant);
        let Some(route) = routes.get_mut(&key) else {
            continue;
        };
        let row = preflight_child(
            &mut sampler,
            o,
            cell,
            variant,
            route,
            documents,
            &check_file,
        )?;
        let detail = format!(
            "batch {}: {}{}",
            cell.batch,
            row.status,
            row.error
                .as_deref()
                .map(|e| format!(": {e}"))
                .unwrap_or_default()
        );
        let status = if row.is_ok() {
            CheckStatus::PreflightOk
        } else {
            CheckStatus::PreflightFailed
        };
        let mut verdict = entry(&gate_cell, status, &detail);
        verdict.variant = Some(variant);
        verdicts.push(verdict.clone());
        if !row.is_ok() {
            let shown = if several {
                format!("{gate_cell} ({variant})")
            } else {
                gate_cell.to_string()
            };
            say!(
                "  preflight {}: {} — left out, never timed",
                text::for_terminal(&shown, false),
                text::for_terminal(&detail, false)
            );
            excluded.push(verdict);
        }
    }
    say!(
        "preflight: {} children, {} failed",
        verdicts.len(),
        verdicts
            .iter()
            .filter(|p| p.status != CheckStatus::PreflightOk)
            .count()
    );
    Ok(verdicts)
}

/// The one preflight child of a cell in a build, on `route`: a Rust child must print what the
/// runner computed; a child in another language is asked to write what it produced into
/// `check_file`, and once that means the fixture, what it printed becomes the route's expected
/// output (or the row says why not).
fn preflight_child(
    sampler: &mut Sampler,
    o: &RunOptions,
    cell: &Cell,
    variant: Variant,
    route: &mut Route,
    documents: &Documents,
    check_file: &Path,
) -> Result<SampleRow> {
    let learning = route.expected.is_none();
    let job = Job {
        plan: PlanRow {
            plan_index: 0,
            block: 0,
            codec: cell.codec.to_string(),
            op: cell.op,
            batch: cell.batch,
            fixture: cell.fixture.to_string(),
            variant,
        },
        child: route.child.clone(),
        prefix: route.prefix.clone(),
        input: route.input.clone(),
        loads: route.loads.clone(),
        drops: o.drops,
        expected: route.expected,
        check_file: learning.then(|| check_file.to_path_buf()),
        window: o.curve.map(|c| c.window),
    };
    let _ = std::fs::remove_file(check_file);
    if learning {
        // made here, and handed to the child: a child without privileges cannot create files
        // in the run folder
        let (folder, name) = files::Folder::of_file(check_file);
        folder
            .create_new(&name)
            .with_context(|| format!("cannot create {}", check_file.display()))?;
        sampler.hand_to_child(check_file)?;
    }
    let (mut row, _) = sampler.sample(&job)?;
    if learning && row.is_ok() {
        match learn(cell, &documents[cell.fixture], check_file, &row) {
            Ok(expected) => route.expected = Some(expected),
            Err(why) => {
                row.status = Status::WrongChecksum;
                row.set_error(why);
            }
        }
    }
    let _ = std::fs::remove_file(check_file);
    Ok(row)
}
