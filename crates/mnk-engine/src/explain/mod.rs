//! Why a bot chose its move: what each classic bot read, weighed or searched on the way, for a
//! page that lets people watch the computer think.
//!
//! An explanation is never a second copy of a bot's algorithm. Each bot records while it thinks,
//! through a recorder handed to the very code it plays with: the line counter's alpha-beta takes
//! an [`alphabeta::Recorder`], the attack weights a [`weights::WeightRecorder`], the search
//! engine an [`engine::EngineRecorder`]. They are generic
//! parameters, and the ordinary path passes a no-op recorder whose empty methods the compiler
//! removes, so a search nobody watches costs what it did before recorders existed. The rule
//! player's decision and the perfect player's solver answers are small values that the bots
//! return anyway; their explanations are those values, with the perfect player's line of best
//! play and the values of the other moves asked of the same solver after the choice is made.
//!
//! A trace is bounded: an alpha-beta search records at most [`TRACE_NODES`] nodes (and then still
//! each of the root's moves, so that the choice can be read off the tree) and lists at most
//! [`TRACE_WINDOWS`] k-windows of its leaves. Past either bound it goes on counting (nodes,
//! cut-offs, the branches they saved) and says that its tree was cut short. The engine's trace
//! keeps only its principal path and the moves beside it (see [`engine`]).

pub mod alphabeta;
pub mod engine;
pub mod perfect;
pub mod rules;
pub mod weights;

/// The most nodes an alpha-beta trace records (the root included) before it records only the
/// root's moves; the search goes on past it, counted but not recorded.
pub const TRACE_NODES: u64 = 20_000;
/// The most k-windows of leaves an alpha-beta trace lists one by one; later leaves give only
/// their sums by kind of window.
pub const TRACE_WINDOWS: u64 = 20_000;

/// What a bot's explanation holds, by kind of bot.
#[derive(Clone, Debug, PartialEq)]
pub enum Explanation {
    /// The rule player: which rule fired, on the original's spiral-numbered squares.
    Rules(rules::RuleDecision),
    /// The line counter: its alpha-beta tree.
    AlphaBeta(alphabeta::AlphaBetaTrace),
    /// The perfect player: the values, and the line of best play after its move.
    Perfect(perfect::PerfectLine),
    /// The attack-weight bot (and level 1's mistakes): how the best cells' weights add up.
    Weights(weights::WeightsExplanation),
    /// The search engine: its iterations, threat sequence, root moves and principal path.
    Engine(engine::EngineExplanation),
}
