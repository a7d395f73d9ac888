//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json`, op `de`, target `places`.
fn main() {
    children::run::de::<codecs::SerdeJsonTyped, Vec<codecs::models::Place>>()
}
