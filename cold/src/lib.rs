//! cold: thaw's cold track. A runner that spawns a fresh child process per sample, in seeded
//! blocked random order, and cuts each child's life into phases; and the children themselves.
//!
//! The children (`src/bin/child-<codec>.rs`) are one line each around [`child::main`]; they use
//! only [`clock`] and [`child`] from this crate, so a child links its own library and nothing
//! else. Everything else here is the runner: pure pieces ([`plan`], [`phases`], [`protocol`],
//! [`classify`], [`summary`]) kept apart from the ones that touch the system ([`process`],
//! [`spawner`], [`cache`], [`pin`], [`folder`], [`manifest`]) and from the orchestration
//! ([`runner`], [`resume`], [`session`]). `src/bin/cold-spawner.rs` is the small helper
//! process that spawns the children. It does not compute statistics beyond the closing table's medians: `analysis` does that.

pub mod cache;
pub mod child;
pub mod children;
pub mod classify;
pub mod cli;
pub mod clock;
pub mod folder;
pub mod list;
pub mod manifest;
pub mod phases;
pub mod pin;
pub mod plan;
pub mod process;
pub mod progress;
pub mod protocol;
pub mod resume;
pub mod runner;
pub mod sampler;
pub mod session;
pub mod spawner;
pub mod summary;
