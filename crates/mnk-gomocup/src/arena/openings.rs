//! The positions games start from: read from a file, or generated from a seed.
//!
//! A file holds one opening per line as a game record in mnk notation (`h8 i9 h10`); empty lines
//! and lines starting with `#` are skipped. Generated openings place a few stones at random near
//! the centre (three on boards where five fits with room, fewer on small boards), keep only
//! positions the top level judges close to level after a fixed node-limited search (so the set is
//! the same on every machine; on boards of k < 5, where the first player usually wins outright,
//! this check is skipped), and never repeat a position. Each opening is played twice, once with
//! each player taking the first side.
//!
//! Level has to be judged with care: the search's evaluation swings between odd and even depths,
//! so the check takes the mean of the last two iterations (`opening::steady_choice`); and three
//! stones packed within two cells of the centre all favour the first player (white, to move,
//! only evens the count), so the stones spread over three cells each way. Measured with level 6
//! against itself, 40 games at 100 ms on 15×15 freestyle: X won 19 and O 21 from these openings;
//! 25 and 14 from the earlier ones (two cells, a 4,000-node search's last value within 250); 14
//! and 25 within two cells and a steady value within 100; 9 and 31 within four cells.

use std::collections::HashSet;
use std::path::Path;

use mnk_core::{Cell, Position, Record, Rules};
use mnk_engine::chance::expected;
use mnk_engine::level::Level;
use mnk_engine::opening::steady_choice;
use mnk_engine::{Bot, Limits, Rng, Value};

use super::MatchError;

/// Nodes the balance check may search per candidate opening.
pub const BALANCE_NODES: u64 = 20_000;
/// A generated opening is kept when the side to move's expected result (its win chance,
/// [`mnk_engine::chance`]) is within this of ½. (A margin of evaluation points meant nothing
/// once evaluations ran to thousands: 60 points, ½ ± 0.005, turned away nearly every
/// candidate, and each opening cost its 60 attempts.)
pub const BALANCE_MARGIN: f64 = 0.1;
/// Candidates tried per opening before the last one is taken as it is.
pub const ATTEMPTS: usize = 60;
/// How far from the centre, each way, generated stones may stand.
const SPREAD: i32 = 3;

/// Reads openings from `path` and checks each against `rules`.
pub fn from_file(path: &Path, rules: &Rules) -> Result<Vec<Vec<Cell>>, MatchError> {
    let text = std::fs::read_to_string(path).map_err(|e| MatchError::Openings {
        path: path.display().to_string(),
        line: 0,
        reason: e.to_string(),
    })?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| MatchError::Openings {
            path: path.display().to_string(),
            line: i + 1,
            reason,
        };
        let record: Record = line.parse().map_err(|e| bad(format!("{e}")))?;
        let pos = Position::from_moves(*rules, &record.0)
            .map_err(|(n, e)| bad(format!("move {} ({}): {e}", n + 1, record.0[n])))?;
        if pos.is_over() {
            return Err(bad("the game is already over".into()));
        }
        openings.push(record.0);
    }
    if openings.is_empty() {
        return Err(MatchError::Openings {
            path: path.display().to_string(),
            line: 0,
            reason: "the file holds no opening".into(),
        });
    }
    Ok(openings)
}

/// How many stones a generated opening has on this board.
fn plies_for(rules: &Rules) -> usize {
    match rules.cell_count() {
        Some(n) if n < 16 => 1,
        Some(n) if n < 64 => 2,
        _ => 3,
    }
}

/// The centre of the board (the first stone's cell on the unbounded board).
fn centre(rules: &Rules) -> Cell {
    match rules.size() {
        Some((w, h)) => Cell::new((w / 2) as i32, (h / 2) as i32),
        None => Cell::new(0, 0),
    }
}

/// One random opening: `plies` distinct cells within [`SPREAD`] of the centre (anywhere on
/// boards so small that the centre area is the board).
fn candidate(rules: &Rules, plies: usize, rng: &mut Rng) -> Option<Position> {
    let c = centre(rules);
    let area: Vec<Cell> = (-SPREAD..=SPREAD)
        .flat_map(|dy| (-SPREAD..=SPREAD).map(move |dx| Cell::new(c.x + dx, c.y + dy)))
        .filter(|&cell| rules.contains(cell))
        .collect();
    let mut pos = Position::new(*rules);
    for _ in 0..plies {
        let free: Vec<Cell> = area.iter().copied().filter(|&x| pos.is_free(x)).collect();
        let cell = rng.pick(&free)?;
        pos.try_play(cell).ok()?;
        if pos.is_over() {
            return None;
        }
    }
    Some(pos)
}

/// Whether the top level (`judge`) sees the opening as close to level for the side to move.
fn balanced(judge: &mut dyn Bot, pos: &Position) -> bool {
    match steady_choice(judge, pos, &Limits::nodes(BALANCE_NODES), &mut |_| {}) {
        Ok(choice) => match choice.value {
            Some(value @ Value::Eval(_)) => {
                (expected(pos.rules(), value) - 0.5).abs() <= BALANCE_MARGIN
            }
            Some(Value::Draw) | None => true,
            Some(_) => false,
        },
        Err(_) => false,
    }
}

/// `count` different openings for `rules`, the same for the same seed.
#[must_use]
pub fn generate(rules: &Rules, count: usize, seed: u64) -> Vec<Vec<Cell>> {
    let plies = plies_for(rules);
    let mut rng = Rng::seeded(seed ^ 0x6f70_656e_696e_6773);
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    // One judge for the whole set: its tables carry over from one check to the next, the same
    // way on every run.
    // Below five in a row the first player usually wins outright: no opening is level, so none
    // is judged.
    let mut judge = (rules.k() >= 5).then(|| Level::top().bot(rules, 0));
    while openings.len() < count {
        let mut chosen: Option<Position> = None;
        for _ in 0..ATTEMPTS {
            let Some(pos) = candidate(rules, plies, &mut rng) else {
                continue;
            };
            let fresh = !seen.contains(&pos.hash());
            let level = match judge.as_mut() {
                Some(judge) => balanced(judge.as_mut(), &pos),
                None => true,
            };
            if fresh && level {
                chosen = Some(pos);
                break;
            }
            if fresh || chosen.is_none() {
                chosen = Some(pos);
            }
        }
        let Some(pos) = chosen else {
            // No opening fits this board (it cannot happen on a board with a free cell).
            break;
        };
        seen.insert(pos.hash());
        openings.push(pos.history().to_vec());
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_openings_are_reproducible_distinct_and_playable() {
        let rules = Rules::bounded(15, 15, 5).unwrap();
        let a = generate(&rules, 6, 42);
        let b = generate(&rules, 6, 42);
        assert_eq!(a, b);
        assert_eq!(a.len(), 6);
        let distinct: HashSet<_> = a.iter().collect();
        assert_eq!(distinct.len(), 6);
        for o in &a {
            assert_eq!(o.len(), 3);
            let pos = Position::from_moves(rules, o).unwrap();
            assert!(!pos.is_over());
            for c in o {
                assert!((c.x - 7).abs() <= SPREAD && (c.y - 7).abs() <= SPREAD);
            }
        }
        assert_ne!(generate(&rules, 6, 43), a);
    }

    #[test]
    fn small_boards_get_short_openings() {
        let ttt = Rules::bounded(3, 3, 3).unwrap();
        let o = generate(&ttt, 4, 1);
        assert_eq!(o.len(), 4);
        assert!(o.iter().all(|o| o.len() == 1));
        let unbounded: Rules = "infx5".parse().unwrap();
        assert!(generate(&unbounded, 2, 1).iter().all(|o| o.len() == 3));
    }

    #[test]
    fn opening_files_are_checked() {
        let dir = std::env::temp_dir().join(format!("mnk-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rules = Rules::bounded(15, 15, 5).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "# two openings\nh8 i9 h10\n\n7,7 8,8\n").unwrap();
        let o = from_file(&good, &rules).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1], vec![Cell::new(7, 7), Cell::new(8, 8)]);
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "h8 i9\nh8 h8\n").unwrap();
        let e = from_file(&bad, &rules).unwrap_err();
        assert!(matches!(e, MatchError::Openings { line: 2, .. }), "{e}");
        std::fs::write(&bad, "z99\n").unwrap();
        assert!(from_file(&bad, &rules).is_err());
        assert!(from_file(&dir.join("missing.txt"), &rules).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
