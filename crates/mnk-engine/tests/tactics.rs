//! The tactics suite: positions written as diagrams in `tests/tactics/*.txt`, each with the
//! move(s) the engine must choose.
//!
//! A position reads:
//!
//! ```text
//! ## name
//! rules: 15x15x5            (any rules mnk-core reads: 15x15x5,exact, infx5, …)
//! answer: h8 j8             (the engine must play one of these; `any`: any legal move)
//! avoid: g8                 (optional: moves it must not play)
//! forbidden: h8             (optional, renju: points forbidden to black, checked with
//!                            mnk-core when the suite loads)
//! value: win 5 | win | not-loss | any
//! proof: vcf                (optional: the line must be a forced win by fours, checked by
//!                            replaying it on mnk-core's Position)
//! <diagram: 15 rows for a bounded board, or "@ x,y" then rows for the unbounded one>
//! ```
//!
//! X moves first; the stone counts decide who is to move. `win n` asks for a proven win in
//! exactly n plies, `win` for any proven win, `not-loss` for anything but a proven loss.
//!
//! Every position is searched with the same node budget ([`NODES`], about a second at the
//! engine's speed in a release build) so the results do not depend on the machine's load. The
//! suite runs again with two threads (Lazy SMP), the budget counting the main thread's nodes:
//! the helpers must not make the engine solve fewer positions.

use std::time::Instant;

use mnk_core::{Cell, Position, Rules};
use mnk_engine::search::Engine;
use mnk_engine::{Limits, Value};

/// The node budget of each position.
const NODES: u64 = 600_000;

struct Puzzle {
    file: String,
    name: String,
    pos: Position,
    /// Empty: any legal move.
    answer: Vec<Cell>,
    avoid: Vec<Cell>,
    value: String,
    vcf_proof: bool,
}

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn load() -> Vec<Puzzle> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tactics");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/tactics")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        for block in text.split("\n## ").skip(1) {
            let mut lines = block.lines();
            let name = lines.next().unwrap().trim().to_string();
            let (mut rules, mut answer, mut avoid, mut value, mut proof) =
                (None, None, Vec::new(), "any".to_string(), false);
            let mut forbidden = Vec::new();
            let mut diagram = String::new();
            for line in lines {
                if let Some((key, rest)) = line.split_once(':').filter(|(k, _)| {
                    [
                        "rules",
                        "answer",
                        "avoid",
                        "forbidden",
                        "value",
                        "proof",
                        "note",
                    ]
                    .contains(&k.trim())
                }) {
                    match key.trim() {
                        "rules" => rules = Some(rest.trim().parse::<Rules>().unwrap()),
                        "answer" if rest.trim() == "any" => answer = Some(Vec::new()),
                        "answer" => answer = Some(cells(rest)),
                        "avoid" => avoid = cells(rest),
                        "forbidden" => forbidden = cells(rest),
                        "value" => value = rest.trim().to_string(),
                        "proof" => proof = rest.trim() == "vcf",
                        _ => {}
                    }
                } else {
                    diagram.push_str(line);
                    diagram.push('\n');
                }
            }
            let rules = rules.unwrap_or_else(|| panic!("{name}: no rules"));
            let pos = Position::from_diagram(rules, &diagram)
                .unwrap_or_else(|e| panic!("{file}: {name}: {e}"));
            let answer = answer.unwrap_or_else(|| panic!("{name}: no answer"));
            for &c in &forbidden {
                assert!(
                    pos.forbidden_kind(c).is_some(),
                    "{file}: {name}: {c} is not forbidden to black"
                );
            }
            out.push(Puzzle {
                file: file.clone(),
                name,
                pos,
                answer,
                avoid,
                value,
                vcf_proof: proof,
            });
        }
    }
    out
}

/// Replays a claimed VCF on mnk-core's Position: every attacking move but the last must leave
/// a five to make, every defending move must be the only block (or the attacker has two), and
/// the line must end in a win for the attacker.
fn check_vcf(pos: &Position, line: &[Cell]) -> Result<(), String> {
    let mut p = pos.clone();
    let attacker = p.to_move();
    for (i, &m) in line.iter().enumerate() {
        p.try_play(m).map_err(|e| format!("move {i} {m}: {e}"))?;
        if p.is_over() {
            return if p.outcome().winner() == Some(attacker) && i == line.len() - 1 {
                Ok(())
            } else {
                Err(format!(
                    "the game ended at move {i} {m} without the attacker's win"
                ))
            };
        }
        if i % 2 == 0 {
            if p.winning_cells(attacker).is_empty() {
                return Err(format!("attacking move {m} is not a four"));
            }
            if !p.winning_cells(attacker.opponent()).is_empty() {
                return Err(format!("after {m} the defender can win"));
            }
        } else {
            let threats = pos_before(&p).winning_cells(attacker);
            if threats.len() == 1 && threats[0] != m {
                return Err(format!("defending move {m} is not the forced block"));
            }
        }
    }
    Err("the line does not end in a win".into())
}

fn pos_before(p: &Position) -> Position {
    let mut q = p.clone();
    q.undo();
    q
}

fn solve(pz: &Puzzle, threads: usize) -> Result<String, String> {
    let mut engine = Engine::with_threads(16, threads);
    let limits = Limits::nodes(NODES);
    let t = Instant::now();
    let a = engine
        .analyse(&pz.pos, &limits, &mut |_| {})
        .map_err(|e| e.to_string())?;
    let ms = t.elapsed().as_millis();
    let summary = format!(
        "{} ({}, depth {}, {} nodes, {} ms) pv {}",
        a.best,
        a.value,
        a.depth,
        a.nodes,
        ms,
        a.pv.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    if !pz.answer.is_empty() && !pz.answer.contains(&a.best) {
        return Err(format!(
            "played {summary}, wanted one of {:?}",
            names(&pz.answer)
        ));
    }
    if pz.avoid.contains(&a.best) {
        return Err(format!("played {summary}, which it must not"));
    }
    if let Err(e) = pz.pos.check_move(a.best) {
        return Err(format!("played {summary}, which is not legal: {e}"));
    }
    let mut after = pz.pos.clone();
    for &c in &a.pv {
        after
            .try_play(c)
            .map_err(|e| format!("{summary}: the line is not legal at {c}: {e}"))?;
    }
    let value_ok = match pz.value.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["any"] => true,
        ["win"] => matches!(a.value, Value::Win(_)),
        ["win", n] => a.value == Value::Win(n.parse().unwrap()),
        ["not-loss"] => !matches!(a.value, Value::Loss(_)),
        other => return Err(format!("unknown value spec {other:?}")),
    };
    if !value_ok {
        return Err(format!("value: {summary}, wanted {}", pz.value));
    }
    if pz.vcf_proof {
        check_vcf(&pz.pos, &a.pv).map_err(|e| format!("{summary}: not a VCF: {e}"))?;
    }
    Ok(summary)
}

fn names(cells: &[Cell]) -> Vec<String> {
    cells.iter().map(Cell::to_string).collect()
}

#[test]
fn tactics_suite() {
    run_suite(1);
}

#[test]
fn tactics_suite_with_two_threads() {
    run_suite(2);
}

/// Solves every position with `threads` threads; all must be solved.
///
/// `TACTICS_ONLY=text` keeps only the positions whose name contains `text` (for looking at one
/// position while changing the search; the suite as a whole must still pass).
fn run_suite(threads: usize) {
    let mut puzzles = load();
    assert!(puzzles.len() >= 40, "only {} positions", puzzles.len());
    if let Ok(only) = std::env::var("TACTICS_ONLY") {
        puzzles.retain(|pz| pz.name.contains(&only));
        assert!(!puzzles.is_empty(), "no position's name holds {only:?}");
    }
    let mut failures = Vec::new();
    let start = Instant::now();
    for pz in &puzzles {
        match solve(pz, threads) {
            Ok(s) => println!("ok   {} / {}: {s}", pz.file, pz.name),
            Err(e) => {
                println!("FAIL {} / {}: {e}", pz.file, pz.name);
                failures.push(format!("{} / {}: {e}", pz.file, pz.name));
            }
        }
    }
    println!(
        "{} of {} solved in {} ms with {threads} thread(s)",
        puzzles.len() - failures.len(),
        puzzles.len(),
        start.elapsed().as_millis()
    );
    assert!(failures.is_empty(), "failed:\n{}", failures.join("\n"));
}

#[test]
fn the_vcf_checker_refuses_a_quiet_move() {
    let rules: Rules = "15x15x5".parse().unwrap();
    let pos = Position::from_moves(rules, &cells("h8 a1 i8 a2 j8 a3")).unwrap();
    assert!(check_vcf(&pos, &cells("k8 l8 g8 f8")).is_err());
    assert!(check_vcf(&pos, &cells("c12")).is_err());
    let pos = Position::from_moves(rules, &cells("h8 a1 i8 a2 j8 a3 k8 a5")).unwrap();
    assert!(check_vcf(&pos, &cells("l8")).is_ok());
}

/// A small self-play sanity check (release only, a few seconds): the engine at 30,000 nodes a
/// move must win every game against the attack-weight bot and line-count alpha-beta (depth
/// 2), from two openings with each colour. The full strength measurement is `mnk match`.
#[test]
#[ignore]
fn self_play_sanity() {
    use mnk_engine::roster::{create, BotSpec};
    use mnk_engine::search::EngineBot;
    let rules: Rules = "15x15x5".parse().unwrap();
    let openings = ["h8 i9", "h8 j10 g7"];
    for opponent in ["weights", "alphabeta"] {
        let mut wins = 0;
        let mut games = 0;
        for (i, opening) in openings.iter().enumerate() {
            for engine_first in [true, false] {
                let mut pos = Position::from_moves(rules, &cells(opening)).unwrap();
                let spec: BotSpec = opponent.parse().unwrap();
                let mut other = create(&spec, &rules, i as u64).unwrap();
                let mut engine = EngineBot::capped(None, Some(30_000));
                let engine_side = if engine_first == (pos.ply() % 2 == 0) {
                    pos.to_move()
                } else {
                    pos.to_move().opponent()
                };
                while !pos.is_over() {
                    let limits = Limits::nodes(30_000);
                    let choice = if pos.to_move() == engine_side {
                        mnk_engine::Bot::choose(&mut engine, &pos, &limits)
                    } else {
                        other.choose(&pos, &limits)
                    }
                    .unwrap();
                    pos.play(choice.cell);
                }
                games += 1;
                if pos.outcome().winner() == Some(engine_side) {
                    wins += 1;
                }
                println!("engine vs {opponent}, opening {opening}, engine {engine_side:?}: {:?} after {} plies", pos.outcome().winner(), pos.ply());
            }
        }
        assert_eq!(
            wins, games,
            "engine won {wins} of {games} against {opponent}"
        );
    }
}
