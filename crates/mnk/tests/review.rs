//! `mnk review` and `mnk calibrate` end to end on games a quick match records: a review repeated
//! gives the same marks, the calibration fits a scale and tables its held-out positions, and bad
//! input gets a clear message.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn mnk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("mnk runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mnk-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Records `games` games of unequal levels (node caps keep them quick and the same every run).
fn record(dir: &Path, rules: &str, games: &str) -> PathBuf {
    let file = dir.join(format!("{rules}.txt"));
    let out = mnk(&[
        "match",
        "level5",
        "level3",
        "--rules",
        rules,
        "--games",
        games,
        "--nodes",
        "3000",
        "--time-ms",
        "2000",
        "--quiet",
        "--record",
        path(&file),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    file
}

#[test]
fn a_review_repeated_gives_the_same_marks() {
    let dir = scratch("twice");
    let games = record(&dir, "gomoku15", "4");
    let out = mnk(&[
        "review",
        path(&games),
        "--nodes",
        "4000",
        "--compare",
        "4000",
    ]);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(said.contains("game 1: 15x15x5 "), "{said}");
    assert!(said.contains("accuracy X "), "{said}");
    let moves = said
        .lines()
        .find(|l| l.contains("moves reviewed at 4000 nodes"))
        .unwrap_or_else(|| panic!("no summary in {said}"));
    let n: usize = moves.split_whitespace().next().unwrap().parse().unwrap();
    assert!(n > 10, "{moves}");
    assert!(
        said.contains(&format!(
            "the same mark at 4000 and 4000 nodes: {n} of {n} moves (100.0%)"
        )),
        "{said}"
    );
}

#[test]
fn calibrate_fits_a_scale_and_tables_its_cross_validated_predictions() {
    let dir = scratch("fit");
    let games = record(&dir, "gomoku15", "8");
    let out = mnk(&["calibrate", path(&games), "--nodes", "2000", "--folds", "2"]);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{}{}", said, text(&out.stderr));
    let k: f64 = said
        .lines()
        .find_map(|l| l.strip_prefix("K = "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no K in {said}"));
    assert!(k > 0.0 && k < 1.0, "{k}");
    assert!(said.contains("predicted"), "{said}");
    assert!(said.starts_with("freestyle standard ("), "{said}");
}

#[test]
fn bad_input_gets_a_clear_message() {
    let dir = scratch("bad");
    let missing = dir.join("none.txt");
    for command in ["review", "calibrate"] {
        let out = mnk(&[command, path(&missing)]);
        assert!(!out.status.success());
        assert!(
            text(&out.stderr).contains("cannot read"),
            "{}",
            text(&out.stderr)
        );
        let zero = mnk(&[command, path(&missing), "--nodes", "0"]);
        assert!(!zero.status.success());
        assert!(
            text(&zero.stderr).contains("--nodes"),
            "{}",
            text(&zero.stderr)
        );
    }
    let mut mixed = std::fs::read_to_string(record(&dir, "gomoku15", "2")).unwrap();
    let other = std::fs::read_to_string(record(&dir, "20x20x5", "2")).unwrap();
    mixed.push_str(other.lines().nth(1).unwrap());
    mixed.push('\n');
    let file = dir.join("mixed.txt");
    std::fs::write(&file, mixed).unwrap();
    let out = mnk(&["calibrate", path(&file), "--nodes", "500"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("calibrate one at a time"),
        "{}",
        text(&out.stderr)
    );
}
