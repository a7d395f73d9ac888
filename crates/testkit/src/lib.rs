//! testkit: what the tests of several crates share, so that none reaches into another's folder.
//!
//! - [`manual`]: the manual's tables read back (docs/manual.md, the README);
//! - [`options`]: a command's options held to the manual's table of them.

pub mod manual;
pub mod options;
