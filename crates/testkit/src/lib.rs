//! testkit: what the tests of several crates share, so that none reaches into another's folder.
//!
//! - [`examples`]: files tests start from (a run's manifest);
//! - [`manual`]: the manual's tables read back (docs/manual.md, the README);
//! - [`options`]: a command's options held to the manual's table of them.

pub mod examples;
pub mod manual;
pub mod options;
