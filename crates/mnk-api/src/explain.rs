//! `explain`: the computer's move with why it chose it, as JSON a page can draw.
//!
//! The move is the one `move` plays for the same request and seed: the bot is built the same
//! way and explains by the code it plays with (mnk-engine's `explain`). This module only writes
//! what the engine recorded, one writer per kind of bot: `rules`, `alphabeta`, `perfect`,
//! `weights`. Scores of the alpha-beta tree are the bot's: the JSON numbers of an evaluation,
//! or `{"win": n}` / `{"loss": n}` (plies from the root), `"inf"` / `"-inf"` for a window's open
//! ends, and the digits as a string for an evaluation beyond JavaScript's exact integers.

use mnk_core::{Cell, Player, Position, Rules};
use mnk_engine::bots::SPIRAL;
use mnk_engine::explain::alphabeta::{
    AlphaBetaTrace, Exit, LeafEval, Score, TraceNode, WindowRecord, WindowTerm,
};
use mnk_engine::explain::engine::{
    Bound, End, EngineExplanation, Scored, ThreatKind, TRACE_PV_NODES, TRACE_ROOT_MOVES,
    TRACE_SIBLINGS,
};
use mnk_engine::explain::perfect::{PerfectLine, Reason};
use mnk_engine::explain::rules::{ForkTable, Rule, RuleDecision};
use mnk_engine::explain::weights::{AttackWeight, WeightsExplanation};
use mnk_engine::explain::weights::{Bonus, CellWeights, LineWeights, SideWeights};
use mnk_engine::explain::{Explanation, TRACE_NODES, TRACE_WINDOWS};
use mnk_engine::search::value_of;
use serde_json::{json, Value as Json};

use crate::game::value_json;
use crate::game::{cell_json, cell_names};

/// The explanation's JSON, tagged by `kind`.
#[must_use]
pub fn explanation_json(pos: &Position, explanation: &Explanation) -> Json {
    match explanation {
        Explanation::Rules(decision) => rules_json(pos, decision),
        Explanation::AlphaBeta(trace) => alphabeta_json(pos.rules(), trace),
        Explanation::Perfect(line) => perfect_json(pos, line),
        Explanation::Weights(weights) => weights_json(pos.rules(), weights),
        Explanation::Engine(engine) => engine_json(pos.rules(), engine),
    }
}

// ---- The rule player ----

fn rules_json(pos: &Position, d: &RuleDecision) -> Json {
    let rules = pos.rules();
    let squares: Vec<Json> = SPIRAL
        .iter()
        .map(|&(square, cell)| {
            let mut entry = cell_json(rules, cell);
            entry["square"] = json!(square);
            entry["stone"] = json!(pos.stone(cell));
            entry
        })
        .collect();
    let rows: Vec<Json> = d
        .rows
        .iter()
        .map(|row| json!({ "squares": row.squares, "cells": square_names(rules, row.squares), "sum": row.sum }))
        .collect();
    let (rule, line) = match d.rule {
        Rule::Win { line } => ("win", Some(line)),
        Rule::Block { line } => ("block", Some(line)),
        Rule::Fork => ("fork", None),
        Rule::Centre => ("centre", None),
        Rule::Corner => ("corner", None),
        Rule::Side => ("side", None),
    };
    let pattern = d.pattern.map(|p| {
        json!({
            "table": match p.table {
                ForkTable::Corner => "corner",
                ForkTable::Side => "side",
                ForkTable::CornerExcept => "corner_except",
            },
            "pattern": p.pattern,
            "cells": square_names(rules, p.pattern),
            "reply": p.reply,
            "reply_cells": square_names(rules, p.reply),
            "played": p.played,
        })
    });
    json!({
        "kind": "rules",
        "for": pos.to_move(),
        "rule": rule,
        "line": line,
        "pattern": pattern,
        "candidates": cell_names(rules, &d.candidates),
        "mine": d.mine,
        "theirs": d.theirs,
        "squares": squares,
        "rows": rows,
    })
}

/// The cells of a sum of spiral square numbers, column by column from the left, each from the
/// top (so a line's cells come in its order).
fn square_names(rules: &Rules, squares: u16) -> Vec<String> {
    let mut cells: Vec<Cell> = SPIRAL
        .iter()
        .filter(|(s, _)| squares & s != 0)
        .map(|&(_, c)| c)
        .collect();
    cells.sort_by_key(|c| (c.x, -c.y));
    cell_names(rules, &cells)
}

// ---- The line counter ----

fn alphabeta_json(rules: &Rules, t: &AlphaBetaTrace) -> Json {
    let r = &t.recorded;
    json!({
        "kind": "alphabeta",
        "for": t.bot,
        "depth": t.depth,
        "nodes": t.nodes,
        "cutoffs": r.cutoffs,
        "saved": r.saved,
        "recorded": r.recorded,
        "unrecorded": r.unrecorded,
        "truncated": r.unrecorded > 0,
        "windows_truncated": r.windows_cut,
        "limits": { "nodes": TRACE_NODES, "windows": TRACE_WINDOWS },
        "stopped": t.stopped,
        "root_moves": cell_names(rules, &t.root_moves),
        "preselected": t.preselected,
        "tree": t.recorded.root.as_ref().map(|root| node_json(rules, t.bot, root)),
    })
}

fn node_json(rules: &Rules, bot: Player, node: &TraceNode) -> Json {
    let mut entry = json!({
        "move": node.cell.map(|c| rules.cell_name(c)),
        "max": node.to_move == bot,
        "alpha": score_json(node.alpha),
        "beta": score_json(node.beta),
        "value": score_json(node.value),
        "exit": exit_name(node.exit),
    });
    if !node.children.is_empty() {
        entry["children"] = node
            .children
            .iter()
            .map(|c| node_json(rules, bot, c))
            .collect();
    }
    if let Some(saved) = &node.saved {
        entry["saved"] = json!(cell_names(rules, saved));
    }
    if node.unrecorded > 0 {
        entry["unrecorded"] = json!(node.unrecorded);
    }
    if let Some(leaf) = &node.leaf {
        entry["eval"] = leaf_json(rules, leaf);
    }
    entry
}

fn exit_name(exit: Exit) -> &'static str {
    match exit {
        Exit::Inner => "inner",
        Exit::Leaf => "leaf",
        Exit::Won => "won",
        Exit::Drawn => "drawn",
        Exit::Stopped => "stopped",
    }
}

fn leaf_json(rules: &Rules, leaf: &LeafEval) -> Json {
    let terms: Vec<Json> = leaf.terms.iter().map(term_json).collect();
    let windows: Vec<Json> = leaf.windows.iter().map(|w| window_json(rules, w)).collect();
    json!({
        "terms": terms,
        "mixed": leaf.mixed,
        "windows": windows,
        "all_listed": leaf.all_listed,
    })
}

/// A kind of window as `[side, stones, windows, each]`: compact, as a leaf has several and a
/// trace thousands of leaves.
fn term_json(t: &WindowTerm) -> Json {
    json!([t.side, t.stones, t.windows, points_json(t.each)])
}

fn window_json(rules: &Rules, w: &WindowRecord) -> Json {
    let k = rules.k() as i32;
    let cells: Vec<Cell> = (0..k)
        .map(|i| w.start.offset(w.direction.0, w.direction.1, i))
        .collect();
    json!({
        "cells": cell_names(rules, &cells),
        "side": w.side,
        "stones": w.stones,
        "points": points_json(w.points),
    })
}

/// The largest integer JavaScript holds exactly.
const EXACT_IN_JAVASCRIPT: i64 = (1 << 53) - 1;

/// An evaluation's points: a number, or its digits where JavaScript would round it.
fn points_json(points: i64) -> Json {
    if points.abs() <= EXACT_IN_JAVASCRIPT {
        json!(points)
    } else {
        json!(points.to_string())
    }
}

fn score_json(score: Score) -> Json {
    match score {
        Score::MinusInfinity => json!("-inf"),
        Score::Infinity => json!("inf"),
        Score::Win(plies) => json!({ "win": plies }),
        Score::Loss(plies) => json!({ "loss": plies }),
        Score::Eval(points) => points_json(points),
    }
}

// ---- The perfect player ----

fn perfect_json(pos: &Position, line: &PerfectLine) -> Json {
    let rules = pos.rules();
    let moves = line.moves.as_ref().map(|moves| {
        moves
            .iter()
            .map(|&(cell, value)| json!({ "cell": rules.cell_name(cell), "value": value_json(rules, value) }))
            .collect::<Vec<_>>()
    });
    let path: Vec<Json> = line
        .path
        .iter()
        .map(|step| {
            json!({
                "move": rules.cell_name(step.cell),
                "player": step.player,
                "value": value_json(rules, step.value),
            })
        })
        .collect();
    json!({
        "kind": "perfect",
        "for": pos.to_move(),
        "value": value_json(rules, line.value),
        "reason": match line.reason() {
            Reason::FastestWin => "fastest_win",
            Reason::Draw => "draw",
            Reason::SlowestLoss => "slowest_loss",
        },
        "best": cell_names(rules, &line.best),
        "moves": moves,
        "path": path,
        "path_complete": line.path_complete,
        "extra_nodes": line.extra_nodes,
    })
}

// ---- The attack weights ----

fn weights_json(rules: &Rules, w: &WeightsExplanation) -> Json {
    let cells: Vec<Json> = w
        .cells
        .iter()
        .map(|c| cell_weights_json(rules, c))
        .collect();
    json!({
        "kind": "weights",
        "for": w.to_move,
        "weighed": w.weighed,
        "choices": cell_names(rules, &w.choices),
        "mistake": w.mistake,
        "cells": cells,
    })
}

fn cell_weights_json(rules: &Rules, c: &CellWeights) -> Json {
    let mut entry = cell_json(rules, c.cell);
    entry["weight"] = json!(c.weight);
    entry["sides"] = c.sides.iter().map(side_json).collect();
    entry
}

fn side_json(side: &SideWeights) -> Json {
    let lines: Vec<Json> = side.lines.iter().map(line_json).collect();
    let bonus = side.bonus.map(|(bonus, weight)| {
        let kind = match bonus {
            Bonus::OwnLine => "own_line",
            Bonus::Block => "block",
        };
        json!({ "kind": kind, "weight": weight })
    });
    json!({ "side": side.side, "weight": side.weight, "bonus": bonus, "lines": lines })
}

fn line_json(line: &LineWeights) -> Json {
    let attacks: Vec<Json> = line.attacks.iter().map(attack_json).collect();
    json!({
        "direction": [line.direction.0, line.direction.1],
        "breakpoint": line.breakpoint,
        "double_breakpoint": line.double_breakpoint,
        "weight": line.weight,
        "attacks": attacks,
    })
}

fn attack_json(a: &AttackWeight) -> Json {
    json!({ "power": a.power, "potential": a.potential, "divider": a.divider, "weight": a.weight })
}

// ---- The search engine ----

fn engine_json(rules: &Rules, x: &EngineExplanation) -> Json {
    let t = &x.trace;
    let iterations: Vec<Json> = x
        .iterations
        .iter()
        .map(|i| {
            json!({
                "depth": i.depth,
                "value": value_json(rules, i.value),
                "pv": cell_names(rules, &i.pv),
                "nodes": i.nodes,
                "time_ms": i.elapsed_ms,
            })
        })
        .collect();
    let threat = t.threat.as_ref().map(|threat| {
        json!({
            "kind": match threat.kind {
                ThreatKind::Five => "five",
                ThreatKind::Vcf => "vcf",
                ThreatKind::Vct => "vct",
                ThreatKind::Lost => "lost",
            },
            "line": cell_names(rules, &threat.line),
        })
    });
    let defences = t.defences.as_ref().map(|(threat, kept)| {
        json!({ "threat": cell_names(rules, threat), "moves": cell_names(rules, kept) })
    });
    let path: Vec<Json> = t
        .path
        .iter()
        .map(|node| {
            json!({
                "move": node.cell.map(|c| rules.cell_name(c)),
                "for": node.to_move,
                "moves": scored_json(rules, &node.moves),
                "more": node.more,
            })
        })
        .collect();
    json!({
        "kind": "engine",
        "for": x.to_move,
        "limits": {
            "depth": x.limits.max_depth,
            "nodes": x.limits.max_nodes,
            "time_ms": x.limits.time_ms,
        },
        "ended_by": match t.end {
            End::Threat => "threat",
            End::Depth => "depth",
            End::Proven => "proven",
            End::Forced => "forced",
            End::TimePlan => "time_plan",
            End::Nodes => "nodes",
            End::Time => "time",
            End::Stopped => "stopped",
            End::Urgent => "urgent",
        },
        "iterations": iterations,
        "threat": threat,
        "defences": defences,
        "root": {
            "depth": t.root_depth,
            "moves": scored_json(rules, &t.root),
            "more": t.root_more,
        },
        "path": path,
        "unrecorded": t.unrecorded,
        "bounds": {
            "root_moves": TRACE_ROOT_MOVES,
            "siblings": TRACE_SIBLINGS,
            "pv_nodes": TRACE_PV_NODES,
        },
    })
}

/// Moves with their values for the side to move where they were searched, and what each
/// value is: `exact`, `upper` (at most: the move failed low) or `lower` (at least).
fn scored_json(rules: &Rules, moves: &[Scored<Cell>]) -> Vec<Json> {
    moves
        .iter()
        .map(|s| {
            json!({
                "cell": rules.cell_name(s.m),
                "value": value_json(rules, value_of(s.score)),
                "bound": match s.bound {
                    Bound::Exact => "exact",
                    Bound::Upper => "upper",
                    Bound::Lower => "lower",
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{respond, Context, Reply, Settings};

    /// A clock that never moves: no request below runs out of time.
    struct Still;
    impl mnk_engine::Clock for Still {
        fn now_ms(&self) -> u64 {
            0
        }
    }

    fn ask(path: &str, body: &Json) -> Reply {
        let context = Context {
            clock: Arc::new(Still),
            stop: None,
        };
        respond(
            &Settings::default(),
            &context,
            7,
            path,
            Some(&body.to_string()),
        )
    }

    fn explained(body: &Json) -> Json {
        let reply = ask("explain", body);
        assert_eq!(reply.status, 200, "{body}: {}", reply.body);
        reply.body
    }

    /// Games of `rules` played out at random by the seed, every position of each.
    fn games(rules: &str, count: u64, plies: usize) -> Vec<Json> {
        let rules: Rules = rules.parse().unwrap();
        let mut all = Vec::new();
        for seed in 0..count {
            let mut rng = mnk_engine::Rng::seeded(seed);
            let mut pos = Position::new(rules);
            while !pos.is_over() && pos.ply() < plies {
                all.push(json!({
                    "rules": rules.to_string(),
                    "moves": cell_names(&rules, pos.history()),
                }));
                let moves = pos.legal_moves();
                pos.play(rng.pick(&moves).unwrap());
            }
        }
        all
    }

    #[test]
    fn the_explained_move_is_the_move_played_with_the_same_seed() {
        let cases = [
            (
                "3x3x3",
                4,
                9,
                vec!["rules", "alphabeta", "alphabeta:4", "perfect", "weights"],
            ),
            ("3x3x3", 2, 9, vec!["level1", "level2", "level3", "level6"]),
            (
                "4x4x3",
                2,
                8,
                vec!["alphabeta", "perfect", "weights", "level3"],
            ),
            (
                "15x15x5",
                1,
                6,
                vec!["weights", "level1", "level3", "alphabeta"],
            ),
        ];
        for (rules, count, plies, opponents) in cases {
            for (seed, game) in games(rules, count, plies).into_iter().enumerate() {
                for opponent in &opponents {
                    let mut body = game.clone();
                    body["opponent"] = json!(opponent);
                    body["seed"] = json!(seed);
                    let moved = ask("move", &body);
                    assert_eq!(moved.status, 200, "{body}: {}", moved.body);
                    let e = explained(&body);
                    for field in ["move", "value", "pv", "depth", "nodes"] {
                        assert_eq!(e[field], moved.body[field], "{field} of {body}");
                    }
                    let kind = e["explanation"]["kind"].as_str().unwrap();
                    assert!(
                        ["rules", "alphabeta", "perfect", "weights"].contains(&kind),
                        "{kind}"
                    );
                    assert!(e.get("state").is_none());
                }
            }
        }
    }

    #[test]
    fn the_rule_player_shows_the_original_numbers() {
        let e = explained(&json!({
            "rules": "3x3x3", "moves": ["a3", "a2", "b3", "b2"], "opponent": {"bot": "rules"}
        }));
        let x = &e["explanation"];
        assert_eq!(e["move"]["cell"], "c3");
        assert_eq!(
            (x["kind"].clone(), x["rule"].clone()),
            (json!("rules"), json!("win"))
        );
        assert_eq!(x["line"], 0);
        assert_eq!(
            x["rows"][0],
            json!({"squares": 7, "cells": ["a3", "b3", "c3"], "sum": 8})
        );
        assert_eq!(x["rows"][1]["sum"], 2);
        assert_eq!(
            x["squares"][0],
            json!({"cell": "a3", "x": 0, "y": 2, "square": 1, "stone": "X"})
        );
        assert_eq!(x["squares"][8]["square"], 256);
        assert_eq!(
            (x["mine"].clone(), x["theirs"].clone()),
            (json!(3), json!(384))
        );
        let fork = explained(&json!({
            "rules": "3x3x3", "moves": ["b3", "b2", "a1"], "opponent": "rules"
        }));
        assert_eq!(fork["explanation"]["rule"], "fork");
        assert_eq!(
            fork["explanation"]["pattern"],
            json!({"table": "corner", "pattern": 66, "cells": ["a1", "b3"], "reply": 1,
                   "reply_cells": ["a3"], "played": true})
        );
    }

    #[test]
    fn the_line_counter_shows_its_tree_as_the_bot_sees_it() {
        let e = explained(&json!({
            "rules": "3x3x3", "moves": ["a3", "a2", "b3", "b2"], "opponent": "alphabeta", "seed": 1
        }));
        let x = &e["explanation"];
        assert_eq!(x["kind"], "alphabeta");
        assert_eq!(x["nodes"], e["nodes"]);
        let tree = &x["tree"];
        assert_eq!(
            (tree["move"].clone(), tree["max"].clone()),
            (Json::Null, json!(true))
        );
        assert_eq!(
            (tree["alpha"].clone(), tree["beta"].clone()),
            (json!("-inf"), json!("inf"))
        );
        assert_eq!(tree["value"], json!({"win": 1}));
        let children = tree["children"].as_array().unwrap();
        assert_eq!(children.len(), 5);
        let win = children.iter().find(|c| c["move"] == "c3").unwrap();
        assert_eq!(
            (win["exit"].clone(), win["max"].clone()),
            (json!("won"), json!(false))
        );
        let leaf = children
            .iter()
            .flat_map(|c| c["children"].as_array().into_iter().flatten())
            .find(|n| n["exit"] == "leaf")
            .unwrap();
        let eval = &leaf["eval"];
        let sum: i64 = eval["terms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[2].as_i64().unwrap() * t[3].as_i64().unwrap())
            .sum();
        assert_eq!(json!(sum), leaf["value"]);
        assert_eq!(eval["windows"][0]["cells"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn the_perfect_player_shows_why_and_the_line() {
        let e = explained(&json!({
            "rules": "3x3x3", "moves": ["a1", "a2", "b1", "b2"], "opponent": "perfect", "seed": 3
        }));
        let x = &e["explanation"];
        assert_eq!(e["move"]["cell"], "c1");
        assert_eq!(x["reason"], "fastest_win");
        assert_eq!(
            x["value"],
            json!({"kind": "win", "plies": 1, "text": "win in 1", "expect": 1.0})
        );
        assert_eq!(
            x["path"],
            json!([{"move": "c1", "player": "X", "value": x["value"]}])
        );
        assert_eq!(x["moves"].as_array().unwrap().len(), 5);
        // The other moves, worse: c2 (blocking O's row) draws, the rest lose.
        assert_eq!(x["moves"][0], json!({"cell": "c1", "value": x["value"]}));
        assert_eq!(x["moves"][1]["cell"], "c2");
        assert_eq!(x["moves"][1]["value"]["kind"], "draw");
        assert_eq!(x["moves"][4]["value"]["kind"], "loss");
    }

    #[test]
    fn the_weights_bot_shows_how_weights_add_up() {
        let e = explained(&json!({
            "rules": "infx5", "moves": ["0,0", "5,5", "1,0", "5,7"], "opponent": "weights"
        }));
        let x = &e["explanation"];
        assert_eq!(x["kind"], "weights");
        let top = &x["cells"][0];
        assert_eq!(top["cell"], e["move"]["cell"]);
        let sides = top["sides"].as_array().unwrap();
        assert_eq!(sides.len(), 2);
        let total: f64 = sides.iter().map(|s| s["weight"].as_f64().unwrap()).sum();
        assert!((total - top["weight"].as_f64().unwrap()).abs() < 1e-9);
        let line = &sides[0]["lines"][0];
        assert_eq!(line["direction"], json!([1, 0]));
        assert!(line["attacks"][0]["power"].as_u64().is_some());
    }

    #[test]
    fn the_engine_explains_the_move_it_plays() {
        // Levels 4 and 5 are capped in nodes and depth, so with a clock that never moves the
        // explained search is the move's, node for node.
        for (rules, moves) in [
            ("15x15x5", json!(["h8", "i9", "g9", "i7"])),
            (
                "15x15x5",
                json!(["h8", "i9", "h10", "h9", "j9", "i8", "i10", "g10", "j7"]),
            ),
            ("9x9x5", json!(["e5", "d4"])),
            ("4x4x3", json!(["a1"])),
        ] {
            for opponent in [json!({"level": 4}), json!({"level": 5})] {
                let body = json!({"rules": rules, "moves": moves, "opponent": opponent, "seed": 2});
                let moved = ask("move", &body);
                assert_eq!(moved.status, 200, "{body}: {}", moved.body);
                let e = explained(&body);
                for field in ["move", "value", "pv", "depth", "nodes"] {
                    assert_eq!(e[field], moved.body[field], "{field} of {body}");
                }
                let x = &e["explanation"];
                assert_eq!(x["kind"], "engine", "{body}");
                let iterations = x["iterations"].as_array().unwrap();
                let last = iterations.last().unwrap();
                assert_eq!(last["pv"], e["pv"]);
                assert_eq!(last["value"], e["value"]);
                assert!(
                    ["depth", "nodes", "proven", "forced", "threat"]
                        .contains(&x["ended_by"].as_str().unwrap()),
                    "{x}"
                );
                if x["threat"].is_null() {
                    let root = &x["root"]["moves"];
                    assert_eq!(root[0]["cell"], e["move"]["cell"], "{x}");
                    assert_eq!(root[0]["bound"], "exact");
                    assert!(root[0]["value"]["expect"].is_number());
                    assert_eq!(x["path"][0]["move"], Json::Null);
                    assert_eq!(x["path"][0]["moves"], *root);
                    assert_eq!(x["path"][1]["move"], e["move"]["cell"]);
                }
                assert_eq!(x["bounds"]["siblings"], TRACE_SIBLINGS);
            }
        }
    }

    #[test]
    fn a_threat_sequence_is_shown_as_the_engine_found_it() {
        let e = explained(&json!({
            "rules": "15x15x5", "moves": ["h8", "a1", "i8", "a2", "j8", "a3"],
            "opponent": {"level": 5}
        }));
        let x = &e["explanation"];
        assert_eq!(x["ended_by"], "threat");
        assert_eq!(x["threat"]["kind"], "vcf");
        assert_eq!(x["threat"]["line"], e["pv"]);
        assert_eq!(e["value"]["kind"], "win");
    }

    #[test]
    fn a_timed_engine_move_says_time_ended_it() {
        // Level 6 plays by time: a clock that moves a millisecond a reading runs out.
        struct Ticking(std::sync::atomic::AtomicU64);
        impl mnk_engine::Clock for Ticking {
            fn now_ms(&self) -> u64 {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            }
        }
        let context = Context {
            clock: Arc::new(Ticking(0.into())),
            stop: None,
        };
        let body = json!({"rules": "15x15x5", "moves": ["h8", "i9", "g9", "i7"],
                          "opponent": {"level": 6}, "time_ms": 300});
        let reply = respond(
            &Settings::default(),
            &context,
            7,
            "explain",
            Some(&body.to_string()),
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        let x = &reply.body["explanation"];
        assert_eq!(x["kind"], "engine");
        assert!(
            ["time", "time_plan"].contains(&x["ended_by"].as_str().unwrap()),
            "{x}"
        );
        // The time left when the search started (this clock moved on a few readings).
        let time = x["limits"]["time_ms"].as_u64().unwrap();
        assert!((290..=300).contains(&time), "{time}");
        assert_eq!(x["limits"]["nodes"], Json::Null);
    }

    #[test]
    fn bad_requests_are_refused_as_move_refuses_them() {
        for body in [
            json!({"rules": "3x3", "moves": [], "opponent": "rules"}),
            json!({"rules": "3x3x3", "moves": ["zz"], "opponent": "rules"}),
            json!({"rules": "3x3x3", "moves": ["a1", "a1"], "opponent": "rules"}),
            json!({"rules": "3x3x3", "moves": ["a1", "a2", "b1", "b2", "c1"], "opponent": "rules"}),
            json!({"rules": "3x3x3", "moves": []}),
            json!({"rules": "3x3x3", "opponent": "nobody"}),
            json!({"rules": "3x3x3", "opponent": {"bot": "weights", "depth": 3}}),
            json!({"rules": "15x15x5", "opponent": "rules"}),
            json!({"rules": "3x3x3", "opponent": "rules", "mvoes": []}),
            json!([]),
        ] {
            let (explain, moved) = (ask("explain", &body), ask("move", &body));
            assert_eq!(explain.status, moved.status, "{body}");
            assert_eq!(explain.body, moved.body, "{body}");
            assert!(explain.status >= 400);
        }
    }

    #[test]
    fn a_deep_trace_stays_bounded() {
        let e = explained(&json!({"rules": "4x4x3", "opponent": {"bot": "alphabeta", "depth": 6}}));
        let x = &e["explanation"];
        assert_eq!(x["truncated"], true);
        assert_eq!(x["windows_truncated"], true);
        assert!(x["recorded"].as_u64().unwrap() < TRACE_NODES + 17);
        let size = e.to_string().len();
        // Some 5 MB: 20,000 nodes, their leaves' sums, 20,000 windows listed.
        assert!(size < 6 << 20, "{size} bytes");
    }
}
