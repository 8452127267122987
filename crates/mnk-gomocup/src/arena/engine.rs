//! An external engine driven through the Gomocup protocol, one process per game.
//!
//! A thread reads the engine's output into a channel so that every wait has a deadline: an
//! engine that hangs loses on time, one that exits loses by crash, one that answers something
//! other than a move loses by protocol error. The first move request of a game sends the whole
//! position (`BEGIN` on an empty board, else `BOARD`), later ones the opponent's last move
//! (`TURN`); `SUGGEST x,y` is accepted with `PLAY x,y`. `MESSAGE`, `DEBUG` and empty lines are
//! skipped, as managers do.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use mnk_core::{Cell, Position, Rules, Win};

use crate::command::Coord;
use crate::coords::Frame;

use super::{Fault, FaultKind};

/// How long an engine may take to start and answer `START`.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to exit after `END` before it is killed.
pub const END_TIMEOUT: Duration = Duration::from_secs(1);

/// Splits a command line into words: whitespace separates, single or double quotes group.
pub fn split_command(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The depth of a `MESSAGE depth N …` line (the word `depth` may follow other words, as in
/// `MESSAGE info depth 12`).
fn message_depth(line: &str) -> Option<u32> {
    let mut words = line.split_whitespace();
    words.find(|w| w.eq_ignore_ascii_case("depth"))?;
    words.next()?.parse().ok()
}

/// What the protocol tells an engine about the game.
#[derive(Clone, Copy, Debug)]
pub struct EngineSettings {
    /// `INFO timeout_turn`.
    pub turn_ms: u64,
    /// `INFO timeout_match` (0 = no limit).
    pub match_ms: u64,
    /// `INFO max_memory` in bytes (0 = no limit).
    pub max_memory: u64,
    /// `INFO thread_num`, sent only when set.
    pub threads: Option<usize>,
    /// `INFO max_node`, sent only when set: a node cap per search, so that an external engine
    /// compared with `--nodes` plays the same games whatever the machine's load.
    pub max_nodes: Option<u64>,
}

/// An engine's answer to `SWAP2BOARD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// `SWAP`: it takes black.
    Swap,
    /// The stones it places: the opener's three, or as the one choosing one (it takes white and
    /// moves) or two (white, black: the choice goes back to the opener).
    Stones(Vec<Cell>),
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    frame: Frame,
    /// Whether the engine has been sent the game's position yet.
    informed: bool,
    /// The deepest `MESSAGE depth N` the engine reported while thinking over the last move.
    reported_depth: Option<u32>,
}

fn fault(kind: FaultKind, detail: impl Into<String>) -> Fault {
    Fault {
        kind,
        detail: detail.into(),
    }
}

impl Engine {
    /// Starts `command` and sets up a game under `rules`: `START`/`RECTSTART` (waiting for `OK`)
    /// and the `INFO` lines. `rules` must be a bounded five-in-a-row board, X first.
    pub fn start(command: &str, rules: &Rules, settings: EngineSettings) -> Result<Engine, Fault> {
        let words = split_command(command);
        let (program, args) = words
            .split_first()
            .ok_or_else(|| fault(FaultKind::Crash, "the engine command is empty"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| fault(FaultKind::Crash, format!("cannot start '{program}': {e}")))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Engines may end lines with CR LF, LF or CR.
                        let text = String::from_utf8_lossy(&buf);
                        for line in text.split(['\r', '\n']) {
                            if !line.trim().is_empty() && tx.send(line.trim().to_string()).is_err()
                            {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let (width, height) = rules
            .size()
            .ok_or_else(|| fault(FaultKind::Protocol, "the protocol needs a bounded board"))?;
        let mut engine = Engine {
            child,
            stdin,
            lines,
            frame: Frame::new(width, height),
            informed: false,
            reported_depth: None,
        };
        if width == height {
            engine.send(&format!("START {width}"))?;
        } else {
            engine.send(&format!("RECTSTART {width},{height}"))?;
        }
        let deadline = Instant::now() + START_TIMEOUT;
        let answer = engine.next_answer(deadline)?;
        if answer != "OK" {
            return Err(fault(
                FaultKind::Protocol,
                format!("answered '{answer}' to START"),
            ));
        }
        // The specification's bit flags: 1 exactly five, 4 renju, 8 caro.
        let rule = match rules.win() {
            Win::Freestyle => 0,
            Win::Exact => 1,
            Win::Renju => 4,
            Win::Caro => 8,
        };
        for line in [
            format!("INFO timeout_turn {}", settings.turn_ms),
            format!("INFO timeout_match {}", settings.match_ms),
            format!("INFO max_memory {}", settings.max_memory),
            "INFO game_type 1".to_string(),
            format!("INFO rule {rule}"),
        ] {
            engine.send(&line)?;
        }
        if let Some(threads) = settings.threads {
            engine.send(&format!("INFO thread_num {threads}"))?;
        }
        if let Some(nodes) = settings.max_nodes {
            engine.send(&format!("INFO max_node {nodes}"))?;
        }
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\r\n"))
            .and_then(|()| self.stdin.flush())
            .map_err(|e| {
                fault(
                    FaultKind::Crash,
                    format!("the engine stopped reading ({e})"),
                )
            })
    }

    /// The next line that is not a message, before `deadline`.
    fn next_answer(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let word = line
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_ascii_uppercase();
                    if word != "MESSAGE" && word != "DEBUG" {
                        return Ok(line);
                    }
                    if let Some(depth) = message_depth(&line) {
                        self.reported_depth = self.reported_depth.max(Some(depth));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(fault(FaultKind::Timeout, "no answer in time"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .try_wait()
                        .ok()
                        .flatten()
                        .map_or("its output closed".to_string(), |s| s.to_string());
                    return Err(fault(
                        FaultKind::Crash,
                        format!("the engine exited ({status})"),
                    ));
                }
            }
        }
    }

    fn parse_move(&self, text: &str) -> Option<Coord> {
        let (x, y) = text.split_once(',')?;
        Some(Coord::new(x.trim().parse().ok()?, y.trim().parse().ok()?))
    }

    /// The deepest search depth the engine reported (`MESSAGE depth N …`, as mnk and many
    /// engines write) while thinking over the last [`Engine::request`]; `None` if it said none.
    #[must_use]
    pub fn reported_depth(&self) -> Option<u32> {
        self.reported_depth
    }

    /// Asks for the engine's move in `pos` (the engine is to move), telling it the game time
    /// left, and waits until `deadline`. The answer is checked to be on the board, not legal:
    /// the referee does that.
    pub fn request(
        &mut self,
        pos: &Position,
        time_left_ms: Option<u64>,
        deadline: Instant,
    ) -> Result<Cell, Fault> {
        self.reported_depth = None;
        if let Some(left) = time_left_ms {
            self.send(&format!("INFO time_left {left}"))?;
        }
        if !self.informed || pos.ply() == 0 {
            self.informed = true;
            if pos.ply() == 0 {
                self.send("BEGIN")?;
            } else {
                // In the order played: under renju the protocol sends them so.
                self.send("BOARD")?;
                let me = pos.to_move();
                for &cell in pos.history() {
                    let at = self.frame.coord(cell).expect("stones are on the board");
                    let field = if pos.stone(cell) == Some(me) { 1 } else { 2 };
                    self.send(&format!("{at},{field}"))?;
                }
                self.send("DONE")?;
            }
        } else {
            let last = pos.last_move().expect("a move was played");
            let at = self.frame.coord(last).expect("moves are on the board");
            self.send(&format!("TURN {at}"))?;
        }
        loop {
            let answer = self.next_answer(deadline)?;
            if let Some(rest) = answer
                .strip_prefix("SUGGEST ")
                .or(answer.strip_prefix("suggest "))
            {
                let rest = rest.trim().to_string();
                self.send(&format!("PLAY {rest}"))?;
                continue;
            }
            let Some(at) = self.parse_move(&answer) else {
                return Err(fault(
                    FaultKind::Protocol,
                    format!("answered '{}' instead of a move", shorten(&answer)),
                ));
            };
            return self.frame.cell(at).ok_or_else(|| {
                fault(
                    FaultKind::Illegal,
                    format!("played {at}, which is not on the board"),
                )
            });
        }
    }

    /// Asks for a swap2 step: `SWAP2BOARD` with the stones of `pos` (white, the colour to
    /// move, as the engine's own, black as the opponent's), waiting until `deadline`. The answer
    /// is checked for its shape (three stones on an empty board; `SWAP`, one or two stones after
    /// three; `SWAP` or one stone after five) and each stone for being on the board; the referee
    /// checks they are legal. The next move request sends the whole board.
    pub fn swap2(&mut self, pos: &Position, deadline: Instant) -> Result<Swap2Answer, Fault> {
        self.informed = false;
        self.send("SWAP2BOARD")?;
        let white = pos.to_move();
        for (cell, player) in pos.stones() {
            let at = self.frame.coord(cell).expect("stones are on the board");
            let field = if player == white { 1 } else { 2 };
            self.send(&format!("{at},{field}"))?;
        }
        self.send("DONE")?;
        let answer = self.next_answer(deadline)?;
        if answer.eq_ignore_ascii_case("SWAP") && pos.ply() > 0 {
            return Ok(Swap2Answer::Swap);
        }
        let coords: Option<Vec<Coord>> = answer
            .split_whitespace()
            .map(|word| self.parse_move(word))
            .collect();
        let allowed: &[usize] = match pos.ply() {
            0 => &[3],
            3 => &[1, 2],
            _ => &[1],
        };
        let Some(coords) = coords.filter(|c| allowed.contains(&c.len())) else {
            return Err(fault(
                FaultKind::Protocol,
                format!(
                    "answered '{}' to SWAP2BOARD with {} stones",
                    shorten(&answer),
                    pos.ply()
                ),
            ));
        };
        coords
            .into_iter()
            .map(|at| {
                self.frame.cell(at).ok_or_else(|| {
                    fault(
                        FaultKind::Illegal,
                        format!("placed {at}, which is not on the board"),
                    )
                })
            })
            .collect::<Result<Vec<Cell>, Fault>>()
            .map(Swap2Answer::Stones)
    }

    /// Sends `END` and waits a moment for the process to exit, then kills it.
    pub fn end(mut self) {
        let _ = self.send("END");
        let start = Instant::now();
        while start.elapsed() < END_TIMEOUT {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

fn shorten(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if text.chars().count() > 80 {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(split_command("a b  c"), ["a", "b", "c"]);
        assert_eq!(
            split_command("\"/path with space/pbrain-x\" --opt 'two words'"),
            ["/path with space/pbrain-x", "--opt", "two words"]
        );
        assert_eq!(split_command("x ''"), ["x", ""]);
        assert!(split_command("   ").is_empty());
    }

    #[test]
    fn depth_messages_are_read_in_their_usual_forms() {
        let depth = message_depth;
        assert_eq!(
            depth("MESSAGE depth 12 score +30 nodes 5 time 3 ms"),
            Some(12)
        );
        assert_eq!(depth("MESSAGE info Depth 7-15 ev 30"), None);
        assert_eq!(depth("MESSAGE info depth 9 ev 30"), Some(9));
        assert_eq!(depth("MESSAGE hello"), None);
        assert_eq!(depth("MESSAGE depth"), None);
    }
}
