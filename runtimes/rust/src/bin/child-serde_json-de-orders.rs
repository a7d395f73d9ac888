//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json`, op `de`, target `orders`.
fn main() {
    children::run::de::<codecs::SerdeJsonTyped, Vec<codecs::models::Order>>()
}
