//! The `crawlsift` command line.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(crawlsift_cli::run(std::env::args_os()))
}
