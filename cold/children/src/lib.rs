//! children: the cold track's child processes, and the protocol they share with the runner.
//!
//! - [`protocol`]: the arguments a child takes and the one line it prints (both sides);
//! - [`clock`]: the protocol's clock, CLOCK_MONOTONIC in nanoseconds;
//! - [`run`]: the child itself, generic over a codec; each `src/bin/child-<codec>.rs` is one call
//!   to [`run::main`].
//!
//! A child links this crate, the fixtures crate and its own library; the runner (`cold`) links
//! this crate for the protocol.

pub mod clock;
pub mod protocol;
pub mod run;
