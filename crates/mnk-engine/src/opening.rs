//! How a bot plays a swap opening ([`mnk_core::Opening`]): where the opener puts its three
//! stones, and what the one choosing decides. Both judge positions with a search the caller
//! runs (its bot, its time), so the Gomocup brain, `mnk match` and the page decide alike.
//!
//! - The opener wants a position neither colour would rather have: it tries a few shapes
//!   around the centre and keeps the one the search finds closest to even.
//! - The one choosing searches for white, the side to move, and takes the colour the search
//!   prefers; when the position is close to even and swap2 allows it, it places two more stones
//!   (white's best move and black's best reply) and hands the choice back; close to even in
//!   plain swap, it takes white and plays the move it found.
//!
//! Callers search with [`steady_choice`]: these decisions compare values of different searches.

use mnk_core::{Cell, Decision, Position, Rules};

use crate::bot::{Bot, BotError, Choice, SearchInfo};
use crate::limits::Limits;
use crate::value::Value;

/// Within this of even (and not proven), a swap2 chooser places two stones instead of choosing,
/// and a swap chooser takes white (the colour that moves now); further from even, the better
/// colour.
pub const BALANCED_MARGIN: i32 = 40;

/// Three-stone shapes (black, white, black) around the centre that the opener tries, as
/// offsets from the centre cell. Chosen from 500 shapes (white within two cells of the first
/// black stone, the second black stone within five) as six the engine (level 6, 200 ms, steady
/// values) judged within ±41 of even on 15×15 freestyle, none more than four cells out. Every
/// closer shape favoured black by 60 or more: white, to move, only equals the count of stones,
/// so black's second stone must stand a little apart for the game to be even.
const SHAPES: [[(i32, i32); 3]; 6] = [
    [(0, 0), (2, 2), (-4, 4)],
    [(0, 0), (2, 1), (3, 4)],
    [(0, 0), (0, 2), (-4, 4)],
    [(0, 0), (0, 2), (-1, 4)],
    [(0, 0), (2, 1), (4, 0)],
    [(0, 0), (2, 2), (0, 4)],
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

/// `bot`'s choice in `pos` with a value steadier than its last iteration's: the mean of its last
/// two iterations' evaluations. A search's evaluation swings with whose move ends the line it
/// looks at, by hundreds of points between odd and even depths early in a game; an opening
/// decision compares values from different searches, so it takes the mean. `info` sees each
/// iteration as it comes.
pub fn steady_choice(
    bot: &mut dyn Bot,
    pos: &Position,
    limits: &Limits,
    info: &mut dyn FnMut(&SearchInfo),
) -> Result<Choice, BotError> {
    let mut last_two: [Option<Value>; 2] = [None, None];
    let mut choice = bot.choose_with_info(pos, limits, &mut |i: &SearchInfo| {
        last_two = [last_two[1], Some(i.value)];
        info(i);
    })?;
    if let [Some(Value::Eval(a)), Some(Value::Eval(b))] = last_two {
        if matches!(choice.value, Some(Value::Eval(_))) {
            choice.value = Some(Value::Eval((a + b) / 2));
        }
    }
    Ok(choice)
}

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
    let Some(value) = for_white.value else {
        // A bot that does not judge takes white and plays.
        return Ok(OpeningAnswer {
            decision: Decision::White,
            stones: vec![for_white.cell],
        });
    };
    if value.rank() < Value::Eval(-BALANCED_MARGIN).rank() && options.contains(&Decision::Black) {
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
        // Judge every shape lopsided except the one holding cell (10, 11).
        let even = Cell::new(10, 11);
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

    /// A bot whose iterations report `values` in turn, then answers the last.
    struct Swinging(Vec<i32>);

    impl Bot for Swinging {
        fn id(&self) -> &'static str {
            "swinging"
        }
        fn choose(&mut self, pos: &Position, _: &Limits) -> Result<Choice, BotError> {
            let mut c = Choice::just(nearest_centre(pos).ok_or(BotError::GameOver)?);
            c.value = self.0.last().map(|&e| Value::Eval(e));
            Ok(c)
        }
        fn choose_with_info(
            &mut self,
            pos: &Position,
            limits: &Limits,
            info: &mut dyn FnMut(&SearchInfo),
        ) -> Result<Choice, BotError> {
            for (depth, &e) in (1..).zip(&self.0) {
                info(&SearchInfo {
                    depth,
                    value: Value::Eval(e),
                    pv: Vec::new(),
                    nodes: 0,
                    elapsed_ms: 0,
                });
            }
            self.choose(pos, limits)
        }
    }

    #[test]
    fn a_steady_choice_takes_the_mean_of_the_last_two_iterations() {
        let pos = after_three();
        let mut seen = 0;
        let mut bot = Swinging(vec![500, 100, -300]);
        let c = steady_choice(&mut bot, &pos, &Limits::none(), &mut |_| seen += 1).unwrap();
        assert_eq!(c.value, Some(Value::Eval(-100)));
        assert_eq!(seen, 3);
        let mut one = Swinging(vec![70]);
        let c = steady_choice(&mut one, &pos, &Limits::none(), &mut |_| {}).unwrap();
        assert_eq!(c.value, Some(Value::Eval(70)));
    }
}
