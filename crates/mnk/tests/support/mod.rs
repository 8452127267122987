//! Helpers for the tests that run the real `mnk serve`: starting and killing it, and a plain
//! HTTP/1.1 client for the room API.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

/// A running `mnk serve`.
pub struct Served {
    pub child: Child,
    pub addr: String,
}

impl Served {
    /// Starts `mnk serve` on a free port with `--database database`, once it says where it
    /// listens (its database is open by then).
    pub fn start(database: &str) -> Served {
        Served::start_with(database, &[])
    }

    /// Starts `mnk serve` as [`Served::start`] does, with more flags.
    pub fn start_with(database: &str, flags: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mnk"))
            .args(["serve", "--addr", "127.0.0.1:0", "--threads", "1"])
            .args(["--database", database])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("mnk starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let addr = first
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches('/')
            .to_string();
        Served { child, addr }
    }

    /// Kills it with SIGKILL: no shutdown, no flushing, nothing.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// `method path` with a JSON body: the status and the JSON answer (`Err` if the connection
    /// failed or the answer was cut, as when the server is killed mid-request).
    pub fn call(&self, method: &str, path: &str, body: &Value) -> Result<(u16, Value), String> {
        call(&self.addr, method, path, body)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request on a fresh connection to `addr`.
pub fn call(addr: &str, method: &str, path: &str, body: &Value) -> Result<(u16, Value), String> {
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: mnk\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|e| e.to_string())?;
    let mut raw = String::new();
    stream.read_to_string(&mut raw).map_err(|e| e.to_string())?;
    let (head, body) = raw.split_once("\r\n\r\n").ok_or("no response")?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let json = serde_json::from_str(body).map_err(|e| format!("{e}: {body:?}"))?;
    Ok((status, json))
}

/// Creates a room and takes its second seat: the id and the tokens of seats 0 and 1.
pub fn room_with_two_players(addr: &str, rules: &str) -> (String, [String; 2]) {
    let (status, created) = call(
        addr,
        "POST",
        "/api/rooms",
        &json!({"rules": rules, "colour": "X"}),
    )
    .expect("the room is created");
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_string();
    let (status, joined) =
        call(addr, "POST", &format!("/api/rooms/{room}/join"), &json!({})).expect("joined");
    assert_eq!(status, 200, "{joined}");
    let tokens = [
        created["token"].as_str().unwrap(),
        joined["token"].as_str().unwrap(),
    ];
    (room, tokens.map(str::to_string))
}
