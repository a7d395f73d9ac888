//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `de`, target `orders`.
fn main() {
    children::run::de::<codecs::MiniserdeTyped, Vec<codecs::models::Order>>()
}
