//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json`, op `de`, target `clients`.
fn main() {
    children::run::de::<codecs::SimdJsonTyped, codecs::models::Clients>()
}
