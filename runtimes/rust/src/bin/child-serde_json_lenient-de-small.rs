//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json_lenient`, op `de`, target `small`.
fn main() {
    children::run::de::<codecs::SerdeJsonLenientTyped, codecs::models::Small>()
}
