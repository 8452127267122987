//! `mnk`: play, study and serve k-in-a-row games.

mod analysis;
mod play;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// k-in-a-row games: tic-tac-toe, m,n,k-games and gomoku, on any board.
///
/// Without a subcommand, `mnk` serves the web game (as `mnk serve`).
#[derive(Parser, Debug)]
#[command(name = "mnk", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play in the terminal against a bot or a second person.
    Play(play::PlayArgs),
    /// Walk the whole game tree of a small board and count games and positions.
    Count(analysis::CountArgs),
    /// Solve a small-board position exactly: its value, a best move, and optionally every move's value.
    Solve(analysis::SolveArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Count(args)) => analysis::count(&args),
        Some(Command::Solve(args)) => analysis::solve(&args),
        None => Err("the web server is not built yet".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("mnk: {message}");
            ExitCode::FAILURE
        }
    }
}
