//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `ser`, target `users`.
fn main() {
    children::run::ser::<fixtures::codecs::MiniserdeTyped, fixtures::models::Users>()
}
