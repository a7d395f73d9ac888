//! The `analysis` command: dispatches the subcommands; each reads its inputs, hands them to the
//! library's pure code, and writes or prints the result. Errors reach here with context naming
//! the file (and line) and are printed, never panicked.

use crate::analyze::cells::CellKey;
use crate::cli::{
    AnswerArgs, Cli, Command, CompareArgs, ExportArgs, MergeArgs, ReportArgs, SynthArgs,
    TableFormat, COMMITTED_RUNS,
};
use crate::compare::{compare, table, tally, write_csv, CellChange, Change, CompareOptions};
use crate::inputs::{alloc, conformance, criterion, curves, forks, gobench, jmh, run, warm_gate};

use crate::report::model::{build, ReportInputs, ReportOptions};
use crate::report::{console, format, sections, write};
use crate::synth::{synth, SynthOptions, VARIANT};
use anyhow::{bail, Context, Result};
use clap::Parser;
use std::fs;
use std::process::ExitCode;
use std::time::Instant;

/// The command line parsed and run; what the process exits with.
pub fn main() -> ExitCode {
    let cli = parsed();
    let result = match cli.command {
        Command::Report(a) => report(a),
        Command::Compare(a) => compare_cmd(a),
        Command::Export(a) => export(a),
        Command::Merge(a) => merge_cmd(a),
        Command::Synth(a) => synth_cmd(a),
        Command::Answer(a) => answer_cmd(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // an error may quote a file: its control characters are shown, not obeyed
            eprintln!("error: {}", text::for_terminal(&format!("{e:#}"), true));
            ExitCode::from(2)
        }
    }
}

/// The command line, parsed; a refusal of it printed as every error is, each argument it
/// quotes echoed as every value is (`text::with_args_echoed`), with clap's exit code;
/// help and version printed as clap prints them.
fn parsed() -> Cli {
    Cli::try_parse().unwrap_or_else(|e| {
        if !e.use_stderr() {
            e.exit()
        }
        let args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
        eprint!("{}", text::with_args_echoed(&e.render().to_string(), args));
        std::process::exit(e.exit_code())
    })
}

fn report(a: ReportArgs) -> Result<ExitCode> {
    let start = Instant::now();
    if let Some(out) = &a.out {
        if let Some((holder, what)) = store::outputs::inside_inputs(out) {
            bail!(
                "--out {}: {} holds {what}, an input of thaw's, which the report's files would \
                 sit among or replace; give another folder",
                out.display(),
                holder.display()
            );
        }
    }
    let mut run = run::load_run(&a.run_dir)?;
    if !a.allow_unfinished && run.writing.is_none() {
        if let Some(written) = run.manifest.as_ref().and_then(|m| m.samples_written) {
            let present = run.samples.len() as u64;
            if present != written {
                bail!(
                    "{}: samples.csv holds {present} rows where the run wrote {written}: rows \
                     were taken out or added after the runner wrote them; `cold resume {}` takes \
                     the missing samples again, or give --allow-unfinished to report what is \
                     there",
                    run.dir.display(),
                    text::for_shell(&run.dir.display().to_string())
                );
            }
        }
    }
    if let Some(name) = &a.machine {
        crate::inputs::machine::restrict(&mut run, name)?;
    }
    let out = report_folder(&a, &run.folder);
    let warm = warm_figures(&a.warm)?;
    let alloc_path = a.warm.join("alloc.csv");
    let alloc = alloc::load_alloc(&alloc_path)?;
    let warm_gate = warm_gates(&a.warm)?;
    let conformance = conformance::load_conformance(&a.conformance)?;
    let timed = a.timed.as_deref().map(run::load_run).transpose()?;
    let curves = curves::load_curves(&run)?;
    let inputs = ReportInputs {
        run,
        warm_dir: a.warm.clone(),
        warm,
        alloc_path,
        alloc,
        warm_gate,
        conformance_path: a.conformance.clone(),
        conformance,
        timed,
        curves,
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
    // the answer first, in the words `cold run` ended with
    print!(
        "{}",
        text::for_terminal(&sections::answer_lines(&report), true)
    );
    print!(
        "{}",
        text::for_terminal(&sections::headline_text(&report), true)
    );
    println!();
    for f in files {
        println!("wrote {}", f.display());
    }
    // what was read or skipped, where it can be seen without opening the report
    for n in &report.notes {
        eprintln!("note: {}", text::for_terminal(n, false));
    }
    eprintln!(
        "report of {} samples in {:.2} s",
        format::count(report.samples as f64),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// The answer table of the runs named, or of every committed run.
fn answer_cmd(a: AnswerArgs) -> Result<ExitCode> {
    let runs = if a.runs.is_empty() {
        committed_runs(std::path::Path::new(COMMITTED_RUNS))?
    } else {
        a.runs
    };
    print!(
        "{}",
        text::for_terminal(&crate::answer_table::table(&runs)?, true)
    );
    Ok(ExitCode::SUCCESS)
}

/// The folders in `dir`, in name order.
pub(crate) fn committed_runs(dir: &std::path::Path) -> Result<Vec<std::path::PathBuf>> {
    let mut out: Vec<std::path::PathBuf> = files::entries(dir)
        .with_context(|| format!("{}: the committed runs", dir.display()))?
        .into_iter()
        .filter(|e| e.kind == files::Kind::Folder)
        .map(|e| e.path)
        .collect();
    out.sort();
    Ok(out)
}

/// Where the report is written: `--out` (opened once, when the report is written), else
/// `report/` (or `report-MACHINE/` for one machine of a merged run) in the run folder, reached
/// from the run's held descriptor without following a link.
fn report_folder(a: &ReportArgs, run: &files::Folder) -> files::Folder {
    match (&a.out, &a.machine) {
        (Some(out), _) => files::Folder::new(out),
        (None, None) => run.sub("report"),
        (None, Some(name)) => {
            let safe: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            run.sub(format!("report-{safe}"))
        }
    }
}

/// The warm figures of every runtime under `warm`: the Rust forks' across processes, criterion's
/// of one process where no fork covers a cell, JMH's (the JVM) and Go's benchmark output
/// (`warm/go/*.txt`); `None` when there is none.
fn warm_figures(
    warm: &std::path::Path,
) -> Result<Option<(Vec<criterion::WarmEstimate>, Vec<String>)>> {
    Ok(
        match (
            forks::load_forks(&warm.join(schema::warm_files::FORKS))?,
            criterion::load_criterion(&warm.join(schema::warm_files::CRITERION))?,
            jmh::load_jmh(&warm.join("jmh"))?,
            gobench::load_gobench(&warm.join("go"))?,
        ) {
            (None, None, None, None) => None,
            (f, c, j, g) => {
                let (forked, mut notes) = f.unwrap_or_default();
                let (single, more_notes) = c.unwrap_or_default();
                notes.extend(more_notes);
                let mut estimates = forks::prefer_forks(forked, single);
                for (more, more_notes) in [j, g].into_iter().flatten() {
                    estimates.extend(more);
                    notes.extend(more_notes);
                }
                Some((estimates, notes))
            }
        },
    )
}

/// The warm gate's decisions: gate.csv's, and those the JMH results record.
fn warm_gates(warm: &std::path::Path) -> Result<Option<(Vec<warm_gate::GateRow>, Option<String>)>> {
    let mut gates = warm_gate::load_gate(&warm.join("gate.csv"))?;
    let jmh_gates = jmh::load_jmh_gates(&warm.join("jmh"))?;
    if !jmh_gates.is_empty() {
        gates
            .get_or_insert_with(Default::default)
            .0
            .extend(jmh_gates);
    }
    Ok(gates)
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

/// What `compare` compares: two runs, or two builds of one run.
struct Sides {
    measure: schema::Measure,
    a: (String, store::cell::Samples),
    b: (String, store::cell::Samples),
}

fn sides(a: &CompareArgs) -> Result<Sides> {
    let ra = run::load_run(&a.run_a)?;
    let Some(run_b) = &a.run_b else {
        // --variants BASE,CANDIDATE: the two builds of one run
        let [base, candidate] = a.variants[..] else {
            bail!(
                "--variants takes two builds, BASE,CANDIDATE (given {})",
                a.variants.len()
            );
        };
        if base == candidate {
            bail!("--variants {base},{candidate}: give two different builds");
        }
        let side = |v: schema::Variant| -> Result<(String, store::cell::Samples)> {
            let s = ra.samples.only_variant(v);
            if s.is_empty() {
                let builds: std::collections::BTreeSet<String> = ra
                    .samples
                    .cells
                    .keys()
                    .map(|k| k.variant.to_string())
                    .collect();
                bail!(
                    "--variants: {} has no sample of build {v}; its builds: {}",
                    ra.dir.display(),
                    builds.into_iter().collect::<Vec<_>>().join(", ")
                );
            }
            Ok((format!("{} (build {v})", ra.dir.display()), s))
        };
        return Ok(Sides {
            measure: ra.measure,
            a: side(base)?,
            b: side(candidate)?,
        });
    };
    let rb = run::load_run(run_b)?;
    if ra.measure != rb.measure {
        bail!(
            "{} is {} and {} is {}: they recorded different measures, so no change can be read from one to the other; compare two runs of one measure (`analysis report COUNTED_RUN --timed TIMED_RUN` sets counts beside times)",
            ra.dir.display(),
            ra.measure.run_words(),
            rb.dir.display(),
            rb.measure.run_words()
        );
    }
    Ok(Sides {
        measure: ra.measure,
        a: (ra.dir.display().to_string(), ra.samples),
        b: (rb.dir.display().to_string(), rb.samples),
    })
}

/// Refuses, before any work, an output the user named that would land on an input.
fn refuse_output(path: Option<&std::path::Path>, option: &str, force: bool) -> Result<()> {
    match path.and_then(|p| store::outputs::output_refused(p, option, force)) {
        Some(why) => bail!(why),
        None => Ok(()),
    }
}

fn compare_cmd(a: CompareArgs) -> Result<ExitCode> {
    refuse_output(a.out.as_deref(), "--out", a.force)?;
    let Sides {
        measure,
        a: (name_a, samples_a),
        b: (name_b, samples_b),
    } = sides(&a)?;
    let opts = CompareOptions {
        span: a.figure,
        threshold: a.threshold.unwrap_or(measure.threshold()),
        resamples: a.resamples,
        level: 0.95,
        seed: a.seed,
        // two builds of one run are matched by all but the build
        ignore_variant: a.ignore_variant || !a.variants.is_empty(),
        phase: a.phase,
    };
    let (changes, only_a, only_b) = compare(measure, &samples_a, &samples_b, &opts);
    if changes.is_empty() {
        bail!(
            "{name_a} and {name_b} have no cell in common ({} cells only in A, {} only in B{}): nothing was compared",
            only_a.len(),
            only_b.len(),
            if opts.ignore_variant {
                ""
            } else {
                "; --ignore-variant matches cells of different variants"
            }
        );
    }
    let heading = crate::compare::compare_heading(measure, &opts);
    let closing = tally(&changes, only_a.len(), only_b.len(), opts.level);
    let names = (name_a.as_str(), name_b.as_str());
    print_comparison(
        a.format,
        names,
        &heading,
        measure,
        &changes,
        &closing,
        (&only_a, &only_b),
    );
    if let Some(path) = &a.out {
        write_csv(path, &changes, a.force)?;
    }
    let regressed: Vec<&CellChange> = changes
        .iter()
        .filter(|c| c.change == Change::Regressed)
        .collect();
    if a.fail_on_regression && !regressed.is_empty() {
        for c in &regressed {
            eprintln!(
                "{}: {}",
                text::for_terminal(&c.key.label(), false),
                c.verdict_text(measure.exact())
            );
        }
        eprintln!("{} cell(s) regressed", regressed.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The comparison on stdout: as text for a terminal, or as Markdown.
fn print_comparison(
    format: TableFormat,
    names: (&str, &str),
    heading: &str,
    measure: schema::Measure,
    changes: &[CellChange],
    closing: &str,
    only: (&[CellKey], &[CellKey]),
) {
    match format {
        TableFormat::Text => {
            println!("A = {}\nB = {}\n{heading}\n", names.0, names.1);
            print!(
                "{}",
                text::for_terminal(&console::render(&table(measure, changes)), true)
            );
            println!("\n{closing}");
            list_cells("only in A", only.0);
            list_cells("only in B", only.1);
        }
        TableFormat::Markdown => {
            use crate::report::doc::Block;
            let listed = |heading: &str, cells: &[CellKey]| {
                (!cells.is_empty()).then(|| {
                    vec![
                        Block::Para(format!("{heading} ({}):", cells.len())),
                        Block::List(cells.iter().map(CellKey::label).collect()),
                    ]
                })
            };
            let mut blocks = vec![
                Block::Para(format!("A = {}; B = {}. {heading}.", names.0, names.1)),
                Block::Table(table(measure, changes)),
                Block::Para(closing.to_string()),
            ];
            blocks.extend(listed("only in A", only.0).into_iter().flatten());
            blocks.extend(listed("only in B", only.1).into_iter().flatten());
            print!("{}", crate::report::markdown::render(&blocks));
        }
    }
}

fn export(a: ExportArgs) -> Result<ExitCode> {
    refuse_output(a.out.as_deref(), "--out", a.force)?;
    let run = run::load_run(&a.run_dir)?;
    let text = a.format.export(&run, a.figure)?;
    match &a.out {
        Some(path) => store::outputs::write_output(path, "--out", a.force, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn merge_cmd(a: MergeArgs) -> Result<ExitCode> {
    // the one rule of outputs: the merge never lands inside a run (a shard it reads included)
    // or warm results, named or through a link
    if let Some((holder, what)) = store::outputs::inside_inputs(&a.out) {
        bail!(
            "--out {}: {} holds {what}, an input of thaw's, and the merged run would land on \
             or inside it; give a new folder elsewhere",
            a.out.display(),
            holder.display()
        );
    }
    let parts = a
        .runs
        .iter()
        .map(|r| crate::merge::read_part(r))
        .collect::<Result<Vec<_>>>()?;
    let command_line = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let merged = crate::merge::merge(parts, command_line)?;
    crate::merge::write(&a.out, &merged)?;
    for w in &merged.warnings {
        eprintln!("warning: {}", text::for_terminal(w, false));
    }
    let m = &merged.manifest;
    let machines = crate::inputs::machine::Machines::of(m).map_or(1, |x| x.0.len());
    println!(
        "merged {} shards ({} machine{}): {} of {} planned samples into {}{}",
        m.shards.len(),
        machines,
        if machines == 1 { "" } else { "s" },
        merged.samples.len(),
        m.samples_planned,
        a.out.display(),
        if m.finished { "" } else { " (unfinished)" }
    );
    Ok(ExitCode::SUCCESS)
}

fn synth_cmd(a: SynthArgs) -> Result<ExitCode> {
    for (i, v) in a.variants.iter().enumerate() {
        if a.variants[..i].contains(v) {
            bail!("--variants: {v} is given twice");
        }
    }
    if a.precision.is_some() && a.measure.exact() {
        bail!(
            "--precision with --measure {}: counts do not vary from sample to sample, so no interval narrows with more of them; sample a counted run with --samples",
            a.measure
        );
    }
    refuse_output(a.conformance.as_deref(), "--conformance", a.force)?;
    // the one rule of outputs: a new run never lands on or inside a run or warm results
    // (a run is never replaced, even forced: `write_run` refuses it)
    if let Some((holder, what)) = store::outputs::inside_inputs(&a.out).filter(|_| !a.force) {
        bail!(
            "--out {}: {} holds {what}, an input of thaw's, and the synthetic run would land \
             on or inside it; give a new or empty folder elsewhere (or --force)",
            a.out.display(),
            holder.display()
        );
    }
    if let Some(dir) = &a.warm {
        if let Some(what) = store::outputs::holds_inputs(dir).filter(|_| !a.force) {
            bail!(
                "--warm {}: it holds {what}, which synth would replace; give a new or empty folder (or --force)",
                dir.display()
            );
        }
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
        shard: a.shard,
        machine: a.machine,
    });
    run::write_run(&a.out, &s.manifest, &s.plan, &s.samples)?;
    println!("wrote {} samples to {}", s.samples.len(), a.out.display());
    if let Some(rule) = &s.manifest.settings.stopping {
        let widest = match &rule.widest {
            Some((label, Some(hw))) => format!("±{:.2}% ({label})", hw * 100.0),
            Some((label, None)) => format!("{label}: too few samples for an interval"),
            None => "none".to_string(),
        };
        println!(
            "sampled to ±{}%: {} samples per cell, stopped on {}; widest interval at the last check {widest}",
            rule.precision * 100.0,
            s.manifest.settings.samples_per_cell,
            rule.stopped_on.map_or("nothing", |r| r.name()),
        );
    }
    if let Some(dir) = &a.warm {
        // the warm folder opened once; every file below it reached from it
        let warm = files::Folder::new(dir);
        let root = warm.sub("criterion");
        for w in &s.warm {
            criterion::write_fake_bench(&root, VARIANT, w)?;
        }
        let path = warm.file(schema::warm_files::ALLOC);
        files::csv_rows::write_rows(&path, &s.alloc)?;
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
        let mut wr = csv::Writer::from_writer(Vec::new());
        for r in &s.conformance {
            wr.serialize(r)?;
        }
        let bytes = wr
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{}", e.error()))?;
        store::outputs::write_output(path, "--conformance", a.force, &bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
