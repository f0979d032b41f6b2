//! Where the shared test data is (`shared/` beside the checkout, see
//! TESTING.md), for every test crate of the workspace: each includes this
//! file with `#[path]`. A test that needs a missing folder fails with a
//! message naming it and TESTING.md, never with a bare I/O error.
#![allow(dead_code)] // each test crate uses some of these

use std::path::{Path, PathBuf};

/// The shared data folder: `$CRAWLSIFT_SHARED` when set, else `shared/`
/// beside the workspace root found above `manifest_dir` (pass
/// `env!("CARGO_MANIFEST_DIR")`).
pub fn shared_dir(manifest_dir: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os("CRAWLSIFT_SHARED") {
        return PathBuf::from(dir);
    }
    let manifest = Path::new(manifest_dir);
    let root = manifest
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(manifest);
    root.parent().unwrap_or(root).join("shared")
}

/// `Err` naming `dir`, the folder `path` (under it) would be in, and
/// TESTING.md, when `dir` is missing.
pub fn check_shared(dir: &Path, path: &Path) -> Result<(), String> {
    if dir.is_dir() {
        return Ok(());
    }
    Err(format!(
        "{} is missing (this test reads {}): the tests read real data from the shared folder \
         beside the checkout (`../shared`, or $CRAWLSIFT_SHARED); TESTING.md says what it holds \
         and where to get it",
        dir.display(),
        path.display()
    ))
}

/// `rel` under the shared folder; panics with [`check_shared`]'s message
/// when the folder is missing.
pub fn shared_path(manifest_dir: &str, rel: &str) -> PathBuf {
    let dir = shared_dir(manifest_dir);
    let path = dir.join(rel);
    if let Err(message) = check_shared(&dir, &path) {
        panic!("{message}");
    }
    path
}
