//! How the gated cells are handed to criterion: one group per `<fixture>/<op>` with the
//! document's length as its throughput (so criterion prints MB/s), one function per codec, so
//! every bench's full id is `<fixture>/<op>/<codec>`.
//!
//! `de` runs through `iter_batched_ref`: inputs are made (copied, for codecs that parse in
//! place) before the timed batch and every value is dropped after it, for every codec alike,
//! so input copies and drops stay outside the timed region. `ser` runs through `iter` into the
//! one reused buffer. Not for anything but wiring: the operation itself is `run::Runner`.

use crate::gate::{Decision, Document, Plan};
use crate::run::Workload;
use crate::settings::Mode;
use codecs::{visit_codecs, Codec, CodecVisitor, Op};
use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, Throughput};
use std::path::Path;

/// Inputs of this many bytes or more are batched a few at a time (`LargeInput`); smaller ones
/// ten batches per sample (`SmallInput`).
pub const LARGE_INPUT: usize = 64 * 1024;

/// criterion's batch size for `de` on a document of `len` bytes.
pub fn batch_size(len: usize) -> BatchSize {
    if len >= LARGE_INPUT {
        BatchSize::LargeInput
    } else {
        BatchSize::SmallInput
    }
}

/// criterion set up for `mode`, writing under `output` in its own folder layout. Call
/// `configure_from_args` afterwards so that criterion's flags (`--test`, `--warm-up-time`, …)
/// still override the mode.
pub fn criterion(mode: Mode, output: &Path) -> Criterion {
    let timing = mode.timing();
    let c = Criterion::default()
        .output_directory(output)
        .warm_up_time(timing.warm_up)
        .measurement_time(timing.measurement)
        .sample_size(timing.sample_size)
        .nresamples(timing.resamples);
    if cfg!(feature = "html") {
        c
    } else {
        c.without_plots()
    }
}

/// Adds codec `C`'s bench of one cell to `group`. The workload is made on the first call from
/// criterion, so cells that criterion's filter leaves out cost nothing.
pub fn bench_cell<C: Codec>(group: &mut BenchmarkGroup<'_, WallTime>, document: &Document, op: Op) {
    let mut workload: Option<Workload<C>> = None;
    let size = batch_size(document.bytes.len());
    group.bench_function(C::ID, |b| {
        let w = workload.get_or_insert_with(|| {
            Workload::new(document, op).unwrap_or_else(|e| {
                panic!(
                    "{}: cannot make the input: {e}",
                    crate::bench_id(document.fixture.name, op, C::ID)
                )
            })
        });
        let (inputs, runner) = w.parts();
        match op {
            Op::De => b.iter_batched_ref(|| inputs.fresh(), |fresh| runner.de(fresh), size),
            Op::Ser => b.iter(|| runner.ser()),
        }
    });
}

/// One codec's bench function, monomorphised.
pub type BenchFn = fn(&mut BenchmarkGroup<'_, WallTime>, &Document, Op);

/// Every registered codec's id with its bench function, in the registry's order.
pub fn bench_fns() -> Vec<(&'static str, BenchFn)> {
    struct Collect(Vec<(&'static str, BenchFn)>);
    impl CodecVisitor for Collect {
        fn visit<C: Codec + 'static>(&mut self) {
            self.0.push((C::ID, bench_cell::<C>));
        }
    }
    let mut all = Collect(Vec::new());
    visit_codecs(&mut all);
    all.0
}

/// Benches every cell the gate let through, one criterion group per fixture × op, in the
/// plan's order. Cells the plan does not hold or did not let through are never handed over.
pub fn run_plan(
    c: &mut Criterion,
    documents: &[Document],
    ops: &[Op],
    plan: &Plan,
    fns: &[(&'static str, BenchFn)],
) {
    for document in documents {
        let fixture = document.fixture;
        for &op in ops {
            let cells: Vec<(&str, BenchFn)> = fns
                .iter()
                .copied()
                .filter(|(id, _)| plan.decision(fixture.name, op, id) == Some(&Decision::Run))
                .collect();
            if cells.is_empty() {
                continue;
            }
            let mut group = c.benchmark_group(crate::group_name(fixture.name, op));
            group.throughput(Throughput::Bytes(document.bytes.len() as u64));
            for (_, bench) in cells {
                bench(&mut group, document, op);
            }
            group.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::{gate, load_documents};
    use codecs::{Noop, SerdeJsonTyped};
    use documents::catalog::find;
    use std::time::Duration;

    #[test]
    fn criterion_writes_fixture_op_codec_ids_where_analysis_reads_them() {
        let out = std::env::temp_dir().join(format!("thaw-warm-ids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let seed = documents::DEFAULT_SEED;
        let (documents, _) = load_documents(&[find("small").unwrap()], seed, None);
        let chosen = [codecs::any::<Noop>(), codecs::any::<SerdeJsonTyped>()];
        let plan = gate(&documents, &chosen, &[Op::De]);
        let fns: Vec<(&str, BenchFn)> = vec![
            ("noop", bench_cell::<Noop>),
            ("serde_json", bench_cell::<SerdeJsonTyped>),
        ];
        let mut c = criterion(Mode::Quick, &out)
            .warm_up_time(Duration::from_millis(10))
            .measurement_time(Duration::from_millis(30))
            .nresamples(100);
        run_plan(&mut c, &documents, &[Op::De], &plan, &fns);

        let new = out.join("small_de").join("serde_json").join("new");
        let bench: serde_json::Value =
            serde_json::from_slice(&std::fs::read(new.join("benchmark.json")).unwrap()).unwrap();
        assert_eq!(bench["full_id"], "small/de/serde_json");
        assert_eq!(bench["group_id"], "small/de");
        assert_eq!(bench["throughput"]["Bytes"], documents[0].bytes.len());
        let estimates: serde_json::Value =
            serde_json::from_slice(&std::fs::read(new.join("estimates.json")).unwrap()).unwrap();
        assert!(estimates["median"]["point_estimate"].as_f64().unwrap() > 0.0);
        assert!(out.join("small_de/noop/new/benchmark.json").is_file());
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn every_codec_has_a_bench_fn() {
        let ids: Vec<&str> = bench_fns().iter().map(|(id, _)| *id).collect();
        let registry: Vec<&str> = codecs::registry().iter().map(|c| c.id()).collect();
        assert_eq!(ids, registry);
    }

    #[test]
    fn every_cell_the_gate_lets_through_can_make_its_workload() {
        // (a cell that could not would stop `cargo bench` with a panic, not skip)
        struct Check<'a>(&'a [Document], &'a Plan, Vec<String>);
        impl CodecVisitor for Check<'_> {
            fn visit<C: Codec + 'static>(&mut self) {
                for d in self.0 {
                    for op in Op::ALL {
                        if self.1.decision(d.fixture.name, op, C::ID) == Some(&Decision::Run) {
                            if let Err(e) = Workload::<C>::new(d, op) {
                                self.2
                                    .push(format!("{}/{op}/{}: {e}", d.fixture.name, C::ID));
                            }
                        }
                    }
                }
            }
        }
        let fixtures = [find("users-2kb").unwrap(), find("clients-1kb").unwrap()];
        let (documents, _) = load_documents(&fixtures, documents::DEFAULT_SEED, None);
        let plan = gate(&documents, &codecs::registry(), &Op::ALL);
        let mut check = Check(&documents, &plan, Vec::new());
        visit_codecs(&mut check);
        assert!(check.2.is_empty(), "{:#?}", check.2);
    }

    #[test]
    fn large_documents_are_batched_few_at_a_time() {
        assert!(matches!(batch_size(1_000), BatchSize::SmallInput));
        assert!(matches!(batch_size(1_000_000), BatchSize::LargeInput));
    }
}
