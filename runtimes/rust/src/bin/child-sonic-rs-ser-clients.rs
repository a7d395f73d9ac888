//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `ser`, target `clients`.
fn main() {
    children::run::ser::<codecs::SonicRsTyped, codecs::models::Clients>()
}
