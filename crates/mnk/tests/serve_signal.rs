//! `mnk serve` stopped by SIGTERM while a client is half-way through sending a request and a
//! search is running: the process exits, cleanly, within two seconds.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address `mnk serve` printed on its first line.
fn served_at(line: &str) -> String {
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

#[test]
fn sigterm_with_a_half_sent_request_and_a_running_search_exits_within_two_seconds() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_mnk"))
        .args(["serve", "--addr", "127.0.0.1:0", "--threads", "2"])
        .args(["--database", "memory"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("mnk starts");
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = served_at(&first);

    let mut half_sent = TcpStream::connect(&addr).unwrap();
    half_sent
        .write_all(b"POST /api/move HTTP/1.1\r\nHost: mnk\r\nContent-")
        .unwrap();
    let search =
        r#"{"rules":"gomoku15","moves":["h8","i9","g7"],"opponent":{"level":6},"time_ms":10000}"#;
    let mut searching = TcpStream::connect(&addr).unwrap();
    write!(
        searching,
        "POST /api/move HTTP/1.1\r\nHost: mnk\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{search}",
        search.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));

    let start = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(5) {
            let _ = server.kill();
            panic!("still running 5 s after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    assert!(status.success(), "exit status {status}");
    assert!(took < Duration::from_secs(2), "exited after {took:?}");
    let mut answer = String::new();
    searching
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    let _ = searching.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "the search answered: {answer}"
    );
}
