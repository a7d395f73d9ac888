//! `--pin CPUS`: pinning the runner, and so every child it spawns, to a set of CPUs with
//! `sched_setaffinity`. The list is parsed as the kernel writes it (`0,2-3`), and the mask
//! actually in force is read back for the manifest.

use anyhow::{bail, Context, Result};

/// `0,2-3` → [0, 2, 3] (sorted, without repeats).
pub(crate) fn parse_cpus(text: &str) -> Result<Vec<usize>> {
    let max = libc::CPU_SETSIZE as usize;
    let mut cpus = Vec::new();
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            bail!("--pin `{text}`: empty item; expected a CPU list like 0,2-3");
        }
        let (lo, hi) = match part.split_once('-') {
            Some((a, b)) => (number(a, text)?, number(b, text)?),
            None => {
                let n = number(part, text)?;
                (n, n)
            }
        };
        if lo > hi {
            bail!("--pin `{text}`: range {part} goes backwards");
        }
        if hi >= max {
            bail!("--pin `{text}`: CPU {hi} is beyond the {max} a CPU set can hold");
        }
        cpus.extend(lo..=hi);
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
}

fn number(text: &str, whole: &str) -> Result<usize> {
    text.trim()
        .parse()
        .with_context(|| format!("--pin `{whole}`: `{text}` is not a CPU number"))
}

/// [0, 2, 3] → `0,2-3`.
pub(crate) fn format_cpus(cpus: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let mut j = i;
        while j + 1 < cpus.len() && cpus[j + 1] == cpus[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            cpus[i].to_string()
        } else {
            format!("{}-{}", cpus[i], cpus[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Pins the calling thread (the runner's main thread; children inherit) to `cpus`, and returns
/// the mask in force afterwards.
pub(crate) fn pin(cpus: &[usize]) -> Result<Vec<usize>> {
    // SAFETY: cpu_set_t is plain old data; CPU_ZERO/CPU_SET write inside it.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    for &cpu in cpus {
        // SAFETY: `cpu` < CPU_SETSIZE, checked by `parse_cpus`.
        unsafe { libc::CPU_SET(cpu, &mut set) };
    }
    // SAFETY: a valid set of the size given; 0 means the calling thread.
    let r = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if r != 0 {
        return Err(std::io::Error::last_os_error()).with_context(|| {
            format!(
                "cannot pin to CPUs {} (this machine has {} online; currently allowed: {})",
                format_cpus(cpus),
                online_cpus(),
                format_cpus(&current().unwrap_or_default())
            )
        });
    }
    current()
}

/// The CPUs the calling thread may run on.
pub(crate) fn current() -> Result<Vec<usize>> {
    // SAFETY: as in `pin`.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    // SAFETY: a valid, writable set of the size given.
    let r = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) };
    if r != 0 {
        return Err(std::io::Error::last_os_error()).context("sched_getaffinity");
    }
    Ok((0..libc::CPU_SETSIZE as usize)
        // SAFETY: `cpu` < CPU_SETSIZE.
        .filter(|&cpu| unsafe { libc::CPU_ISSET(cpu, &set) })
        .collect())
}

/// The number of CPUs online.
pub(crate) fn online_cpus() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    n.max(1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kernel_cpu_lists() {
        assert_eq!(parse_cpus("0").unwrap(), vec![0]);
        assert_eq!(parse_cpus("0,2-3").unwrap(), vec![0, 2, 3]);
        assert_eq!(parse_cpus("3-4, 1,4").unwrap(), vec![1, 3, 4]);
        for bad in ["", "a", "1,,2", "3-1", "99999"] {
            let e = parse_cpus(bad).unwrap_err().to_string();
            assert!(e.contains("--pin"), "{bad}: {e}");
        }
    }

    #[test]
    fn formats_ranges() {
        assert_eq!(format_cpus(&[0, 2, 3, 4, 7]), "0,2-4,7");
        assert_eq!(format_cpus(&[]), "");
    }

    #[test]
    fn pinning_a_thread_to_where_it_may_run_keeps_it_there() {
        // In a thread of its own, so the test harness's threads are untouched.
        std::thread::spawn(|| {
            let allowed = current().unwrap();
            let first = allowed[..1].to_vec();
            assert_eq!(pin(&first).unwrap(), first);
        })
        .join()
        .unwrap();
    }
}
