//! The runner's integration tests, in one binary so that they link once and build the binaries
//! beside the runner once (`common`); each module was a test binary of its own, and its tests
//! keep their names under the module's (`run::…`, `external::…`).

mod common;

mod external;
mod misbehaving;
mod prepare;
mod readme;
mod run;
mod trained;
