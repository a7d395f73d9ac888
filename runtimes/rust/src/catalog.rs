//! Which child binaries exist: one per codec × op × target, derived from the codec registry, and
//! the one-line source of each (`src/bin/child-<codec>-<op>-<target>.rs`). Cargo needs a file per
//! binary, so the sources are generated from this list and checked in; `tests/all/generated.rs`
//! fails when they differ from it and writes them with `THAW_WRITE_CHILDREN=1`.
//!
//! The runner asks [`binary_name`] which child runs a cell.

use codecs::inputs::{model_path, target_name, AnyInput, Dom, Target};
use codecs::models::ModelKind;
use codecs::{registry, AnyCodec, Op, Style};

/// The child binary of codec `codec` for `op` on target `target` (`users`, `dom`, `any`…).
pub fn binary_name(codec: &str, op: Op, target: &str) -> String {
    format!("child-{codec}-{op}-{target}")
}

/// The child binary that runs a cell of `codec` for `op` on a fixture of `model`.
pub fn binary_for(codec: &dyn AnyCodec, op: Op, model: Option<ModelKind>) -> String {
    binary_name(codec.id(), op, target_name(codec.style(), model))
}

/// One child binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Child {
    pub codec: &'static str,
    pub op: Op,
    pub target: &'static str,
    /// The Rust paths of the codec's type and of the target.
    codec_path: String,
    target_path: &'static str,
}

impl Child {
    pub fn binary(&self) -> String {
        binary_name(self.codec, self.op, self.target)
    }

    /// The binary's source, as generated.
    pub fn source(&self) -> String {
        format!(
            "//! Generated from the codec registry (children::catalog): the cold child of codec\n\
             //! `{codec}`, op `{op}`, target `{target}`.\n\
             fn main() {{\n    children::run::{op}::<{codec_path}, {target_path}>()\n}}\n",
            codec = self.codec,
            op = self.op,
            target = self.target,
            codec_path = self.codec_path,
            target_path = self.target_path,
        )
    }
}

/// Every child binary: for each codec and op, one per model it supports (typed codecs), one for
/// any document (DOM codecs), one for any input (the baseline).
pub fn all() -> Vec<Child> {
    let mut out = Vec::new();
    for codec in registry() {
        for op in Op::ALL {
            let targets: Vec<(&'static str, &'static str)> = match codec.style() {
                Style::Typed => ModelKind::ALL
                    .iter()
                    .filter(|&&kind| codec.supports(Some(kind), op).is_ok())
                    .map(|&kind| (kind.id(), model_path(kind)))
                    .collect(),
                Style::Dom if codec.supports(None, op).is_ok() => vec![(Dom::NAME, Dom::PATH)],
                Style::Dom => Vec::new(),
                Style::Baseline if codec.supports(None, op).is_ok() => {
                    vec![(AnyInput::NAME, AnyInput::PATH)]
                }
                Style::Baseline => Vec::new(),
            };
            out.extend(targets.into_iter().map(|(target, target_path)| Child {
                codec: codec.id(),
                op,
                target,
                codec_path: codec.type_path(),
                target_path,
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_sources() {
        let all = all();
        let serde = all
            .iter()
            .find(|c| c.binary() == "child-serde_json-de-users")
            .unwrap();
        assert!(serde
            .source()
            .contains("children::run::de::<codecs::SerdeJsonTyped, codecs::models::Users>()"));
        let items = all
            .iter()
            .find(|c| c.binary() == "child-sonic-rs-ser-items")
            .unwrap();
        assert!(items.source().contains("Vec<codecs::models::Item>"));
        // Unsupported cases have no child.
        let names: Vec<String> = all.iter().map(Child::binary).collect();
        assert!(!names.contains(&"child-jiter-ser-dom".to_string()));
        assert!(!names.contains(&"child-miniserde-de-clients".to_string()));
        assert!(names.contains(&"child-noop-ser-any".to_string()));
        let codecs = registry();
        let noop = codecs.iter().find(|c| c.id() == "noop").unwrap();
        assert_eq!(
            binary_for(*noop, Op::De, Some(ModelKind::Users)),
            "child-noop-de-any"
        );
    }
}
