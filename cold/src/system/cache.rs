//! `--cold-cache`: evicting a file from the page cache without root (fsync, then
//! `posix_fadvise(DONTNEED)`), and checking with `mincore` how much of it is still resident, so
//! the summary can say whether eviction took effect. Pages that another process maps (a shared
//! library, a running binary) stay resident whatever we ask.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

/// Writes back and drops `path`'s cached pages.
pub(crate) fn evict(path: &Path) -> io::Result<()> {
    let file = open_regular(path)?;
    // A dirty page cannot be dropped: write it back first (fsync works on a read-only fd).
    file.sync_all()?;
    // SAFETY: a valid fd; offset 0 and length 0 mean the whole file.
    let r = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if r != 0 {
        return Err(io::Error::from_raw_os_error(r));
    }
    Ok(())
}

/// `path` opened to read without waiting (a FIFO a child put in a file's place opens at once,
/// where a plain open would block the runner until a writer came), and refused unless it is a
/// regular file.
fn open_regular(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a folder in its place)",
        ));
    }
    Ok(file)
}

/// (resident pages, total pages) of `path` in the page cache.
pub(crate) fn residency(path: &Path) -> io::Result<(usize, usize)> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len() as usize;
    if len == 0 {
        return Ok((0, 0));
    }
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
    let pages = len.div_ceil(page);
    // SAFETY: a read-only shared mapping of a file we hold open; unmapped below.
    let addr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED,
            file.as_raw_fd(),
            0,
        )
    };
    if addr == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    let mut vec = vec![0u8; pages];
    // SAFETY: `addr` maps `len` bytes; `vec` has one byte per page. mincore faults nothing in.
    let r = unsafe { libc::mincore(addr, len, vec.as_mut_ptr()) };
    let error = io::Error::last_os_error();
    // SAFETY: the mapping made above.
    unsafe { libc::munmap(addr, len) };
    if r != 0 {
        return Err(error);
    }
    Ok((vec.iter().filter(|&&b| b & 1 == 1).count(), pages))
}

/// How eviction went over a run, for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct EvictionTally {
    /// Files evicted (two per sample: the child and its input).
    pub(crate) attempts: u64,
    /// Evictions that failed outright (the error is kept).
    pub(crate) errors: u64,
    /// Evictions after which no page of the file was resident.
    pub(crate) fully_evicted: u64,
    pub(crate) last_error: Option<String>,
}

impl EvictionTally {
    /// Evicts `path`, checks it, counts the outcome, and says whether no page was left.
    pub(crate) fn evict(&mut self, path: &Path) -> bool {
        self.record(path, evict(path).and_then(|()| residency(path)))
    }

    /// Counts the outcome of one eviction (its residency check afterwards, or its error), and
    /// says whether no page was left resident.
    pub(crate) fn record(&mut self, path: &Path, outcome: io::Result<(usize, usize)>) -> bool {
        self.attempts += 1;
        match outcome {
            Ok((0, _)) => {
                self.fully_evicted += 1;
                true
            }
            Ok(_) => false,
            Err(e) => {
                self.errors += 1;
                self.last_error = Some(format!("{}: {e}", path.display()));
                false
            }
        }
    }

    /// One line for the summary.
    pub(crate) fn describe(&self) -> String {
        let mut text = format!(
            "cold cache: {} of {} evictions left no page resident",
            self.fully_evicted, self.attempts
        );
        if let Some(e) = &self.last_error {
            text.push_str(&format!("; {} failed (last: {e})", self.errors));
        }
        if self.attempts > 0 && self.fully_evicted < self.attempts {
            text.push_str(" — eviction did not always take effect; read majflt and inblock");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn residency_counts_the_pages_of_a_file_read_through_the_cache() {
        let path = std::env::temp_dir().join(format!("thaw-cold-cache-{}", std::process::id()));
        std::fs::write(&path, vec![7u8; 64 * 1024 + 1]).unwrap();
        let _ = std::fs::read(&path).unwrap();
        // 64 KiB + 1 byte is 17 pages of 4 KiB (16 of 16 KiB): the count is the file's length
        // in pages, whatever the file system does with eviction.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        let (resident, total) = residency(&path).unwrap();
        assert_eq!(total, (64 * 1024 + 1usize).div_ceil(page));
        assert!(resident >= 1, "a page just read is resident");
        // Eviction runs without error; whether pages go depends on the file system (tmpfs
        // keeps them), which the tally records per sample.
        evict(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(evict(&path).is_err());
    }

    #[test]
    fn a_fifo_in_a_files_place_is_refused_at_once() {
        let path = std::env::temp_dir().join(format!("thaw-cold-fifo-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo(3) on a NUL-terminated path this test owns.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        // with no writer, a blocking open would never return
        let e = evict(&path).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        assert!(residency(&path).is_err());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn the_tally_counts_full_partial_and_failed_evictions() {
        let mut tally = EvictionTally::default();
        let p = Path::new("/x");
        assert!(tally.record(p, Ok((0, 5))));
        assert!(!tally.record(p, Ok((2, 5))));
        assert!(!tally.record(p, Err(io::Error::from_raw_os_error(libc::ENOENT))));
        assert_eq!(
            (tally.attempts, tally.fully_evicted, tally.errors),
            (3, 1, 1)
        );
        let said = tally.describe();
        assert!(
            said.starts_with("cold cache: 1 of 3 evictions left no page resident"),
            "{said}"
        );
        assert!(
            said.contains("1 failed (last: /x:") && said.contains("did not always"),
            "{said}"
        );
        assert_eq!(
            EvictionTally::default().describe(),
            "cold cache: 0 of 0 evictions left no page resident"
        );
    }
}
