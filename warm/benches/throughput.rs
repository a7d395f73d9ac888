//! The warm throughput benches: every supported fixture × op × codec under criterion, with ids
//! `<fixture>/<op>/<codec>` and MB/s from the document's length.
//!
//! `cargo bench -p warm [-- FILTER]`; `THAW_WARM=quick` for a short pass over every cell;
//! `THAW_VARIANT` names the build variant (default `portable`; `scripts/warm-native.sh` sets
//! `native`); `THAW_CORPORA` adds the classic corpora for the DOM codecs. criterion writes to
//! `results/warm/criterion/<variant>/`, and the gate's decision for every cell to
//! `results/warm/gate.csv`. The correctness gate runs over every cell before the
//! first measurement; a refused cell is never timed and makes the run exit non-zero.

use codecs::Op;
use fixtures::DEFAULT_SEED;
use std::process::ExitCode;
use warm::bench::{bench_fns, criterion, run_plan};
use warm::gate::{gate, load_documents};
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
    let output = settings::criterion_dir(variant);
    std::fs::create_dir_all(&output)?;
    let mut c = criterion(mode, &output).configure_from_args();

    let seed = DEFAULT_SEED;
    let ops = [Op::De, Op::Ser];
    let corpora = settings::corpora();
    let all: Vec<_> = fixtures::FIXTURES.iter().collect();
    let (documents, notes) = load_documents(&all, seed, corpora.as_deref());
    eprintln!(
        "thaw warm: variant {variant}, mode {mode}, results in {}",
        output.display()
    );
    for note in notes {
        eprintln!("{note}");
    }
    let plan = gate(&documents, &codecs::registry(), &ops);
    for line in plan.report_lines() {
        eprintln!("{line}");
    }
    plan.write_decisions(&settings::warm_results().join(schema::warm_files::GATE))?;

    run_plan(&mut c, &documents, &ops, &plan, &bench_fns());
    c.final_summary();

    let refused: Vec<String> = plan.refused().map(|cell| cell.id()).collect();
    if refused.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "warm: {} cells failed the correctness gate and were not measured: {}",
            refused.len(),
            refused.join(", ")
        );
        Ok(ExitCode::FAILURE)
    }
}
