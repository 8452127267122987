//! End to end: the `pbrain-mnk` executable with mnk's real engine, driven through pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use mnk_core::{Cell, Position, Rules};
use mnk_engine::roster::{create, BotSpec};
use mnk_engine::Limits;

struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Brain {
    fn spawn() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-mnk"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("pbrain-mnk starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        // The manager's line end is CR LF.
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "{line}\r\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE or DEBUG line.
    fn answer(&self, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer within {limit:?}"));
            let line = line.trim_end().to_string();
            if !(line.starts_with("MESSAGE") || line.starts_with("DEBUG")) {
                return line;
            }
        }
    }

    fn exited_within(&mut self, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.child.try_wait().unwrap().is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `x,y` into an mnk-core cell of a 15-row board (the protocol counts rows from the top).
fn cell(answer: &str) -> Cell {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {answer}"));
    let x: i32 = x.parse().unwrap();
    let y: i32 = y.parse().unwrap();
    Cell::new(x, 14 - y)
}

fn coord(c: Cell) -> String {
    format!("{},{}", c.x, 14 - c.y)
}

/// Our side of the test game: mnk's attack-weight bot, which blocks what it must.
fn opponent_move(pos: &Position) -> Cell {
    let spec: BotSpec = "weights".parse().unwrap();
    let mut bot = create(&spec, pos.rules(), 7).unwrap();
    bot.choose(pos, &Limits::none()).unwrap().cell
}

#[test]
fn plays_a_short_game_then_stops_and_ends_on_command() {
    let mut brain = Brain::spawn();
    brain.send("START 15");
    assert_eq!(brain.answer(Duration::from_secs(10)), "OK");
    for info in [
        "INFO timeout_turn 300",
        "INFO timeout_match 100000",
        "INFO max_memory 83886080",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO folder /tmp",
    ] {
        brain.send(info);
    }
    brain.send("ABOUT");
    assert!(brain
        .answer(Duration::from_secs(2))
        .starts_with("name=\"mnk\""));

    let mut pos = Position::new(Rules::bounded(15, 15, 5).unwrap());
    brain.send("INFO time_left 100000");
    brain.send("BEGIN");
    for _ in 0..4 {
        let sent = Instant::now();
        let answer = brain.answer(Duration::from_secs(5));
        // 300 ms per move, and a little for the pipes of a busy machine.
        assert!(
            sent.elapsed() < Duration::from_millis(600),
            "{:?}",
            sent.elapsed()
        );
        pos.try_play(cell(&answer))
            .unwrap_or_else(|e| panic!("illegal move {answer}: {e}"));
        assert!(!pos.is_over());
        let ours = opponent_move(&pos);
        pos.play(ours);
        brain.send("INFO time_left 100000");
        brain.send(&format!("TURN {}", coord(ours)));
    }
    let answer = brain.answer(Duration::from_secs(5));
    pos.try_play(cell(&answer)).unwrap();

    // A long search on a quiet board (nothing to prove, so only a stop ends it), stopped by
    // YXSTOP: the move comes at once.
    brain.send("RESTART");
    assert_eq!(brain.answer(Duration::from_secs(2)), "OK");
    brain.send("INFO timeout_turn 60000");
    brain.send("INFO time_left 1000000");
    for line in ["BOARD", "7,7,2", "DONE"] {
        brain.send(line);
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        brain.lines.try_iter().all(|l| l.starts_with("MESSAGE")),
        "the search ended before YXSTOP"
    );
    let stopped = Instant::now();
    brain.send("YXSTOP");
    let answer = brain.answer(Duration::from_secs(1));
    assert!(stopped.elapsed() < Duration::from_secs(1));
    let mut pos = Position::new(Rules::bounded(15, 15, 5).unwrap());
    pos.play(cell("7,7"));
    pos.try_play(cell(&answer)).unwrap();

    // Another long search, interrupted by END: the brain answers the move found so far (the
    // TURN came before END) and exits within a second, writing nothing else.
    let ours = opponent_move(&pos);
    pos.play(ours);
    brain.send(&format!("TURN {}", coord(ours)));
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        brain.lines.try_iter().all(|l| l.starts_with("MESSAGE")),
        "the search ended before END"
    );
    brain.send("END");
    assert!(
        brain.exited_within(Duration::from_secs(1)),
        "pbrain-mnk still runs 1 s after END"
    );
    // The process has exited, so its output ends: read it all.
    let after: Vec<String> = brain
        .lines
        .iter()
        .filter(|l| !l.starts_with("MESSAGE"))
        .collect();
    assert_eq!(after.len(), 1, "written after END: {after:?}");
    pos.try_play(cell(after[0].trim_end()))
        .unwrap_or_else(|e| panic!("illegal move {}: {e}", after[0]));
}

#[test]
fn errors_and_unknown_commands_over_the_pipe() {
    let mut brain = Brain::spawn();
    brain.send("start 40");
    assert!(brain.answer(Duration::from_secs(10)).starts_with("ERROR "));
    brain.send("RECTSTART 20,15");
    assert_eq!(brain.answer(Duration::from_secs(2)), "OK");
    brain.send("FLY");
    assert!(brain.answer(Duration::from_secs(2)).starts_with("UNKNOWN "));
    brain.send("TURN 20,0");
    assert!(brain.answer(Duration::from_secs(2)).starts_with("ERROR "));
    brain.send("INFO timeout_turn 200");
    brain.send("TURN 10,7");
    let answer = brain.answer(Duration::from_secs(5));
    assert!(answer.contains(','), "{answer}");
    brain.send("END");
    assert!(brain.exited_within(Duration::from_secs(1)));
}

#[test]
fn the_end_of_input_ends_the_brain() {
    let mut brain = Brain::spawn();
    brain.send("START 15");
    assert_eq!(brain.answer(Duration::from_secs(10)), "OK");
    // The manager closes the pipe.
    drop(brain.stdin.take());
    assert!(brain.exited_within(Duration::from_secs(2)));
}

#[test]
fn a_position_with_uneven_counts_is_played_not_refused() {
    // Issue 28's lines, as Piskvork's board editor sends them: four own stones to three, the
    // brain to move. Any answer but a move would make Piskvork stop the brain; 7,6 and 7,11 win.
    let mut brain = Brain::spawn();
    brain.send("START 15");
    assert_eq!(brain.answer(Duration::from_secs(10)), "OK");
    for line in [
        "BOARD", "7,7,1", "7,8,1", "7,9,1", "7,10,1", "8,8,2", "8,9,2", "8,10,2", "DONE",
    ] {
        brain.send(line);
    }
    // The default 5 s per move, and room for a busy machine.
    let answer = brain.answer(Duration::from_secs(10));
    assert!(["7,6", "7,11"].contains(&answer.as_str()), "{answer}");
    brain.send("END");
    assert!(brain.exited_within(Duration::from_secs(1)));
}
