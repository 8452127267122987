//! Training the learnt evaluation ([`crate::search::net`]) on recorded games.
//!
//! From every game of the variant decided by play (each once, as the tuner takes them), every
//! quiet position after the opening (see [`crate::tune::is_quiet`]) becomes a sample: its
//! cells that take part, each as its four (own, opponent's) pattern pairs and line codes seen by
//! the mover, and a target, the game's result for the mover (1, ½, 0), mixed with the win chance of a
//! search of the position by the tables (`label_nodes` nodes, weight `1 - result_weight`) when
//! asked. The games are split by a hash of their moves: about one in ten is held out, to
//! measure the error on positions the network has not learnt from.
//!
//! The network is learnt in floating point, the same shape as the integer one: cell vectors
//! clipped to `[0, 1]`, pools divided by [`POOL_SCALE`], clipped hidden units, and an output
//! `z` whose logistic is the predicted chance, fitted by the cross-entropy with Adam steps on
//! mini-batches in a fixed order. The scale `K` of the shipped tables on the same positions
//! (fitted as the tuner fits it) turns `z` into evaluation units, `z / K`, so the search's
//! margins keep their meaning. Labels are searched on the machine's threads, each position
//! from an empty table, and can be kept in a file keyed by each position's rules and moves, so
//! the next round searches only its new games; training runs on one thread: the same games and
//! settings give the same network.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use crate::chance::{fit_scale, sigmoid};
use crate::rng::Rng;
use crate::search::board::Board;
use crate::search::eval::evaluate;
use crate::search::net::{
    counts, pairs, Accumulator, CellLayer, Net, CODES, DIMS, HIDDEN, MAX_CELL_WEIGHT,
    MAX_HIDDEN_BIAS, MAX_OUT, MAX_OUT_BIAS, MAX_WEIGHT, PAIRS, POOL_SCALE, QA, QO, QW,
};
use crate::search::weight_table::{Variant, WeightTable};
use crate::search::Engine;
use crate::tune::{distinct_games, is_quiet, replay, RecordedGame};
use crate::{Limits, Value};

/// A cell that takes part, as the mover sees it.
#[derive(Clone, Copy, Debug)]
struct CellSeen {
    /// Per direction, (own pattern × 10 + opponent's).
    pairs: [u8; 4],
    /// Per direction, the mover's line code and the opponent's.
    codes: [[u16; 2]; 4],
}

/// One position: its cells and what it should be worth.
#[derive(Clone, Debug)]
struct Sample {
    cells: Vec<CellSeen>,
    /// The game's result for the mover.
    result: f32,
    /// The tables' evaluation, for their scale and error.
    table_eval: i32,
    /// What the network learns to predict: the result, or the result mixed with a search's
    /// chance.
    target: f32,
    /// Where it comes from: the game (index in the games used) and the moves before it.
    game: u32,
    ply: u16,
}

/// Settings of a training run.
#[derive(Clone, Copy, Debug)]
pub struct TrainSettings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start.
    pub step: f32,
    /// Adam's step size in the last pass: the step falls from `step` to this along a
    /// half cosine, so the last passes settle the weights rather than jump around a minimum.
    pub final_step: f32,
    /// How fast the line codes' rows fall towards zero, per unit of step (decoupled weight
    /// decay): the rows of codes the games seldom show stay near zero, so the network leans
    /// on them only where the positions teach it to. Without it the codes are fitted to the
    /// few positions that show them and the network plays far worse.
    pub code_decay: f32,
    /// The last passes whose end weights are averaged into the network (0: the last pass's
    /// weights as they are). With a constant step the weights wander around a minimum from
    /// pass to pass (the held-out error moves by some 0.002); their mean sits nearer it.
    pub average_last: usize,
    /// Nodes of the search that labels each position (0: results only).
    pub label_nodes: u64,
    /// The result's share of the target (the search's chance has the rest).
    pub result_weight: f32,
    /// The network the label searches judge by (`None`: the tables).
    pub label_net: Option<&'static Net>,
    /// Whether the search chances are recalibrated against the game results before they are
    /// mixed in (see [`calibrate`]): a label search's score becomes a chance through the
    /// tables' scale `K`, fitted to the tables' scores, not to a network's.
    pub calibrate_labels: bool,
    /// Seed of the initial weights and of the order of the positions.
    pub seed: u64,
    /// Threads for the label searches.
    pub threads: usize,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            epochs: 30,
            batch: 256,
            step: 0.002,
            final_step: 0.002,
            code_decay: 4.0,
            average_last: 0,
            label_nodes: 0,
            result_weight: 1.0,
            label_net: None,
            calibrate_labels: false,
            seed: 1,
            threads: 1,
        }
    }
}

/// What a training run did, for its report.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The network, in the search's integer form.
    pub net: Net,
    /// Games used.
    pub games: usize,
    /// Positions learnt from.
    pub train_positions: usize,
    /// Positions held out.
    pub held_out_positions: usize,
    /// The tables' scale.
    pub k: f64,
    /// Mean squared error of the tables' chance against the results on the held-out positions.
    pub table_error: f64,
    /// The same for the network (integer form) after training.
    pub net_error: f64,
    /// The spread (standard deviation) of the evaluations of the held-out positions, in
    /// evaluation units: the tables', and the network's.
    pub table_spread: f64,
    /// See `table_spread`.
    pub net_spread: f64,
    /// The held-out error after each epoch (floating-point form).
    pub epoch_errors: Vec<f64>,
    /// The held-out error of the averaged weights (floating-point form), when averaged.
    pub averaged_error: Option<f64>,
    /// The factor the label chances' logits were multiplied by (see [`calibrate`]; 1 when
    /// they were not recalibrated).
    pub label_factor: f64,
    /// Seconds spent labelling.
    pub label_secs: f64,
    /// Seconds spent training.
    pub train_secs: f64,
}

/// Trains a network for `variant` on `games` (see the module documentation). With
/// `labels_file`, the search labels it holds are read from it, and the others searched and
/// added to it (another run with other training settings, or with more games, then searches
/// only what is new).
///
/// # Errors
/// The labels file cannot be read or written, or holds labels of other searches.
pub fn train(
    games: &[RecordedGame],
    variant: Variant,
    settings: TrainSettings,
    labels_file: Option<&Path>,
) -> Result<Trained, String> {
    let table = WeightTable::shipped(variant);
    let used = distinct_games(games, variant);
    let (mut train_set, mut held_out) = (Vec::new(), Vec::new());
    for (i, game) in used.iter().enumerate() {
        let into = if held_out_game(game) {
            &mut held_out
        } else {
            &mut train_set
        };
        game_samples(game, i as u32, table, into);
    }
    let k = fit_scale(|k| table_error(&train_set, k));
    let started = Instant::now();
    let mut label_factor = 1.0;
    if settings.label_nodes > 0 {
        label_factor = label(
            &mut train_set,
            &mut held_out,
            &used,
            table,
            settings,
            k,
            labels_file,
        )?;
    }
    let label_secs = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut model = Model::new(settings.seed);
    let mut adam = Adam::new(model.w.len());
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    let mut rng = Rng::seeded(settings.seed ^ 0x0074_7261_696e);
    let mut grad = vec![0f32; model.w.len()];
    let mut epoch_errors = Vec::new();
    let mut average = WeightMean::default();
    for epoch in 0..settings.epochs {
        let step = step_size(settings, epoch);
        shuffle(&mut order, &mut rng);
        for chunk in order.chunks(settings.batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in chunk {
                model.backward(&train_set[i], &mut grad);
            }
            let scale = 1.0 / chunk.len() as f32;
            grad.iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut model.w, &grad, step);
            // Decoupled decay of the code rows: the rows of rare codes fall back towards zero.
            let decay = (1.0 - step * settings.code_decay).max(0.0);
            for w in &mut model.w[OWN_AT..BIAS_AT] {
                *w *= decay;
            }
        }
        epoch_errors.push(mean_error(&held_out, |s| {
            f64::from(sigmoid_f32(model.forward(s).z))
        }));
        if epoch + settings.average_last >= settings.epochs {
            average.add(&model.w);
        }
    }
    let averaged_error = average.mean().map(|w| {
        model.w = w;
        mean_error(&held_out, |s| f64::from(sigmoid_f32(model.forward(s).z)))
    });
    let net = model.quantized(k);
    let net_error = mean_error(&held_out, |s| sigmoid(k * f64::from(int_eval(&net, s))));
    let net_spread = spread(held_out.iter().map(|s| int_eval(&net, s)));
    Ok(Trained {
        net,
        games: used.len(),
        train_positions: train_set.len(),
        held_out_positions: held_out.len(),
        k,
        table_error: table_error(&held_out, k),
        net_error,
        table_spread: spread(held_out.iter().map(|s| s.table_eval)),
        net_spread,
        epoch_errors,
        averaged_error,
        label_factor,
        label_secs,
        train_secs: started.elapsed().as_secs_f64(),
    })
}

/// Mixes into the targets the chances of the label searches: those `labels_file` holds, and
/// the others searched (and added to the file). Returns the factor [`calibrate`] found (1
/// without `calibrate_labels`).
fn label(
    train_set: &mut [Sample],
    held_out: &mut [Sample],
    used: &[&RecordedGame],
    table: &'static WeightTable,
    settings: TrainSettings,
    k: f64,
    labels_file: Option<&Path>,
) -> Result<f64, String> {
    let mut known = match labels_file {
        Some(file) => read_labels(file, settings)?,
        None => HashMap::new(),
    };
    let labeller = match settings.label_net {
        None => table,
        Some(net) => &*Box::leak(Box::new(
            WeightTable::new(table.weights().clone()).with_net(Some(net)),
        )),
    };
    let before = known.len();
    let mut chances_of = |set: &[Sample]| {
        let keys: Vec<u64> = set
            .iter()
            .map(|s| position_key(used[s.game as usize], s.ply))
            .collect();
        let (missing_keys, missing): (Vec<u64>, Vec<Sample>) = keys
            .iter()
            .zip(set.iter())
            .filter(|(key, _)| !known.contains_key(key))
            .map(|(&key, s)| (key, s.clone()))
            .unzip();
        let found = search_chances(&missing, used, labeller, settings, k);
        known.extend(missing_keys.into_iter().zip(found));
        keys.iter().map(|key| known[key]).collect::<Vec<_>>()
    };
    let mut train_chances = chances_of(train_set);
    let mut held_out_chances = chances_of(held_out);
    let factor = if settings.calibrate_labels {
        calibrate(train_set, &mut train_chances, &mut held_out_chances)
    } else {
        1.0
    };
    mix(train_set, &train_chances, settings.result_weight);
    mix(held_out, &held_out_chances, settings.result_weight);
    match labels_file {
        Some(file) if known.len() > before => write_labels(file, &known, settings)?,
        _ => {}
    }
    Ok(factor)
}

/// Recalibrates the search chances against the game results: every chance `c` the search did
/// not prove becomes `sigmoid(a · logit(c))`, with `a` fitted by least squares to the results
/// of the training positions (the held-out ones are mapped with the same `a`). A search turns
/// its score into a chance through the tables' `K`; a network whose scores spread wider than
/// the tables' would otherwise teach the next network to be surer still. Returns `a`.
fn calibrate(
    train_set: &[Sample],
    train_chances: &mut [Option<f32>],
    held_out_chances: &mut [Option<f32>],
) -> f64 {
    let unproven = |c: f32| c > 0.0 && c < 1.0;
    let logit = |c: f32| (f64::from(c) / (1.0 - f64::from(c))).ln();
    let pairs: Vec<(f64, f64)> = train_set
        .iter()
        .zip(train_chances.iter())
        .filter_map(|(s, c)| {
            c.filter(|&c| unproven(c))
                .map(|c| (logit(c), f64::from(s.result)))
        })
        .collect();
    if pairs.is_empty() {
        return 1.0;
    }
    let a = fit_scale(|a| {
        pairs
            .iter()
            .map(|&(x, result)| (sigmoid(a * x) - result).powi(2))
            .sum::<f64>()
    });
    for c in train_chances.iter_mut().chain(held_out_chances.iter_mut()) {
        if let Some(v) = c.as_mut().filter(|v| unproven(**v)) {
            *v = sigmoid(a * logit(*v)) as f32;
        }
    }
    a
}

/// What searches the labels: "N-node searches by the tables" or by a network (a hash of its
/// weights).
fn labeller(settings: TrainSettings) -> String {
    let by = match settings.label_net {
        None => "the tables".to_string(),
        Some(net) => format!(
            "the network {:016x}",
            hash_text(HASH_START, &net.to_text(""))
        ),
    };
    format!("{}-node searches by {by}", settings.label_nodes)
}

/// The first line of a labels file.
fn labels_header(settings: TrainSettings) -> String {
    format!(
        "# mnk train-net labels of {}: per position (a hash of its rules and moves), its chance",
        labeller(settings)
    )
}

/// What identifies a position for its label: its rules and the moves that made it.
fn position_key(game: &RecordedGame, ply: u16) -> u64 {
    let rules = hash_text(HASH_START, &game.rules.to_string());
    hash_moves(rules, &game.moves[..usize::from(ply)])
}

/// The labels kept in `file` (none when it does not exist yet).
fn read_labels(file: &Path, settings: TrainSettings) -> Result<HashMap<u64, Option<f32>>, String> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, first)| first) != Some(labels_header(settings).as_str()) {
        return Err(format!(
            "{} holds labels of other searches, not of {}; name another file",
            file.display(),
            labeller(settings)
        ));
    }
    lines
        .map(|(n, line)| {
            let bad = || format!("{} line {}: '{line}' is no label", file.display(), n + 1);
            let (key, chance) = line.split_once(' ').ok_or_else(bad)?;
            let key = u64::from_str_radix(key, 16).map_err(|_| bad())?;
            let chance = match chance {
                "-" => None,
                c => Some(c.parse::<f32>().map_err(|_| bad())?),
            };
            Ok((key, chance))
        })
        .collect()
}

/// Writes `labels` for [`read_labels`], in the order of their keys.
fn write_labels(
    file: &Path,
    labels: &HashMap<u64, Option<f32>>,
    settings: TrainSettings,
) -> Result<(), String> {
    let mut sorted: Vec<_> = labels.iter().collect();
    sorted.sort_unstable_by_key(|(key, _)| **key);
    let mut text = labels_header(settings);
    text.push('\n');
    for (key, chance) in sorted {
        // f32's shortest form reads back to the same value: the same network either way.
        let chance = chance.map_or("-".to_string(), |c| c.to_string());
        let _ = writeln!(text, "{key:016x} {chance}");
    }
    std::fs::write(file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// The running mean of weight vectors (in f64, so that adding a tenth at a time loses nothing
/// to rounding).
#[derive(Default)]
struct WeightMean {
    sum: Vec<f64>,
    count: u32,
}

impl WeightMean {
    fn add(&mut self, w: &[f32]) {
        if self.sum.is_empty() {
            self.sum = vec![0.0; w.len()];
        }
        for (s, &x) in self.sum.iter_mut().zip(w) {
            *s += f64::from(x);
        }
        self.count += 1;
    }

    /// The mean of the vectors added, `None` if none was.
    fn mean(&self) -> Option<Vec<f32>> {
        (self.count > 0).then(|| {
            let n = f64::from(self.count);
            self.sum.iter().map(|&s| (s / n) as f32).collect()
        })
    }
}

/// Adam's step size in pass `epoch` (from 0): `step` in the first, `final_step` in the last,
/// a half cosine between.
fn step_size(settings: TrainSettings, epoch: usize) -> f32 {
    let last = settings.epochs.saturating_sub(1).max(1);
    let t = epoch.min(last) as f32 / last as f32;
    let fall = 0.5 * (1.0 + (std::f32::consts::PI * t).cos());
    settings.final_step + (settings.step - settings.final_step) * fall
}

/// About one game in ten, chosen by a hash of its moves.
fn held_out_game(game: &RecordedGame) -> bool {
    hash_moves(HASH_START, &game.moves) % 10 == 0
}

/// Where the hashes of games, positions and networks start.
const HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// `h` with the moves mixed in, in order.
fn hash_moves(h: u64, moves: &[mnk_core::Cell]) -> u64 {
    moves.iter().fold(h, |h, c| {
        mnk_core::zobrist::mix64(h ^ ((c.x as u64) << 32 | (c.y as u64 & 0xffff_ffff)))
    })
}

/// `h` with the text's bytes mixed in.
fn hash_text(h: u64, text: &str) -> u64 {
    text.bytes()
        .fold(h, |h, b| mnk_core::zobrist::mix64(h ^ u64::from(b)))
}

fn game_samples(
    game: &RecordedGame,
    index: u32,
    table: &'static WeightTable,
    out: &mut Vec<Sample>,
) {
    replay(game, table, |board| {
        if !is_quiet(board) {
            return;
        }
        let me = board.side();
        let result = match game.winner {
            None => 0.5,
            Some(w) if w.index() == me => 1.0,
            Some(_) => 0.0,
        };
        out.push(Sample {
            cells: cells_of(board),
            result,
            table_eval: evaluate(board),
            target: result,
            game: index,
            ply: board.ply() as u16,
        });
    });
}

/// The cells that take part, as the mover sees them.
fn cells_of(board: &Board) -> Vec<CellSeen> {
    let me = board.side();
    (0..board.slots())
        .filter(|&i| board.is_empty(i))
        .filter_map(|i| {
            let (own, other) = (board.key(i, me), board.key(i, 1 - me));
            counts(own, other).then(|| CellSeen {
                pairs: pairs(own, other).map(|p| p as u8),
                codes: board.line_codes(i).map(|c| [c[me], c[1 - me]]),
            })
        })
        .collect()
}

/// The target of each sample: `result_weight` of its result and the rest of its search's
/// chance (a position the search could not value keeps its result).
fn mix(set: &mut [Sample], chances: &[Option<f32>], result_weight: f32) {
    for (s, chance) in set.iter_mut().zip(chances) {
        if let Some(chance) = chance {
            s.target = result_weight * s.result + (1.0 - result_weight) * chance;
        }
    }
}

/// The win chance of a `label_nodes`-node search by `table` (the tables' sums, or a network)
/// of each sample's position.
fn search_chances(
    set: &[Sample],
    games: &[&RecordedGame],
    table: &'static WeightTable,
    settings: TrainSettings,
    k: f64,
) -> Vec<Option<f32>> {
    let per = set.len().div_ceil(settings.threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = set
            .chunks(per)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut engine = Engine::new(16);
                    // The given judge, whatever network is shipped: the labels stay the same.
                    engine.set_weights(Some(table));
                    let limits = Limits::nodes(settings.label_nodes);
                    chunk
                        .iter()
                        .map(|s| {
                            let game = games[s.game as usize];
                            let moves = &game.moves[..usize::from(s.ply)];
                            let pos = mnk_core::Position::from_moves(game.rules, moves).ok()?;
                            let found = engine.analyse(&pos, &limits, &mut |_| {}).ok()?;
                            Some(match found.value {
                                Value::Win(_) => 1.0,
                                Value::Loss(_) => 0.0,
                                Value::Draw => 0.5,
                                Value::Eval(e) => sigmoid(k * f64::from(e)) as f32,
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| p.join().expect("a label thread panicked"))
            .collect()
    })
}

fn spread(values: impl Iterator<Item = i32>) -> f64 {
    let v: Vec<f64> = values.map(f64::from).collect();
    let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
    (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len().max(1) as f64).sqrt()
}

fn table_error(set: &[Sample], k: f64) -> f64 {
    mean_error(set, |s| sigmoid(k * f64::from(s.table_eval)))
}

fn mean_error(set: &[Sample], chance: impl Fn(&Sample) -> f64) -> f64 {
    let sum: f64 = set
        .iter()
        .map(|s| (f64::from(s.result) - chance(s)).powi(2))
        .sum();
    sum / set.len().max(1) as f64
}

fn int_eval(net: &Net, s: &Sample) -> i32 {
    // The board's own sums, with the mover's keys first (view 0).
    let mut acc = Accumulator::new(net, s.cells.len());
    for (i, c) in s.cells.iter().enumerate() {
        let (own, other) = keys_of(c.pairs);
        acc.add_cell(i, [own, other], c.codes);
    }
    acc.evaluate(0)
}

/// Packed keys with the cell's four pairs (own in the first).
fn keys_of(c: [u8; 4]) -> (u16, u16) {
    let (mut own, mut other) = (0u16, 0u16);
    for (d, &p) in c.iter().enumerate() {
        own |= u16::from(p / 10) << (4 * d);
        other |= u16::from(p % 10) << (4 * d);
    }
    (own, other)
}

fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn shuffle(order: &mut [usize], rng: &mut Rng) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

/// The pair seen from the other player's side.
fn swapped(p: u8) -> usize {
    usize::from(p % 10) * 10 + usize::from(p / 10)
}

// Offsets of the parameters in `Model::w`.
const PAIR_AT: usize = 0;
const OWN_AT: usize = PAIR_AT + PAIRS * DIMS;
const OPP_AT: usize = OWN_AT + CODES * DIMS;
const BIAS_AT: usize = OPP_AT + CODES * DIMS;
const HIDDEN_AT: usize = BIAS_AT + DIMS;
const HIDDEN_BIAS_AT: usize = HIDDEN_AT + HIDDEN * 2 * DIMS;
const OUT_AT: usize = HIDDEN_BIAS_AT + HIDDEN;
const OUT_BIAS_AT: usize = OUT_AT + HIDDEN;
const PARAMS: usize = OUT_BIAS_AT + 1;

/// The network in floating point, its parameters in one vector.
struct Model {
    w: Vec<f32>,
}

/// What a forward pass leaves for the backward one.
struct Forward {
    x: [f32; 2 * DIMS],
    pre: [f32; HIDDEN],
    z: f32,
}

impl Model {
    fn new(seed: u64) -> Model {
        let mut rng = Rng::seeded(seed);
        let mut uniform = |r: f32| (rng.unit() as f32 * 2.0 - 1.0) * r;
        let mut w = vec![0f32; PARAMS];
        for x in &mut w[PAIR_AT..OWN_AT] {
            *x = uniform(0.25);
        }
        // The code rows start at zero: at first the network reads the pattern pairs alone.
        w[BIAS_AT..HIDDEN_AT].fill(0.25);
        for x in &mut w[HIDDEN_AT..HIDDEN_BIAS_AT] {
            *x = uniform(0.3);
        }
        w[HIDDEN_BIAS_AT..OUT_AT].fill(0.3);
        for x in &mut w[OUT_AT..OUT_BIAS_AT] {
            *x = uniform(0.1);
        }
        Model { w }
    }

    /// A cell's vector before clipping, seen by one player: the offsets of its rows in `w`.
    fn cell_pre(&self, rows: &[usize; 12]) -> [f32; DIMS] {
        let mut v = [0f32; DIMS];
        v.copy_from_slice(&self.w[BIAS_AT..BIAS_AT + DIMS]);
        for &at in rows {
            for (x, r) in v.iter_mut().zip(&self.w[at..at + DIMS]) {
                *x += r;
            }
        }
        v
    }

    /// The offsets in `w` of the rows a cell adds up, seen by the mover, then by the opponent.
    fn views(c: &CellSeen) -> [[usize; 12]; 2] {
        let seen = |pair: &dyn Fn(u8) -> usize, own: usize| -> [usize; 12] {
            std::array::from_fn(|i| {
                let d = i % 4;
                match i / 4 {
                    0 => PAIR_AT + pair(c.pairs[d]) * DIMS,
                    1 => OWN_AT + usize::from(c.codes[d][own]) * DIMS,
                    _ => OPP_AT + usize::from(c.codes[d][1 - own]) * DIMS,
                }
            })
        };
        [seen(&usize::from, 0), seen(&swapped, 1)]
    }

    fn forward(&self, s: &Sample) -> Forward {
        let mut x = [0f32; 2 * DIMS];
        for c in &s.cells {
            for (view, rows) in Model::views(c).iter().enumerate() {
                for (j, v) in self.cell_pre(rows).into_iter().enumerate() {
                    x[view * DIMS + j] += v.clamp(0.0, 1.0);
                }
            }
        }
        let inv = 1.0 / POOL_SCALE as f32;
        x.iter_mut().for_each(|v| *v *= inv);
        let mut pre = [0f32; HIDDEN];
        let mut z = self.w[OUT_BIAS_AT];
        for (k, p) in pre.iter_mut().enumerate() {
            let row = &self.w[HIDDEN_AT + k * 2 * DIMS..HIDDEN_AT + (k + 1) * 2 * DIMS];
            *p = self.w[HIDDEN_BIAS_AT + k] + row.iter().zip(&x).map(|(a, b)| a * b).sum::<f32>();
            z += self.w[OUT_AT + k] * p.clamp(0.0, 1.0);
        }
        Forward { x, pre, z }
    }

    /// Adds the gradient of the cross-entropy at `s` to `g`.
    fn backward(&self, s: &Sample, g: &mut [f32]) {
        let f = self.forward(s);
        let dz = sigmoid_f32(f.z) - s.target;
        g[OUT_BIAS_AT] += dz;
        let mut dx = [0f32; 2 * DIMS];
        for k in 0..HIDDEN {
            let h = f.pre[k].clamp(0.0, 1.0);
            g[OUT_AT + k] += dz * h;
            if f.pre[k] <= 0.0 || f.pre[k] >= 1.0 {
                continue;
            }
            let dh = dz * self.w[OUT_AT + k];
            g[HIDDEN_BIAS_AT + k] += dh;
            let at = HIDDEN_AT + k * 2 * DIMS;
            for j in 0..2 * DIMS {
                g[at + j] += dh * f.x[j];
                dx[j] += dh * self.w[at + j];
            }
        }
        let inv = 1.0 / POOL_SCALE as f32;
        dx.iter_mut().for_each(|v| *v *= inv);
        for c in &s.cells {
            for (view, rows) in Model::views(c).iter().enumerate() {
                let pre = self.cell_pre(rows);
                let mut dv = [0f32; DIMS];
                for j in 0..DIMS {
                    if pre[j] > 0.0 && pre[j] < 1.0 {
                        dv[j] = dx[view * DIMS + j];
                    }
                }
                for j in 0..DIMS {
                    g[BIAS_AT + j] += dv[j];
                }
                for &at in rows {
                    for (r, d) in g[at..at + DIMS].iter_mut().zip(&dv) {
                        *r += d;
                    }
                }
            }
        }
    }

    /// The integer network: `z / k` in evaluation units.
    fn quantized(&self, k: f64) -> Net {
        let limit = MAX_CELL_WEIGHT as f32;
        let q16 = |x: f32| (x * QA as f32).round().clamp(-limit, limit) as i16;
        let rows = |at: usize, n: usize| -> Vec<[i16; DIMS]> {
            (0..n)
                .map(|r| std::array::from_fn(|j| q16(self.w[at + r * DIMS + j])))
                .collect()
        };
        let cell = CellLayer {
            pair: rows(PAIR_AT, PAIRS),
            own_code: rows(OWN_AT, CODES),
            opp_code: rows(OPP_AT, CODES),
            bias: std::array::from_fn(|j| q16(self.w[BIAS_AT + j])),
        };
        let hidden = (0..HIDDEN)
            .map(|h| {
                std::array::from_fn(|j| {
                    ((self.w[HIDDEN_AT + h * 2 * DIMS + j] * QW as f32).round() as i32)
                        .clamp(-MAX_WEIGHT, MAX_WEIGHT)
                })
            })
            .collect();
        let hidden_bias = std::array::from_fn(|h| {
            ((self.w[HIDDEN_BIAS_AT + h] * QA as f32).round() as i32)
                .clamp(-MAX_HIDDEN_BIAS, MAX_HIDDEN_BIAS)
        });
        let out = std::array::from_fn(|h| {
            ((f64::from(self.w[OUT_AT + h]) / k * f64::from(QO)).round() as i32)
                .clamp(-MAX_OUT, MAX_OUT)
        });
        Net::new(
            cell,
            hidden,
            hidden_bias,
            out,
            ((f64::from(self.w[OUT_BIAS_AT]) / k).round() as i32)
                .clamp(-MAX_OUT_BIAS, MAX_OUT_BIAS),
        )
    }
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..w.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g[i] * g[i];
            w[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::RecordedEnding;
    use mnk_core::{Cell, Position, Rules};

    /// Games of the engine at a few hundred nodes a move from random three-stone openings on
    /// 9×9, played to the end.
    fn games(n: usize) -> Vec<RecordedGame> {
        let rules: Rules = "9x9x5".parse().unwrap();
        let mut rng = Rng::seeded(4);
        let mut engine = Engine::new(1);
        (0..n)
            .map(|_| {
                let mut pos = Position::new(rules);
                while pos.history().len() < 3 {
                    let c = Cell::new(2 + rng.below(5) as i32, 2 + rng.below(5) as i32);
                    let _ = pos.try_play(c);
                }
                while !pos.is_over() {
                    let found = engine
                        .analyse(&pos, &Limits::nodes(300), &mut |_| {})
                        .unwrap();
                    pos.try_play(found.best).unwrap();
                }
                RecordedGame {
                    rules,
                    winner: pos.outcome().winner(),
                    ending: RecordedEnding::Line,
                    opening_plies: 3,
                    moves: pos.history().to_vec(),
                }
            })
            .collect()
    }

    #[test]
    fn training_is_repeatable_and_learns_the_results() {
        let games = games(60);
        let settings = TrainSettings {
            epochs: 12,
            batch: 32,
            step: 0.01,
            ..TrainSettings::default()
        };
        let a = train(&games, Variant::Freestyle, settings, None).unwrap();
        let b = train(&games, Variant::Freestyle, settings, None).unwrap();
        assert_eq!(
            a.net, b.net,
            "the same games and seed give the same network"
        );
        assert!(a.train_positions > 200 && a.held_out_positions > 0);
        // Fitting the positions it learns from: better than knowing nothing (a chance of ½
        // for every position has an error of ¼ or less).
        let learnt = mean_error(&games_samples(&games), |s| {
            sigmoid(a.k * f64::from(int_eval(&a.net, s)))
        });
        assert!(learnt < 0.2, "{learnt}");
        // The integer network is the floating-point one within rounding.
        let last = *a.epoch_errors.last().unwrap();
        assert!((a.net_error - last).abs() < 0.01, "{} {last}", a.net_error);
    }

    #[test]
    fn the_last_passes_weights_are_averaged() {
        let games = games(40);
        let settings = |average_last| TrainSettings {
            epochs: 8,
            batch: 32,
            step: 0.01,
            average_last,
            ..TrainSettings::default()
        };
        let run = |average_last| train(&games, Variant::Freestyle, settings(average_last), None);
        let (plain, one, four) = (run(0).unwrap(), run(1).unwrap(), run(4).unwrap());
        // The mean of one pass is that pass.
        assert_eq!(plain.net, one.net);
        assert_eq!(plain.averaged_error, None);
        assert_eq!(one.averaged_error, plain.epoch_errors.last().copied());
        // Four passes' mean is another network, and the one written (within rounding).
        assert_ne!(four.net, plain.net);
        let averaged = four.averaged_error.unwrap();
        assert!(
            (four.net_error - averaged).abs() < 0.01,
            "{} {averaged}",
            four.net_error
        );
        // The passes themselves are the same until the averaging's end.
        assert_eq!(four.epoch_errors, plain.epoch_errors);
    }

    #[test]
    fn the_code_rows_decay_towards_zero() {
        let games = games(30);
        let settings = |code_decay| TrainSettings {
            epochs: 4,
            batch: 32,
            step: 0.01,
            code_decay,
            ..TrainSettings::default()
        };
        let size = |decay| {
            let net = train(&games, Variant::Freestyle, settings(decay), None)
                .unwrap()
                .net;
            let rows = net.cell.own_code.iter().chain(&net.cell.opp_code);
            rows.flatten().map(|&x| i64::from(x).abs()).sum::<i64>()
        };
        let (free, decayed) = (size(0.0), size(20.0));
        // The codes are learnt (the games show them) and the decay holds them down.
        assert!(free > 0 && decayed * 2 < free, "{free} {decayed}");
    }

    #[test]
    fn calibration_undoes_an_overconfident_scale_and_leaves_proofs_alone() {
        // Results drawn with the chance sigmoid(x), labels twice as sure: sigmoid(2x).
        let mut rng = Rng::seeded(3);
        let mut set = Vec::new();
        let mut chances = Vec::new();
        for i in 0..20_000u32 {
            let x = f64::from(i % 400) / 50.0 - 4.0;
            let won = rng.unit() < sigmoid(x);
            set.push(Sample {
                cells: Vec::new(),
                result: if won { 1.0 } else { 0.0 },
                table_eval: 0,
                target: 0.0,
                game: i,
                ply: 0,
            });
            chances.push(Some(sigmoid(2.0 * x) as f32));
        }
        chances[0] = Some(1.0);
        chances[1] = None;
        let mut held_out = vec![Some(sigmoid(2.0) as f32), Some(0.0)];
        let a = calibrate(&set, &mut chances, &mut held_out);
        assert!((0.45..0.55).contains(&a), "factor {a}");
        assert_eq!(chances[0], Some(1.0), "a proven win stays one");
        assert_eq!(chances[1], None);
        assert_eq!(held_out[1], Some(0.0), "a proven loss stays zero");
        let calibrated = f64::from(held_out[0].unwrap());
        assert!((calibrated - sigmoid(2.0 * a)).abs() < 1e-6);
    }

    fn games_samples(games: &[RecordedGame]) -> Vec<Sample> {
        let table = WeightTable::shipped(Variant::Freestyle);
        let mut out = Vec::new();
        for (i, g) in distinct_games(games, Variant::Freestyle).iter().enumerate() {
            game_samples(g, i as u32, table, &mut out);
        }
        out
    }

    #[test]
    fn search_labels_mix_into_the_targets() {
        let games = games(6);
        let used = distinct_games(&games, Variant::Freestyle);
        let mut set = Vec::new();
        for (i, g) in used.iter().enumerate() {
            game_samples(
                g,
                i as u32,
                WeightTable::shipped(Variant::Freestyle),
                &mut set,
            );
        }
        let settings = TrainSettings {
            label_nodes: 500,
            result_weight: 0.25,
            threads: 2,
            ..TrainSettings::default()
        };
        let table = WeightTable::shipped(Variant::Freestyle);
        let mut two = set.clone();
        mix(
            &mut two,
            &search_chances(&set, &used, table, settings, 0.0005),
            settings.result_weight,
        );
        let mut one = set.clone();
        let one_thread = TrainSettings {
            threads: 1,
            ..settings
        };
        mix(
            &mut one,
            &search_chances(&set, &used, table, one_thread, 0.0005),
            settings.result_weight,
        );
        let targets = |s: &[Sample]| s.iter().map(|x| x.target).collect::<Vec<_>>();
        assert_eq!(targets(&one), targets(&two), "threads change nothing");
        // A network's search labels the same positions otherwise.
        let net = WeightTable::shipped_net(&"15x15x5".parse().unwrap()).unwrap();
        let judged_by_net = WeightTable::new(table.weights().clone()).with_net(Some(net));
        let by_net = search_chances(
            &set,
            &used,
            Box::leak(Box::new(judged_by_net)),
            settings,
            0.0005,
        );
        let by_tables = search_chances(&set, &used, table, settings, 0.0005);
        assert_eq!(by_net.len(), by_tables.len());
        assert_ne!(by_net, by_tables);
        // Each target is a quarter result plus three quarters of a chance in [0, 1].
        assert!(one
            .iter()
            .all(|s| (0.25 * s.result..=0.25 * s.result + 0.75).contains(&s.target)));
        assert!(one.iter().any(|s| s.target != s.result));
    }

    #[test]
    fn the_step_falls_from_the_first_pass_to_the_last() {
        let settings = TrainSettings {
            epochs: 5,
            step: 0.01,
            final_step: 0.001,
            ..TrainSettings::default()
        };
        let steps: Vec<f32> = (0..5).map(|e| step_size(settings, e)).collect();
        assert!(
            (steps[0] - 0.01).abs() < 1e-7 && (steps[4] - 0.001).abs() < 1e-7,
            "{steps:?}"
        );
        assert!(
            (steps[2] - 0.0055).abs() < 1e-6,
            "halfway, half the fall: {steps:?}"
        );
        assert!(steps.windows(2).all(|w| w[1] < w[0]), "{steps:?}");
        // Without a final step of its own, the step stays.
        let constant = TrainSettings::default();
        assert!((0..30).all(|e| step_size(constant, e) == constant.step));
    }

    #[test]
    fn a_labels_file_gives_the_same_network_and_grows_with_the_games() {
        let games = games(12);
        let settings = TrainSettings {
            epochs: 3,
            batch: 32,
            label_nodes: 300,
            threads: 2,
            ..TrainSettings::default()
        };
        let dir = std::env::temp_dir().join(format!("mnk-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("labels.txt");
        let lines = || std::fs::read_to_string(&file).unwrap().lines().count();
        // Labels of the first eight games, then of all twelve: the file keeps both.
        train(&games[..8], Variant::Freestyle, settings, Some(&file)).unwrap();
        let first = lines();
        let searched = train(&games, Variant::Freestyle, settings, None).unwrap();
        let read = train(&games, Variant::Freestyle, settings, Some(&file)).unwrap();
        assert!(lines() > first, "{} {first}", lines());
        assert_eq!(
            searched.net, read.net,
            "labels read back give the same network"
        );
        let again = train(&games, Variant::Freestyle, settings, Some(&file)).unwrap();
        assert_eq!(again.net, read.net);
        // Another node count or a damaged file: refused with the reason, the file unchanged.
        let before = std::fs::read_to_string(&file).unwrap();
        let deeper = TrainSettings {
            label_nodes: 400,
            ..settings
        };
        let e = train(&games, Variant::Freestyle, deeper, Some(&file)).unwrap_err();
        assert!(e.contains("not of 400-node searches by the tables;"), "{e}");
        let by_net = TrainSettings {
            label_net: WeightTable::shipped_net(&"9x9x5".parse().unwrap()),
            ..settings
        };
        let e = train(&games, Variant::Freestyle, by_net, Some(&file)).unwrap_err();
        assert!(
            e.contains("not of 300-node searches by the network "),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
        std::fs::write(&file, format!("{}\nzz 0.5\n", labels_header(settings))).unwrap();
        let e = train(&games, Variant::Freestyle, settings, Some(&file)).unwrap_err();
        assert!(e.contains("line 2: 'zz 0.5' is no label"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
