//! `mnk count` and `mnk solve`: the exact tools for small boards.

use std::time::{Duration, Instant};

use clap::Args;
use mnk_core::{Board, Cell, Outcome, Player, Position, Record, Rules, Win};
use mnk_engine::count::{count_below, count_tree};
use mnk_engine::solver::book::Book;
use mnk_engine::solver::known::known_result;
use mnk_engine::solver::{
    table_mb, Analysis, ProofStats, SolveError, Solver, DEFAULT_TABLE_MB, MAX_TABLE_MB,
};
use mnk_engine::{Deadline, Limits, Value};

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
    /// Board width (columns)
    #[arg(required_unless_present = "table")]
    width: Option<u32>,
    /// Board height (rows)
    #[arg(required_unless_present = "table")]
    height: Option<u32>,
    /// Stones in a row that win
    #[arg(required_unless_present = "table")]
    k: Option<u32>,
    /// Exactly k in a row wins (longer lines do not); the default is k or more.
    #[arg(long)]
    exact: bool,
    /// O moves first instead of X.
    #[arg(long)]
    o_first: bool,
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
    /// Give up after this many seconds and say the position is unproven, 1 to 86400 (default: no
    /// limit; with --table, 10 per board).
    #[arg(long = "time-s", value_name = "S",
          value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=86_400))]
    time_s: Option<u64>,
    /// Also write the solved opening book to FILE: the position and the top --book-plies plies
    /// of its proof (the side to move plays its best move, the other side every move), each
    /// position with its exact value and best move (format: docs/solver-book.md).
    #[arg(long, value_name = "FILE")]
    book: Option<std::path::PathBuf>,
    /// Plies of the proof the book holds below the position, 0 to 8.
    #[arg(long, value_name = "N", default_value_t = 2, requires = "book",
          value_parser = clap::builder::RangedU64ValueParser::<u32>::new().range(0..=8))]
    book_plies: u32,
    /// Solve every board from 3x3 to 8x8 (freestyle, X first, every k from 3 to the width)
    /// within --time-s each, and check the results against the published values.
    #[arg(long, conflicts_with_all = ["width", "height", "k", "exact", "o_first", "moves", "all", "book"])]
    table: bool,
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
        Outcome::Draw(kind) => format!("drawn: {kind}"),
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

/// Writes part of a report as it comes; false once the reader has gone (a closed pipe).
fn emit_more(text: &str) -> Result<bool, String> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(format!("cannot write the report: {e}")),
    }
}

/// Writes a command's report to standard output. A reader that stops early (`| head`) closes
/// the pipe: that ends the report quietly, it is not an error.
fn emit(report: &str) -> Result<(), String> {
    emit_more(report).map(|_| ())
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

/// The proof's summary: what closed the nodes that were not searched below.
fn proof_summary(proof: &ProofStats) -> String {
    format!(
        "proof: {} pairing proofs, {} forcing lines, {} table answers, {} moves outside a zone",
        proof.pairings, proof.forcing_lines, proof.table, proof.zone_cuts
    )
}

/// Runs `mnk solve`.
pub fn solve(args: &SolveArgs) -> Result<(), String> {
    if args.table {
        return solve_table(args);
    }
    let (Some(width), Some(height), Some(k)) = (args.width, args.height, args.k) else {
        return Err("give the board: mnk solve WIDTH HEIGHT K (or --table)".into());
    };
    let board = BoardArgs {
        width,
        height,
        k,
        exact: args.exact,
        o_first: args.o_first,
    };
    let rules = board.rules()?;
    let record: Record = args.moves.parse().map_err(|e| format!("--moves: {e}"))?;
    let pos = Position::from_moves(rules, &record.0)
        .map_err(|(i, e)| format!("--moves: move {} ({}): {e}", i + 1, record.0[i]))?;
    if pos.is_over() {
        return Err(format!("the game is already over: {}", ending(&pos)));
    }
    let mut solver =
        Solver::new(&rules, table_mb(&rules, args.hash_mb)).map_err(|e| e.to_string())?;
    let limits = time_limit(args.time_s);
    let start = Instant::now();
    let result = if args.all {
        solver.analyse(&pos, &limits)
    } else {
        solver.solve(&pos, &limits)
    };
    let seconds = start.elapsed().as_secs_f64();
    let mover = pos.to_move();
    let mut report = format!("{rules} after [{record}], {mover} to move\n");
    let analysis = match result {
        Ok(analysis) => analysis,
        Err(SolveError::Aborted { nodes }) => {
            report += &format!(
                "value: unproven: stopped after {seconds:.1} s ({nodes} nodes); allow more with --time-s\n"
            );
            return emit(&report);
        }
        Err(e) => return Err(e.to_string()),
    };
    report += &format!(
        "value: {}\n",
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
        "nodes: {}  time: {seconds:.3} s  ({:.0} nodes/s)\n{}\n",
        analysis.nodes,
        analysis.nodes as f64 / seconds.max(1e-9),
        proof_summary(&analysis.proof)
    );
    if let Some(path) = &args.book {
        let start = Instant::now();
        let book = match Book::build(&mut solver, &pos, args.book_plies, &limits) {
            Ok(book) => book,
            Err(SolveError::Aborted { .. }) => {
                report += "book: not written: the time ran out while solving it; allow more with --time-s\n";
                return emit(&report);
            }
            Err(e) => return Err(e.to_string()),
        };
        std::fs::write(path, book.to_string())
            .map_err(|e| format!("--book {}: {e}", path.display()))?;
        report += &format!(
            "book: {} positions to {} plies written to {} in {:.3} s\n",
            book.entries.len(),
            args.book_plies,
            path.display(),
            start.elapsed().as_secs_f64()
        );
    }
    emit(&report)
}

/// No limit, or a deadline `seconds` from now.
fn time_limit(seconds: Option<u64>) -> Limits {
    match seconds {
        Some(s) => Limits {
            deadline: Some(Deadline::from_now(Duration::from_secs(s))),
            ..Limits::default()
        },
        None => Limits::none(),
    }
}

/// Seconds per board of `mnk solve --table` unless `--time-s` says otherwise.
const TABLE_SECONDS: u64 = 10;
/// The largest side of the boards `--table` solves.
const TABLE_MAX_SIDE: u32 = 8;

/// Every board of the table, smallest first: width ≥ height ≥ 3, k from 3 to the width.
fn table_boards() -> Vec<(u32, u32, u32)> {
    let mut boards = Vec::new();
    for width in 3..=TABLE_MAX_SIDE {
        for height in 3..=width {
            for k in 3..=width {
                boards.push((width, height, k));
            }
        }
    }
    boards.sort_by_key(|&(w, h, k)| (w * h, w, k));
    boards
}

/// `mnk solve --table`: each board's value from the empty board, with its nodes, time and
/// proof, and the published value where there is one. A disagreement is an error.
fn solve_table(args: &SolveArgs) -> Result<(), String> {
    let seconds = args.time_s.unwrap_or(TABLE_SECONDS);
    let header = format!(
        "Every board from 3x3 to {TABLE_MAX_SIDE}x{TABLE_MAX_SIDE}, freestyle, X first, from the empty board; {seconds} s each, one thread.\n\
         board   value              nodes       time  published\n"
    );
    if !emit_more(&header)? {
        return Ok(());
    }
    let (mut solved, mut unproven, mut agreed, mut disagreed) = (0, 0, 0, Vec::new());
    for (width, height, k) in table_boards() {
        let rules = Rules::bounded(width, height, k).map_err(|e| e.to_string())?;
        let mut solver =
            Solver::new(&rules, table_mb(&rules, args.hash_mb)).map_err(|e| e.to_string())?;
        let start = Instant::now();
        let result = solver.solve(&Position::new(rules), &time_limit(Some(seconds)));
        let took = start.elapsed().as_secs_f64();
        let known = known_result(width, height, k);
        let (value, nodes, first_wins): (String, u64, Option<bool>) = match &result {
            Ok(Analysis { value, nodes, .. }) => {
                solved += 1;
                let words = match value {
                    Value::Win(n) => format!("X wins in {n}"),
                    other => other.to_string(),
                };
                (words, *nodes, Some(matches!(value, Value::Win(_))))
            }
            Err(SolveError::Aborted { nodes }) => {
                unproven += 1;
                ("unproven".to_string(), *nodes, None)
            }
            Err(e) => return Err(e.to_string()),
        };
        let published = match (&known, first_wins) {
            (None, _) => String::new(),
            (Some(r), found) => {
                let said = if r.first_player_wins {
                    "first player wins"
                } else {
                    "draw"
                };
                let verdict = match found {
                    Some(w) if w == r.first_player_wins => {
                        agreed += 1;
                        "agrees"
                    }
                    Some(_) => {
                        disagreed.push(format!("{width}x{height}x{k}"));
                        "DISAGREES"
                    }
                    None => "not reached",
                };
                format!("{said} ({verdict})")
            }
        };
        let row = format!(
            "{:<7} {value:<13} {nodes:>12} {took:>8.2} s  {published}",
            format!("{width}x{height}x{k}")
        );
        let row = format!("{}\n", row.trim_end());
        if !emit_more(&row)? {
            return Ok(());
        }
    }
    let summary = format!(
        "{solved} boards solved, {unproven} unproven within {seconds} s; {agreed} published values reproduced\n"
    );
    emit(&summary)?;
    if disagreed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the solver disagrees with the published value on {}",
            disagreed.join(", ")
        ))
    }
}
