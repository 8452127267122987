//! The brain as a console program: a reader thread and a thinking thread.
//!
//! The reader thread reads the manager's lines as they come (CR LF, LF or CR), parses them and
//! queues them for the session thread, which answers them in order and thinks. The reader never
//! waits for the thinking, so it hears `YXSTOP`/`STOP` and `END` at once: each queued command
//! gets its own stop flag; `YXSTOP`/`STOP` raise the flag of the latest command that expects an
//! answer (a stop that arrives before its search begins still stops it), `END` raises the flags
//! of every command still queued or running.
//!
//! **`END` answers what came before it.** Every command read before `END` is answered, in order,
//! and then the brain exits: `printf 'ABOUT\nEND\n' | pbrain-mnk` prints the `ABOUT` line. A
//! search that `END` cuts short still answers the best move it has found, so a move request
//! followed by `END` gets its move. We chose that over dropping the move because the protocol's
//! "END: the brain exits promptly and writes nothing more" is about what follows `END`, and the
//! move answers a request made before it: with one rule, "every request read is answered, in
//! order", the output never depends on how the manager's lines and our thinking interleave, and a
//! manager that still reads (a script, a log) sees a reply to each request. A manager that has
//! stopped reading at `END` loses nothing: the line goes unread (a closed pipe only stops our
//! writing), and the search stops at once, so the brain still exits promptly. The one limit is
//! time: the caller returns within [`END_GRACE`] of `END` even if a search were slow to stop, and
//! whatever is not answered by then is never written.
//!
//! Every line written is flushed.
//!
//! **A panic answers `ERROR`.** A bug that panics while a command is answered (in the engine's
//! search, say) costs that one answer, `ERROR internal error: …`, not the brain: the session
//! goes on with the next command, as it would after any refused one, instead of leaving the
//! manager waiting for a move until its clock runs out.

use std::any::Any;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

pub use crate::command::MAX_LINE;
use crate::command::{Command, ParseError, Parser};
use crate::session::{BotMaker, Flow, Session};

/// How long, after `END`, the brain waits for the answers it owes before returning anyway. The
/// searches are stopped, so only a bot that ignores its stop flag needs it all; the rest is
/// room for work that cannot be stopped, like making the bot at `START`, on a busy machine,
/// while the brain still exits within the protocol's "about a second".
pub const END_GRACE: Duration = Duration::from_millis(700);

/// Reads `input` line by line, accepting CR LF, LF and CR as line ends and skipping empty lines,
/// and passes each line to `on_line` until it returns `false` or the input ends. A line longer
/// than [`MAX_LINE`] bytes is cut just after that length (so it stays recognisably too long);
/// bytes that are not UTF-8 are replaced.
pub fn read_lines(input: impl Read, mut on_line: impl FnMut(&str) -> bool) -> io::Result<()> {
    let mut reader = BufReader::new(input);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !line.is_empty() {
                on_line(&String::from_utf8_lossy(&line));
            }
            return Ok(());
        }
        let mut used = 0;
        let mut go_on = true;
        for &b in buf {
            used += 1;
            if b == b'\r' || b == b'\n' {
                if !line.is_empty() {
                    go_on = on_line(&String::from_utf8_lossy(&line));
                    line.clear();
                    if !go_on {
                        break;
                    }
                }
            } else if line.len() <= MAX_LINE {
                line.push(b);
            }
        }
        reader.consume(used);
        if !go_on {
            return Ok(());
        }
    }
}

/// The output of the session's replies; closed when `run` returns, so nothing is written after.
struct Output {
    writer: Box<dyn Write + Send>,
    closed: bool,
    error: Option<io::Error>,
}

impl Output {
    fn write_line(&mut self, line: &str) {
        if self.closed {
            return;
        }
        let result = self
            .writer
            .write_all(line.as_bytes())
            .and_then(|()| self.writer.write_all(b"\n"))
            .and_then(|()| self.writer.flush());
        if let Err(e) = result {
            // The manager is gone: stop writing.
            self.closed = true;
            self.error = Some(e);
        }
    }
}

/// The stop flags the reader hands out with the commands it queues.
#[derive(Default)]
struct StopFlags {
    /// Flags of commands that expect an answer, as long as the session may still be answering
    /// them (it drops its copy when done, so a flag only the reader holds is finished with).
    live: Vec<Arc<AtomicBool>>,
    /// The flag of the latest command that expects an answer: the one `YXSTOP` stops.
    latest: Option<Arc<AtomicBool>>,
}

impl StopFlags {
    /// A flag for `parsed`, remembered when the command expects an answer (and may search).
    fn issue(&mut self, parsed: &Result<Command, ParseError>) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        if matches!(parsed, Ok(c) if c.expects_reply()) {
            self.live.retain(|f| Arc::strong_count(f) > 1);
            self.live.push(Arc::clone(&flag));
            self.latest = Some(Arc::clone(&flag));
        }
        flag
    }

    /// `YXSTOP`/`STOP`: the latest search answers at once.
    fn stop_latest(&self) {
        if let Some(flag) = &self.latest {
            flag.store(true, Ordering::SeqCst);
        }
    }

    /// `END`: every search still owed answers at once.
    fn stop_all(&self) {
        for flag in &self.live {
            flag.store(true, Ordering::SeqCst);
        }
    }
}

enum Event {
    Line(Result<Command, ParseError>, Arc<AtomicBool>),
    Eof,
}

enum Done {
    /// The reader read `END`.
    Ended,
    /// The session thread finished.
    Finished,
}

/// Reads and parses `input` on this thread, queuing the commands on `events` with their stop
/// flags, until `END` (then tells `done`) or the end of the input.
fn read_commands(input: impl Read, events: &mpsc::Sender<Event>, done: &mpsc::Sender<Done>) {
    let mut parser = Parser::new();
    let mut flags = StopFlags::default();
    let mut ended = false;
    let result = read_lines(input, |line| {
        let Some(parsed) = parser.feed(line) else {
            return true;
        };
        match &parsed {
            Ok(Command::End) => {
                flags.stop_all();
                ended = true;
            }
            Ok(Command::Stop) => flags.stop_latest(),
            _ => {}
        }
        let stop = flags.issue(&parsed);
        events.send(Event::Line(parsed, stop)).is_ok() && !ended
    });
    if ended {
        let _ = done.send(Done::Ended);
        return;
    }
    // A read error ends the conversation like the end of the input; a block left open is
    // answered like any other bad block.
    drop(result);
    if let Some(e) = parser.finish() {
        let _ = events.send(Event::Line(Err(e), Arc::new(AtomicBool::new(false))));
    }
    let _ = events.send(Event::Eof);
}

/// Answers the queued commands in order until `END` or the end of the input.
fn answer_commands(
    maker: impl BotMaker + 'static,
    queue: &mpsc::Receiver<Event>,
    out: &Mutex<Output>,
) {
    let mut session = Session::new(maker);
    let mut write = |line: &str| {
        out.lock()
            .unwrap_or_else(|e| e.into_inner())
            .write_line(line);
    };
    while let Ok(Event::Line(parsed, stop)) = queue.recv() {
        // The session's state stays usable: a command changes it before or after thinking,
        // and a panic comes from the thinking.
        let answered = panic::catch_unwind(AssertUnwindSafe(|| {
            session.handle(parsed, &stop, &mut write)
        }));
        match answered {
            Ok(Flow::End) => break,
            Ok(Flow::Continue) => {}
            Err(payload) => write(&format!("ERROR internal error: {}", panic_text(&*payload))),
        }
    }
}

/// What a panic said, when it said it in text.
fn panic_text(payload: &(dyn Any + Send)) -> &str {
    if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "a panic"
    }
}

/// Runs the brain on `input` and `output` with bots from `maker` until `END` or the end of the
/// input, after answering everything read before either (within [`END_GRACE`] of `END`).
/// Returns the first write error, if any.
pub fn run(
    input: impl Read + Send + 'static,
    output: impl Write + Send + 'static,
    maker: impl BotMaker + 'static,
) -> io::Result<()> {
    let out = Arc::new(Mutex::new(Output {
        writer: Box::new(output),
        closed: false,
        error: None,
    }));
    let (events, queue) = mpsc::channel::<Event>();
    let (done_tx, done) = mpsc::channel::<Done>();

    let reader_done = done_tx.clone();
    thread::Builder::new()
        .name("gomocup-reader".into())
        .spawn(move || read_commands(input, &events, &reader_done))?;

    let session_out = Arc::clone(&out);
    thread::Builder::new()
        .name("gomocup-session".into())
        .spawn(move || {
            answer_commands(maker, &queue, &session_out);
            let _ = done_tx.send(Done::Finished);
        })?;

    match done.recv() {
        Ok(Done::Ended) => {
            // Let the session answer what it owes; its searches are stopped. A session that
            // takes longer is abandoned (its threads die with the process).
            let _ = done.recv_timeout(END_GRACE);
        }
        Ok(Done::Finished) | Err(_) => {}
    }
    let mut out = out.lock().unwrap_or_else(|e| e.into_inner());
    out.closed = true;
    match out.error.take() {
        Some(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    }
}

/// Runs the brain on standard input and output with mnk's strongest engine: what
/// `mnk gomocup` and the `pbrain-mnk` binary do.
pub fn run_stdio() -> io::Result<()> {
    run(io::stdin(), io::stdout(), crate::strongest_bot)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut v = Vec::new();
        read_lines(input, |l| {
            v.push(l.to_string());
            true
        })
        .unwrap();
        v
    }

    #[test]
    fn every_line_end_is_accepted() {
        assert_eq!(lines(b"A\r\nB\nC\rD"), ["A", "B", "C", "D"]);
        assert_eq!(lines(b"\r\n\r\nA\r\r\n\n"), ["A"]);
        assert_eq!(lines(b""), Vec::<String>::new());
    }

    #[test]
    fn bad_bytes_and_long_lines_do_not_break_reading() {
        let got = lines(b"\xff\xfeX\nOK");
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], "OK");
        let mut long = vec![b'a'; MAX_LINE * 2];
        long.extend_from_slice(b"\nB\n");
        let got = lines(&long);
        assert_eq!(
            got[0].len(),
            MAX_LINE + 1,
            "cut, but still too long to pass"
        );
        assert_eq!(got[1], "B");
    }

    #[test]
    fn reading_stops_when_asked() {
        let mut v = Vec::new();
        read_lines(&b"A\nEND\nB\n"[..], |l| {
            v.push(l.to_string());
            l != "END"
        })
        .unwrap();
        assert_eq!(v, ["A", "END"]);
    }
}
