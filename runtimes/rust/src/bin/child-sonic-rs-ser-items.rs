//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `ser`, target `items`.
fn main() {
    children::run::ser::<codecs::SonicRsTyped, Vec<codecs::models::Item>>()
}
