//! Reading a room: what a [`Snapshot`] says about its current game — the position (replayed
//! with mnk-core), which seat plays which colour, the clocks, whether the game is over, what is
//! on offer, where a swap opening stands. Both the [`referee`](super::referee), which decides on a snapshot, and the
//! [`view`](super::view), which shows it, read through here; neither needs the other.

use mnk_core::{Cell, Decision, Opening, Player, Position, Rules, Seat, Step};

use super::store::Snapshot;
use crate::error::ApiError;

/// A room's current game, read with mnk-core.
#[derive(Clone, Debug)]
pub struct Game {
    /// The rules.
    pub rules: Rules,
    /// The position after the stored moves.
    pub pos: Position,
    /// How the room's games open.
    pub opening: Opening,
    /// The decisions of this game's opening so far.
    pub decisions: Vec<Decision>,
}

impl Game {
    /// Where the opening stands: who places or chooses, or the colours settled (always settled,
    /// with the opener black, in a free opening).
    pub fn step(&self) -> Result<Step, ApiError> {
        self.opening
            .step(self.pos.ply(), &self.decisions)
            .map_err(|e| {
                ApiError::Api(mnk_api::ApiError::Internal(format!(
                    "a room's opening does not replay: {e}"
                )))
            })
    }
}

/// The room's opening and the current game's decisions, as stored.
pub fn opening(snap: &Snapshot) -> Result<(Opening, Vec<Decision>), String> {
    let opening: Opening = snap.room.opening.parse()?;
    let decisions = decisions(&snap.game.decisions)?;
    Ok((opening, decisions))
}

/// Decisions as stored: comma-separated names, none for an empty text.
pub fn decisions(text: &str) -> Result<Vec<Decision>, String> {
    text.split(',')
        .filter(|d| !d.is_empty())
        .map(str::parse)
        .collect()
}

/// Decisions as they are stored.
#[must_use]
pub fn decisions_text(decisions: &[Decision]) -> String {
    decisions
        .iter()
        .map(|d| d.name())
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether the game's swap opening has settled the colours the other way round from how the
/// seats were first given them. A game stores `x_seat` as if the opener kept the first
/// player's colour (black); when the chooser ends up black, the seats' colours are swapped.
fn swapped(snap: &Snapshot) -> bool {
    let Ok((opening, decisions)) = opening(snap) else {
        return false;
    };
    matches!(
        opening.step(snap.moves.len(), &decisions),
        Ok(Step::Settled {
            black: Seat::Chooser
        })
    )
}

/// The room seat that opens the current game: the one given the first player's colour at its
/// start (see [`swapped`]).
#[must_use]
pub fn opener_seat(snap: &Snapshot, rules: &Rules) -> usize {
    let x = usize::from(snap.game.x_seat == 1);
    if rules.first() == Player::X {
        x
    } else {
        1 - x
    }
}

/// The room seat of an opening's `seat` (opener or chooser) in the current game.
#[must_use]
pub fn room_seat(snap: &Snapshot, rules: &Rules, seat: Seat) -> usize {
    let opener = opener_seat(snap, rules);
    match seat {
        Seat::Opener => opener,
        Seat::Chooser => 1 - opener,
    }
}

/// Reads the current game of a snapshot. A stored game that does not replay is damage, not a
/// client's error.
pub fn game(snap: &Snapshot) -> Result<Game, ApiError> {
    let damaged = |what: String| {
        ApiError::Api(mnk_api::ApiError::Internal(format!(
            "room {} holds {what}",
            snap.room.id
        )))
    };
    let rules: Rules = snap
        .room
        .rules
        .parse()
        .map_err(|e| damaged(format!("unreadable rules: {e}")))?;
    let mut pos = Position::new(rules);
    for stored in &snap.moves {
        let cell: Cell = stored
            .cell
            .parse()
            .map_err(|e| damaged(format!("an unreadable move: {e}")))?;
        pos.try_play(cell)
            .map_err(|e| damaged(format!("an illegal move: {e}")))?;
    }
    let (opening, decisions) =
        opening(snap).map_err(|e| damaged(format!("an unreadable opening: {e}")))?;
    Ok(Game {
        rules,
        pos,
        opening,
        decisions,
    })
}

/// The colour seat `seat` plays in the current game. While a swap opening is still being
/// played this is the colour the seat was given at the start (the opener has black's); the
/// opening decides who acts then, not the colours.
#[must_use]
pub fn colour_of(snap: &Snapshot, seat: usize) -> Player {
    let x = i64::try_from(seat).ok() == Some(snap.game.x_seat);
    if x != swapped(snap) {
        Player::X
    } else {
        Player::O
    }
}

/// The seat playing `colour` in the current game (as [`colour_of`] says).
#[must_use]
pub fn seat_of(snap: &Snapshot, colour: Player) -> usize {
    usize::from(colour_of(snap, 0) != colour)
}

/// Whether the current game has a result.
#[must_use]
pub fn is_over(snap: &Snapshot) -> bool {
    snap.game.result.is_some()
}

/// The room seat that acts at `step` with `stones` on the board: the seat that places or
/// chooses in a swap opening, else the one playing the colour of the next stone.
#[must_use]
pub fn step_seat(snap: &Snapshot, rules: &Rules, step: Step, stones: usize) -> usize {
    match step {
        Step::Place { seat, .. } | Step::Choose { seat, .. } => room_seat(snap, rules, seat),
        Step::Settled { black } => {
            let black = room_seat(snap, rules, black);
            if stones % 2 == 0 {
                black
            } else {
                1 - black
            }
        }
    }
}

/// The room seat that acts now: places a stone, chooses, or moves.
pub fn acting_seat(snap: &Snapshot, game: &Game) -> Result<usize, ApiError> {
    Ok(step_seat(snap, &game.rules, game.step()?, game.pos.ply()))
}

/// One turn's end as the clocks see it: the seat that acted, when, and the time it had left
/// after (stored with a clock).
struct Act {
    seat: usize,
    at: Option<i64>,
    clock_ms: Option<i64>,
}

/// Everything the seats did in the current game, in order: each stone, and each decision of a
/// swap opening (before the stone at the ply it was made at). Only the last decision's time is
/// stored: an earlier one (swap2's place-two) is always followed by its maker's own stones.
fn acts(snap: &Snapshot, game: &Game) -> Vec<Act> {
    let mut acts = Vec::with_capacity(snap.moves.len() + game.decisions.len());
    let mut made = 0;
    for ply in 0..=snap.moves.len() {
        while made < game.decisions.len() {
            let Ok(Step::Choose { seat, .. }) = game.opening.step(ply, &game.decisions[..made])
            else {
                break;
            };
            made += 1;
            let last = made == game.decisions.len();
            acts.push(Act {
                seat: room_seat(snap, &game.rules, seat),
                at: snap.game.decided_ms.filter(|_| last),
                clock_ms: snap.game.decided_clock_ms.filter(|_| last),
            });
        }
        let Some(stored) = snap.moves.get(ply) else {
            break;
        };
        let step = game.opening.step(ply, &game.decisions[..made]);
        // A stored game always replays (`game` checked it); settled is the safe reading.
        let step = step.unwrap_or(Step::Settled {
            black: mnk_core::Seat::Opener,
        });
        acts.push(Act {
            seat: step_seat(snap, &game.rules, step, ply),
            at: Some(stored.played_ms),
            clock_ms: stored.clock_ms,
        });
    }
    acts
}

/// Each seat's clock at `now`, in milliseconds left (seat 0's, seat 1's), and the seat whose
/// clock runs: the one that acts (in a swap opening, the seat placing or choosing), from the
/// game's start or the last stone or decision.
#[must_use]
pub fn seat_clocks(snap: &Snapshot, game: &Game, now: i64) -> Option<([i64; 2], Option<usize>)> {
    let (initial, _) = snap.room.clock?;
    let mut left = [initial, initial];
    let mut since = snap.game.started_ms;
    for act in acts(snap, game) {
        if let Some(clock) = act.clock_ms {
            left[act.seat] = clock;
        }
        since = act.at.or(since);
    }
    let acting = acting_seat(snap, game).ok()?;
    // A closed room's clocks stand still (and no flag falls there: nothing is written to it).
    let running = since
        .filter(|_| snap.game.started_ms.is_some())
        .filter(|_| !is_over(snap) && snap.room.closed_ms.is_none())
        .map(|since| {
            left[acting] -= (now - since).max(0);
            acting
        });
    if let (Some(since), Some(finished), Some(_)) =
        (since, snap.game.finished_ms, snap.game.started_ms)
    {
        // Over: the clock of the seat that was to act ran until the end (a resignation, an
        // agreed draw, a claim come while it thought), and stands there.
        left[acting] -= (finished - since).max(0);
    }
    if snap.game.reason.as_deref() == Some("time") {
        // Lost on time: the clock of the seat that was to act stopped at zero.
        left[acting] = 0;
    }
    Some((left, running))
}

/// The game's two clocks at `now` by colour, in milliseconds left (X's, O's), and the colour
/// of the seat whose clock runs (in a swap opening, the seat that acts: not always `to_move`).
#[must_use]
pub fn clocks(snap: &Snapshot, game: &Game, now: i64) -> Option<(i64, i64, Option<Player>)> {
    let (left, running) = seat_clocks(snap, game, now)?;
    Some((
        left[seat_of(snap, Player::X)],
        left[seat_of(snap, Player::O)],
        running.map(|seat| colour_of(snap, seat)),
    ))
}

/// The offer text for `kind` by `seat`: `draw:0`.
#[must_use]
pub fn offer(kind: &str, seat: usize) -> String {
    format!("{kind}:{seat}")
}

/// What is on offer: its kind (`draw`, `rematch`) and the seat that offers it.
#[must_use]
pub fn offered(snap: &Snapshot) -> Option<(&str, usize)> {
    let (kind, seat) = snap.room.offer.as_deref()?.split_once(':')?;
    Some((kind, seat.parse().ok()?))
}

/// The seat a token hash holds in the room, if any.
#[must_use]
pub fn seat_of_token(snap: &Snapshot, hash: &str) -> Option<usize> {
    snap.seats
        .iter()
        .position(|s| s.token_hash.as_deref() == Some(hash))
}
