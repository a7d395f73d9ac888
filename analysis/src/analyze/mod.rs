//! From what was read to what a report says: per-cell statistics, contrasts against the
//! reference, cold against warm, the conformance summary and the warnings. Pure: no files are
//! read or written here, so each step is testable on synthetic rows.

pub mod beside;
pub mod cells;
pub mod coldwarm;
pub mod conformance;
pub mod contrasts;
pub mod curve;
pub mod machines;
pub mod manifest;
pub mod noise;
pub mod precision;
pub mod runtimes;
pub mod warnings;
