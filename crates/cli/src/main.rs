//! The `crawlsift` command line.

mod cli;

fn main() -> std::process::ExitCode {
    // The default build runs on any x86-64 CPU (.cargo/config.toml). A
    // build for a newer CPU (`-C target-cpu=native`, an opt-in) uses
    // instructions older CPUs lack: on such a CPU, say so rather than die
    // of an illegal instruction, when no code before this check used one.
    #[cfg(target_arch = "x86_64")]
    if let Some(missing) = missing_cpu_features() {
        eprintln!(
            "crawlsift: this CPU lacks {missing}, which this build of crawlsift uses (it was built \
             with RUSTFLAGS for another CPU); rebuild it here, or build the portable \
             default, which runs on any x86-64 CPU and picks AVX2 at run time: \
             cargo build --release, with RUSTFLAGS unset"
        );
        return std::process::ExitCode::from(2);
    }
    cli::main()
}

/// The instructions this binary was compiled to use that the CPU lacks, if
/// any (the x86-64-v2 to v4 levels' features that matter to compiled code).
#[cfg(target_arch = "x86_64")]
fn missing_cpu_features() -> Option<String> {
    let mut missing = Vec::new();
    macro_rules! check {
        ($($feature:tt),*) => {$(
            if cfg!(target_feature = $feature) && !std::arch::is_x86_feature_detected!($feature) {
                missing.push($feature);
            }
        )*};
    }
    check!(
        "sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma",
        "lzcnt", "movbe", "f16c", "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"
    );
    (!missing.is_empty()).then(|| missing.join(", "))
}
