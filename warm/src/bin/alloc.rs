//! Allocation per operation, the warm track's counterpart of JMH's gc profiler: for every
//! supported cell, after a warm-up, the allocations, bytes allocated and peak live bytes of one
//! operation, averaged over several operations (peak: the largest). Writes
//! `results/warm/alloc.csv` and prints the table.
//!
//! `cargo run --release -p warm --bin alloc [-- --fixtures users-1kb --codecs serde_json,simd-json]`.
//! The operation is `warm::run::Runner`, the very code the criterion benches time; inputs for
//! in-place codecs are copied, and values dropped, outside the counted region. A separate
//! binary, so the counting allocator never slows the timed benches.

use anyhow::{bail, Context, Result};
use clap::Parser;
use codecs::{visit_codecs, AnyCodec, Codec, CodecError, CodecVisitor, Op};
use fixtures::catalog::Fixture;
use fixtures::gate::Document;
use schema::warm_files::{figure_text, AllocRow};
use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use warm::count::{measure, Allocations, CountingAlloc};
use warm::gate::{gate, load_documents, select};
use warm::run::Workload;
use warm::settings;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[derive(Parser, Debug)]
#[command(about = "Allocations per operation for every supported fixture × op × codec")]
struct Options {
    /// Fixtures to count (comma-separated; default: all, corpora only with THAW_CORPORA).
    #[arg(long, value_delimiter = ',')]
    fixtures: Vec<String>,
    /// Codecs to count (comma-separated; default: all).
    #[arg(long, value_delimiter = ',')]
    codecs: Vec<String>,
    /// Ops to count (comma-separated: de, ser; default: both).
    #[arg(long, value_delimiter = ',', value_parser = Op::parse)]
    ops: Vec<Op>,
    /// Operations run before counting (lazy statics, buffers growing to size).
    #[arg(long, default_value_t = 5)]
    warmup: u32,
    /// Operations counted per cell.
    #[arg(long, default_value_t = 20)]
    iterations: u32,
    /// The CSV to write (default: results/warm/alloc.csv at the workspace root).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The classic corpora folder (twitter, citm_catalog, canada) [default: $THAW_CORPORA]. A
    /// relative path is taken from the current folder, else from the workspace root.
    #[arg(long, value_name = "DIR", global = true)]
    corpora: Option<PathBuf>,
}

/// What `iterations` operations of codec `C` allocated, after `warmup` uncounted ones.
fn count_cell<C: Codec>(
    document: &Document,
    op: Op,
    warmup: u32,
    iterations: u32,
) -> Result<Vec<Allocations>, CodecError> {
    let mut workload = Workload::<C>::new(document, op)?;
    for _ in 0..warmup {
        workload.step(op);
    }
    let (inputs, runner) = workload.parts();
    let mut usages = Vec::with_capacity(iterations as usize);
    for _ in 0..iterations {
        let usage = match op {
            Op::De => {
                let mut fresh = inputs.fresh();
                let (value, usage) = measure(|| runner.de(&mut fresh));
                drop(black_box(value));
                usage
            }
            Op::Ser => black_box(measure(|| runner.ser())).1,
        };
        usages.push(usage);
    }
    Ok(usages)
}

type CountFn = fn(&Document, Op, u32, u32) -> Result<Vec<Allocations>, CodecError>;

fn count_fns() -> Vec<(&'static str, CountFn)> {
    struct Collect(Vec<(&'static str, CountFn)>);
    impl CodecVisitor for Collect {
        fn visit<C: Codec + 'static>(&mut self) {
            self.0.push((C::ID, count_cell::<C>));
        }
    }
    let mut all = Collect(Vec::new());
    visit_codecs(&mut all);
    all.0
}

fn main() -> ExitCode {
    match run(parsed()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{}", text::for_terminal(&format!("alloc: {e:#}"), true));
            ExitCode::from(2)
        }
    }
}

/// The command line, parsed; a refusal of it printed as the other commands print theirs, each
/// argument it quotes echoed as every value is (`text::with_args_echoed`), with clap's exit
/// code; help and version printed as clap prints them.
fn parsed() -> Options {
    Options::try_parse().unwrap_or_else(|e| {
        if !e.use_stderr() {
            e.exit()
        }
        let args = std::env::args_os().map(|a| a.to_string_lossy().into_owned());
        eprint!("{}", text::with_args_echoed(&e.render().to_string(), args));
        std::process::exit(e.exit_code())
    })
}

fn run(options: Options) -> Result<ExitCode> {
    if options.iterations == 0 {
        bail!("--iterations must be at least 1");
    }
    let variant = settings::variant()?;
    let seed = fixtures::DEFAULT_SEED;
    let all_fixtures: Vec<&'static Fixture> = fixtures::FIXTURES.iter().collect();
    let fixtures = select("fixture", &all_fixtures, |f| f.name, &options.fixtures)?;
    let codecs = select(
        "codec",
        &codecs::registry(),
        |c: &dyn AnyCodec| c.id(),
        &options.codecs,
    )?;
    let ops = if options.ops.is_empty() {
        vec![Op::De, Op::Ser]
    } else {
        options.ops.clone()
    };
    let corpora = fixtures::catalog::corpora_given(options.corpora.clone());
    let (documents, notes) = load_documents(&fixtures, seed, corpora.as_deref());
    for note in notes {
        eprintln!("{note}");
    }
    let plan = gate(&documents, &codecs, &ops);
    for line in plan.report_lines() {
        eprintln!("{line}");
    }

    let fns = count_fns();
    let mut rows = Vec::new();
    for cell in plan.runnable() {
        let document = documents
            .iter()
            .find(|d| d.fixture.name == cell.fixture)
            .expect("the plan holds only loaded documents");
        let (_, count) = fns
            .iter()
            .find(|(id, _)| *id == cell.codec)
            .expect("every checker has a count function");
        let usages = count(document, cell.op, options.warmup, options.iterations)
            .with_context(|| format!("{}: cannot make the input", cell.id()))?;
        let n = usages.len() as f64;
        rows.push(AllocRow {
            fixture: cell.fixture.to_string(),
            op: cell.op,
            codec: cell.codec.to_string(),
            allocs_per_op: usages.iter().map(|u| u.allocs as f64).sum::<f64>() / n,
            bytes_per_op: usages.iter().map(|u| u.bytes as f64).sum::<f64>() / n,
            peak_live_bytes: usages.iter().map(|u| u.peak_live).max().unwrap_or(0) as f64,
            variant: Some(variant),
        });
    }

    let out = options
        .out
        .clone()
        .unwrap_or_else(|| settings::warm_results().join(schema::warm_files::ALLOC));
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    files::csv_rows::write_rows(&out, &rows)?;
    print_table(&rows);
    eprintln!(
        "alloc: {} cells, {} operations each after {} warm-up, variant {variant}; wrote {}",
        rows.len(),
        options.iterations,
        options.warmup,
        out.display()
    );
    Ok(if plan.refused().next().is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn print_table(rows: &[AllocRow]) {
    let header = [
        "fixture",
        "op",
        "codec",
        "allocs/op",
        "bytes/op",
        "peak live bytes",
    ];
    let cells: Vec<[String; 6]> = rows
        .iter()
        .map(|r| {
            [
                r.fixture.clone(),
                r.op.to_string(),
                r.codec.clone(),
                figure_text(r.allocs_per_op),
                figure_text(r.bytes_per_op),
                figure_text(r.peak_live_bytes),
            ]
        })
        .collect();
    let mut widths = header.map(str::len);
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |row: &[String]| {
        let mut text = String::new();
        for (i, (cell, w)) in row.iter().zip(widths).enumerate() {
            if i < 3 {
                text.push_str(&format!("{cell:<w$}  "));
            } else {
                text.push_str(&format!("{cell:>w$}  "));
            }
        }
        println!("{}", text.trim_end());
    };
    line(&header.map(String::from));
    for row in &cells {
        line(row);
    }
}
