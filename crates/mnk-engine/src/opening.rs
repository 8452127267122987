//! How a bot plays a swap opening ([`mnk_core::Opening`]): where the opener puts its three
//! stones, and what the one choosing decides. Both judge positions with a search the caller
//! runs (its bot, its time), so the Gomocup brain, `mnk match` and the page decide alike.
//!
//! - The opener wants a position neither colour would rather have: it tries a few compact shapes
//!   at the centre and keeps the one the search finds closest to even.
//! - The one choosing searches for white, the side to move: when white is clearly worse it takes
//!   black; when the position is close to even and swap2 allows it, it places two more stones
//!   (white's best move and black's best reply) and hands the choice back; otherwise it takes
//!   white and plays the move it found.

use mnk_core::{Cell, Decision, Position, Rules};

use crate::bot::Choice;
use crate::value::Value;

/// The one choosing takes black when white's value is worse than this (or a proven loss).
pub const SWAP_MARGIN: i32 = 150;
/// Within this of even (and not proven), a swap2 chooser places two stones instead of choosing.
pub const BALANCED_MARGIN: i32 = 40;

/// Three-stone shapes (black, white, black) around the centre that the opener tries, as
/// offsets from the centre cell. All are compact, none gives black a two that white must stop.
const SHAPES: [[(i32, i32); 3]; 6] = [
    [(0, 0), (1, 1), (-1, 2)],
    [(0, 0), (1, 0), (-1, 2)],
    [(0, 0), (1, 1), (2, -1)],
    [(0, 0), (0, 1), (2, 2)],
    [(0, 0), (1, -1), (-1, -2)],
    [(0, 0), (2, 0), (1, 2)],
];

/// What a bot decides when it chooses, with the stones it places along with the decision:
/// none after `Black` (white, the other person, moves next), white's move after `White`, and the
/// two stones (white, black) after `PlaceTwo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningAnswer {
    /// The decision.
    pub decision: Decision,
    /// The stones placed with it, in order.
    pub stones: Vec<Cell>,
}

/// A search the caller runs for the side to move of a position: the bot, its limits, its stop
/// flag and its errors are the caller's. An opening step runs a handful of them, so give each a
/// share of the step's time (see [`searches_to_place`] and [`searches_to_decide`]).
pub type Search<'a, E> = dyn FnMut(&Position) -> Result<Choice, E> + 'a;

/// How many searches [`place_three`] runs on `rules`: share the time of the step among them.
#[must_use]
pub fn searches_to_place(rules: &Rules) -> usize {
    candidate_openings(rules, 0).len().max(1)
}

/// How many searches [`decide`] runs at most, given the options.
#[must_use]
pub fn searches_to_decide(options: &[Decision]) -> usize {
    if options.contains(&Decision::PlaceTwo) {
        2
    } else {
        1
    }
}

/// The opener's three stones (black, white, black): of the candidate shapes (turned by `seed`,
/// so that games differ), the one whose position `search` judges closest to even. Free cells
/// nearest the centre on boards too small for the shapes.
pub fn place_three<E>(rules: &Rules, seed: u64, search: &mut Search<E>) -> Result<Vec<Cell>, E> {
    let candidates = candidate_openings(rules, seed);
    if candidates.is_empty() {
        return Ok(nearest_centre_cells(rules, 3));
    }
    let mut best: Option<(i64, Vec<Cell>)> = None;
    for cells in candidates {
        let pos = position_of(rules, &cells);
        let imbalance = search(&pos)?.value.map_or(0, |v| v.rank().abs());
        if best.as_ref().is_none_or(|(b, _)| imbalance < *b) {
            best = Some((imbalance, cells));
        }
    }
    Ok(best.map(|(_, cells)| cells).unwrap_or_default())
}

/// The decision of the one choosing, among `options`, in `pos` (white to move: three or five
/// stones on the board), judged by `search` (once, or twice to place two stones).
pub fn decide<E>(
    pos: &Position,
    options: &[Decision],
    search: &mut Search<E>,
) -> Result<OpeningAnswer, E> {
    let for_white = search(pos)?;
    // A search that gives no value (a bot that does not judge) takes white and plays.
    let value = for_white.value.unwrap_or(Value::Eval(SWAP_MARGIN));
    if value.rank() < Value::Eval(-SWAP_MARGIN).rank() && options.contains(&Decision::Black) {
        return Ok(OpeningAnswer {
            decision: Decision::Black,
            stones: Vec::new(),
        });
    }
    if is_balanced(value) && options.contains(&Decision::PlaceTwo) {
        let mut after = pos.clone();
        after.play(for_white.cell);
        if !after.is_over() {
            let reply = search(&after)?;
            return Ok(OpeningAnswer {
                decision: Decision::PlaceTwo,
                stones: vec![for_white.cell, reply.cell],
            });
        }
    }
    Ok(OpeningAnswer {
        decision: Decision::White,
        stones: vec![for_white.cell],
    })
}

/// Close enough to even that neither colour is worth choosing over the other.
fn is_balanced(value: Value) -> bool {
    matches!(value, Value::Eval(e) if e.abs() <= BALANCED_MARGIN)
}

/// The shapes placed at the centre of the board, turned by one of the eight symmetries that
/// `seed` picks; the ones that do not fit left out.
fn candidate_openings(rules: &Rules, seed: u64) -> Vec<Vec<Cell>> {
    let (w, h) = rules.size().unwrap_or((15, 15));
    let centre = ((w / 2) as i32, (h / 2) as i32);
    SHAPES
        .iter()
        .map(|shape| {
            shape
                .iter()
                .map(|&offset| {
                    let (dx, dy) = turned(offset, seed);
                    Cell::new(centre.0 + dx, centre.1 + dy)
                })
                .collect::<Vec<Cell>>()
        })
        .filter(|cells| cells.iter().all(|&c| rules.contains(c)))
        .collect()
}

/// `offset` under the symmetry of the square numbered by `seed`'s low three bits.
fn turned((dx, dy): (i32, i32), seed: u64) -> (i32, i32) {
    let (dx, dy) = if seed & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let dx = if seed & 1 != 0 { -dx } else { dx };
    let dy = if seed & 2 != 0 { -dy } else { dy };
    (dx, dy)
}

/// The position after `cells` played in order (black, white, black).
fn position_of(rules: &Rules, cells: &[Cell]) -> Position {
    let mut pos = Position::new(*rules);
    for &c in cells {
        pos.play(c);
    }
    pos
}

/// Up to `n` stones played on the free cells nearest the centre, in order.
fn nearest_centre_cells(rules: &Rules, n: usize) -> Vec<Cell> {
    let mut pos = Position::new(*rules);
    let mut out = Vec::new();
    while out.len() < n && !pos.is_over() {
        let Some(c) = nearest_centre(&pos) else { break };
        pos.play(c);
        out.push(c);
    }
    out
}

/// The free cell nearest the centre of the board (ties by cell), if any.
#[must_use]
pub fn nearest_centre(pos: &Position) -> Option<Cell> {
    let (w, h) = pos.rules().size().unwrap_or((1, 1));
    let (cx2, cy2) = (i64::from(w) - 1, i64::from(h) - 1);
    pos.legal_moves().into_iter().min_by_key(|c| {
        let dx = 2 * i64::from(c.x) - cx2;
        let dy = 2 * i64::from(c.y) - cy2;
        (dx * dx + dy * dy, *c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::BotError;
    use mnk_core::{Opening, Preset, Seat, Step};

    /// A search that plays the free cell nearest the centre and judges by `judge`.
    fn judging(
        judge: impl Fn(&Position) -> Value,
    ) -> impl FnMut(&Position) -> Result<Choice, BotError> {
        move |pos: &Position| {
            let cell = nearest_centre(pos).ok_or(BotError::GameOver)?;
            let mut c = Choice::just(cell);
            c.value = Some(judge(pos));
            Ok(c)
        }
    }

    fn after_three() -> Position {
        let rules = Preset::Gomoku15.rules();
        let mut search = judging(|_| Value::Eval(0));
        let cells = place_three(&rules, 0, &mut search).unwrap();
        position_of(&rules, &cells)
    }

    #[test]
    fn the_opener_keeps_the_shape_judged_closest_to_even() {
        let rules = Preset::Gomoku15.rules();
        // Judge every shape lopsided except the one holding cell (9, 6).
        let even = Cell::new(9, 6);
        let mut search =
            judging(|pos| Value::Eval(if pos.stone(even).is_some() { 5 } else { 300 }));
        let cells = place_three(&rules, 0, &mut search).unwrap();
        assert!(cells.contains(&even), "{cells:?}");
        let pos = position_of(&rules, &cells);
        assert_eq!(
            Opening::Swap2.step(pos.ply(), &[]),
            Ok(Step::Choose {
                seat: Seat::Chooser,
                options: &[Decision::Black, Decision::White, Decision::PlaceTwo]
            })
        );
    }

    #[test]
    fn the_seed_turns_the_shapes_and_they_stay_on_the_board() {
        let rules = Preset::Gomoku15.rules();
        let shapes: std::collections::HashSet<Vec<Cell>> = (0..8)
            .map(|seed| candidate_openings(&rules, seed)[0].clone())
            .collect();
        assert_eq!(shapes.len(), 8);
        let small = Rules::new(
            mnk_core::Board::Bounded {
                width: 4,
                height: 4,
            },
            4,
            mnk_core::Win::Freestyle,
            mnk_core::Player::X,
        )
        .unwrap();
        let mut search = judging(|_| Value::Eval(0));
        let cells = place_three(&small, 3, &mut search).unwrap();
        assert_eq!(cells.len(), 3);
        assert!(cells.iter().all(|&c| small.contains(c)));
    }

    #[test]
    fn white_clearly_worse_means_taking_black() {
        let pos = after_three();
        let mut search = judging(|_| Value::Eval(-400));
        let answer = decide(&pos, &[Decision::Black, Decision::White], &mut search).unwrap();
        assert_eq!(answer.decision, Decision::Black);
        assert!(answer.stones.is_empty());
        let mut lost = judging(|_| Value::Loss(9));
        let answer = decide(&pos, &[Decision::Black, Decision::White], &mut lost).unwrap();
        assert_eq!(answer.decision, Decision::Black);
    }

    #[test]
    fn white_fine_means_taking_white_and_moving() {
        let pos = after_three();
        let mut search = judging(|_| Value::Eval(120));
        let answer = decide(&pos, &[Decision::Black, Decision::White], &mut search).unwrap();
        assert_eq!(answer.decision, Decision::White);
        assert_eq!(answer.stones.len(), 1);
        assert!(pos.stone(answer.stones[0]).is_none());
    }

    #[test]
    fn an_even_position_in_swap2_gets_two_more_stones() {
        let pos = after_three();
        let options = [Decision::Black, Decision::White, Decision::PlaceTwo];
        let mut search = judging(|_| Value::Eval(-10));
        let answer = decide(&pos, &options, &mut search).unwrap();
        assert_eq!(answer.decision, Decision::PlaceTwo);
        let mut after = pos.clone();
        for &c in &answer.stones {
            after.try_play(c).unwrap();
        }
        assert_eq!(after.ply(), 5);
        // Without place-two among the options, the same position is played as white.
        let answer = decide(&pos, &[Decision::Black, Decision::White], &mut search).unwrap();
        assert_eq!(answer.decision, Decision::White);
    }

    #[test]
    fn nearest_centre_prefers_the_middle() {
        let pos = Position::new(Rules::bounded(15, 15, 5).unwrap());
        assert_eq!(nearest_centre(&pos), Some(Cell::new(7, 7)));
        let pos = Position::new(Rules::bounded(4, 4, 3).unwrap());
        assert_eq!(nearest_centre(&pos), Some(Cell::new(1, 1)));
    }

    #[test]
    fn the_opening_stones_fit_every_board() {
        for (w, h) in [(15, 15), (5, 5), (20, 1), (1, 7), (32, 32)] {
            let rules = Rules::bounded(w, h, 5).unwrap();
            for seed in 0..8 {
                let mut search = judging(|_| Value::Eval(0));
                let cells = place_three(&rules, seed, &mut search).unwrap();
                assert_eq!(cells.len(), 3, "{w}x{h}");
                assert!(Position::from_moves(rules, &cells).is_ok(), "{w}x{h}");
            }
        }
    }
}
