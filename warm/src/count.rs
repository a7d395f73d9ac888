//! A counting global allocator: allocations, bytes allocated and live bytes (with their peak),
//! per thread, on top of the system allocator. Only the `alloc` binary and the tests install
//! it (`#[global_allocator]`); the timed benches never pay for it.
//!
//! Conventions: `alloc` and `alloc_zeroed` are one allocation of `size` bytes; `realloc` is one
//! allocation of the new size (what malloc + copy + free would cost), and moves the live total
//! by the difference; `dealloc` only lowers the live total. Counters are thread-local, so a
//! measurement sees only its own thread's work (the test harness's threads do not leak in).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The allocator to install: `#[global_allocator] static A: CountingAlloc = CountingAlloc;`.
pub struct CountingAlloc;

/// Running totals of one thread since it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    pub allocs: u64,
    pub bytes: u64,
    /// Bytes allocated and not yet freed by this thread (negative if it freed others' memory).
    pub live: i64,
    /// The highest `live` since the last [`reset_peak`].
    pub peak: i64,
}

thread_local! {
    // const-initialised and without a destructor: safe to touch from inside the allocator.
    static TOTALS: Cell<Totals> = const {
        Cell::new(Totals { allocs: 0, bytes: 0, live: 0, peak: 0 })
    };
}

fn record(allocs: u64, bytes: u64, live_change: i64) {
    let _ = TOTALS.try_with(|cell| {
        let mut t = cell.get();
        t.allocs += allocs;
        t.bytes += bytes;
        t.live += live_change;
        t.peak = t.peak.max(t.live);
        cell.set(t);
    });
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            record(1, layout.size() as u64, layout.size() as i64);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc_zeroed(layout);
        if !ptr.is_null() {
            record(1, layout.size() as u64, layout.size() as i64);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        record(0, 0, -(layout.size() as i64));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = System.realloc(ptr, layout, new_size);
        if !new.is_null() {
            record(1, new_size as u64, new_size as i64 - layout.size() as i64);
        }
        new
    }
}

/// This thread's totals now.
pub fn totals() -> Totals {
    TOTALS.try_with(Cell::get).unwrap_or_default()
}

/// Starts a new peak from the current live total.
pub fn reset_peak() {
    let _ = TOTALS.try_with(|cell| {
        let mut t = cell.get();
        t.peak = t.live;
        cell.set(t);
    });
}

/// What one measured stretch of code allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Allocations {
    pub allocs: u64,
    pub bytes: u64,
    /// The most bytes live at once during the stretch, above what was live when it began.
    pub peak_live: u64,
}

/// Runs `f` and says what it allocated. Only meaningful where [`CountingAlloc`] is the global
/// allocator (elsewhere every figure is zero). What `f` returns is dropped by the caller,
/// outside the measurement.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Allocations) {
    reset_peak();
    let before = totals();
    let result = f();
    let after = totals();
    let usage = Allocations {
        allocs: after.allocs - before.allocs,
        bytes: after.bytes - before.bytes,
        peak_live: (after.peak - before.live).max(0) as u64,
    };
    (result, usage)
}
