//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json`, op `de`, target `users`.
fn main() {
    children::run::de::<fixtures::codecs::SerdeJsonTyped, fixtures::models::Users>()
}
