//! The brain as a console program: a reader thread and a thinking thread.
//!
//! The reader thread reads the manager's lines as they come (CR LF, LF or CR), parses them and
//! queues them for the session thread, which answers them in order and thinks. The reader never
//! waits for the thinking, so it hears `YXSTOP`/`STOP` and `END` at once: each queued command
//! gets its own stop flag, and those two commands raise the flag of the latest command that could
//! start a search (a stop that arrives before its search begins still stops it). `END` also
//! closes the output at once, so nothing is written after it, not even the move of a search it
//! interrupted; the caller returns within [`END_GRACE`] even if a search were slow to stop.
//! Every line written is flushed.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::command::{Command, ParseError, Parser};
use crate::session::{BotMaker, Flow, Session};

/// Longest line kept; the rest of a longer line is dropped (it cannot be a valid command).
pub const MAX_LINE: usize = 64 * 1024;
/// How long, after `END`, the brain waits for its search to wind down before returning anyway.
pub const END_GRACE: Duration = Duration::from_millis(300);

/// Reads `input` line by line, accepting CR LF, LF and CR as line ends and skipping empty lines,
/// and passes each line to `on_line` until it returns `false` or the input ends.
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
            } else if line.len() < MAX_LINE {
                line.push(b);
            }
        }
        reader.consume(used);
        if !go_on {
            return Ok(());
        }
    }
}

/// The output shared by the session (replies) and the reader (which closes it on `END`).
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

/// Runs the brain on `input` and `output` with bots from `maker` until `END` or the end of the
/// input (after answering everything read). Returns the first write error, if any.
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

    let reader_out = Arc::clone(&out);
    let reader_done = done_tx.clone();
    thread::Builder::new()
        .name("gomocup-reader".into())
        .spawn(move || {
            let mut parser = Parser::new();
            let mut latest = Arc::new(AtomicBool::new(false));
            let result = read_lines(input, |line| {
                let Some(parsed) = parser.feed(line) else {
                    return true;
                };
                let stop = Arc::new(AtomicBool::new(false));
                match &parsed {
                    Ok(Command::End) => {
                        latest.store(true, Ordering::SeqCst);
                        reader_out.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
                        let _ = events.send(Event::Line(parsed, stop));
                        let _ = reader_done.send(Done::Ended);
                        return false;
                    }
                    Ok(Command::Stop) => latest.store(true, Ordering::SeqCst),
                    Ok(c) if c.expects_reply() => latest = Arc::clone(&stop),
                    _ => {}
                }
                events.send(Event::Line(parsed, stop)).is_ok()
            });
            // A read error ends the conversation like the end of the input.
            drop(result);
            let _ = events.send(Event::Eof);
        })?;

    let session_out = Arc::clone(&out);
    thread::Builder::new()
        .name("gomocup-session".into())
        .spawn(move || {
            let mut session = Session::new(maker);
            let mut write = |line: &str| {
                session_out
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .write_line(line);
            };
            while let Ok(Event::Line(parsed, stop)) = queue.recv() {
                if session.handle(parsed, &stop, &mut write) == Flow::End {
                    break;
                }
            }
            let _ = done_tx.send(Done::Finished);
        })?;

    match done.recv() {
        Ok(Done::Ended) => {
            // Give the interrupted search a moment to stop; the threads die with the process.
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
        assert_eq!(got[0].len(), MAX_LINE);
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
