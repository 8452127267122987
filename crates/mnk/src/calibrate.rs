//! `mnk calibrate`: fits the win-chance scale `K` of `sigmoid(K · eval)` to recorded games and
//! shows how well it predicts the results of games held out from the fit.
//!
//! Every position of a game after its opening stones, up to the last move, is valued as the
//! review values it (`mnk_engine::review::evaluate`, a fixed node count) and paired with the
//! game's result for the side to move. Proven values need no scale and are counted apart. The
//! scale is fitted to every position (least squares, as `mnk tune` fits its K); the calibration
//! table is made by cross-validation: the games are dealt into `--folds` folds, each fold's
//! positions are predicted with the scale fitted to the other folds, and all these held-out
//! predictions, in bins of predicted chance, are set against the results.

use std::collections::HashSet;
use std::path::PathBuf;

use mnk_core::{Player, Position};
use mnk_engine::chance::{fit_scale, scale, sigmoid, SizeClass};
use mnk_engine::review::{evaluate, MAX_REVIEW_NODES, REVIEW_NODES};
use mnk_engine::search::weight_table::Variant;
use mnk_engine::tune::{RecordedEnding, RecordedGame};
use mnk_engine::{Limits, Value};

/// Arguments of `mnk calibrate`.
#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// Record files written by `mnk match --record`, all of one rule set and size class (games
    /// lost by a fault and repeats of an earlier game are skipped).
    #[arg(required = true, value_name = "GAMES")]
    games: Vec<PathBuf>,
    /// Nodes per position, as the review searches.
    #[arg(long, value_name = "N", default_value_t = REVIEW_NODES,
          value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=MAX_REVIEW_NODES))]
    nodes: u64,
    /// Value every N-th position of each game (1: all).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100))]
    every: usize,
    /// Folds of games for the cross-validated calibration table (game i is in fold i mod N).
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(2..=100))]
    folds: usize,
    /// Write every valued position to this file: score for the mover, result for the mover, and
    /// its game's fold (tab-separated), for plotting the curve.
    #[arg(long, value_name = "FILE")]
    points: Option<PathBuf>,
    /// Threads valuing positions at once.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    jobs: usize,
}

/// One valued position: the evaluation for the mover, the game's result for the mover, and the
/// fold of its game.
#[derive(Clone, Copy, Debug)]
struct Point {
    score: f64,
    result: f64,
    fold: usize,
}

/// What the positions of the games came to.
#[derive(Debug, Default)]
struct Valued {
    points: Vec<Point>,
    /// Proven values and how many of them the game's result matched.
    proven: usize,
    proven_right: usize,
}

/// Runs `mnk calibrate`.
pub fn run(args: &CalibrateArgs) -> Result<(), String> {
    let games = read_games(&args.games)?;
    let rules = games
        .first()
        .map(|g| g.rules)
        .ok_or("the record files hold no games")?;
    let class = (Variant::of(&rules), SizeClass::of(&rules));
    if let Some(other) = games
        .iter()
        .find(|g| (Variant::of(&g.rules), SizeClass::of(&g.rules)) != class)
    {
        return Err(format!(
            "the games mix rule sets or size classes ({} and {}): calibrate one at a time",
            rules, other.rules
        ));
    }
    let valued = value_games(&games, args);
    if let Some(path) = &args.points {
        write_points(path, &valued.points)?;
    }
    let points = &valued.points;
    if points.len() < 2 * args.folds {
        return Err("too few positions to fit and to check: record more games".into());
    }
    let k = fit_scale(|k| squared_error(points.iter(), k));
    // Each fold predicted by the scale of the others.
    let fold_scales: Vec<f64> = (0..args.folds)
        .map(|f| fit_scale(|k| squared_error(points.iter().filter(|p| p.fold != f), k)))
        .collect();
    let predicted: Vec<(f64, f64)> = points
        .iter()
        .map(|p| (sigmoid(fold_scales[p.fold] * p.score), p.result))
        .collect();
    println!(
        "{} {} ({} games, {} nodes a position): {} positions valued, {} proven ({} matched the result)",
        class.0.name(),
        class.1.name(),
        games.len(),
        args.nodes,
        points.len(),
        valued.proven,
        valued.proven_right
    );
    let scales: Vec<String> = fold_scales.iter().map(|k| format!("{k:.7}")).collect();
    println!(
        "K = {k:.7} (shipped: {:.7}; without each fold: {})",
        scale(&rules),
        scales.join(", ")
    );
    let mean_error = |pairs: &[(f64, f64)]| {
        pairs.iter().map(|(c, r)| (r - c).powi(2)).sum::<f64>() / pairs.len() as f64
    };
    println!(
        "held-out squared error: {:.5} (a coin's: {:.5})",
        mean_error(&predicted),
        mean_error(&predicted.iter().map(|&(_, r)| (0.5, r)).collect::<Vec<_>>())
    );
    println!("\nPositions by the chance for the mover predicted without their game's fold:");
    println!(
        "{:>9}  {:>6}  {:>9}  {:>6}",
        "bin", "count", "predicted", "scored"
    );
    for bin in bins(&predicted).iter().filter(|b| b.count > 0) {
        println!(
            "{:>3}–{:>3} %  {:>6}  {:>8.1} %  {:>5.1} %",
            bin.from, bin.to, bin.count, bin.predicted, bin.scored
        );
    }
    Ok(())
}

fn write_points(path: &PathBuf, points: &[Point]) -> Result<(), String> {
    let mut text = String::from("# score\tresult\tfold\n");
    for p in points {
        text.push_str(&format!("{}\t{}\t{}\n", p.score, p.result, p.fold));
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The games of the record files, without faults and repeats.
fn read_games(paths: &[PathBuf]) -> Result<Vec<RecordedGame>, String> {
    let mut seen = HashSet::new();
    Ok(crate::tune::read_games(paths)?
        .into_iter()
        .filter(|g| g.ending != RecordedEnding::Fault && seen.insert(g.moves.clone()))
        .collect())
}

/// Values every chosen position of every game, `args.jobs` games at a time; the order of the
/// points does not depend on the number of jobs.
fn value_games(games: &[RecordedGame], args: &CalibrateArgs) -> Valued {
    let per_job: Vec<Valued> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.jobs)
            .map(|job| {
                scope.spawn(move || {
                    let mut out = Valued::default();
                    for (i, game) in games.iter().enumerate().skip(job).step_by(args.jobs) {
                        value_game(game, i % args.folds, args, &mut out);
                        if job == 0 && i % 20 == 0 {
                            eprintln!("calibrate: game {} of {}", i + 1, games.len());
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a valuing thread panicked"))
            .collect()
    });
    let mut all = Valued::default();
    for part in per_job {
        all.points.extend(part.points);
        all.proven += part.proven;
        all.proven_right += part.proven_right;
    }
    all
}

fn value_game(game: &RecordedGame, fold: usize, args: &CalibrateArgs, out: &mut Valued) {
    let mut pos = Position::new(game.rules);
    for (ply, &cell) in game.moves.iter().enumerate() {
        if ply >= game.opening_plies && (ply - game.opening_plies) % args.every == 0 {
            value_position(&pos, game, fold, args.nodes, out);
        }
        if pos.check_move(cell).is_err() {
            return;
        }
        pos.play(cell);
    }
}

fn value_position(pos: &Position, game: &RecordedGame, fold: usize, nodes: u64, out: &mut Valued) {
    if pos.is_over() {
        return;
    }
    let Ok(evaluation) = evaluate(pos, nodes, &Limits::none()) else {
        return;
    };
    let result = result_for(game.winner, pos.to_move());
    match evaluation.value {
        Value::Eval(score) => out.points.push(Point {
            score: f64::from(score),
            result,
            fold,
        }),
        proven => {
            out.proven += 1;
            let predicted = match proven {
                Value::Win(_) => 1.0,
                Value::Loss(_) => 0.0,
                _ => 0.5,
            };
            if predicted == result {
                out.proven_right += 1;
            }
        }
    }
}

fn result_for(winner: Option<Player>, mover: Player) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
    }
}

fn squared_error<'a>(points: impl Iterator<Item = &'a Point>, k: f64) -> f64 {
    let (sum, n) = points.fold((0.0, 0usize), |(sum, n), p| {
        (sum + (p.result - sigmoid(k * p.score)).powi(2), n + 1)
    });
    sum / n.max(1) as f64
}

/// One bin of the calibration table: positions predicted within `from`–`to` %.
struct Bin {
    from: u32,
    to: u32,
    count: usize,
    /// Mean predicted chance, in %.
    predicted: f64,
    /// Mean result, in %.
    scored: f64,
}

/// Predictions (chance, result) in ten bins of predicted chance.
fn bins(predicted: &[(f64, f64)]) -> Vec<Bin> {
    (0..10)
        .map(|b| {
            let (from, to) = (b * 10, b * 10 + 10);
            let inside: Vec<(f64, f64)> = predicted
                .iter()
                .map(|&(c, r)| (100.0 * c, 100.0 * r))
                .filter(|&(c, _)| c >= f64::from(from) && (c < f64::from(to) || to == 100))
                .collect();
            let n = inside.len().max(1) as f64;
            Bin {
                from,
                to,
                count: inside.len(),
                predicted: inside.iter().map(|x| x.0).sum::<f64>() / n,
                scored: inside.iter().map(|x| x.1).sum::<f64>() / n,
            }
        })
        .collect()
}
