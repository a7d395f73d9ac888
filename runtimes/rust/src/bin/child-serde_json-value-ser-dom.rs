//! Generated from the codec registry (children::catalog): the cold child of codec
//! `serde_json-value`, op `ser`, target `dom`.
fn main() {
    children::run::ser::<codecs::SerdeJsonDom, codecs::inputs::Dom>()
}
