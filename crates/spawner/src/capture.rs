//! Where a child's stdout and stderr go: two anonymous in-memory files (memfd) reused from
//! sample to sample. No pipe to drain while the child runs (so the runner sleeps in the kernel
//! until the child exits, as `time` would) and no deadlock on a child that prints a lot.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::fd::FromRawFd;

/// How much of a child's stdout or stderr is kept: room for a curve child's curve line (at most
/// about 2,200 reads of 20 digits and two commas each, under 60 KiB) and its line.
pub const CAPTURE_LIMIT: u64 = 256 * 1024;

/// The reusable stdout and stderr of children.
pub struct Capture {
    stdout: File,
    stderr: File,
}

impl Capture {
    pub fn new() -> io::Result<Capture> {
        Ok(Capture {
            stdout: anonymous_file("thaw-child-stdout")?,
            stderr: anonymous_file("thaw-child-stderr")?,
        })
    }

    /// A handle on the stdout file for the next child.
    pub fn stdout_for_child(&self) -> io::Result<File> {
        self.stdout.try_clone()
    }

    /// A handle on the stderr file for the next child.
    pub fn stderr_for_child(&self) -> io::Result<File> {
        self.stderr.try_clone()
    }

    /// What the last child wrote on stdout (up to `CAPTURE_LIMIT`); empties the file.
    pub fn take_stdout(&mut self) -> io::Result<Vec<u8>> {
        Capture::take(&mut self.stdout)
    }

    /// What the last child wrote on stderr (up to `CAPTURE_LIMIT`); empties the file.
    pub fn take_stderr(&mut self) -> io::Result<Vec<u8>> {
        Capture::take(&mut self.stderr)
    }

    /// Reads what the last child wrote (up to `CAPTURE_LIMIT`) and empties the file.
    fn take(file: &mut File) -> io::Result<Vec<u8>> {
        file.seek(SeekFrom::Start(0))?;
        let mut bytes = Vec::new();
        file.by_ref().take(CAPTURE_LIMIT).read_to_end(&mut bytes)?;
        file.set_len(0)?;
        file.seek(SeekFrom::Start(0))?;
        Ok(bytes)
    }
}

fn anonymous_file(name: &str) -> io::Result<File> {
    let cname = std::ffi::CString::new(name).expect("no NUL in the name");
    // SAFETY: a valid C string; memfd_create returns a new fd or -1.
    let fd = unsafe { libc::memfd_create(cname.as_ptr(), libc::MFD_CLOEXEC) };
    if fd >= 0 {
        // SAFETY: `fd` was just created and is owned by nobody else.
        return Ok(unsafe { File::from_raw_fd(fd) });
    }
    // No memfd: an unlinked file in the temporary folder does the same.
    let path = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn keeps_at_most_the_limit_and_empties_between_children() {
        let mut capture = Capture::new().unwrap();
        let mut out = capture.stdout_for_child().unwrap();
        out.write_all(&vec![b'x'; CAPTURE_LIMIT as usize + 10])
            .unwrap();
        assert_eq!(capture.take_stdout().unwrap().len() as u64, CAPTURE_LIMIT);
        let mut out = capture.stdout_for_child().unwrap();
        out.write_all(b"next").unwrap();
        assert_eq!(capture.take_stdout().unwrap(), b"next");
        assert!(capture.take_stderr().unwrap().is_empty());
    }
}
