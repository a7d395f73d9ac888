//! Generated from the codec registry (children::catalog): the cold child of codec
//! `noop`, op `de`, target `any`.
fn main() {
    children::run::de::<codecs::Noop, codecs::inputs::AnyInput>()
}
