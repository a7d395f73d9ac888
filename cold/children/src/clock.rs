//! The one clock of the cold protocol: CLOCK_MONOTONIC in nanoseconds, read with
//! `clock_gettime`. Every process on the machine reads the same clock, so the runner's `spawn`
//! and `reaped` stamps and a child's stamps can be subtracted from one another.

/// Nanoseconds of CLOCK_MONOTONIC.
#[inline(always)]
pub fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Nanoseconds of the clock std's `Instant` reads on Linux: a sleep of 50 ms (which std
    /// guarantees lasts at least that long) advances it by at least 50,000,000, and by no more
    /// than an `Instant` taken around both reads saw.
    #[test]
    fn counts_nanoseconds_of_the_monotonic_clock() {
        let around = Instant::now();
        let a = monotonic_ns();
        std::thread::sleep(Duration::from_millis(50));
        let b = monotonic_ns();
        let outer = around.elapsed().as_nanos() as u64;
        assert!(b - a >= 50_000_000, "{a} then {b}");
        assert!(b - a <= outer, "{} ns inside {outer} ns", b - a);
    }
}
