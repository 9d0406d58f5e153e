//! What the command-line tests share: running the built binary, its output as text, and
//! scratch directories. Each test file uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the built `carcassonne` binary with `args` and waits for it.
pub fn carcassonne(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne"))
        .args(args)
        .output()
        .expect("the carcassonne binary runs")
}

/// The standard output, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

/// The standard error, which must be UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 errors")
}

/// A path as the `&str` a command line takes (test paths are UTF-8).
pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A fresh scratch directory for one test, removed when the test ends (passed or not).
pub struct Scratch(pub PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An empty scratch directory named after `test` and this process.
pub fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("carcassonne-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}
