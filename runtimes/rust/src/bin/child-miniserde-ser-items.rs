//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `ser`, target `items`.
fn main() {
    children::run::ser::<codecs::MiniserdeTyped, Vec<codecs::models::Item>>()
}
