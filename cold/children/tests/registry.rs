//! Every codec of the registry has its child, and every child is the one shared line.

use fixtures::codecs::registry;

#[test]
fn one_child_of_one_line_per_codec() {
    let bins = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    for codec in registry() {
        let path = bins.join(format!("child-{}.rs", codec.id()));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "codec {} has no child at {}: {e}",
                codec.id(),
                path.display()
            )
        });
        let code: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .collect();
        assert_eq!(code.len(), 3, "{}: {code:?}", path.display());
        assert!(
            code[1].starts_with("children::run::main::<fixtures::codecs::"),
            "{}",
            path.display()
        );
    }
    let children = std::fs::read_dir(&bins)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("child-")
        })
        .count();
    assert_eq!(children, registry().len(), "a child without a codec");
}
