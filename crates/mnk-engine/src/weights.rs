//! The attack-weight heat map and the one-ply bot of "tic-tac-toe without borders".
//!
//! For every empty cell near the stones, the bot puts each side's stone there in turn and looks
//! along the four lines through it for *attacks*: runs of that side's stones. An attack has a
//! *power* (stones in the run), a *potential* (open ends, 0–2) and a *divider* (1 for the run
//! through the cell, one more for each empty cell between it and a run further along the line,
//! which counts for less). Each attack weighs `ATTACK_WEIGHT[power][potential] / divider`; a
//! line that is a *breakpoint* (a four, an open three, or a three with one gap) counts, and the
//! second breakpoint of the same side adds 100 instead of its line's attacks. The cell's weight is
//! the sum over both sides; the heaviest cell is played. The original was written for five in a
//! row; for other k a run is weighed as if it were `5 - k` stones longer.
//!
//! Two bonuses make the bot's last move sure, as the original meant them to: completing its own
//! line adds [`OWN_LINE_BONUS`], and taking the cell where the opponent would complete one adds
//! [`BLOCK_BONUS`] (the original's 200 for a five could be outweighed by a cell with many
//! attacks; a missed block loses the game at once).
//!
//! The map costs a few microseconds per cell, and the cells grow with the stones (some 25,000
//! around 1,024 scattered stones), so it can be cut short: [`attack_weights_within`] reads the
//! limits every [`CHECK_EVERY_CELLS`] cells. Cells are weighed around the newest stones first,
//! so that a map cut short still covers where the game is being played; the bots then choose
//! among the cells weighed so far.
//!
//! Weighing tells a [`WeightRecorder`] each attack, breakpoint and bonus it adds: [`NoWeights`]
//! for the heat map and the bots' play, a [`CellRecorder`] for [`cell_breakdown`], which shows
//! how a cell's weight adds up by the same code that weighs it.

use std::collections::HashSet;

use mnk_core::{Cell, Player, Position};

use crate::bot::{Bot, BotError, Choice};
use crate::explain::weights::{
    AttackWeight, Bonus, CellRecorder, CellWeights, NoWeights, WeightRecorder, WeightsExplanation,
};
use crate::explain::Explanation;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::Explained;

/// The original's weights, `[power][potential]` for power 1..5, potential 0..2.
const ATTACK_WEIGHT: [[f64; 3]; 6] = [
    [0.0, 0.0, 0.0],
    [0.0, 0.1, 0.25],
    [0.0, 2.0, 5.0],
    [0.0, 4.0, 7.0],
    [0.0, 6.0, 100.0],
    [200.0, 200.0, 200.0],
];
/// Added for the second breakpoint of one side.
const DOUBLE_BREAKPOINT: f64 = 100.0;
/// Added when the cell completes the mover's own line.
pub const OWN_LINE_BONUS: f64 = 10_000.0;
/// Added when the cell is where the opponent would complete a line.
pub const BLOCK_BONUS: f64 = 1_000.0;
/// How far from the stones cells are weighed.
const RADIUS: i32 = 2;
/// Cells weighed between readings of the limits.
pub const CHECK_EVERY_CELLS: usize = 32;
/// How many of the heaviest cells an explanation shows.
const EXPLAINED_CELLS: usize = 5;

/// One run of stones seen from the weighed cell.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Attack {
    power: u32,
    potential: u32,
    divider: u32,
}

/// What a scanned cell holds, as the original saw it.
#[derive(Clone, Copy, PartialEq)]
enum Seen {
    Own,
    Enemy,
    Empty,
    Border,
}

/// Collects the attacks on one line through `cell` if `figure` were placed there.
/// Inlined into each weighing, as it was when [`side_weight`] had one instance: the no-op
/// recorder's weighing must cost what it did before recorders.
#[inline(always)]
fn line_attacks(pos: &Position, cell: Cell, figure: Player, (dx, dy): (i32, i32)) -> Vec<Attack> {
    let k = pos.rules().k();
    let seen = |c: Cell| {
        if !pos.rules().contains(c) {
            Seen::Border
        } else {
            match pos.stone(c) {
                Some(p) if p == figure => Seen::Own,
                Some(_) => Seen::Enemy,
                None => Seen::Empty,
            }
        }
    };
    let mut attacks = Vec::new();
    let mut current = Attack {
        power: 1,
        potential: 0,
        divider: 1,
    };
    let mut place = 1;
    for sign in [-1, 1] {
        if sign == 1 {
            // Turn around: the run through the cell, pushed first, continues on the other side.
            current = attacks.remove(0);
        }
        let mut check_edge = false;
        for step in 1..=k as i32 {
            let fig = seen(cell.offset(dx * sign, dy * sign, step));
            match fig {
                Seen::Enemy | Seen::Border => {
                    attacks.push(current);
                    break;
                }
                Seen::Own => {
                    current.power += 1;
                    place += 1;
                }
                Seen::Empty => {
                    if current.power > 0 {
                        current.potential += 1;
                        attacks.push(current);
                        current = Attack {
                            power: 0,
                            potential: 1,
                            divider: 1,
                        };
                    }
                    current.divider += 1;
                    place += 1;
                }
            }
            if step == k as i32 - 1 && fig == Seen::Own {
                check_edge = true;
            } else if step == k as i32 {
                if check_edge {
                    if fig == Seen::Own || fig == Seen::Empty {
                        current.potential += 1;
                    }
                    attacks.push(current);
                }
                break;
            }
        }
    }
    // Drop hopeless attacks: no room for a line, no stones, or no open end (unless complete).
    if place < k {
        return Vec::new();
    }
    attacks.retain(|a| (a.power > 0 && a.potential > 0) || a.power >= k);
    attacks
}

/// The original's breakpoint test on one line's attacks.
fn is_breakpoint(attacks: &[Attack], k: u32) -> bool {
    let Some(centre) = attacks.iter().find(|a| a.divider == 1) else {
        return false;
    };
    if centre.power + 1 >= k || (centre.potential == 2 && centre.power + 2 >= k) {
        return true;
    }
    attacks.iter().filter(|a| a.divider == 2).any(|side| {
        let both_open = u32::from(centre.potential == 2 && side.potential == 2);
        centre.power + both_open + side.power + 1 >= k
    })
}

fn attack_weight(a: &Attack, k: u32, exact: bool) -> f64 {
    if a.power >= k {
        return if exact && a.power > k {
            0.0
        } else {
            ATTACK_WEIGHT[5][a.potential.min(2) as usize]
        };
    }
    let scaled = a.power as i64 + 5 - k as i64;
    if scaled < 1 {
        return 0.0;
    }
    ATTACK_WEIGHT[scaled.min(4) as usize][a.potential.min(2) as usize] / f64::from(a.divider)
}

/// The weight one side's stone on `cell` adds: its attacks, breakpoints and line bonuses, told
/// to `recorder` as they are added.
fn side_weight<R: WeightRecorder>(
    pos: &Position,
    cell: Cell,
    figure: Player,
    recorder: &mut R,
) -> f64 {
    let k = pos.rules().k();
    // Whether this side's overline wins is the rules' to say (renju: white's does, black's not).
    let exact = !pos.rules().run_wins(figure, k + 1, 0);
    let mover = pos.to_move();
    let mut weight = 0.0;
    let mut breakpoints = 0;
    recorder.side(figure);
    // The original's order of lines: 0°, 45°, 90°, 135°.
    for dir in [(1, 0), (1, -1), (0, 1), (1, 1)] {
        let attacks = line_attacks(pos, cell, figure, dir);
        let breakpoint = is_breakpoint(&attacks, k);
        if breakpoint {
            breakpoints += 1;
            if breakpoints == 2 {
                recorder.line(dir, true, Some(DOUBLE_BREAKPOINT));
                weight += DOUBLE_BREAKPOINT;
                if R::RECORDS {
                    for a in &attacks {
                        recorder.attack(recorded(a, attack_weight(a, k, exact)));
                    }
                }
                continue;
            }
        }
        recorder.line(dir, breakpoint, None);
        for a in &attacks {
            let w = attack_weight(a, k, exact);
            recorder.attack(recorded(a, w));
            weight += w;
        }
    }
    if pos.wins_at(cell, figure) {
        if figure == mover {
            recorder.bonus(Bonus::OwnLine, OWN_LINE_BONUS);
            weight += OWN_LINE_BONUS;
        } else {
            recorder.bonus(Bonus::Block, BLOCK_BONUS);
            weight += BLOCK_BONUS;
        }
    }
    recorder.side_weight(weight);
    weight
}

/// An attack weighing `weight`, as an explanation shows it.
fn recorded(a: &Attack, weight: f64) -> AttackWeight {
    AttackWeight {
        power: a.power,
        potential: a.potential,
        divider: a.divider,
        weight,
    }
}

/// The weight of `cell` for the side to move: both sides' stones substituted there.
#[must_use]
pub fn cell_weight(pos: &Position, cell: Cell) -> f64 {
    cell_weight_with(pos, cell, &mut NoWeights)
}

/// [`cell_weight`], telling `recorder` how it adds up.
fn cell_weight_with<R: WeightRecorder>(pos: &Position, cell: Cell, recorder: &mut R) -> f64 {
    side_weight(pos, cell, Player::X, recorder) + side_weight(pos, cell, Player::O, recorder)
}

/// How `cell`'s weight adds up, by the code that weighs it.
#[must_use]
pub fn cell_breakdown(pos: &Position, cell: Cell) -> CellWeights {
    let mut recorder = CellRecorder::new();
    let weight = cell_weight_with(pos, cell, &mut recorder);
    recorder.finish(cell, weight)
}

/// The explanation of a choice among `choices` from the heat map `weights` (heaviest first):
/// the heaviest cells and the chosen one, each broken down.
pub(crate) fn explanation(
    pos: &Position,
    weights: &[(Cell, f64)],
    choices: Vec<Cell>,
    chosen: Cell,
    mistake: bool,
) -> WeightsExplanation {
    let mut cells: Vec<Cell> = weights
        .iter()
        .take(EXPLAINED_CELLS)
        .map(|(c, _)| *c)
        .collect();
    if !cells.contains(&chosen) {
        cells.push(chosen);
    }
    WeightsExplanation {
        to_move: pos.to_move(),
        weighed: weights.len(),
        cells: cells.into_iter().map(|c| cell_breakdown(pos, c)).collect(),
        choices,
        mistake,
    }
}

/// The heat map: every empty cell within two of a stone (the centre on an empty board) with its
/// weight, heaviest first, ties by cell (row, then column). Empty when the game is over.
#[must_use]
pub fn attack_weights(pos: &Position) -> Vec<(Cell, f64)> {
    attack_weights_within(pos, &Limits::none()).expect("no limits, no stopping")
}

/// The heat map of [`attack_weights`] within `limits`: the limits are read every
/// [`CHECK_EVERY_CELLS`] cells, and once they say stop the answer is
/// [`BotError::OutOfTime`] with the number of cells weighed.
pub fn attack_weights_within(
    pos: &Position,
    limits: &Limits,
) -> Result<Vec<(Cell, f64)>, BotError> {
    let (weights, complete) = weigh(pos, limits);
    if complete {
        Ok(weights)
    } else {
        Err(BotError::OutOfTime {
            nodes: weights.len() as u64,
        })
    }
}

/// The cells weighed before the limits stopped (all of them if they did not), sorted as
/// [`attack_weights`] sorts them, and whether the map is complete. Always weighs at least one
/// cell of an unfinished game, so a bot stopped at once still has a move.
pub(crate) fn weigh(pos: &Position, limits: &Limits) -> (Vec<(Cell, f64)>, bool) {
    if pos.is_over() {
        return (Vec::new(), true);
    }
    let mut weights: Vec<(Cell, f64)> = Vec::new();
    let mut complete = true;
    // Renju's forbidden points are no moves for black: not weighed when black is to move.
    let forbidden: HashSet<Cell> = if pos.rules().has_forbidden_moves(pos.to_move()) {
        pos.forbidden_cells().into_iter().collect()
    } else {
        HashSet::new()
    };
    if pos.ply() == 0 {
        weights.extend(
            pos.cells_near_stones(RADIUS)
                .into_iter()
                .map(|c| (c, cell_weight(pos, c))),
        );
    } else {
        let mut seen = HashSet::new();
        'stones: for &stone in pos.history().iter().rev() {
            for dy in -RADIUS..=RADIUS {
                for dx in -RADIUS..=RADIUS {
                    let c = stone.offset(dx, dy, 1);
                    if !pos.is_free(c) || forbidden.contains(&c) || !seen.insert(c) {
                        continue;
                    }
                    weights.push((c, cell_weight(pos, c)));
                    if weights.len() % CHECK_EVERY_CELLS == 0 && limits.should_stop() {
                        complete = false;
                        break 'stones;
                    }
                }
            }
        }
    }
    weights.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then((a.0.y, a.0.x).cmp(&(b.0.y, b.0.x)))
    });
    (weights, complete)
}

/// The one-ply attack-weight bot: plays the heaviest cell, choosing at random among equals.
#[derive(Debug)]
pub struct WeightsBot {
    rng: Rng,
}

impl WeightsBot {
    /// A weights bot whose choices among equal cells follow `seed`.
    #[must_use]
    pub fn new(seed: u64) -> WeightsBot {
        WeightsBot {
            rng: Rng::seeded(seed),
        }
    }
}

impl Bot for WeightsBot {
    fn id(&self) -> &'static str {
        "weights"
    }

    /// Plays the heaviest cell; stopped by the limits, the heaviest of the cells weighed so far.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        Ok(self.pick(pos, limits)?.choice())
    }

    fn explain(&mut self, pos: &Position, limits: &Limits) -> Result<Explained, BotError> {
        let pick = self.pick(pos, limits)?;
        Ok(Explained {
            choice: pick.choice(),
            explanation: Explanation::Weights(explanation(
                pos,
                &pick.weights,
                pick.best,
                pick.cell,
                false,
            )),
        })
    }
}

/// The weights bot's pick: the heat map, the cells of the top weight, the one picked.
struct Pick {
    weights: Vec<(Cell, f64)>,
    best: Vec<Cell>,
    cell: Cell,
}

impl Pick {
    fn choice(&self) -> Choice {
        Choice {
            nodes: self.weights.len() as u64,
            ..Choice::just(self.cell)
        }
    }
}

impl WeightsBot {
    /// The heat map, the cells of the top weight, and the one picked among them.
    fn pick(&mut self, pos: &Position, limits: &Limits) -> Result<Pick, BotError> {
        let (weights, _complete) = weigh(pos, limits);
        let top = weights.first().ok_or(BotError::GameOver)?.1;
        let best: Vec<Cell> = weights
            .iter()
            .take_while(|(_, w)| *w == top)
            .map(|(c, _)| *c)
            .collect();
        let cell = self.rng.pick(&best).expect("at least one cell");
        Ok(Pick {
            weights,
            best,
            cell,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mnk_core::Preset;

    fn gomoku(diagram: &str) -> Position {
        Position::from_diagram(Preset::Unbounded.rules(), diagram).unwrap()
    }

    #[test]
    fn an_open_three_is_a_breakpoint_and_scores_like_the_original() {
        // X X [X] with open ends: the cell between makes an open three.
        let pos = gomoku("@ 0,0\n. X X . . . .\n. O . O . . .");
        let attacks = line_attacks(&pos, Cell::new(3, 0), Player::X, (1, 0));
        assert!(
            attacks.contains(&Attack {
                power: 3,
                potential: 2,
                divider: 1
            }),
            "{attacks:?}"
        );
        assert!(is_breakpoint(&attacks, 5));
    }

    #[test]
    fn gaps_divide_side_attacks() {
        // [X] . X X : the side attack of two sits behind one gap, divider 2.
        let pos = gomoku("@ 0,0\n. . . X X . .\n. O O . . . .");
        let attacks = line_attacks(&pos, Cell::new(1, 0), Player::X, (1, 0));
        assert!(
            attacks.iter().any(|a| a.power == 2 && a.divider == 2),
            "{attacks:?}"
        );
    }
}
