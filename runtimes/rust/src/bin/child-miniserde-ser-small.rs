//! Generated from the codec registry (children::catalog): the cold child of codec
//! `miniserde`, op `ser`, target `small`.
fn main() {
    children::run::ser::<codecs::MiniserdeTyped, codecs::models::Small>()
}
