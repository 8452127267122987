//! `mnk train-net`: trains the learnt evaluation on games recorded by `mnk match --record`.

use std::path::PathBuf;

use mnk_engine::search::net::Net;
use mnk_engine::train::{train, TrainSettings};

use crate::tune::RecordedArgs;

/// Arguments of `mnk train-net`.
#[derive(clap::Args, Debug)]
pub struct TrainNetArgs {
    #[command(flatten)]
    recorded: RecordedArgs,
    /// Where to write the network.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Passes over the positions, 1 to 1000.
    #[arg(long, value_name = "N", default_value_t = TrainSettings::default().epochs,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    epochs: usize,
    /// Adam's step size in the first pass, above 0 and at most 1.
    #[arg(long, value_name = "S", default_value_t = TrainSettings::default().step, value_parser = step)]
    step: f32,
    /// Adam's step size in the last pass (the step falls to it along a half cosine), above 0
    /// and at most 1.
    #[arg(long, value_name = "S", default_value_t = TrainSettings::default().final_step, value_parser = step)]
    final_step: f32,
    /// How fast the line codes' rows fall towards zero (decoupled weight decay, per unit of
    /// step), 0 to 100; the step times it below 1.
    #[arg(long, value_name = "D", default_value_t = TrainSettings::default().code_decay, value_parser = decay)]
    code_decay: f32,
    /// Average the weights at the end of the last N passes into the network, 0 to the number
    /// of passes (0: the last pass's weights).
    #[arg(long, value_name = "N", default_value_t = 0)]
    average_last: usize,
    /// Nodes of the search that labels each position, 0 to 10000000 (0: the game results
    /// alone).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=10_000_000))]
    label_nodes: u64,
    /// The game result's share of the target, 0 to 1 (the search's chance has the rest).
    #[arg(long, value_name = "W", default_value_t = 0.5, value_parser = share)]
    result_weight: f32,
    /// The network the label searches judge by (default: the tables' sums).
    #[arg(long, value_name = "FILE")]
    label_net: Option<PathBuf>,
    /// Recalibrate the search chances against the game results before mixing them in (their
    /// logits times one factor fitted to the results): for labels by a network, whose scores
    /// the tables' scale does not fit.
    #[arg(long)]
    calibrate_labels: bool,
    /// Where the search labels are kept: the positions' labels found in FILE are read, the
    /// others searched and added to it (a file of another `--label-nodes` or `--label-net` is
    /// refused).
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Seed of the initial weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for the label searches, 1 to 64 (the training itself runs on one).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
}

fn share(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err("a share is a number from 0 to 1".into()),
    }
}

fn decay(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(d) if (0.0..=100.0).contains(&d) => Ok(d),
        _ => Err("a decay is a number from 0 to 100".into()),
    }
}

fn step(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(s) if s > 0.0 && s <= 1.0 => Ok(s),
        _ => Err("a step size is a number above 0 and at most 1".into()),
    }
}

/// Runs `mnk train-net`.
pub fn run(args: &TrainNetArgs) -> Result<(), String> {
    if args.label_nodes == 0
        && (args.label_net.is_some() || args.labels.is_some() || args.calibrate_labels)
    {
        return Err(
            "--label-net, --labels and --calibrate-labels are for search labels: give --label-nodes too"
                .into(),
        );
    }
    let (games, variant) = args.recorded.read()?;
    let label_net = match &args.label_net {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let net = Net::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(&*Box::leak(Box::new(net)))
        }
    };
    if args.average_last > args.epochs {
        return Err(format!(
            "--average-last {} is more than the {} passes (--epochs)",
            args.average_last, args.epochs
        ));
    }
    if args.code_decay * args.step.max(args.final_step) >= 1.0 {
        return Err("--code-decay times the step must be below 1".into());
    }
    let settings = TrainSettings {
        epochs: args.epochs,
        step: args.step,
        final_step: args.final_step,
        code_decay: args.code_decay,
        average_last: args.average_last,
        label_nodes: args.label_nodes,
        result_weight: if args.label_nodes == 0 {
            1.0
        } else {
            args.result_weight
        },
        label_net,
        calibrate_labels: args.calibrate_labels,
        seed: args.seed,
        threads: args.threads,
        ..TrainSettings::default()
    };
    let trained = train(&games, variant, settings, args.labels.as_deref())?;
    if trained.train_positions == 0 || trained.held_out_positions == 0 {
        return Err(format!(
            "too few quiet positions to learn from: {} games of {} used, {} positions",
            trained.games,
            variant.name(),
            trained.train_positions + trained.held_out_positions
        ));
    }
    for (i, e) in trained.epoch_errors.iter().enumerate() {
        println!("epoch {:>3}: held-out error {e:.6}", i + 1);
    }
    if let Some(e) = trained.averaged_error {
        let passes = if args.average_last == 1 {
            "pass"
        } else {
            "passes"
        };
        println!(
            "the last {} {passes} averaged: held-out error {e:.6}",
            args.average_last
        );
    }
    let averaged = if args.average_last > 0 {
        format!(", the last {} averaged", args.average_last)
    } else {
        String::new()
    };
    let calibrated = if args.calibrate_labels {
        format!(
            " (its logit × {:.3}, fitted to the results)",
            trained.label_factor
        )
    } else {
        String::new()
    };
    let labels = if args.label_nodes == 0 {
        "the game results".to_string()
    } else {
        format!(
            "{} × the game result + {} × the chance of a {}-node search by {}{calibrated}",
            settings.result_weight,
            1.0 - settings.result_weight,
            args.label_nodes,
            args.label_net
                .as_ref()
                .map_or("the tables".to_string(), |p| {
                    format!(
                        "the network {}",
                        p.file_name().unwrap_or_default().to_string_lossy()
                    )
                })
        )
    };
    let title = format!(
        "mnk network: {}, trained by `mnk train-net` ({} epochs{averaged}, step {} to {}, code decay {}, seed {}) on {} positions of {} games\n\
         ({}); targets: {labels}. K = {:.6}; held-out error (mean squared, {} positions): tables {:.6}, network {:.6}.",
        variant.name(),
        args.epochs,
        args.step,
        args.final_step,
        args.code_decay,
        args.seed,
        trained.train_positions,
        trained.games,
        args.recorded.sources(),
        trained.k,
        trained.held_out_positions,
        trained.table_error,
        trained.net_error,
    );
    std::fs::write(&args.out, trained.net.to_text(&title))
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "{} games used, {} positions to learn from, {} held out",
        trained.games, trained.train_positions, trained.held_out_positions
    );
    println!("K = {:.6}", trained.k);
    if args.calibrate_labels {
        println!(
            "Label chances recalibrated: logit × {:.4}",
            trained.label_factor
        );
    }
    println!(
        "Held-out error: tables {:.6}, network {:.6}",
        trained.table_error, trained.net_error
    );
    println!(
        "Evaluation spread (standard deviation): tables {:.0}, network {:.0}",
        trained.table_spread, trained.net_spread
    );
    println!(
        "Labels {:.1} s, training {:.1} s",
        trained.label_secs, trained.train_secs
    );
    println!("Wrote {}", args.out.display());
    Ok(())
}
