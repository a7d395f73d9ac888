//! A run, step by step: what it is asked ([`options`]); the plan, a pure function of the settings ([`plan`]); everything before
//! the first sample ([`prepare`], with the children's [`builds`] and environment); a fresh run ([`fresh`]), which writes its folder and then
//! takes its samples as a resumed one does ([`resume`]), through [`session`] and [`sampler`]; what a reaped child means
//! ([`classify`]); the `--precision` rule's glue ([`precision`]); the closing table
//! ([`summary`]) and the progress display ([`progress`]).

pub(crate) mod answers;
pub(crate) mod builds;
pub mod classify;
pub(crate) mod fresh;
pub(crate) mod input;
pub mod options;
pub(crate) mod plan;
pub(crate) mod precision;
pub mod prepare;
pub mod progress;
pub(crate) mod resume;
pub mod sampler;
pub(crate) mod session;
pub(crate) mod status;
pub(crate) mod summary;
pub mod train;
