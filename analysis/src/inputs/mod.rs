//! Reading what the other crates wrote: a cold run folder (its samples and plan into a compact
//! store, [`samples`]), criterion's warm estimates, the allocation table, the warm gate's
//! decisions, the conformance table, a curve run's curves, and the benchmark output of Go (`go test -bench`), Python (pyperf) and
//! Node (mitata). Only I/O and parsing live here; every error names the
//! file (and the CSV line) it came from. Optional inputs that are absent read as `None`.

pub(crate) mod alloc;
pub(crate) mod conformance;
pub(crate) mod criterion;
pub(crate) mod curves;
pub(crate) mod forks;
pub(crate) mod gobench;
pub(crate) mod jmh;
pub(crate) mod machine;
pub(crate) mod mitata;
pub(crate) mod pyperf;
pub(crate) mod rounds;
pub(crate) mod run;
pub(crate) mod warm_gate;

/// The shortest warm time per operation thaw takes: 0.01 ns, a twentieth of one cycle of a 5 GHz
/// core; no operation is done in less, so a smaller estimate (1e-9, 5e-324) is a damaged file.
pub(crate) const MIN_NS: f64 = 0.01;

/// The longest: 10^15 ns (11.6 days).
pub(crate) const MAX_NS: f64 = 1e15;

/// Whether `ns` can be a warm time per operation (criterion's and JMH's alike): finite, from
/// [`MIN_NS`] to below [`MAX_NS`]. Bounded on both sides, so that neither a chart's ticks nor a
/// cold penalty (cold time over warm) is fed an impossible value.
pub(crate) fn plausible_ns(ns: f64) -> bool {
    ns.is_finite() && (MIN_NS..MAX_NS).contains(&ns)
}
