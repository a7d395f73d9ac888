//! children: the cold track's child processes.
//!
//! - [`run`]: the child itself, generic over a codec and a target; each
//!   `src/bin/child-<codec>-<op>-<target>.rs` is one call to [`run::de`] or [`run::ser`];
//! - [`memory`]: the child's own peak and current resident size, from /proc/self/status;
//! - [`catalog`]: which child binaries exist (from the codec registry), and which runs a cell;
//! - [`minimal`]: the reference programs' life, beside which a child's first call is set.
//!
//! The protocol a child shares with the runner (its arguments, its one line, the clock) is
//! `schema::protocol`. A child links this crate, `codecs`, `schema` and its own library; the
//! runner (`cold`) links this crate for the catalog.

// Linked into every child, so that a build's allocator feature swaps the child's global
// allocator (a crate no code names would not be linked).
extern crate allocator;

pub mod catalog;
pub mod memory;
pub mod minimal;
pub mod run;
