//! Every explained move is the move the bot plays: for the same seed and limits, `explain`
//! answers the very choice `choose` makes (move, value, depth, node count), and what it records
//! adds up to that choice.

use mnk_core::Cell;
use mnk_core::{Position, Rules, DIRECTIONS};
use mnk_engine::bench::{bench_position, POSITIONS};
use mnk_engine::explain::alphabeta::{AlphaBetaTrace, Exit, Score, TraceNode};
use mnk_engine::explain::engine::{
    End, EngineExplanation, ThreatKind, TRACE_ROOT_MOVES, TRACE_SIBLINGS,
};
use mnk_engine::explain::perfect::{PerfectLine, Reason};
use mnk_engine::explain::weights::{Bonus, CellWeights, WeightsExplanation};
use mnk_engine::explain::{Explanation, TRACE_NODES, TRACE_WINDOWS};
use mnk_engine::roster::{create, BotSpec};
use mnk_engine::weights::{attack_weights, cell_breakdown};
use mnk_engine::Explained;
use mnk_engine::{Limits, Rng, Value};

/// Random unfinished positions of `rules`, from the empty board to `max_plies` stones.
fn positions(rules: &str, count: usize, max_plies: usize, seed: u64) -> Vec<Position> {
    let rules: Rules = rules.parse().unwrap();
    let mut rng = Rng::seeded(seed);
    let mut all = Vec::new();
    while all.len() < count {
        let mut pos = Position::new(rules);
        let plies = rng.below(max_plies + 1);
        while pos.ply() < plies && !pos.is_over() {
            let moves = pos.legal_moves();
            pos.play(rng.pick(&moves).unwrap());
        }
        if !pos.is_over() {
            all.push(pos);
        }
    }
    all
}

/// The bot `spec` explains `pos` with `seed`, and a fresh bot of the same seed chooses: the
/// explained choice must be the choice.
fn explained(spec: &str, pos: &Position, seed: u64, limits: &Limits) -> Explained {
    let spec: BotSpec = spec.parse().unwrap();
    let choice = create(&spec, pos.rules(), seed)
        .unwrap()
        .choose(pos, limits)
        .unwrap();
    let explained = create(&spec, pos.rules(), seed)
        .unwrap()
        .explain(pos, limits)
        .unwrap_or_else(|e| panic!("{spec} does not explain {pos:?}: {e}"));
    assert_eq!(explained.choice, choice, "{spec} seed {seed}\n{pos:?}");
    explained
}

#[test]
fn the_rule_player_explains_the_move_it_plays() {
    for (i, pos) in positions("3x3x3", 200, 7, 1).iter().enumerate() {
        let e = explained("rules", pos, i as u64, &Limits::none());
        match e.explanation {
            Explanation::Rules(decision) => assert!(decision.candidates.contains(&e.choice.cell)),
            other => panic!("the rule player explained {other:?}"),
        }
    }
}

/// The trace of an alpha-beta explanation.
fn trace(e: Explained) -> AlphaBetaTrace {
    match e.explanation {
        Explanation::AlphaBeta(trace) => trace,
        other => panic!("not an alpha-beta trace: {other:?}"),
    }
}

/// Orders the bot's scores as the search does: slower losses above faster ones.
fn rank(score: Score) -> i128 {
    const BIG: i128 = 1 << 80;
    match score {
        Score::MinusInfinity => -2 * BIG,
        Score::Loss(n) => -BIG + i128::from(n),
        Score::Eval(e) => i128::from(e),
        Score::Win(n) => BIG - i128::from(n),
        Score::Infinity => 2 * BIG,
    }
}

/// The root's value as the bot's choice states it.
fn as_value(score: Score) -> Value {
    match score {
        Score::Win(n) => Value::Win(n),
        Score::Loss(n) => Value::Loss(n),
        Score::Eval(e) => Value::Eval((e / 10) as i32),
        other => panic!("no value: {other:?}"),
    }
}

/// Checks a recorded node below `pos` and counts its nodes, cut-offs and saved moves: the
/// value is the max (the bot's nodes) or min of its children's, a cut-off's last child crossed
/// the window, the searched and saved moves are every move, and a leaf's windows add up to its
/// value and are every window of the board.
fn check_node(node: &TraceNode, pos: &Position, trace: &AlphaBetaTrace, counts: &mut [u64; 3]) {
    counts[0] += 1;
    let maximising = node.to_move == trace.bot;
    assert_eq!(pos.to_move(), node.to_move);
    match node.exit {
        Exit::Inner => {
            let values = node.children.iter().map(|c| rank(c.value));
            let best = if maximising {
                values.max()
            } else {
                values.min()
            };
            assert_eq!(best, Some(rank(node.value)), "{node:?}");
            let searched = node.children.len() + node.saved.as_ref().map_or(0, Vec::len);
            let moves = if node.cell.is_none() {
                trace.root_moves.len()
            } else if pos.rules().cell_count().is_some_and(|n| n <= 81) {
                pos.legal_moves().len()
            } else {
                pos.cells_near_stones(2).len()
            };
            assert_eq!(searched, moves);
        }
        Exit::Leaf => check_leaf(node, pos),
        Exit::Won => assert!(pos.is_over()),
        Exit::Drawn => assert_eq!(node.value, Score::Eval(0)),
        Exit::Stopped => panic!("a search without limits stopped"),
    }
    if let Some(saved) = &node.saved {
        counts[1] += 1;
        counts[2] += saved.len() as u64;
        let last = rank(node.children.last().unwrap().value);
        if maximising {
            assert!(last >= rank(node.beta), "{node:?}");
        } else {
            assert!(last <= rank(node.alpha), "{node:?}");
        }
    }
    for child in &node.children {
        // A child is searched within its parent's window.
        assert!(rank(child.alpha) >= rank(node.alpha) && rank(child.beta) <= rank(node.beta));
        let mut next = pos.clone();
        next.play(child.cell.unwrap());
        check_node(child, &next, trace, counts);
    }
}

fn check_leaf(node: &TraceNode, pos: &Position) {
    let leaf = node.leaf.as_ref().unwrap();
    let sum: i64 = leaf
        .terms
        .iter()
        .map(|t| i64::from(t.windows) * t.each)
        .sum();
    assert_eq!(Score::Eval(sum), node.value);
    let k = pos.rules().k() as i32;
    let (w, h) = pos.rules().size().unwrap();
    let fits = |x: i32, y: i32| x >= 0 && y >= 0 && x < w as i32 && y < h as i32;
    let all = (0..w as i32)
        .flat_map(|x| (0..h as i32).map(move |y| (x, y)))
        .flat_map(|(x, y)| DIRECTIONS.map(|d| (x, y, d)))
        .filter(|&(x, y, (dx, dy))| fits(x + dx * (k - 1), y + dy * (k - 1)))
        .count() as u32;
    let counted: u32 = leaf.terms.iter().map(|t| t.windows).sum::<u32>() + leaf.mixed;
    assert_eq!(counted, all);
    if leaf.all_listed {
        let held: u32 = leaf
            .terms
            .iter()
            .filter(|t| t.stones > 0)
            .map(|t| t.windows)
            .sum();
        assert_eq!(leaf.windows.len() as u32, held);
    }
}

/// The line counter `spec` explains `pos`: its trace is the search it plays by.
fn check_alphabeta(spec: &str, pos: &Position, seed: u64) -> AlphaBetaTrace {
    let e = explained(spec, pos, seed, &Limits::none());
    let choice = e.choice.clone();
    let trace = trace(e);
    let recorded = &trace.recorded;
    assert_eq!(trace.nodes, choice.nodes);
    // The root is recorded beside the nodes the search counts.
    assert_eq!(recorded.recorded + recorded.unrecorded, choice.nodes + 1);
    let root = recorded.root.as_ref().unwrap();
    assert_eq!(Some(as_value(root.value)), choice.value);
    let best = root
        .children
        .iter()
        .find(|c| c.value == root.value)
        .unwrap();
    assert_eq!(best.cell, Some(choice.cell));
    assert_eq!(
        root.children
            .iter()
            .map(|c| c.cell.unwrap())
            .collect::<Vec<_>>(),
        trace.root_moves
    );
    if recorded.unrecorded == 0 {
        let mut counts = [0; 3];
        check_node(root, pos, &trace, &mut counts);
        assert_eq!(
            counts,
            [recorded.recorded, recorded.cutoffs, recorded.saved]
        );
    }
    trace
}

#[test]
fn the_line_counter_explains_the_search_it_plays_by() {
    for (i, pos) in positions("3x3x3", 60, 6, 2).iter().enumerate() {
        for spec in ["alphabeta", "alphabeta:4", "alphabeta:8"] {
            check_alphabeta(spec, pos, i as u64);
        }
    }
    for (i, pos) in positions("4x4x3", 30, 8, 3).iter().enumerate() {
        for spec in ["alphabeta", "alphabeta:3", "level3"] {
            check_alphabeta(spec, pos, i as u64);
        }
    }
    for (i, pos) in positions("7x7x4,exact", 6, 10, 4).iter().enumerate() {
        check_alphabeta("alphabeta", pos, i as u64);
    }
}

#[test]
fn a_deep_trace_stops_recording_at_its_bound_and_keeps_counting() {
    let pos = Position::new("4x4x3".parse().unwrap());
    let trace = check_alphabeta("alphabeta:6", &pos, 1);
    let recorded = trace.recorded;
    assert!(trace.nodes > TRACE_NODES, "{} nodes", trace.nodes);
    // The bound, then each of the root's moves it had not reached.
    let root_moves = trace.root_moves.len() as u64;
    assert!(recorded.recorded > TRACE_NODES && recorded.recorded < TRACE_NODES + root_moves);
    assert!(recorded.cutoffs > 0 && recorded.saved >= recorded.cutoffs);
    assert!(recorded.windows_cut);
    fn listed(node: &TraceNode) -> usize {
        node.leaf.as_ref().map_or(0, |l| l.windows.len())
            + node.children.iter().map(listed).sum::<usize>()
    }
    let root = recorded.root.unwrap();
    assert_eq!(listed(&root) as u64, TRACE_WINDOWS);
    let unrecorded = |n: &TraceNode| n.unrecorded;
    fn below(node: &TraceNode, f: &dyn Fn(&TraceNode) -> u64) -> u64 {
        f(node) + node.children.iter().map(|c| below(c, f)).sum::<u64>()
    }
    assert_eq!(below(&root, &unrecorded), recorded.unrecorded);
}

#[test]
fn level_3_explains_on_a_large_board() {
    let rules: Rules = "15x15x5".parse().unwrap();
    let moves: Vec<_> = "h8 i9 h10 h9 j9 i8"
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    let pos = Position::from_moves(rules, &moves).unwrap();
    let trace = check_alphabeta("level3", &pos, 5);
    assert_eq!(trace.preselected, Some(12));
    assert_eq!(trace.root_moves.len(), 12);
}

#[test]
fn a_leaf_is_its_windows_as_the_bot_counts_them() {
    // O to move, one ply: each move is a leaf evaluated for X, who moves there.
    let pos = Position::from_diagram("3x3x3".parse().unwrap(), "X . .\n. . .\n. . .").unwrap();
    let trace = check_alphabeta("alphabeta:1", &pos, 1);
    let root = trace.recorded.root.unwrap();
    let centre = root
        .children
        .iter()
        .find(|c| c.cell == Some("b2".parse().unwrap()))
        .unwrap();
    let leaf = centre.leaf.as_ref().unwrap();
    let term = |side, stones| {
        leaf.terms
            .iter()
            .find(|t| t.side == side && t.stones == stones)
            .map(|t| (t.windows, t.each))
    };
    use mnk_core::Player::{O, X};
    // X's corner in the top row and the left column: 10² each, against the bot (O).
    assert_eq!(term(X, 1), Some((2, -100)));
    // O's centre in the middle row and column and one diagonal.
    assert_eq!(term(O, 1), Some((3, 100)));
    // The bottom row and the right column are empty: 1 each for X, who is to move there.
    assert_eq!(term(X, 0), Some((2, -1)));
    assert_eq!(leaf.mixed, 1);
    assert_eq!(centre.value, Score::Eval(98));
    assert_eq!(centre.exit, Exit::Leaf);
    assert_eq!(leaf.windows.len(), 5);
}

#[test]
fn a_win_on_the_spot_is_a_win_in_one() {
    let pos = Position::from_diagram("3x3x3".parse().unwrap(), "X X .\nO O .\n. . .").unwrap();
    let trace = check_alphabeta("alphabeta", &pos, 3);
    let root = trace.recorded.root.unwrap();
    assert_eq!(root.value, Score::Win(1));
    let win = root.children.iter().find(|c| c.exit == Exit::Won).unwrap();
    assert_eq!(win.cell, Some("c3".parse().unwrap()));
    assert_eq!(win.value, Score::Win(1));
    // Searched after the first root move, within the window that move left.
    assert_eq!(root.children[0].alpha, Score::MinusInfinity);
}

/// `a` and `b` equal but for the rounding of a different order of additions.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// A cell's breakdown adds up to its weight: attacks to lines, lines and bonus to sides, sides
/// to the cell.
fn check_breakdown(cell: &CellWeights) {
    let mut total = 0.0;
    for side in &cell.sides {
        assert_eq!(side.lines.len(), 4);
        let mut breakpoints = 0;
        let mut sum = side.bonus.map_or(0.0, |b| b.1);
        for line in &side.lines {
            breakpoints += u32::from(line.breakpoint);
            assert_eq!(
                line.double_breakpoint.is_some(),
                line.breakpoint && breakpoints == 2
            );
            let attacks: f64 = line.attacks.iter().map(|a| a.weight).sum();
            assert!(close(
                line.weight,
                line.double_breakpoint.unwrap_or(attacks)
            ));
            sum += line.weight;
        }
        assert!(close(side.weight, sum), "{side:?}");
        total += side.weight;
    }
    assert!(close(cell.weight, total));
}

fn weights_explanation(e: Explained) -> WeightsExplanation {
    match e.explanation {
        Explanation::Weights(w) => w,
        other => panic!("not a weights explanation: {other:?}"),
    }
}

#[test]
fn the_weights_bot_explains_the_cell_it_plays() {
    let mut mistakes = 0;
    for (rules, count, plies) in [("3x3x3", 40, 6), ("4x4x3", 30, 10), ("15x15x5", 20, 30)] {
        for (i, pos) in positions(rules, count, plies, 6).iter().enumerate() {
            let map = attack_weights(pos);
            for spec in ["weights", "level1", "level2"] {
                let e = explained(spec, pos, i as u64, &Limits::none());
                let cell = e.choice.cell;
                let w = weights_explanation(e);
                assert_eq!(w.weighed, map.len());
                assert!(w.choices.contains(&cell));
                mistakes += usize::from(w.mistake);
                assert!(w.cells.iter().any(|c| c.cell == cell));
                for (shown, (heaviest, _)) in w.cells.iter().zip(&map) {
                    if !w.mistake || shown.cell != cell {
                        assert_eq!(shown.cell, *heaviest);
                    }
                }
                for shown in &w.cells {
                    let weight = map.iter().find(|(c, _)| *c == shown.cell).unwrap().1;
                    assert_eq!(shown.weight, weight);
                    check_breakdown(shown);
                }
            }
        }
    }
    assert!(mistakes > 0, "level 1 made no mistake to explain");
}

#[test]
fn a_second_breakpoint_adds_its_bonus_instead_of_its_attacks() {
    // X's two open twos meet at 0,0: an open three each way.
    let moves: Vec<Cell> = [
        "1,0", "10,10", "2,0", "10,12", "0,1", "12,10", "0,2", "12,12",
    ]
    .map(|c| c.parse().unwrap())
    .to_vec();
    let pos = Position::from_moves("infx5".parse().unwrap(), &moves).unwrap();
    let cell = cell_breakdown(&pos, Cell::new(0, 0));
    check_breakdown(&cell);
    let x = &cell.sides[0];
    let breakpoints: Vec<_> = x.lines.iter().filter(|l| l.breakpoint).collect();
    assert_eq!(breakpoints.len(), 2);
    assert_eq!(breakpoints[0].direction, (1, 0));
    assert_eq!(breakpoints[0].double_breakpoint, None);
    let three = breakpoints[0].attacks[0];
    assert_eq!((three.power, three.potential, three.divider), (3, 2, 1));
    assert_eq!(breakpoints[1].direction, (0, 1));
    assert_eq!(breakpoints[1].double_breakpoint, Some(100.0));
    assert_eq!(breakpoints[1].weight, 100.0);
    assert_eq!(x.bonus, None);
    assert!(cell.sides[1].bonus.is_none());
}

#[test]
fn completing_and_blocking_lines_show_their_bonuses() {
    // X to move: a1 completes X's column, c1 is where O would complete theirs.
    let pos = Position::from_diagram("3x3x3".parse().unwrap(), "X . O\nX . O\n. . .").unwrap();
    let win = cell_breakdown(&pos, "a1".parse().unwrap());
    assert_eq!(win.sides[0].bonus, Some((Bonus::OwnLine, 10_000.0)));
    let block = cell_breakdown(&pos, "c1".parse().unwrap());
    assert_eq!(block.sides[1].bonus, Some((Bonus::Block, 1_000.0)));
    for cell in [win, block] {
        check_breakdown(&cell);
    }
}

fn perfect_line(e: Explained) -> PerfectLine {
    match e.explanation {
        Explanation::Perfect(line) => line,
        other => panic!("not a perfect player's explanation: {other:?}"),
    }
}

#[test]
fn the_perfect_player_explains_its_values_and_the_line_of_best_play() {
    let mut reasons = Vec::new();
    for (rules, count, plies) in [("3x3x3", 60, 7), ("4x4x3", 30, 9), ("4x4x4", 10, 8)] {
        for (i, pos) in positions(rules, count, plies, 7).iter().enumerate() {
            for spec in ["perfect", "level6"] {
                let e = explained(spec, pos, i as u64, &Limits::none());
                let choice = e.choice.clone();
                let line = perfect_line(e);
                assert_eq!(Some(line.value), choice.value);
                assert!(line.best.contains(&choice.cell));
                let moves = line.moves.clone().unwrap();
                assert_eq!(moves.len(), pos.legal_moves().len());
                assert_eq!(moves[0].1, line.value);
                let mut best: Vec<Cell> = moves
                    .iter()
                    .filter(|(_, v)| *v == line.value)
                    .map(|(c, _)| *c)
                    .collect();
                best.sort_by_key(|c| (c.y, c.x));
                assert_eq!(best, line.best);
                assert!(moves.windows(2).all(|m| m[0].1 >= m[1].1));
                check_path(pos, &line, choice.cell);
                reasons.push(line.reason());
            }
        }
    }
    for reason in [Reason::FastestWin, Reason::Draw, Reason::SlowestLoss] {
        assert!(reasons.contains(&reason), "no {reason:?}");
    }
}

/// The path starts with the chosen move, each value is the one before it seen from the other
/// side, and played out it ends as its first value says.
fn check_path(pos: &Position, line: &PerfectLine, chosen: Cell) {
    assert!(line.path_complete);
    assert_eq!(line.path[0].cell, chosen);
    assert_eq!(line.path[0].value, line.value);
    assert!(line
        .path
        .windows(2)
        .all(|s| s[1].value.parent() == s[0].value));
    let mut end = pos.clone();
    for step in &line.path {
        assert_eq!(end.to_move(), step.player);
        end.play(step.cell);
    }
    let plies = line.path.len() as u32;
    match line.value {
        Value::Win(n) => assert_eq!((n, end.outcome().winner()), (plies, Some(pos.to_move()))),
        Value::Loss(n) => assert_eq!(
            (n, end.outcome().winner()),
            (plies, Some(pos.to_move().opponent()))
        ),
        _ => assert!(end.outcome().winner().is_none() && (end.is_over() || end.no_line_left())),
    }
}

fn engine_explanation(e: Explained) -> EngineExplanation {
    match e.explanation {
        Explanation::Engine(x) => x,
        other => panic!("the engine explained {other:?}"),
    }
}

/// The engine's explanation of `pos` by `spec` within `limits`, checked against the search it
/// plays by: the same choice (move, value, line, depth, nodes: [`explained`]), its last
/// iteration the choice, the root moves and the principal path what that search compared.
fn check_engine(spec: &str, pos: &Position, limits: &Limits) -> (Explained, EngineExplanation) {
    let e = explained(spec, pos, 1, limits);
    let x = engine_explanation(e.clone());
    let c = &e.choice;
    assert_eq!(x.to_move, pos.to_move());
    let last = x
        .iterations
        .last()
        .expect("every search reports its answer");
    assert_eq!(
        (last.depth, Some(last.value), &last.pv),
        (c.depth, c.value, &c.pv),
        "{spec}\n{pos:?}"
    );
    assert!(x.iterations.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    assert!(x.trace.root.len() <= TRACE_ROOT_MOVES);
    let t = &x.trace;
    if let Some(threat) = &t.threat {
        assert_eq!(t.end, End::Threat);
        assert_eq!(threat.line, c.pv, "the proof is the line played");
        return (e, x);
    }
    // The root moves compared, best first; the move played is the best, searched exactly (or
    // a move the limits cut short found better than the last iteration's).
    assert!(!t.root.is_empty(), "{spec}: {t:?}");
    assert!(t.root.windows(2).all(|w| w[0].score >= w[1].score));
    if t.root_depth == c.depth && c.depth > 0 {
        assert_eq!(t.root[0].m, c.cell, "{spec}\n{pos:?}\n{t:?}");
        assert_eq!(Some(mnk_engine::search::value_of(t.root[0].score)), c.value);
    }
    // The principal path follows the line played, each node's moves best first and bounded.
    assert_eq!(t.path[0].cell, None);
    for (node, played) in t.path[1..].iter().zip(&c.pv) {
        assert_eq!(node.cell, Some(*played));
    }
    assert!(t.path.len() <= c.pv.len() + 1);
    let mut after = pos.clone();
    for (i, node) in t.path.iter().enumerate() {
        assert_eq!(node.to_move, after.to_move());
        assert!(node.moves.len() <= TRACE_SIBLINGS.max(TRACE_ROOT_MOVES));
        assert!(node.moves.windows(2).all(|w| w[0].score >= w[1].score));
        for m in &node.moves {
            after.check_move(m.m).unwrap();
        }
        if let Some(&next) = c.pv.get(i) {
            after.play(next);
        }
    }
    (e, x)
}

#[test]
fn the_engine_explains_the_search_it_plays_by() {
    // Levels 4 and 5 are capped in depth and nodes; level 6 plays by time, which a node limit
    // stands in for (a timed search is not reproducible).
    let cases = [
        ("level4", Limits::none()),
        ("level5", Limits::none()),
        ("level6", Limits::nodes(30_000)),
        ("engine", Limits::depth(5)),
    ];
    let mut positions15: Vec<Position> = POSITIONS
        .iter()
        .filter(|p| p.rules.starts_with("15x15"))
        .map(bench_position)
        .collect();
    positions15.extend(positions("15x15x5", 3, 12, 5));
    for pos in &positions15 {
        for (spec, limits) in &cases {
            check_engine(spec, pos, limits);
        }
    }
    // Small boards where the engine plays: 4×4×3 (levels 4 and 5; level 6 plays perfectly
    // there), 7×7×4 and 9×9×5.
    for pos in positions("4x4x3", 6, 5, 2) {
        for spec in ["level4", "level5"] {
            check_engine(spec, &pos, &Limits::none());
        }
    }
    for rules in ["7x7x4", "9x9x5"] {
        for pos in positions(rules, 4, 10, 3) {
            for (spec, limits) in &cases {
                check_engine(spec, &pos, limits);
            }
        }
    }
}

#[test]
fn a_threat_search_win_is_shown_with_its_proof() {
    // X to move makes two open threes at g5: a win by threats, found before the tree search.
    let pos = Position::from_diagram(
        "9x9x5".parse().unwrap(),
        "
        O . . . . . . . O
        . . . . . . . . .
        . . . . . . X . .
        . . . . . . X . .
        . . . . X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        O . . . . . . . O
        ",
    )
    .unwrap();
    let (e, x) = check_engine("level6", &pos, &Limits::nodes(100_000));
    let threat = x.trace.threat.expect("a threat search found it");
    assert!(matches!(threat.kind, ThreatKind::Vct | ThreatKind::Vcf));
    assert_eq!(threat.line[0], "g5".parse().unwrap());
    assert!(matches!(e.choice.value, Some(Value::Win(_))));
    // A five to complete is the shortest proof.
    let five = Position::from_moves(
        "15x15x5".parse().unwrap(),
        &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"].map(|c| c.parse::<Cell>().unwrap()),
    )
    .unwrap();
    let (_, x) = check_engine("level4", &five, &Limits::none());
    let threat = x.trace.threat.unwrap();
    assert_eq!(threat.kind, ThreatKind::Five);
    assert_eq!(x.trace.end, End::Threat);
}

#[test]
fn the_opponents_threat_and_the_defences_left_are_shown() {
    // X, given a free move, wins by continuous fours from i5: only i5 and l5 stop it, so the
    // root keeps only those (found by a random game's search).
    let moves: Vec<Cell> = "i8 f11 j5 g9 j8 g5 e7 f5 k5 f6 h9 i10 h5 k11 i9 k8 g7"
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    let pos = Position::from_moves("15x15x5".parse().unwrap(), &moves).unwrap();
    let (e, x) = check_engine("level4", &pos, &Limits::none());
    let (threat, kept) = x.trace.defences.expect("the opponent's threat");
    let cell = |c: &str| c.parse::<Cell>().unwrap();
    assert_eq!(threat[0], cell("i5"));
    assert_eq!(
        threat.len() % 2,
        1,
        "the attacker's moves and the replies, ending with the five"
    );
    assert_eq!(kept, vec![cell("i5"), cell("l5")]);
    assert!(kept.contains(&e.choice.cell));
    let mut root: Vec<Cell> = x.trace.root.iter().map(|s| s.m).collect();
    root.sort_by_key(|c| (c.y, c.x));
    assert_eq!(root, kept, "only the defences were searched");
}

#[test]
fn the_engine_says_which_limit_ended_its_search() {
    let pos = bench_position(&POSITIONS[1]);
    let (_, x) = check_engine("level4", &pos, &Limits::none());
    assert!(
        matches!(x.trace.end, End::Depth | End::Nodes),
        "{:?}",
        x.trace.end
    );
    assert_eq!(x.limits.max_depth, Some(4));
    let (_, x) = check_engine("level6", &pos, &Limits::nodes(5_000));
    assert_eq!(x.trace.end, End::Nodes);
    let (_, x) = check_engine("level6", &pos, &Limits::depth(3));
    assert_eq!(x.trace.end, End::Depth);
    assert_eq!(x.iterations.len(), 3);
}

#[test]
fn a_large_engine_trace_stays_bounded() {
    let pos = bench_position(&POSITIONS[0]);
    let (e, x) = check_engine("level6", &pos, &Limits::nodes(300_000));
    let t = &x.trace;
    assert!(e.choice.nodes > 100_000, "{}", e.choice.nodes);
    assert!(t.path.len() > 2, "{t:?}");
    assert!(t.path[1..].iter().all(|n| n.moves.len() <= TRACE_SIBLINGS));
    assert!(t.root.len() <= TRACE_ROOT_MOVES);
}

#[test]
fn the_roster_knows_who_explains_without_building_them() {
    let pos_of = |rules: &str| Position::new(rules.parse().unwrap());
    let specs = mnk_engine::roster::BOTS
        .iter()
        .map(|b| b.id.to_string())
        .chain((1..=6).map(|n| format!("level{n}")));
    for spec in specs {
        let spec: BotSpec = spec.parse().unwrap();
        for rules in [
            "3x3x3", "4x4x3", "5x5x5", "6x6x4", "15x15x5", "infx5", "7x7x2", "1x12x2",
        ] {
            let pos = pos_of(rules);
            let Ok(mut bot) = create(&spec, pos.rules(), 1) else {
                assert!(mnk_engine::roster::check_explained(&spec, pos.rules()).is_err());
                continue;
            };
            let checked = mnk_engine::roster::check_explained(&spec, pos.rules());
            // A few nodes: the perfect player may run out of them, which is no refusal.
            let refused = matches!(
                bot.explain(&pos, &Limits::nodes(200)),
                Err(mnk_engine::BotError::NotExplained(_))
            );
            assert_eq!(checked.is_err(), refused, "{spec} on {rules}: {checked:?}");
        }
    }
}
