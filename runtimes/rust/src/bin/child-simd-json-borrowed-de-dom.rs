//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json-borrowed`, op `de`, target `dom`.
fn main() {
    children::run::de::<codecs::SimdJsonBorrowedDom, codecs::inputs::Dom>()
}
