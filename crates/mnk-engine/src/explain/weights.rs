//! How the attack-weight bot's weights add up: for a cell, each side's stone put there, the
//! attacks it finds along each of the four lines (power, potential, divider, and what each
//! weighs), the lines that are breakpoints, the second breakpoint's bonus in place of its line's
//! attacks, and the bonuses for completing or blocking a line.

use mnk_core::{Cell, Player};

/// What the weighing hands its recorder. Every method has a default that does nothing, and the
/// ordinary path passes [`NoWeights`], so the calls compile to nothing there.
pub trait WeightRecorder {
    /// Whether the recorder keeps anything: work done only for it is skipped when not.
    const RECORDS: bool = false;

    /// `side`'s stone is put on the cell.
    #[inline(always)]
    fn side(&mut self, side: Player) {
        let _ = side;
    }

    /// The attacks along `direction` come next; whether the line is a breakpoint, and if it is
    /// the side's second, the bonus it adds instead of its attacks.
    #[inline(always)]
    fn line(&mut self, direction: (i32, i32), breakpoint: bool, double_breakpoint: Option<f64>) {
        let _ = (direction, breakpoint, double_breakpoint);
    }

    /// One attack along the line, with its weight (not counted on the second breakpoint's line).
    #[inline(always)]
    fn attack(&mut self, attack: AttackWeight) {
        let _ = attack;
    }

    /// A bonus for the cell's line: the mover completing its own, or blocking the opponent's.
    #[inline(always)]
    fn bonus(&mut self, bonus: Bonus, weight: f64) {
        let _ = (bonus, weight);
    }

    /// The side's weight, as the bot adds it.
    #[inline(always)]
    fn side_weight(&mut self, weight: f64) {
        let _ = weight;
    }
}

/// The recorder of weighing nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoWeights;

impl WeightRecorder for NoWeights {}

/// The bonus a line through the cell earns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    /// The side to move completes its own line there.
    OwnLine,
    /// The opponent would complete a line there.
    Block,
}

/// One attack: a run of the side's stones seen from the cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackWeight {
    /// Stones in the run.
    pub power: u32,
    /// Open ends, 0 to 2.
    pub potential: u32,
    /// 1 for the run through the cell; one more for each empty cell between it and a run
    /// further along the line.
    pub divider: u32,
    /// What it weighs: the original's table at `[power][potential]`, over the divider.
    pub weight: f64,
}

/// One of the four lines through the cell, for one side.
#[derive(Clone, Debug, PartialEq)]
pub struct LineWeights {
    /// The step along the line.
    pub direction: (i32, i32),
    /// The attacks found along it.
    pub attacks: Vec<AttackWeight>,
    /// Whether the line is a breakpoint (a four, an open three, or a three with one gap).
    pub breakpoint: bool,
    /// When it is the side's second breakpoint, the bonus it adds instead of its attacks.
    pub double_breakpoint: Option<f64>,
    /// What the line adds to the side's weight.
    pub weight: f64,
}

/// One side's stone on the cell.
#[derive(Clone, Debug, PartialEq)]
pub struct SideWeights {
    /// The side.
    pub side: Player,
    /// The four lines, in the original's order (0°, 45°, 90°, 135°).
    pub lines: Vec<LineWeights>,
    /// The bonus for a line the stone completes, if any.
    pub bonus: Option<(Bonus, f64)>,
    /// The side's weight: its lines and bonus added up.
    pub weight: f64,
}

/// A cell's weight and how it adds up.
#[derive(Clone, Debug, PartialEq)]
pub struct CellWeights {
    /// The cell.
    pub cell: Cell,
    /// X's stone there, then O's.
    pub sides: Vec<SideWeights>,
    /// The cell's weight, as the heat map gives it.
    pub weight: f64,
}

/// Records how one cell's weight adds up.
#[derive(Clone, Debug)]
pub struct CellRecorder {
    sides: Vec<SideWeights>,
}

impl CellRecorder {
    /// A recorder for one cell.
    #[must_use]
    pub fn new() -> CellRecorder {
        CellRecorder { sides: Vec::new() }
    }

    /// The cell's breakdown, given its weight as the bot computed it.
    #[must_use]
    pub fn finish(self, cell: Cell, weight: f64) -> CellWeights {
        CellWeights {
            cell,
            sides: self.sides,
            weight,
        }
    }

    fn line_now(&mut self) -> Option<&mut LineWeights> {
        self.sides.last_mut()?.lines.last_mut()
    }
}

impl Default for CellRecorder {
    fn default() -> CellRecorder {
        CellRecorder::new()
    }
}

impl WeightRecorder for CellRecorder {
    const RECORDS: bool = true;

    fn side(&mut self, side: Player) {
        self.sides.push(SideWeights {
            side,
            lines: Vec::new(),
            bonus: None,
            weight: 0.0,
        });
    }

    fn line(&mut self, direction: (i32, i32), breakpoint: bool, double_breakpoint: Option<f64>) {
        if let Some(side) = self.sides.last_mut() {
            side.lines.push(LineWeights {
                direction,
                attacks: Vec::new(),
                breakpoint,
                double_breakpoint,
                weight: double_breakpoint.unwrap_or(0.0),
            });
        }
    }

    fn attack(&mut self, attack: AttackWeight) {
        if let Some(line) = self.line_now() {
            if line.double_breakpoint.is_none() {
                line.weight += attack.weight;
            }
            line.attacks.push(attack);
        }
    }

    fn bonus(&mut self, bonus: Bonus, weight: f64) {
        if let Some(side) = self.sides.last_mut() {
            side.bonus = Some((bonus, weight));
        }
    }

    fn side_weight(&mut self, weight: f64) {
        if let Some(side) = self.sides.last_mut() {
            side.weight = weight;
        }
    }
}

/// The attack-weight bot's explanation: how the cells it chose among weigh.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsExplanation {
    /// The side the weights are for.
    pub to_move: Player,
    /// Cells weighed (the heat map's size).
    pub weighed: usize,
    /// The heaviest cells, and the chosen one if it is not among them, heaviest first.
    pub cells: Vec<CellWeights>,
    /// The cells the bot chose among at random: those of the top weight, or for a deliberate
    /// mistake (level 1) the heaviest few.
    pub choices: Vec<Cell>,
    /// Whether the move is a deliberate mistake.
    pub mistake: bool,
}
