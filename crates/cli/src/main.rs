//! The `crawlsift` command line.

mod cli;

fn main() -> std::process::ExitCode {
    // The default build runs on any x86-64 CPU (.cargo/config.toml). A
    // build for a newer CPU (`-C target-cpu=native`, an opt-in) uses
    // instructions older CPUs lack: on such a CPU, say so rather than die
    // of an illegal instruction, when no code before this check used one.
    let missing = crawlsift::extract::missing_cpu_features();
    if !missing.is_empty() {
        let missing = missing.join(", ");
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
