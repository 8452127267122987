//! The referee of a room: given a [`Snapshot`] and what a seat asks, either the steps that
//! change the room ([`Op`]s, which the store applies only if nobody changed the room meanwhile)
//! or the refusal. Pure functions of the snapshot and the time: the service around them does
//! the reading, writing and telling.
//!
//! mnk-core alone decides what is legal and when a game is over; the referee adds what a room
//! adds to a game: seats, turns, the ply a client expects, clocks, resigning, offers, rematches,
//! and who acts in a swap opening.
//!
//! A swap opening ([`mnk_core::Opening`]) decides who acts from its stones and decisions alone
//! ([`Game::step`]): the seat that opens places the first stones (both colours), the other
//! chooses, and each seat plays a colour only once the colours are settled. The seats' colours
//! follow from the decisions ([`colour_of`]), so settling them writes nothing but the decision.
//!
//! Clocks belong to seats. The clock that runs is the acting seat's: in a swap opening the seat
//! placing stones (of either colour) or choosing, then the seat of the side to move. The
//! increment is added when a seat's turn ends, that is when the next to act is the other seat:
//! after every move once the colours are settled, as before; in the opening after the opener's
//! three stones, after a decision that hands the play over (taking black), and after the stone
//! that ends a turn begun with a decision (white's move after taking white, the second of
//! place-two's stones). A turn of several stones and a decision earns one increment, as one
//! move does.
//!
//! A game without a clock has no flag to end it when a player leaves: once the opponent has been
//! away (no live connection) for the room's delay, the player left may claim it ([`claim`]):
//! the win (`abandoned`), or the opponent's seat for a bot, and the game goes on. How long the
//! opponent has been away is the service's to say (it knows the connections): the referee only
//! weighs it.

use mnk_core::{Cell, Decision, DrawKind, Outcome, Player, Position, Step};
use serde_json::json;

use super::reading::{
    colour_of, decisions_text, game, is_over, offer, room_seat, seat_clocks, step_seat, Game,
};
use super::store::{MoveRow, Op, SeatRow, Snapshot};
use crate::error::ApiError;

/// What a seat asks of its room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move at `ply` (the client's count of moves so far) on `cell`.
    Move {
        /// The ply the client expects to play.
        ply: usize,
        /// The cell, in either notation.
        cell: String,
    },
    /// A decision of a swap opening at `ply` (the client's count of stones so far).
    Decide {
        /// The ply the client expects the decision at.
        ply: usize,
        /// The decision.
        decision: Decision,
    },
    /// A whole step of a swap opening at once, the computer's part: the decision due (if
    /// one is), then the stones that go with it, all at `ply` on.
    Step {
        /// The ply the step starts at.
        ply: usize,
        /// The decision, when the step is a choice.
        decision: Option<Decision>,
        /// The stones placed, in order.
        stones: Vec<String>,
    },
    /// Resign the current game.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    Draw,
    /// Offer a rematch with colours swapped, or accept the opponent's offer.
    Rematch,
}

/// The steps that end the game on time if the seat that acts (moves, or in a swap opening
/// places or chooses) has run out of it at `now`: the other seat wins, its colour as it stands.
#[must_use]
pub fn flag_fall(snap: &Snapshot, game: &Game, now: i64) -> Option<Vec<Op>> {
    let (left, running) = seat_clocks(snap, game, now)?;
    let seat = running?;
    (left[seat] <= 0).then(|| finish(snap, Some(colour_of(snap, 1 - seat)), "time"))
}

/// The time seat `seat`, acting at `now`, has left once it has acted: with the increment when
/// its turn ends there, that is when `next` (the seat to act after) is the other seat or the
/// game is over.
fn clock_after(
    snap: &Snapshot,
    game: &Game,
    seat: usize,
    now: i64,
    next: Option<usize>,
) -> Option<i64> {
    let (left, _) = seat_clocks(snap, game, now)?;
    let increment = snap.room.clock.map_or(0, |(_, increment)| increment);
    let turn_ends = next != Some(seat);
    Some(left[seat] + if turn_ends { increment } else { 0 })
}

/// The steps that end the current game: `winner` (or a draw) for `reason`.
fn finish(snap: &Snapshot, winner: Option<Player>, reason: &str) -> Vec<Op> {
    vec![
        Op::Finish {
            game: snap.game.number,
            result: winner.map_or_else(|| "draw".to_string(), |p| p.to_string()),
            reason: reason.to_string(),
        },
        Op::Offer(None),
    ]
}

/// Refuses what needs an open room.
fn open(snap: &Snapshot) -> Result<(), ApiError> {
    if snap.room.closed_ms.is_some() {
        return Err(ApiError::RoomClosed(
            "this room was closed after a long time without players: create a new one".into(),
        ));
    }
    Ok(())
}

/// Decides `action` by seat `seat` at `now`.
pub fn decide(
    snap: &Snapshot,
    seat: usize,
    action: &Action,
    now: i64,
) -> Result<Vec<Op>, ApiError> {
    open(snap)?;
    let game = game(snap)?;
    match action {
        Action::Move { ply, cell } => play(snap, &game, seat, *ply, cell, now),
        Action::Decide { ply, decision } => choose(snap, &game, seat, *ply, *decision, now),
        Action::Step {
            ply,
            decision,
            stones,
        } => whole_step(snap, seat, *ply, *decision, stones, now),
        Action::Resign => {
            playing(snap)?;
            Ok(finish(
                snap,
                Some(colour_of(snap, seat).opponent()),
                "resigned",
            ))
        }
        Action::Draw => draw(snap, seat),
        Action::Rematch => rematch(snap, seat),
    }
}

/// Refuses what needs a game in progress: one over, or one still waiting for its second player.
fn playing(snap: &Snapshot) -> Result<(), ApiError> {
    if is_over(snap) {
        return Err(ApiError::Api(mnk_api::ApiError::GameOver {
            index: None,
            message: "this game is over: offer a rematch to play again".into(),
        }));
    }
    if snap.game.started_ms.is_none() {
        return Err(ApiError::Waiting(
            "the other seat is still free: share the room's link, or invite a bot".into(),
        ));
    }
    Ok(())
}

/// A move: the game in progress, the expected ply, the seat's turn, then mnk-core's verdict.
fn play(
    snap: &Snapshot,
    game: &Game,
    seat: usize,
    ply: usize,
    text: &str,
    now: i64,
) -> Result<Vec<Op>, ApiError> {
    playing(snap)?;
    if ply != snap.moves.len() {
        return Err(stale_at(snap, ply));
    }
    match game.step()? {
        Step::Settled { .. } => {
            if colour_of(snap, seat) != game.pos.to_move() {
                return Err(ApiError::NotYourTurn(format!(
                    "it is {}'s turn, and you play {}",
                    game.pos.to_move(),
                    colour_of(snap, seat)
                )));
            }
        }
        Step::Place { seat: placer, left } => {
            if room_seat(snap, &game.rules, placer) != seat {
                return Err(ApiError::NotYourTurn(format!(
                    "the other seat places the opening's stones ({left} more) before a colour \
                     is chosen"
                )));
            }
        }
        Step::Choose { seat: chooser, .. } => {
            return Err(if room_seat(snap, &game.rules, chooser) == seat {
                ApiError::Api(mnk_api::ApiError::OpeningStep(
                    "choose first: take black or white (or, in swap2, place two more stones)"
                        .into(),
                ))
            } else {
                ApiError::NotYourTurn("the other seat is choosing a colour".into())
            });
        }
    }
    mnk_api::game::check_move_count(&game.rules, ply + 1)?;
    let cell: Cell = text
        .parse()
        .map_err(|e| ApiError::Api(mnk_api::ApiError::not_a_cell(ply, text, format!("{e}"))))?;
    let mut pos = game.pos.clone();
    pos.try_play(cell)
        .map_err(|e| ApiError::Api(mnk_api::ApiError::from_play(ply, &e)))?;
    let next = (ending(&pos).is_none())
        .then(|| game.opening.step(ply + 1, &game.decisions).ok())
        .flatten()
        .map(|step| step_seat(snap, &game.rules, step, ply + 1));
    let clock_ms = clock_after(snap, game, seat, now, next);
    let mut ops = vec![Op::Move {
        game: snap.game.number,
        ply: ply as i64,
        cell: game.rules.cell_name(cell),
        clock_ms,
    }];
    if snap.room.offer.is_some() {
        // A move answers a draw offer: the game goes on.
        ops.push(Op::Offer(None));
    }
    if let Some((winner, reason)) = ending(&pos) {
        ops.extend(finish(snap, winner, reason));
    }
    Ok(ops)
}

/// The refusal of an action decided on an old reading of the game, at `ply`.
fn stale_at(snap: &Snapshot, ply: usize) -> ApiError {
    // The state a stale client needs is the view's to write: the service adds it
    // (`view::with_state`), so that the referee decides without knowing how rooms are shown.
    ApiError::StalePly {
        message: format!(
            "the game is at ply {}, not {ply}: here is the game as it stands",
            snap.moves.len()
        ),
        state: Box::new(serde_json::Value::Null),
    }
}

/// A decision of the swap opening: the game in progress, the expected ply, then the opening's
/// verdict: the step must be a choice, this seat's, among its options.
fn choose(
    snap: &Snapshot,
    game: &Game,
    seat: usize,
    ply: usize,
    decision: Decision,
    now: i64,
) -> Result<Vec<Op>, ApiError> {
    playing(snap)?;
    if ply != snap.moves.len() {
        return Err(stale_at(snap, ply));
    }
    let Step::Choose {
        seat: chooser,
        options,
    } = game.step()?
    else {
        if let Some((_, earlier)) = game.decisions.split_last() {
            if matches!(game.opening.step(ply, earlier), Ok(Step::Choose { .. })) {
                // The decision due at this ply was made already (the client had not seen it).
                return Err(stale_at(snap, ply));
            }
        }
        return Err(ApiError::Api(mnk_api::ApiError::OpeningStep(
            if game.opening == mnk_core::Opening::Free {
                "this room's games open freely: there is no colour to choose".into()
            } else {
                "there is no colour to choose now: the opening's stones are being placed, or the \
             colours are settled"
                    .into()
            },
        )));
    };
    if room_seat(snap, &game.rules, chooser) != seat {
        return Err(ApiError::NotYourTurn(
            "the other seat chooses the colours here".into(),
        ));
    }
    if !options.contains(&decision) {
        let names: Vec<&str> = options.iter().map(|o| o.name()).collect();
        return Err(ApiError::Api(mnk_api::ApiError::BadOpening(format!(
            "'{decision}' is not one of the choices here: {}",
            names.join(", ")
        ))));
    }
    let mut after = game.decisions.clone();
    after.push(decision);
    let next = game
        .opening
        .step(ply, &after)
        .ok()
        .map(|step| step_seat(snap, &game.rules, step, ply));
    let mut ops = vec![Op::Decide {
        game: snap.game.number,
        before: snap.game.decisions.clone(),
        after: decisions_text(&after),
        clock_ms: clock_after(snap, game, seat, now, next),
    }];
    if snap.room.offer.is_some() {
        // A decision, like a move, answers a draw offer: the game goes on.
        ops.push(Op::Offer(None));
    }
    Ok(ops)
}

/// A whole step of a swap opening (the computer's): the decision, then each stone, each decided
/// as a person's would be on the room as the ones before leave it, so the same checks hold.
/// Stored together, in one change: nobody sees half a step.
fn whole_step(
    snap: &Snapshot,
    seat: usize,
    ply: usize,
    decision: Option<Decision>,
    stones: &[String],
    now: i64,
) -> Result<Vec<Op>, ApiError> {
    if decision.is_none() && stones.is_empty() {
        return Err(ApiError::Api(mnk_api::ApiError::Internal(
            "an opening step with neither a decision nor a stone".into(),
        )));
    }
    let mut snap = snap.clone();
    let mut ops = Vec::new();
    let mut take = |snap: &mut Snapshot, action: Action| -> Result<(), ApiError> {
        let step = decide(snap, seat, &action, now)?;
        apply(snap, &step, now);
        ops.extend(step);
        Ok(())
    };
    if let Some(decision) = decision {
        take(&mut snap, Action::Decide { ply, decision })?;
    }
    for (index, cell) in stones.iter().enumerate() {
        let action = Action::Move {
            ply: ply + index,
            cell: cell.clone(),
        };
        take(&mut snap, action)?;
    }
    Ok(ops)
}

/// `snap` as the store leaves it after `ops` at `now`, for what the referee reads (moves,
/// decisions, the offer, the result).
fn apply(snap: &mut Snapshot, ops: &[Op], now: i64) {
    for op in ops {
        match op {
            Op::Move { cell, clock_ms, .. } => snap.moves.push(MoveRow {
                cell: cell.clone(),
                played_ms: now,
                clock_ms: *clock_ms,
            }),
            Op::Decide {
                after, clock_ms, ..
            } => {
                snap.game.decisions.clone_from(after);
                snap.game.decided_ms = Some(now);
                snap.game.decided_clock_ms = *clock_ms;
            }
            Op::Offer(offer) => snap.room.offer.clone_from(offer),
            Op::Finish { result, reason, .. } => {
                snap.game.result = Some(result.clone());
                snap.game.reason = Some(reason.clone());
                snap.game.finished_ms = Some(now);
            }
            Op::SeatBot { seat, bot } => {
                if let Some(row) = usize::try_from(*seat)
                    .ok()
                    .and_then(|s| snap.seats.get_mut(s))
                {
                    *row = SeatRow {
                        token_hash: None,
                        bot: Some(bot.clone()),
                    };
                }
            }
            Op::TakeSeat { .. }
            | Op::StartGame { .. }
            | Op::CurrentGame(_)
            | Op::NewGame { .. } => {}
        }
    }
}

/// How a position ends the game, if it does: the winner (none for a draw) and why.
fn ending(pos: &Position) -> Option<(Option<Player>, &'static str)> {
    match pos.outcome() {
        Outcome::Win { winner, .. } => Some((Some(*winner), "line")),
        Outcome::Draw(DrawKind::FullBoard) => Some((None, "full")),
        Outcome::Draw(DrawKind::NoMoveLeft) => Some((None, "no_move_left")),
        Outcome::Ongoing if pos.no_line_left() => Some((None, "no_line_left")),
        Outcome::Ongoing => None,
    }
}

/// A draw offer, or the acceptance of the opponent's.
fn draw(snap: &Snapshot, seat: usize) -> Result<Vec<Op>, ApiError> {
    playing(snap)?;
    let offered = snap.room.offer.as_deref();
    if offered == Some(offer("draw", 1 - seat).as_str()) {
        return Ok(finish(snap, None, "agreed"));
    }
    if offered == Some(offer("draw", seat).as_str()) {
        return Ok(Vec::new());
    }
    Ok(vec![Op::Offer(Some(offer("draw", seat)))])
}

/// What a seat claims of a game its opponent left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The win (`reason: "abandoned"`).
    Win,
    /// The opponent's seat, for this bot (in the engine's notation): the game goes on.
    Seat(String),
}

/// How long a seat's opponent has been away, as the service sees it, against how long it must be
/// before the game may be claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Absence {
    /// How long the opponent's seat has had no live connection, in milliseconds; `None` while
    /// it has one.
    pub away_ms: Option<i64>,
    /// How long it must have been away.
    pub needed_ms: i64,
}

/// Seat `seat` claims the game its opponent left: in an open room, a game in progress without
/// a clock (a clock's flag ends it instead), against a person (a bot never leaves) away for at
/// least `absence.needed_ms`.
pub fn claim(
    snap: &Snapshot,
    seat: usize,
    claim: &Claim,
    absence: Absence,
) -> Result<Vec<Op>, ApiError> {
    open(snap)?;
    playing(snap)?;
    let opponent = 1 - seat;
    if snap.room.clock.is_some() {
        return Err(ApiError::NotAbandoned(
            "this game has a clock: if your opponent does not come back, their time runs out and \
             you win"
                .into(),
        )
        .worded("clock", json!({})));
    }
    if snap.seats[opponent].bot.is_some() {
        return Err(ApiError::NotAbandoned(
            "the computer plays the other seat: it never leaves".into(),
        )
        .worded("bot", json!({})));
    }
    let secs = |ms: i64| (ms.max(0) + 999) / 1000;
    let Some(away) = absence.away_ms else {
        return Err(ApiError::NotAbandoned(format!(
            "your opponent is connected: a game can be claimed once they have been away for {} s",
            secs(absence.needed_ms)
        ))
        .worded("connected", json!({ "secs": secs(absence.needed_ms) })));
    };
    if away < absence.needed_ms {
        return Err(ApiError::NotAbandoned(format!(
            "your opponent has been away for {} s: you may claim the game after {} s, in {} s",
            away.max(0) / 1000,
            secs(absence.needed_ms),
            secs(absence.needed_ms - away)
        ))
        .worded(
            "not_yet",
            json!({
                "away": away.max(0) / 1000,
                "secs": secs(absence.needed_ms),
                "left": secs(absence.needed_ms - away),
            }),
        ));
    }
    Ok(match claim {
        Claim::Win => finish(snap, Some(colour_of(snap, seat)), "abandoned"),
        Claim::Seat(bot) => {
            let mut ops = vec![Op::SeatBot {
                seat: opponent as i64,
                bot: bot.clone(),
            }];
            if snap.room.offer.is_some() {
                // An offer of the player who left, or to them: nobody is left to answer it.
                ops.push(Op::Offer(None));
            }
            ops
        }
    })
}

/// A rematch offer, or its acceptance (a bot always accepts): a new game, colours swapped.
fn rematch(snap: &Snapshot, seat: usize) -> Result<Vec<Op>, ApiError> {
    if !is_over(snap) {
        return Err(ApiError::GameNotOver(
            "the game is still being played: resign or offer a draw first".into(),
        ));
    }
    let offered = snap.room.offer.as_deref();
    let accepted =
        offered == Some(offer("rematch", 1 - seat).as_str()) || snap.seats[1 - seat].bot.is_some();
    if !accepted {
        if offered == Some(offer("rematch", seat).as_str()) {
            return Ok(Vec::new());
        }
        return Ok(vec![Op::Offer(Some(offer("rematch", seat)))]);
    }
    let number = snap.game.number + 1;
    Ok(vec![
        Op::NewGame {
            number,
            x_seat: 1 - snap.game.x_seat,
        },
        Op::CurrentGame(number),
        Op::Offer(None),
    ])
}

/// The steps that seat a newcomer (token hash or bot) in the free seat, starting the game when
/// both seats are then taken; `None` when no seat is free.
#[must_use]
pub fn take_free_seat(
    snap: &Snapshot,
    token_hash: Option<String>,
    bot: Option<String>,
) -> Option<(usize, Vec<Op>)> {
    if snap.room.closed_ms.is_some() {
        return None;
    }
    let seat = snap.seats.iter().position(|s| !s.is_taken())?;
    let mut ops = vec![Op::TakeSeat {
        seat: seat as i64,
        token_hash,
        bot,
    }];
    if snap.seats[1 - seat].is_taken() && snap.game.started_ms.is_none() {
        ops.push(Op::StartGame {
            game: snap.game.number,
        });
    }
    Some((seat, ops))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rooms::reading::{clocks, seat_of, seat_of_token};
    use crate::rooms::store::{GameRow, MoveRow, RoomRow};

    /// A room of `rules` with both seats taken at time 0, seat 0 playing X, and `moves` played
    /// one a second from t = 1 s (each mover's clock as a Fischer clock would leave it).
    fn room(rules: &str, clock: Option<(i64, i64)>, moves: &[&str]) -> Snapshot {
        let seat = |h: &str| SeatRow {
            token_hash: Some(h.into()),
            bot: None,
        };
        Snapshot {
            room: RoomRow {
                id: "r".into(),
                rules: rules.into(),
                clock,
                created_ms: 0,
                seen_ms: 0,
                closed_ms: None,
                version: 1,
                game: 1,
                offer: None,
                opening: "free".into(),
            },
            seats: [seat("a"), seat("b")],
            game: GameRow {
                number: 1,
                x_seat: 0,
                started_ms: Some(0),
                result: None,
                reason: None,
                decisions: String::new(),
                decided_ms: None,
                decided_clock_ms: None,
                finished_ms: None,
            },
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, cell)| MoveRow {
                    cell: (*cell).into(),
                    played_ms: 1000 * (i as i64 + 1),
                    clock_ms: clock.map(|(initial, inc)| initial - 1000 + inc),
                })
                .collect(),
        }
    }

    fn play_at(ply: usize, cell: &str) -> Action {
        Action::Move {
            ply,
            cell: cell.into(),
        }
    }

    #[test]
    fn a_move_is_checked_for_ply_turn_and_legality_in_that_order() {
        let snap = room("3x3x3", None, &["b2"]);
        let code = |seat, action| decide(&snap, seat, &action, 5000).unwrap_err().code();
        assert_eq!(code(1, play_at(0, "a1")), "stale_ply");
        assert_eq!(code(0, play_at(1, "a1")), "not_your_turn");
        assert_eq!(code(1, play_at(1, "b2")), "illegal_move");
        assert_eq!(code(1, play_at(1, "zz")), "bad_cell");
        let ops = decide(&snap, 1, &play_at(1, "a1"), 5000).unwrap();
        assert!(matches!(&ops[0], Op::Move { ply: 1, cell, .. } if cell == "a1"));
    }

    #[test]
    fn a_winning_move_ends_the_game() {
        let snap = room("3x3x3", None, &["a1", "a2", "b2", "b3"]);
        let ops = decide(&snap, 0, &play_at(4, "c3"), 9000).unwrap();
        assert!(ops.contains(&Op::Finish {
            game: 1,
            result: "X".into(),
            reason: "line".into()
        }));
    }

    #[test]
    fn clocks_run_for_the_side_to_move_and_a_flag_falls() {
        // X and O each moved after one second: 10 s - 1 s + 2 s = 11 s left each.
        let snap = room("15x15x5", Some((10_000, 2000)), &["h8", "h9"]);
        let game = game(&snap).unwrap();
        assert_eq!(
            clocks(&snap, &game, 2000),
            Some((11_000, 11_000, Some(Player::X)))
        );
        assert_eq!(
            clocks(&snap, &game, 5000),
            Some((8000, 11_000, Some(Player::X)))
        );
        assert!(flag_fall(&snap, &game, 12_999).is_none());
        let flag = flag_fall(&snap, &game, 13_000).unwrap();
        assert!(flag.contains(&Op::Finish {
            game: 1,
            result: "O".into(),
            reason: "time".into()
        }));
    }

    #[test]
    fn offers_are_made_then_accepted_by_the_other_seat() {
        let mut snap = room("15x15x5", None, &["h8"]);
        assert_eq!(
            decide(&snap, 0, &Action::Draw, 0).unwrap(),
            vec![Op::Offer(Some("draw:0".into()))]
        );
        snap.room.offer = Some("draw:0".into());
        assert!(decide(&snap, 0, &Action::Draw, 0).unwrap().is_empty());
        assert!(decide(&snap, 1, &Action::Draw, 0)
            .unwrap()
            .contains(&Op::Finish {
                game: 1,
                result: "draw".into(),
                reason: "agreed".into()
            }));
        assert_eq!(
            decide(&snap, 1, &Action::Rematch, 0).unwrap_err().code(),
            "game_not_over"
        );
        snap.game.result = Some("draw".into());
        snap.room.offer = Some("rematch:1".into());
        let ops = decide(&snap, 0, &Action::Rematch, 0).unwrap();
        assert!(ops.contains(&Op::NewGame {
            number: 2,
            x_seat: 1
        }));
    }

    #[test]
    fn the_free_seat_is_taken_once_and_starts_the_game() {
        let mut snap = room("3x3x3", None, &[]);
        snap.seats[1] = SeatRow::default();
        snap.game.started_ms = None;
        let (seat, ops) = take_free_seat(&snap, Some("c".into()), None).unwrap();
        assert_eq!(seat, 1);
        assert!(ops.contains(&Op::StartGame { game: 1 }));
        snap.seats[1] = SeatRow {
            token_hash: Some("c".into()),
            bot: None,
        };
        assert!(take_free_seat(&snap, Some("d".into()), None).is_none());
        assert_eq!(seat_of_token(&snap, "c"), Some(1));
        assert_eq!(seat_of_token(&snap, "zzz"), None);
    }

    /// A swap2 room on 15x15 where seat 0 opens (it was given X, the first player's colour).
    fn swap2(moves: &[&str], decisions: &str) -> Snapshot {
        let mut snap = room("15x15x5", None, moves);
        snap.room.opening = "swap2".into();
        snap.game.decisions = decisions.into();
        snap
    }

    fn decide_at(ply: usize, decision: Decision) -> Action {
        Action::Decide { ply, decision }
    }

    /// `snap` with `ops` applied as the store would (moves and decisions).
    fn applied(mut snap: Snapshot, ops: &[Op]) -> Snapshot {
        for op in ops {
            match op {
                Op::Move { cell, .. } => snap.moves.push(crate::rooms::store::MoveRow {
                    cell: cell.clone(),
                    played_ms: 0,
                    clock_ms: None,
                }),
                Op::Decide { before, after, .. } => {
                    assert_eq!(&snap.game.decisions, before);
                    snap.game.decisions = after.clone();
                }
                _ => {}
            }
        }
        snap
    }

    #[test]
    fn in_a_swap_opening_the_opener_places_three_stones_of_both_colours() {
        let mut snap = swap2(&[], "");
        for (ply, cell) in ["h8", "h9", "j8"].into_iter().enumerate() {
            assert_eq!(
                decide(&snap, 1, &play_at(ply, cell), 0).unwrap_err().code(),
                "not_your_turn"
            );
            let ops = decide(&snap, 0, &play_at(ply, cell), 0).unwrap();
            snap = applied(snap, &ops);
        }
        // Three stones: the chooser (seat 1) decides; nobody moves meanwhile.
        assert_eq!(
            decide(&snap, 0, &play_at(3, "k8"), 0).unwrap_err().code(),
            "not_your_turn"
        );
        assert_eq!(
            decide(&snap, 1, &play_at(3, "k8"), 0).unwrap_err().code(),
            "opening_step"
        );
        assert_eq!(
            decide(&snap, 0, &decide_at(3, Decision::White), 0)
                .unwrap_err()
                .code(),
            "not_your_turn"
        );
        assert_eq!(
            decide(&snap, 1, &decide_at(2, Decision::White), 0)
                .unwrap_err()
                .code(),
            "stale_ply"
        );
        // Seat 1 takes white: it now plays O, which is to move.
        let ops = decide(&snap, 1, &decide_at(3, Decision::White), 0).unwrap();
        let snap = applied(snap, &ops);
        assert_eq!(snap.game.decisions, "white");
        assert_eq!(
            (colour_of(&snap, 0), colour_of(&snap, 1)),
            (Player::X, Player::O)
        );
        // The same decision again, from a client that had not seen it: stale.
        assert_eq!(
            decide(&snap, 1, &decide_at(3, Decision::White), 0)
                .unwrap_err()
                .code(),
            "stale_ply"
        );
        assert_eq!(
            decide(&snap, 0, &play_at(3, "k8"), 0).unwrap_err().code(),
            "not_your_turn"
        );
        assert!(decide(&snap, 1, &play_at(3, "k8"), 0).is_ok());
    }

    #[test]
    fn taking_black_swaps_the_seats_colours() {
        let snap = swap2(&["h8", "h9", "j8"], "");
        let ops = decide(&snap, 1, &decide_at(3, Decision::Black), 0).unwrap();
        let snap = applied(snap, &ops);
        assert_eq!(
            (colour_of(&snap, 0), colour_of(&snap, 1)),
            (Player::O, Player::X)
        );
        assert_eq!(seat_of(&snap, Player::O), 0);
        // White (seat 0 now) plays the fourth stone.
        assert_eq!(
            decide(&snap, 1, &play_at(3, "k8"), 0).unwrap_err().code(),
            "not_your_turn"
        );
        assert!(decide(&snap, 0, &play_at(3, "k8"), 0).is_ok());
    }

    #[test]
    fn after_place_two_the_chooser_places_and_the_opener_chooses() {
        let snap = swap2(&["h8", "h9", "j8"], "");
        let ops = decide(&snap, 1, &decide_at(3, Decision::PlaceTwo), 0).unwrap();
        let mut snap = applied(snap, &ops);
        for (ply, cell) in [(3, "k8"), (4, "g7")] {
            assert_eq!(
                decide(&snap, 0, &play_at(ply, cell), 0).unwrap_err().code(),
                "not_your_turn"
            );
            let ops = decide(&snap, 1, &play_at(ply, cell), 0).unwrap();
            snap = applied(snap, &ops);
        }
        assert_eq!(
            decide(&snap, 0, &decide_at(5, Decision::PlaceTwo), 0)
                .unwrap_err()
                .code(),
            "bad_opening"
        );
        assert_eq!(
            decide(&snap, 1, &decide_at(5, Decision::Black), 0)
                .unwrap_err()
                .code(),
            "not_your_turn"
        );
        // The opener takes white: it plays O (as it was given X at first, the seats swap).
        let ops = decide(&snap, 0, &decide_at(5, Decision::White), 0).unwrap();
        let snap = applied(snap, &ops);
        assert_eq!(snap.game.decisions, "place-two,white");
        assert_eq!(
            (colour_of(&snap, 0), colour_of(&snap, 1)),
            (Player::O, Player::X)
        );
        assert!(decide(&snap, 0, &play_at(5, "l8"), 0).is_ok());
    }

    #[test]
    fn a_free_room_has_nothing_to_decide() {
        let snap = room("15x15x5", None, &["h8", "h9", "j8"]);
        assert_eq!(
            decide(&snap, 1, &decide_at(3, Decision::Black), 0)
                .unwrap_err()
                .code(),
            "opening_step"
        );
        let swap = swap2(&["h8"], "");
        assert_eq!(
            decide(&swap, 1, &decide_at(1, Decision::Black), 0)
                .unwrap_err()
                .code(),
            "opening_step"
        );
    }

    /// A swap2 room with a clock (10 s, 2 s a turn), started at 0, where seat 0 opens.
    fn clocked_swap2() -> Snapshot {
        let mut snap = room("15x15x5", Some((10_000, 2000)), &[]);
        snap.room.opening = "swap2".into();
        snap
    }

    /// `snap` after seat `seat` takes `action` at `now` (which must be accepted).
    fn act_at(mut snap: Snapshot, seat: usize, action: &Action, now: i64) -> Snapshot {
        let ops = decide(&snap, seat, action, now).unwrap();
        apply(&mut snap, &ops, now);
        snap
    }

    /// Each seat's time left at `now`, and the seat whose clock runs.
    fn seat_time(snap: &Snapshot, now: i64) -> ([i64; 2], Option<usize>) {
        seat_clocks(snap, &game(snap).unwrap(), now).unwrap()
    }

    /// `clocked_swap2` after the opener's three stones at 1, 2 and 3 s.
    fn three_stones_by_three_seconds() -> Snapshot {
        let mut snap = clocked_swap2();
        for (ply, cell) in ["h8", "h9", "j8"].into_iter().enumerate() {
            snap = act_at(snap, 0, &play_at(ply, cell), 1000 * (ply as i64 + 1));
        }
        snap
    }

    #[test]
    fn in_a_swap_opening_the_acting_seats_clock_runs_and_a_turn_earns_one_increment() {
        let mut snap = clocked_swap2();
        // The opener (seat 0) places three stones, of both colours, on its own clock; only the
        // third ends its turn and earns the increment.
        assert_eq!(seat_time(&snap, 500), ([9500, 10_000], Some(0)));
        snap = act_at(snap, 0, &play_at(0, "h8"), 1000);
        snap = act_at(snap, 0, &play_at(1, "h9"), 2000);
        assert_eq!(seat_time(&snap, 2000), ([8000, 10_000], Some(0)));
        snap = act_at(snap, 0, &play_at(2, "j8"), 4000);
        assert_eq!(seat_time(&snap, 4000), ([8000, 10_000], Some(1)));
        // The chooser's clock runs while it chooses; place-two does not end its turn.
        assert_eq!(seat_time(&snap, 7000), ([8000, 7000], Some(1)));
        snap = act_at(snap, 1, &decide_at(3, Decision::PlaceTwo), 7000);
        assert_eq!(seat_time(&snap, 8000), ([8000, 6000], Some(1)));
        snap = act_at(snap, 1, &play_at(3, "k8"), 8000);
        snap = act_at(snap, 1, &play_at(4, "g7"), 9000);
        // Its second stone ends it: 10 s - 5 s + 2 s. The opener chooses on its clock.
        assert_eq!(seat_time(&snap, 9000), ([8000, 7000], Some(0)));
        assert_eq!(seat_time(&snap, 9500), ([7500, 7000], Some(0)));
        // Taking black hands the play to white (the chooser): the opener's turn ends.
        snap = act_at(snap, 0, &decide_at(5, Decision::Black), 10_000);
        assert_eq!(seat_time(&snap, 10_000), ([9000, 7000], Some(1)));
        // By colour: seat 0 plays X, seat 1 O, and O's clock runs.
        let g = game(&snap).unwrap();
        assert_eq!(
            clocks(&snap, &g, 11_000),
            Some((9000, 6000, Some(Player::O)))
        );
        // From here each move is a turn, as in any game.
        snap = act_at(snap, 1, &play_at(5, "l8"), 11_000);
        assert_eq!(seat_time(&snap, 11_000), ([9000, 8000], Some(0)));
    }

    #[test]
    fn taking_white_and_moving_is_one_turn_on_the_choosers_clock() {
        let snap = three_stones_by_three_seconds();
        assert_eq!(seat_time(&snap, 3000), ([9000, 10_000], Some(1)));
        let snap = act_at(snap, 1, &decide_at(3, Decision::White), 5000);
        assert_eq!(seat_time(&snap, 5000), ([9000, 8000], Some(1)));
        let snap = act_at(snap, 1, &play_at(3, "k8"), 6000);
        assert_eq!(seat_time(&snap, 6000), ([9000, 9000], Some(0)));
    }

    #[test]
    fn a_flag_in_the_opening_loses_for_the_seat_that_acts() {
        // The chooser (seat 1, given O at the start) has not chosen 10 s after the third stone.
        let snap = three_stones_by_three_seconds();
        let g = game(&snap).unwrap();
        assert!(flag_fall(&snap, &g, 12_999).is_none());
        let flag = flag_fall(&snap, &g, 13_000).unwrap();
        assert!(flag.contains(&Op::Finish {
            game: 1,
            result: "X".into(),
            reason: "time".into()
        }));
        let mut over = snap.clone();
        apply(&mut over, &flag, 13_000);
        assert_eq!(seat_time(&over, 20_000), ([9000, 0], None));
        // The opener runs out while placing its stones (of both colours): O, the chooser, wins.
        let snap = act_at(clocked_swap2(), 0, &play_at(0, "h8"), 4000);
        let g = game(&snap).unwrap();
        assert!(flag_fall(&snap, &g, 9999).is_none());
        assert_eq!(
            flag_fall(&snap, &g, 10_000).unwrap()[0],
            Op::Finish {
                game: 1,
                result: "O".into(),
                reason: "time".into()
            }
        );
    }

    fn whole(ply: usize, decision: Option<Decision>, stones: &[&str]) -> Action {
        Action::Step {
            ply,
            decision,
            stones: stones.iter().map(|s| (*s).to_string()).collect(),
        }
    }

    #[test]
    fn a_whole_opening_step_is_decided_at_once_with_one_increment() {
        // The opener's three stones in one step: its turn ends once.
        let snap = act_at(
            clocked_swap2(),
            0,
            &whole(0, None, &["h8", "h9", "j8"]),
            1000,
        );
        assert_eq!(snap.moves.len(), 3);
        assert_eq!(seat_time(&snap, 1000), ([11_000, 10_000], Some(1)));
        // The chooser places two with its decision; the opener then chooses.
        let two = whole(3, Some(Decision::PlaceTwo), &["k8", "g7"]);
        assert_eq!(
            decide(&snap, 0, &two, 2000).unwrap_err().code(),
            "not_your_turn"
        );
        let placed = act_at(snap.clone(), 1, &two, 2000);
        assert_eq!(
            (placed.game.decisions.as_str(), placed.moves.len()),
            ("place-two", 5)
        );
        assert_eq!(seat_time(&placed, 2000), ([11_000, 11_000], Some(0)));
        // A step that does not fit is refused whole (here a third stone, at the opener's
        // choice): nothing of it is kept.
        let too_many = whole(3, Some(Decision::PlaceTwo), &["k8", "g7", "l8"]);
        assert_eq!(
            decide(&snap, 1, &too_many, 2000).unwrap_err().code(),
            "not_your_turn"
        );
        let stale = whole(2, Some(Decision::White), &["k8"]);
        assert_eq!(
            decide(&snap, 1, &stale, 2000).unwrap_err().code(),
            "stale_ply"
        );
    }

    fn away(ms: Option<i64>) -> Absence {
        Absence {
            away_ms: ms,
            needed_ms: 60_000,
        }
    }

    #[test]
    fn a_game_is_claimed_only_once_the_opponent_has_been_away_for_the_delay() {
        let snap = room("15x15x5", None, &["h8", "h9"]);
        let refused = |absence| claim(&snap, 0, &Claim::Win, absence).unwrap_err();
        let here = refused(away(None));
        assert_eq!(here.code(), "not_abandoned");
        assert!(here.message().contains("connected"), "{}", here.message());
        let early = refused(away(Some(59_999)));
        assert_eq!(early.code(), "not_abandoned");
        assert!(
            early.message().contains("away for 59 s") && early.message().contains("in 1 s"),
            "{}",
            early.message()
        );
        // Seat 0 plays X: after the delay it wins, whoever is to move.
        let ops = claim(&snap, 0, &Claim::Win, away(Some(60_000))).unwrap();
        assert_eq!(
            ops,
            vec![
                Op::Finish {
                    game: 1,
                    result: "X".into(),
                    reason: "abandoned".into()
                },
                Op::Offer(None)
            ]
        );
        let ops = claim(&snap, 1, &Claim::Win, away(Some(61_000))).unwrap();
        assert!(matches!(&ops[0], Op::Finish { result, .. } if result == "O"));
    }

    #[test]
    fn the_opponents_seat_goes_to_a_bot_and_the_game_goes_on() {
        let mut snap = room("15x15x5", None, &["h8"]);
        snap.room.offer = Some("draw:1".into());
        let ops = claim(&snap, 0, &Claim::Seat("level3".into()), away(Some(90_000))).unwrap();
        assert_eq!(
            ops,
            vec![
                Op::SeatBot {
                    seat: 1,
                    bot: "level3".into()
                },
                Op::Offer(None)
            ]
        );
        apply(&mut snap, &ops, 100_000);
        assert_eq!(snap.seats[1].bot.as_deref(), Some("level3"));
        assert_eq!(snap.seats[1].token_hash, None);
        assert_eq!(
            seat_of_token(&snap, "b"),
            None,
            "the old token holds nothing"
        );
        assert!(!is_over(&snap));
        // The bot now sits there: it never leaves, so there is nothing more to claim.
        assert_eq!(
            claim(&snap, 0, &Claim::Win, away(Some(90_000)))
                .unwrap_err()
                .code(),
            "not_abandoned"
        );
    }

    #[test]
    fn no_claim_with_a_clock_before_the_start_after_the_end_or_in_a_closed_room() {
        let code = |snap: &Snapshot| {
            claim(snap, 0, &Claim::Win, away(Some(3_600_000)))
                .unwrap_err()
                .code()
        };
        let clocked = room("15x15x5", Some((60_000, 0)), &["h8"]);
        assert_eq!(code(&clocked), "not_abandoned");
        let mut waiting = room("15x15x5", None, &[]);
        waiting.game.started_ms = None;
        assert_eq!(code(&waiting), "waiting_for_opponent");
        let mut over = room("3x3x3", None, &["a1", "a2", "b2", "b3", "c3"]);
        over.game.result = Some("X".into());
        assert_eq!(code(&over), "game_over");
        let mut closed = room("15x15x5", None, &["h8"]);
        closed.room.closed_ms = Some(5);
        assert_eq!(code(&closed), "room_closed");
    }
}
