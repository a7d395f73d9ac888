//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `ser`, target `clients`.
fn main() {
    children::run::ser::<fixtures::codecs::SonicRsTyped, fixtures::models::Clients>()
}
