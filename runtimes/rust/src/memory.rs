//! A child's own memory, as the kernel counts it for this process alone: the peak and the
//! current resident set size (`VmHWM` and `VmRSS` of /proc/self/status). Unlike wait4's
//! `ru_maxrss`, which starts from the high-water mark of the process that spawned the child,
//! these start from nothing at exec.

/// (VmHWM, VmRSS) in KiB; zeros where the kernel does not say.
pub fn peak_and_current_kib() -> (u64, u64) {
    match std::fs::read_to_string("/proc/self/status") {
        Ok(status) => (field(&status, "VmHWM:"), field(&status, "VmRSS:")),
        Err(_) => (0, 0),
    }
}

/// The number on the line of /proc/self/status that starts with `name` (`VmHWM:  1234 kB`).
fn field(status: &str, name: &str) -> u64 {
    status
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_kernel_format() {
        let status = "Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1900 kB\n";
        assert_eq!(field(status, "VmHWM:"), 2048);
        assert_eq!(field(status, "VmRSS:"), 1900);
        assert_eq!(field(status, "VmSwap:"), 0);
    }

    #[test]
    fn this_process_has_a_peak_at_least_its_current_size() {
        let (peak, now) = peak_and_current_kib();
        assert!(now > 0 && peak >= now, "{peak} {now}");
    }
}
