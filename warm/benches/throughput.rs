//! The warm throughput benches: every supported fixture × op × codec under criterion, with ids
//! `<fixture>/<op>/<codec>` and MB/s from the document's length.
//!
//! `cargo bench -p warm [-- FILTER]` runs each chosen cell in `THAW_FORKS` fresh processes (5 by
//! default) of this binary, in a seeded order of cells within each fork (`warm::forks`); each
//! process measures its one cell with criterion under `results/warm/forks/<variant>/fork-<k>/`.
//! criterion's modes that measure nothing as a run (`--test`, `--list`, `--profile-time`, a
//! hand-given `--exact`) run here, in one process, under `results/warm/criterion/<variant>/`.
//! `THAW_WARM=quick` shortens every process; `THAW_VARIANT` names the build variant (default
//! `portable`); `THAW_CORPORA` adds the classic corpora for the DOM codecs. The correctness gate
//! runs over every cell before the first measurement (and again in each fork, over its cell);
//! a refused cell is never timed and makes the run exit non-zero; so does a failed fork.

use anyhow::Context;
use codecs::Op;
use fixtures::DEFAULT_SEED;
use std::process::ExitCode;
use warm::bench::{bench_fns, criterion, run_plan};
use warm::driver::{chosen, Forked};
use warm::forks::{fork_folder, in_process, split_filter, ForkRun};
use warm::gate::{gate, load_documents, Document};
use warm::settings::{self, Mode};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("warm: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let mode = Mode::from_env()?;
    let variant = settings::variant()?;
    if let Some(fork) = settings::this_fork()? {
        return one_fork(mode, variant, &fork);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let forked = !in_process(&args);
    let output = if forked {
        settings::forks_dir(variant)
    } else {
        settings::criterion_dir(variant)
    };
    let corpora = settings::corpora();
    let all: Vec<_> = fixtures::FIXTURES.iter().collect();
    let (documents, notes) = load_documents(&all, DEFAULT_SEED, corpora.as_deref());
    eprintln!(
        "thaw warm: variant {variant}, allocator {}, mode {mode}, results in {}",
        allocator::ALLOCATOR,
        output.display()
    );
    for note in notes {
        eprintln!("{note}");
    }
    let ops = [Op::De, Op::Ser];
    let plan = gate(&documents, &codecs::registry(), &ops);
    for line in plan.report_lines() {
        eprintln!("{line}");
    }
    plan.write_decisions(&settings::warm_results().join(schema::warm_files::GATE))?;

    let mut failed = Vec::new();
    if forked {
        let (filter, rest) = split_filter(&args);
        let runnable: Vec<String> = plan.runnable().map(|cell| cell.id()).collect();
        let cells = chosen(&runnable, filter.as_deref())?;
        let run = Forked {
            variant,
            mode,
            forks: settings::forks()?,
            seed: settings::forks_seed()?,
        };
        eprintln!(
            "thaw warm: {} cells × {} forks, seed {}",
            cells.len(),
            run.forks,
            run.seed
        );
        failed = run.run(&cells, &rest)?;
    } else {
        std::fs::create_dir_all(&output)?;
        let mut c = criterion(mode, &output).configure_from_args();
        run_plan(&mut c, &documents, &ops, &plan, &bench_fns());
        c.final_summary();
    }
    Ok(verdict(
        plan.refused().map(|cell| cell.id()).collect(),
        failed,
    ))
}

/// One fork of one cell (the driver started this process): that cell's document alone, gated
/// again, measured by criterion under the fork's folder.
fn one_fork(mode: Mode, variant: schema::Variant, fork: &ForkRun) -> anyhow::Result<ExitCode> {
    let mut parts = fork.cell.split('/');
    let (Some(fixture), Some(op), Some(codec)) = (parts.next(), parts.next(), parts.next()) else {
        anyhow::bail!("fork cell `{}` is not <fixture>/<op>/<codec>", fork.cell);
    };
    let op = Op::parse(op).map_err(anyhow::Error::msg)?;
    let fixture = fixtures::catalog::find(fixture)
        .with_context(|| format!("fork cell `{}`: no such fixture", fork.cell))?;
    let codec = codecs::registry()
        .into_iter()
        .find(|c| c.id() == codec)
        .with_context(|| format!("fork cell `{}`: no such codec", fork.cell))?;
    let corpora = settings::corpora();
    let (documents, notes): (Vec<Document>, _) =
        load_documents(&[fixture], DEFAULT_SEED, corpora.as_deref());
    anyhow::ensure!(
        !documents.is_empty(),
        "fork cell `{}`: {notes:?}",
        fork.cell
    );
    let plan = gate(&documents, &[codec], &[op]);
    let output = settings::forks_dir(variant).join(fork_folder(fork.fork));
    std::fs::create_dir_all(&output)?;
    let mut c = criterion(mode, &output).configure_from_args();
    run_plan(&mut c, &documents, &[op], &plan, &bench_fns());
    Ok(verdict(
        plan.refused().map(|cell| cell.id()).collect(),
        Vec::new(),
    ))
}

/// Success when no cell was refused and no fork failed; each is named otherwise.
fn verdict(refused: Vec<String>, failed: Vec<String>) -> ExitCode {
    if !refused.is_empty() {
        eprintln!(
            "warm: {} cells failed the correctness gate and were not measured: {}",
            refused.len(),
            refused.join(", ")
        );
    }
    for why in &failed {
        eprintln!("warm: {}", text::clip(why, 2000));
    }
    if refused.is_empty() && failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
