//! `analysis`: thaw's statistics and reports. Dispatches the subcommands; each reads its inputs,
//! hands them to the library's pure code, and writes or prints the result. Errors reach here
//! with context naming the file (and line) and are printed, never panicked.

use analysis::analyze::cells::CellKey;
use analysis::cli::{Cli, Command, CompareArgs, ExportArgs, ReportArgs, SynthArgs};
use analysis::compare::counts::{
    change_text, compare_counts, verdict_text, CountChange, Phase, COUNT_THRESHOLD,
};
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
    // The default report folder is reached from the run folder without following a link.
    let out = match &a.out {
        Some(out) => schema::files::Folder::new(out),
        None => schema::files::Folder::new(&run.dir).sub("report"),
    };
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

/// Cells named one per line under a heading, or nothing when there are none.
fn list_cells(heading: &str, cells: &[CellKey]) {
    if !cells.is_empty() {
        println!("{heading} ({}):", cells.len());
        for c in cells {
            println!("  {}", c.label());
        }
    }
}

fn compare_cmd(a: CompareArgs) -> Result<ExitCode> {
    let ra = run::load_run(&a.run_a)?;
    let rb = run::load_run(&a.run_b)?;
    if ra.measure != rb.measure {
        bail!(
            "{} is {} and {} is {}: instruction counts and times are different measures, so no change can be read from one to the other; compare two counted runs or two timed runs (`analysis report COUNTED_RUN --timed TIMED_RUN` sets counts beside times)",
            ra.dir.display(),
            ra.measure_words(),
            rb.dir.display(),
            rb.measure_words()
        );
    }
    if ra.is_counted() {
        return compare_counted_cmd(&a, &ra, &rb);
    }
    let threshold = a.threshold.unwrap_or(0.02);
    let opts = CompareOptions {
        figure: a.figure,
        threshold,
        resamples: a.resamples,
        level: 0.95,
        seed: a.seed,
        ignore_variant: a.ignore_variant,
    };
    let (changes, only_a, only_b) = compare(&ra.samples, &rb.samples, &opts);
    if changes.is_empty() {
        return Err(no_cell_in_common(
            &ra,
            &rb,
            only_a.len(),
            only_b.len(),
            a.ignore_variant,
        ));
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
            Change::Unchanged | Change::TooFewSamples | Change::CannotCompare => Tone::Muted,
        };
        let verdict = match &c.why {
            Some(why) => format!("{}: {why}", c.change.label()),
            None => c.change.label().to_string(),
        };
        let median = |m: Option<f64>| m.map_or("—".to_string(), format::ns);
        t.row(vec![
            c.key.fixture.clone().into(),
            c.key.op.into(),
            c.variants.clone().into(),
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            c.n_a.to_string().into(),
            c.n_b.to_string().into(),
            median(c.median_a).into(),
            median(c.median_b).into(),
            c.ratio
                .map_or("—".to_string(), |r| format::ratio_ci(r, c.interval))
                .into(),
            Cell::toned(verdict, tone),
        ]);
    }
    println!(
        "A = {}\nB = {}\nfigure {}, threshold ±{:.1}%\n",
        ra.dir.display(),
        rb.dir.display(),
        a.figure.name(),
        threshold * 100.0
    );
    print!("{}", console::render(&t));
    let count = |ch: Change| changes.iter().filter(|c| c.change == ch).count();
    let regressed = count(Change::Regressed);
    println!(
        "\n{} cells compared: {} improved, {regressed} regressed, {} unchanged; {} with too few samples for a verdict (fewer than {} in a run, or an interval of zero width); {} cannot compare; {} only in A, {} only in B",
        changes.len(),
        count(Change::Improved),
        count(Change::Unchanged),
        count(Change::TooFewSamples),
        min_samples(opts.level),
        count(Change::CannotCompare),
        only_a.len(),
        only_b.len()
    );
    list_cells("only in A", &only_a);
    list_cells("only in B", &only_b);
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
                c.median_a.map_or(String::new(), |m| m.to_string()),
                c.median_b.map_or(String::new(), |m| m.to_string()),
                c.ratio.map_or(String::new(), |r| r.to_string()),
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

/// The error of a `compare` whose two runs share no cell.
fn no_cell_in_common(
    ra: &run::Run,
    rb: &run::Run,
    only_a: usize,
    only_b: usize,
    ignore_variant: bool,
) -> anyhow::Error {
    anyhow::anyhow!(
        "{} and {} have no cell in common ({only_a} cells only in A, {only_b} only in B{}): nothing was compared",
        ra.dir.display(),
        rb.dir.display(),
        if ignore_variant {
            ""
        } else {
            "; --ignore-variant matches cells of different variants"
        }
    )
}

/// `compare` on two counted runs: every phase of every common cell, exactly.
fn compare_counted_cmd(a: &CompareArgs, ra: &run::Run, rb: &run::Run) -> Result<ExitCode> {
    let threshold = a.threshold.unwrap_or(COUNT_THRESHOLD);
    let (changes, only_a, only_b) =
        compare_counts(&ra.samples, &rb.samples, threshold, a.ignore_variant);
    if changes.is_empty() {
        return Err(no_cell_in_common(
            ra,
            rb,
            only_a.len(),
            only_b.len(),
            a.ignore_variant,
        ));
    }
    let mut header = vec![
        "fixture", "op", "variant", ">batch", "codec", ">n A", ">n B",
    ];
    let phase_cols: Vec<String> = Phase::VERDICT
        .iter()
        .map(|p| format!(">{}", p.name()))
        .collect();
    header.extend(phase_cols.iter().map(String::as_str));
    header.extend([">to_main (not judged)", "verdict"]);
    let mut t = Table::new(&header);
    for c in &changes {
        let tone = match c.change {
            Change::Improved => Tone::Good,
            Change::Regressed => Tone::Bad,
            _ => Tone::Muted,
        };
        let mut row: Vec<Cell> = vec![
            c.key.fixture.clone().into(),
            c.key.op.into(),
            c.variants.clone().into(),
            c.key.batch.to_string().into(),
            c.key.codec.clone().into(),
            c.n_a.to_string().into(),
            c.n_b.to_string().into(),
        ];
        for p in Phase::VERDICT {
            let cell = c.phases.iter().find(|x| x.phase == p);
            row.push(cell.map_or("—".to_string(), change_text).into());
        }
        row.push(
            c.to_main
                .as_ref()
                .map_or("—".to_string(), change_text)
                .into(),
        );
        row.push(Cell::toned(verdict_text(c), tone));
        t.row(row);
    }
    println!(
        "A = {}\nB = {}\ncounted runs: instructions compared exactly, phase by phase (B − A over A); a phase beyond ±{}% is a change; to_main (the dynamic loader, which moves with the environment) is listed and not judged\n",
        ra.dir.display(),
        rb.dir.display(),
        threshold * 100.0
    );
    print!("{}", console::render(&t));
    let count = |ch: Change| changes.iter().filter(|c| c.change == ch).count();
    let regressed: Vec<&CountChange> = changes
        .iter()
        .filter(|c| c.change == Change::Regressed)
        .collect();
    println!(
        "\n{} cells compared: {} improved, {} regressed, {} unchanged; {} cannot compare (no counted sample in a run); {} only in A, {} only in B",
        changes.len(),
        count(Change::Improved),
        regressed.len(),
        count(Change::Unchanged),
        count(Change::CannotCompare),
        only_a.len(),
        only_b.len()
    );
    list_cells("only in A", &only_a);
    list_cells("only in B", &only_b);
    if let Some(path) = &a.out {
        write_count_changes(path, &changes)?;
    }
    if a.fail_on_regression && !regressed.is_empty() {
        for c in &regressed {
            eprintln!("{}: {}", c.key.label(), verdict_text(c));
        }
        eprintln!("{} cell(s) regressed", regressed.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// compare's CSV for counted runs: one row per cell and phase.
fn write_count_changes(path: &std::path::Path, changes: &[CountChange]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    w.write_record([
        "fixture",
        "op",
        "variant",
        "batch",
        "codec",
        "n_a",
        "n_b",
        "phase",
        "a",
        "b",
        "relative",
        "identical",
        "phase_verdict",
        "cell_verdict",
    ])?;
    for c in changes {
        for p in c.phases.iter().chain(&c.to_main) {
            let judged = p.phase != Phase::ToMain;
            w.write_record([
                c.key.fixture.clone(),
                c.key.op.to_string(),
                c.variants.clone(),
                c.key.batch.to_string(),
                c.key.codec.clone(),
                c.n_a.to_string(),
                c.n_b.to_string(),
                p.phase.name().to_string(),
                p.a.to_string(),
                p.b.to_string(),
                p.relative.to_string(),
                p.identical.to_string(),
                if judged {
                    p.change.label()
                } else {
                    "not judged"
                }
                .to_string(),
                c.change.label().to_string(),
            ])?;
        }
    }
    w.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
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
    for (i, v) in a.variants.iter().enumerate() {
        if a.variants[..i].contains(v) {
            bail!("--variants: {v} is given twice");
        }
    }
    if a.precision.is_some() && a.measure == schema::Measure::Instructions {
        bail!(
            "--precision with --measure instructions: counts do not vary from sample to sample, so no interval narrows with more of them; sample a counted run with --samples"
        );
    }
    let s = synth(SynthOptions {
        samples: a.samples,
        seed: a.seed,
        fail_rate: a.fail_rate,
        scale: a.scale,
        measure: a.measure,
        precision: a.precision,
        max_blocks: a.max_samples,
        variants: a.variants,
    });
    run::write_run(&a.out, &s.manifest, &s.plan, &s.samples)?;
    println!("wrote {} samples to {}", s.samples.len(), a.out.display());
    if let Some(rule) = &s.manifest.stopping {
        let widest = match &rule.widest {
            Some((label, Some(hw))) => format!("±{:.2}% ({label})", hw * 100.0),
            Some((label, None)) => format!("{label}: too few samples for an interval"),
            None => "none".to_string(),
        };
        println!(
            "sampled to ±{}%: {} samples per cell, stopped on {}; widest interval at the last check {widest}",
            rule.precision * 100.0,
            s.manifest.samples_per_cell.unwrap_or(0),
            rule.stopped_on.map_or("nothing", |r| r.name()),
        );
    }
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
