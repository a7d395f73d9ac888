//! `export`: a cold run in other tools' formats, one small module per format; [`Format`] says
//! which `export --format` takes and hands the run to its module.

pub(crate) mod hyperfine;

use crate::inputs::run::Run;
use crate::span::Span;
use anyhow::Result;

/// The formats `export --format` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// hyperfine's `--export-json` shape.
    Hyperfine,
}

impl Format {
    /// The run, serialised in this format; `figure` picks which timing stands for "the time".
    pub(crate) fn export(self, run: &Run, figure: Span) -> Result<String> {
        match self {
            Format::Hyperfine => hyperfine::export(run, figure),
        }
    }
}
