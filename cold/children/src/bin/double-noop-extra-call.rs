//! A test double, not a codec: the `noop` child's `de` with one extra call in every operation (a
//! sum over the input's bytes), printing what `noop` prints. A counted run of it against one of
//! the real `child-noop-de-any` must show a change in first_op and remaining_ops and nothing
//! else: the check that `analysis compare --fail-on-regression` of counted runs catches a
//! change (cold/tests/run.rs).
use fixtures::codecs::{Codec, CodecError, Noop, Op, Style, Support};
use fixtures::inputs::{AnyInput, Prepared, Target};
use fixtures::models::ModelKind;
use std::hint::black_box;

struct ExtraCall(Noop);

impl Codec for ExtraCall {
    const ID: &'static str = Noop::ID;
    const LIBRARY: &'static str = Noop::LIBRARY;
    const STYLE: Style = Style::Baseline;
    type Value = Vec<u8>;

    fn supports(model: Option<ModelKind>, op: Op) -> Support {
        Noop::supports(model, op)
    }
    fn new() -> Self {
        ExtraCall(Noop::new())
    }
    fn de<T: Target>(&mut self, input: &mut [u8]) -> Result<Vec<u8>, CodecError> {
        let sum: u64 = black_box(&*input).iter().map(|&b| u64::from(b)).sum();
        black_box(sum);
        self.0.de::<T>(input)
    }
    fn ser(&mut self, value: &Vec<u8>, out: &mut Vec<u8>) -> Result<(), CodecError> {
        self.0.ser(value, out)
    }
    fn ser_value(input: Prepared) -> Result<Vec<u8>, CodecError> {
        Noop::ser_value(input)
    }
    fn digest(value: &Vec<u8>) -> u64 {
        Noop::digest(value)
    }
    fn to_json(value: &Vec<u8>) -> Result<serde_json::Value, CodecError> {
        Noop::to_json(value)
    }
}

fn main() {
    children::run::de::<ExtraCall, AnyInput>()
}
