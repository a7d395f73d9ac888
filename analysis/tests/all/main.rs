//! analysis's integration tests, in one binary so that they link once (each module was a test
//! binary of its own; its tests keep their names under the module's: `cli::…`, `precision::…`).

mod common;

mod answer;
mod cli;
mod counted;
mod curve;
mod machines;
mod precision;
mod readme;
mod runtimes;
mod worked;
