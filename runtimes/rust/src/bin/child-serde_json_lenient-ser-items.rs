//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json_lenient`, op `ser`, target `items`.
fn main() {
    children::run::ser::<codecs::SerdeJsonLenientTyped, Vec<codecs::models::Item>>()
}
