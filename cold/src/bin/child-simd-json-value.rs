//! The cold child of codec `simd-json-value` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::SimdJsonDom>()
}
