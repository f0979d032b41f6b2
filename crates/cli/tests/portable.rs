//! The default build runs on any x86-64 CPU and picks its AVX2 kernels at
//! run time: the `crawlsift` binary of this build gives the same output on real
//! WARCs and pages natively, with its baseline kernels forced
//! (`CRAWLSIFT_KERNELS=sse2`), and under `qemu-x86_64` emulating a CPU without
//! AVX (`-cpu Nehalem`) and one with AVX2 (`-cpu Haswell`); and
//! `crawlsift --version` names the kernels each of them runs.
//!
//! qemu-x86_64 (Debian: `apt-get install qemu-user`) is looked for on the
//! `PATH`. Without it the emulated runs are skipped with a message, unless
//! `CI` is set (`.ci/run` installs it): then the test fails.
#![cfg(all(target_arch = "x86_64", target_os = "linux"))]

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../../tests/support/shared.rs"]
mod support;

/// `rel` under the shared folder (TESTING.md); a missing folder fails naming it.
fn shared(rel: &str) -> PathBuf {
    support::shared_path(env!("CARGO_MANIFEST_DIR"), rel)
}

/// How `crawlsift` is run: natively, or under qemu emulating a CPU model.
#[derive(Clone, Copy, Debug)]
enum Cpu<'a> {
    Native,
    /// Natively, with the baseline kernels forced.
    NativeBaseline,
    Emulated(&'a Path, &'static str),
}

impl Cpu<'_> {
    /// Runs `crawlsift args…` on this CPU and returns its standard output;
    /// fails the test when crawlsift fails.
    fn crawlsift(self, args: &[&str]) -> String {
        let crawlsift = env!("CARGO_BIN_EXE_crawlsift");
        let mut command = match self {
            Cpu::Native | Cpu::NativeBaseline => Command::new(crawlsift),
            Cpu::Emulated(qemu, model) => {
                let mut command = Command::new(qemu);
                command.args(["-cpu", model, crawlsift]);
                command
            }
        };
        command.args(args).env_remove("CRAWLSIFT_KERNELS");
        if let Cpu::NativeBaseline = self {
            command.env("CRAWLSIFT_KERNELS", "sse2");
        }
        let out = command
            .output()
            .unwrap_or_else(|e| panic!("{self:?}: cannot run crawlsift {args:?}: {e}"));
        assert!(
            out.status.success(),
            "{self:?}: crawlsift {args:?} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("crawlsift writes UTF-8")
    }

    /// The kernels `crawlsift --version` names.
    fn kernels(self) -> String {
        let version = self.crawlsift(&["--version"]);
        let (_, kernels) = version
            .trim_end()
            .split_once("(kernels: ")
            .unwrap_or_else(|| panic!("{self:?}: no kernels in `crawlsift --version`: {version}"));
        kernels.trim_end_matches(')').to_owned()
    }
}

/// qemu-x86_64 on the `PATH`, or `None` (a message, or a failure under
/// CI, says why the emulated runs are skipped).
fn qemu() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join("qemu-x86_64"))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        let message = "qemu-x86_64 not found on the PATH: the runs on emulated CPUs \
                       need it (Debian: apt-get install qemu-user)";
        assert!(std::env::var_os("CI").is_none(), "{message}");
        eprintln!("skipped: {message}");
    }
    found
}

/// The CPUs this machine can run crawlsift on.
fn cpus(qemu: Option<&Path>) -> Vec<Cpu<'_>> {
    let mut cpus = vec![Cpu::Native, Cpu::NativeBaseline];
    if let Some(qemu) = qemu {
        cpus.push(Cpu::Emulated(qemu, "Nehalem"));
        cpus.push(Cpu::Emulated(qemu, "Haswell"));
    }
    cpus
}

/// The first `n` pages (by name) of each shared dataset.
fn pages(n: usize) -> Vec<String> {
    let mut pages = Vec::new();
    for dataset in ["scrapinghub", "readability_tests", "daniel_dev", "wcxb_dev"] {
        let dir = shared("datasets").join(dataset).join("html");
        let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
            .collect();
        names.sort();
        assert!(names.len() >= n, "{}: fewer than {n} pages", dir.display());
        pages.extend(names.iter().take(n).map(|p| p.display().to_string()));
    }
    pages
}

#[test]
fn version_names_the_kernels_each_cpu_runs() {
    let has_avx2 = std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt");
    let native = if has_avx2 { "avx2" } else { "sse2" };
    assert_eq!(Cpu::Native.kernels(), native);
    assert_eq!(Cpu::NativeBaseline.kernels(), "sse2");
    if let Some(qemu) = qemu() {
        assert_eq!(Cpu::Emulated(&qemu, "Nehalem").kernels(), "sse2");
        assert_eq!(Cpu::Emulated(&qemu, "Haswell").kernels(), "avx2");
    }
}

#[test]
fn same_output_on_every_cpu() {
    let qemu = qemu();
    let cpus = cpus(qemu.as_deref());
    let warcs: Vec<String> = ["cc_whirlwind.warc.gz", "resiliparse_warcfile.warc.gz"]
        .iter()
        .map(|name| shared(&format!("warc/{name}")).display().to_string())
        .collect();
    let pages = pages(4);
    // The default algorithm, Filter 1's link rule, and two algorithms that
    // read tags with the tokenizer of the element-based baselines.
    let mut extract = vec!["extract", "-q", "-j", "1"];
    extract.extend(warcs.iter().map(String::as_str));
    let mut runs = vec![extract];
    for algorithm in ["addanag-plus", "danag-f1", "bte", "ccb"] {
        let mut args = vec!["html", "--json", "--algorithm", algorithm];
        args.extend(pages.iter().map(String::as_str));
        runs.push(args);
    }
    for args in &runs {
        let expected = Cpu::Native.crawlsift(args);
        // Something to compare: a JSON object per page, with text.
        let objects = expected.lines().count();
        assert!(
            objects >= 16,
            "crawlsift {args:?}: only {objects} pages out"
        );
        assert!(
            expected.contains("\"text\":\""),
            "crawlsift {args:?}: no text"
        );
        for &cpu in &cpus[1..] {
            let got = cpu.crawlsift(args);
            assert!(
                got == expected,
                "crawlsift {args:?}: the output on {cpu:?} differs from the native one"
            );
        }
    }
}
