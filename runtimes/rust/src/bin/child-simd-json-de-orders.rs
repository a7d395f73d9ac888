//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json`, op `de`, target `orders`.
fn main() {
    children::run::de::<codecs::SimdJsonTyped, Vec<codecs::models::Order>>()
}
