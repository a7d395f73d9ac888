//! The cold child of codec `simd-json` (see children::run).
fn main() {
    children::run::main::<fixtures::codecs::SimdJsonTyped>()
}
