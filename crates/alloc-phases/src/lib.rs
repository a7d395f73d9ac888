//! An LD_PRELOAD library that counts a child's heap allocations in each phase of the child
//! protocol, from outside the library under test: `cold run --measure instructions` loads it
//! into a second, untimed run of each sample.
//!
//! It interposes the C allocator's entry points (`malloc`, `calloc`, `realloc`, `memalign`,
//! `aligned_alloc`, `posix_memalign`), counting each successful call as one block of the size
//! asked for (a `realloc` as one block of its new size, as the warm track's counting allocator
//! does), and hands the call to glibc's own (`__libc_malloc`, …). It also interposes
//! `clock_gettime`: a child reads CLOCK_MONOTONIC exactly at its seven stamps (main, model,
//! fixture, init, first, done, checked), so the number of such reads so far is the phase an
//! allocation falls in: 0 before main, 1 model, 2 fixture, 3 init, 4 first_op, 5 remaining_ops,
//! 6 check, 7 exit. At exit it
//! writes the counts to the file `$THAW_ALLOC_PHASES`: a line `clock_reads N`, then one line
//! `blocks bytes` per phase. It never allocates itself.

use libc::{c_char, c_int, c_void, clockid_t, size_t, timespec};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The phases counted: the eight of the protocol, and one for reads past the seventh.
const PHASES: usize = 9;

static CLOCK_READS: AtomicUsize = AtomicUsize::new(0);
static BLOCKS: [AtomicU64; PHASES] = [const { AtomicU64::new(0) }; PHASES];
static BYTES: [AtomicU64; PHASES] = [const { AtomicU64::new(0) }; PHASES];

extern "C" {
    fn __libc_malloc(size: size_t) -> *mut c_void;
    fn __libc_calloc(count: size_t, size: size_t) -> *mut c_void;
    fn __libc_realloc(ptr: *mut c_void, size: size_t) -> *mut c_void;
    fn __libc_memalign(align: size_t, size: size_t) -> *mut c_void;
}

fn record(ptr: *mut c_void, bytes: usize) -> *mut c_void {
    if !ptr.is_null() {
        let phase = CLOCK_READS.load(Relaxed).min(PHASES - 1);
        BLOCKS[phase].fetch_add(1, Relaxed);
        BYTES[phase].fetch_add(bytes as u64, Relaxed);
    }
    ptr
}

/// # Safety
/// The C `malloc` contract.
#[no_mangle]
pub unsafe extern "C" fn malloc(size: size_t) -> *mut c_void {
    record(__libc_malloc(size), size)
}

/// # Safety
/// The C `calloc` contract.
#[no_mangle]
pub unsafe extern "C" fn calloc(count: size_t, size: size_t) -> *mut c_void {
    record(__libc_calloc(count, size), count.saturating_mul(size))
}

/// # Safety
/// The C `realloc` contract.
#[no_mangle]
pub unsafe extern "C" fn realloc(ptr: *mut c_void, size: size_t) -> *mut c_void {
    let new = __libc_realloc(ptr, size);
    if size == 0 {
        return new; // a free
    }
    record(new, size)
}

/// # Safety
/// The C `memalign` contract.
#[no_mangle]
pub unsafe extern "C" fn memalign(align: size_t, size: size_t) -> *mut c_void {
    record(__libc_memalign(align, size), size)
}

/// # Safety
/// The C `aligned_alloc` contract.
#[no_mangle]
pub unsafe extern "C" fn aligned_alloc(align: size_t, size: size_t) -> *mut c_void {
    record(__libc_memalign(align, size), size)
}

/// # Safety
/// The C `posix_memalign` contract: `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn posix_memalign(
    out: *mut *mut c_void,
    align: size_t,
    size: size_t,
) -> c_int {
    let word = std::mem::size_of::<*mut c_void>();
    if !align.is_power_of_two() || !align.is_multiple_of(word) {
        return libc::EINVAL;
    }
    let ptr = record(__libc_memalign(align, size), size);
    if ptr.is_null() {
        return libc::ENOMEM;
    }
    *out = ptr;
    0
}

/// # Safety
/// The C `clock_gettime` contract: `ts` is writable.
#[no_mangle]
pub unsafe extern "C" fn clock_gettime(clock: clockid_t, ts: *mut timespec) -> c_int {
    if clock == libc::CLOCK_MONOTONIC {
        CLOCK_READS.fetch_add(1, Relaxed);
    }
    libc::syscall(libc::SYS_clock_gettime, clock, ts) as c_int
}

/// Writes the counts to `$THAW_ALLOC_PHASES`, at exit (after the child's last line).
extern "C" fn write_counts() {
    // SAFETY: getenv with a NUL-terminated name; the result is read before any setenv.
    let path = unsafe { libc::getenv(c"THAW_ALLOC_PHASES".as_ptr()) };
    if path.is_null() {
        return;
    }
    let mut text = [0u8; 512];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        let n = bytes.len().min(text.len() - len);
        text[len..len + n].copy_from_slice(&bytes[..n]);
        len += n;
    };
    let mut digits = [0u8; 20];
    put(b"clock_reads ");
    put(decimal(CLOCK_READS.load(Relaxed) as u64, &mut digits));
    put(b"\n");
    for phase in 0..PHASES {
        put(decimal(BLOCKS[phase].load(Relaxed), &mut digits));
        put(b" ");
        put(decimal(BYTES[phase].load(Relaxed), &mut digits));
        put(b"\n");
    }
    // SAFETY: open/write/close on a path from the environment and a buffer we own.
    unsafe {
        let fd = libc::open(
            path as *const c_char,
            libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC | libc::O_CLOEXEC,
            0o644,
        );
        if fd >= 0 {
            libc::write(fd, text.as_ptr() as *const c_void, len);
            libc::close(fd);
        }
    }
}

/// `value` in decimal, in `buffer`.
fn decimal(mut value: u64, buffer: &mut [u8; 20]) -> &[u8] {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return &buffer[at..];
        }
    }
}

/// Run by the dynamic loader when the process exits (`exit` runs each library's finalisers).
#[used]
#[link_section = ".fini_array"]
static WRITE_AT_EXIT: extern "C" fn() = write_counts;

#[cfg(test)]
mod tests {
    use super::decimal;

    #[test]
    fn decimals() {
        let mut b = [0u8; 20];
        assert_eq!(decimal(0, &mut b), b"0");
        assert_eq!(decimal(1_234_567, &mut b), b"1234567");
        assert_eq!(decimal(u64::MAX, &mut b), b"18446744073709551615");
    }
}
