//! The reader and thinking threads: `YXSTOP` and `END` are heard while the brain thinks.

mod common;

use std::io::{Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mnk_core::{Position, Rules};
use mnk_engine::{Bot, BotError, Choice, Limits};
use mnk_gomocup::stdio::END_GRACE;

/// Input that arrives when the test sends it, like a manager's pipe.
struct Pipe {
    chunks: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.chunks.recv() {
                Ok(chunk) => self.pending = chunk,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Output whose lines the test can watch.
#[derive(Clone, Default)]
struct Screen(Arc<Mutex<Vec<u8>>>);

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Screen {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Waits up to `limit` for the output to have `n` lines.
    fn wait_for(&self, n: usize, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.lines().len() >= n {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        None
    }
}

/// A bot that ignores every limit and thinks for five seconds.
struct Stubborn;

impl Bot for Stubborn {
    fn id(&self) -> &'static str {
        "stubborn"
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        std::thread::sleep(Duration::from_secs(5));
        common::Nearest.choose(pos, limits)
    }
}

/// A bot with a bug: it panics when asked for a move on an empty board.
struct Buggy;

impl Bot for Buggy {
    fn id(&self) -> &'static str {
        "buggy"
    }
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        assert!(pos.ply() > 0, "no move for an empty board");
        common::Nearest.choose(pos, limits)
    }
}

struct Brain {
    input: Sender<Vec<u8>>,
    screen: Screen,
    done: Receiver<std::io::Result<()>>,
}

fn start(bot: &'static str) -> Brain {
    let (input, chunks) = mpsc::channel();
    let screen = Screen::default();
    let (done_tx, done) = mpsc::channel();
    let out = screen.clone();
    std::thread::spawn(move || {
        let pipe = Pipe {
            chunks,
            pending: Vec::new(),
        };
        let result = match bot {
            "stubborn" => mnk_gomocup::run(pipe, out, |_: &Rules, _: mnk_gomocup::BotOptions| {
                Ok(Box::new(Stubborn) as Box<dyn Bot>)
            }),
            "buggy" => mnk_gomocup::run(pipe, out, |_: &Rules, _: mnk_gomocup::BotOptions| {
                Ok(Box::new(Buggy) as Box<dyn Bot>)
            }),
            name => mnk_gomocup::run(pipe, out, common::maker(name)),
        };
        let _ = done_tx.send(result);
    });
    Brain {
        input,
        screen,
        done,
    }
}

impl Brain {
    fn send(&self, text: &str) {
        self.input.send(text.as_bytes().to_vec()).unwrap();
    }
}

#[test]
fn yxstop_answers_the_move_at_once() {
    let brain = start("until-stopped");
    brain.send("START 15\r\nINFO timeout_turn 60000\r\nBEGIN\r\n");
    assert!(brain.screen.wait_for(1, Duration::from_secs(5)).is_some());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(brain.screen.lines(), ["OK"], "the search should still run");
    brain.send("YXSTOP\r\n");
    let waited = brain.screen.wait_for(2, Duration::from_secs(1));
    assert!(waited.is_some(), "no move within 1 s of YXSTOP");
    assert_eq!(brain.screen.lines(), ["OK", "7,7"]);
    // STOP works too, and the conversation goes on.
    brain.send("INFO timeout_turn 60000\nTURN 0,0\n");
    std::thread::sleep(Duration::from_millis(100));
    brain.send("STOP\n");
    assert!(brain.screen.wait_for(3, Duration::from_secs(1)).is_some());
    assert_eq!(brain.screen.lines()[2], "6,7");
    brain.send("END\n");
    assert!(brain.done.recv_timeout(Duration::from_secs(1)).is_ok());
}

#[test]
fn a_stop_that_arrives_before_its_search_still_stops_it() {
    let brain = start("until-stopped");
    brain.send("START 15\nINFO timeout_turn 60000\nBEGIN\nYXSTOP\n");
    assert!(brain.screen.wait_for(2, Duration::from_secs(1)).is_some());
    assert_eq!(brain.screen.lines(), ["OK", "7,7"]);
}

#[test]
fn end_mid_search_answers_the_move_so_far_and_exits_at_once() {
    let brain = start("until-stopped");
    brain.send("START 15\nINFO timeout_turn 60000\nBEGIN\n");
    assert!(brain.screen.wait_for(1, Duration::from_secs(5)).is_some());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(brain.screen.lines(), ["OK"], "the search should still run");
    let sent = Instant::now();
    brain.send("END\nABOUT\n");
    let result = brain.done.recv_timeout(Duration::from_secs(1));
    assert!(result.is_ok(), "run() did not return within 1 s of END");
    assert!(sent.elapsed() < Duration::from_secs(1));
    std::thread::sleep(Duration::from_millis(50));
    // BEGIN came before END, so it is answered; nothing after END is.
    assert_eq!(brain.screen.lines(), ["OK", "7,7"]);
}

#[test]
fn end_answers_every_command_read_before_it_in_order() {
    let brain = start("until-stopped");
    let sent = Instant::now();
    // Two long searches queued before END: END stops both, the one running and the one waiting.
    brain.send("ABOUT\nSTART 15\nINFO timeout_turn 60000\nBEGIN\nTURN 0,0\nEND\nABOUT\n");
    assert!(brain.done.recv_timeout(Duration::from_secs(1)).is_ok());
    assert!(sent.elapsed() < Duration::from_secs(1));
    let lines = brain.screen.lines();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].starts_with("name=\"mnk\""), "{lines:?}");
    assert_eq!(lines[1..], ["OK", "7,7", "6,7"]);
}

#[test]
fn end_returns_even_when_the_bot_ignores_the_stop_flag() {
    let brain = start("stubborn");
    brain.send("START 15\nBEGIN\n");
    assert!(brain.screen.wait_for(1, Duration::from_secs(5)).is_some());
    std::thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    brain.send("END\n");
    // The brain waits END_GRACE for the move it owes, then gives up on it.
    let limit = END_GRACE + Duration::from_millis(300);
    assert!(brain.done.recv_timeout(limit).is_ok());
    assert!(sent.elapsed() < limit);
    assert_eq!(brain.screen.lines(), ["OK"]);
}

#[test]
fn the_deadline_ends_a_search_without_any_stop() {
    let brain = start("until-stopped");
    // 300 ms per move: the brain's deadline is 285 ms (a twentieth kept back). A search that
    // nothing stops would never answer; how close to the turn the answer comes is a figure for
    // `mnk bench --turn-ms`, not for a test on a loaded machine, hence the slack.
    brain.send("START 15\nINFO timeout_turn 300\nBEGIN\n");
    assert!(brain.screen.wait_for(1, Duration::from_secs(5)).is_some());
    let waited = brain
        .screen
        .wait_for(2, Duration::from_secs(2))
        .expect("a move");
    assert!(waited < Duration::from_millis(800), "took {waited:?}");
    assert_eq!(brain.screen.lines(), ["OK", "7,7"]);
}

#[test]
fn a_panicking_search_answers_error_and_the_brain_goes_on() {
    let brain = start("buggy");
    brain.send("START 15\nBEGIN\n");
    assert!(brain.screen.wait_for(2, Duration::from_secs(5)).is_some());
    assert_eq!(
        brain.screen.lines(),
        ["OK", "ERROR internal error: no move for an empty board"]
    );
    // The same session answers the next request, with the opponent's stone on the board.
    brain.send("TURN 7,7\n");
    assert!(brain.screen.wait_for(3, Duration::from_secs(5)).is_some());
    assert_eq!(brain.screen.lines()[2], "6,7");
    brain.send("END\n");
    assert!(brain.done.recv_timeout(Duration::from_secs(1)).is_ok());
}
