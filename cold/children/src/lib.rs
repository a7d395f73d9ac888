//! children: the cold track's child processes, and the protocol they share with the runner.
//!
//! - [`protocol`]: the arguments a child takes and the one line it prints (both sides);
//! - [`clock`]: the protocol's clock, CLOCK_MONOTONIC in nanoseconds;
//! - [`memory`]: the child's own peak and current resident size, from /proc/self/status;
//! - [`run`]: the child itself, generic over a codec and a target; each
//!   `src/bin/child-<codec>-<op>-<target>.rs` is one call to [`run::de`] or [`run::ser`];
//! - [`catalog`]: which child binaries exist (from the codec registry), and which runs a cell.
//!
//! A child links this crate, the fixtures crate and its own library; the runner (`cold`) links
//! this crate for the protocol and the catalog.

pub mod catalog;
pub mod clock;
pub mod memory;
pub mod protocol;
pub mod run;
