//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `de`, target `small`.
fn main() {
    children::run::de::<codecs::MiniserdeTyped, codecs::models::Small>()
}
