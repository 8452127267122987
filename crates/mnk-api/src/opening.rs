//! The state of a game (`state`, with its swap opening's step when it has one), and the
//! computer's part of a swap opening (`opening`): the opener's three stones, or the decision of
//! the one choosing with the stones that go with it. mnk-core's [`Opening::step`] says whose
//! part it is; mnk-engine's `opening` module plays the computer's.

use std::time::Duration;

use mnk_core::{Cell, Decision, Opening, Position, Seat, Step};
use mnk_engine::opening::{self, OpeningAnswer};
use mnk_engine::roster::{self, BotSpec};
use mnk_engine::search::EngineConfig;
use mnk_engine::Limits;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::error::ApiError;
use crate::game::{self, cell_names, state_json};
use crate::play::parse_opponent;
use crate::{Context, Job, Settings};

/// A game's opening as requests carry it: its kind and the decisions made so far.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningRequest {
    /// `free`, `swap` or `swap2`.
    pub kind: Opening,
    /// The decisions made so far, in order: `black`, `white`, `place-two`.
    #[serde(default)]
    pub decisions: Vec<Decision>,
}

/// What comes next in an opening, as the API answers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "lowercase")]
pub enum StepReply {
    /// `seat` places stones: `left` more before the next choice.
    Place {
        /// Who places.
        seat: Seat,
        /// Stones still to place.
        left: usize,
    },
    /// `seat` chooses among `options`.
    Choose {
        /// Who chooses.
        seat: Seat,
        /// The decisions allowed.
        options: Vec<Decision>,
    },
    /// The colours are settled: `black` plays the first player's stones.
    Settled {
        /// The seat that plays black.
        black: Seat,
    },
}

impl From<Step> for StepReply {
    fn from(step: Step) -> StepReply {
        match step {
            Step::Place { seat, left } => StepReply::Place { seat, left },
            Step::Choose { seat, options } => StepReply::Choose {
                seat,
                options: options.to_vec(),
            },
            Step::Settled { black } => StepReply::Settled { black },
        }
    }
}

/// Where `opening` stands in `pos`, or why the two do not fit (`bad_opening`).
pub fn opening_step(pos: &Position, opening: &OpeningRequest) -> Result<Step, ApiError> {
    opening
        .kind
        .check_rules(pos.rules())
        .map_err(|e| ApiError::BadOpening(e.to_string()))?;
    opening
        .kind
        .step(pos.ply(), &opening.decisions)
        .map_err(|e| ApiError::BadOpening(e.to_string()))
}

/// `POST /api/state`: the rules, the moves and optionally the opening.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateRequest {
    /// The rules, as in [`game::GameRequest`].
    pub rules: Json,
    /// The moves so far, as in [`game::GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// The opening, when the game has one.
    #[serde(default)]
    pub opening: Option<OpeningRequest>,
}

/// `state`: the state of the game, with the step of its opening when it has one.
pub fn state(request: &StateRequest) -> Result<Json, ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    let mut state = state_json(&pos);
    if let Some(opening) = &request.opening {
        let step = StepReply::from(opening_step(&pos, opening)?);
        state["opening"] =
            serde_json::to_value(step).map_err(|e| ApiError::Internal(e.to_string()))?;
    }
    Ok(state)
}

/// `POST /api/opening`: the game, its opening, and the bot that takes the computer's part.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpeningThinkRequest {
    /// The rules, as in [`game::GameRequest`].
    pub rules: Json,
    /// The moves so far, as in [`game::GameRequest`].
    #[serde(default)]
    pub moves: Vec<Json>,
    /// The opening and the decisions made so far.
    pub opening: OpeningRequest,
    /// The bot, as in `POST /api/move`.
    pub opponent: Json,
    /// Thinking time in milliseconds for the whole step (capped by the server).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Seed for the bot's random choices (random when absent).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// The computer's part of an opening.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningReply {
    /// `place` (the opener's three stones) or `choose`.
    pub action: &'static str,
    /// With `choose`: the decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The stones placed, in order (none after taking black).
    pub stones: Vec<String>,
    /// The game after them, with the opening's next step.
    pub state: Json,
    /// Milliseconds the computer took.
    pub time_ms: u64,
}

/// The computer's part of an opening, checked: the position, the step, the bot, its time.
#[derive(Debug)]
pub struct OpeningJob {
    pos: Position,
    step: Step,
    opening: OpeningRequest,
    spec: BotSpec,
    seed: u64,
    engine: EngineConfig,
    /// The time of the whole step, shared by its searches.
    pub budget: Duration,
}

/// Checks a request for the computer's part of an opening. `fresh_seed` is the caller's random
/// number, used when the request gives no seed.
pub fn computer_opening(
    settings: &Settings,
    request: OpeningThinkRequest,
    fresh_seed: u64,
) -> Result<Job, ApiError> {
    let pos = game::position(&request.rules, &request.moves)?;
    let step = opening_step(&pos, &request.opening)?;
    let spec = parse_opponent(&request.opponent)?;
    roster::check_rules(&spec, pos.rules())?;
    let seed = request
        .seed
        .unwrap_or(fresh_seed ^ pos.hash().rotate_left(17));
    Ok(Job::Opening(OpeningJob {
        budget: settings.think_time(request.time_ms),
        engine: EngineConfig::with_threads(settings.search_threads),
        opening: request.opening,
        pos,
        step,
        spec,
        seed,
    }))
}

impl OpeningJob {
    /// Places the opener's stones or makes the decision due; answers them with the state after.
    pub fn run(self, context: &Context) -> Result<Json, ApiError> {
        let start = context.now_ms();
        let part = computer_part(
            &self.spec,
            &self.pos,
            self.step,
            self.seed,
            self.engine,
            self.budget,
            context,
        )?;
        let (action, decision, stones) = match part {
            Part::Placed(stones) => ("place", None, stones),
            Part::Decided(answer) => ("choose", Some(answer.decision), answer.stones),
        };
        let mut after = self.pos;
        for &cell in &stones {
            after.try_play(cell).map_err(|e| {
                ApiError::Internal(format!("the computer placed an illegal opening stone: {e}"))
            })?;
        }
        let mut decisions = self.opening.decisions.clone();
        decisions.extend(decision);
        let next = self
            .opening
            .kind
            .step(after.ply(), &decisions)
            .map_err(|e| ApiError::Internal(format!("the computer's opening does not fit: {e}")))?;
        let mut state = state_json(&after);
        state["opening"] = serde_json::to_value(StepReply::from(next))
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let reply = OpeningReply {
            action,
            decision,
            stones: cell_names(after.rules(), &stones),
            state,
            time_ms: context.now_ms().saturating_sub(start),
        };
        serde_json::to_value(reply).map_err(|e| ApiError::Internal(e.to_string()))
    }
}

/// What the computer did in an opening.
pub enum Part {
    /// The opener's three stones.
    Placed(Vec<Cell>),
    /// A decision, with its stones.
    Decided(OpeningAnswer),
}

/// The computer's part at `step`, by the bot `spec`, its searches sharing `budget`: for
/// the `opening` request, and for a bot seated in a room with a swap opening. Each search's
/// deadline is read on the context's clock and its stop flag stops them all.
pub fn computer_part(
    spec: &BotSpec,
    pos: &Position,
    step: Step,
    seed: u64,
    engine: EngineConfig,
    budget: Duration,
    context: &Context,
) -> Result<Part, ApiError> {
    let mut bot = roster::create_with(spec, pos.rules(), seed, engine)?;
    let search_within = |share: usize| {
        let each = budget / u32::try_from(share.max(1)).unwrap_or(u32::MAX);
        move |p: &Position, bot: &mut dyn mnk_engine::Bot| {
            let limits: Limits = context.limits(each);
            opening::steady_choice(bot, p, &limits, &mut |_| {})
        }
    };
    match step {
        Step::Place { seat: Seat::Opener, left: 3 } => {
            let search = search_within(opening::searches_to_place(pos.rules()));
            let stones = opening::place_three(pos.rules(), seed, &mut |p: &Position| {
                search(p, bot.as_mut())
            })?;
            Ok(Part::Placed(stones))
        }
        Step::Choose { options, .. } => {
            let search = search_within(opening::searches_to_decide(options));
            let answer = opening::decide(pos, options, &mut |p: &Position| {
                search(p, bot.as_mut())
            })?;
            Ok(Part::Decided(answer))
        }
        Step::Place { .. } => Err(ApiError::OpeningStep(
            "these stones are placed by the person who chose to place them, not asked of the computer"
                .into(),
        )),
        Step::Settled { .. } => Err(ApiError::OpeningStep(
            "the colours are settled: ask for a move (POST /api/move)".into(),
        )),
    }
}
