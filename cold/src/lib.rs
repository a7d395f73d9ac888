//! cold: thaw's cold track runner. It spawns a fresh child process per sample, in seeded blocked
//! random order, and cuts each child's life into phases. The children are the `children`
//! package (`cold/children`), whose protocol module this crate uses to call them and read them.
//!
//! Pure pieces ([`plan`], [`phases`], [`classify`], [`summary`]) are kept apart from the ones
//! that touch the system ([`process`], [`capture`], [`spawner`], [`cache`], [`pin`], [`folder`],
//! [`lock`], [`interrupt`], [`manifest`], [`binaries`]) and from the orchestration
//! ([`prepare`], [`runner`], [`resume`], [`session`], [`sampler`]). `src/bin/cold-spawner.rs` is the small helper process that spawns the children.
//! It computes no statistics beyond the closing table's medians: `analysis` does that.

pub mod binaries;
pub mod cache;
pub mod classify;
pub mod cli;
pub mod codec_list;
pub mod counting;
pub mod external;
pub mod folder;
pub mod interrupt;
pub mod list;
pub mod lock;
pub mod manifest;
pub mod phases;
pub mod pin;
pub mod plan;
pub mod precision;
pub mod prepare;
pub mod progress;
pub mod resume;
pub mod runner;
pub mod sampler;
pub mod session;
pub mod summary;
