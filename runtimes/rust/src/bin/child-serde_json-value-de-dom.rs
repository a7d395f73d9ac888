//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json-value`, op `de`, target `dom`.
fn main() {
    children::run::de::<codecs::SerdeJsonDom, codecs::inputs::Dom>()
}
