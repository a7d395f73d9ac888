//! What touches the machine beyond a child's process: where the runner's binaries are (and
//! building them under `cargo run`), the page cache (`--cold-cache`), CPU pinning (`--pin`) and
//! the signals that stop a run.

pub(crate) mod binaries;
pub(crate) mod cache;
pub(crate) mod interrupt;
pub(crate) mod pin;
pub(crate) mod variants;
