//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json`, op `ser`, target `orders`.
fn main() {
    children::run::ser::<codecs::SerdeJsonTyped, Vec<codecs::models::Order>>()
}
