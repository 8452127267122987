//! `mnk count` and `mnk solve`: the exact tools for small boards.

use std::time::Instant;

use clap::Args;
use mnk_core::{Board, Cell, Outcome, Player, Position, Record, Rules, Win};
use mnk_engine::count::{count_below, count_tree};
use mnk_engine::solver::{table_mb, Solver, DEFAULT_TABLE_MB, MAX_TABLE_MB};
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
const MAX_HASH_MB: u64 = MAX_TABLE_MB as u64;

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

/// The `--all` table: every move with its value, and the games and positions below it where
/// the tree below the position can be counted (else a line says why not).
fn moves_table(pos: &Position, moves: &[(Cell, Value)]) -> String {
    let start = Instant::now();
    let counts = count_below(pos, &Limits::none());
    let seconds = start.elapsed().as_secs_f64();
    let mut rows = vec![["move", "value", "games", "positions"].map(String::from)];
    for (cell, value) in moves {
        let below = counts
            .as_ref()
            .ok()
            .and_then(|c| c.moves.iter().find(|m| m.0 == *cell))
            .map(|m| m.1);
        rows.push([
            cell.to_string(),
            value.to_string(),
            below.map_or_else(String::new, |b| b.games.to_string()),
            below.map_or_else(String::new, |b| b.positions.to_string()),
        ]);
    }
    let columns = if counts.is_ok() { 4 } else { 2 };
    let width = |c: usize| rows.iter().map(|r| r[c].len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns).map(width).collect();
    let mut table = String::new();
    for row in &rows {
        let mut line = format!(
            "  {:>w$}  {:<v$}",
            row[0],
            row[1],
            w = widths[0],
            v = widths[1]
        );
        for c in 2..columns {
            line += &format!("  {:>w$}", row[c], w = widths[c]);
        }
        table += line.trim_end();
        table.push('\n');
    }
    match counts {
        Ok(_) => {
            table += "games: complete games after the move (each ends at the first win or on a full board)\n";
            table += &format!(
                "positions: distinct positions reachable after it, itself included (counted in {seconds:.3} s)\n"
            );
        }
        Err(e) => table += &format!("games and positions below each move not counted: {e}\n"),
    }
    table
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
        report += &moves_table(&pos, &analysis.moves);
    }
    report += &format!(
        "nodes: {}  time: {seconds:.3} s  ({:.0} nodes/s)\n",
        analysis.nodes,
        analysis.nodes as f64 / seconds.max(1e-9)
    );
    emit(&report)
}
