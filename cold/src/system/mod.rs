//! What touches the machine beyond a child's process: where the runner's binaries are (and
//! building them under `cargo run`), the page cache (`--cold-cache`), CPU pinning (`--pin`) and
//! the signals that stop a run.

pub mod binaries;
pub mod cache;
pub mod interrupt;
pub mod pin;
pub mod variants;
