//! `analysis`: thaw's statistics and reports. Dispatches the subcommands; each reads its inputs,
//! hands them to the library's pure code, and writes or prints the result. Errors reach here
//! with context naming the file (and line) and are printed, never panicked.

use analysis::cli::{Cli, Command, CompareArgs, ExportArgs, ReportArgs, SynthArgs};
use analysis::compare::{compare, min_samples, Change, CompareOptions};
use analysis::inputs::{alloc, conformance, criterion, run, warm_gate};
use analysis::report::doc::{Cell, Table, Tone};
use analysis::report::model::{build, ReportInputs, ReportOptions};
use analysis::report::{console, format, sections, write};
use analysis::synth::{synth, SynthOptions, VARIANT};
use anyhow::{bail, Context, Result};
use clap::Parser;
use std::fs;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Report(a) => report(a),
        Command::Compare(a) => compare_cmd(a),
        Command::Export(a) => export(a),
        Command::Synth(a) => synth_cmd(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn report(a: ReportArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let run = run::load_run(&a.run_dir)?;
    let out = a.out.clone().unwrap_or_else(|| run.dir.join("report"));
    let warm = criterion::load_criterion(&a.warm.join("criterion"))?;
    let alloc_path = a.warm.join("alloc.csv");
    let alloc = alloc::load_alloc(&alloc_path)?;
    let warm_gate = warm_gate::load_gate(&a.warm.join("gate.csv"))?;
    let conformance = conformance::load_conformance(&a.conformance)?;
    let timed = a.timed.as_deref().map(run::load_run).transpose()?;
    let inputs = ReportInputs {
        run,
        warm_dir: a.warm.join("criterion"),
        warm,
        alloc_path,
        alloc,
        warm_gate,
        conformance_path: a.conformance.clone(),
        conformance,
        timed,
    };
    let opts = ReportOptions {
        reference: a.reference,
        resamples: a.resamples,
        level: 0.95,
        alpha: 0.05,
        seed: a.seed,
    };
    let report = build(inputs, &opts)?;
    let files = write::write_report(&report, &out)?;
    print!("{}", sections::headline_text(&report));
    println!();
    for f in files {
        println!("wrote {}", f.display());
    }
    eprintln!(
        "report of {} samples in {:.2} s",
        format::count(report.samples as f64),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn compare_cmd(a: CompareArgs) -> Result<ExitCode> {
    let ra = run::load_run(&a.run_a)?;
    let rb = run::load_run(&a.run_b)?;
    let opts = CompareOptions {
        figure: a.figure,
        threshold: a.threshold,
        resamples: a.resamples,
        level: 0.95,
        seed: a.seed,
        ignore_variant: a.ignore_variant,
    };
    let (changes, only_a, only_b) = compare(&ra.samples, &rb.samples, &opts);
    if changes.is_empty() {
        bail!(
            "{} and {} have no cell in common ({} cells only in A, {} only in B{}): nothing was compared",
            ra.dir.display(),
            rb.dir.display(),
            only_a.len(),
            only_b.len(),
            if a.ignore_variant {
                ""
            } else {
                "; --ignore-variant matches cells of different variants"
            }
        );
    }
    let mut t = Table::new(&[
        "fixture",
        "op",
        "variant",
        ">batch",
        "codec",
        ">n A",
        ">n B",
        ">median A",
        ">median B",
        ">B / A [95% CI]",
        "verdict",
    ]);
    for c in &changes {
        let tone = match c.change {
            Change::Improved => Tone::Good,
            Change::Regressed => Tone::Bad,
            Change::Unchanged | Change::TooFewSamples => Tone::Muted,
        };
        t.row(vec![
            c.key.fixture.clone().into(),
            c.key.op.into(),
            c.variants.clone().into(),
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            c.n_a.to_string().into(),
            c.n_b.to_string().into(),
            format::ns(c.median_a).into(),
            format::ns(c.median_b).into(),
            format::ratio_ci(c.ratio, c.interval).into(),
            Cell::toned(c.change.label(), tone),
        ]);
    }
    println!(
        "A = {}\nB = {}\nfigure {}, threshold ±{:.1}%\n",
        ra.dir.display(),
        rb.dir.display(),
        a.figure.name(),
        a.threshold * 100.0
    );
    print!("{}", console::render(&t));
    let count = |ch: Change| changes.iter().filter(|c| c.change == ch).count();
    let regressed = count(Change::Regressed);
    println!(
        "\n{} cells compared: {} improved, {regressed} regressed, {} unchanged; {} with too few samples for a verdict (fewer than {} in a run, or an interval of zero width); {} only in A, {} only in B",
        changes.len(),
        count(Change::Improved),
        count(Change::Unchanged),
        count(Change::TooFewSamples),
        min_samples(opts.level),
        only_a.len(),
        only_b.len()
    );
    if let Some(path) = &a.out {
        let mut w = csv::Writer::from_path(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        w.write_record([
            "fixture",
            "op",
            "variant",
            "batch",
            "codec",
            "n_a",
            "n_b",
            "median_a_ns",
            "median_b_ns",
            "ratio",
            "lo",
            "hi",
            "verdict",
        ])?;
        for c in &changes {
            w.write_record([
                c.key.fixture.clone(),
                c.key.op.to_string(),
                c.variants.clone(),
                c.key.batch.to_string(),
                c.key.codec.clone(),
                c.n_a.to_string(),
                c.n_b.to_string(),
                c.median_a.to_string(),
                c.median_b.to_string(),
                c.ratio.to_string(),
                c.interval.map_or(String::new(), |i| i.0.to_string()),
                c.interval.map_or(String::new(), |i| i.1.to_string()),
                c.change.label().to_string(),
            ])?;
        }
        w.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if a.fail_on_regression && regressed > 0 {
        eprintln!("{regressed} cell(s) regressed");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn export(a: ExportArgs) -> Result<ExitCode> {
    let run = run::load_run(&a.run_dir)?;
    let text = a.format.exporter().export(&run, a.figure)?;
    match &a.out {
        Some(path) => {
            fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn synth_cmd(a: SynthArgs) -> Result<ExitCode> {
    let s = synth(SynthOptions {
        samples: a.samples,
        seed: a.seed,
        fail_rate: a.fail_rate,
        scale: a.scale,
        measure: a.measure,
    });
    run::write_run(&a.out, &s.manifest, &s.plan, &s.samples)?;
    println!("wrote {} samples to {}", s.samples.len(), a.out.display());
    if let Some(dir) = &a.warm {
        let root = dir.join("criterion");
        for w in &s.warm {
            criterion::write_fake_bench(&root, VARIANT, w)?;
        }
        let path = dir.join("alloc.csv");
        let mut wr = csv::Writer::from_path(&path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        for r in &s.alloc {
            wr.serialize(r)?;
        }
        wr.flush()?;
        println!(
            "wrote {} warm estimates and {} under {}",
            s.warm.len(),
            path.display(),
            dir.display()
        );
    }
    if let Some(path) = &a.conformance {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let mut wr = csv::Writer::from_path(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        for r in &s.conformance {
            wr.serialize(r)?;
        }
        wr.flush()?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
