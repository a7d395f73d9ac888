//! The child binaries' sources are exactly the ones the registry calls for (children::catalog):
//! one file per codec × op × target, each the generated line. `THAW_WRITE_CHILDREN=1 cargo test
//! -p children --test generated` writes them (after a codec is added or removed) and removes
//! the ones no codec calls for.

use std::collections::BTreeMap;
use std::path::Path;

#[test]
fn every_child_source_is_the_generated_one() {
    let bins = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    let want: BTreeMap<String, String> = children::catalog::all()
        .iter()
        .map(|c| (format!("{}.rs", c.binary()), c.source()))
        .collect();
    let have: BTreeMap<String, String> = std::fs::read_dir(&bins)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("child-"))
        .map(|name| {
            let text = std::fs::read_to_string(bins.join(&name)).unwrap();
            (name, text)
        })
        .collect();
    if std::env::var_os("THAW_WRITE_CHILDREN").is_some() {
        for (name, text) in &want {
            if have.get(name) != Some(text) {
                std::fs::write(bins.join(name), text).unwrap();
            }
        }
        for name in have.keys().filter(|n| !want.contains_key(*n)) {
            std::fs::remove_file(bins.join(name)).unwrap();
        }
        return;
    }
    let missing: Vec<&String> = want.keys().filter(|n| !have.contains_key(*n)).collect();
    let extra: Vec<&String> = have.keys().filter(|n| !want.contains_key(*n)).collect();
    let stale: Vec<&String> = want
        .iter()
        .filter(|(n, t)| have.get(*n).is_some_and(|h| h != *t))
        .map(|(n, _)| n)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && stale.is_empty(),
        "the child sources differ from the registry: missing {missing:?}, extra {extra:?}, \
         stale {stale:?}; run `THAW_WRITE_CHILDREN=1 cargo test -p children --test generated`"
    );
}
