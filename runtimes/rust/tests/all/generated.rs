//! The child binaries' sources are exactly the ones the registry calls for (children::catalog):
//! one file per codec × op × target, each the generated line; and Cargo.toml lists every binary
//! of the package with `test = false` (a child has no tests of its own, and a test harness per
//! child is a link of every library per child in `cargo test`). `THAW_WRITE_CHILDREN=1 cargo
//! test -p children --test all generated` writes both (after a codec is added or removed) and
//! removes the sources no codec calls for.

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
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let cargo_toml = std::fs::read_to_string(&manifest).unwrap();
    if std::env::var_os("THAW_WRITE_CHILDREN").is_some() {
        for (name, text) in &want {
            if have.get(name) != Some(text) {
                std::fs::write(bins.join(name), text).unwrap();
            }
        }
        for name in have.keys().filter(|n| !want.contains_key(*n)) {
            std::fs::remove_file(bins.join(name)).unwrap();
        }
        std::fs::write(&manifest, with_bins(&cargo_toml, &bins)).unwrap();
        return;
    }
    assert!(
        cargo_toml == with_bins(&cargo_toml, &bins),
        "runtimes/rust/Cargo.toml does not list every binary of src/bin with `test = false`; run \
         `THAW_WRITE_CHILDREN=1 cargo test -p children --test all generated`"
    );
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
         stale {stale:?}; run `THAW_WRITE_CHILDREN=1 cargo test -p children --test all generated`"
    );
}

const BEGIN: &str = "# BEGIN the binaries, generated: THAW_WRITE_CHILDREN=1 cargo test -p children --test all generated";
const END: &str = "# END the binaries";

/// `cargo_toml` with its list of binaries made from the files now in `bins`, each `test = false`.
fn with_bins(cargo_toml: &str, bins: &Path) -> String {
    let mut names: Vec<String> = std::fs::read_dir(bins)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".rs").map(String::from))
        .collect();
    names.sort();
    let mut list = format!("{BEGIN}\n");
    for name in names {
        list.push_str(&format!(
            "[[bin]]\nname = \"{name}\"\npath = \"src/bin/{name}.rs\"\ntest = false\n\n"
        ));
    }
    list.push_str(END);
    match (cargo_toml.find(BEGIN), cargo_toml.find(END)) {
        (Some(b), Some(e)) => format!("{}{list}{}", &cargo_toml[..b], &cargo_toml[e + END.len()..]),
        _ => format!("{}\n{list}\n", cargo_toml.trim_end()),
    }
}
