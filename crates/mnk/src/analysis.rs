//! `mnk count` and `mnk solve`: the exact tools for small boards.

use std::time::Instant;

use clap::Args;
use mnk_core::{Board, Player, Position, Record, Rules, Win};
use mnk_engine::count::count_tree;
use mnk_engine::solver::{Solver, DEFAULT_TABLE_MB};
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
    /// Transposition table size in MB.
    #[arg(long, default_value_t = DEFAULT_TABLE_MB)]
    hash_mb: usize,
}

/// Runs `mnk count`.
pub fn count(args: &CountArgs) -> Result<(), String> {
    let rules = args.board.rules()?;
    let start = Instant::now();
    let counts = count_tree(&rules).map_err(|e| e.to_string())?;
    println!("{rules}");
    println!("{counts}");
    println!(
        "time                      {:.2} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
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
        return Err(format!("the game is already over: {:?}", pos.outcome()));
    }
    let mut solver = Solver::new(&rules, args.hash_mb).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let analysis = if args.all {
        solver.analyse(&pos, &Limits::none())
    } else {
        solver.solve(&pos, &Limits::none())
    }
    .map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let mover = pos.to_move();
    println!("{rules} after [{record}], {mover} to move");
    println!("value: {}", describe(analysis.value, mover, rules.first()));
    if let Some(best) = analysis.best {
        println!("best move: {best}");
    }
    if args.all {
        println!("moves ({mover} playing):");
        for (cell, value) in &analysis.moves {
            println!("  {cell:>4}  {value}");
        }
    }
    println!(
        "nodes: {}  time: {seconds:.3} s  ({:.0} nodes/s)",
        analysis.nodes,
        analysis.nodes as f64 / seconds.max(1e-9)
    );
    Ok(())
}
