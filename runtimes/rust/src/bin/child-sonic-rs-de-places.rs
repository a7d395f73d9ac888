//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `de`, target `places`.
fn main() {
    children::run::de::<codecs::SonicRsTyped, Vec<codecs::models::Place>>()
}
