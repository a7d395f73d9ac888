//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `de`, target `small`.
fn main() {
    children::run::de::<codecs::SonicRsTyped, codecs::models::Small>()
}
