//! Everything a run does before its first timed sample, shared by a fresh run and its dry run:
//! the cells (and the unsupported ones), each fixture's document, the child binary of every codec
//! × op × fixture (found and fingerprinted), the input files the children read (written into
//! `dir`), what each child must print, the correctness gate, one unrecorded preflight child per
//! cell, and the plan without the cells that failed either check.
//!
//! The order of the plan is drawn over every supported cell before anything is left out (see
//! `plan`), so a dry run, which does all of this in a temporary folder, prints exactly the plan
//! the run takes.

use crate::classify::Expected;
use crate::cli::RunOptions;
use crate::folder;
use crate::plan::{self, Cell, Unsupported};
use crate::sampler::{Job, Sampler};
use crate::session::{self, say};
use anyhow::{bail, Context, Result};
use children::catalog::binary_for;
use fixtures::codecs::{find_codec, AnyCodec};
use fixtures::inputs::{prepare, InputKind};
use fixtures::verify::{verify_all, GateVerdict};
use fixtures::{catalog, sha256_hex, Fixture};
use schema::run_folder::{CheckEntry, ChildEntry, FixtureEntry, InputEntry, PlanRow};
use schema::{GateCell, Status, Variant};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Each fixture's canonical document, by fixture name.
pub type Documents = HashMap<&'static str, Vec<u8>>;

/// What a run knows before its first sample.
pub struct Prepared {
    pub cells: Vec<Cell>,
    pub unsupported: Vec<Unsupported>,
    pub fixtures: Vec<FixtureEntry>,
    pub inputs: Vec<InputEntry>,
    pub children: Vec<ChildEntry>,
    /// The child binary and input file of every codec × fixture × op, in each variant.
    pub routes: Routes,
    pub verification: Vec<CheckEntry>,
    pub preflight: Vec<CheckEntry>,
    /// Left out because they failed the gate or the preflight.
    pub excluded: Vec<CheckEntry>,
    pub plan: Vec<PlanRow>,
}

/// Where each codec × fixture × op of each build variant runs.
pub type Routes = HashMap<(GateCell, Variant), Route>;

/// Where one codec × fixture × op runs: its child, its input, what it must print.
#[derive(Debug, Clone)]
pub struct Route {
    pub child: PathBuf,
    pub input: PathBuf,
    pub expected: Expected,
}

/// The cells of the options, and the unsupported ones; an error when nothing can run.
pub fn cells(o: &RunOptions) -> Result<(Vec<Cell>, Vec<Unsupported>)> {
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

pub fn describe_unsupported(u: &Unsupported) -> String {
    format!("{} {} on {}: {}", u.codec, u.op, u.fixture, u.reason)
}

/// The child binaries the cells need.
pub fn binaries(cells: &[Cell]) -> Result<Vec<String>> {
    let mut names = BTreeSet::new();
    for cell in cells {
        let codec = find_codec(cell.codec).map_err(anyhow::Error::msg)?;
        let fixture = catalog::find(cell.fixture)?;
        names.insert(binary_for(codec, cell.op, fixture.model_kind()));
    }
    Ok(names.into_iter().collect())
}

/// Makes each fixture's canonical document (before anything is written, so a fixture that
/// cannot be had leaves no folder behind).
pub fn documents(o: &RunOptions) -> Result<Documents> {
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

/// Everything before the first sample, with the input files written under `dir`.
pub fn prepare_run(
    o: &RunOptions,
    documents: &Documents,
    children_dirs: &[(Variant, PathBuf)],
    dir: &Path,
    env: &[(OsString, OsString)],
) -> Result<Prepared> {
    let (cells, unsupported) = cells(o)?;
    let gate_cells: BTreeSet<GateCell> = cells.iter().map(Cell::gate_cell).collect();

    let mut fixtures = Vec::new();
    for fixture in &o.fixtures {
        let document = &documents[fixture.name];
        fixtures.push(FixtureEntry {
            name: fixture.name.to_string(),
            bytes: document.len() as u64,
            sha256: sha256_hex(document),
            file: Some(folder::input_relative(fixture.name, InputKind::Document)),
        });
    }

    // The gate first, in-process: a codec × fixture × op that fails it needs no child.
    let (verification, mut excluded) = gate(&o.codecs, o);
    let failed_gate: BTreeSet<GateCell> = excluded.iter().map(CheckEntry::gate_cell).collect();

    // Children and inputs of every other codec × fixture × op, each binary read and each input
    // written once.
    let mut fingerprints: BTreeMap<(Variant, String), (PathBuf, u64, String)> = BTreeMap::new();
    let mut written: BTreeMap<(String, InputKind), (PathBuf, Vec<u8>)> = BTreeMap::new();
    let mut children = Vec::new();
    let mut inputs = Vec::new();
    let mut routes = HashMap::new();
    for cell in gate_cells.iter().filter(|c| !failed_gate.contains(c)) {
        let codec = o
            .codecs
            .iter()
            .copied()
            .find(|c| c.id() == cell.codec)
            .with_context(|| format!("no codec {}", cell.codec))?;
        let fixture: &Fixture = catalog::find(&cell.fixture)?;
        let binary = binary_for(codec, cell.op, fixture.model_kind());
        let mut paths = Vec::new();
        for (variant, children_dir) in children_dirs {
            let key = (*variant, binary.clone());
            if !fingerprints.contains_key(&key) {
                let path =
                    crate::binaries::find(children_dir, std::slice::from_ref(&binary), *variant)?
                        .remove(0);
                let bytes = std::fs::read(&path)
                    .with_context(|| format!("cannot read the child {}", path.display()))?;
                fingerprints.insert(key.clone(), (path, bytes.len() as u64, sha256_hex(&bytes)));
            }
            let (path, size, sha) = &fingerprints[&key];
            children.push(ChildEntry {
                codec: cell.codec.clone(),
                op: cell.op,
                fixture: cell.fixture.clone(),
                binary: binary.clone(),
                path: path.display().to_string(),
                bytes: *size,
                sha256: sha.clone(),
                variant: Some(*variant),
            });
            paths.push((*variant, path.clone()));
        }

        let kind = codec.input_kind(fixture, cell.op);
        let key = (cell.fixture.clone(), kind);
        if !written.contains_key(&key) {
            let bytes = prepare(kind, fixture, o.seed, &documents[fixture.name])
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("the {} input of {}", kind.name(), fixture.name))?;
            let file = folder::input_file(dir, fixture.name, kind);
            schema::csv_rows::write_atomically(&file, &bytes)?;
            inputs.push(InputEntry {
                fixture: cell.fixture.clone(),
                kind: kind.name(),
                file: folder::input_relative(fixture.name, kind),
                bytes: bytes.len() as u64,
                sha256: sha256_hex(&bytes),
            });
            written.insert(key.clone(), (file, bytes));
        }
        let (file, bytes) = &written[&key];
        match codec.expected_output(fixture, cell.op, bytes) {
            Ok(out) => {
                for (variant, path) in paths {
                    routes.insert(
                        (cell.clone(), variant),
                        Route {
                            child: path,
                            input: file.clone(),
                            expected: Expected {
                                checksum: out.checksum,
                                bytes: out.bytes,
                            },
                        },
                    );
                }
            }
            Err(e) => {
                let detail = format!("cannot compute what its child must print: {e}");
                say!("  {cell}: {detail} — left out");
                excluded.push(entry(cell, "preflight-failed", &detail));
            }
        }
    }

    let preflight = preflight(&cells, &routes, o, env, &mut excluded)?;

    let plan = plan::without(
        plan::build(&cells, o.samples, o.plan_seed, &o.variants),
        &excluded,
    );
    Ok(Prepared {
        cells,
        unsupported,
        fixtures,
        inputs,
        children,
        routes,
        verification,
        preflight,
        excluded,
        plan,
    })
}

fn entry(cell: &GateCell, status: &str, detail: &str) -> CheckEntry {
    CheckEntry {
        codec: cell.codec.clone(),
        fixture: cell.fixture.clone(),
        op: cell.op,
        status: status.to_string(),
        detail: detail.to_string(),
        variant: None,
    }
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

/// One unrecorded child per cell (every batch) of every variant, which must print what the
/// runner computed. A codec × fixture × op of a variant with a failing cell joins `excluded` (a
/// child that fails at one batch is not trusted at another).
fn preflight(
    cells: &[Cell],
    routes: &Routes,
    o: &RunOptions,
    env: &[(OsString, OsString)],
    excluded: &mut Vec<CheckEntry>,
) -> Result<Vec<CheckEntry>> {
    let mut verdicts = Vec::new();
    let mut sampler = Sampler::new(&session::spawner_path()?, o.timeout, false, env.to_vec())?;
    let several = o.variants.len() > 1;
    for cell in cells {
        let gate_cell = cell.gate_cell();
        for &variant in &o.variants {
            if excluded.iter().any(|e| e.leaves_out(&gate_cell, variant)) {
                continue;
            }
            let Some(route) = routes.get(&(gate_cell.clone(), variant)) else {
                continue;
            };
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
                input: route.input.clone(),
                drops: o.drops,
                expected: route.expected,
            };
            let row = sampler.sample(&job)?;
            let detail = format!(
                "batch {}{}",
                cell.batch,
                row.error
                    .as_deref()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default()
            );
            let mut verdict = entry(&gate_cell, &row.status.name(), &detail);
            verdict.variant = Some(variant);
            verdicts.push(verdict);
            if !row.is_ok() {
                let why = format!("{} at {detail}", row.status);
                let shown = if several {
                    format!("{gate_cell} ({variant})")
                } else {
                    gate_cell.to_string()
                };
                say!("  preflight {shown}: {why} — left out, never timed");
                let mut left_out = entry(&gate_cell, "preflight-failed", &why);
                left_out.variant = Some(variant);
                excluded.push(left_out);
            }
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
    Ok(verdicts)
}
