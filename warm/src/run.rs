//! How one operation of codec `C` is run, warm: the one piece of code both the criterion
//! benches and the `alloc` binary call, so that what is timed is exactly what is counted.
//!
//! A [`Workload`] is made once per cell, outside anything measured: the codec's own state
//! (`C::new()`), the value a `ser` starts from (built from the same prepared input a cold child
//! loads: the seeded generator's model for typed codecs, the document's neutral tree turned into
//! the library's tree by its constructors for DOM codecs), the document for `de`, and one output
//! buffer that every `ser` clears and reuses, as a tuned application would. [`Workload::parts`]
//! splits it into the [`Inputs`] that set-up code copies from and the [`Runner`] whose two
//! methods are the measured operation:
//!
//! - `de`: every codec gets a fresh copy of the document per call, made by [`Inputs::fresh`]
//!   outside the measured region, as in a cold child (a library that parses in place and one
//!   that only reads are handed the same input). The value is returned (borrowing that copy,
//!   for a borrowed DOM), so that the caller drops it outside the measured region.
//! - `ser`: clears the output buffer, writes the value into it, returns the length written.

use codecs::inputs::{load, prepare};
use codecs::models::ModelKind;
use codecs::{input_kind, Codec, CodecError, Op};
use fixtures::gate::Document;

/// Everything one cell needs, made before measuring.
pub struct Workload<C: Codec> {
    /// The document that `Inputs::fresh` copies: `Some` for `de`.
    source: Option<Vec<u8>>,
    runner: Runner<C>,
}

/// The measured operation of one cell.
pub struct Runner<C: Codec> {
    codec: C,
    model: Option<ModelKind>,
    /// The value every `ser` writes.
    value: Option<C::Value<'static>>,
    /// The output buffer every `ser` clears and reuses.
    out: Vec<u8>,
}

/// Where fresh inputs come from.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    /// `Some` for `de`.
    source: Option<&'a [u8]>,
}

impl<C: Codec> Workload<C> {
    /// The workload of `document` × `op` for codec `C`; an error when the codec cannot even
    /// make its input (which the correctness gate has already reported).
    pub fn new(document: &Document, op: Op) -> Result<Workload<C>, CodecError> {
        let model = document.fixture.model_kind();
        let value = match op {
            Op::Ser => {
                let kind = input_kind::<C>(op, model);
                let input = prepare(kind, document.model.as_ref(), &document.bytes)
                    .and_then(|bytes| load(kind, bytes))
                    .map_err(CodecError)?;
                Some(C::ser_value(input)?)
            }
            Op::De => None,
        };
        Ok(Workload {
            source: (op == Op::De).then(|| document.bytes.clone()),
            runner: Runner {
                codec: C::new(),
                model,
                value,
                out: Vec::new(),
            },
        })
    }

    /// The set-up side (fresh inputs) and the measured side (the runner), borrowed apart.
    pub fn parts(&mut self) -> (Inputs<'_>, &mut Runner<C>) {
        (
            Inputs {
                source: self.source.as_deref(),
            },
            &mut self.runner,
        )
    }

    /// One operation with its input made first: for warm-ups and checks, never for timing.
    pub fn step(&mut self, op: Op) {
        let (inputs, runner) = self.parts();
        match op {
            Op::De => {
                let mut fresh = inputs.fresh();
                std::hint::black_box(runner.de(&mut fresh));
            }
            Op::Ser => {
                std::hint::black_box(runner.ser());
            }
        }
    }
}

impl Inputs<'_> {
    /// The input of one `de` call: a fresh copy of the document (`None` for `ser`, which has no
    /// input to copy). Call it outside the measured region.
    #[inline]
    pub fn fresh(&self) -> Option<Vec<u8>> {
        self.source.map(<[u8]>::to_vec)
    }
}

impl<C: Codec> Runner<C> {
    /// One `de`, of its fresh copy of the document (a borrowed DOM's value points into it).
    #[inline]
    pub fn de<'a>(&mut self, fresh: &'a mut Option<Vec<u8>>) -> C::Value<'a> {
        let Some(input) = fresh else {
            failed(C::ID, Op::De, &CodecError("no input to read".into()))
        };
        match self.codec.de_any(self.model, input) {
            Ok(value) => value,
            Err(e) => failed(C::ID, Op::De, &e),
        }
    }

    /// One `ser` into the reused buffer; returns the length written.
    #[inline]
    pub fn ser(&mut self) -> usize {
        self.out.clear();
        let Some(value) = &self.value else {
            failed(C::ID, Op::Ser, &CodecError("no value to write".into()))
        };
        if let Err(e) = self.codec.ser_any(self.model, value, &mut self.out) {
            failed(C::ID, Op::Ser, &e);
        }
        self.out.len()
    }

    /// The codec's own state, for tests that count what it was asked.
    #[cfg(test)]
    pub(crate) fn codec_mut(&mut self) -> &mut C {
        &mut self.codec
    }

    /// What the last `ser` wrote.
    pub fn output(&self) -> &[u8] {
        &self.out
    }
}

/// A codec that passed the gate failed while being measured: stop loudly.
#[cold]
#[inline(never)]
fn failed(codec: &str, op: Op, error: &CodecError) -> ! {
    panic!("{codec} {op} failed after passing the correctness gate: {error}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use codecs::{SerdeJsonTyped, SimdJsonTyped, SonicRsDom};
    use fixtures::catalog::find;

    fn document(name: &str) -> (Document, Vec<u8>) {
        let document = Document::make(find(name).unwrap(), fixtures::DEFAULT_SEED, None).unwrap();
        let doc = document.bytes.clone();
        (document, doc)
    }

    #[test]
    fn ser_reuses_its_buffer_and_writes_the_document() {
        let (document, doc) = document("users-1kb");
        let mut w = Workload::<SerdeJsonTyped>::new(&document, Op::Ser).unwrap();
        let (_, runner) = w.parts();
        assert_eq!(runner.ser(), doc.len());
        assert_eq!(runner.ser(), doc.len(), "cleared, not appended");
        assert_eq!(runner.output(), &doc[..]);
    }

    #[test]
    fn every_de_gets_a_fresh_copy_of_the_document() {
        let (document, doc) = document("users-1kb");
        let mut simd = Workload::<SimdJsonTyped>::new(&document, Op::De).unwrap();
        let (inputs, runner) = simd.parts();
        let mut fresh = inputs.fresh();
        assert_eq!(fresh.as_deref(), Some(&doc[..]));
        let value = runner.de(&mut fresh);
        assert_eq!(Some(value), document.model.clone());

        let mut serde = Workload::<SerdeJsonTyped>::new(&document, Op::De).unwrap();
        let (inputs, _) = serde.parts();
        assert_eq!(
            inputs.fresh().as_deref(),
            Some(&doc[..]),
            "a codec that only reads gets its own copy all the same"
        );

        // simd-json's ser has no input to copy.
        let mut ser = Workload::<SimdJsonTyped>::new(&document, Op::Ser).unwrap();
        assert!(ser.parts().0.fresh().is_none());
        ser.step(Op::Ser);
    }

    #[test]
    fn dom_ser_starts_from_the_library_tree_built_from_the_document() {
        let (document, doc) = document("list-korean");
        let mut w = Workload::<SonicRsDom>::new(&document, Op::Ser).unwrap();
        w.step(Op::Ser);
        let (_, runner) = w.parts();
        let written: serde_json::Value = serde_json::from_slice(runner.output()).unwrap();
        let expected: serde_json::Value = serde_json::from_slice(&doc).unwrap();
        assert_eq!(written, expected);
    }
}
