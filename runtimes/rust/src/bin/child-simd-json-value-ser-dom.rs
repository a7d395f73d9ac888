//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json-value`, op `ser`, target `dom`.
fn main() {
    children::run::ser::<codecs::SimdJsonDom, codecs::inputs::Dom>()
}
