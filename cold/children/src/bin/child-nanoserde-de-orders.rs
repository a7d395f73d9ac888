//! Generated from the codec registry (children::catalog): the cold child of codec
//! `nanoserde`, op `de`, target `orders`.
fn main() {
    children::run::de::<fixtures::codecs::NanoserdeTyped, Vec<fixtures::models::Order>>()
}
