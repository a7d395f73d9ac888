//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `de`, target `users`.
fn main() {
    children::run::de::<codecs::MiniserdeTyped, codecs::models::Users>()
}
