//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `de`, target `clients`.
fn main() {
    children::run::de::<codecs::SonicRsTyped, codecs::models::Clients>()
}
