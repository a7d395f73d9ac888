//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json-value`, op `de`, target `dom`.
fn main() {
    children::run::de::<codecs::SimdJsonDom, codecs::inputs::Dom>()
}
