//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json_lenient`, op `de`, target `orders`.
fn main() {
    children::run::de::<codecs::SerdeJsonLenientTyped, Vec<codecs::models::Order>>()
}
