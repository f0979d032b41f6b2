//! The `crawlsift` command line as a library: [`run`] is what the
//! `crawlsift` binary runs, and what the Python package's `crawlsift`
//! command calls inside its extension module (so a wheel ships no second
//! binary). Its documentation is `crawlsift --help`.

mod cli;

use std::ffi::OsString;

/// Runs `crawlsift` with the command line `args` (the program name first,
/// as `std::env::args_os` gives it) and returns its exit code: 0 success,
/// 1 some inputs failed, 2 a usage or fatal error (`crawlsift extract
/// --help` says more). It writes to the process's stdout and stderr.
pub fn run(args: impl IntoIterator<Item = OsString>) -> u8 {
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
        return 2;
    }
    cli::run(args)
}
