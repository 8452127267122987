//! `mnk review`: the page's review of recorded games in the terminal: every move marked by the
//! win chance it loses, an accuracy per player; and, with `--compare`, how far the marks agree
//! with a second review at another node count (the review's stability).

use std::path::PathBuf;

use mnk_core::{Player, Position};
use mnk_engine::review::{
    game_accuracy, review_stretch, Mark, Memo, MAX_REVIEW_NODES, REVIEW_NODES,
};
use mnk_engine::tune::{RecordedEnding, RecordedGame};
use mnk_engine::Limits;

/// Arguments of `mnk review`.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// Record files written by `mnk match --record` (games lost by a fault are skipped).
    #[arg(required = true, value_name = "GAMES")]
    games: Vec<PathBuf>,
    /// Nodes per position, as the page's review searches.
    #[arg(long, value_name = "N", default_value_t = REVIEW_NODES,
          value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=MAX_REVIEW_NODES))]
    nodes: u64,
    /// Review every game a second time with this many nodes per position and count the moves
    /// whose mark is the same (the same count as --nodes: a review repeated).
    #[arg(long, value_name = "N",
          value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=MAX_REVIEW_NODES))]
    compare: Option<u64>,
    /// Review at most this many games (the first ones).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    limit: usize,
}

/// Runs `mnk review`.
pub fn run(args: &ReviewArgs) -> Result<(), String> {
    let games: Vec<RecordedGame> = crate::tune::read_games(&args.games)?
        .into_iter()
        .filter(|g| g.ending != RecordedEnding::Fault)
        .collect();
    if games.is_empty() {
        return Err("the record files hold no games to review".into());
    }
    let (mut moves, mut same) = (0usize, 0usize);
    let mut counts = [0usize; 5];
    for (i, game) in games.iter().take(args.limit).enumerate() {
        let marks = review_game(game, args.nodes)?;
        println!("game {}: {}", i + 1, describe(game, &marks));
        for (mark, _) in &marks {
            counts[*mark as usize] += 1;
        }
        if let Some(nodes) = args.compare {
            let again = review_game(game, nodes)?;
            let agree = marks.iter().zip(&again).filter(|(a, b)| a.0 == b.0).count();
            println!(
                "  at {nodes} nodes: {}, {agree} of {} marks the same",
                symbols(&again),
                marks.len()
            );
            same += agree;
        }
        moves += marks.len();
    }
    let names: Vec<String> = Mark::ALL
        .iter()
        .zip(counts)
        .map(|(m, n)| format!("{n} {}", m.name()))
        .collect();
    println!(
        "{moves} moves reviewed at {} nodes: {}",
        args.nodes,
        names.join(", ")
    );
    if let Some(nodes) = args.compare {
        println!(
            "the same mark at {} and {nodes} nodes: {same} of {moves} moves ({:.1}%)",
            args.nodes,
            100.0 * same as f64 / moves.max(1) as f64
        );
    }
    Ok(())
}

/// The marks and accuracies of a game's moves after its opening stones.
fn review_game(game: &RecordedGame, nodes: u64) -> Result<Vec<(Mark, f64)>, String> {
    let opening = game.moves.get(..game.opening_plies).unwrap_or_default();
    let start = Position::from_moves(game.rules, opening)
        .map_err(|(i, e)| format!("opening move {}: {e}", i + 1))?;
    let rest = game.moves.get(game.opening_plies..).unwrap_or_default();
    Position::from_moves(game.rules, &game.moves)
        .map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
    let reviewed = review_stretch(&start, rest, nodes, &Limits::none(), &Memo::default())
        .map_err(|e| e.to_string())?;
    Ok(reviewed
        .judgements
        .iter()
        .map(|(j, _)| (j.mark, j.accuracy))
        .collect())
}

/// A game in one line: its rules and result, its marks, and each player's accuracy.
fn describe(game: &RecordedGame, marks: &[(Mark, f64)]) -> String {
    let first = if game.opening_plies % 2 == 0 {
        game.rules.first()
    } else {
        game.rules.first().opponent()
    };
    let of = |player: Player| -> Vec<f64> {
        marks
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 0) == (player == first))
            .map(|(_, (_, a))| *a)
            .collect()
    };
    let accuracy = |player: Player| {
        game_accuracy(&of(player)).map_or_else(|| "–".to_string(), |a| format!("{a:.1}%"))
    };
    let result = match game.winner {
        Some(Player::X) => "1-0",
        Some(Player::O) => "0-1",
        None => "1/2-1/2",
    };
    format!(
        "{} {result}: {}; accuracy X {}, O {}",
        game.rules,
        symbols(marks),
        accuracy(Player::X),
        accuracy(Player::O)
    )
}

/// Marks as the page shows them.
fn symbols(marks: &[(Mark, f64)]) -> String {
    marks
        .iter()
        .map(|(m, _)| match m {
            Mark::Best => "★",
            Mark::Good => "✓",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        })
        .collect::<Vec<_>>()
        .join(" ")
}
