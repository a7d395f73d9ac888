//! Each typed child carries the code of its one model and no other's, by construction (the model
//! is a type known at compile time, never a value matched at run time): the JSON names that only
//! another model's serde code holds must not be in the child's read-only data (.rodata; the
//! debug information of a test build names every type, so it is not read).

use children::catalog;
use codecs::models::ModelKind;
use object::{Object, ObjectSection};

/// A JSON name that only `model`'s code holds, among the typed models.
fn marker(model: &str) -> Option<&'static str> {
    Some(match model {
        "users" => "favoriteFruit",
        "clients" => "partners",
        "places" => "rating",
        "orders" => "delivered",
        _ => return None,
    })
}

#[test]
fn every_typed_child_carries_its_own_model_only() {
    let dir = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(|deps| deps.parent())
        .unwrap()
        .to_path_buf();
    let models: Vec<&str> = ModelKind::ALL.iter().map(|k| k.id()).collect();
    let mut checked = 0;
    for child in catalog::all() {
        if !models.contains(&child.target) {
            continue;
        }
        let path = dir.join(child.binary());
        let bytes = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (built with the package's tests)", path.display()));
        let file = object::File::parse(&*bytes).unwrap();
        let rodata = file
            .section_by_name(".rodata")
            .unwrap_or_else(|| panic!("{}: no .rodata", path.display()))
            .data()
            .unwrap();
        let has = |text: &str| rodata.windows(text.len()).any(|w| w == text.as_bytes());
        if let Some(own) = marker(child.target) {
            assert!(
                has(own),
                "{}: its own model's `{own}` is missing",
                child.binary()
            );
        }
        for other in models.iter().filter(|m| **m != child.target) {
            if let Some(name) = marker(other) {
                assert!(
                    !has(name),
                    "{} carries the {other} model's code (`{name}`)",
                    child.binary()
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 0);
}
