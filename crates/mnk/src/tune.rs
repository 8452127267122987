//! `mnk tune`: fits a weight table to games recorded by `mnk match --record`.

use std::path::PathBuf;

use mnk_engine::search::weight_table::{Variant, WeightTable, Weights};
use mnk_engine::tune::{parse_records, tune, RecordedGame, Samples, TuneSettings};

/// Most gradient steps (`--iterations`).
const MAX_ITERATIONS: u64 = 100_000;

/// The recorded games a tuning or training run reads, and the variant it learns.
#[derive(clap::Args, Debug)]
pub struct RecordedArgs {
    /// Record files written by `mnk match --record` (games of other variants, repeated games and
    /// games lost by a fault are skipped).
    #[arg(required = true, value_name = "GAMES")]
    pub games: Vec<PathBuf>,
    /// The variant: freestyle, exact, unbounded, renju or caro (default: the variant of the
    /// first game).
    #[arg(long, value_parser = variant)]
    variant: Option<Variant>,
}

impl RecordedArgs {
    /// Every game of the files, and the variant to learn.
    pub fn read(&self) -> Result<(Vec<RecordedGame>, Variant), String> {
        let games = read_games(&self.games)?;
        let variant = match (self.variant, games.first()) {
            (Some(v), _) => v,
            (None, Some(g)) => Variant::of(&g.rules),
            (None, None) => return Err("the record files hold no games".into()),
        };
        Ok((games, variant))
    }

    /// The files, as the written table or network names them.
    pub fn sources(&self) -> String {
        let names: Vec<String> = self.games.iter().map(|p| p.display().to_string()).collect();
        names.join(", ")
    }
}

/// Arguments of `mnk tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    recorded: RecordedArgs,
    /// Where to write the new weight table.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// The table to start from (default: the shipped one of the variant).
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// Gradient steps, 1 to 100000.
    #[arg(long, value_name = "N", default_value_t = TuneSettings::default().iterations,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_ITERATIONS))]
    iterations: usize,
}

/// Reads a variant's name (`--variant`).
fn variant(text: &str) -> Result<Variant, String> {
    Variant::ALL
        .into_iter()
        .find(|v| v.name() == text.trim())
        .ok_or_else(|| {
            let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            format!("the variants are {}", names.join(", "))
        })
}

/// Every game of the record files written by `mnk match --record`, in order.
pub fn read_games(paths: &[PathBuf]) -> Result<Vec<RecordedGame>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut read = parse_records(&text)
            .map_err(|(line, e)| format!("{}, line {line}: {e}", path.display()))?;
        games.append(&mut read);
    }
    Ok(games)
}

/// Runs `mnk tune`.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let (games, variant) = args.recorded.read()?;
    let start = match &args.start {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Weights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => WeightTable::shipped(variant).weights().clone(),
    };
    let by_colour = start.by_colour;
    let table = WeightTable::leak(start.clone());
    let samples = Samples::extract(&games, variant, table);
    if samples.is_empty() {
        return Err(format!(
            "no quiet positions to learn from: {} games of {} read, {} skipped (faults, other variants, repeats)",
            games.len(),
            variant.name(),
            samples.skipped_games
        ));
    }
    let settings = TuneSettings {
        iterations: args.iterations,
        ..TuneSettings::default()
    };
    let tuned = tune(&samples, &start, settings);
    let title = format!(
        "mnk evaluation weights: {}, tuned by `mnk tune` ({} iterations) on {} positions of {} games\n\
         ({}), K = {:.6}, error {:.6} before, {:.6} after.{}",
        variant.name(),
        args.iterations,
        tuned.positions,
        samples.games,
        args.recorded.sources(),
        tuned.k,
        tuned.error_before,
        tuned.error_after,
        if by_colour {
            " Black and white valued apart."
        } else {
            ""
        }
    );
    std::fs::write(&args.out, tuned.weights.to_text(&title))
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "{} games read, {} used ({} skipped), {} quiet positions",
        games.len(),
        samples.games,
        samples.skipped_games,
        tuned.positions
    );
    println!("K = {:.6}", tuned.k);
    println!(
        "Error: {:.6} before, {:.6} after",
        tuned.error_before, tuned.error_after
    );
    println!("Wrote {}", args.out.display());
    Ok(())
}
