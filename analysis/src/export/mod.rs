//! `export`: a cold run in other tools' formats. One small module per format behind one trait,
//! as hyperfine lays out its exporters.

pub(crate) mod hyperfine;

use crate::inputs::run::Run;
use crate::measure::Span;
use anyhow::Result;

/// An output format for a whole run.
pub trait Exporter {
    /// The run, serialised; `figure` picks which timing stands for "the time".
    fn export(&self, run: &Run, figure: Span) -> Result<String>;
}

/// The formats `export --format` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// hyperfine's `--export-json` shape.
    Hyperfine,
}

impl Format {
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            Format::Hyperfine => Box::new(hyperfine::Hyperfine),
        }
    }
}
