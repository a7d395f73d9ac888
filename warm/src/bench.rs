//! How the gated cells are handed to criterion: one group per `<fixture>/<op>` with the
//! document's length as its throughput (so criterion prints MB/s), one function per codec, so
//! every bench's full id is `<fixture>/<op>/<codec>`.
//!
//! `de` runs in batches whose size is chosen by their memory, not by criterion's iteration count
//! (docs/statistics.md, "A warm `de` batch"): a sample of any size is cut into batches of
//! [`batch_calls`] calls, each batch's fresh inputs made before its clock and its values kept
//! until its clock stops, then dropped, for every codec alike, so input copies and drops stay
//! outside the timed region and a batch's inputs and values stay within the cache and below the
//! allocator's trim threshold. (criterion's `iter_batched_ref` cuts a sample into 10 batches
//! whatever its size, so its batches grow with the sample; its loop could not be used as it is
//! anyway, since a borrowed DOM's value borrows its input.) `ser` runs through `iter` into the one
//! reused buffer. Not for anything but wiring: the operation itself is `run::Runner`.

use crate::gate::{Decision, Document, Plan};
use crate::run::{Inputs, Runner, Workload};
use crate::settings::Mode;
use codecs::{visit_codecs, Codec, CodecVisitor, Op};
use criterion::measurement::WallTime;
use criterion::{Bencher, BenchmarkGroup, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

/// The memory one batch of `de` calls may hold: its fresh inputs and the values decoded from them,
/// each value counted as its input's size again. Chosen by experiment (docs/statistics.md): well
/// inside a core's L2 cache, and below glibc's default trim threshold (128 KiB), so the values'
/// memory is not handed back to the kernel after every batch and faulted in again in the next.
pub const BATCH_BYTES: usize = 64 * 1024;

/// The most calls one batch holds (tiny documents): two clock reads per batch are then under
/// 0.1% of the batch.
pub const MAX_BATCH: u64 = 1000;

/// How many `de` calls of a document of `len` bytes one batch holds: [`BATCH_BYTES`] over twice
/// the document, at least one, at most [`MAX_BATCH`]. The same for a sample of any size.
pub fn batch_calls(len: usize) -> u64 {
    let calls = BATCH_BYTES / (2 * len.max(1));
    (calls as u64).clamp(1, MAX_BATCH)
}

/// One sample of `iters` `de` calls, in batches of `per_batch`: per batch, the fresh inputs are
/// made, the calls timed with every value kept, then values and inputs dropped.
fn de_sample<C: Codec>(
    iters: u64,
    per_batch: u64,
    inputs: Inputs<'_>,
    runner: &mut Runner<C>,
) -> Duration {
    let per_batch = per_batch.max(1);
    let mut timed = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let size = per_batch.min(iters - done);
        let mut fresh: Vec<_> = black_box((0..size).map(|_| inputs.fresh()).collect());
        let mut values = Vec::with_capacity(size as usize);
        let start = Instant::now();
        values.extend(fresh.iter_mut().map(|input| runner.de(input)));
        timed += start.elapsed();
        black_box(values);
        done += size;
    }
    timed
}

/// One criterion sample loop of `de` for codec `C`.
fn bench_de<C: Codec>(
    b: &mut Bencher<'_>,
    per_batch: u64,
    inputs: Inputs<'_>,
    runner: &mut Runner<C>,
) {
    b.iter_custom(|iters| de_sample(iters, per_batch, inputs, runner));
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
    let per_batch = batch_calls(document.bytes.len());
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
            Op::De => bench_de(b, per_batch, inputs, runner),
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
    use fixtures::catalog::find;
    use std::time::Duration;

    #[test]
    fn criterion_writes_fixture_op_codec_ids_where_analysis_reads_them() {
        let out = std::env::temp_dir().join(format!("thaw-warm-ids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let seed = fixtures::DEFAULT_SEED;
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
        let (documents, _) = load_documents(&fixtures, fixtures::DEFAULT_SEED, None);
        let plan = gate(&documents, &codecs::registry(), &Op::ALL);
        let mut check = Check(&documents, &plan, Vec::new());
        visit_codecs(&mut check);
        assert!(check.2.is_empty(), "{:#?}", check.2);
    }

    #[test]
    fn a_batch_holds_what_fits_its_memory_whatever_the_sample() {
        // users-2kb: 15 calls of 2,142 bytes (and their values) per batch
        assert_eq!(batch_calls(2_142), 15);
        // a document larger than half the budget: one call per batch
        assert_eq!(batch_calls(40_000), 1);
        assert_eq!(batch_calls(1_000_000), 1);
        // a tiny one: capped
        assert_eq!(batch_calls(27), MAX_BATCH);
        assert_eq!(batch_calls(0), MAX_BATCH);
    }

    /// A codec whose value borrows its input (as a borrowed DOM's does) and that counts its calls.
    struct CountsCalls(u64);
    impl Codec for CountsCalls {
        const ID: &'static str = "counts-calls";
        const LIBRARY: &'static str = "none";
        const STYLE: codecs::Style = codecs::Style::Dom;
        type Value<'a> = &'a [u8];
        fn supports(_: Option<codecs::models::ModelKind>, _: Op) -> codecs::Support {
            Ok(())
        }
        fn new() -> Self {
            CountsCalls(0)
        }
        fn de<'a, T: codecs::inputs::Target>(
            &mut self,
            input: &'a mut [u8],
        ) -> Result<&'a [u8], codecs::CodecError> {
            self.0 += 1;
            Ok(input)
        }
        fn ser<T: codecs::inputs::Target>(
            &mut self,
            _: &&[u8],
            _: &mut Vec<u8>,
        ) -> Result<(), codecs::CodecError> {
            Ok(())
        }
        fn ser_value(_: codecs::inputs::Prepared) -> Result<&'static [u8], codecs::CodecError> {
            Err(codecs::CodecError("no ser".into()))
        }
        fn digest<T: codecs::inputs::Target>(_: &&[u8]) -> u64 {
            0
        }
        fn to_json(_: &&[u8]) -> Result<serde_json::Value, codecs::CodecError> {
            Ok(serde_json::Value::Null)
        }
    }

    #[test]
    fn a_de_sample_makes_one_call_per_iteration_in_every_batching() {
        let document =
            Document::make(find("users-1kb").unwrap(), fixtures::DEFAULT_SEED, None).unwrap();
        let mut w = Workload::<CountsCalls>::new(&document, Op::De).unwrap();
        let (inputs, runner) = w.parts();
        for (iters, per_batch) in [(1, 15), (7, 15), (95, 15), (3, 1), (2500, 1000), (4, 0)] {
            runner.codec_mut().0 = 0;
            de_sample(iters, per_batch, inputs, runner);
            assert_eq!(
                runner.codec_mut().0,
                iters,
                "{iters} iterations in batches of {per_batch}"
            );
        }
    }
}
