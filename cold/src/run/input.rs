//! The input file a codec's child reads for a fixture and op: a Rust child's document, postcard
//! model or tree, or, for a child of another runtime's `ser`, the neutral tree as text. Written
//! once per run folder by the preparation, and by a training run for its archive.

use crate::runtimes::codec_list;
use anyhow::Result;
use codecs::inputs::{prepare, InputKind, Tree};
use codecs::AnyCodec;
use fixtures::catalog::Fixture;
use schema::Op;

/// The input file a codec's child reads for a fixture and op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Input {
    /// A Rust child's (the document, a postcard model or tree).
    Rust(InputKind),
    /// A child in another language's `ser` input: the neutral tree as text.
    TreeText,
}

impl Input {
    pub(crate) fn of(codec: &dyn AnyCodec, fixture: &Fixture, op: Op) -> Input {
        match (codec_list::external_of(codec), op) {
            (Some(_), Op::Ser) => Input::TreeText,
            (Some(_), Op::De) => Input::Rust(InputKind::Document),
            (None, _) => Input::Rust(codec.input_kind(fixture.model_kind(), op)),
        }
    }

    pub(crate) fn extension(self) -> &'static str {
        match self {
            Input::Rust(kind) => kind.extension(),
            Input::TreeText => "tree.txt",
        }
    }

    /// `document`, `users model`, `tree`, `tree text`.
    pub(crate) fn name(self) -> String {
        match self {
            Input::Rust(kind) => kind.name(),
            Input::TreeText => "tree text".into(),
        }
    }

    /// The file, relative to the run folder.
    pub(crate) fn relative(self, fixture: &str) -> String {
        format!(
            "{}/{fixture}.{}",
            schema::run_folder::FIXTURES,
            self.extension()
        )
    }

    pub(crate) fn prepare(self, fixture: &Fixture, seed: u64, document: &[u8]) -> Result<Vec<u8>> {
        match self {
            Input::Rust(kind) => {
                prepare(kind, fixture.model(seed).as_ref(), document).map_err(anyhow::Error::msg)
            }
            Input::TreeText => {
                let tree = Tree::of_document(document).map_err(anyhow::Error::msg)?;
                Ok(crate::runtimes::tree_text::encode(&tree).into_bytes())
            }
        }
    }
}
