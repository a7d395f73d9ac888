//! Generated from the codec registry (children::catalog): the cold child of codec
//! `noop`, op `ser`, target `any`.
fn main() {
    children::run::ser::<codecs::Noop, codecs::inputs::AnyInput>()
}
