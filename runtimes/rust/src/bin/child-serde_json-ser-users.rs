//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json`, op `ser`, target `users`.
fn main() {
    children::run::ser::<codecs::SerdeJsonTyped, codecs::models::Users>()
}
