//! A swap opening played out between the two players of a game (`mnk match --opening swap2`):
//! the opener places three stones, the other chooses, and so on as mnk-core's [`Opening`] says,
//! until the colours are settled. Our bots decide with mnk-engine's `opening` module, external
//! engines through `SWAP2BOARD`; mnk-core checks every stone.

use std::time::{Duration, Instant};

use mnk_core::{Cell, Decision, Opening, Position, Rules, Step};
use mnk_engine::opening::{self, OpeningAnswer};
use mnk_engine::{Bot, BotError, Choice, Deadline, Limits};

use super::engine::Swap2Answer;
use super::{Fault, FaultKind, MatchArgs, Seat};

/// How an opening went: the position it left, the player (0 = A, 1 = B) who plays black, and
/// the steps in words ("A placed three, B placed two, A took white").
pub(super) struct Settled {
    pub pos: Position,
    pub black: usize,
    pub story: String,
}

/// A fault in the opening, by the player (0 = A, 1 = B) who made it.
pub(super) struct OpeningFault {
    pub who: usize,
    pub fault: Fault,
}

/// What one step of the opening took, for the record of move times.
pub(super) struct StepTime {
    pub who: usize,
    pub ms: u64,
}

/// Plays `opening` between `seats` (by player), `opener` placing first, each step within the
/// move time (plus the tolerance), `seed` turning the bots' opening shapes.
pub(super) fn play_opening(
    args: &MatchArgs,
    opening: Opening,
    seats: &mut [Seat],
    opener: usize,
    seed: u64,
    times: &mut Vec<StepTime>,
) -> Result<Settled, OpeningFault> {
    let rules = args.rules;
    let person = |seat: mnk_core::Seat| match seat {
        mnk_core::Seat::Opener => opener,
        mnk_core::Seat::Chooser => 1 - opener,
    };
    let mut pos = Position::new(rules);
    let mut decisions: Vec<Decision> = Vec::new();
    let mut story: Vec<String> = Vec::new();
    loop {
        let step = opening
            .step(pos.ply(), &decisions)
            .expect("the opening is played by its own steps");
        let (who, placed) = match step {
            Step::Settled { black } => {
                return Ok(Settled {
                    pos,
                    black: person(black),
                    story: story.join(", "),
                })
            }
            Step::Place { seat, .. } => {
                let who = person(seat);
                let started = Instant::now();
                let cells = place(args, &mut seats[who], &rules, seed)
                    .and_then(|cells| in_time(args, started, cells));
                times.push(StepTime {
                    who,
                    ms: started.elapsed().as_millis() as u64,
                });
                story.push(format!("{} placed three", name(who)));
                (who, cells)
            }
            Step::Choose { seat, options } => {
                let who = person(seat);
                let started = Instant::now();
                let answer = choose(args, &mut seats[who], &pos, options)
                    .and_then(|answer| in_time(args, started, answer));
                times.push(StepTime {
                    who,
                    ms: started.elapsed().as_millis() as u64,
                });
                match answer {
                    Ok(answer) => {
                        decisions.push(answer.decision);
                        story.push(format!("{} {}", name(who), told(answer.decision)));
                        (who, Ok(answer.stones))
                    }
                    Err(fault) => (who, Err(fault)),
                }
            }
        };
        let cells = placed.map_err(|fault| OpeningFault { who, fault })?;
        for cell in cells {
            pos.try_play(cell).map_err(|e| OpeningFault {
                who,
                fault: Fault {
                    kind: FaultKind::Illegal,
                    detail: format!("in the opening: {e}"),
                },
            })?;
        }
    }
}

/// The player's letter in the story.
fn name(who: usize) -> &'static str {
    if who == 0 {
        "A"
    } else {
        "B"
    }
}

/// A decision in the story's words.
fn told(decision: Decision) -> &'static str {
    match decision {
        Decision::Black => "took black",
        Decision::White => "took white",
        Decision::PlaceTwo => "placed two",
    }
}

/// The answer, unless it came later than the move time plus the tolerance.
fn in_time<T>(args: &MatchArgs, started: Instant, answer: T) -> Result<T, Fault> {
    let spent = started.elapsed().as_millis() as u64;
    if spent > args.time_ms + args.tolerance_ms {
        return Err(Fault {
            kind: FaultKind::Timeout,
            detail: format!(
                "an opening step came after {spent} ms, {} ms were allowed (+{} ms tolerance)",
                args.time_ms, args.tolerance_ms
            ),
        });
    }
    Ok(answer)
}

/// The opener's three stones.
fn place(args: &MatchArgs, seat: &mut Seat, rules: &Rules, seed: u64) -> Result<Vec<Cell>, Fault> {
    match seat {
        Seat::Bot(bot) => {
            let share = opening::searches_to_place(rules);
            let mut search = bot_search(args, bot.as_mut(), share);
            opening::place_three(rules, seed, &mut search).map_err(bot_fault)
        }
        Seat::Engine(engine) => {
            match engine.swap2(&Position::new(*rules), engine_deadline(args))? {
                Swap2Answer::Stones(cells) => Ok(cells),
                Swap2Answer::Swap => Err(Fault {
                    kind: FaultKind::Protocol,
                    detail: "answered SWAP to an empty SWAP2BOARD".into(),
                }),
            }
        }
    }
}

/// The decision of the one choosing, with the stones placed along with it.
fn choose(
    args: &MatchArgs,
    seat: &mut Seat,
    pos: &Position,
    options: &[Decision],
) -> Result<OpeningAnswer, Fault> {
    match seat {
        Seat::Bot(bot) => {
            let share = opening::searches_to_decide(options);
            let mut search = bot_search(args, bot.as_mut(), share);
            opening::decide(pos, options, &mut search).map_err(bot_fault)
        }
        Seat::Engine(engine) => {
            let answer = engine_decision(engine.swap2(pos, engine_deadline(args))?);
            if !options.contains(&answer.decision) {
                return Err(Fault {
                    kind: FaultKind::Protocol,
                    detail: format!(
                        "chose '{}', which this opening does not offer",
                        answer.decision
                    ),
                });
            }
            Ok(answer)
        }
    }
}

/// What an engine's `SWAP2BOARD` answer decides.
fn engine_decision(answer: Swap2Answer) -> OpeningAnswer {
    match answer {
        Swap2Answer::Swap => OpeningAnswer {
            decision: Decision::Black,
            stones: Vec::new(),
        },
        Swap2Answer::Stones(stones) => OpeningAnswer {
            decision: if stones.len() == 2 {
                Decision::PlaceTwo
            } else {
                Decision::White
            },
            stones,
        },
    }
}

/// A search by `bot` within a `share`-th of the move time.
fn bot_search<'a>(
    args: &'a MatchArgs,
    bot: &'a mut dyn Bot,
    share: usize,
) -> impl FnMut(&Position) -> Result<Choice, BotError> + 'a {
    let budget = Duration::from_millis(args.time_ms / share.max(1) as u64);
    move |pos: &Position| {
        let limits = Limits {
            deadline: Some(Deadline::from_now(budget)),
            ..Limits::default()
        };
        opening::steady_choice(bot, pos, &limits, &mut |_| {})
    }
}

/// When an engine's opening answer must have come.
fn engine_deadline(args: &MatchArgs) -> Instant {
    Instant::now() + Duration::from_millis(args.time_ms + args.tolerance_ms)
}

/// A bot that failed in the opening.
fn bot_fault(e: BotError) -> Fault {
    Fault {
        kind: FaultKind::Crash,
        detail: format!("the bot failed in the opening: {e}"),
    }
}
