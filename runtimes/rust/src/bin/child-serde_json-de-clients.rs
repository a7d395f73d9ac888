//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json`, op `de`, target `clients`.
fn main() {
    children::run::de::<codecs::SerdeJsonTyped, codecs::models::Clients>()
}
