//! The reference programs (`minimal-<codec>`, the least a user's program does to decode a Users
//! document) decode the document and print the protocol's line, so a script can set each typed
//! codec's first call beside its reference.

use std::process::Command;

#[test]
fn each_reference_decodes_users_and_prints_the_line() {
    let fixture = fixtures::find("users-2kb").unwrap();
    let document = fixture.document(fixtures::DEFAULT_SEED, None).unwrap();
    let path = std::env::temp_dir().join(format!("thaw-minimal-{}.json", std::process::id()));
    std::fs::write(&path, &document).unwrap();
    for program in [
        env!("CARGO_BIN_EXE_minimal-serde_json"),
        env!("CARGO_BIN_EXE_minimal-simd-json"),
        env!("CARGO_BIN_EXE_minimal-sonic-rs"),
        env!("CARGO_BIN_EXE_minimal-miniserde"),
        env!("CARGO_BIN_EXE_minimal-nanoserde"),
    ] {
        let out = Command::new(program).arg(&path).output().unwrap();
        assert!(out.status.success(), "{program}: {out:?}");
        let line = schema::protocol::Line::parse(&out.stdout).unwrap();
        assert!(
            line.stamps.windows(2).all(|w| w[0] <= w[1]),
            "{program}: {:?}",
            line.stamps
        );
        assert_eq!(line.bytes, document.len() as u64, "{program}");
        let wrong = Command::new(program).arg("/nonexistent").output().unwrap();
        assert!(!wrong.status.success(), "{program} read a missing file");
    }
    std::fs::remove_file(&path).unwrap();
}
