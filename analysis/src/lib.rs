//! analysis: statistics and reports over what the cold and warm tracks wrote.
//!
//! It reads files (a cold run folder, the warm results) and writes reports; it never runs a
//! benchmark. The files' formats are the `schema` crate's, which their writers use too.
//!
//! The map, in the order data flows:
//! - [`inputs`]: reading a run folder, criterion's estimates, alloc.csv, conformance.csv;
//! - [`stats`]: pure numerics (quantiles, bootstrap, rank tests, Hodges-Lehmann, Holm);
//! - [`span`]: the span of a sample a figure covers, and its value in the run's measure;
//! - [`analyze`]: from rows to findings: cells, contrasts, cold against warm, warnings;
//! - [`report`]: the report's model, layout and renderers (Markdown, HTML + SVG, CSV, JSON);
//! - [`compare`], [`export`], [`merge`], `answer_table`: the other commands' logic;
//! - [`synth`]: synthetic runs with a known truth; [`cli`]: the command line; [`commands`]:
//!   each subcommand's reading, calling and writing;
//!   [`parallel`]: the one scoped-thread map.
//!
//! It is not a benchmark harness and never times anything itself.

pub mod analyze;
pub(crate) mod answer_table;
pub mod cli;
pub mod commands;
pub mod compare;
pub(crate) mod export;
pub(crate) mod inputs;
pub(crate) mod merge;
pub mod parallel;
pub(crate) mod report;
pub mod span;
pub mod synth;

pub use stats;
#[cfg(test)]
pub(crate) mod testing;
