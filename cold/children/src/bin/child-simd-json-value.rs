//! The cold child of codec `simd-json-value` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::SimdJsonDom>()
}
