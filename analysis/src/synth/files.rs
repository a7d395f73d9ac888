//! The files of a synthetic run besides its samples: the manifest `cold run` would write, and
//! the warm side (criterion estimates, allocation and conformance tables) consistent with it.

use super::models::{CostModel, MODELS};
use super::options::{scale, SynthOptions, BATCHES, FIXTURE};
use crate::inputs::alloc::AllocRow;
use crate::inputs::conformance::ConformanceRow;
use crate::inputs::criterion::WarmEstimate;
use schema::conformance_file::{Expected, Outcome};
use schema::rows::PlanRow;
use schema::run_folder::{
    CheckEntry, CheckStatus, ChildEntry, CodecEntry, Counting, FixtureEntry, Machine, Manifest,
    Settings, Stopping, VariantEntry,
};
use schema::{Drops, Op, OutputMode, Style, Variant};

/// The warm side of a synthetic run, consistent with its cost models: criterion estimates per
/// codec, op and variant, an allocation table and a small conformance table.
pub(super) fn warm_side(
    opts: &SynthOptions,
    variants: &[Variant],
) -> (Vec<WarmEstimate>, Vec<AllocRow>, Vec<ConformanceRow>) {
    let mut warm = Vec::new();
    let mut alloc = Vec::new();
    let mut conformance = Vec::new();
    for m in MODELS {
        let id = m.id;
        let k = scale(opts, id);
        for (op, per) in [(Op::De, m.de_per_op * k), (Op::Ser, m.ser_per_op * k)] {
            if per == 0.0 {
                continue;
            }
            for &variant in variants {
                let per = if variant == Variant::NATIVE {
                    per * m.native
                } else {
                    per
                };
                warm.push(WarmEstimate {
                    fixture: FIXTURE.into(),
                    op,
                    codec: id.into(),
                    variant: Some(variant),
                    median_ns: per,
                    lo_ns: per * 0.99,
                    hi_ns: per * 1.01,
                    criterion_samples: Some(crate::inputs::criterion::FULL_SAMPLES),
                    fastest: None,
                    forks: None,
                    allocator: None,
                    size_effects: Vec::new(),
                });
            }
            alloc.push(alloc_row(m, id, op, per));
        }
        if m.style == Style::Baseline {
            continue;
        }
        conformance.extend(conformance_rows(id));
    }

    (warm, alloc, conformance)
}

/// The allocation row of codec `id` (cost model `m`) for `op` at `per` ns per operation: none for
/// a floor, else a count, bytes and peak that grow with its time.
fn alloc_row(m: &CostModel, id: &str, op: Op, per: f64) -> AllocRow {
    let baseline = m.style == Style::Baseline;
    let of = |v: f64| if baseline { 0.0 } else { v.round() };
    AllocRow {
        fixture: FIXTURE.into(),
        op,
        codec: id.into(),
        variant: None,
        allocs_per_op: of(per / 40.0),
        bytes_per_op: of(per * 1.5),
        peak_live_bytes: of(per * 2.0),
    }
}

/// Three conformance cases of codec `id`: nanoserde accepts a trailing comma, every other codec
/// is right.
fn conformance_rows(id: &str) -> Vec<ConformanceRow> {
    [
        ("y_ok.json", Expected::Accept),
        ("n_trailing_comma.json", Expected::Reject),
        ("i_big_number.json", Expected::Either),
    ]
    .into_iter()
    .map(|(file, expected)| {
        let lax = file.starts_with('n') && id.starts_with("nanoserde");
        let outcome = if expected != Expected::Reject || lax {
            Outcome::Accepted
        } else {
            Outcome::Rejected
        };
        ConformanceRow {
            codec: id.into(),
            file: file.into(),
            expected,
            outcome,
            correct: !lax,
            detail: lax.then(|| "accepted a trailing comma".to_string()),
        }
    })
    .collect()
}

/// The manifest of a synthetic run: what `cold run` would record, with every machine and build
/// field marked synthetic.
pub(super) fn manifest(
    opts: &SynthOptions,
    variants: &[Variant],
    stopping: Option<Stopping>,
    n_cells: usize,
    blocks: u32,
    plan: &[PlanRow],
) -> Manifest {
    let command_line = command_line(opts, variants, stopping.as_ref());
    Manifest {
        synthetic: true,
        thaw_version: env!("CARGO_PKG_VERSION").to_string(),
        commit: Some("synthetic".into()),
        command_line,
        settings: settings(opts, variants, stopping, blocks),
        machine: machine(opts),
        rustc: Some("synthetic".into()),
        cells: n_cells,
        samples_planned: plan.len(),
        samples_written: None,
        codecs: codec_entries(),
        children: child_entries(variants),
        fixtures: vec![FixtureEntry {
            name: FIXTURE.into(),
            bytes: 2048,
            sha256: "0".repeat(64),
            file: format!("fixtures/{FIXTURE}.json"),
        }],
        inputs: Vec::new(),
        counting: (opts.measure.quantity() != schema::phases::Quantity::Ns).then(|| Counting {
            valgrind: "synthetic".into(),
            tool: "callgrind".into(),
            options: Vec::new(),
            alloc_library: "synthetic".into(),
            alloc_library_sha256: "0".repeat(64),
        }),
        cold_cache_check: None,
        started_utc: "1970-01-01T00:00:00Z".into(),
        resumed_utc: Vec::new(),
        stopped_utc: Vec::new(),
        finished: true,
        finished_utc: Some("1970-01-01T00:00:00Z".into()),
        unsupported: Vec::new(),
        verification: verification_entries(),
        preflight: Vec::new(),
        excluded: Vec::new(),
        notes: Vec::new(),
        shards: Vec::new(),
    }
}

/// The synthetic run's settings: `blocks` blocks of every model's cells in each of `variants`.
fn settings(
    opts: &SynthOptions,
    variants: &[Variant],
    stopping: Option<Stopping>,
    blocks: u32,
) -> Settings {
    let children_dir = |v: Variant| format!("synthetic/{v}");
    let codecs: Vec<String> = MODELS.iter().map(|m| m.id.to_string()).collect();
    Settings {
        seed: opts.seed,
        plan_seed: opts.seed,
        samples_per_cell: blocks,
        codecs,
        ops: vec![Op::Ser, Op::De],
        batches: BATCHES.to_vec(),
        fixtures: vec![FIXTURE.into()],
        variants: variants
            .iter()
            .map(|&variant| VariantEntry::new(variant, "rust", children_dir(variant)))
            .collect(),
        pinning: Some("none".into()),
        cold_cache: false,
        timeout_secs: 10.0,
        memory_limit_mib: 8192,
        drops: Drops::End,
        child_env: Vec::new(),
        measure: opts.measure,
        stopping,
        shard: opts.shard,
        curve: None,
    }
}

/// The machine the synthetic run says it ran on (`--machine` names its CPU).
fn machine(opts: &SynthOptions) -> Machine {
    Machine {
        cpu_model: Some(
            opts.machine
                .clone()
                .unwrap_or_else(|| "synthetic CPU".into()),
        ),
        cpu_flags: String::new(),
        cores: 2,
        kernel: Some("synthetic".into()),
        virtualization: None,
        containment: None,
    }
}

/// The `analysis synth` command line that makes these files.
fn command_line(
    opts: &SynthOptions,
    variants: &[Variant],
    stopping: Option<&Stopping>,
) -> Vec<String> {
    let mut command_line: Vec<String> = vec!["analysis".into(), "synth".into()];
    match (opts.precision, stopping) {
        (Some(p), Some(rule)) => command_line.extend([
            "--precision".into(),
            p.to_string(),
            "--max-samples".into(),
            rule.max_blocks.to_string(),
        ]),
        _ => command_line.extend(["--samples".into(), opts.samples.to_string()]),
    }
    command_line.extend([
        "--seed".into(),
        opts.seed.to_string(),
        "--measure".into(),
        opts.measure.to_string(),
    ]);
    if variants.len() > 1 {
        command_line.extend([
            "--variants".into(),
            variants
                .iter()
                .map(|v| v.name())
                .collect::<Vec<_>>()
                .join(","),
        ]);
    }
    if let Some(shard) = opts.shard {
        command_line.extend(["--shard".into(), shard.to_string()]);
    }
    if let Some(name) = &opts.machine {
        command_line.extend(["--machine".into(), name.clone()]);
    }
    command_line
}

/// Each build's child of each model and op it supports.
fn child_entries(variants: &[Variant]) -> Vec<ChildEntry> {
    variants
        .iter()
        .flat_map(|&variant| {
            MODELS.iter().flat_map(move |m| {
                [Op::De, Op::Ser]
                    .into_iter()
                    .filter(|&op| op == Op::De || m.can_ser())
                    .map(move |op| child(m, op, variant))
            })
        })
        .collect()
}

/// One codec entry per synthetic model.
fn codec_entries() -> Vec<CodecEntry> {
    MODELS
        .iter()
        .map(|m| CodecEntry {
            id: m.id.into(),
            library: m.id.trim_end_matches("-value").into(),
            version: "0.0.0-synthetic".into(),
            style: m.style,
            output: OutputMode::ReusedBuffer,
            runtime: None,
            runtime_version: None,
            pair: None,
            floor: None,
        })
        .collect()
}

/// Every model's gate check, `ser` unsupported where the model has no serializer.
fn verification_entries() -> Vec<CheckEntry> {
    MODELS
        .iter()
        .flat_map(|m| {
            [Op::De, Op::Ser].map(|op| {
                let unsupported = op == Op::Ser && !m.can_ser();
                CheckEntry {
                    variant: None,
                    codec: m.id.into(),
                    fixture: FIXTURE.into(),
                    op,
                    status: if unsupported {
                        CheckStatus::Unsupported
                    } else {
                        CheckStatus::Pass
                    },
                    detail: if unsupported { "no serializer" } else { "" }.into(),
                }
            })
        })
        .collect()
}

/// The synthetic child of `m`'s `op` in `variant`: its size the model's, a native build 8 KiB
/// larger (so the two read apart).
fn child(m: &CostModel, op: Op, variant: Variant) -> ChildEntry {
    let target = if m.style == Style::Baseline {
        "any"
    } else if m.style == Style::Dom {
        "dom"
    } else {
        "users"
    };
    let extra = if variant == Variant::NATIVE { 8 } else { 0 };
    ChildEntry {
        codec: m.id.into(),
        op,
        fixture: FIXTURE.into(),
        binary: format!("child-{}-{op}-{target}", m.id),
        path: format!("synthetic/{variant}/child-{}-{op}-{target}", m.id),
        bytes: (m.child_kib + extra) * 1024,
        sha256: "0".repeat(64),
        variant,
        learned: None,
        files: Vec::new(),
        archive: None,
    }
}
