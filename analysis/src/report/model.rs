//! Everything a report says, computed once from the inputs; the renderers only format it.
//! Serialised as-is to summary.json.

use crate::analyze::beside::{beside, Beside};
use crate::analyze::cells::{group, summarize, CellKey, CellSummary, Grouped, StatOptions};
use crate::analyze::coldwarm::{
    break_evens, cost_curves, penalties, BreakEven, Cost, CostCurve, Penalty,
};
use crate::analyze::conformance::{summarize as summarize_conformance, ConformanceSummary};
use crate::analyze::contrasts::{
    adjust, against_reference, between_builds, process_ratios, variant_order, ContrastRow,
    ProcessRatio,
};
use crate::analyze::curve::{CurveOptions, CurveReport};
use crate::analyze::machines::{across, AcrossReport};
use crate::analyze::manifest;
use crate::analyze::noise::{noise, NoiseRow};
use crate::analyze::precision::PrecisionRun;
use crate::analyze::runtimes::Runtimes;
use crate::analyze::warm_measures::{warm_measures, WarmMeasures};
use crate::analyze::warnings::warnings;
use crate::inputs::alloc::AllocRow;
use crate::inputs::conformance::ConformanceRow;
use crate::inputs::criterion::{WarmEstimate, FULL_SAMPLES};
use crate::inputs::curves::Process;
use crate::inputs::machine::Machines;
use crate::inputs::run::Run;
use crate::inputs::warm_gate::GateRow;
use crate::parallel::par_map;
use crate::span::Span;
use crate::stats::quantile::sorted;
use ::answer::form::Answer;
use anyhow::{bail, Result};
use schema::run_folder::{
    CheckEntry, ChildEntry, CodecEntry, Counting, FixtureEntry, InputEntry, Manifest,
};
use schema::{Measure, Style, Variant};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// At most this many points per cell in the strip chart (evenly spaced order statistics).
pub(crate) const STRIP_POINTS: usize = 300;

/// What the report is built from (already read from disk).
pub(crate) struct ReportInputs {
    pub(crate) run: Run,
    pub(crate) warm_dir: PathBuf,
    /// Criterion's estimates and notes; `None` when criterion's folder is absent.
    pub(crate) warm: Option<(Vec<WarmEstimate>, Vec<String>)>,
    pub(crate) alloc_path: PathBuf,
    pub(crate) alloc: Option<(Vec<AllocRow>, Option<String>)>,
    /// The warm gate's decision per cell; `None` when the file is absent.
    pub(crate) warm_gate: Option<(Vec<GateRow>, Option<String>)>,
    pub(crate) conformance_path: PathBuf,
    pub(crate) conformance: Option<(Vec<ConformanceRow>, Option<String>)>,
    /// With a counted run: a timed run whose medians are set beside the counts (`--timed`).
    pub(crate) timed: Option<Run>,
    /// A curve run's processes and the notes of reading them; `None` without curves.csv.
    pub(crate) curves: Option<(Vec<Process>, Vec<String>)>,
}

/// How the statistics are computed.
#[derive(Debug, Clone)]
pub(crate) struct ReportOptions {
    pub(crate) reference: Option<String>,
    pub(crate) resamples: usize,
    pub(crate) level: f64,
    pub(crate) alpha: f64,
    /// Bootstrap seed; the run's seed when `None`.
    pub(crate) seed: Option<u64>,
}

/// The one warm statistic the answer takes, and where it came from: a curve run's in-process
/// steady state, from this run (its folder, start, commit and command), standing where at least
/// 3 processes ran and half of them found one (`CurveCell::steady_stands`).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct WarmStatistic {
    pub(crate) statistic: &'static str,
    pub(crate) rule: &'static str,
    pub(crate) run: String,
    pub(crate) started_utc: Option<String>,
    pub(crate) commit: Option<String>,
    pub(crate) command: Vec<String>,
}

/// Where an optional input came from and whether it was there.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Source {
    pub(crate) path: String,
    pub(crate) present: bool,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Report {
    pub(crate) analysis_version: &'static str,
    pub(crate) run_dir: String,
    /// What the run recorded: `time`, or `instructions` (then each cell's figures are
    /// instructions, and the report's sections are the counted ones).
    pub(crate) measure: Measure,
    /// How the counts were taken (the manifest's `counting`), in a counted run.
    pub(crate) counting: Option<Counting>,
    /// A counted run: the timed run's medians beside the counts, with `--timed`.
    pub(crate) beside: Option<Beside>,
    pub(crate) level: f64,
    pub(crate) alpha: f64,
    pub(crate) resamples: usize,
    pub(crate) seed: u64,
    pub(crate) reference: Option<String>,
    pub(crate) conditions: Vec<(String, String)>,
    pub(crate) codecs: Vec<CodecEntry>,
    /// The child binary of every codec × op × fixture.
    pub(crate) children: Vec<ChildEntry>,
    pub(crate) fixtures: Vec<FixtureEntry>,
    /// The input files the children read.
    pub(crate) inputs: Vec<InputEntry>,
    pub(crate) verification: Vec<CheckEntry>,
    /// The harness floors: the codecs the manifest gives the style `baseline` (one per
    /// runtime). Never compared with the others; drawn grey.
    #[serde(skip)]
    pub(crate) baselines: BTreeSet<String>,
    /// The runtimes of the run's codecs, Rust first, each with its floor: how the report
    /// groups codecs, and what each codec's over floor is measured from.
    pub(crate) runtimes: Runtimes,
    pub(crate) planned: usize,
    pub(crate) samples: usize,
    pub(crate) cells: Vec<CellSummary>,
    pub(crate) contrasts: Vec<ContrastRow>,
    /// Each codec's process over its floor against the reference's: the second headline
    /// figure's ratio.
    pub(crate) process_ratios: Vec<ProcessRatio>,
    /// The run's build variants in the order their ratios are taken (the first the
    /// denominator); one or none when the run has a single build.
    pub(crate) variant_order: Vec<Variant>,
    /// Each cell's later build against its first (native / portable), paired within blocks.
    pub(crate) variant_contrasts: Vec<ContrastRow>,
    /// How noisy the machine was: each floor's spread and drift (empty in a counted run).
    pub(crate) noise: Vec<NoiseRow>,
    /// A run merged from shards (`analysis merge`): its machines and, with several, each
    /// ratio to the reference per machine and pooled, with the machines' disagreement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) machines: Option<AcrossReport>,
    /// With `cold run --precision`: the rule, why the run stopped, and how many of the rule's
    /// intervals this report finds within the target.
    pub(crate) precision_run: Option<PrecisionRun>,
    pub(crate) warm_source: Source,
    pub(crate) warm: Vec<WarmEstimate>,
    /// The warm gate's decisions, for cells without a warm figure (unsupported, refused).
    pub(crate) warm_gate: Vec<GateRow>,
    pub(crate) penalties: Vec<Penalty>,
    pub(crate) curves: Vec<CostCurve>,
    pub(crate) break_evens: Vec<BreakEven>,
    /// The break-evens of the process over its floor (the second headline figure).
    pub(crate) process_break_evens: Vec<BreakEven>,
    /// The answer the report leads with: per fixture × op (× build), the cheapest codec from
    /// which number of operations (the `answer` crate's, as `cold run` ended with it); none for a
    /// counted run.
    pub(crate) answers: Vec<Answer>,
    /// The answer's warm figure and its source (a curve run's own steady state).
    pub(crate) warm_statistic: Option<WarmStatistic>,
    /// Criterion's warm figure, the fastest sample and a curve's steady state, per cell, beside
    /// each other.
    pub(crate) warm_measures: Vec<WarmMeasures>,
    /// A curve run's figures (`cold run --curve N`); absent from summary.json otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) curve: Option<CurveReport>,
    pub(crate) alloc_source: Source,
    pub(crate) alloc: Option<Vec<AllocRow>>,
    pub(crate) conformance_source: Source,
    pub(crate) conformance: Option<Vec<ConformanceSummary>>,
    /// Conformance rows judged incorrect, for the details list.
    pub(crate) conformance_failures: Vec<ConformanceRow>,
    pub(crate) warnings: Vec<String>,
    /// Things read or skipped that a careful reader may want to know.
    pub(crate) notes: Vec<String>,
    pub(crate) manifest: Option<Manifest>,
    /// init_plus_ops values per cell for the strip chart (thinned to STRIP_POINTS).
    #[serde(skip)]
    pub(crate) strips: BTreeMap<CellKey, Vec<f64>>,
}

impl Report {
    /// The size of the child that ran `key`: its entry in the manifest's children.
    pub(crate) fn child_bytes(&self, key: &CellKey) -> Option<u64> {
        self.children
            .iter()
            .find(|c| {
                c.codec == key.codec
                    && c.op == key.op
                    && c.fixture == key.fixture
                    && c.variant == key.variant
            })
            .map(|c| c.bytes)
    }

    /// How `codec`'s `ser` hands its output over, when the manifest says.
    pub(crate) fn output_of(&self, codec: &str) -> Option<schema::OutputMode> {
        Some(self.codecs.iter().find(|c| c.id == codec)?.output)
    }

    /// How far a cell's process sits above its own runtime's floor for the same fixture, op,
    /// batch and variant, with the input building taken out of both: the median of (wall −
    /// fixture) minus the floor's. `None` for a floor itself, or when its runtime has none.
    pub(crate) fn over_floor(&self, key: &CellKey) -> Option<f64> {
        if self.is_baseline(&key.codec) {
            return None;
        }
        let own = self.cell(key)?.process.as_ref()?.median;
        let floor = self.runtimes.floor_of(&key.codec)?;
        let floor = self.cell(&key.with_codec(floor))?.process.as_ref()?.median;
        Some(own - floor)
    }

    pub(crate) fn process_ratio(&self, key: &CellKey) -> Option<&ProcessRatio> {
        self.process_ratios.iter().find(|c| &c.key == key)
    }

    pub(crate) fn contrast(&self, key: &CellKey) -> Option<&ContrastRow> {
        self.contrasts.iter().find(|c| &c.key == key)
    }

    /// The comparison of `key`'s build with the run's first build (`key` of a later variant).
    pub(crate) fn variant_contrast(&self, key: &CellKey) -> Option<&ContrastRow> {
        self.variant_contrasts.iter().find(|c| &c.key == key)
    }

    pub(crate) fn cell(&self, key: &CellKey) -> Option<&CellSummary> {
        self.cells.iter().find(|c| &c.key == key)
    }

    /// Whether `codec` is the harness floor rather than a library.
    pub(crate) fn is_baseline(&self, codec: &str) -> bool {
        self.baselines.contains(codec)
    }

    /// Whether the run's cells are of more than one build variant.
    pub(crate) fn has_variants(&self) -> bool {
        self.cells
            .iter()
            .any(|c| c.key.variant != self.cells[0].key.variant)
    }

    /// The cells in the order the report's tables list them: by fixture, op, variant and
    /// batch, then grouped by runtime (Rust first), each runtime's codecs in the manifest's
    /// order.
    pub(crate) fn cells_in_order(&self) -> Vec<&CellSummary> {
        let mut cells: Vec<&CellSummary> = self.cells.iter().collect();
        cells.sort_by_cached_key(|c| {
            let k = &c.key;
            (
                (k.fixture.clone(), k.op, k.variant, k.batch),
                self.runtimes.rank(&k.codec),
                k.codec.clone(),
            )
        });
        cells
    }
}

/// Evenly spaced order statistics of `values`, at most `k` of them (all when fewer).
fn thin(values: &[f64], k: usize) -> Vec<f64> {
    let s = sorted(values);
    if s.len() <= k || k < 2 {
        return s;
    }
    (0..k)
        .map(|i| s[(i * (s.len() - 1) + (k - 1) / 2) / (k - 1)])
        .collect()
}

/// Everything a report says, computed from what was read: the cold run's figures, the warm
/// side set beside them, a curve run's figures, and what the reader is warned of and told.
pub(crate) fn build(inputs: ReportInputs, opts: &ReportOptions) -> Result<Report> {
    let run = inputs.run;
    let manifest = run.manifest.as_ref();
    let baselines = baselines_of(manifest);
    let mut notes = run.notes.clone();
    notes.extend(manifest.iter().flat_map(|m| m.notes.iter().cloned()));
    let reference = reference(opts.reference.as_ref(), &run.samples.codecs(), &mut notes)?;
    let seed = opts.seed.or(manifest.map(|m| m.settings.seed)).unwrap_or(0);
    if let Some(t) = &inputs.timed {
        check_timed(&run, t)?;
        notes.extend(t.notes.iter().map(|n| format!("The timed run: {n}")));
    }
    // the codec the others are compared with, and the floors, compared with none
    let against = (reference.as_deref(), &baselines);
    let cold = cold_figures(&run, inputs.timed.as_ref(), against, seed, opts);
    let cells = cold.cells;

    let (warm, warm_present) = warm_of(inputs.warm, &cells, &mut notes);
    let penalties = penalties(&cells, &warm);
    let floor_of = |codec: &str| cold.runtimes.floor_of(codec).map(String::from);
    let (curves, break_evens, process_break_evens) =
        break_evens_of(&cells, &warm, &baselines, &floor_of, opts.level);
    let warm_gate = with_note(inputs.warm_gate, &mut notes).unwrap_or_default();
    let alloc = with_note(inputs.alloc, &mut notes);
    let (conformance, conformance_failures) = conformance_of(inputs.conformance, &mut notes);
    let processes = inputs.curves.as_ref().map(|(p, _)| p.as_slice());
    let lineup = manifest.map_or_else(answer::Lineup::default, |m| answer::Lineup::of(&m.codecs));
    let answers = answers_of(&run, processes, &lineup, seed, opts);
    let curve = curve_of(inputs.curves, against, &warm, (seed, opts), &mut notes);
    let warnings = warnings_of(&run, &cells, &warm, curve.as_ref());
    let warm_measures = warm_measures(
        &warm,
        curve.as_ref().map_or(&[][..], |c| &c.cells),
        |codec| baselines.contains(codec),
    );
    let m = run.manifest;
    Ok(Report {
        analysis_version: env!("CARGO_PKG_VERSION"),
        run_dir: run.dir.display().to_string(),
        measure: run.measure,
        counting: m.as_ref().and_then(|m| m.counting.clone()),
        beside: cold.beside,
        level: opts.level,
        alpha: opts.alpha,
        resamples: opts.resamples,
        seed,
        reference,
        conditions: m.as_ref().map_or_else(Vec::new, manifest::conditions),
        codecs: m.as_ref().map_or_else(Vec::new, |m| m.codecs.clone()),
        children: m.as_ref().map_or_else(Vec::new, |m| m.children.clone()),
        fixtures: m.as_ref().map_or_else(Vec::new, |m| m.fixtures.clone()),
        inputs: m.as_ref().map_or_else(Vec::new, |m| m.inputs.clone()),
        verification: m.as_ref().map_or_else(Vec::new, |m| m.verification.clone()),
        baselines,
        runtimes: cold.runtimes,
        planned: run.plan.len(),
        samples: run.samples.len(),
        cells,
        contrasts: cold.contrasts,
        process_ratios: cold.process_ratios,
        variant_order: cold.variant_order,
        variant_contrasts: cold.variant_contrasts,
        noise: cold.noise,
        machines: cold.machines,
        precision_run: cold.precision_run,
        warm_source: source(&inputs.warm_dir, warm_present),
        warm,
        warm_gate,
        penalties,
        curves,
        break_evens,
        process_break_evens,
        answers,
        warm_statistic: curve.as_ref().map(|_| WarmStatistic {
            statistic: "the curve's in-process steady state per operation (the median across processes of each one's last segment)",
            rule: "stands where at least 3 processes ran the cell's curve and at least half found a steady state",
            run: run.dir.display().to_string(),
            started_utc: m.as_ref().map(|m| m.started_utc.clone()),
            commit: m.as_ref().and_then(|m| m.commit.clone()),
            command: m.as_ref().map_or_else(Vec::new, |m| m.command_line.clone()),
        }),
        warm_measures,
        curve,
        alloc_source: source(&inputs.alloc_path, alloc.is_some()),
        alloc,
        conformance_source: source(&inputs.conformance_path, conformance.is_some()),
        conformance,
        conformance_failures,
        warnings,
        // 20,000 junk results make 20,000 notes: the first are shown, the rest counted
        notes: text::clip_list(notes, "notes"),
        manifest: m,
        strips: cold.strips,
    })
}

/// What the cold run says on its own, before the warm side is set beside it.
struct ColdFigures {
    cells: Vec<CellSummary>,
    runtimes: Runtimes,
    beside: Option<Beside>,
    variant_order: Vec<Variant>,
    contrasts: Vec<ContrastRow>,
    variant_contrasts: Vec<ContrastRow>,
    process_ratios: Vec<ProcessRatio>,
    noise: Vec<NoiseRow>,
    machines: Option<AcrossReport>,
    precision_run: Option<PrecisionRun>,
    strips: BTreeMap<CellKey, Vec<f64>>,
}

/// The cold run's figures: its cells, their contrasts with the reference and between builds,
/// the noise, the machines, the precision reached and the strips; the `timed` run's medians
/// beside a counted run's cells.
fn cold_figures(
    run: &Run,
    timed: Option<&Run>,
    (reference, baselines): (Option<&str>, &BTreeSet<String>),
    seed: u64,
    opts: &ReportOptions,
) -> ColdFigures {
    let manifest = run.manifest.as_ref();
    let stat = StatOptions {
        resamples: opts.resamples,
        level: opts.level,
        seed,
    };
    let grouped = group(run.measure, &run.samples, &run.plan);
    let cells = summarize(&grouped, stat);
    let runtimes = Runtimes::of(
        manifest.map_or(&[][..], |m| &m.codecs),
        &cells.iter().map(|c| c.key.codec.as_str()).collect(),
        manifest.and_then(|m| m.rustc.as_deref()),
    );
    let beside = timed.map(|t| beside(&cells, &t.samples, &t.dir.display().to_string()));
    let present: BTreeSet<Variant> = cells.iter().map(|c| c.key.variant).collect();
    let variant_order = variant_order(manifest.map_or(&[][..], |m| &m.settings.variants), &present);
    let (contrasts, variant_contrasts) =
        contrasts_of(&grouped, reference, baselines, &variant_order, opts);
    let floors: BTreeMap<String, String> = runtimes
        .0
        .iter()
        .filter_map(|r| Some((r.floor.clone()?, r.name.clone())))
        .collect();
    let noise = noise(&grouped, &floors);
    let machines = machines_of(run, &grouped, &contrasts, &noise, &runtimes, opts);
    let floor_of = |codec: &str| runtimes.floor_of(codec).map(String::from);
    let process_ratios = reference.map_or_else(Vec::new, |r| {
        process_ratios(&cells, r, baselines, &floor_of, opts.level)
    });
    let precision_run = manifest.and_then(|m| {
        let rule = m.settings.stopping.as_ref()?;
        let per_cell = Some(m.settings.samples_per_cell);
        Some(PrecisionRun::of(
            rule, per_cell, &cells, &contrasts, reference, baselines,
        ))
    });
    ColdFigures {
        strips: strips_of(&grouped, run.measure),
        cells,
        runtimes,
        beside,
        variant_order,
        contrasts,
        variant_contrasts,
        process_ratios,
        noise,
        machines,
        precision_run,
    }
}

/// The cells across the machines of a run merged from shards, where the measure's report has
/// the Machines section.
fn machines_of(
    run: &Run,
    grouped: &Grouped,
    contrasts: &[ContrastRow],
    noise: &[NoiseRow],
    runtimes: &Runtimes,
    opts: &ReportOptions,
) -> Option<AcrossReport> {
    let shown = sections_of(run.measure).contains(&Section::Machines);
    let manifest = run.manifest.as_ref();
    manifest.and_then(Machines::of).filter(|_| shown).map(|m| {
        let probe = crate::analyze::noise::PROBE;
        let floor_keys: Vec<CellKey> = noise.iter().map(|n| n.key.clone()).collect();
        across(
            grouped,
            m,
            contrasts,
            &floor_keys,
            (probe, runtimes.floor_of(probe)),
            opts.level,
            opts.alpha,
        )
    })
}

/// The warm estimates and whether the warm folder was there, their reader's notes kept (and one
/// when they are all for builds this run does not have).
fn warm_of(
    read: Option<(Vec<WarmEstimate>, Vec<String>)>,
    cells: &[CellSummary],
    notes: &mut Vec<String>,
) -> (Vec<WarmEstimate>, bool) {
    match read {
        Some((warm, read_notes)) => {
            notes.extend(read_notes);
            notes.extend(warm_variant_note(cells, &warm));
            (warm, true)
        }
        None => (Vec::new(), false),
    }
}

/// What an optional input held, its reader's note kept.
fn with_note<T>(read: Option<(T, Option<String>)>, notes: &mut Vec<String>) -> Option<T> {
    read.map(|(rows, note)| {
        notes.extend(note);
        rows
    })
}

/// A curve run's figures, its reader's notes kept; `None` without curves.csv.
fn curve_of(
    read: Option<(Vec<Process>, Vec<String>)>,
    (reference, baselines): (Option<&str>, &BTreeSet<String>),
    warm: &[WarmEstimate],
    (seed, opts): (u64, &ReportOptions),
    notes: &mut Vec<String>,
) -> Option<CurveReport> {
    read.map(|(processes, read_notes)| {
        notes.extend(read_notes);
        crate::analyze::curve::analyze(
            &processes,
            &CurveOptions {
                reference,
                baselines,
                warm,
                level: opts.level,
                resamples: opts.resamples,
                seed,
            },
        )
    })
}

/// The run's answer: from its curves in a curve run, else from its samples at each batch, drawn
/// as the report's other intervals are (its seed and resamples); none for a counted run.
pub(crate) fn answers_of(
    run: &Run,
    processes: Option<&[Process]>,
    lineup: &answer::Lineup,
    seed: u64,
    opts: &ReportOptions,
) -> Vec<Answer> {
    if run.measure != Measure::Time {
        return Vec::new();
    }
    let draws = answer::Draws {
        resamples: opts.resamples,
        seed,
    };
    match processes {
        Some(ps) => answer::from_curves(&answer_curves(ps), lineup, draws),
        None => answer::from_batches(&run.samples, lineup, draws),
    }
}

/// A curve run's processes as the answer reads them: per cell, each process's block and costs.
fn answer_curves(processes: &[Process]) -> Vec<answer::Curve> {
    answer::group(processes.iter().map(|p| {
        (
            p.key.clone(),
            p.block,
            p.ops.as_slice(),
            p.cost_ns.as_slice(),
        )
    }))
}

/// Where an optional input was looked for, and whether it was there.
fn source(path: &std::path::Path, present: bool) -> Source {
    Source {
        path: path.display().to_string(),
        present,
    }
}

/// The codecs the manifest marks as a runtime's floor rather than a library.
pub(crate) fn baselines_of(manifest: Option<&Manifest>) -> BTreeSet<String> {
    manifest
        .map_or(&[][..], |m| &m.codecs)
        .iter()
        .filter(|c| c.style == Style::Baseline)
        .map(|c| c.id.clone())
        .collect()
}

/// The paired contrasts against the reference and between builds, adjusted together for
/// multiple comparisons.
fn contrasts_of(
    grouped: &Grouped,
    reference: Option<&str>,
    baselines: &BTreeSet<String>,
    variant_order: &[Variant],
    opts: &ReportOptions,
) -> (Vec<ContrastRow>, Vec<ContrastRow>) {
    let mut variant_contrasts =
        between_builds(grouped, variant_order, Span::InitPlusOps, opts.level);
    let mut contrasts = match reference {
        Some(r) => against_reference(grouped, r, baselines, Span::InitPlusOps, opts.level),
        None => Vec::new(),
    };
    adjust([&mut contrasts, &mut variant_contrasts], opts.alpha);
    (contrasts, variant_contrasts)
}

/// Each cell's library costs, thinned to at most [`STRIP_POINTS`] for its strip chart.
fn strips_of(grouped: &Grouped, measure: Measure) -> BTreeMap<CellKey, Vec<f64>> {
    let cells_in_order: Vec<&CellKey> = grouped.cells.keys().collect();
    cells_in_order
        .iter()
        .map(|k| (*k).clone())
        .zip(par_map(&cells_in_order, |k| {
            thin(
                &Span::InitPlusOps.values(measure, grouped.cells[*k]),
                STRIP_POINTS,
            )
        }))
        .collect()
}

/// The library's cost curves cold against warm, and where each codec's curve and its
/// process's cross the reference's (the break-evens).
fn break_evens_of(
    cells: &[CellSummary],
    warm: &[WarmEstimate],
    baselines: &BTreeSet<String>,
    floor_of: &dyn Fn(&str) -> Option<String>,
    level: f64,
) -> (Vec<CostCurve>, Vec<BreakEven>, Vec<BreakEven>) {
    let curves = cost_curves(cells, warm, Cost::Library, floor_of);
    let library = break_evens(&curves, baselines, level);
    let process_curves = cost_curves(cells, warm, Cost::Process, floor_of);
    let process = crate::analyze::coldwarm::break_evens(&process_curves, baselines, level);
    (curves, library, process)
}

/// The conformance table's summary and its failures, its reader's note kept.
fn conformance_of(
    read: Option<(Vec<ConformanceRow>, Option<String>)>,
    notes: &mut Vec<String>,
) -> (Option<Vec<ConformanceSummary>>, Vec<ConformanceRow>) {
    let Some(rows) = with_note(read, notes) else {
        return (None, Vec::new());
    };
    let fails = rows.iter().filter(|r| !r.correct).cloned().collect();
    (Some(summarize_conformance(&rows)), fails)
}

/// What a reader must be told first: the run's state, short warm runs, the measure's own
/// warnings and the curve's.
fn warnings_of(
    run: &Run,
    cells: &[CellSummary],
    warm: &[WarmEstimate],
    curve: Option<&CurveReport>,
) -> Vec<String> {
    let mut out = warnings(
        run.manifest.as_ref(),
        run.plan.len(),
        run.samples.len(),
        run.writing.as_deref(),
        cells,
    );
    out.extend(short_warm_runs(warm));
    out.extend(crate::analyze::warm_size::warning(warm));
    out.extend(crate::analyze::warnings::of_measure(run.measure, cells));
    out.extend(curve.into_iter().flat_map(crate::analyze::curve::warnings));
    out
}

/// The codec every other is compared with: the one asked for (which must be in the run), or
/// the first of the default references the run has; a note says when there is none.
fn reference(
    wanted: Option<&String>,
    codecs_in_run: &BTreeSet<&str>,
    notes: &mut Vec<String>,
) -> Result<Option<String>> {
    Ok(match wanted {
        Some(r) if codecs_in_run.contains(r.as_str()) => Some(r.clone()),
        Some(r) => bail!(
            "--reference {r}: no such codec in this run; valid values: {}",
            codecs_in_run.iter().copied().collect::<Vec<_>>().join(", ")
        ),
        None => {
            let ids: Vec<&str> = codecs_in_run.iter().copied().collect();
            let found = schema::words::default_reference(&ids).map(str::to_string);
            if found.is_none() {
                notes.push(format!(
                    "None of {} in this run, so no codec is compared against a reference (pass --reference).",
                    schema::words::DEFAULT_REFERENCES.join(", ")
                ));
            }
            found
        }
    })
}

/// Refuses a `--timed` run unless this run is counted and that one is timed.
fn check_timed(run: &Run, t: &Run) -> Result<()> {
    if run.measure == Measure::Time || t.measure != Measure::Time {
        bail!(
            "--timed {}: sets a timed run beside a counted one, but {} is {} and {} is {}",
            t.dir.display(),
            run.dir.display(),
            run.measure.run_words(),
            t.dir.display(),
            t.measure.run_words()
        );
    }
    Ok(())
}

/// A note when the warm results are all for builds this run does not have.
fn warm_variant_note(cells: &[CellSummary], warm: &[WarmEstimate]) -> Option<String> {
    let cold_variants: BTreeSet<Option<Variant>> =
        cells.iter().map(|c| Some(c.key.variant)).collect();
    let warm_variants: BTreeSet<Option<Variant>> = warm.iter().map(|w| w.variant).collect();
    if !warm.is_empty()
        && cold_variants.is_disjoint(&warm_variants)
        && !warm_variants.contains(&None)
    {
        let names = |v: &BTreeSet<Option<Variant>>| {
            v.iter()
                .flatten()
                .map(|v| v.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Some(format!(
            "The warm results are for variant(s) {} but this run is {}: no cold/warm comparison.",
            names(&warm_variants),
            names(&cold_variants)
        ));
    }
    None
}

/// A warning when warm figures come from short criterion runs (a quick pass), which are a first
/// look rather than figures to publish.
fn short_warm_runs(warm: &[WarmEstimate]) -> Option<String> {
    let short = warm
        .iter()
        .filter(|w| w.criterion_samples.is_some_and(|n| n < FULL_SAMPLES))
        .count();
    (short > 0).then(|| {
        format!(
            "{short} of {} warm figures come from short criterion runs (fewer than {FULL_SAMPLES} samples, as `THAW_WARM=quick` takes): a first look, not figures to publish; `cargo bench -p warm` gives criterion's full statistics.",
            warm.len()
        )
    })
}

/// A section of the report after its introduction and warnings; the run's measure lists which
/// ([`sections_of`]; each renders itself in `report::sections`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Section {
    Headline,
    Runtimes,
    HowToRead,
    Charts,
    AgainstReference,
    Variants,
    Machines,
    Precision,
    Noise,
    ColdWarm,
    /// Criterion's warm figure, the fastest sample and a curve's steady state, beside each other.
    WarmMeasures,
    /// A curve run's cost curve (nothing without curves.csv).
    Curve,
    PerCell,
    Counts,
    TimingSkipped,
    Allocations,
    Conformance,
    Conditions,
    Notes,
}

/// The report's sections after the introduction and the warnings, in order, for a run of
/// `measure`.
pub(crate) fn sections_of(measure: Measure) -> &'static [Section] {
    use Section::*;
    match measure {
        Measure::Time => &[
            Headline,
            Runtimes,
            HowToRead,
            Charts,
            AgainstReference,
            Variants,
            Machines,
            Precision,
            Noise,
            ColdWarm,
            WarmMeasures,
            Curve,
            PerCell,
            Allocations,
            Conformance,
            Conditions,
            Notes,
        ],
        Measure::Instructions => &[
            Counts,
            TimingSkipped,
            Allocations,
            Conformance,
            Conditions,
            Notes,
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_keeps_extremes() {
        let v: Vec<f64> = (0..1000).map(f64::from).collect();
        let t = thin(&v, 11);
        assert_eq!(t.len(), 11);
        assert_eq!((t[0], t[10]), (0.0, 999.0));
        assert_eq!(thin(&[3.0, 1.0], 5), vec![1.0, 3.0]);
    }

    fn estimate(samples: Option<usize>) -> WarmEstimate {
        WarmEstimate {
            fixture: "users-2kb".into(),
            op: schema::Op::De,
            codec: "serde_json".into(),
            variant: Some(Variant::PORTABLE),
            median_ns: 4000.0,
            lo_ns: 3900.0,
            hi_ns: 4100.0,
            criterion_samples: samples,
            fastest: None,
            forks: None,
            allocator: None,
            size_effects: Vec::new(),
        }
    }

    #[test]
    fn short_warm_runs_are_counted_and_full_ones_are_not() {
        assert_eq!(
            short_warm_runs(&[estimate(Some(100)), estimate(None)]),
            None
        );
        let said = short_warm_runs(&[estimate(Some(10)), estimate(Some(100)), estimate(Some(10))])
            .unwrap();
        assert!(said.starts_with("2 of 3 warm figures"), "{said}");
    }
}
