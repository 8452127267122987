//! Swap openings: who places the first stones and who then chooses a colour, so that the first
//! player's advantage is shared.
//!
//! The stones of an opening are ordinary moves, black (the player who moves first) and white
//! alternating, so the [`Position`](crate::Position) needs to know nothing about them. What the
//! opening adds is *who* acts: the two people are the **opener**, who places the first stones,
//! and the **chooser**, who answers. Once the colours are chosen the opening is settled and the
//! game goes on as usual, each person playing their colour.
//!
//! - **Swap**: the opener places three stones (black, white, black); the chooser takes black or
//!   white; white plays the fourth stone.
//! - **Swap2**: the opener places three stones; the chooser takes black, takes white, or places
//!   two more stones (white, black) and lets the opener choose the colour; white then moves.
//!
//! [`Opening::step`] reads what is next from the number of stones and the decisions made, so a
//! front-end keeps only those two and can check a game it is given (a link, a stored room).

use std::fmt;
use std::str::FromStr;

use crate::Rules;

/// How a game begins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Opening {
    /// The first player simply moves first.
    #[default]
    Free,
    /// Three stones by the opener, then the chooser takes a colour.
    Swap,
    /// Swap, where the chooser may instead add two stones and pass the decision back.
    Swap2,
}

/// One of the two people of an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Seat {
    /// Places the first three stones (and, without an opening, simply moves first).
    Opener,
    /// Answers the opener's stones with a decision.
    Chooser,
}

impl Seat {
    /// The other person.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::Opener => Seat::Chooser,
            Seat::Chooser => Seat::Opener,
        }
    }
}

/// A decision of an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Decision {
    /// The one choosing plays black (the colour that moved first).
    Black,
    /// The one choosing plays white, which is to move.
    White,
    /// Swap2 only: the chooser places two more stones (white, black) and the opener chooses.
    PlaceTwo,
}

/// What comes next in an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// `seat` places the next stone, `left` stones in all before the next decision.
    Place {
        /// Who places.
        seat: Seat,
        /// Stones still to place in this step, at least 1.
        left: usize,
    },
    /// `seat` decides, among `options`.
    Choose {
        /// Who chooses.
        seat: Seat,
        /// The decisions allowed here.
        options: &'static [Decision],
    },
    /// The colours are settled: `black` plays the first player's stones, the other seat the
    /// second player's, and the game goes on as usual.
    Settled {
        /// The seat that plays black.
        black: Seat,
    },
}

/// Why an opening's stones and decisions do not fit together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// A decision was made before the stones it answers were placed.
    ChoiceTooEarly {
        /// Stones the decision needs on the board.
        needs: usize,
        /// Stones there are.
        stones: usize,
    },
    /// More stones were played than the opening allows before its next decision.
    ChoiceMissing {
        /// Stones at which the decision was due.
        at: usize,
    },
    /// This decision is not one of the options at this point.
    NotAnOption(Decision),
    /// More decisions than the opening has.
    TooManyDecisions,
    /// The rules do not suit swap openings.
    Unsuitable(&'static str),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::ChoiceTooEarly { needs, stones } => write!(
                f,
                "the decision comes after {needs} stones, and there are {stones}"
            ),
            OpeningError::ChoiceMissing { at } => {
                write!(
                    f,
                    "a colour must be chosen after {at} stones before play goes on"
                )
            }
            OpeningError::NotAnOption(c) => write!(f, "'{c}' is not one of the choices here"),
            OpeningError::TooManyDecisions => write!(f, "the opening has no more choices to make"),
            OpeningError::Unsuitable(why) => write!(f, "no swap opening here: {why}"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// The stones the opener places.
const OPENER_STONES: usize = 3;
/// The stones on the board after swap2's "place two".
const PLACE_TWO_STONES: usize = 5;

const SWAP_OPTIONS: &[Decision] = &[Decision::Black, Decision::White];
const SWAP2_OPTIONS: &[Decision] = &[Decision::Black, Decision::White, Decision::PlaceTwo];
const LAST_OPTIONS: &[Decision] = &[Decision::Black, Decision::White];

impl Opening {
    /// Every opening, for menus.
    pub const ALL: [Opening; 3] = [Opening::Free, Opening::Swap, Opening::Swap2];

    /// The stable name: `free`, `swap`, `swap2`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Opening::Free => "free",
            Opening::Swap => "swap",
            Opening::Swap2 => "swap2",
        }
    }

    /// Whether this opening can be played under `rules`: a swap opening needs lines of at least
    /// four (so that none of its stones can win: black places at most three) on a board that
    /// holds a line both ways.
    pub fn check_rules(self, rules: &Rules) -> Result<(), OpeningError> {
        if self == Opening::Free {
            return Ok(());
        }
        if rules.k() < 4 {
            return Err(OpeningError::Unsuitable(
                "it needs lines of four or more, so that no opening stone can win",
            ));
        }
        if rules.size().is_some_and(|(w, h)| w.min(h) < rules.k()) {
            return Err(OpeningError::Unsuitable(
                "the board must hold a line across and down",
            ));
        }
        Ok(())
    }

    /// What comes next, with `stones` on the board and `decisions` made so far, or why the two do
    /// not fit together.
    pub fn step(self, stones: usize, decisions: &[Decision]) -> Result<Step, OpeningError> {
        match self {
            Opening::Free if decisions.is_empty() => Ok(Step::Settled {
                black: Seat::Opener,
            }),
            Opening::Free => Err(OpeningError::TooManyDecisions),
            Opening::Swap | Opening::Swap2 => self.swap_step(stones, decisions),
        }
    }

    fn swap_step(self, stones: usize, decisions: &[Decision]) -> Result<Step, OpeningError> {
        let first_options = if self == Opening::Swap2 {
            SWAP2_OPTIONS
        } else {
            SWAP_OPTIONS
        };
        let Some((&first, rest)) = decisions.split_first() else {
            return place_or_choose(stones, OPENER_STONES, Seat::Opener, first_options);
        };
        check_decision(first, first_options, stones, OPENER_STONES)?;
        if first != Decision::PlaceTwo {
            return match rest {
                [] => Ok(settled_by(Seat::Chooser, first)),
                _ => Err(OpeningError::TooManyDecisions),
            };
        }
        let Some((&last, rest)) = rest.split_first() else {
            return place_or_choose(stones, PLACE_TWO_STONES, Seat::Chooser, LAST_OPTIONS);
        };
        check_decision(last, LAST_OPTIONS, stones, PLACE_TWO_STONES)?;
        match rest {
            [] => Ok(settled_by(Seat::Opener, last)),
            _ => Err(OpeningError::TooManyDecisions),
        }
    }
}

/// Before a decision due at `at` stones: `placer` places the stones still missing, then the other
/// seat chooses among `options`.
fn place_or_choose(
    stones: usize,
    at: usize,
    placer: Seat,
    options: &'static [Decision],
) -> Result<Step, OpeningError> {
    match stones.cmp(&at) {
        std::cmp::Ordering::Less => Ok(Step::Place {
            seat: placer,
            left: at - stones,
        }),
        std::cmp::Ordering::Equal => Ok(Step::Choose {
            seat: placer.other(),
            options,
        }),
        std::cmp::Ordering::Greater => Err(OpeningError::ChoiceMissing { at }),
    }
}

/// A decision made at `at` stones, checked against its options and the stones on the board.
fn check_decision(
    decision: Decision,
    options: &[Decision],
    stones: usize,
    at: usize,
) -> Result<(), OpeningError> {
    if !options.contains(&decision) {
        return Err(OpeningError::NotAnOption(decision));
    }
    if stones < at {
        return Err(OpeningError::ChoiceTooEarly { needs: at, stones });
    }
    Ok(())
}

/// The colours once `seat` has chosen `decision` (black or white).
fn settled_by(seat: Seat, decision: Decision) -> Step {
    let black = if decision == Decision::Black {
        seat
    } else {
        seat.other()
    };
    Step::Settled { black }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Opening {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Opening::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown opening '{s}': choose free, swap or swap2"))
    }
}

impl Decision {
    /// The stable name: `black`, `white`, `place-two`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Decision::Black => "black",
            Decision::White => "white",
            Decision::PlaceTwo => "place-two",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Decision {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Decision::Black, Decision::White, Decision::PlaceTwo]
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown choice '{s}': choose black, white or place-two"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Preset;
    use Decision::{Black, PlaceTwo, White};

    #[test]
    fn free_is_settled_from_the_start_with_the_opener_black() {
        assert_eq!(
            Opening::Free.step(0, &[]),
            Ok(Step::Settled {
                black: Seat::Opener
            })
        );
        assert_eq!(
            Opening::Free.step(4, &[Black]),
            Err(OpeningError::TooManyDecisions)
        );
    }

    #[test]
    fn swap_places_three_then_the_chooser_takes_a_colour() {
        for stones in 0..3 {
            assert_eq!(
                Opening::Swap.step(stones, &[]),
                Ok(Step::Place {
                    seat: Seat::Opener,
                    left: 3 - stones
                })
            );
        }
        assert_eq!(
            Opening::Swap.step(3, &[]),
            Ok(Step::Choose {
                seat: Seat::Chooser,
                options: &[Black, White]
            })
        );
        assert_eq!(
            Opening::Swap.step(3, &[Black]),
            Ok(Step::Settled {
                black: Seat::Chooser
            })
        );
        assert_eq!(
            Opening::Swap.step(9, &[White]),
            Ok(Step::Settled {
                black: Seat::Opener
            })
        );
    }

    #[test]
    fn swap2_place_two_hands_the_decision_back_to_the_opener() {
        assert_eq!(
            Opening::Swap2.step(3, &[]),
            Ok(Step::Choose {
                seat: Seat::Chooser,
                options: &[Black, White, PlaceTwo]
            })
        );
        assert_eq!(
            Opening::Swap2.step(3, &[PlaceTwo]),
            Ok(Step::Place {
                seat: Seat::Chooser,
                left: 2
            })
        );
        assert_eq!(
            Opening::Swap2.step(5, &[PlaceTwo]),
            Ok(Step::Choose {
                seat: Seat::Opener,
                options: &[Black, White]
            })
        );
        assert_eq!(
            Opening::Swap2.step(5, &[PlaceTwo, White]),
            Ok(Step::Settled {
                black: Seat::Chooser
            })
        );
        assert_eq!(
            Opening::Swap2.step(7, &[PlaceTwo, Black]),
            Ok(Step::Settled {
                black: Seat::Opener
            })
        );
    }

    #[test]
    fn stones_and_decisions_that_do_not_fit_are_refused() {
        assert_eq!(
            Opening::Swap.step(2, &[Black]),
            Err(OpeningError::ChoiceTooEarly {
                needs: 3,
                stones: 2
            })
        );
        assert_eq!(
            Opening::Swap.step(4, &[]),
            Err(OpeningError::ChoiceMissing { at: 3 })
        );
        assert_eq!(
            Opening::Swap.step(3, &[PlaceTwo]),
            Err(OpeningError::NotAnOption(PlaceTwo))
        );
        assert_eq!(
            Opening::Swap2.step(6, &[PlaceTwo]),
            Err(OpeningError::ChoiceMissing { at: 5 })
        );
        assert_eq!(
            Opening::Swap2.step(4, &[PlaceTwo, Black]),
            Err(OpeningError::ChoiceTooEarly {
                needs: 5,
                stones: 4
            })
        );
        assert_eq!(
            Opening::Swap2.step(5, &[PlaceTwo, PlaceTwo]),
            Err(OpeningError::NotAnOption(PlaceTwo))
        );
        assert_eq!(
            Opening::Swap2.step(5, &[White, Black]),
            Err(OpeningError::TooManyDecisions)
        );
    }

    #[test]
    fn swap_openings_need_lines_of_four_on_a_board_that_holds_them() {
        let gomoku = Preset::Gomoku15.rules();
        assert_eq!(Opening::Swap2.check_rules(&gomoku), Ok(()));
        assert!(Opening::Swap
            .check_rules(&Preset::TicTacToe.rules())
            .is_err());
        assert_eq!(
            Opening::Free.check_rules(&Preset::TicTacToe.rules()),
            Ok(())
        );
    }

    #[test]
    fn names_read_back() {
        for o in Opening::ALL {
            assert_eq!(o.name().parse::<Opening>(), Ok(o));
        }
        for c in [Black, White, PlaceTwo] {
            assert_eq!(c.name().parse::<Decision>(), Ok(c));
        }
        assert!("swap3".parse::<Opening>().is_err());
    }
}
