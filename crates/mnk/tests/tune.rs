//! `mnk tune` and `mnk train-net` end to end: a quick match records games, the tuner fits a table
//! to them that lowers the error (the trainer a network), and a match plays with what they wrote;
//! bad files get clear messages.

use std::path::PathBuf;
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
    let dir = std::env::temp_dir().join(format!("mnk-tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The games both the tuner and the trainer learn from, recorded once by a quick match.
/// Unequal players, so the two games of an opening differ; node caps keep it quick. Enough games
/// that some are held out (about one in ten, by a hash of the moves): once the shipped network
/// changed how they go, 24 games (19 distinct) and 48 (38) had none held out.
fn recorded_games() -> &'static std::path::Path {
    static GAMES: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        let games = scratch("games").join("games.txt");
        let out = mnk(&[
            "match",
            "level5",
            "level4",
            "--games",
            "96",
            "--nodes",
            "3000",
            "--time-ms",
            "2000",
            // Two at a time: the games are the same (node caps), in half the time.
            "--concurrency",
            "2",
            "--quiet",
            "--record",
            path(&games),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        games
    })
}

fn path(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Runs `mnk args` and checks that it fails, saying `expected`, without a panic.
fn refused(args: &[&str], expected: &str) {
    let out = mnk(args);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(err.contains(expected), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// The number after `label` in `out`.
fn number_after(out: &str, label: &str) -> f64 {
    let rest = &out[out
        .find(label)
        .unwrap_or_else(|| panic!("no '{label}' in {out}"))
        + label.len()..];
    rest.split(|c: char| c == ',' || c.is_whitespace())
        .find(|w| !w.is_empty())
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number after '{label}' in {out}"))
}

#[test]
fn tune_lowers_the_error_on_recorded_games() {
    let dir = scratch("fit");
    let games = recorded_games();
    let table = dir.join("tuned.txt");
    let out = mnk(&[
        "tune",
        path(games),
        "--out",
        path(&table),
        "--iterations",
        "300",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}{stdout}", text(&out.stderr));
    let before = number_after(&stdout, "Error: ");
    let after = number_after(&stdout, "before, ");
    assert!(after < before, "{stdout}");
    // The new table is a table: a match plays with it.
    let written = std::fs::read_to_string(&table).unwrap();
    assert!(written.contains("tuned by `mnk tune`"), "{written}");
    let out = mnk(&[
        "match",
        "level4",
        "level4",
        "--games",
        "2",
        "--nodes",
        "2000",
        "--time-ms",
        "2000",
        "--quiet",
        "--weights-a",
        path(&table),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("level4 (tuned.txt weights) vs level4"),
        "{stdout}"
    );
    // The same games give the same table.
    let again = dir.join("again.txt");
    let out = mnk(&[
        "tune",
        path(games),
        "--out",
        path(&again),
        "--iterations",
        "300",
    ]);
    assert!(out.status.success());
    assert_eq!(
        std::fs::read_to_string(&again)
            .unwrap()
            .lines()
            .skip(3)
            .collect::<Vec<_>>(),
        written.lines().skip(3).collect::<Vec<_>>()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_explains_files_it_cannot_use() {
    let dir = scratch("bad");
    let out_file = dir.join("out.txt");
    let missing = dir.join("missing.txt");
    refused(
        &["tune", path(&missing), "--out", path(&out_file)],
        "cannot read",
    );
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "# a comment\nnot a game\n").unwrap();
    refused(
        &["tune", path(&garbage), "--out", path(&out_file)],
        "garbage.txt, line 2: 1 fields",
    );
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    refused(
        &["tune", path(&empty), "--out", path(&out_file)],
        "hold no games",
    );
    let one = dir.join("one.txt");
    std::fs::write(&one, "15x15x5\t1-0\tline\t0\th8 a1 i8 a2 j8 a3 k8 a4 l8\n").unwrap();
    refused(
        &[
            "tune",
            path(&one),
            "--out",
            path(&out_file),
            "--variant",
            "exact",
        ],
        "no quiet positions",
    );
    refused(
        &[
            "tune",
            path(&one),
            "--out",
            path(&out_file),
            "--variant",
            "gomoku",
        ],
        "the variants are freestyle, exact, unbounded, renju, caro",
    );
    refused(
        &[
            "tune",
            path(&one),
            "--out",
            path(&out_file),
            "--start",
            path(&garbage),
        ],
        "garbage.txt: line 2",
    );
    refused(
        &[
            "tune",
            path(&one),
            "--out",
            path(&dir.join("no/such/dir.txt")),
        ],
        "cannot write",
    );
    refused(
        &["match", "level6", "level6", "--weights-a", path(&garbage)],
        "weight table",
    );
    assert!(!out_file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_net_learns_from_recorded_games_and_a_match_plays_the_network() {
    let dir = scratch("net");
    let games = recorded_games();
    let net = dir.join("net.txt");
    let train = |to: &PathBuf, more: &[&str]| {
        let mut args = vec![
            "train-net",
            path(games),
            "--out",
            path(to),
            "--epochs",
            "8",
            "--label-nodes",
            "300",
            "--threads",
            "2",
        ];
        args.extend_from_slice(more);
        mnk(&args)
    };
    let out = train(&net, &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}{stdout}", text(&out.stderr));
    assert!(stdout.contains("epoch   8: held-out error"), "{stdout}");
    // Both errors are reported (81 games are too few to learn from: the unit tests check that
    // it learns, crates/mnk-engine/src/train.rs).
    let tables = number_after(&stdout, "Held-out error: tables ");
    let learnt = number_after(&stdout, ", network ");
    assert!(
        (0.0..=1.0).contains(&tables) && (0.0..=1.0).contains(&learnt),
        "{stdout}"
    );
    let written = std::fs::read_to_string(&net).unwrap();
    assert!(written.contains("trained by `mnk train-net`"), "{written}");
    // A match plays with it, and with none.
    let out = mnk(&[
        "match",
        "level6",
        "level6",
        "--games",
        "2",
        "--nodes",
        "2000",
        "--time-ms",
        "2000",
        "--quiet",
        "--net-a",
        path(&net),
        "--net-b",
        "none",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("level6 (net net.txt) vs level6 (net none)"),
        "{stdout}"
    );
    // The same games and settings give the same network, whatever the threads of the labels.
    let again = dir.join("again.txt");
    assert!(train(&again, &[]).status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), written);
    // Labels kept in a file: searched and written by one run, read back by the next, and the
    // same network both times.
    let labels = dir.join("labels.txt");
    assert!(train(&again, &["--labels", path(&labels)]).status.success());
    let kept = std::fs::read_to_string(&labels).unwrap();
    assert!(kept.lines().count() > 100, "{kept}");
    assert!(train(&again, &["--labels", path(&labels)]).status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), written);
    assert_eq!(std::fs::read_to_string(&labels).unwrap(), kept);
    // Recalibrated labels: the factor is reported and named in the network's title; the file
    // keeps the searches' own chances.
    let calibrated = dir.join("calibrated.txt");
    let out = train(
        &calibrated,
        &["--labels", path(&labels), "--calibrate-labels"],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}{stdout}", text(&out.stderr));
    let factor = number_after(&stdout, "Label chances recalibrated: logit × ");
    assert!(factor > 0.0 && factor.is_finite(), "{stdout}");
    let title = std::fs::read_to_string(&calibrated).unwrap();
    assert!(title.contains(", fitted to the results)"), "{title}");
    assert_eq!(std::fs::read_to_string(&labels).unwrap(), kept);
    // Another node count is refused, and the file is left as it was.
    let out = mnk(&[
        "train-net",
        path(games),
        "--out",
        path(&again),
        "--label-nodes",
        "500",
        "--labels",
        path(&labels),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("not of 500-node searches by the tables;"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&labels).unwrap(), kept);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_net_and_match_explain_files_they_cannot_use() {
    let dir = scratch("badnet");
    let out_file = dir.join("out.net");
    let missing = dir.join("missing.txt");
    refused(
        &["train-net", path(&missing), "--out", path(&out_file)],
        "cannot read",
    );
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    refused(
        &["train-net", path(&empty), "--out", path(&out_file)],
        "hold no games",
    );
    let one = dir.join("one.txt");
    std::fs::write(&one, "15x15x5\t1-0\tline\t0\th8 a1 i8 a2 j8 a3 k8 a4 l8\n").unwrap();
    refused(
        &["train-net", path(&one), "--out", path(&out_file)],
        "too few quiet positions",
    );
    refused(
        &[
            "train-net",
            path(&one),
            "--out",
            path(&out_file),
            "--result-weight",
            "2",
        ],
        "a share is a number from 0 to 1",
    );
    refused(
        &[
            "train-net",
            path(&one),
            "--out",
            path(&out_file),
            "--final-step",
            "0",
        ],
        "a step size is a number above 0 and at most 1",
    );
    for (decay, expected) in [
        (
            &["--code-decay", "101"][..],
            "a decay is a number from 0 to 100",
        ),
        (
            &["--code-decay", "100", "--step", "0.5"],
            "--code-decay times the step must be below 1",
        ),
        (
            &["--average-last", "31"],
            "--average-last 31 is more than the 30 passes",
        ),
    ] {
        let mut args = vec!["train-net", path(&one), "--out", path(&out_file)];
        args.extend_from_slice(decay);
        refused(&args, expected);
    }
    refused(
        &[
            "train-net",
            path(&one),
            "--out",
            path(&out_file),
            "--labels",
            path(&dir.join("labels.txt")),
        ],
        "give --label-nodes too",
    );
    refused(
        &[
            "train-net",
            path(&one),
            "--out",
            path(&out_file),
            "--calibrate-labels",
        ],
        "give --label-nodes too",
    );
    let garbage = dir.join("garbage.net");
    std::fs::write(&garbage, "# a network?\n1 2 three\n").unwrap();
    refused(
        &[
            "train-net",
            path(&one),
            "--out",
            path(&out_file),
            "--label-nodes",
            "100",
            "--label-net",
            path(&garbage),
        ],
        "garbage.net: line 2: 'three' is not a whole number",
    );
    refused(
        &["match", "level6", "level6", "--net-a", path(&garbage)],
        "garbage.net: line 2: 'three' is not a whole number",
    );
    std::fs::write(&garbage, "1 2 3\n").unwrap();
    refused(
        &["match", "level6", "level6", "--net-b", path(&garbage)],
        "a network holds",
    );
    assert!(!out_file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
