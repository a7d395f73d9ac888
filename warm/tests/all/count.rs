//! The counting allocator, installed as this test binary's global allocator, counts known
//! allocation patterns exactly, and counts a warm codec operation the way the `alloc` binary
//! does.

use codecs::{Noop, Op, SerdeJsonTyped, SimdJsonTyped};
use fixtures::catalog::find;
use fixtures::gate::Document;
use std::hint::black_box;
use warm::count::{measure, totals, Allocations, CountingAlloc};
use warm::run::Workload;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn one_vec_with_capacity_is_one_allocation_of_its_size() {
    let (v, usage) = measure(|| black_box(Vec::<u8>::with_capacity(1000)));
    assert_eq!(
        usage,
        Allocations {
            allocs: 1,
            bytes: 1000,
            peak_live: 1000
        }
    );
    let before = totals();
    drop(v);
    assert_eq!(totals().live, before.live - 1000);
}

#[test]
fn growth_frees_and_peaks_are_counted() {
    let (_, usage) = measure(|| {
        let mut v = black_box(Vec::<u64>::with_capacity(10)); // 80 bytes
        v.reserve_exact(20); // realloc to 160 bytes: one more allocation
        let boxed = black_box(Box::new([0u8; 500])); // live 660 at most
        drop(boxed);
        drop(v);
        let small = black_box(vec![0u8; 100]);
        drop(small);
    });
    // with_capacity, the realloc, the box, the zeroed vec: four allocations, each of its
    // full (new) size.
    assert_eq!(usage.allocs, 4);
    assert_eq!(usage.bytes, 80 + 160 + 500 + 100);
    assert_eq!(usage.peak_live, 660);
}

#[test]
fn nothing_allocated_is_nothing_counted() {
    let mut x = 0u64;
    let (_, usage) = measure(|| {
        for i in 0..100 {
            x = black_box(x + i);
        }
    });
    assert_eq!(usage, Allocations::default());
}

#[test]
fn warm_ops_count_as_the_alloc_binary_counts_them() {
    let seed = fixtures::DEFAULT_SEED;
    let document = Document::make(find("users-1kb").unwrap(), seed, None).unwrap();
    let doc = document.bytes.clone();

    // A warm ser into the reused buffer allocates nothing once the buffer has grown.
    let mut ser = Workload::<SerdeJsonTyped>::new(&document, Op::Ser).unwrap();
    ser.step(Op::Ser);
    let (_, runner) = ser.parts();
    let (len, usage) = measure(|| runner.ser());
    assert_eq!(len, doc.len());
    assert_eq!(usage.allocs, 0, "{usage:?}");

    // A typed de allocates its strings and vectors; the fresh copy simd-json needs is made
    // before the counted region, not inside it.
    let mut de = Workload::<SimdJsonTyped>::new(&document, Op::De).unwrap();
    de.step(Op::De);
    let (inputs, runner) = de.parts();
    let mut fresh = inputs.fresh();
    let (value, usage) = measure(|| runner.de(&mut fresh));
    drop(value);
    assert!(usage.allocs > 0);
    assert!(
        usage.bytes < 2 * doc.len() as u64 + 4096,
        "no input copy inside: {usage:?}"
    );

    // The baseline's de builds its 8-byte answer and nothing else.
    let mut noop = Workload::<Noop>::new(&document, Op::De).unwrap();
    let (inputs, runner) = noop.parts();
    let mut fresh = inputs.fresh();
    let (_, usage) = measure(|| runner.de(&mut fresh));
    assert_eq!((usage.allocs, usage.bytes), (1, 8));
}
