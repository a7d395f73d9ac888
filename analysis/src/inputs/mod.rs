//! Reading what the other crates wrote: a cold run folder (its samples and plan into a compact
//! store, [`samples`]), criterion's warm estimates, the allocation table, the warm gate's
//! decisions, the conformance table, and a curve run's curves. Only I/O and parsing live here; every error names the
//! file (and the CSV line) it came from. Optional inputs that are absent read as `None`.

pub mod alloc;
pub mod conformance;
pub mod criterion;
pub mod curves;
pub mod jmh;
pub mod machine;
pub mod run;
pub mod warm_gate;
