//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `ser`, target `items`.
fn main() {
    children::run::ser::<fixtures::codecs::MiniserdeTyped, Vec<fixtures::models::Item>>()
}
