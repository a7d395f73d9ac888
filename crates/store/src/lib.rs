//! store: a run's files read back, above the formats `schema` declares, the safe file layer
//! `files` gives and the numbers `stats` computes. `cold` (resuming, its closing table, its
//! stopping rule), `answer` and `analysis` read a run through it.
//!
//! - [`rows`]: plan.csv and samples.csv read back by the one reader of each, every row checked;
//! - [`cell`]: one cell's samples stored compactly, a run's samples by cell, and the figures of a
//!   cell every table shows;
//! - [`stopping`]: the `--precision` rule, from the rows so far to the decision after a check;
//! - [`manifest`]: manifest.json read back, every text and list bounded and every name checked;
//! - [`outputs`]: where an output the user names may be written (never on or inside an input).

pub mod cell;
pub mod manifest;
pub mod outputs;
pub mod rows;
pub mod stopping;
