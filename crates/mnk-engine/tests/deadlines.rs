//! Deadlines and stop flags on crowded boards: the board without borders with 1,024 stones (the
//! most a game on it may hold), spread far apart or packed without a winner, and a 32×32 board
//! filled as far as it goes without one. Every bot and level must answer a legal move at once
//! when stopped, and within its deadline when timed.
//!
//! Nothing here asserts a time (a loaded machine would make such a test flaky): the timing
//! figures come from the ignored `timing_on_crowded_boards`, run by hand with
//! `cargo test --profile ci -p mnk-engine --test deadlines -- --ignored --nocapture`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mnk_core::{Cell, Position, Rules, DIRECTIONS};
use mnk_engine::roster::{create, BotSpec, BOTS};
use mnk_engine::weights::{attack_weights, attack_weights_within, cell_weight, CHECK_EVERY_CELLS};
use mnk_engine::{BotError, Clock, Deadline, Limits, Rng};

/// The most stones a game on the board without borders may hold (the server's limit).
const MOST_STONES: usize = 1024;

/// Every bot that plays large boards, named or by level.
fn specs() -> Vec<BotSpec> {
    [
        "alphabeta",
        "alphabeta:4",
        "weights",
        "engine",
        "level1",
        "level2",
        "level3",
        "level4",
        "level5",
        "level6",
    ]
    .iter()
    .map(|s| s.parse().expect("a known bot"))
    .collect()
}

/// `n` stones on a square grid with `spacing` cells between rows and columns, from the corner
/// at `origin`, coloured like a chessboard (X on the even squares): no two stones touch, so
/// nobody has a line.
fn grid(rules: &str, n: usize, spacing: i32, origin: Cell) -> Position {
    let rules: Rules = rules.parse().expect("rules");
    let side = (n as f64).sqrt().ceil() as i32;
    let at = |i: i32| {
        Cell::new(
            origin.x + (i % side) * spacing,
            origin.y + (i / side) * spacing,
        )
    };
    let square = |i: &i32| (i % side + i / side) % 2;
    let even: Vec<Cell> = (0..n as i32).filter(|i| square(i) == 0).map(at).collect();
    let odd: Vec<Cell> = (0..n as i32).filter(|i| square(i) == 1).map(at).collect();
    let cells: Vec<Cell> = even.iter().zip(&odd).flat_map(|(&x, &o)| [x, o]).collect();
    Position::from_moves(rules, &cells).expect("a grid of lone stones")
}

/// Up to `n` stones at random cells of the `size`×`size` square at `origin`. With `quiet`, a
/// stone is placed only where it leaves its side no cell to complete a line (nobody has a four,
/// so nothing is decided and the engines search in full); otherwise only where it does not end
/// the game.
fn scattered(rules: &str, n: usize, size: i32, origin: Cell, seed: u64, quiet: bool) -> Position {
    let rules: Rules = rules.parse().expect("rules");
    let mut pos = Position::new(rules);
    let mut cells: Vec<Cell> = (0..size * size)
        .map(|i| Cell::new(origin.x + i % size, origin.y + i / size))
        .collect();
    let mut rng = Rng::seeded(seed);
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.below(i + 1));
    }
    let k = rules.k() as i32;
    // Two passes: a cell refused to one side may suit the other later.
    for _ in 0..2 {
        for &c in &cells {
            if pos.ply() >= n {
                return pos;
            }
            let Some(player) = pos
                .try_play(c)
                .ok()
                .map(|()| pos.stone(c).expect("just played"))
            else {
                continue;
            };
            let four = |pos: &Position| {
                DIRECTIONS.iter().any(|&(dx, dy)| {
                    (1 - k..k).any(|i| {
                        let e = c.offset(dx, dy, i);
                        pos.wins_at(e, player)
                    })
                })
            };
            if pos.is_over() || (quiet && four(&pos)) {
                pos.undo();
            }
        }
    }
    pos
}

/// The crowded positions, by name.
fn crowded() -> Vec<(&'static str, Position)> {
    let o = Cell::new(0, 0);
    vec![
        ("infx5 grid, 2 apart", grid("infx5", MOST_STONES, 2, o)),
        ("infx5 grid, 3 apart", grid("infx5", MOST_STONES, 3, o)),
        ("infx5 grid, 5 apart", grid("infx5", MOST_STONES, 5, o)),
        (
            "infx5 grid, 1000 apart",
            grid("infx5", MOST_STONES, 1000, Cell::new(-16_000, -16_000)),
        ),
        (
            "infx5 quiet 48x48",
            scattered("infx5", MOST_STONES, 48, o, 4, true),
        ),
        (
            "infx5 quiet 64x64",
            scattered("infx5", MOST_STONES, 64, o, 4, true),
        ),
        (
            "infx5 quiet 100x100",
            scattered("infx5", MOST_STONES, 100, o, 5, true),
        ),
        (
            "infx5 quiet 400x400",
            scattered("infx5", MOST_STONES, 400, o, 6, true),
        ),
        (
            "infx5 packed 40x40",
            scattered("infx5", MOST_STONES, 40, o, 1, false),
        ),
        ("infx4 grid, 3 apart", grid("infx4", MOST_STONES, 3, o)),
        (
            "infx4 quiet 64x64",
            scattered("infx4", MOST_STONES, 64, o, 7, true),
        ),
        (
            "infx4 quiet 100x100",
            scattered("infx4", MOST_STONES, 100, o, 7, true),
        ),
        ("32x32x5 grid, 2 apart", grid("32x32x5", 256, 2, o)),
        (
            "32x32x5 quiet",
            scattered("32x32x5", MOST_STONES, 32, o, 8, true),
        ),
        (
            "32x32x5 packed",
            scattered("32x32x5", MOST_STONES, 32, o, 3, false),
        ),
    ]
}

fn limits_with_stop(raised: bool) -> Limits {
    Limits {
        stop: Some(Arc::new(AtomicBool::new(raised))),
        ..Limits::default()
    }
}

fn stopped_limits() -> [(&'static str, Limits); 2] {
    [
        ("a raised stop flag", limits_with_stop(true)),
        ("a past deadline", Limits::time(Duration::ZERO)),
    ]
}

#[test]
fn every_bot_answers_a_legal_move_when_stopped_at_once() {
    let specs: Vec<BotSpec> = BOTS
        .iter()
        .map(|b| b.id.parse().expect("a known bot"))
        .chain(specs())
        .collect();
    for (name, pos) in crowded() {
        for (why, limits) in stopped_limits() {
            for spec in &specs {
                let mut bot = match create(spec, pos.rules(), 3) {
                    Ok(bot) => bot,
                    Err(BotError::Unsupported(_)) => continue,
                    Err(e) => panic!("{spec}: {e}"),
                };
                let choice = bot
                    .choose(&pos, &limits)
                    .unwrap_or_else(|e| panic!("{spec} on {name} with {why}: {e}"));
                assert!(
                    pos.check_move(choice.cell).is_ok(),
                    "{spec} on {name} with {why} chose {:?}",
                    choice.cell
                );
            }
        }
    }
}

#[test]
fn the_heat_map_runs_out_of_time_when_stopped() {
    for (name, pos) in crowded() {
        for (why, limits) in stopped_limits() {
            match attack_weights_within(&pos, &limits) {
                Err(BotError::OutOfTime { nodes }) => assert!(
                    (1..=CHECK_EVERY_CELLS as u64).contains(&nodes),
                    "{name} with {why}: stopped after {nodes} cells"
                ),
                other => panic!("{name} with {why}: {other:?}"),
            }
        }
    }
}

#[test]
fn the_heat_map_within_no_limits_is_the_whole_map() {
    for (name, pos) in crowded().into_iter().step_by(3) {
        // The plain way: every cell near the stones, weighed and sorted.
        let mut expected: Vec<(Cell, f64)> = pos
            .cells_near_stones(2)
            .into_iter()
            .map(|c| (c, cell_weight(&pos, c)))
            .collect();
        expected.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then((a.0.y, a.0.x).cmp(&(b.0.y, b.0.x)))
        });
        assert_eq!(attack_weights(&pos), expected, "{name}");
        // A node or depth limit does not stop the map: it has no nodes.
        let limits = Limits {
            max_nodes: Some(1),
            max_depth: Some(1),
            ..Limits::default()
        };
        assert_eq!(
            attack_weights_within(&pos, &limits).as_ref(),
            Ok(&expected),
            "{name}"
        );
    }
}

#[test]
fn stopped_weight_bots_choose_near_the_newest_stones() {
    // Stones five apart: the first cells weighed are those around the last two stones.
    let pos = grid("infx5", MOST_STONES, 5, Cell::new(0, 0));
    let recent = &pos.history()[pos.ply() - 2..];
    let near_recent = |c: Cell| {
        recent
            .iter()
            .any(|s| (s.x - c.x).abs() <= 2 && (s.y - c.y).abs() <= 2)
    };
    for spec in ["weights", "level1", "level2"] {
        for seed in 0..8 {
            let spec: BotSpec = spec.parse().expect("a known bot");
            let mut bot = create(&spec, pos.rules(), seed).expect("plays infx5");
            let cell = bot
                .choose(&pos, &limits_with_stop(true))
                .expect("a move")
                .cell;
            assert!(near_recent(cell), "{spec} seed {seed} chose {cell:?}");
        }
    }
}

#[test]
fn a_node_limit_gives_the_same_answer_every_time() {
    let positions = [
        (
            "infx5 grid, 5 apart",
            grid("infx5", MOST_STONES, 5, Cell::new(0, 0)),
        ),
        (
            "infx4 quiet 64x64",
            scattered("infx4", MOST_STONES, 64, Cell::new(0, 0), 7, true),
        ),
        (
            "32x32x5 quiet",
            scattered("32x32x5", MOST_STONES, 32, Cell::new(0, 0), 8, true),
        ),
    ];
    for (name, pos) in positions {
        for spec in specs() {
            // The line counter evaluates every window at every leaf: few nodes are plenty.
            let nodes = if spec.to_string().contains("alphabeta") || spec.to_string() == "level3" {
                40
            } else {
                3_000
            };
            let run = || {
                let mut bot = create(&spec, pos.rules(), 11).expect("plays these rules");
                bot.choose(&pos, &Limits::nodes(nodes)).expect("a move")
            };
            let first = run();
            assert!(pos.check_move(first.cell).is_ok(), "{spec} on {name}");
            assert_eq!(run(), first, "{spec} on {name}");
        }
    }
}

#[test]
fn the_capped_levels_play_by_their_caps_not_by_the_clock() {
    // A game's second move, then its fourth: the first search of a bot, then one after it,
    // each with a deadline far beyond the caps, must choose as a fresh bot does without any.
    // (The time plan and a table kept from the move before once made them differ: a busy
    // device played another move than a quiet one, and than the explanation's replay.)
    let rules: Rules = "15x15x5".parse().unwrap();
    let mut earlier = Position::new(rules);
    earlier.play(Cell::new(7, 7));
    let mut later = earlier.clone();
    for cell in [Cell::new(8, 8), Cell::new(8, 6)] {
        later.play(cell);
    }
    for spec in ["level4", "level5"] {
        let spec: BotSpec = spec.parse().unwrap();
        let fresh = |pos: &Position| {
            let mut bot = create(&spec, &rules, 3).unwrap();
            bot.choose(pos, &Limits::none()).unwrap()
        };
        let mut timed = create(&spec, &rules, 3).unwrap();
        let far = || Limits::time(Duration::from_secs(60));
        assert_eq!(
            timed.choose(&earlier, &far()).unwrap(),
            fresh(&earlier),
            "{spec}"
        );
        assert_eq!(
            timed.choose(&later, &far()).unwrap(),
            fresh(&later),
            "{spec}"
        );
    }
}

/// The system clock, noting the longest stretch between two readings: a loop that does not
/// check the limits shows up as a long gap.
struct WatchedClock {
    start: Instant,
    /// Microseconds at the last reading, and the longest gap between readings.
    last_us: AtomicU64,
    longest_gap_us: AtomicU64,
    readings: AtomicU64,
}

impl WatchedClock {
    fn new() -> WatchedClock {
        WatchedClock {
            start: Instant::now(),
            last_us: AtomicU64::new(0),
            longest_gap_us: AtomicU64::new(0),
            readings: AtomicU64::new(0),
        }
    }

    fn micros(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
}

impl Clock for WatchedClock {
    fn now_ms(&self) -> u64 {
        let now = self.micros();
        let last = self.last_us.swap(now, Ordering::Relaxed);
        self.longest_gap_us
            .fetch_max(now.saturating_sub(last), Ordering::Relaxed);
        self.readings.fetch_add(1, Ordering::Relaxed);
        now / 1000
    }
}

#[test]
#[ignore = "prints timings; run by hand"]
fn timing_on_crowded_boards() {
    let specs = specs();
    println!("budget 0 ms | budget 100 ms: time, clock readings, longest gap, after the last | stop flag raised");
    for (name, pos) in crowded() {
        println!("{name}: {} stones, {} to move", pos.ply(), pos.to_move());
        for spec in &specs {
            let Ok(mut bot) = create(spec, pos.rules(), 7) else {
                continue;
            };
            let mut line = format!("  {:<12}", spec.to_string());
            for budget in [0, 100] {
                let clock = Arc::new(WatchedClock::new());
                let limits = Limits {
                    deadline: Some(Deadline::after(
                        Arc::clone(&clock) as Arc<dyn Clock>,
                        Duration::from_millis(budget),
                    )),
                    ..Limits::default()
                };
                let choice = bot.choose(&pos, &limits).expect("a move");
                let total = clock.micros();
                assert!(pos.check_move(choice.cell).is_ok(), "{spec} on {name}");
                let gap = clock.longest_gap_us.load(Ordering::Relaxed);
                let tail = total - clock.last_us.load(Ordering::Relaxed);
                let readings = clock.readings.load(Ordering::Relaxed);
                line += &format!(
                    " | {:>5} ms {readings:>5}x gap {:>4} tail {:>4}",
                    total / 1000,
                    gap.max(tail) / 1000,
                    tail / 1000
                );
            }
            let start = Instant::now();
            let choice = bot.choose(&pos, &limits_with_stop(true)).expect("a move");
            assert!(pos.check_move(choice.cell).is_ok(), "{spec} on {name}");
            line += &format!(" | {:>5} ms", start.elapsed().as_millis());
            println!("{line}");
        }
    }
}
