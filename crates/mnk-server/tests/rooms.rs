//! Rooms over real sockets on a real SQLite file: two seats and a spectator, every refusal
//! leaving the game unchanged, the WebSocket's messages good and bad, reconnecting after a
//! restart, offers and rematches, a bot in a seat, a clock that flags, the long poll, swap2
//! openings played over both seats' sockets and against a bot on a clock.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::wire::{http, Server};
use futures_util::{SinkExt, StreamExt};
use mnk_server::rooms::limits::Rate;
use mnk_server::ServerConfig;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A server on a fresh SQLite file in `dir`.
async fn server_on(dir: &tempfile::TempDir) -> Server {
    Server::start(config_on(dir)).await
}

fn config_on(dir: &tempfile::TempDir) -> ServerConfig {
    ServerConfig {
        database: format!("sqlite://{}", dir.path().join("rooms.db").display()),
        ..common::config()
    }
}

/// `method path` with a JSON body: status and body.
async fn call(addr: SocketAddr, method: &str, path: &str, body: Value) -> (u16, Value) {
    let text = body.to_string();
    let body = if method == "GET" {
        None
    } else {
        Some(text.as_str())
    };
    let response = http(addr, method, path, body).await;
    let json = serde_json::from_str(&response.body).unwrap_or(Value::Null);
    (response.status, json)
}

/// A room with a seat taken: its id and the creator's token.
async fn create(addr: SocketAddr, request: Value) -> (String, String, Value) {
    let (status, reply) = call(addr, "POST", "/api/rooms", request).await;
    assert_eq!(status, 201, "{reply}");
    let room = reply["room"].as_str().unwrap().to_string();
    let token = reply["token"].as_str().unwrap().to_string();
    (room, token, reply)
}

/// Joins room `room` as a newcomer: the reply.
async fn join(addr: SocketAddr, room: &str) -> Value {
    let (status, reply) = call(addr, "POST", &format!("/api/rooms/{room}/join"), json!({})).await;
    assert_eq!(status, 200, "{reply}");
    reply
}

/// A gomoku room whose creator plays X and a second visitor O: the room and both tokens.
async fn gomoku_with_two_players(addr: SocketAddr) -> (String, String, String) {
    let (room, x, _) = create(addr, json!({"rules": "gomoku15", "colour": "X"})).await;
    let o = join_token(addr, &room).await;
    (room, x, o)
}

/// Joins room `room` as a newcomer: the seat's token.
async fn join_token(addr: SocketAddr, room: &str) -> String {
    join(addr, room).await["token"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn play(addr: SocketAddr, room: &str, token: &str, ply: usize, cell: &str) -> (u16, Value) {
    let body = json!({ "token": token, "ply": ply, "cell": cell });
    call(addr, "POST", &format!("/api/rooms/{room}/move"), body).await
}

async fn state(addr: SocketAddr, room: &str) -> Value {
    let (status, state) = call(addr, "GET", &format!("/api/rooms/{room}"), json!(null)).await;
    assert_eq!(status, 200, "{state}");
    state
}

async fn socket(addr: SocketAddr, room: &str) -> Socket {
    let url = format!("ws://{addr}/api/rooms/{room}/socket");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next JSON message of a socket (pings and `presence` messages skipped), within 5 s.
async fn next(socket: &mut Socket) -> Value {
    loop {
        let message = next_any(socket).await;
        if message["type"] != "presence" {
            return message;
        }
    }
}

/// The next JSON message of a socket (pings skipped), within 5 s.
async fn next_any(socket: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket is open")
            .expect("a readable message");
        match message {
            Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            Message::Close(frame) => {
                return json!({ "type": "closed", "frame": format!("{frame:?}") })
            }
            _ => {}
        }
    }
}

/// Reads `state` messages until one with `ply` moves.
async fn state_at_ply(socket: &mut Socket, ply: u64) -> Value {
    loop {
        let message = next(socket).await;
        if message["type"] == "state" && message["state"]["ply"] == ply {
            return message["state"].clone();
        }
    }
}

async fn send(socket: &mut Socket, message: Value) {
    socket
        .send(Message::Text(message.to_string().into()))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seats_play_a_game_a_spectator_sees_every_move_a_third_person_cannot_play() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, created) = create(addr, json!({"rules": "tictactoe", "colour": "X"})).await;
    assert_eq!(created["seat"], 0);
    assert_eq!(created["colour"], "X");
    assert_eq!(created["state"]["status"], "waiting");
    let joined = join(addr, &room).await;
    assert_eq!(
        (joined["seat"].clone(), joined["colour"].clone()),
        (json!(1), json!("O"))
    );
    let o = joined["token"].as_str().unwrap().to_string();
    assert_eq!(joined["state"]["status"], "playing");
    let third = join(addr, &room).await;
    assert_eq!(
        (third["seat"].clone(), third["token"].clone()),
        (Value::Null, Value::Null)
    );

    let mut spectator = socket(addr, &room).await;
    assert_eq!(next(&mut spectator).await["type"], "state");
    let game = [(&x, "a1"), (&o, "a2"), (&x, "b2"), (&o, "b3"), (&x, "c3")];
    for (ply, (token, cell)) in game.into_iter().enumerate() {
        let (status, reply) = play(addr, &room, token, ply, cell).await;
        assert_eq!(status, 200, "{reply}");
        let seen = state_at_ply(&mut spectator, ply as u64 + 1).await;
        assert_eq!(seen["last"]["cell"], cell);
    }
    let end = state(addr, &room).await;
    assert_eq!(end["status"], "over");
    assert_eq!(end["result"], json!({"winner": "X", "reason": "line"}));
    assert_eq!(end["outcome"]["line"].as_array().unwrap().len(), 3);
    let (status, after) = play(addr, &room, &o, 5, "c1").await;
    assert_eq!(
        (status, after["error"]["code"].as_str()),
        (409, Some("game_over"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_have_codes_and_leave_the_game_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, _) = create(addr, json!({"rules": "gomoku15", "colour": "X"})).await;
    let (status, early) = play(addr, &room, &x, 0, "h8").await;
    assert_eq!(
        (status, early["error"]["code"].as_str()),
        (409, Some("waiting_for_opponent"))
    );
    let o = join_token(addr, &room).await;
    assert_eq!(play(addr, &room, &x, 0, "h8").await.0, 200);
    let before = state(addr, &room).await;
    let (status, live) = call(
        addr,
        "GET",
        &format!("/api/rooms/{room}/games/1"),
        json!(null),
    )
    .await;
    assert_eq!(
        (status, live["error"]["code"].as_str()),
        (409, Some("game_not_over"))
    );

    let refusals = [
        (play(addr, &room, &x, 1, "h9").await, 409, "not_your_turn"),
        (play(addr, &room, &o, 0, "h9").await, 409, "stale_ply"),
        (play(addr, &room, &o, 2, "h9").await, 409, "stale_ply"),
        (
            play(addr, &room, "forged-token", 1, "h9").await,
            403,
            "bad_token",
        ),
        (
            play(addr, &room, &"t".repeat(10_000), 1, "h9").await,
            403,
            "bad_token",
        ),
        (play(addr, &room, &o, 1, "h8").await, 422, "illegal_move"),
        (play(addr, &room, &o, 1, "z99").await, 422, "illegal_move"),
        (play(addr, &room, &o, 1, "h 8!").await, 400, "bad_cell"),
        (
            play(addr, "nosuchroom2345", &o, 1, "h9").await,
            404,
            "unknown_room",
        ),
        (play(addr, "../../etc", &o, 1, "h9").await, 404, "not_found"),
        (
            call(
                addr,
                "POST",
                &format!("/api/rooms/{room}/move"),
                json!({"token": o, "ply": 1}),
            )
            .await,
            400,
            "bad_json",
        ),
        (
            call(
                addr,
                "POST",
                &format!("/api/rooms/{room}/resign"),
                json!({"tokn": o}),
            )
            .await,
            400,
            "bad_json",
        ),
        (
            call(
                addr,
                "POST",
                &format!("/api/rooms/{room}/rematch"),
                json!({"token": o}),
            )
            .await,
            409,
            "game_not_over",
        ),
        (
            call(addr, "POST", "/api/rooms", json!({"rules": "3x3x9"})).await,
            422,
            "bad_rules",
        ),
        (
            call(
                addr,
                "POST",
                "/api/rooms",
                json!({"rules": "3x3x3", "colour": "red"}),
            )
            .await,
            400,
            "bad_json",
        ),
        (
            call(
                addr,
                "POST",
                "/api/rooms",
                json!({"rules": "3x3x3", "clock": {"initial_ms": 5, "increment_ms": 0}}),
            )
            .await,
            400,
            "bad_json",
        ),
        (
            call(
                addr,
                "POST",
                "/api/rooms",
                json!({"rules": "gomoku15", "bot": "rules"}),
            )
            .await,
            422,
            "unsupported",
        ),
    ];
    for ((status, reply), want_status, want_code) in refusals {
        assert_eq!(
            (status, reply["error"]["code"].as_str()),
            (want_status, Some(want_code)),
            "{reply}"
        );
    }
    // The words behind the messages, for the page to say them in the player's language.
    let (_, unknown) = play(addr, "nosuchroom2345", &o, 1, "h9").await;
    assert_eq!(unknown["error"]["reason"], "no_room", "{unknown}");
    assert_eq!(unknown["error"]["params"], json!({"id": "nosuchroom2345"}));
    let (_, taken) = play(addr, &room, &o, 1, "h8").await;
    assert_eq!(taken["error"]["reason"], "occupied", "{taken}");
    assert_eq!(taken["error"]["params"], json!({"move": 2, "cell": "h8"}));
    let (_, not_a_cell) = play(addr, &room, &o, 1, "h 8!").await;
    assert_eq!(
        not_a_cell["error"]["params"],
        json!({"move": 2, "cell": "h 8!"})
    );
    let (_, stale) = play(addr, &room, &o, 0, "h9").await;
    assert_eq!(
        stale["state"]["moves"],
        json!(["h8"]),
        "a stale client gets the game"
    );
    assert_eq!(
        without_absence(state(addr, &room).await),
        without_absence(before),
        "nothing changed"
    );
    server.stop().await;
}

/// A state without how long its seats have been away, which grows while nobody changes anything.
fn without_absence(mut state: Value) -> Value {
    for seat in state["seats"].as_array_mut().unwrap() {
        seat.as_object_mut().unwrap().remove("away_ms");
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_refuses_bad_messages_with_codes_and_stays_open() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, o) = gomoku_with_two_players(addr).await;
    let mut ws = socket(addr, &room).await;
    assert_eq!(next(&mut ws).await["state"]["ply"], 0);

    let code = |m: &Value| m["error"]["code"].as_str().unwrap_or("").to_string();
    send(&mut ws, json!({"type": "move", "ply": 0, "cell": "h8"})).await;
    assert_eq!(
        code(&next(&mut ws).await),
        "bad_token",
        "no hello: a spectator"
    );
    ws.send(Message::Text("{not json".into())).await.unwrap();
    assert_eq!(code(&next(&mut ws).await), "bad_json");
    send(&mut ws, json!({"type": "teleport"})).await;
    assert_eq!(code(&next(&mut ws).await), "bad_json");
    send(
        &mut ws,
        json!({"type": "move", "ply": 0, "cell": "h8", "extra": 1}),
    )
    .await;
    assert_eq!(code(&next(&mut ws).await), "bad_json");
    ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(code(&next(&mut ws).await), "bad_json");
    send(&mut ws, json!({"type": "ping", "pad": "x".repeat(5000)})).await;
    assert_eq!(code(&next(&mut ws).await), "too_large");
    send(&mut ws, json!({"type": "hello", "token": "forged"})).await;
    assert_eq!(code(&next(&mut ws).await), "bad_token");
    send(&mut ws, json!({"type": "ping"})).await;
    assert_eq!(next(&mut ws).await["type"], "pong");

    send(&mut ws, json!({"type": "hello", "token": o})).await;
    assert_eq!(
        next(&mut ws).await,
        json!({"type": "welcome", "seat": 1, "colour": "O"})
    );
    send(&mut ws, json!({"type": "move", "ply": 0, "cell": "h8"})).await;
    assert_eq!(code(&next(&mut ws).await), "not_your_turn");
    assert_eq!(play(addr, &room, &x, 0, "h8").await.0, 200);
    assert_eq!(state_at_ply(&mut ws, 1).await["moves"], json!(["h8"]));
    send(&mut ws, json!({"type": "move", "ply": 0, "cell": "h9"})).await;
    let stale = next(&mut ws).await;
    assert_eq!(
        (code(&stale), stale["state"]["ply"].clone()),
        ("stale_ply".into(), json!(1))
    );
    send(&mut ws, json!({"type": "move", "ply": 1, "cell": "h8"})).await;
    assert_eq!(code(&next(&mut ws).await), "illegal_move");
    send(&mut ws, json!({"type": "move", "ply": 1, "cell": "j10"})).await;
    assert_eq!(state_at_ply(&mut ws, 2).await["last"]["cell"], "j10");

    // Past the wire limit the socket is closed with 1009; the server goes on.
    ws.send(Message::Text("x".repeat(100 * 1024).into()))
        .await
        .unwrap();
    let closed = next(&mut ws).await;
    // 1009, message too big.
    assert!(
        closed["frame"].as_str().unwrap_or("").contains("Size"),
        "{closed}"
    );
    assert_eq!(state(addr, &room).await["moves"], json!(["h8", "j10"]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_returning_player_gets_the_seat_and_game_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let (room, x, _) = create(server.addr, json!({"rules": "gomoku15", "colour": "O"})).await;
    let o = join_token(server.addr, &room).await;
    assert_eq!(play(server.addr, &room, &o, 0, "h8").await.0, 200);
    assert_eq!(play(server.addr, &room, &x, 1, "h9").await.0, 200);
    server.stop().await;

    let server = server_on(&dir).await;
    let addr = server.addr;
    let (status, back) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/join"),
        json!({"token": x}),
    )
    .await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(
        (back["seat"].clone(), back["colour"].clone()),
        (json!(0), json!("O"))
    );
    assert_eq!(back["state"]["moves"], json!(["h8", "h9"]));
    let mut ws = socket(addr, &room).await;
    assert_eq!(next(&mut ws).await["state"]["ply"], 2);
    send(&mut ws, json!({"type": "hello", "token": o})).await;
    assert_eq!(next(&mut ws).await["seat"], 1);
    send(&mut ws, json!({"type": "move", "ply": 2, "cell": "g7"})).await;
    assert_eq!(
        state_at_ply(&mut ws, 3).await["moves"],
        json!(["h8", "h9", "g7"])
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draws_are_offered_and_accepted_resigning_ends_and_a_rematch_swaps_colours() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, a, _) = create(addr, json!({"rules": "gomoku15", "colour": "X"})).await;
    let b = join_token(addr, &room).await;
    let act = |what: &'static str, token: String| {
        let room = room.clone();
        async move {
            call(
                addr,
                "POST",
                &format!("/api/rooms/{room}/{what}"),
                json!({"token": token}),
            )
            .await
        }
    };
    let (_, offered) = act("draw", a.clone()).await;
    assert_eq!(offered["offer"], json!({"kind": "draw", "seat": 0}));
    let (_, drawn) = act("draw", b.clone()).await;
    assert_eq!(drawn["result"], json!({"winner": null, "reason": "agreed"}));
    assert_eq!(
        act("resign", a.clone()).await.1["error"]["code"],
        "game_over"
    );
    assert_eq!(
        act("rematch", b.clone()).await.1["offer"]["kind"],
        "rematch"
    );
    let (_, second) = act("rematch", a.clone()).await;
    assert_eq!(
        (second["game"].clone(), second["status"].clone()),
        (json!(2), json!("playing"))
    );
    assert_eq!(second["seats"][0]["colour"], "O", "colours swapped");
    assert_eq!(second["moves"], json!([]));
    assert_eq!(
        play(addr, &room, &b, 0, "h8").await.0,
        200,
        "seat 1 plays X now"
    );
    let (_, resigned) = act("resign", a.clone()).await;
    assert_eq!(
        resigned["result"],
        json!({"winner": "X", "reason": "resigned"})
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_in_the_other_seat_answers_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, created) = create(
        addr,
        json!({"rules": "tictactoe", "colour": "X", "bot": {"bot": "perfect"}}),
    )
    .await;
    assert_eq!(created["state"]["seats"][1]["bot"], "perfect");
    let mut ws = socket(addr, &room).await;
    next(&mut ws).await;
    let mut ply = 0;
    while state(addr, &room).await["status"] == "playing" {
        let current = state(addr, &room).await;
        let cell = ["b2", "a1", "c1", "a3", "c3", "a2", "b1", "b3", "c2"]
            .into_iter()
            .find(|c| !current["moves"].as_array().unwrap().contains(&json!(c)))
            .unwrap();
        let (status, reply) = play(addr, &room, &x, ply, cell).await;
        assert_eq!(status, 200, "{reply}");
        if reply["status"] != "playing" {
            break;
        }
        let answered = state_at_ply(&mut ws, ply as u64 + 2).await;
        ply = answered["ply"].as_u64().unwrap() as usize;
    }
    let end = state(addr, &room).await;
    assert_eq!(end["status"], "over");
    assert_ne!(
        end["result"]["winner"], "X",
        "the perfect player does not lose"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_loses_the_game_and_both_see_it_live() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let clock = json!({"initial_ms": 1000, "increment_ms": 0});
    let (room, x, _) = create(
        addr,
        json!({"rules": "gomoku15", "colour": "X", "clock": clock}),
    )
    .await;
    let mut ws = socket(addr, &room).await;
    next(&mut ws).await;
    join(addr, &room).await;
    assert_eq!(play(addr, &room, &x, 0, "h8").await.0, 200);
    // O does not move: its second runs out, and the loss arrives without anyone asking.
    let flagged = loop {
        let message = next(&mut ws).await;
        if message["state"]["status"] == "over" {
            break message["state"].clone();
        }
    };
    assert_eq!(flagged["result"], json!({"winner": "X", "reason": "time"}));
    assert_eq!(flagged["clocks"]["o_ms"], 0);
    assert!(flagged["clocks"]["x_ms"].as_i64().unwrap() > 0);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_long_poll_answers_when_the_room_changes() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, created) = create(addr, json!({"rules": "tictactoe", "colour": "X"})).await;
    let version = created["state"]["version"].as_i64().unwrap();
    let path = format!("/api/rooms/{room}?after={version}&wait_ms=10000");
    let poll = tokio::spawn(async move { http(addr, "GET", &path, None).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!poll.is_finished(), "nothing changed yet");
    join(addr, &room).await;
    let answered = tokio::time::timeout(Duration::from_secs(3), poll)
        .await
        .unwrap()
        .unwrap();
    let answered: Value = serde_json::from_str(&answered.body).unwrap();
    assert_eq!(answered["status"], "playing");
    assert!(answered["version"].as_i64().unwrap() > version);
    let (status, _) = play(addr, &room, &x, 0, "b2").await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_rooms_is_rate_limited_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_on(&dir);
    config.rooms.per_address.creations = Rate::per_hour(3);
    let server = Server::start(config).await;
    for _ in 0..3 {
        create(server.addr, json!({"rules": "tictactoe"})).await;
    }
    let (status, refused) = call(
        server.addr,
        "POST",
        "/api/rooms",
        json!({"rules": "tictactoe"}),
    )
    .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    server.stop().await;
}

/// `method path` with a JSON body from the loopback address 127.0.0.`from`.
async fn call_from(
    from: u8,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let mut stream =
        common::wire::connect_from(std::net::IpAddr::from([127, 0, 0, from]), addr).await;
    let text = body.to_string();
    let raw = common::wire::request(method, path, (method != "GET").then_some(text.as_str()));
    let response = common::wire::exchange(&mut stream, raw.as_bytes()).await;
    let json = serde_json::from_str(&response.body).unwrap_or(Value::Null);
    if response.status == 429 {
        assert!(
            response.header("retry-after").is_some(),
            "{}",
            response.head
        );
    }
    (response.status, json)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_flooding_moves_joins_or_reads_is_refused_and_the_game_and_others_are_not_touched(
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_on(&dir);
    config.rooms.per_address.actions = Rate::per_minute(5);
    config.rooms.per_address.joins = Rate::per_minute(3);
    config.rooms.per_address.reads = Rate::per_minute(8);
    let server = Server::start(config).await;
    let addr = server.addr;
    // X plays from 127.0.0.2, O from 127.0.0.3.
    let (status, created) = call_from(
        2,
        addr,
        "POST",
        "/api/rooms",
        json!({"rules": "gomoku15", "colour": "X"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let room = created["room"].as_str().unwrap().to_string();
    let x = created["token"].as_str().unwrap().to_string();
    let (status, joined) = call_from(
        3,
        addr,
        "POST",
        &format!("/api/rooms/{room}/join"),
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let move_path = format!("/api/rooms/{room}/move");
    let (status, _) = call_from(
        2,
        addr,
        "POST",
        &move_path,
        json!({"token": x, "ply": 0, "cell": "h8"}),
    )
    .await;
    assert_eq!(status, 200);

    // X floods: out of turn, then over the limit, which refuses before anything is read.
    let mut codes = Vec::new();
    for _ in 0..8 {
        let (_, reply) = call_from(
            2,
            addr,
            "POST",
            &move_path,
            json!({"token": x, "ply": 1, "cell": "a1"}),
        )
        .await;
        codes.push(reply["error"]["code"].as_str().unwrap_or("").to_string());
    }
    assert_eq!(&codes[..4], ["not_your_turn"; 4], "{codes:?}");
    assert_eq!(&codes[4..], ["rate_limited"; 4], "{codes:?}");
    let (status, refused) = call_from(
        2,
        addr,
        "POST",
        &format!("/api/rooms/{room}/resign"),
        json!({"token": x}),
    )
    .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 5 a minute"),
        "{refused}"
    );
    // O, from another address, plays on; the game holds exactly the acknowledged moves.
    let (status, after) = call_from(
        3,
        addr,
        "POST",
        &move_path,
        json!({"token": o, "ply": 1, "cell": "i9"}),
    )
    .await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"], json!(["h8", "i9"]));
    assert_eq!(after["status"], "playing");

    // Joins: three, then refused (a spectator's join from a fourth address still works).
    let join_path = format!("/api/rooms/{room}/join");
    for _ in 0..3 {
        assert_eq!(
            call_from(4, addr, "POST", &join_path, json!({})).await.0,
            200
        );
    }
    let (status, refused) = call_from(4, addr, "POST", &join_path, json!({})).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    assert_eq!(
        call_from(5, addr, "POST", &join_path, json!({})).await.0,
        200
    );

    // Reads: eight (a socket opened counts), then refused, for states and sockets alike.
    let read_path = format!("/api/rooms/{room}");
    for _ in 0..8 {
        assert_eq!(
            call_from(6, addr, "GET", &read_path, Value::Null).await.0,
            200
        );
    }
    let (status, refused) = call_from(6, addr, "GET", &read_path, Value::Null).await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );
    let upgrade = format!(
        "GET /api/rooms/{room}/socket HTTP/1.1\r\nHost: mnk\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    let mut stream = common::wire::connect_from(std::net::IpAddr::from([127, 0, 0, 6]), addr).await;
    let refused = common::wire::exchange(&mut stream, upgrade.as_bytes()).await;
    assert_eq!(
        (refused.status, refused.code().as_deref()),
        (429, Some("rate_limited"))
    );
    let mut stream = common::wire::connect_from(std::net::IpAddr::from([127, 0, 0, 7]), addr).await;
    stream.write_all(upgrade.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 101");
    assert_eq!(state(addr, &room).await["moves"], json!(["h8", "i9"]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_over_sockets_count_against_the_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_on(&dir);
    config.rooms.per_address.actions = Rate::per_minute(3);
    let server = Server::start(config).await;
    let addr = server.addr;
    let (room, x, _) = create(addr, json!({"rules": "gomoku15", "colour": "X"})).await;
    join(addr, &room).await;
    // Two sockets of one address share its allowance.
    let mut a = socket(addr, &room).await;
    let mut b = socket(addr, &room).await;
    next(&mut a).await;
    next(&mut b).await;
    for ws in [&mut a, &mut b] {
        send(ws, json!({"type": "hello", "token": x})).await;
        assert_eq!(next(ws).await["type"], "welcome");
    }
    send(&mut a, json!({"type": "move", "ply": 0, "cell": "h8"})).await;
    assert_eq!(state_at_ply(&mut a, 1).await["moves"], json!(["h8"]));
    let mut codes = Vec::new();
    for which in [0, 1, 0] {
        let ws = if which == 0 { &mut a } else { &mut b };
        send(ws, json!({"type": "move", "ply": 1, "cell": "a1"})).await;
        loop {
            let message = next(ws).await;
            if message["type"] == "error" {
                codes.push(message["error"]["code"].as_str().unwrap().to_string());
                break;
            }
        }
    }
    assert_eq!(codes, ["not_your_turn", "not_your_turn", "rate_limited"]);
    assert_eq!(state(addr, &room).await["moves"], json!(["h8"]));
    server.stop().await;
}

/// Reads messages until a `presence` one: its `here`.
async fn presence(socket: &mut Socket) -> Value {
    loop {
        let message = next_any(socket).await;
        if message["type"] == "presence" {
            return message["here"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_room_is_told_which_seats_are_connected() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, o) = gomoku_with_two_players(addr).await;
    let mut watcher = socket(addr, &room).await;
    let first = next(&mut watcher).await;
    let here = |state: &Value| json!([state["seats"][0]["here"], state["seats"][1]["here"]]);
    assert_eq!(here(&first["state"]), json!([false, false]), "{first}");

    // X connects with a socket.
    let mut xs = socket(addr, &room).await;
    next(&mut xs).await;
    send(&mut xs, json!({"type": "hello", "token": x})).await;
    assert_eq!(presence(&mut watcher).await, json!([true, false]));
    assert_eq!(here(&state(addr, &room).await), json!([true, false]));

    // O long-polls with its token: here while it waits.
    let poll = {
        let (room, o) = (room.clone(), o.clone());
        tokio::spawn(async move {
            let version = state(addr, &room).await["version"].as_i64().unwrap();
            let path = format!("/api/rooms/{room}?after={version}&wait_ms=3000");
            let raw = format!(
                "GET {path} HTTP/1.1\r\nHost: mnk\r\nAuthorization: Bearer {o}\r\nConnection: close\r\n\r\n"
            );
            let mut stream = common::wire::connect(addr).await;
            common::wire::exchange(&mut stream, raw.as_bytes()).await
        })
    };
    assert_eq!(presence(&mut watcher).await, json!([true, true]));
    // The moves go on, and a state after the change says who is here too.
    send(&mut xs, json!({"type": "move", "ply": 0, "cell": "h8"})).await;
    let moved = state_at_ply(&mut watcher, 1).await;
    assert_eq!(here(&moved), json!([true, true]));
    let polled = poll.await.unwrap();
    assert_eq!(polled.status, 200, "{}", polled.body);

    // X's socket closes: X is away.
    xs.close(None).await.unwrap();
    assert_eq!(presence(&mut watcher).await, json!([false, true]));

    // A forged token in a long poll is refused and makes no one here.
    let raw = format!(
        "GET /api/rooms/{room}?after=0 HTTP/1.1\r\nHost: mnk\r\nAuthorization: Bearer forged\r\nConnection: close\r\n\r\n"
    );
    let mut stream = common::wire::connect(addr).await;
    let refused = common::wire::exchange(&mut stream, raw.as_bytes()).await;
    assert_eq!(
        (refused.status, refused.code().as_deref()),
        (403, Some("bad_token"))
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_renju_the_room_lists_blacks_forbidden_points_and_refuses_them() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, created) = create(addr, json!({"rules": "renju", "colour": "X"})).await;
    assert_eq!(created["state"]["rules"]["win"], "renju");
    assert_eq!(created["state"]["forbidden"], json!([]));
    let o = join_token(addr, &room).await;
    // Black (X) gets an open two across (f8 g8) and one down (h9 h10) meeting at h8.
    let game = ["f8", "a1", "g8", "c1", "h9", "e1", "h10", "g1"];
    for (ply, cell) in game.into_iter().enumerate() {
        let token = if ply % 2 == 0 { &x } else { &o };
        let (status, reply) = play(addr, &room, token, ply, cell).await;
        assert_eq!(status, 200, "{reply}");
    }
    let before = state(addr, &room).await;
    let forbidden = before["forbidden"].as_array().unwrap();
    let h8 = forbidden
        .iter()
        .find(|f| f["cell"] == "h8")
        .expect("h8 is forbidden");
    assert_eq!(h8["kind"], "double-three");
    assert!(h8["why"].as_str().is_some_and(|w| !w.is_empty()), "{h8}");
    let (status, refused) = play(addr, &room, &x, 8, "h8").await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (422, Some("illegal_move"))
    );
    let after = state(addr, &room).await;
    assert_eq!(
        after["version"], before["version"],
        "the refusal changed nothing"
    );
    // Black plays elsewhere: white, to move, has no forbidden points and may take h8.
    play(addr, &room, &x, 8, "o15").await;
    assert_eq!(state(addr, &room).await["forbidden"], json!([]));
    let (status, reply) = play(addr, &room, &o, 9, "h8").await;
    assert_eq!(status, 200, "{reply}");
    // Other rules have no such list.
    let (_, _, free) = create(addr, json!({"rules": "gomoku15"})).await;
    assert!(free["state"].get("forbidden").is_none(), "{free}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutting_down_closes_sockets_with_going_away_within_two_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let (room, _, _) = create(server.addr, json!({"rules": "tictactoe"})).await;
    let mut ws = socket(server.addr, &room).await;
    next(&mut ws).await;
    let took = server.stop().await;
    assert!(took < Duration::from_secs(2), "shutdown took {took:?}");
    let closed = next(&mut ws).await;
    // 1001, going away.
    assert!(
        closed["frame"].as_str().unwrap_or("").contains("Away"),
        "{closed}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_nobody_is_in_is_closed_and_a_watched_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_on(&dir);
    config.rooms.idle = Duration::from_millis(300);
    config.rooms.sweep_every = Duration::from_millis(100);
    let server = Server::start(config).await;
    let addr = server.addr;
    let (left, x, _) = create(addr, json!({"rules": "tictactoe", "colour": "X"})).await;
    join(addr, &left).await;
    let (watched, _, _) = create(addr, json!({"rules": "tictactoe"})).await;
    let mut ws = socket(addr, &watched).await;
    next(&mut ws).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(state(addr, &left).await["status"], "closed");
    let (status, refused) = play(addr, &left, &x, 0, "b2").await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (410, Some("room_closed"))
    );
    assert_eq!(state(addr, &watched).await["status"], "waiting");
    server.stop().await;
}

/// The next `error` message of a socket, or the next `state` (as `{"type": "state", ..}`).
async fn next_reply(socket: &mut Socket) -> Value {
    loop {
        let message = next(socket).await;
        if message["type"] == "error" || message["type"] == "state" {
            return message;
        }
    }
}

/// Reads `state` messages until one at `version` or later.
async fn state_at_version(socket: &mut Socket, version: i64) -> Value {
    loop {
        let message = next(socket).await;
        if message["type"] == "state" && message["state"]["version"].as_i64() >= Some(version) {
            return message["state"].clone();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swap2_room_is_played_through_its_opening_over_both_seats_sockets() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;

    // What a swap opening cannot go with is refused at creation, plainly.
    let refused = [
        (
            json!({"rules": "tictactoe", "opening": "swap2"}),
            422,
            "bad_opening",
        ),
        (
            json!({"rules": "gomoku15", "opening": "swap3"}),
            400,
            "bad_json",
        ),
    ];
    for (request, status, code) in refused {
        let (got, reply) = call(addr, "POST", "/api/rooms", request.clone()).await;
        assert_eq!(
            (got, reply["error"]["code"].as_str()),
            (status, Some(code)),
            "{request}"
        );
    }

    // Seat 0 is given X, the first player's colour: it opens.
    let (room, opener, created) = create(
        addr,
        json!({"rules": "gomoku15", "colour": "X", "opening": "swap2"}),
    )
    .await;
    assert_eq!(
        created["state"]["opening"],
        json!({"kind": "swap2", "decisions": [], "opener": 0, "step": "place", "seat": "opener", "left": 3, "acts": 0})
    );
    let chooser = join(addr, &room).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, invited) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/bot"),
        json!({"token": opener, "bot": {"level": 1}}),
    )
    .await;
    assert_eq!(
        (status, invited["error"]["code"].as_str()),
        (409, Some("seat_taken"))
    );

    let mut a = socket(addr, &room).await;
    let mut b = socket(addr, &room).await;
    assert_eq!(next(&mut a).await["type"], "state");
    assert_eq!(next(&mut b).await["type"], "state");
    send(&mut a, json!({"type": "hello", "token": opener})).await;
    assert_eq!(next(&mut a).await["type"], "welcome");
    send(&mut b, json!({"type": "hello", "token": chooser})).await;
    assert_eq!(next(&mut b).await["type"], "welcome");

    // The opener places black, white, black; the chooser may not place them.
    send(&mut b, json!({"type": "move", "ply": 0, "cell": "h8"})).await;
    assert_eq!(code(&next_reply(&mut b).await), "not_your_turn");
    for (ply, cell) in ["h8", "h9", "j8"].into_iter().enumerate() {
        send(&mut a, json!({"type": "move", "ply": ply, "cell": cell})).await;
        state_at_ply(&mut a, ply as u64 + 1).await;
    }
    let three = state_at_ply(&mut b, 3).await;
    assert_eq!(
        (
            three["opening"]["step"].clone(),
            three["opening"]["acts"].clone()
        ),
        (json!("choose"), json!(1))
    );
    assert_eq!(
        three["opening"]["options"],
        json!(["black", "white", "place-two"])
    );

    // Refusals leave the room as it was.
    let version = three["version"].as_i64().unwrap();
    send(
        &mut a,
        json!({"type": "decide", "ply": 3, "decision": "black"}),
    )
    .await;
    assert_eq!(code(&next_reply(&mut a).await), "not_your_turn");
    send(&mut b, json!({"type": "move", "ply": 3, "cell": "k8"})).await;
    assert_eq!(code(&next_reply(&mut b).await), "opening_step");
    send(
        &mut b,
        json!({"type": "decide", "ply": 2, "decision": "black"}),
    )
    .await;
    let stale = next_reply(&mut b).await;
    assert_eq!(
        (code(&stale), stale["state"]["ply"].clone()),
        ("stale_ply".into(), json!(3))
    );
    send(
        &mut b,
        json!({"type": "decide", "ply": 3, "decision": "purple"}),
    )
    .await;
    assert_eq!(code(&next_reply(&mut b).await), "bad_json");
    let (status, spectator) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/decide"),
        json!({"token": "forged", "ply": 3, "decision": "black"}),
    )
    .await;
    assert_eq!(
        (status, spectator["error"]["code"].as_str()),
        (403, Some("bad_token"))
    );
    assert_eq!(state(addr, &room).await["version"], version);

    // The chooser places two more (white, black) over HTTP; the opener then chooses.
    let (status, placing) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/decide"),
        json!({"token": chooser, "ply": 3, "decision": "place-two"}),
    )
    .await;
    assert_eq!(status, 200, "{placing}");
    assert_eq!(
        (
            placing["opening"]["step"].clone(),
            placing["opening"]["acts"].clone()
        ),
        (json!("place"), json!(1))
    );
    let (status, twice) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/decide"),
        json!({"token": chooser, "ply": 3, "decision": "place-two"}),
    )
    .await;
    assert_eq!(
        (status, twice["error"]["code"].as_str()),
        (409, Some("stale_ply")),
        "a decision sent twice"
    );
    assert_eq!(
        play(addr, &room, &opener, 3, "k8").await.1["error"]["code"],
        "not_your_turn"
    );
    assert_eq!(play(addr, &room, &chooser, 3, "k8").await.0, 200);
    assert_eq!(play(addr, &room, &chooser, 4, "g7").await.0, 200);
    state_at_ply(&mut a, 5).await;
    send(
        &mut a,
        json!({"type": "decide", "ply": 5, "decision": "place-two"}),
    )
    .await;
    assert_eq!(code(&next_reply(&mut a).await), "bad_opening");
    // The opener takes white: seat 0 plays O, seat 1 X, and white (O) moves.
    let version = state(addr, &room).await["version"].as_i64().unwrap();
    send(
        &mut a,
        json!({"type": "decide", "ply": 5, "decision": "white"}),
    )
    .await;
    let settled = state_at_version(&mut b, version + 1).await;
    assert_eq!(
        settled["opening"],
        json!({"kind": "swap2", "decisions": ["place-two", "white"], "opener": 0, "step": "settled", "black": "chooser", "acts": null})
    );
    assert_eq!(
        (
            settled["seats"][0]["colour"].clone(),
            settled["seats"][1]["colour"].clone()
        ),
        (json!("O"), json!("X"))
    );
    assert_eq!(settled["to_move"], "O");
    assert_eq!(
        play(addr, &room, &chooser, 5, "l8").await.1["error"]["code"],
        "not_your_turn"
    );
    send(&mut a, json!({"type": "move", "ply": 5, "cell": "l8"})).await;
    state_at_ply(&mut b, 6).await;
    send(
        &mut b,
        json!({"type": "decide", "ply": 6, "decision": "black"}),
    )
    .await;
    assert_eq!(code(&next_reply(&mut b).await), "opening_step");

    // A rematch: the other seat opens the next game.
    let act = |what: &'static str, token: String| {
        let room = room.clone();
        async move {
            call(
                addr,
                "POST",
                &format!("/api/rooms/{room}/{what}"),
                json!({"token": token}),
            )
            .await
        }
    };
    assert_eq!(act("resign", chooser.clone()).await.0, 200);
    act("rematch", chooser.clone()).await;
    let (_, second) = act("rematch", opener.clone()).await;
    assert_eq!(
        (
            second["game"].clone(),
            second["opening"]["opener"].clone(),
            second["opening"]["decisions"].clone()
        ),
        (json!(2), json!(1), json!([]))
    );
    assert_eq!(
        play(addr, &room, &opener, 0, "h8").await.1["error"]["code"],
        "not_your_turn"
    );
    assert_eq!(play(addr, &room, &chooser, 0, "h8").await.0, 200);
    server.stop().await;
}

/// The code of an `error` message.
fn code(message: &Value) -> String {
    message["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Reads `state` messages until one that `wanted` accepts, within 20 s.
async fn state_when(socket: &mut Socket, wanted: impl Fn(&Value) -> bool) -> Value {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let message = next(socket).await;
            if message["type"] == "state" && wanted(&message["state"]) {
                return message["state"].clone();
            }
        }
    })
    .await
    .expect("the awaited state within 20 s")
}

async fn decide(addr: SocketAddr, room: &str, token: &str, ply: u64, decision: &str) -> Value {
    let body = json!({ "token": token, "ply": ply, "decision": decision });
    let (status, reply) = call(addr, "POST", &format!("/api/rooms/{room}/decide"), body).await;
    assert_eq!(status, 200, "{reply}");
    reply
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_perfect_bot_in_a_room_takes_the_time_its_proof_needs() {
    // A usual move's time far too short for any proof: the perfect player still opens, given
    // the time a proof may take, where it once ran out and never moved.
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_on(&dir);
    config.rooms.bot_think = Duration::from_millis(1);
    let server = Server::start(config).await;
    let addr = server.addr;
    let rules = json!({"width": 7, "height": 5, "k": 4});
    let (room, _me, _) = create(
        addr,
        json!({"rules": rules, "colour": "O", "bot": {"bot": "perfect"}}),
    )
    .await;
    let mut ws = socket(addr, &room).await;
    let opened = state_at_ply(&mut ws, 1).await;
    assert_eq!(opened["to_move"], "O", "{opened}");
    assert_eq!(opened["status"], "playing", "{opened}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_in_a_clocked_swap2_room_opens_chooses_and_plays() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config_on(&dir);
    config.rooms.bot_think = Duration::from_millis(400);
    let server = Server::start(config).await;
    let addr = server.addr;
    let clock = json!({"initial_ms": 300_000, "increment_ms": 2000});
    // The person takes O: level 6, given X, opens the first game.
    let (room, me, created) = create(
        addr,
        json!({"rules": "gomoku15", "colour": "O", "opening": "swap2", "bot": {"level": 6}, "clock": clock}),
    )
    .await;
    assert_eq!(created["state"]["opening"]["opener"], 1);
    let mut ws = socket(addr, &room).await;

    // The bot places its three stones in one change, on its own clock (one increment for the
    // turn); then the person's clock runs while it chooses.
    let three = state_at_ply(&mut ws, 3).await;
    assert_eq!(
        (
            three["opening"]["step"].clone(),
            three["opening"]["acts"].clone()
        ),
        (json!("choose"), json!(0)),
        "{three}"
    );
    let bot_ms = three["clocks"]["x_ms"].as_i64().unwrap();
    assert!(bot_ms > 300_000 && bot_ms < 302_000, "{three}");
    assert_eq!(three["clocks"]["running"], "O");

    // The person takes white and plays white's stone; the bot, black, answers.
    decide(addr, &room, &me, 3, "white").await;
    let free = ["k8", "g7", "l8", "f6", "m8", "e5", "n8", "d4"]
        .into_iter()
        .find(|c| !three["moves"].as_array().unwrap().contains(&json!(c)))
        .unwrap();
    assert_eq!(play(addr, &room, &me, 3, free).await.0, 200);
    let answered = state_at_ply(&mut ws, 5).await;
    assert_eq!(answered["opening"]["step"], "settled");
    assert_eq!(
        (
            answered["seats"][0]["colour"].clone(),
            answered["to_move"].clone()
        ),
        (json!("O"), json!("O"))
    );

    // A rematch (the bot accepts at once): the person opens game 2, the bot chooses.
    let act = |what: &'static str| {
        let (room, me) = (room.clone(), me.clone());
        async move {
            let body = json!({ "token": me });
            call(addr, "POST", &format!("/api/rooms/{room}/{what}"), body).await
        }
    };
    assert_eq!(act("resign").await.0, 200);
    let (_, second) = act("rematch").await;
    assert_eq!(
        (second["game"].clone(), second["opening"]["acts"].clone()),
        (json!(2), json!(0))
    );
    for (ply, cell) in ["h8", "j10", "d12"].into_iter().enumerate() {
        assert_eq!(play(addr, &room, &me, ply, cell).await.0, 200);
    }
    // The bot decides (with the stones its decision places) until it is the person's turn.
    let mine = |state: &Value| {
        state["game"] == 2
            && state["ply"].as_u64() >= Some(3)
            && (state["opening"]["acts"] == 0
                || (state["opening"]["step"] == "settled"
                    && state["to_move"] == state["seats"][0]["colour"]))
    };
    let chosen = state_when(&mut ws, mine).await;
    let decisions = chosen["opening"]["decisions"].as_array().unwrap().clone();
    assert!(!decisions.is_empty(), "{chosen}");
    let mut ply = chosen["ply"].as_u64().unwrap();
    if chosen["opening"]["step"] == "choose" {
        // The bot placed two: the person chooses black, and the bot, white, moves.
        assert_eq!((decisions[0].clone(), ply), (json!("place-two"), 5));
        decide(addr, &room, &me, ply, "black").await;
    } else {
        // The bot took a colour (and, taking white, played white's stone): the person moves.
        let taken: Vec<&str> = chosen["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let cell = ["a1", "a15", "o1", "o15"]
            .into_iter()
            .find(|c| !taken.contains(c))
            .unwrap();
        assert_eq!(play(addr, &room, &me, ply as usize, cell).await.0, 200);
        ply += 1;
    }
    // The bot plays on once the colours are settled.
    let on = state_at_ply(&mut ws, ply + 1).await;
    assert_eq!(
        (on["status"].clone(), on["opening"]["step"].clone()),
        (json!("playing"), json!("settled")),
        "{on}"
    );
    assert!(on["clocks"]["x_ms"].as_i64().unwrap() > 290_000);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_in_a_swap_opening_ends_the_game_live_for_a_watcher_come_late() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let clock = json!({"initial_ms": 1500, "increment_ms": 500});
    let (room, opener, _) = create(
        addr,
        json!({"rules": "gomoku15", "colour": "X", "opening": "swap2", "clock": clock}),
    )
    .await;
    join(addr, &room).await;
    for (ply, cell) in ["h8", "h9", "j8"].into_iter().enumerate() {
        assert_eq!(play(addr, &room, &opener, ply, cell).await.0, 200);
    }
    // A watcher that comes after the last change sees the flag fall all the same: the chooser
    // (seat 1, O until the colours are settled) does not choose, and loses on time.
    let mut ws = socket(addr, &room).await;
    let flagged = state_when(&mut ws, |s| s["status"] == "over").await;
    assert_eq!(flagged["result"], json!({"winner": "X", "reason": "time"}));
    assert_eq!(flagged["clocks"]["o_ms"], 0);
    assert!(flagged["clocks"]["x_ms"].as_i64().unwrap() > 1000);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_whose_long_poll_ended_shows_away_when_the_grace_is_over() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let (room, x, o) = gomoku_with_two_players(addr).await;
    let mut watcher = socket(addr, &room).await;
    next(&mut watcher).await;

    // O long-polls for up to 30 s; X's move answers it at once, and O does not poll again.
    let version = state(addr, &room).await["version"].as_i64().unwrap();
    let path_room = room.clone();
    let poll = tokio::spawn(async move {
        let room = path_room;
        let path = format!("/api/rooms/{room}?after={version}&wait_ms=30000");
        let raw = format!(
            "GET {path} HTTP/1.1\r\nHost: mnk\r\nAuthorization: Bearer {o}\r\nConnection: close\r\n\r\n"
        );
        let mut stream = common::wire::connect(addr).await;
        let reply = common::wire::exchange(&mut stream, raw.as_bytes()).await;
        (reply, tokio::time::Instant::now())
    });
    assert_eq!(presence(&mut watcher).await, json!([false, true]));
    assert_eq!(play(addr, &room, &x, 0, "h8").await.0, 200);
    let (reply, ended) = poll.await.unwrap();
    assert_eq!(reply.status, 200, "{}", reply.body);

    // Away 10 s after the poll ended (not 10 s after the 30 s it might have waited), give or
    // take the time the answer took to arrive and a little.
    let away = tokio::time::timeout(Duration::from_secs(15), async {
        while let Some(Ok(message)) = watcher.next().await {
            let Message::Text(text) = message else {
                continue;
            };
            let message: Value = serde_json::from_str(&text).unwrap();
            if message["type"] == "presence" && message["here"] == json!([false, false]) {
                return tokio::time::Instant::now();
            }
        }
        panic!("the watcher's socket closed");
    })
    .await
    .expect("O shows away within 15 s of its poll's end");
    let late = away.duration_since(ended);
    assert!(
        late >= Duration::from_millis(9500) && late <= Duration::from_millis(11_000),
        "away {late:?} after the poll ended"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_on_a_short_clock_shares_it_and_does_not_flag() {
    let dir = tempfile::tempdir().unwrap();
    // The bot's usual second a move would flag on a 1 s clock at its first move.
    let server = Server::start(config_on(&dir)).await;
    let addr = server.addr;
    let clock = json!({"initial_ms": 1000, "increment_ms": 0});
    let (room, me, _) = create(
        addr,
        json!({"rules": "gomoku15", "colour": "O", "bot": {"level": 6}, "clock": clock}),
    )
    .await;
    let mut ws = socket(addr, &room).await;
    // The person answers at once, on cells two apart on the edge (never a line, never a
    // defence), so the bot wins by a line after some moves, every one on its own clock.
    let mine = [
        "a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3", "c3", "e3", "g3",
    ];
    let mut ply = 0;
    let over = loop {
        let state = state_when(&mut ws, |s| {
            s["ply"].as_u64() > Some(ply) || s["status"] == "over"
        })
        .await;
        if state["status"] == "over" {
            break state;
        }
        ply = state["ply"].as_u64().unwrap();
        let taken = state["moves"].as_array().unwrap().clone();
        let cell = mine
            .into_iter()
            .find(|c| !taken.contains(&json!(c)))
            .expect("a free cell of the person's");
        assert_eq!(play(addr, &room, &me, ply as usize, cell).await.0, 200);
        ply += 1;
    };
    assert_eq!(
        (
            over["result"]["winner"].clone(),
            over["result"]["reason"].clone()
        ),
        (json!("X"), json!("line")),
        "{over}"
    );
    let bot_ms = over["clocks"]["x_ms"].as_i64().unwrap();
    assert!(bot_ms > 0 && bot_ms < 1000, "{over}");
}

/// A server on a fresh SQLite file in `dir` where a game without a clock may be claimed once the
/// opponent has been away for `claim_after`.
async fn server_claiming_after(dir: &tempfile::TempDir, claim_after: Duration) -> Server {
    let mut config = config_on(dir);
    config.rooms.claim_after = claim_after;
    Server::start(config).await
}

/// `POST /api/rooms/ROOM/claim` with `body`.
async fn claim(addr: SocketAddr, room: &str, body: Value) -> (u16, Value) {
    call(addr, "POST", &format!("/api/rooms/{room}/claim"), body).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_left_is_claimed_only_after_the_delay_and_only_by_the_player_left() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_claiming_after(&dir, Duration::from_millis(1500)).await;
    let addr = server.addr;
    let (room, x, o) = gomoku_with_two_players(addr).await;
    let mut xs = socket(addr, &room).await;
    let mut os = socket(addr, &room).await;
    for (ws, token) in [(&mut xs, &x), (&mut os, &o)] {
        next(ws).await;
        send(ws, json!({"type": "hello", "token": token})).await;
    }
    while presence(&mut xs).await != json!([true, true]) {}
    assert_eq!(play(addr, &room, &x, 0, "h8").await.0, 200);
    let seen = state(addr, &room).await;
    assert_eq!(seen["claim_after_ms"], 1500);
    assert_eq!(seen["seats"][1]["here"], true);
    assert_eq!(seen["seats"][1].get("away_ms"), None, "{seen}");

    // O is here: nothing to claim.
    let (status, refused) = claim(addr, &room, json!({"token": x})).await;
    assert_eq!((status, code_of(&refused)), (409, "not_abandoned".into()));
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("connected"),
        "{refused}"
    );

    // O's socket closes: away, but not for long enough.
    os.close(None).await.unwrap();
    let left = std::time::Instant::now();
    assert_eq!(presence(&mut xs).await, json!([true, false]));
    let (status, early) = claim(addr, &room, json!({"token": x})).await;
    assert_eq!((status, code_of(&early)), (409, "not_abandoned".into()));
    assert!(
        early["error"]["message"]
            .as_str()
            .unwrap()
            .contains("you may claim the game after 2 s"),
        "{early}"
    );
    let away = state(addr, &room).await;
    assert_eq!(away["seats"][1]["here"], false);
    assert!(
        away["seats"][1]["away_ms"].as_u64().unwrap() < 1500,
        "{away}"
    );
    assert_eq!(away["seats"][0].get("away_ms"), None);
    // The one who left cannot claim against the one who stayed, nor can a stranger.
    let (status, theirs) = claim(addr, &room, json!({"token": o})).await;
    assert_eq!((status, code_of(&theirs)), (409, "not_abandoned".into()));
    let (status, stranger) = claim(addr, &room, json!({"token": "forged"})).await;
    assert_eq!((status, code_of(&stranger)), (403, "bad_token".into()));
    // Bad bodies are refused before anything is looked at.
    let (status, bad) = claim(addr, &room, json!({"token": x, "as": "win"})).await;
    assert_eq!((status, code_of(&bad)), (400, "bad_json".into()));
    let unchanged = state(addr, &room).await;
    assert_eq!(
        (unchanged["status"].clone(), unchanged["version"].clone()),
        (json!("playing"), away["version"].clone())
    );

    // Past the delay X claims over its socket and wins; everyone sees it.
    tokio::time::sleep(Duration::from_millis(1600).saturating_sub(left.elapsed())).await;
    let version = unchanged["version"].as_i64().unwrap();
    send(&mut xs, json!({"type": "claim"})).await;
    let won = state_at_version(&mut xs, version + 1).await;
    assert_eq!(won["status"], "over");
    assert_eq!(won["result"], json!({"winner": "X", "reason": "abandoned"}));
    let (status, late) = play(addr, &room, &o, 1, "h9").await;
    assert_eq!((status, code_of(&late)), (409, "game_over".into()));
    let (status, again) = claim(addr, &room, json!({"token": x})).await;
    assert_eq!((status, code_of(&again)), (409, "game_over".into()));
    let (_, record) = call(
        addr,
        "GET",
        &format!("/api/rooms/{room}/games/1"),
        json!(null),
    )
    .await;
    assert_eq!(
        record["result"],
        json!({"winner": "X", "reason": "abandoned"})
    );
    server.stop().await;
}

/// The error code of a refusal's body.
fn code_of(reply: &Value) -> String {
    reply["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_left_is_handed_to_a_bot_that_plays_on_and_its_old_token_holds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_claiming_after(&dir, Duration::from_millis(400)).await;
    let addr = server.addr;
    let (room, x, _) = create(addr, json!({"rules": "tictactoe", "colour": "X"})).await;
    // O joins and never connects: away from the moment the server first looks at the room.
    let o = join_token(addr, &room).await;
    let mut xs = socket(addr, &room).await;
    next(&mut xs).await;
    send(&mut xs, json!({"type": "hello", "token": x})).await;
    send(&mut xs, json!({"type": "move", "ply": 0, "cell": "b2"})).await;
    state_at_ply(&mut xs, 1).await;
    let looked = std::time::Instant::now();
    let perfect = json!({"token": x, "bot": {"bot": "perfect"}});
    let (status, early) = claim(addr, &room, perfect.clone()).await;
    assert_eq!((status, code_of(&early)), (409, "not_abandoned".into()));
    let (status, unknown) = claim(addr, &room, json!({"token": x, "bot": {"bot": "nobody"}})).await;
    assert_eq!(status, 400, "{unknown}");
    assert_eq!(state(addr, &room).await["seats"][1]["bot"], Value::Null);

    tokio::time::sleep(Duration::from_millis(450).saturating_sub(looked.elapsed())).await;
    let (status, handed) = claim(addr, &room, perfect).await;
    assert_eq!(status, 200, "{handed}");
    assert_eq!(handed["status"], "playing");
    assert_eq!(handed["seats"][1]["bot"], "perfect");
    assert_eq!(handed["seats"][1]["taken"], true);
    assert_eq!(
        handed["seats"][1].get("away_ms"),
        None,
        "a bot is never away"
    );
    // The bot answers the move it was handed the seat on, and every one after.
    let answered = state_at_ply(&mut xs, 2).await;
    assert_eq!(answered["seats"][1]["bot"], "perfect");
    // The player who left holds nothing now: a move or a return is refused, and changes nothing.
    let (status, refused) = play(addr, &room, &o, 2, "a1").await;
    assert_eq!((status, code_of(&refused)), (403, "bad_token".into()));
    let (status, back) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/join"),
        json!({"token": o}),
    )
    .await;
    assert_eq!((status, code_of(&back)), (403, "bad_token".into()));
    assert_eq!(state(addr, &room).await["ply"], 2);
    // Against a bot there is nothing to claim.
    let (status, bot) = claim(addr, &room, json!({"token": x})).await;
    assert_eq!((status, code_of(&bot)), (409, "not_abandoned".into()));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_record_says_how_it_ended_with_its_clocks_stopped_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = server_on(&dir).await;
    let addr = server.addr;
    let clock = json!({"initial_ms": 60_000, "increment_ms": 2000});
    let (room, x, _) = create(
        addr,
        json!({"rules": "gomoku15", "colour": "X", "clock": clock}),
    )
    .await;
    let o = join_token(addr, &room).await;
    assert_eq!(play(addr, &room, &x, 0, "h8").await.0, 200);
    assert_eq!(play(addr, &room, &o, 1, "h9").await.0, 200);
    // X thinks for 400 ms, then resigns: its clock stops there.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let (status, resigned) = call(
        addr,
        "POST",
        &format!("/api/rooms/{room}/resign"),
        json!({"token": x}),
    )
    .await;
    assert_eq!(status, 200, "{resigned}");
    let record_of = |number: u32| {
        let room = room.clone();
        async move {
            call(
                addr,
                "GET",
                &format!("/api/rooms/{room}/games/{number}"),
                json!(null),
            )
            .await
        }
    };
    let (status, record) = record_of(1).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        record["result"],
        json!({"winner": "O", "reason": "resigned"})
    );
    assert_eq!(record["moves"], json!(["h8", "h9"]));
    assert_eq!(record["clock"], clock);
    let clocks = record["clocks"].clone();
    assert_eq!(clocks["running"], Value::Null);
    let (x_ms, o_ms) = (
        clocks["x_ms"].as_i64().unwrap(),
        clocks["o_ms"].as_i64().unwrap(),
    );
    // Each had 60 s, took a little for its move and gained 2 s; X also spent its 400 ms.
    assert!((55_000..=62_000 - 400).contains(&x_ms), "{clocks}");
    assert!((55_000..=62_000).contains(&o_ms), "{clocks}");
    assert!(x_ms < o_ms, "{clocks}");
    assert_eq!(resigned["clocks"], clocks, "the room says the same");
    // Stopped: read again later, the same.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(record_of(1).await.1["clocks"], clocks);

    // A rematch: game 1's record stays, game 2 has none while it is played, then one of its own.
    for token in [&o, &x] {
        let body = json!({"token": token});
        assert_eq!(
            call(addr, "POST", &format!("/api/rooms/{room}/rematch"), body)
                .await
                .0,
            200
        );
    }
    assert_eq!(record_of(2).await.1["error"]["code"], "game_not_over");
    assert_eq!(record_of(1).await.1["clocks"], clocks);
    for token in [&x, &o] {
        let body = json!({"token": token});
        assert_eq!(
            call(addr, "POST", &format!("/api/rooms/{room}/draw"), body)
                .await
                .0,
            200
        );
    }
    let (_, drawn) = record_of(2).await;
    assert_eq!(drawn["result"], json!({"winner": null, "reason": "agreed"}));
    assert_eq!(drawn["moves"], json!([]));
    assert_eq!(drawn["clocks"]["running"], Value::Null);

    // Without a clock a record has none.
    let (plain, a, _) = create(addr, json!({"rules": "tictactoe", "colour": "X"})).await;
    let b = join_token(addr, &plain).await;
    for (ply, (token, cell)) in [(&a, "a1"), (&b, "a2"), (&a, "b2"), (&b, "b3"), (&a, "c3")]
        .into_iter()
        .enumerate()
    {
        assert_eq!(play(addr, &plain, token, ply, cell).await.0, 200);
    }
    let (_, won) = call(
        addr,
        "GET",
        &format!("/api/rooms/{plain}/games/1"),
        json!(null),
    )
    .await;
    assert_eq!(won["result"], json!({"winner": "X", "reason": "line"}));
    assert_eq!(
        (won["clock"].clone(), won["clocks"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(won["outcome"]["line"].as_array().unwrap().len(), 3);
    // Its permanent address for people leads to the page that shows it; a malformed one is not
    // a game's.
    let page = http(addr, "GET", &format!("/g/{plain}-1"), None).await;
    assert_eq!(page.status, 303);
    assert_eq!(
        page.header("location"),
        Some(format!("/?game={plain}-1").as_str())
    );
    // A mistyped one leads to the page too, which says there is no such game.
    let wrong = http(addr, "GET", "/g/not-a-game", None).await;
    assert_eq!(wrong.status, 303);
    assert_eq!(wrong.header("location"), Some("/?game=not-a-game"));
    let odd = http(addr, "GET", "/g/%3Cb%3E%22x", None).await;
    assert_eq!(odd.header("location"), Some("/?game=bx"));
    server.stop().await;
}
