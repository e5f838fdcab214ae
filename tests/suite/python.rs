//! The Python package (`python/tcgsim`, `docs/python.md`): its own checks
//! (`python/tcgsim/tests/test_envs.py`: Gymnasium's `check_env` and PettingZoo's `api_test` and
//! `seed_test` in every game, reproducible resets, pickling, the vector environment, a mirror
//! match's zero mean, a MaskablePPO smoke run where sb3-contrib is installed) run in the
//! virtualenv `scripts/python_env.sh` makes, refreshed first so that the package is this tree's.
//! Skipped, saying so, where python3 is absent.

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_python_package_passes_its_checks_in_every_game() {
    let has_python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_python {
        eprintln!("SKIPPED: python3 is not installed; the Python package's checks did not run");
        return;
    }
    let venv = std::env::var("TCGSIM_PYTHON_ENV")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target/python-env"));
    let made = Command::new(root().join("scripts/python_env.sh"))
        .arg(&venv)
        .output()
        .expect("scripts/python_env.sh runs");
    assert!(
        made.status.success(),
        "scripts/python_env.sh {} failed:\n{}{}",
        venv.display(),
        String::from_utf8_lossy(&made.stdout),
        String::from_utf8_lossy(&made.stderr)
    );
    let out = Command::new(venv.join("bin/python"))
        .arg(root().join("python/tcgsim/tests/test_envs.py"))
        .current_dir(std::env::temp_dir())
        .output()
        .expect("the virtualenv's python runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the Python package's checks failed:\n{text}"
    );
    assert!(text.contains("\nOK"), "{text}");
}
