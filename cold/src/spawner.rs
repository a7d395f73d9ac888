//! The spawner: a small helper process (`cold-spawner`) that spawns and reaps every child on the
//! runner's behalf, so that a child's max RSS is its own.
//!
//! Why: a child started with vfork/posix_spawn shares its parent's memory until `exec`, and
//! Linux carries the old memory's high-water mark into the child's `ru_maxrss`. Spawned by the
//! runner (several MB, more with large fixtures), every child would report at least the
//! runner's RSS. The spawner links nothing but std and stays near the floor of any process
//! (about 2 MB), so max RSS above that floor is the child's. Timing is unchanged: the spawner
//! stamps `spawn` and `reaped` itself, around the same spawn and `wait4` (see `process`).
//!
//! The runner talks to it over its stdin and stdout with length-prefixed binary frames: a
//! request (program, arguments, timeout, how to watch) and a reply (the reaped child, or why it
//! could not be spawned).

use crate::capture::Capture;
use crate::process::{self, Exit, Reaped, ResourceUsage, Watch};
use std::ffi::OsString;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

/// The spawner binary's name, next to the runner's executable.
pub const BINARY: &str = "cold-spawner";

/// One child to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    pub timeout: Duration,
    pub watch: Watch,
}

/// The spawner's answer: the reaped child, or why it could not be run.
pub type Reply = Result<Reaped, String>;

// ---- frames ----

fn put_u64(w: &mut impl Write, v: u64) -> io::Result<()> {
    w.write_all(&v.to_le_bytes())
}

fn get_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn put_bytes(w: &mut impl Write, b: &[u8]) -> io::Result<()> {
    put_u64(w, b.len() as u64)?;
    w.write_all(b)
}

fn get_bytes(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let len = get_u64(r)?;
    if len > 1 << 30 {
        return Err(io::Error::new(io::ErrorKind::InvalidData, "frame too long"));
    }
    let mut b = vec![0u8; len as usize];
    r.read_exact(&mut b)?;
    Ok(b)
}

pub fn write_request(w: &mut impl Write, q: &Request) -> io::Result<()> {
    put_bytes(w, q.program.as_os_str().as_bytes())?;
    put_u64(w, q.args.len() as u64)?;
    for a in &q.args {
        put_bytes(w, a.as_bytes())?;
    }
    put_u64(w, q.timeout.as_nanos().min(u64::MAX as u128) as u64)?;
    put_u64(w, matches!(q.watch, Watch::Watchdog) as u64)?;
    w.flush()
}

/// `Ok(None)` at a clean end of input (the runner closed the pipe).
pub fn read_request(r: &mut impl Read) -> io::Result<Option<Request>> {
    let program = match get_bytes(r) {
        Ok(b) => PathBuf::from(OsString::from_vec(b)),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    };
    let n = get_u64(r)?;
    let args = (0..n)
        .map(|_| get_bytes(r).map(OsString::from_vec))
        .collect::<io::Result<_>>()?;
    let timeout = Duration::from_nanos(get_u64(r)?);
    let watch = if get_u64(r)? == 1 {
        Watch::Watchdog
    } else {
        Watch::Auto
    };
    Ok(Some(Request {
        program,
        args,
        timeout,
        watch,
    }))
}

pub fn write_reply(w: &mut impl Write, reply: &Reply) -> io::Result<()> {
    match reply {
        Err(message) => {
            put_u64(w, 0)?;
            put_bytes(w, message.as_bytes())?;
        }
        Ok(r) => {
            put_u64(w, 1)?;
            let (kind, value) = match r.exit {
                Exit::Code(c) => (0, c),
                Exit::Signal(s) => (1, s),
            };
            let u = &r.usage;
            for v in [
                r.spawn_ns,
                r.reaped_ns,
                kind,
                value as u32 as u64,
                r.timed_out as u64,
                u.user_us,
                u.sys_us,
                u.maxrss_kib,
                u.minflt,
                u.majflt,
                u.inblock,
                u.nvcsw,
                u.nivcsw,
            ] {
                put_u64(w, v)?;
            }
            put_bytes(w, &r.stdout)?;
            put_bytes(w, &r.stderr)?;
        }
    }
    w.flush()
}

pub fn read_reply(r: &mut impl Read) -> io::Result<Reply> {
    if get_u64(r)? == 0 {
        return Ok(Err(String::from_utf8_lossy(&get_bytes(r)?).into_owned()));
    }
    let mut v = [0u64; 13];
    for slot in &mut v {
        *slot = get_u64(r)?;
    }
    let value = v[3] as u32 as i32;
    Ok(Ok(Reaped {
        spawn_ns: v[0],
        reaped_ns: v[1],
        exit: if v[2] == 0 {
            Exit::Code(value)
        } else {
            Exit::Signal(value)
        },
        timed_out: v[4] != 0,
        usage: ResourceUsage {
            user_us: v[5],
            sys_us: v[6],
            maxrss_kib: v[7],
            minflt: v[8],
            majflt: v[9],
            inblock: v[10],
            nvcsw: v[11],
            nivcsw: v[12],
        },
        stdout: get_bytes(r)?,
        stderr: get_bytes(r)?,
    }))
}

// ---- the spawner's side ----

/// The spawner's loop: one request in, one child run, one reply out, until the runner closes
/// its stdin.
pub fn serve(input: impl Read, output: impl Write) -> io::Result<()> {
    let mut input = BufReader::new(input);
    let mut output = BufWriter::new(output);
    let mut capture = Capture::new()?;
    while let Some(q) = read_request(&mut input)? {
        let reply = process::run(&q.program, &q.args, q.timeout, &mut capture, q.watch)
            .map_err(|e| format!("cannot run {}: {e}", q.program.display()));
        write_reply(&mut output, &reply)?;
    }
    Ok(())
}

// ---- the runner's side ----

/// A running spawner.
pub struct Spawner {
    child: Child,
    input: Option<BufWriter<ChildStdin>>,
    output: BufReader<ChildStdout>,
    path: PathBuf,
}

impl Spawner {
    /// Starts the spawner binary at `path`.
    pub fn start(path: &Path) -> io::Result<Spawner> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                io::Error::new(e.kind(), format!("cannot start {}: {e}", path.display()))
            })?;
        let input = child.stdin.take().map(BufWriter::new);
        let output = BufReader::new(child.stdout.take().expect("stdout is piped"));
        Ok(Spawner {
            child,
            input,
            output,
            path: path.to_path_buf(),
        })
    }

    /// The spawner next to the runner's own executable.
    pub fn default_path() -> io::Result<PathBuf> {
        let exe = std::env::current_exe()?;
        Ok(exe.with_file_name(BINARY))
    }

    /// Runs one child. The outer error means the spawner itself failed.
    pub fn run(&mut self, q: &Request) -> io::Result<Reply> {
        let lost = |e: io::Error| {
            io::Error::new(
                e.kind(),
                format!("lost the spawner {}: {e}", self.path.display()),
            )
        };
        let input = self.input.as_mut().expect("open until drop");
        write_request(input, q).map_err(lost)?;
        read_reply(&mut self.output).map_err(lost)
    }
}

impl Drop for Spawner {
    fn drop(&mut self) {
        // End of input ends the spawner's loop.
        drop(self.input.take());
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> Request {
        Request {
            program: "/bin/sh".into(),
            args: vec![
                "-c".into(),
                OsString::from_vec(b"echo \xffhi; echo err >&2; exit 3".to_vec()),
            ],
            timeout: Duration::from_millis(2500),
            watch: Watch::Watchdog,
        }
    }

    #[test]
    fn requests_round_trip() {
        let mut buf = Vec::new();
        write_request(&mut buf, &request()).unwrap();
        write_request(&mut buf, &request()).unwrap();
        let mut r = &buf[..];
        assert_eq!(read_request(&mut r).unwrap(), Some(request()));
        assert_eq!(read_request(&mut r).unwrap(), Some(request()));
        assert_eq!(read_request(&mut r).unwrap(), None);
    }

    #[test]
    fn replies_round_trip() {
        let reaped = Reaped {
            spawn_ns: 1,
            reaped_ns: 2,
            exit: Exit::Signal(9),
            timed_out: true,
            usage: ResourceUsage {
                maxrss_kib: 3,
                nivcsw: 4,
                ..ResourceUsage::default()
            },
            stdout: b"out".to_vec(),
            stderr: vec![],
        };
        for reply in [
            Ok(reaped.clone()),
            Ok(Reaped {
                exit: Exit::Code(-1),
                ..reaped
            }),
            Err("no".to_string()),
        ] {
            let mut buf = Vec::new();
            write_reply(&mut buf, &reply).unwrap();
            let back = read_reply(&mut &buf[..]).unwrap();
            match (&reply, &back) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        (a.spawn_ns, a.reaped_ns, a.exit, a.timed_out),
                        (b.spawn_ns, b.reaped_ns, b.exit, b.timed_out)
                    );
                    assert_eq!(
                        (a.usage, &a.stdout, &a.stderr),
                        (b.usage, &b.stdout, &b.stderr)
                    );
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("{reply:?} came back as {back:?}"),
            }
        }
    }

    #[test]
    fn serves_in_process() {
        let mut input = Vec::new();
        write_request(&mut input, &request()).unwrap();
        let missing = Request {
            program: "/nonexistent".into(),
            ..request()
        };
        write_request(&mut input, &missing).unwrap();
        let mut output = Vec::new();
        serve(&input[..], &mut output).unwrap();
        let mut r = &output[..];
        let first = read_reply(&mut r).unwrap().unwrap();
        assert_eq!(first.exit, Exit::Code(3));
        assert_eq!(first.stdout, b"\xffhi\n");
        assert_eq!(first.stderr, b"err\n");
        assert!(read_reply(&mut r)
            .unwrap()
            .unwrap_err()
            .contains("/nonexistent"));
    }
}
