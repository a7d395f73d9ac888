//! One library used one way: the [`Codec`] trait every adapter implements, and what the cold
//! children, the warm benches and the gate share around it (support, the input a cell reads, one
//! operation run as a child runs it). The adapters take their words from here.

use crate::inputs::{self, Dom, InputKind, Prepared, Target, Tree};
use crate::models::{Model, ModelKind};

pub use crate::checksum::{digest_of, output_checksum, unordered_checksum};
pub use crate::error::CodecError;
pub use schema::{Op, OutputMode, Style};

/// Expands `$body` with `$T` bound to the target of a model known at run time (`None`: [`Dom`]):
/// how code that is not specialised to one model calls a codec's generic methods.
macro_rules! on_target {
    ($model:expr, $T:ident => $body:expr) => {{
        use $crate::models::{Clients, Item, ModelKind, Order, Place, Small, Users};
        match $model {
            None => {
                type $T = Dom;
                $body
            }
            Some(ModelKind::Users) => {
                type $T = Users;
                $body
            }
            Some(ModelKind::Clients) => {
                type $T = Clients;
                $body
            }
            Some(ModelKind::Small) => {
                type $T = Small;
                $body
            }
            Some(ModelKind::Items) => {
                type $T = Vec<Item>;
                $body
            }
            Some(ModelKind::Places) => {
                type $T = Vec<Place>;
                $body
            }
            Some(ModelKind::Orders) => {
                type $T = Vec<Order>;
                $body
            }
        }
    }};
}

/// Whether a codec can run a cell; `Err` carries the reason a reader is shown.
pub type Support = Result<(), &'static str>;

/// One library used one way.
pub trait Codec: Sized {
    /// The stable id used in every table, file and command line.
    const ID: &'static str;
    /// The crate, as Cargo.lock names it (its version is read from there).
    const LIBRARY: &'static str;
    const STYLE: Style;
    /// A DOM whose strings point into the input it parsed (`true`: simd-json's `BorrowedValue`),
    /// rather than a tree that owns its strings. `cold list` shows which.
    const BORROWED: bool = false;
    /// How `ser` hands its output over: into the caller's reused buffer, or as a new `String`
    /// per call (the library's natural API either way; tables show which).
    const OUTPUT: OutputMode = OutputMode::ReusedBuffer;
    /// Whether `ser` writes the same bytes for the same value in every process. `false` where
    /// the library writes an object's members in an order of its own that changes from one
    /// process to the next (sonic-rs's hand-built objects are hash maps with a random seed):
    /// its output is then checked by [`unordered_checksum`], which no reordering changes.
    const STABLE_OUTPUT: bool = true;

    /// What `de` produces and `ser` consumes. `'a` is the input's lifetime: a borrowed DOM's
    /// strings point into the buffer it parsed (simd-json's `BorrowedValue`); every other
    /// codec's value owns its data and ignores it.
    type Value<'a>;

    /// Whether this codec can run `op` on a fixture whose model is `model` (`None`: a corpus).
    fn supports(model: Option<ModelKind>, op: Op) -> Support;

    /// The library state its users create once and reuse (buffers, a parser); `()`-like where
    /// the library has none. Creating it is the `init` phase.
    fn new() -> Self;

    /// Bytes to a value, for target `T`: a typed codec decodes to the model `T::MODEL` (a
    /// constant here, so a child specialised to one model links that model's code only); a DOM
    /// codec ignores it. Every call gets a fresh copy of the document, made outside the timed
    /// region, so a library that parses in place (simd-json) and one that only reads are handed
    /// the same input.
    fn de<'a, T: Target>(&mut self, input: &'a mut [u8]) -> Result<Self::Value<'a>, CodecError>;

    /// [`Codec::de`] for a model known only at run time (`None`: any document, as a DOM reads
    /// it): for code that is not specialised to one model (the warm benches, the gate).
    fn de_any<'a>(
        &mut self,
        model: Option<ModelKind>,
        input: &'a mut [u8],
    ) -> Result<Self::Value<'a>, CodecError> {
        on_target!(model, T => self.de::<T>(input))
    }

    /// A value to bytes, appended to `out` (callers clear and reuse it). For target `T` as
    /// [`Codec::de`]: a typed codec writes `T`'s model only.
    fn ser<T: Target>(
        &mut self,
        value: &Self::Value<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError>;

    /// [`Codec::ser`] for a model known only at run time.
    fn ser_any(
        &mut self,
        model: Option<ModelKind>,
        value: &Self::Value<'_>,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError> {
        on_target!(model, T => self.ser::<T>(value, out))
    }

    /// The value a `ser` cell writes, from its prepared input (see `inputs`): typed codecs take
    /// the model, DOM codecs build their tree from the neutral tree with their constructors
    /// (never their parser), the baseline takes the document. It owns its data (`'static`).
    fn ser_value(input: Prepared) -> Result<Self::Value<'static>, CodecError>;

    /// A checksum of a decoded value of target `T` that runs no JSON writer: a hash of its
    /// structure (see [`digest_of`]), computed after the clock has stopped.
    fn digest<T: Target>(value: &Self::Value<'_>) -> u64;

    /// [`Codec::digest`] for a model known only at run time.
    fn digest_any(model: Option<ModelKind>, value: &Self::Value<'_>) -> u64 {
        on_target!(model, T => Self::digest::<T>(value))
    }

    /// The value as serde_json sees it, for the correctness gate (never called when timing).
    fn to_json(value: &Self::Value<'_>) -> Result<serde_json::Value, CodecError>;
}

/// The library version Cargo.lock pins for `library`.
pub fn locked_version(library: &str) -> &'static str {
    mod locked {
        include!(concat!(env!("OUT_DIR"), "/locked_versions.rs"));
    }
    locked::LOCKED
        .iter()
        .find(|(name, _)| *name == library)
        .map(|(_, version)| *version)
        .unwrap_or("unknown")
}

/// The checksum of codec `C`'s `ser` output: [`output_checksum`], or [`unordered_checksum`]
/// for a codec whose output order changes between processes.
pub fn ser_checksum<C: Codec>(bytes: &[u8]) -> u64 {
    if C::STABLE_OUTPUT {
        output_checksum(bytes)
    } else {
        unordered_checksum(bytes)
    }
}

/// Puts a library's freshly returned `String` into the caller's output buffer: moved in when
/// the buffer is empty (no copy), appended otherwise.
pub(crate) fn take_output(text: String, out: &mut Vec<u8>) {
    if out.is_empty() {
        *out = text.into_bytes();
    } else {
        out.extend_from_slice(text.as_bytes());
    }
}

/// Support for typed codecs: every generated fixture, no corpus.
pub fn typed_support(model: Option<ModelKind>) -> Support {
    match model {
        Some(_) => Ok(()),
        None => Err("a classic corpus has no typed model"),
    }
}

/// The model a typed `ser` cell writes.
pub fn typed_ser_value(input: Prepared) -> Result<Model, CodecError> {
    match input {
        Prepared::Model(model) => Ok(model),
        other => Err(CodecError(format!(
            "a typed codec writes a model, not a {}",
            prepared_name(&other)
        ))),
    }
}

/// The neutral tree a DOM `ser` cell builds its library's tree from.
pub fn dom_ser_tree(input: Prepared) -> Result<Tree, CodecError> {
    match input {
        Prepared::Tree(tree) => Ok(tree),
        other => Err(CodecError(format!(
            "a DOM codec writes a tree, not a {}",
            prepared_name(&other)
        ))),
    }
}

fn prepared_name(input: &Prepared) -> &'static str {
    match input {
        Prepared::Document(_) => "document",
        Prepared::Model(_) => "model",
        Prepared::Tree(_) => "tree",
    }
}

/// The input file a cell of codec `C` reads.
pub fn input_kind<C: Codec>(op: Op, model: Option<ModelKind>) -> InputKind {
    InputKind::of(C::STYLE, op, model)
}

/// What a cold child must print for a cell: the checksum and the byte count (the input's length
/// for `de`, the output's for `ser`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChildOutput {
    pub checksum: u64,
    pub bytes: u64,
}

/// Runs one operation of `op` in-process exactly as a cold child's last operation does, from the
/// bytes of the input file the child reads, and returns what the child must report.
pub fn run_once<C: Codec>(
    op: Op,
    model: Option<ModelKind>,
    input: &[u8],
) -> Result<ChildOutput, CodecError> {
    let mut codec = C::new();
    match op {
        Op::De => {
            let mut copy = input.to_vec();
            let value = codec.de_any(model, &mut copy)?;
            Ok(ChildOutput {
                checksum: C::digest_any(model, &value),
                bytes: input.len() as u64,
            })
        }
        Op::Ser => {
            let prepared =
                inputs::load(input_kind::<C>(op, model), input.to_vec()).map_err(CodecError)?;
            let value = C::ser_value(prepared)?;
            let mut out = Vec::new();
            codec.ser_any(model, &value, &mut out)?;
            Ok(ChildOutput {
                checksum: ser_checksum::<C>(&out),
                bytes: out.len() as u64,
            })
        }
    }
}
