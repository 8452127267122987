//! `mnk count` and `mnk solve`: the exact tools for small boards.

use std::time::Instant;

use clap::Args;
use mnk_core::{Board, Outcome, Player, Position, Record, Rules, Win};
use mnk_engine::count::count_tree;
use mnk_engine::solver::{Solver, DEFAULT_TABLE_MB, MAX_SOLVE_CELLS};
use mnk_engine::{Limits, Value};

/// The board of a small-board command.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// Board width (columns).
    width: u32,
    /// Board height (rows).
    height: u32,
    /// Stones in a row that win.
    k: u32,
    /// Exactly k in a row wins (longer lines do not); the default is k or more.
    #[arg(long)]
    exact: bool,
    /// O moves first instead of X.
    #[arg(long)]
    o_first: bool,
}

impl BoardArgs {
    fn rules(&self) -> Result<Rules, String> {
        let win = if self.exact {
            Win::Exact
        } else {
            Win::Freestyle
        };
        let first = if self.o_first { Player::O } else { Player::X };
        Rules::new(
            Board::Bounded {
                width: self.width,
                height: self.height,
            },
            self.k,
            win,
            first,
        )
        .map_err(|e| e.to_string())
    }
}

/// Arguments of `mnk count`.
#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    board: BoardArgs,
}

/// Arguments of `mnk solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    board: BoardArgs,
    /// Moves already played, as a record: "b2 a1 c3".
    #[arg(long, default_value = "")]
    moves: String,
    /// Also give the exact value of every legal move.
    #[arg(long)]
    all: bool,
    /// Transposition table size in MB, 1 to 1024; a small board gets no more than it can fill
    /// (tic-tac-toe takes 1 MB whatever is asked).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_TABLE_MB,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_HASH_MB))]
    hash_mb: usize,
}

/// The largest solver table `--hash-mb` takes, in MB.
const MAX_HASH_MB: u64 = 1024;

/// Bytes of solver table worth having per position: an entry is 24 bytes and a bucket holds two,
/// so with two entries' room per position they rarely push each other out.
const TABLE_BYTES_PER_POSITION: u128 = 48;

/// How many positions a board of `cells` cells can hold with the first player's stones level
/// with the second's or one more: the sum over n of C(cells, n) · C(n, ⌈n/2⌉). It counts
/// positions past a win too, so it bounds what the solver can meet from above.
fn positions_bound(cells: u32) -> u128 {
    let choose = |n: u128, k: u128| (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1));
    let cells = u128::from(cells);
    (0..=cells)
        .map(|n| choose(cells, n).saturating_mul(choose(n, n.div_ceil(2))))
        .fold(0u128, u128::saturating_add)
}

/// The table size for `rules`: what was asked, but no more than every position the board can
/// hold would fill (a larger table only costs memory and the time to clear it); at least 1 MB.
fn table_mb(rules: &Rules, asked_mb: usize) -> usize {
    // The solver refuses larger boards anyway (and their counts would overflow).
    let Some(cells) = rules.cell_count().filter(|&n| n <= MAX_SOLVE_CELLS) else {
        return asked_mb;
    };
    let bytes = positions_bound(cells as u32).saturating_mul(TABLE_BYTES_PER_POSITION);
    let needed_mb = bytes.div_ceil(1 << 20).max(1);
    usize::try_from(needed_mb).map_or(asked_mb, |needed| asked_mb.min(needed))
}

/// How a finished game ended, in words: "X won with a1 a2 a3", or "drawn: the board is full".
fn ending(pos: &Position) -> String {
    match pos.outcome() {
        Outcome::Win { winner, line } => {
            let cells: Vec<String> = line.iter().map(|&c| pos.rules().cell_name(c)).collect();
            format!("{winner} won with {}", cells.join(" "))
        }
        Outcome::Draw => "drawn: the board is full".into(),
        Outcome::Ongoing => "it goes on".into(),
    }
}

/// Runs `mnk count`.
pub fn count(args: &CountArgs) -> Result<(), String> {
    let rules = args.board.rules()?;
    let start = Instant::now();
    let counts = count_tree(&rules).map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    emit(&format!(
        "{rules}\n{counts}\ntime                      {seconds:.2} s\n"
    ))
}

/// Writes a command's report to standard output. A reader that stops early (`| head`) closes
/// the pipe: that ends the report quietly, it is not an error.
fn emit(report: &str) -> Result<(), String> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(report.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the report: {e}"))
        }
        _ => Ok(()),
    }
}

/// Who the value favours, in words that do not depend on whose turn it is.
fn describe(value: Value, mover: Player, first: Player) -> String {
    let who = |p: Player| {
        if p == first {
            "first player"
        } else {
            "second player"
        }
    };
    match value {
        Value::Win(n) => format!("{} ({mover}) wins in {n} plies", who(mover)),
        Value::Loss(n) => format!(
            "{} ({}) wins in {n} plies",
            who(mover.opponent()),
            mover.opponent()
        ),
        Value::Draw => "draw".to_string(),
        Value::Eval(e) => format!("unproven ({e:+})"),
    }
}

/// Runs `mnk solve`.
pub fn solve(args: &SolveArgs) -> Result<(), String> {
    let rules = args.board.rules()?;
    let record: Record = args.moves.parse().map_err(|e| format!("--moves: {e}"))?;
    let pos = Position::from_moves(rules, &record.0)
        .map_err(|(i, e)| format!("--moves: move {} ({}): {e}", i + 1, record.0[i]))?;
    if pos.is_over() {
        return Err(format!("the game is already over: {}", ending(&pos)));
    }
    let mut solver =
        Solver::new(&rules, table_mb(&rules, args.hash_mb)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let analysis = if args.all {
        solver.analyse(&pos, &Limits::none())
    } else {
        solver.solve(&pos, &Limits::none())
    }
    .map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let mover = pos.to_move();
    let mut report = format!(
        "{rules} after [{record}], {mover} to move\nvalue: {}\n",
        describe(analysis.value, mover, rules.first())
    );
    if let Some(best) = analysis.best {
        report += &format!("best move: {best}\n");
    }
    if args.all {
        report += &format!("moves ({mover} playing):\n");
        for (cell, value) in &analysis.moves {
            report += &format!("  {cell:>4}  {value}\n");
        }
    }
    report += &format!(
        "nodes: {}  time: {seconds:.3} s  ({:.0} nodes/s)\n",
        analysis.nodes,
        analysis.nodes as f64 / seconds.max(1e-9)
    );
    emit(&report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_bound_counts_balanced_placements() {
        // Tic-tac-toe: 6046 placements with X level or one ahead (5478 of them legal positions).
        assert_eq!(positions_bound(9), 6046);
        assert_eq!(positions_bound(0), 1);
        assert!(positions_bound(36) > 1 << 50);
    }

    #[test]
    fn small_boards_get_small_tables() {
        let rules = |w, h, k| Rules::bounded(w, h, k).unwrap();
        assert_eq!(table_mb(&rules(3, 3, 3), 1024), 1);
        assert_eq!(table_mb(&rules(4, 3, 3), 1024), 7);
        assert_eq!(table_mb(&rules(4, 4, 4), 1024), 466);
        assert_eq!(table_mb(&rules(6, 6, 5), 1024), 1024);
        assert_eq!(table_mb(&rules(6, 6, 5), 64), 64);
    }
}
