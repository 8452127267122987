//! The fast renju checker against the slow reference (`mnk_core::renju::reference`) on random
//! positions: for every empty cell of every position both must give the same verdict.
//!
//! The positions are plausible renju positions on 15×15: black and white stones alternate in
//! number (black to move or white to move), scattered over a random square of the board dense
//! enough for threes, fours and their recursion to arise, with no five and no black overline on
//! the board (no game reaches those). `cargo test` checks 2,000 of them; the ignored test checks
//! 100,000 (run it with `--profile ci -- --ignored`).

use mnk_core::renju::{reference, ForbiddenMoves};
use mnk_core::{Cell, ForbiddenKind, Player, Position, Preset, DIRECTIONS};

/// SplitMix64: a small deterministic generator, so every run checks the same positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A plausible random position, or `None` when the draw is not one (a five or an overline).
fn random_position(rng: &mut Rng) -> Option<Position> {
    let side = 6 + rng.below(10) as i32; // a square of 6..=15 cells a side
    let x0 = rng.below((16 - side) as u64) as i32;
    let y0 = rng.below((16 - side) as u64) as i32;
    let cells = (side * side) as u64;
    // 15% to 65% of the square filled, at most 120 stones.
    let total = (cells * (15 + rng.below(51)) / 100).clamp(2, 120);
    let black = total.div_ceil(2) as usize;
    let white = if rng.below(2) == 0 { black } else { black - 1 };
    let mut free: Vec<Cell> = (0..side)
        .flat_map(|y| (0..side).map(move |x| Cell::new(x0 + x, y0 + y)))
        .collect();
    let mut take = |n: usize, rng: &mut Rng| -> Vec<Cell> {
        (0..n)
            .map(|_| free.swap_remove(rng.below(free.len() as u64) as usize))
            .collect()
    };
    let x = take(black, rng);
    let o = take(white, rng);
    let pos = Position::from_stones(Preset::Renju.rules(), &x, &o).ok()?;
    if pos.is_over() {
        return None;
    }
    // No black overline either: black can never have made one.
    let overline = x.iter().any(|&c| {
        DIRECTIONS
            .iter()
            .any(|&d| pos.run_through(c, Player::X, d).len() > 5)
    });
    (!overline).then_some(pos)
}

/// Whether a black stone lies within five cells of `cell` along one of its four lines.
fn black_nearby(pos: &Position, cell: Cell) -> bool {
    DIRECTIONS.iter().any(|&(dx, dy)| {
        (1..=5).any(|i| {
            [1, -1]
                .iter()
                .map(|&s| cell.offset(dx, dy, s * i))
                .any(|c| pos.rules().contains(c) && pos.stone(c) == Some(Player::X))
        })
    })
}

/// Checks `positions` random positions and returns how many forbidden cells of each kind
/// (double-three, double-four, overline) they held.
fn check(positions: usize, seed: u64) -> [usize; 3] {
    let mut rng = Rng(seed);
    let mut found = [0; 3];
    let mut checked = 0;
    while checked < positions {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        checked += 1;
        let mut slow_cells = Vec::new();
        for cell in pos.rules().cells().filter(|&c| pos.stone(c).is_none()) {
            let fast = pos.forbidden_kind(cell);
            // A forbidden shape through a cell needs black stones on its lines within five
            // cells (an overline of six reaches that far): elsewhere the answer is no, and the
            // reference need not be asked.
            if !black_nearby(&pos, cell) {
                assert_eq!(fast, None, "{cell} has no black stone in reach in\n{pos}");
                continue;
            }
            let slow = reference::forbidden_kind(&pos, cell);
            assert_eq!(
                fast, slow,
                "{cell}: fast {fast:?}, reference {slow:?} in\n{pos}"
            );
            if let Some(kind) = slow {
                slow_cells.push(cell);
                found[match kind {
                    ForbiddenKind::DoubleThree => 0,
                    ForbiddenKind::DoubleFour => 1,
                    ForbiddenKind::Overline => 2,
                }] += 1;
            }
        }
        assert_eq!(pos.forbidden_cells(), slow_cells, "in\n{pos}");
    }
    found
}

#[test]
fn the_searchers_checker_follows_stones_put_and_taken() {
    // Stones set one at a time on a checker built for the empty board (and some taken off
    // again) must give the same verdicts as the position the stones left.
    let mut rng = Rng(5);
    let mut checker = ForbiddenMoves::new(&Position::new(Preset::Renju.rules())).unwrap();
    let mut checked = 0;
    while checked < 300 {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        checked += 1;
        for (cell, player) in pos.stones() {
            checker.set(cell, Some(player));
        }
        for cell in pos.rules().cells() {
            assert_eq!(
                checker.kind(cell),
                pos.forbidden_kind(cell),
                "{cell} in\n{pos}"
            );
        }
        for (cell, _) in pos.stones() {
            checker.set(cell, None);
        }
        assert!(pos.rules().cells().all(|c| checker.kind(c).is_none()));
    }
    assert!(ForbiddenMoves::new(&Position::new(Preset::Gomoku15.rules())).is_none());
}

#[test]
fn fast_and_reference_agree_on_random_positions() {
    let found = check(2_000, 1);
    assert!(found.iter().all(|&n| n > 0), "{found:?}");
}

#[test]
#[ignore = "slow: 100,000 positions; run with --profile ci -- --ignored"]
fn fast_and_reference_agree_on_100_000_random_positions() {
    // Eight fixed chunks (so the positions do not depend on the machine), on as many threads as
    // the machine offers.
    const CHUNKS: u64 = 8;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let next = std::sync::atomic::AtomicU64::new(0);
    let found = std::sync::Mutex::new([0; 3]);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(CHUNKS) {
            scope.spawn(|| loop {
                let chunk = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if chunk >= CHUNKS {
                    break;
                }
                let counts = check(100_000 / CHUNKS as usize, 100 + chunk);
                let mut total = found.lock().unwrap();
                for (t, c) in total.iter_mut().zip(counts) {
                    *t += c;
                }
            });
        }
    });
    let found = found.into_inner().unwrap();
    println!(
        "forbidden cells found: double-three {}, double-four {}, overline {}",
        found[0], found[1], found[2]
    );
    assert!(found.iter().all(|&n| n > 1000), "{found:?}");
}
