//! The cold child of codec `simd-json` (see cold::child).
fn main() {
    cold::child::main::<fixtures::codecs::SimdJsonTyped>()
}
