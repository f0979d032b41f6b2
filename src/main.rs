//! The `dana` command line.

mod cli;

fn main() -> std::process::ExitCode {
    // The build enables POPCNT (.cargo/config.toml); say so rather than
    // die of an illegal instruction on a CPU from before 2008.
    #[cfg(target_arch = "x86_64")]
    if !std::arch::is_x86_feature_detected!("popcnt") {
        eprintln!(
            "dana: this CPU has no POPCNT instruction, which this build uses; \
             rebuild without `target-feature=+popcnt` in .cargo/config.toml"
        );
        return std::process::ExitCode::from(2);
    }
    cli::main()
}
