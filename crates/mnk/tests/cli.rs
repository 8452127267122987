//! The `mnk` command line, run as a user runs it: resource flags out of range and unknown
//! arguments are refused with a clear message and a non-zero exit, and finished positions are
//! described in words.

use std::io::Write;
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

/// Checks that `args` is refused before anything runs: a failing exit, nothing on standard
/// output, and an error naming `flag` and the allowed `range`.
fn refused(args: &[&str], flag: &str, range: &str) {
    let out = mnk(args);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(
        out.stdout.is_empty(),
        "{args:?} printed {}",
        text(&out.stdout)
    );
    assert!(err.contains(flag), "{args:?}: {err}");
    assert!(err.contains(range), "{args:?} does not name {range}: {err}");
}

#[test]
fn solve_refuses_tables_out_of_range() {
    refused(
        &["solve", "3", "3", "3", "--hash-mb", "0"],
        "--hash-mb",
        "1..=1024",
    );
    refused(
        &["solve", "3", "3", "3", "--hash-mb", "1025"],
        "--hash-mb",
        "1..=1024",
    );
    refused(
        &["solve", "3", "3", "3", "--hash-mb", "4096"],
        "--hash-mb",
        "1..=1024",
    );
    refused(
        &["solve", "3", "3", "3", "--hash-mb", "18446744073709551615"],
        "--hash-mb",
        "1..=1024",
    );
}

#[test]
fn solve_takes_the_largest_table_but_sizes_it_to_the_board() {
    // Tic-tac-toe cannot fill more than a megabyte, so asking for a gigabyte is quick.
    let out = mnk(&["solve", "3", "3", "3", "--hash-mb", "1024"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("value: draw"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn play_refuses_thinking_times_out_of_range() {
    refused(&["play", "--time-ms", "0"], "--time-ms", "1..=3600000");
    refused(
        &["play", "--time-ms", "3600001"],
        "--time-ms",
        "1..=3600000",
    );
}

#[test]
fn serve_refuses_thread_counts_out_of_range() {
    refused(&["serve", "--threads", "0"], "--threads", "1..=256");
    refused(&["serve", "--threads", "257"], "--threads", "1..=256");
}

#[test]
fn serve_refuses_room_settings_out_of_range() {
    refused(
        &["serve", "--room-idle-minutes", "0"],
        "--room-idle-minutes",
        "1..=43200",
    );
    refused(
        &["serve", "--room-idle-minutes", "43201"],
        "--room-idle-minutes",
        "1..=43200",
    );
    refused(
        &["serve", "--room-idle-minutes", "soon"],
        "--room-idle-minutes",
        "soon",
    );
    refused(
        &["serve", "--room-claim-secs", "0"],
        "--room-claim-secs",
        "1..=3600",
    );
    refused(
        &["serve", "--room-claim-secs", "3601"],
        "--room-claim-secs",
        "1..=3600",
    );
    for flag in [
        "--room-creations-per-hour",
        "--room-joins-per-minute",
        "--room-actions-per-minute",
        "--room-reads-per-minute",
    ] {
        refused(&["serve", flag, "0"], flag, "1..=1000000");
        refused(&["serve", flag, "1000001"], flag, "1..=1000000");
        refused(&["serve", flag, "many"], flag, "many");
    }
}

#[test]
fn bench_refuses_depths_out_of_range() {
    refused(&["bench", "--depth", "0"], "--depth", "1..=30");
    refused(&["bench", "--depth", "31"], "--depth", "1..=30");
}

#[test]
fn bench_turns_refuse_bad_settings() {
    refused(&["bench", "--turn-ms", "0"], "--turn-ms", "1..=60000");
    refused(&["bench", "--turn-ms", "60001"], "--turn-ms", "1..=60000");
    refused(&["bench", "--engine", "x"], "--engine", "--turn-ms");
    refused(
        &["bench", "--turn-ms", "50", "--depth", "4"],
        "--turn-ms",
        "--depth",
    );
    // An engine that cannot start: a clear error naming the position, no figures.
    let out = mnk(&[
        "bench",
        "--turn-ms",
        "50",
        "--engine",
        "/nonexistent/engine",
    ]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("position 1") && err.contains("cannot start"),
        "{err}"
    );
}

#[test]
fn bench_turns_measure_this_program_on_every_undecided_position() {
    let out = mnk(&["bench", "--turn-ms", "20"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let last = report.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("Turns of 20 ms on 80 positions: median "),
        "{report}"
    );
    // mnk reports its depth on every move it searches.
    assert!(!last.ends_with("none reported"), "{report}");
    assert_eq!(report.lines().count(), 82, "{report}");
}

#[test]
fn bench_turns_hand_the_threads_to_the_engine() {
    // The measured engine is this program behind a shell loop that logs each line it passes on
    // (and ends with END, as the engine does), so the test sees what the bench sent.
    let dir = tempfile::tempdir().expect("temporary directory");
    let log = dir.path().join("sent.txt");
    let engine = format!(
        "sh -c 'while IFS= read -r l; do printf \"%s\\n\" \"$l\" >> \"{}\"; \
         printf \"%s\\n\" \"$l\"; case $l in END*) break;; esac; done | \"{}\" gomocup'",
        log.display(),
        env!("CARGO_BIN_EXE_mnk")
    );
    let out = mnk(&[
        "bench",
        "--turn-ms",
        "5",
        "--threads",
        "2",
        "--engine",
        &engine,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let sent = std::fs::read_to_string(&log).expect("the engine's input was logged");
    let told = sent
        .lines()
        .filter(|l| l.trim_end() == "INFO thread_num 2")
        .count();
    assert_eq!(told, 80, "one INFO thread_num a position:\n{sent}");
}

#[test]
fn match_refuses_settings_out_of_range() {
    let players = ["match", "weights", "weights"];
    let with = |flag: &'static str, value: &'static str| {
        let mut args = players.to_vec();
        args.extend([flag, value]);
        args
    };
    refused(&with("--games", "0"), "--games", "1..=100000");
    refused(&with("--games", "100001"), "--games", "1..=100000");
    refused(&with("--time-ms", "0"), "--time-ms", "1..=3600000");
    refused(&with("--time-ms", "3600001"), "--time-ms", "1..=3600000");
    refused(&with("--game-ms", "86400001"), "--game-ms", "0..=86400000");
    refused(
        &with("--tolerance-ms", "60001"),
        "--tolerance-ms",
        "0..=60000",
    );
    refused(&with("--concurrency", "0"), "--concurrency", "1..=64");
    refused(&with("--concurrency", "65"), "--concurrency", "1..=64");
    refused(&with("--memory-mb", "65537"), "--memory-mb", "0..=65536");
}

#[test]
fn help_states_the_ranges() {
    let help = |args: &[&str]| text(&mnk(args).stdout);
    assert!(help(&["solve", "--help"]).contains("1 to 1024"));
    assert!(help(&["play", "--help"]).contains("1 to 3600000"));
    let serve = help(&["serve", "--help"]);
    assert!(serve.contains("1 to 256"));
    assert!(serve.contains("1 to 43200"));
    assert!(serve.contains("1 to 1000000"));
    assert!(help(&["bench", "--help"]).contains("1 to 30"));
    let text = help(&["match", "--help"]);
    for range in [
        "1 to 100000",
        "1 to 3600000",
        "at most 86400000",
        "0 to 60000",
        "1 to 64",
    ] {
        assert!(text.contains(range), "match --help lacks {range}:\n{text}");
    }
}

#[test]
fn unknown_arguments_are_refused() {
    for args in [
        &["solve", "3", "3", "3", "--frobnicate"][..],
        &["count", "3", "3", "3", "4"],
        &["play", "--hash-mb", "16"],
        &["fly"],
    ] {
        let out = mnk(args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} was accepted");
        assert!(
            err.contains("unexpected argument") || err.contains("unrecognized subcommand"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn solve_describes_a_won_position_in_words() {
    let out = mnk(&["solve", "3", "3", "3", "--moves", "a1 b1 a2 b2 a3"]);
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stderr).trim_end(),
        "mnk: the game is already over: X won with a1 a2 a3"
    );
}

#[test]
fn solve_describes_a_drawn_position_in_words() {
    let out = mnk(&[
        "solve",
        "3",
        "3",
        "3",
        "--moves",
        "a1 b2 c3 b1 b3 a3 c1 c2 a2",
    ]);
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stderr).trim_end(),
        "mnk: the game is already over: drawn: the board is full"
    );
}

/// `mnk gomocup` answers what it read before END, then exits.
#[test]
fn gomocup_answers_before_end() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .arg("gomocup")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("mnk gomocup runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"ABOUT\r\nSTART 15\r\nEND\r\nABOUT\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("name=\"mnk\""), "{lines:?}");
    assert_eq!(lines[1], "OK");
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `mnk solve 5 5 4 --all | head -1`: the pipe is closed before the report is written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args(["solve", "5", "5", "4", "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_terminal_game_calls_a_draw_when_no_line_is_left() {
    let (shown, ok) = play_with_input(
        &["--rules", "tictactoe", "-x", "human", "-o", "human"],
        "b2\na1\nc3\na3\na2\nc2\nb3\nb1\nc1\nquit\n",
    );
    assert!(ok, "{shown}");
    assert!(
        shown.contains("Draw: no line can be completed any more."),
        "{shown}"
    );
    // c1 after the draw is refused: the last board still has it empty.
    assert!(shown.contains("the game is over"), "{shown}");
    assert!(shown.trim_end().ends_with("undo, new or quit>"), "{shown}");
    assert!(!shown.contains("last move: X c1"), "{shown}");
}

/// `mnk play` with stdin `input`: its stdout and whether it exited well.
fn play_with_input(args: &[&str], input: &str) -> (String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mnk play runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (text(&out.stdout), out.status.success())
}

#[test]
fn the_terminal_game_plays_a_swap2_opening_between_two_people() {
    // The opener places three, the chooser places two more (white, black), the opener takes
    // white: white (O) is to move after the five stones, and plays g7.
    let input = "h8\nj10\nd12\nsix\nplace-two\na1\no15\nwhite\ng7\nquit\n";
    let (shown, ok) = play_with_input(
        &[
            "--rules",
            "gomoku15",
            "-x",
            "human",
            "-o",
            "human",
            "--opening",
            "swap2",
        ],
        input,
    );
    assert!(ok, "{shown}");
    assert!(
        shown.contains("the opener (-x): opening stone, 3 to place (X next)>"),
        "{shown}"
    );
    assert!(
        shown.contains("the chooser (-o): choose black, white, place-two>"),
        "{shown}"
    );
    assert!(shown.contains("choose one of the words shown"), "{shown}");
    assert!(
        shown.contains("the chooser (-o): opening stone, 2 to place (O next)>"),
        "{shown}"
    );
    assert!(
        shown.contains("the opener (-x): choose black, white>"),
        "{shown}"
    );
    assert!(shown.contains("The colours are settled"), "{shown}");
    assert!(shown.contains("last move: O g7"), "{shown}");
}

#[test]
fn the_terminal_game_lets_the_computer_open_and_choose() {
    let (shown, ok) = play_with_input(
        &[
            "--rules",
            "gomoku15",
            "-x",
            "level3",
            "-o",
            "human",
            "--opening",
            "swap2",
            "--time-ms",
            "200",
            "--seed",
            "1",
        ],
        "place-two\na1\no15\nquit\n",
    );
    assert!(ok, "{shown}");
    assert!(shown.contains("level3 opens with"), "{shown}");
    assert!(shown.contains("level3 chooses"), "{shown}");
    assert!(shown.contains("The colours are settled"), "{shown}");
}

#[test]
fn the_terminal_game_refuses_a_swap_opening_that_does_not_fit() {
    let out = mnk(&["play", "--rules", "tictactoe", "--opening", "swap"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no swap opening here"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn solve_all_gives_every_move_with_the_games_and_positions_below_it() {
    let out = mnk(&["solve", "3", "3", "3", "--all"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let row = |cell: &str| {
        report
            .lines()
            .find(|l| l.split_whitespace().next() == Some(cell))
            .unwrap_or_else(|| panic!("no row for {cell}:\n{report}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("move"), ["move", "value", "games", "positions"]);
    // Below a corner, an edge and the centre of tic-tac-toe (the games add up to 255,168).
    assert_eq!(row("a1"), ["a1", "draw", "27732", "1870"]);
    assert_eq!(row("b1"), ["b1", "draw", "29592", "1902"]);
    assert_eq!(row("b2"), ["b2", "draw", "25872", "1837"]);

    // 25 empty cells are too many to count: the values come, with the reason.
    let out = mnk(&["solve", "5", "5", "4", "--all"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("games and positions below each move not counted"),
        "{report}"
    );
    assert!(report.lines().any(|l| l.trim() == "c3  draw"), "{report}");
}

#[test]
fn solve_says_what_proved_it_and_when_it_gave_up() {
    let out = mnk(&["solve", "6", "6", "4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("first player (X) wins in 11 plies"),
        "{report}"
    );
    assert!(
        report.contains("proof: ") && report.contains("forcing lines"),
        "{report}"
    );
    // 8x7x5 is taken on (56 cells) but not proven within a second (it takes some 120 s; 7x7x5,
    // at about one second, was proven in time on a quiet machine): said, not an error.
    let out = mnk(&["solve", "8", "7", "5", "--time-s", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("value: unproven: stopped after"),
        "{report}"
    );
    // Past 64 cells the bitboards end.
    let out = mnk(&["solve", "9", "8", "5"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("at most 64 cells"));
    refused(
        &["solve", "3", "3", "3", "--time-s", "0"],
        "--time-s",
        "1..=86400",
    );
}

#[test]
fn solve_table_checks_itself_against_the_published_values() {
    // The first rows come at once; the reader stops after them (the rest is a long run).
    let mut child = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args(["solve", "--table", "--time-s", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..10 {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
        lines.push(line);
    }
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let row = |board: &str| {
        lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(board))
            .unwrap_or_else(|| panic!("no row {board}: {lines:?}"))
            .clone()
    };
    assert!(row("3x3x3").contains("draw (agrees)"), "{lines:?}");
    assert!(row("4x3x3").contains("X wins in 7"), "{lines:?}");
    assert!(
        row("4x3x3").contains("first player wins (agrees)"),
        "{lines:?}"
    );
    // The table and a single board do not mix.
    let out = mnk(&["solve", "--table", "3", "3", "3"]);
    assert!(!out.status.success());
    let out = mnk(&["solve"]);
    assert!(!out.status.success());
}

#[test]
fn solve_writes_a_book_that_reads_back() {
    let path = std::env::temp_dir().join(format!("mnk-book-{}.txt", std::process::id()));
    let file = path.to_str().unwrap();
    let out = mnk(&["solve", "4", "4", "3", "--book", file, "--book-plies", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("book: "),
        "{}",
        text(&out.stdout)
    );
    let book = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let mut lines = book.lines();
    assert_eq!(lines.next(), Some("mnk-book 1"));
    assert_eq!(lines.next(), Some("rules 4x4x3"));
    assert!(book.contains("-\twin in 5\t"), "{book}");
    // --book-plies needs --book, and has a range.
    assert!(!mnk(&["solve", "3", "3", "3", "--book-plies", "2"])
        .status
        .success());
    refused(
        &["solve", "3", "3", "3", "--book", file, "--book-plies", "9"],
        "--book-plies",
        "0..=8",
    );
}

#[test]
fn serve_refuses_a_malformed_book_with_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.book");
    std::fs::write(&path, "mnk-book 1\nrules 4x4x3\n-\tdraw\n").unwrap();
    let out = mnk(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--book",
        path.to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "a broken book was served");
    assert!(
        err.contains("broken.book") && err.contains("line 3"),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    // `mnk match … | head -1`, the reader gone before the report is written: here before mnk
    // starts, so the first line already meets a closed pipe, however fast mnk runs.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args([
            "match", "level1", "level1", "--games", "2", "--rules", "3x3x3",
        ])
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("mnk runs");
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(141), "{stderr}");
}
