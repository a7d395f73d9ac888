//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json-borrowed`, op `ser`, target `dom`.
fn main() {
    children::run::ser::<codecs::SimdJsonBorrowedDom, codecs::inputs::Dom>()
}
