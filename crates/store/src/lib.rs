//! store: a run's files on disk, above the formats `schema` declares and the safe file layer
//! `files` gives.
//!
//! - [`outputs`]: where an output the user names may be written (never on or inside an input).

pub mod outputs;
