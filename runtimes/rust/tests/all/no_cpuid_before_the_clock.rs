//! A child's input phase runs no CPU-feature detection. The first `is_x86_feature_detected!` of
//! a process costs 10–20 µs and std caches the answer for every later caller, so input building
//! that detects features (as the seeded generator once did, through rand_chacha) hands a
//! library's first call a cached answer it would otherwise pay for. Checked with the kernel's
//! CPUID faulting (`arch_prctl(ARCH_SET_CPUID, 0)`): in a helper process, every CPUID
//! instruction traps, and the helper builds every codec's `ser` input from its prepared file,
//! as the children do before their `fixture` stamp. Where the CPU or kernel has no CPUID
//! faulting, the test says so and checks nothing.

use codecs::inputs::{self, InputKind};
use codecs::{visit_codecs, Codec, CodecVisitor, Op};
use fixtures::{Fixture, DEFAULT_SEED};
use std::path::{Path, PathBuf};
use std::process::Command;

const HELPER_VAR: &str = "THAW_CPUID_HELPER";

/// `arch_prctl(ARCH_SET_CPUID, 0)`: CPUID now raises SIGSEGV in this process.
fn fault_on_cpuid() -> bool {
    const ARCH_SET_CPUID: libc::c_long = 0x1012;
    // SAFETY: arch_prctl with ARCH_SET_CPUID only changes this thread's CPUID behaviour.
    unsafe { libc::syscall(libc::SYS_arch_prctl, ARCH_SET_CPUID, 0) == 0 }
}

fn generated() -> Vec<&'static Fixture> {
    fixtures::FIXTURES
        .iter()
        .filter(|f| !f.is_corpus())
        .collect()
}

fn input_file(dir: &Path, codec: &str, fixture: &str) -> PathBuf {
    dir.join(format!("{codec}-{fixture}.input"))
}

/// Builds every supported `ser` input of every codec from the files in `dir`.
struct BuildInputs<'a> {
    dir: &'a Path,
    built: usize,
}

impl CodecVisitor for BuildInputs<'_> {
    fn visit<C: Codec + 'static>(&mut self) {
        for fixture in generated() {
            if C::supports(fixture.model_kind(), Op::Ser).is_err() {
                continue;
            }
            let kind = InputKind::of(C::STYLE, Op::Ser, fixture.model_kind());
            let bytes = std::fs::read(input_file(self.dir, C::ID, fixture.name)).unwrap();
            let prepared = inputs::load(kind, bytes).unwrap();
            let value = C::ser_value(prepared).unwrap();
            std::hint::black_box(&value);
            self.built += 1;
        }
    }
}

/// Writes every supported `ser` input of every codec into `dir`, as the runner does.
struct WriteInputs<'a> {
    dir: &'a Path,
}

impl CodecVisitor for WriteInputs<'_> {
    fn visit<C: Codec + 'static>(&mut self) {
        for fixture in generated() {
            if C::supports(fixture.model_kind(), Op::Ser).is_err() {
                continue;
            }
            let kind = InputKind::of(C::STYLE, Op::Ser, fixture.model_kind());
            let document = fixture.document(DEFAULT_SEED, None).unwrap();
            let model = fixture.model(DEFAULT_SEED);
            let input = inputs::prepare(kind, model.as_ref(), &document).unwrap();
            std::fs::write(input_file(self.dir, C::ID, fixture.name), input).unwrap();
        }
    }
}

/// The helper: run by the test below in a process of its own (`--ignored --exact`), never alone.
#[test]
#[ignore = "a helper process of the_input_phase_runs_no_cpuid"]
fn helper() {
    let Ok(mode) = std::env::var(HELPER_VAR) else {
        return;
    };
    if !fault_on_cpuid() {
        println!("no CPUID faulting here");
        return;
    }
    match mode.as_str() {
        "probe" => println!("CPUID faulting on"),
        // The control: a detection must trap here, or the check proves nothing.
        "control" => {
            let avx2 = std::is_x86_feature_detected!("avx2");
            println!("detected avx2 = {avx2} without a trap");
        }
        dir => {
            let mut visitor = BuildInputs {
                dir: Path::new(dir),
                built: 0,
            };
            visit_codecs(&mut visitor);
            println!("built {} inputs", visitor.built);
        }
    }
}

fn run_helper(mode: &str) -> std::process::Output {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "helper",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(HELPER_VAR, mode)
        .output()
        .unwrap()
}

#[test]
fn the_input_phase_runs_no_cpuid() {
    if !fault_on_cpuid_available() {
        eprintln!("skipped: this CPU or kernel has no CPUID faulting (arch_prctl ARCH_SET_CPUID)");
        return;
    }
    use std::os::unix::process::ExitStatusExt;
    let control = run_helper("control");
    assert_eq!(
        control.status.signal(),
        Some(libc::SIGSEGV),
        "a feature detection under CPUID faulting did not trap: {}",
        String::from_utf8_lossy(&control.stdout)
    );

    let dir = std::env::temp_dir().join(format!("thaw-cpuid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    visit_codecs(&mut WriteInputs { dir: &dir });
    let out = run_helper(dir.to_str().unwrap());
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        out.status.success(),
        "building the ser inputs ran CPUID (status {:?}): {said}",
        out.status
    );
    assert!(said.contains("built "), "{said}");
}

/// Whether CPUID faulting can be set, asked of a child process so that this one is unchanged.
fn fault_on_cpuid_available() -> bool {
    String::from_utf8_lossy(&run_helper("probe").stdout).contains("CPUID faulting on")
}
