//! Generated from the codec registry (children::catalog): the cold child of codec
//! `sonic-rs`, op `ser`, target `users`.
fn main() {
    children::run::ser::<codecs::SonicRsTyped, codecs::models::Users>()
}
