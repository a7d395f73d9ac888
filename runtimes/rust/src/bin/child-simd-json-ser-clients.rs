//! Generated from the codec registry (children::catalog): the cold child of codec
//! `simd-json`, op `ser`, target `clients`.
fn main() {
    children::run::ser::<codecs::SimdJsonTyped, codecs::models::Clients>()
}
