//! The perfect player: the exact solver choosing among the best moves at random.
//!
//! It asks the solver only what it needs, the position's value and the moves that keep it
//! ([`Solver::best_moves`]), not the exact value of every move ([`Solver::analyse`], what
//! `POST /api/solve` shows): the losing moves' distances can cost far more than the choice.

use mnk_core::{Cell, Position, Rules};

use crate::bot::{Bot, BotError, Choice, Unplayable};
use crate::explain::perfect::{PathStep, PerfectLine};
use crate::explain::Explanation;
use crate::limits::Limits;
use crate::rng::Rng;
use crate::solver::{self, SolveError, Solver};
use crate::Explained;

/// Plays only moves of the best exact value: it never loses a game that can be held, wins as
/// fast as it can, and when losing, loses as slowly as it can.
pub struct PerfectBot {
    rng: Rng,
    solver: Option<(Rules, Solver)>,
}

impl PerfectBot {
    /// A perfect player whose choices among equal moves follow `seed`.
    #[must_use]
    pub fn new(seed: u64) -> PerfectBot {
        PerfectBot {
            rng: Rng::seeded(seed),
            solver: None,
        }
    }

    /// Every move of the best value here, in cell order.
    pub fn best_moves(
        &mut self,
        pos: &Position,
        limits: &Limits,
    ) -> Result<(Vec<Cell>, Choice), BotError> {
        if pos.is_over() {
            return Err(BotError::GameOver);
        }
        let rules = *pos.rules();
        if !solver::perfectly_playable(&rules) {
            return Err(BotError::Unsupported(
                Unplayable::TooManyCells(solver::PERFECT_PLAY_CELLS).to_string(),
            ));
        }
        if self.solver.as_ref().is_none_or(|(r, _)| *r != rules) {
            let fresh =
                Solver::for_rules(&rules).map_err(|e| BotError::Unsupported(e.to_string()))?;
            self.solver = Some((rules, fresh));
        }
        let (_, solver) = self.solver.as_mut().expect("just made");
        let analysis = solver.best_moves(pos, limits).map_err(|e| match e {
            SolveError::Aborted { nodes } => BotError::OutOfTime { nodes },
            SolveError::GameOver => BotError::GameOver,
            SolveError::TooLarge(_) => BotError::Unsupported(e.to_string()),
        })?;
        let top = analysis.value;
        let best: Vec<Cell> = analysis.moves.iter().map(|(c, _)| *c).collect();
        let choice = Choice {
            cell: best[0],
            value: Some(top),
            pv: vec![best[0]],
            depth: 0,
            nodes: analysis.nodes,
        };
        Ok((best, choice))
    }

    /// The best moves, and the choice among them as [`Bot::choose`] makes it.
    fn decide(&mut self, pos: &Position, limits: &Limits) -> Result<(Vec<Cell>, Choice), BotError> {
        let (best, choice) = self.best_moves(pos, limits)?;
        let cell = self
            .rng
            .pick(&best)
            .expect("a legal move exists in an unfinished game");
        let choice = Choice {
            cell,
            pv: vec![cell],
            ..choice
        };
        Ok((best, choice))
    }
}

impl Bot for PerfectBot {
    fn id(&self) -> &'static str {
        "perfect"
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Result<Choice, BotError> {
        Ok(self.decide(pos, limits)?.1)
    }

    /// The choice, then (within what is left of the limits) the line of best play after it
    /// and the exact value of every move, asked of the same solver.
    fn explain(&mut self, pos: &Position, limits: &Limits) -> Result<Explained, BotError> {
        let (best, choice) = self.decide(pos, limits)?;
        let value = choice.value.expect("the solver values its moves");
        let (_, solver) = self.solver.as_mut().expect("made by the choice");
        let mut after = pos.clone();
        after.play(choice.cell);
        let first = PathStep {
            cell: choice.cell,
            player: pos.to_move(),
            value,
        };
        let (path, path_complete, path_nodes) = best_line(solver, after, first, limits);
        let (moves, move_nodes) = match solver.analyse(pos, limits) {
            Ok(analysis) => (Some(analysis.moves), analysis.nodes),
            Err(SolveError::Aborted { nodes }) => (None, nodes),
            Err(_) => (None, 0),
        };
        let line = PerfectLine {
            value,
            best,
            moves,
            path,
            path_complete,
            extra_nodes: path_nodes + move_nodes,
        };
        Ok(Explained {
            choice,
            explanation: Explanation::Perfect(line),
        })
    }
}

/// `first`, then both sides' best play from `pos` (the first best move in cell order) until
/// the game ends or no line is left: the steps, whether they reach the end, and the nodes
/// searched.
fn best_line(
    solver: &mut Solver,
    mut pos: Position,
    first: PathStep,
    limits: &Limits,
) -> (Vec<PathStep>, bool, u64) {
    let (mut path, mut nodes) = (vec![first], 0);
    while !pos.is_over() && !pos.no_line_left() {
        let analysis = match solver.best_moves(&pos, limits) {
            Ok(analysis) => analysis,
            Err(SolveError::Aborted { nodes: more }) => return (path, false, nodes + more),
            Err(_) => return (path, false, nodes),
        };
        nodes += analysis.nodes;
        let Some(cell) = analysis.best else {
            return (path, false, nodes);
        };
        path.push(PathStep {
            cell,
            player: pos.to_move(),
            value: analysis.value,
        });
        pos.play(cell);
    }
    (path, true, nodes)
}
