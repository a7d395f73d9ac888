//! One writer per run folder: an advisory lock (`flock`) on the run folder's own descriptor, the
//! one its files are written through (`files::Folder::hold`), held by a fresh run or a resume
//! for as long as it writes the folder. It is the folder's inode that is locked, not a name in
//! it: removing or renaming `<run>/.lock`, or renaming the folder, takes nothing away. A second
//! runner is refused with the holder's pid and command line, which the holder writes into
//! `<run>/.lock` (a note for the message only). The kernel drops the lock when the holder exits,
//! however it exits, so a killed run never leaves a stale lock.

use anyhow::{bail, Context, Result};
use files::Folder;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use schema::run_folder::LOCK;

/// A held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub(crate) struct FolderLock {
    _folder: files::Held,
}

/// Takes the lock of run folder `dir` (which must exist), or says who holds it.
pub(crate) fn lock(dir: &Path) -> Result<FolderLock> {
    let path = dir.join(LOCK);
    let folder = Folder::new(dir);
    let held = folder
        .hold()
        .with_context(|| format!("cannot open the run folder {}", dir.display()))?;
    let taken = held
        .try_lock()
        .with_context(|| format!("cannot lock the run folder {}", dir.display()))?;
    if !taken {
        let mut holder = String::new();
        if let Ok(file) = folder.open_read(LOCK) {
            let _ = file.take(4096).read_to_string(&mut holder);
        }
        let holder = text::for_terminal(&text::clip(holder.trim(), 300), false);
        if let Some(pid) = recorded_pid(&holder).filter(|&pid| !alive(pid)) {
            bail!(
                "{} is locked by another process, but the pid its {LOCK} names has ended \
                 (stale: {holder}): the lock is held by a run that has only just started and not \
                 yet written its name (try again in a moment), or by a process that inherited \
                 it from pid {pid} (`fuser -v {}` names it; end it, and the kernel frees the \
                 lock). thaw never takes over a lock that is held",
                dir.display(),
                path.display()
            );
        }
        bail!(
            "{} is being written by another cold run ({}); wait for it to end, or give another \
             folder",
            dir.display(),
            if holder.is_empty() {
                "its pid is not recorded".to_string()
            } else {
                holder
            }
        );
    }
    let me = format!(
        "pid {}: {}",
        std::process::id(),
        std::env::args().collect::<Vec<_>>().join(" ")
    );
    let mut file = folder
        .open_read_write(LOCK)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    file.set_len(0)
        .and_then(|()| file.seek(SeekFrom::Start(0)).map(drop))
        .and_then(|()| file.write_all(me.as_bytes()))
        .and_then(|()| file.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(FolderLock { _folder: held })
}

/// The pid a lock file records (`pid 123: cold run …`), if it records one.
fn recorded_pid(holder: &str) -> Option<libc::pid_t> {
    let rest = holder.strip_prefix("pid ")?;
    rest[..rest.find(':')?].parse().ok().filter(|&pid| pid > 0)
}

/// Whether process `pid` exists (a signal 0 reaches it, or it is another user's).
fn alive(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let reached = unsafe { libc::kill(pid, 0) } == 0;
    reached || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    #[test]
    fn a_second_writer_is_refused_with_the_holder_named_and_the_lock_goes_with_its_holder() {
        let dir = std::env::temp_dir().join(format!("thaw-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let held = lock(&dir).unwrap();
        // flock locks belong to open file descriptions: a second open in this process is refused
        // as another process would be.
        let e = lock(&dir).unwrap_err().to_string();
        assert!(e.contains("another cold run"), "{e}");
        assert!(e.contains(&format!("pid {}", std::process::id())), "{e}");
        // Another process is refused too (flock(1) with -n fails at once, exit 1), on the folder
        // itself.
        let other = Command::new("flock")
            .args(["-n"])
            .arg(&dir)
            .arg("true")
            .status();
        if let Ok(status) = other {
            assert!(!status.success(), "another process took a held lock");
        }
        // The note removed, or the folder renamed: the lock stays.
        std::fs::remove_file(dir.join(LOCK)).unwrap();
        let e = lock(&dir).unwrap_err().to_string();
        assert!(e.contains("another cold run"), "{e}");
        let moved = dir.with_extension("moved");
        std::fs::rename(&dir, &moved).unwrap();
        let e = lock(&moved).unwrap_err().to_string();
        assert!(e.contains("another cold run"), "{e}");
        std::fs::rename(&moved, &dir).unwrap();
        // a lock whose recorded pid has ended (a holder that inherited it, or one that has not
        // yet written its name) is said to be stale, never taken over
        let mut gone = Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        std::fs::write(dir.join(LOCK), format!("pid {dead}: cold run --out x")).unwrap();
        let e = lock(&dir).unwrap_err().to_string();
        assert!(
            e.contains("stale") && e.contains(&format!("pid {dead}")) && e.contains("fuser"),
            "{e}"
        );
        assert_eq!(recorded_pid("pid 42: cold run"), Some(42));
        assert_eq!(recorded_pid("its pid"), None);
        drop(held);
        let again = lock(&dir).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
