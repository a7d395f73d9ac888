//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json`, op `ser`, target `places`.
fn main() {
    children::run::ser::<codecs::SimdJsonTyped, Vec<codecs::models::Place>>()
}
