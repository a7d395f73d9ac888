//! Generated from the codec registry (children::catalog): the cold child of codec
//! `jiter`, op `de`, target `dom`.
fn main() {
    children::run::de::<codecs::JiterDom, codecs::inputs::Dom>()
}
