//! `mnk serve` killed with SIGKILL mid-game, many times, at random moments, and restarted on the
//! same SQLite file: every move it acknowledged is still there, and the game goes on.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use support::{call, room_with_two_players, Served};

/// Kills and restarts (more with `MNK_CRASH_CYCLES`).
const CYCLES: usize = 25;
/// Moves of one game before the test starts the next (the unbounded board allows 1,024).
const GAME_LENGTH: usize = 1000;
/// The test moves as fast as the server answers, from one address: past any person's rate.
const UNLIMITED: [&str; 4] = [
    "--room-actions-per-minute",
    "1000000",
    "--room-reads-per-minute",
    "1000000",
];

/// The cell of ply `ply`: X and O fill rows 24 cells wide in a pattern (`XXOO`, shifted by two
/// each row) in which neither ever has three in a row, so the game never ends by itself.
fn cell_at(ply: usize) -> String {
    let (player, nth) = (ply % 2, ply / 2);
    // Each row of 24 cells holds 12 of each player's cells.
    let (y, k) = (nth / 12, nth % 12);
    let x = 4 * (k / 2) + k % 2 + if (y % 2 == 0) == (player == 0) { 0 } else { 2 };
    format!("{x},{y}")
}

/// A tiny random source (xorshift) seeded by the clock: where to kill differs run to run.
struct Dice(u64);

impl Dice {
    fn new() -> Dice {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        Dice(nanos as u64 | 1)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The room as the server has it: game number, moves, and which seat plays X.
fn room_state(addr: &str, room: &str) -> (i64, Vec<String>, usize) {
    let (status, state) = call(addr, "GET", &format!("/api/rooms/{room}"), &Value::Null).unwrap();
    assert_eq!(status, 200, "{state}");
    let moves = state["moves"].as_array().unwrap().iter();
    let moves = moves.map(|m| m.as_str().unwrap().to_string()).collect();
    let x_seat = usize::from(state["seats"][1]["colour"] == "X");
    (state["game"].as_i64().unwrap(), moves, x_seat)
}

/// Plays moves one after another until the server stops answering (or the game is long
/// enough); counts the acknowledged ones in `acked` (the highest acknowledged ply + 1).
fn keep_playing(
    addr: String,
    room: String,
    tokens: [String; 2],
    x_seat: usize,
    acked: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
) {
    let from = acked.load(Ordering::SeqCst);
    for ply in from..GAME_LENGTH {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let seat = if ply % 2 == 0 { x_seat } else { 1 - x_seat };
        let body = json!({"token": tokens[seat], "ply": ply, "cell": cell_at(ply)});
        match call(&addr, "POST", &format!("/api/rooms/{room}/move"), &body) {
            Ok((200, _)) => acked.store(ply + 1, Ordering::SeqCst),
            Ok((status, reply)) => panic!("move {ply} refused ({status}): {reply}"),
            // Killed: this move may or may not have been stored; it was not acknowledged.
            Err(_) => return,
        }
    }
}

#[test]
fn a_server_killed_at_random_moments_loses_no_acknowledged_move() {
    let cycles = std::env::var("MNK_CRASH_CYCLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CYCLES);
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("crash.db").display());
    let first = Served::start_with(&database, &UNLIMITED);
    let (room, tokens) = room_with_two_players(&first.addr, "infx5");
    first.kill();

    let mut dice = Dice::new();
    let (mut game, mut acked_total, mut kills_mid_move) = (1, 0, 0);
    let started = Instant::now();
    for cycle in 0..cycles {
        let served = Served::start_with(&database, &UNLIMITED);
        let (now_game, moves, x_seat) = room_state(&served.addr, &room);
        assert_eq!(now_game, game, "cycle {cycle}: the game changed by itself");
        let acked = Arc::new(AtomicUsize::new(moves.len()));
        let stop = Arc::new(AtomicBool::new(false));
        let player = {
            let (addr, room, tokens) = (served.addr.clone(), room.clone(), tokens.clone());
            let (acked, stop) = (acked.clone(), stop.clone());
            std::thread::spawn(move || keep_playing(addr, room, tokens, x_seat, acked, stop))
        };
        std::thread::sleep(Duration::from_millis(20 + dice.below(300)));
        let before_kill = acked.load(Ordering::SeqCst);
        served.kill();
        stop.store(true, Ordering::Relaxed);
        player.join().expect("the player saw no refusal");
        let acknowledged = acked.load(Ordering::SeqCst).max(before_kill);
        acked_total += acknowledged - moves.len();

        // Back up on the same file: every acknowledged move is there, in order, and at most
        // the one move in flight when the server died besides.
        let served = Served::start_with(&database, &UNLIMITED);
        let (_, after, x_seat) = room_state(&served.addr, &room);
        assert!(
            after.len() == acknowledged || after.len() == acknowledged + 1,
            "cycle {cycle}: {acknowledged} moves were acknowledged, {} are stored",
            after.len()
        );
        kills_mid_move += usize::from(after.len() == acknowledged + 1);
        for (ply, cell) in after.iter().enumerate() {
            assert_eq!(*cell, cell_at(ply), "cycle {cycle}: move {ply}");
        }
        // The game goes on: the next move is taken.
        let ply = after.len();
        let seat = if ply % 2 == 0 { x_seat } else { 1 - x_seat };
        let body = json!({"token": tokens[seat], "ply": ply, "cell": cell_at(ply)});
        let (status, reply) = served
            .call("POST", &format!("/api/rooms/{room}/move"), &body)
            .unwrap();
        if ply < GAME_LENGTH {
            assert_eq!(status, 200, "cycle {cycle}: {reply}");
        } else {
            // Long enough: the next game (a rematch) goes on where this one stops.
            let steps = [("resign", 0), ("rematch", 0), ("rematch", 1)];
            for (action, seat) in steps {
                let path = format!("/api/rooms/{room}/{action}");
                let (status, reply) = served
                    .call("POST", &path, &json!({"token": tokens[seat]}))
                    .unwrap();
                assert_eq!(status, 200, "{action}: {reply}");
            }
            game += 1;
        }
        served.kill();
    }
    eprintln!(
        "{cycles} kills in {:.1} s: {acked_total} moves acknowledged, all kept; {kills_mid_move} \
         kills came between a move's commit and its acknowledgement",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn the_pattern_never_makes_three_in_a_row() {
    let mut cells = std::collections::HashMap::new();
    for ply in 0..GAME_LENGTH {
        let (x, y) = cell_at(ply)
            .split_once(',')
            .map(|(x, y)| (x.parse::<i32>().unwrap(), y.parse::<i32>().unwrap()))
            .unwrap();
        assert!(
            cells.insert((x, y), ply % 2).is_none(),
            "ply {ply} repeats a cell"
        );
    }
    for (&(x, y), &player) in &cells {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let run = (0..3)
                .take_while(|i| cells.get(&(x + i * dx, y + i * dy)) == Some(&player))
                .count();
            assert!(run < 3, "three in a row from {x},{y}");
        }
    }
}
