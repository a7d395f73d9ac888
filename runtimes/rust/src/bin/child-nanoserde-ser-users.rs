//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `ser`, target `users`.
fn main() {
    children::run::ser::<codecs::NanoserdeTyped, codecs::models::Users>()
}
