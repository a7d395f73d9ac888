//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `de`, target `users`.
fn main() {
    children::run::de::<codecs::SonicRsTyped, codecs::models::Users>()
}
