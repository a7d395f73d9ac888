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

    #[test]
    fn never_goes_back() {
        let a = monotonic_ns();
        let b = monotonic_ns();
        assert!(a > 0 && b >= a);
    }
}
