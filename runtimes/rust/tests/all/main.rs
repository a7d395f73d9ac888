//! The children package's integration tests, in one binary so that they link once; each module
//! was a test binary of its own, and its tests keep their names under the module's
//! (`generated::…`, `one_model::…`).

mod generated;
mod minimal;
mod no_cpuid_before_the_clock;
mod one_model;
