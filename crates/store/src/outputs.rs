//! Where an output the user names may be written (`compare --out`, `export --out`, a report's
//! folder): never over a file already there unless forced, never into a folder that holds a run
//! or warm results, and always written new and renamed over the name.

use files::Folder;
use schema::{run_folder, warm_files};
use std::io;
use std::path::{Path, PathBuf};

/// The names that make a folder an input of thaw's: a run's files, the warm track's results.
const INPUT_NAMES: [(&str, &str); 7] = [
    (run_folder::MANIFEST, "a run"),
    (run_folder::PLAN, "a run"),
    (run_folder::SAMPLES, "a run"),
    (warm_files::CRITERION, "warm results"),
    ("jmh", "warm results"),
    (warm_files::ALLOC, "warm results"),
    (warm_files::GATE, "warm results"),
];

/// What the folder `dir` holds that thaw reads (`a run`, `warm results`), if anything: a folder
/// an output must not land in.
pub fn holds_inputs(dir: &Path) -> Option<&'static str> {
    INPUT_NAMES
        .iter()
        .find(|(name, _)| std::fs::symlink_metadata(dir.join(name)).is_ok())
        .map(|(_, what)| *what)
}

/// The folder among `dir` and the folders around it that holds an input of thaw's (`a run`,
/// `warm results`), if one does: an output lands neither on nor anywhere inside such a folder
/// (a run's `fixtures/` or `report/` included). The folders are taken both as named (made
/// absolute) and where they lead ([`resolved`]: a link to a run's `fixtures/` is inside the run).
pub fn inside_inputs(dir: &Path) -> Option<(PathBuf, &'static str)> {
    let named = std::path::absolute(dir).ok()?;
    [Some(named), resolved(dir)]
        .into_iter()
        .flatten()
        .find_map(|dir| {
            dir.ancestors()
                .find_map(|d| holds_inputs(d).map(|what| (d.to_path_buf(), what)))
        })
}

/// Where `path` leads: absolute, every link in the part of it that exists followed, the rest
/// appended as named (a folder a command is about to make).
pub fn resolved(path: &Path) -> Option<PathBuf> {
    let absolute = std::path::absolute(path).ok()?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(mut real) = std::fs::canonicalize(existing) {
            real.extend(rest.iter().rev());
            return Some(real);
        }
        rest.push(existing.file_name()?.to_os_string());
        existing = existing.parent()?;
    }
}

/// Why an output the user named at `path` would land on an input, if it would: anything at the
/// path already (a file of theirs, a run's file, a link), or a folder holding a run or warm
/// results around it. `force` (the command's `--force`) lets an existing file be replaced;
/// a folder in the way is never replaced.
pub fn output_refused(path: &Path, option: &str, force: bool) -> Option<String> {
    let (folder, _) = Folder::of_file(path);
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            return Some(format!(
                "{option} {}: it is a folder; give a file's path",
                path.display()
            ))
        }
        Ok(_) if !force => {
            return Some(format!(
                "{option} {}: a file is there already; thaw writes an output only where \
                 nothing is (give another path, or --force to replace it)",
                path.display()
            ))
        }
        _ => {}
    }
    match inside_inputs(&folder.path()) {
        Some((holder, what)) if !force => Some(format!(
            "{option} {}: {} holds {what}, an input of thaw's, and the output would land \
             inside it; write the output elsewhere (or --force)",
            path.display(),
            holder.display()
        )),
        _ => None,
    }
}

/// Writes `bytes` as an output the user named (`compare --out`, `export --out`): refused as
/// [`output_refused`] says, else written new and renamed over the name (a link there is
/// replaced, never followed; a hard-linked file keeps its bytes under its other name).
pub fn write_output(path: &Path, option: &str, force: bool, bytes: &[u8]) -> io::Result<()> {
    if let Some(why) = output_refused(path, option, force) {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, why));
    }
    let (folder, name) = Folder::of_file(path);
    folder.write_atomically(name, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("thaw-outputs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn an_output_never_lands_on_an_input() {
        let d = tmp("outputs");
        let victim = d.join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let e = write_output(&victim, "--out", false, b"x")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--out") && e.contains("a file is there already"),
            "{e}"
        );
        symlink(&victim, d.join("link.csv")).unwrap();
        assert!(write_output(&d.join("link.csv"), "--out", false, b"x").is_err());
        // forced, a link is replaced, never followed
        write_output(&d.join("link.csv"), "--out", true, b"x").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let run = d.join("run");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::write(run.join("samples.csv"), "x").unwrap();
        assert_eq!(holds_inputs(&run), Some("a run"));
        let e = output_refused(&run.join("new.csv"), "--out", false).unwrap();
        assert!(e.contains("holds a run"), "{e}");
        // a subfolder of a run (its fixtures) is inside it too
        std::fs::create_dir_all(run.join("fixtures/deeper")).unwrap();
        for inner in ["fixtures/new.csv", "fixtures/deeper/new.csv"] {
            let e = output_refused(&run.join(inner), "--out", false).unwrap();
            assert!(e.contains("holds a run") && e.contains("inside"), "{e}");
        }
        assert_eq!(
            inside_inputs(&run.join("fixtures/deeper")).map(|x| x.1),
            Some("a run")
        );
        assert_eq!(inside_inputs(&d), None);
        // a link to a run's folder, or to a folder inside it, is inside it too
        symlink(run.join("fixtures"), d.join("to-fixtures")).unwrap();
        let (holder, what) = inside_inputs(&d.join("to-fixtures")).unwrap();
        assert_eq!(
            (holder.file_name().unwrap(), what),
            ("run".as_ref(), "a run")
        );
        assert!(inside_inputs(&d.join("to-fixtures/not-yet")).is_some());
        assert_eq!(
            resolved(&d.join("to-fixtures/a/b")),
            Some(
                std::fs::canonicalize(run.join("fixtures"))
                    .unwrap()
                    .join("a/b")
            )
        );
        assert!(output_refused(&run, "--out", true)
            .unwrap()
            .contains("folder"));
        write_output(&d.join("new.csv"), "--out", false, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(d.join("new.csv")).unwrap(), "new");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
