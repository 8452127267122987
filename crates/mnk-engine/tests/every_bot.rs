//! Every bot and level, on every kind of rules (k from 1 to 8, bounded and unbounded, freestyle and
//! exactly-k), from random positions — near the coordinate limits of the board without borders
//! too — and with zero or tiny budgets: each either answers a legal move or refuses with a typed
//! error. Never a panic, never a cell the referee refuses.

mod common;

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use mnk_core::{Cell, Position, Rules, MAX_COORD};
use mnk_engine::roster::{create, BotSpec, BOTS};
use mnk_engine::{BotError, Limits, Rng};

fn specs() -> Vec<BotSpec> {
    let named = BOTS.iter().map(|b| b.id.to_string());
    let levels = (1..=6).map(|n| format!("level{n}"));
    named
        .chain(["alphabeta:4".to_string()])
        .chain(levels)
        .map(|s| s.parse().expect("known bot"))
        .collect()
}

fn rule_sets() -> Vec<Rules> {
    let mut all = Vec::new();
    for k in 1..=8 {
        for board in ["infx", "15x15x", "7x7x", "3x3x", "9x4x", "1x12x"] {
            for suffix in ["", ",exact", ",o-first"] {
                if let Ok(rules) = format!("{board}{k}{suffix}").parse::<Rules>() {
                    all.push(rules);
                }
            }
        }
    }
    all
}

/// A random unfinished position of up to `max_plies` stones, its first stone at `start` (the
/// unbounded board's corners test the coordinate limit).
fn random_position(rules: Rules, start: Cell, max_plies: usize, rng: &mut Rng) -> Position {
    let mut pos = Position::new(rules);
    if !rules.is_bounded() {
        pos.play(start);
        if pos.is_over() {
            pos.undo();
            return pos;
        }
    }
    let plies = rng.below(max_plies + 1);
    while pos.ply() < plies {
        let moves = pos.legal_moves();
        let Some(cell) = rng.pick(&moves) else { break };
        pos.play(cell);
        if pos.is_over() {
            pos.undo();
            break;
        }
    }
    pos
}

/// Zero time, one node (searches round it up to their first check) and a short deadline.
fn budgets() -> [Limits; 3] {
    [
        Limits::time(Duration::ZERO),
        Limits::nodes(1),
        Limits::time(Duration::from_millis(5)),
    ]
}

thread_local! {
    /// Where the last panic on this thread happened, recorded by [`quiet_panics`].
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Replaces the panic report (a backtrace per failure) by a note of its message and place.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = format!("{message} at {place}"));
    }));
}

/// Runs `spec` on `pos` under `limits`; a description of what went wrong, if anything did.
fn check(spec: &BotSpec, pos: &Position, limits: &Limits, seed: u64) -> Option<String> {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut bot = match create(spec, pos.rules(), seed) {
            Ok(bot) => bot,
            Err(BotError::Unsupported(_)) => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        match bot.choose(pos, limits) {
            Ok(choice) => Ok(Some(choice.cell)),
            // Only the perfect player may run out of time (it must prove its move).
            Err(BotError::OutOfTime { .. }) if bot.id() == "perfect" => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }));
    let record: Vec<String> = pos
        .history()
        .iter()
        .map(|c| format!("{},{}", c.x, c.y))
        .collect();
    let context = format!("{spec} on {} after [{}]", pos.rules(), record.join(" "));
    match outcome {
        Err(_) => Some(format!(
            "{context}: panicked: {}",
            LAST_PANIC.with(|p| p.borrow().clone())
        )),
        Ok(Err(e)) => Some(format!("{context}: refused: {e}")),
        Ok(Ok(None)) => None,
        Ok(Ok(Some(cell))) => pos
            .check_move(cell)
            .err()
            .map(|e| format!("{context}: chose {},{}: {e}", cell.x, cell.y)),
    }
}

/// Every bot on `positions` random positions of each rule set that `wanted` keeps, the budgets
/// taking turns. The positions are drawn in order first (the same on every run); the bots then
/// answer them on every thread, and the failures come back in that order.
fn sweep(
    wanted: impl Fn(&Rules) -> bool,
    starts: &[Cell],
    positions: usize,
    budgets: &[Limits],
) -> Vec<String> {
    quiet_panics();
    let specs = specs();
    let mut rng = Rng::seeded(13);
    let mut jobs = Vec::new();
    for rules in rule_sets().into_iter().filter(|r| wanted(r)) {
        for i in 0..positions {
            let start = starts[i % starts.len()];
            let pos = random_position(rules, start, 10, &mut rng);
            jobs.push((pos, &budgets[i % budgets.len()], i as u64));
        }
    }
    let found = common::on_all_threads(&jobs, |(pos, limits, seed)| {
        specs
            .iter()
            .filter_map(|spec| check(spec, pos, limits, *seed))
            .collect::<Vec<_>>()
    });
    found.into_iter().flatten().collect()
}

fn report(failures: &[String]) {
    // Back to the default hook, so that the failure below is reported.
    drop(std::panic::take_hook());
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn every_bot_answers_legally_on_every_rule_set() {
    report(&sweep(|_| true, &[Cell::new(0, 0)], 4, &budgets()));
}

#[test]
fn every_bot_answers_legally_on_short_lines_without_borders() {
    // Where the threat search once counted winning cells past the edge of its frame.
    let short = |r: &Rules| !r.is_bounded() && (3..=4).contains(&r.k());
    let budgets = [
        Limits::nodes(2_000),
        Limits::nodes(20_000),
        Limits::time(Duration::from_millis(10)),
    ];
    report(&sweep(short, &[Cell::new(0, 0)], 16, &budgets));
}

#[test]
fn every_bot_answers_legally_near_the_coordinate_limits() {
    let m = MAX_COORD;
    let starts = [
        Cell::new(m, m),
        Cell::new(-m, -m),
        Cell::new(m - 1, -m + 2),
        Cell::new(-m + 3, m),
        Cell::new(m, 0),
        Cell::new(0, -m),
    ];
    report(&sweep(|r| !r.is_bounded(), &starts, 18, &budgets()));
}
