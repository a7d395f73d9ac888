//! analysis: statistics and reports over what the cold and warm tracks wrote.
//!
//! It reads files (a cold run folder, the warm results) and writes reports; it never runs a
//! benchmark. `samples` is also linked by `cold` so that both sides share one row format.

pub mod analyze;
pub mod cli;
pub mod compare;
pub mod export;
pub mod inputs;
pub mod parallel;
pub mod report;
pub mod samples;
pub mod stats;
pub mod synth;
