//! Two `mnk serve` processes on one PostgreSQL database: a game between clients connected to
//! different servers, every move relayed from one server to the other's sockets, and one
//! referee for both (the same move sent to both servers at once is taken once); who is here is
//! known across servers, and a game left on one server is claimed on the other once the delay
//! is up there; a clocked swap2 room against a bot stores its decisions' clocks.
//!
//! The database: `MNK_TEST_POSTGRES_URL` (the test script starts a throw-away cluster and sets
//! it), else a cluster this test starts itself with `scripts/pg-cluster.sh`. Without
//! PostgreSQL the test fails, unless `MNK_SKIP_POSTGRES=1` says to skip it.

mod support;

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::{room_with_two_players, Served};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// A cluster this test started, stopped when dropped.
struct Cluster(PathBuf, tempfile::TempDir);

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(&self.0)
            .arg("stop")
            .arg(self.1.path().join("pg"))
            .status();
    }
}

/// The database URL, and the cluster to stop if this test started one (`None` to skip).
fn database() -> Option<(String, Option<Cluster>)> {
    if let Ok(url) = std::env::var("MNK_TEST_POSTGRES_URL") {
        return Some((url, None));
    }
    if std::env::var("MNK_SKIP_POSTGRES").is_ok_and(|v| v == "1") {
        eprintln!("MNK_SKIP_POSTGRES=1: the PostgreSQL test is skipped");
        return None;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/pg-cluster.sh");
    let dir = tempfile::tempdir().unwrap();
    // As root the cluster runs as `postgres`, which must reach the directory.
    let _ = Command::new("chmod").arg("755").arg(dir.path()).status();
    let out = Command::new(&script)
        .arg("start")
        .arg(dir.path().join("pg"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "no PostgreSQL for the rooms' test: {} (install postgresql, set MNK_TEST_POSTGRES_URL, \
         or MNK_SKIP_POSTGRES=1 to skip)",
        String::from_utf8_lossy(&out.stderr)
    );
    let url = String::from_utf8(out.stdout).unwrap().trim().to_string();
    Some((url, Some(Cluster(script, dir))))
}

fn socket(addr: &str, room: &str) -> Socket {
    let (mut socket, _) =
        tungstenite::connect(format!("ws://{addr}/api/rooms/{room}/socket")).unwrap();
    if let MaybeTlsStream::Plain(stream) = socket.get_mut() {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
    }
    socket
}

fn send(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .unwrap();
}

/// The next JSON message (pings and `presence` messages skipped).
fn next(socket: &mut Socket) -> Value {
    loop {
        let message = next_any(socket);
        if message["type"] != "presence" {
            return message;
        }
    }
}

/// Reads until a `presence` message says `here` (what it said before may be another mix while
/// the servers' reports cross).
fn presence_becomes(socket: &mut Socket, here: Value) {
    loop {
        let message = next_any(socket);
        if message["type"] == "presence" && message["here"] == here {
            return;
        }
    }
}

/// The next JSON message (pings skipped).
fn next_any(socket: &mut Socket) -> Value {
    loop {
        match socket.read().expect("a message within 5 s") {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
        }
    }
}

/// Reads until the `welcome` that answers `hello`. A `state` may come first: a server publishes
/// a room again when it hears of a change it had not yet sent to this server's watchers (such as
/// the join, heard after the socket connected); the protocol allows a state at any time.
fn welcome(socket: &mut Socket) -> Value {
    loop {
        let message = next(socket);
        if message["type"] != "state" {
            return message;
        }
    }
}

/// Reads until the room's state has `ply` moves.
fn state_at_ply(socket: &mut Socket, ply: usize) -> Value {
    loop {
        let message = next(socket);
        assert_ne!(message["type"], "error", "{message}");
        if message["type"] == "state" && message["state"]["ply"] == ply {
            return message["state"].clone();
        }
    }
}

#[test]
fn two_servers_on_one_postgres_database_relay_a_game_between_their_clients() {
    let Some((url, _cluster)) = database() else {
        return;
    };
    let flags = ["--room-claim-secs", "1"];
    let a = Served::start_with(&url, &flags);
    let b = Served::start_with(&url, &flags);
    let (room, [x, o]) = room_with_two_players(&a.addr, "tictactoe");

    let mut on_a = socket(&a.addr, &room);
    let mut on_b = socket(&b.addr, &room);
    let mut watching_b = socket(&b.addr, &room);
    for ws in [&mut on_a, &mut on_b, &mut watching_b] {
        assert_eq!(next(ws)["state"]["status"], "playing");
    }
    send(&mut on_a, json!({"type": "hello", "token": x}));
    assert_eq!(welcome(&mut on_a)["seat"], 0);
    send(&mut on_b, json!({"type": "hello", "token": o}));
    assert_eq!(welcome(&mut on_b)["seat"], 1);
    // Who is here, across servers: X's socket on A, O's on B.
    presence_becomes(&mut watching_b, json!([true, true]));

    // X on server A, O on server B: each move reaches the other server's clients.
    let game = ["a1", "a2", "b2", "b3", "c3"];
    let (mut relays, mut last) = (Vec::new(), Value::Null);
    for (ply, cell) in game.into_iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut on_a, &mut on_b)
        } else {
            (&mut on_b, &mut on_a)
        };
        let sent = Instant::now();
        send(mover, json!({"type": "move", "ply": ply, "cell": cell}));
        let seen = state_at_ply(other, ply + 1);
        relays.push(sent.elapsed());
        assert_eq!(seen["last"]["cell"], cell);
        assert_eq!(state_at_ply(mover, ply + 1)["last"]["cell"], cell);
        assert_eq!(state_at_ply(&mut watching_b, ply + 1)["last"]["cell"], cell);
        last = seen;
    }
    assert_eq!(last["result"], json!({"winner": "X", "reason": "line"}));
    eprintln!("relay from one server's client to the other's: {relays:?}");
    // X's socket on A closes: B's clients see X away.
    drop(on_a);
    presence_becomes(&mut watching_b, json!([false, true]));

    // One referee for both servers: the same ply sent to both at once is taken once.
    let (room, [x, _]) = room_with_two_players(&b.addr, "gomoku15");
    let racers: Vec<_> = [(a.addr.clone(), "h8"), (b.addr.clone(), "j10")]
        .into_iter()
        .map(|(addr, cell)| {
            let (room, x) = (room.clone(), x.clone());
            std::thread::spawn(move || {
                let body = json!({"token": x, "ply": 0, "cell": cell});
                support::call(&addr, "POST", &format!("/api/rooms/{room}/move"), &body).unwrap()
            })
        })
        .collect();
    let mut statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap().0).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "one move taken, the other stale");
    let (_, state) =
        support::call(&a.addr, "GET", &format!("/api/rooms/{room}"), &Value::Null).unwrap();
    assert_eq!(state["ply"], 1);

    // A game left on B is claimed on A: A counts O away from when B said O's socket closed.
    let (room, [x, o]) = room_with_two_players(&a.addr, "gomoku15");
    let mut x_on_a = socket(&a.addr, &room);
    let mut o_on_b = socket(&b.addr, &room);
    for (ws, token) in [(&mut x_on_a, &x), (&mut o_on_b, &o)] {
        next(ws);
        send(ws, json!({"type": "hello", "token": token}));
    }
    presence_becomes(&mut x_on_a, json!([true, true]));
    drop(o_on_b);
    presence_becomes(&mut x_on_a, json!([true, false]));
    let left = Instant::now();
    let claim = |token: &str| {
        support::call(
            &a.addr,
            "POST",
            &format!("/api/rooms/{room}/claim"),
            &json!({ "token": token }),
        )
        .unwrap()
    };
    let (status, early) = claim(&x);
    assert_eq!(
        (status, early["error"]["code"].as_str()),
        (409, Some("not_abandoned")),
        "{early}"
    );
    std::thread::sleep(Duration::from_millis(1100).saturating_sub(left.elapsed()));
    let (status, claimed) = claim(&x);
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(
        claimed["result"],
        json!({"winner": "X", "reason": "abandoned"})
    );

    // A clocked swap2 room against a bot, made on B and played on A: the bot's three stones, the
    // person's decision (its time and clock stored in PostgreSQL), the bot's move.
    let clock = json!({"initial_ms": 300_000, "increment_ms": 1000});
    let request = json!({"rules": "gomoku15", "colour": "O", "opening": "swap2", "bot": {"level": 1}, "clock": clock});
    let (status, created) = support::call(&b.addr, "POST", "/api/rooms", &request).unwrap();
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let state_when = |wanted: &dyn Fn(&Value) -> bool| {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let (_, state) =
                support::call(&a.addr, "GET", &format!("/api/rooms/{room}"), &Value::Null).unwrap();
            if wanted(&state) {
                return state;
            }
            assert!(Instant::now() < until, "waited in vain; the room: {state}");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let three = state_when(&|s| s["ply"] == 3);
    assert_eq!(three["opening"]["acts"], 0, "{three}");
    let body = json!({"token": token, "ply": 3, "decision": "black"});
    let (status, decided) =
        support::call(&a.addr, "POST", &format!("/api/rooms/{room}/decide"), &body).unwrap();
    assert_eq!(status, 200, "{decided}");
    // Taking black handed the play over: the person's turn ended with its increment.
    assert!(
        decided["clocks"]["o_ms"].as_i64().unwrap() > 300_000,
        "{decided}"
    );
    let answered = state_when(&|s| s["ply"] == 4);
    assert_eq!(answered["opening"]["step"], "settled");
    assert_eq!(answered["seats"][0]["colour"], "X");
}
