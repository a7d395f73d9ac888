//! From what was read to what a report says: per-cell statistics, contrasts against the
//! reference, cold against warm, the conformance summary and the warnings. Pure: no files are
//! read or written here, so each step is testable on synthetic rows.

pub(crate) mod beside;
pub mod cells;
pub(crate) mod coldwarm;
pub(crate) mod conformance;
pub mod contrasts;
pub(crate) mod curve;
pub(crate) mod machines;
pub(crate) mod manifest;
pub(crate) mod noise;
pub(crate) mod precision;
pub(crate) mod runtimes;
pub(crate) mod warm_measures;
pub(crate) mod warm_size;
pub(crate) mod warnings;
