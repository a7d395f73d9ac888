//! cold: thaw's cold track runner. It spawns a fresh child process per sample, in seeded blocked
//! random order, and cuts each child's life into the phases `schema::phases` declares. The
//! children are the `children` package; the process that starts them is the `spawner` crate.
//!
//! - [`run`]: a run, step by step: the plan (pure), the preparation before the first sample,
//!   taking samples and classifying each (pure), stopping on precision, resuming, the closing
//!   table (pure), progress;
//! - [`folder`]: the run folder on disk: its files, its lock, its manifest and the machine's facts;
//! - [`runtimes`]: every codec a run can take: Rust's and those of other languages' runtimes,
//!   described by data in `runtimes/`;
//! - [`counting`]: `--measure instructions`: callgrind and the allocation counter;
//! - [`system`]: what touches the machine: where the binaries are, the page cache, pinning,
//!   signals;
//! - [`cli`], [`command`] and [`list`]: the command line, its dispatch and `cold list`.
//!
//! It computes no statistics beyond the closing table's medians: `analysis` does that.

pub mod cli;
pub mod command;
pub(crate) mod counting;
pub mod folder;
pub(crate) mod list;
pub mod run;
pub mod runtimes;
pub(crate) mod system;
