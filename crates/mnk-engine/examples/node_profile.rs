//! Where the search's nodes go, on the 80 undecided 15×15 middle-game positions of
//! `mnk bench --turn-ms`, each searched from an empty table to a fixed node count, one thread:
//!
//! ```text
//! cargo run -p mnk-engine --profile ci --features stats --example node_profile -- [NODES]
//! ```
//!
//! (NODES defaults to 150,000, some 200 ms of a turn at the bench's speed). Prints the depth
//! reached, the nodes and branching factor of each iteration, how the score moves from one
//! iteration to the next (by its size, and signed by the parity of the depth), and the search's
//! counters ([`mnk_engine::search::stats`]); docs/strength.md, "Where the nodes go", reads them.

use mnk_engine::bench::undecided::undecided_positions;
use mnk_engine::bench::BENCH_HASH_MB;
use mnk_engine::search::stats::{self, Counters, PLIES};
use mnk_engine::search::Engine;
use mnk_engine::{Limits, Value};

fn pct(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Every position's score change from depth `d - gap` to depth `d`, from depth 5 on, at the
/// depths `keep` accepts (undecided values only).
fn score_changes(
    scores: &[Vec<Option<i32>>],
    gap: usize,
    keep: impl Fn(usize) -> bool,
) -> Vec<f64> {
    scores
        .iter()
        .flat_map(|s| {
            (5.max(gap + 1)..s.len())
                .filter(|&d| keep(d))
                .filter_map(move |d| match (s[d], s[d - gap]) {
                    (Some(a), Some(b)) => Some(f64::from(a - b)),
                    _ => None,
                })
        })
        .collect()
}

fn main() {
    let nodes: u64 = std::env::args().nth(1).map_or(150_000, |a| {
        a.replace('_', "").parse().expect("NODES: a number")
    });
    let positions = undecided_positions();
    let mut total = Counters::default();
    let mut all_nodes = 0u64;
    let mut depths = Vec::new();
    // Each position's cumulative node count at each completed depth (index = depth).
    let mut curves: Vec<Vec<u64>> = Vec::new();
    // Each position's score at each completed depth (undecided values only).
    let mut scores: Vec<Vec<Option<i32>>> = Vec::new();
    for pos in &positions {
        let mut engine = Engine::new(BENCH_HASH_MB);
        let mut curve = vec![0u64];
        let mut score = vec![None];
        let _ = stats::take();
        let a = engine
            .analyse(pos, &Limits::nodes(nodes), &mut |info| {
                if info.depth as usize == curve.len() {
                    curve.push(info.nodes);
                    score.push(match info.value {
                        Value::Eval(v) => Some(v),
                        _ => None,
                    });
                }
            })
            .expect("a search");
        total.add(&stats::take());
        all_nodes += a.nodes;
        depths.push(f64::from(a.depth));
        curves.push(curve);
        scores.push(score);
    }
    let n = positions.len();
    println!("{n} positions, {nodes} nodes each, one thread, {BENCH_HASH_MB} MB table");
    let mut sorted = depths.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "depth reached: min {} median {} max {}",
        sorted[0],
        median(depths.clone()),
        sorted[n - 1]
    );
    println!("\niteration  positions  median cumulative nodes  EBF (median of n_d / n_d-1)");
    for d in 1..=40 {
        let reached: Vec<&Vec<u64>> = curves.iter().filter(|c| c.len() > d).collect();
        if reached.is_empty() {
            break;
        }
        let cum = median(reached.iter().map(|c| c[d] as f64).collect());
        let ebf = median(
            reached
                .iter()
                .filter(|_| d >= 3)
                .map(|c| (c[d] - c[d - 1]) as f64 / (c[d - 1] - c[d - 2]).max(1) as f64)
                .collect(),
        );
        println!("{d:>9}  {:>9}  {cum:>23.0}  {ebf:>6.2}", reached.len());
    }

    for (gap, what) in [(1, "last"), (2, "last but one")] {
        let mut q: Vec<f64> = score_changes(&scores, gap, |_| true)
            .into_iter()
            .map(f64::abs)
            .collect();
        q.sort_by(f64::total_cmp);
        let at = |p: f64| {
            q.get(((q.len() as f64 - 1.0) * p) as usize)
                .copied()
                .unwrap_or(0.0)
        };
        println!(
            "score change from the {what} iteration (depth 5 on, {} pairs): median {} 75% {} 90% {}, within 80: {:.1}%",
            q.len(),
            at(0.5),
            at(0.75),
            at(0.9),
            100.0 * q.iter().filter(|&&x| x < 80.0).count() as f64 / q.len().max(1) as f64
        );
    }

    // Signed changes by the parity of the new depth: an odd depth ends on the root mover's
    // move, an even one on the opponent's, so a static score that misjudges the tempo swings
    // one way on odd depths and back on even ones.
    for parity in [1usize, 0] {
        let changes = score_changes(&scores, 1, |d| d % 2 == parity);
        let pairs = changes.len();
        let mean = changes.iter().sum::<f64>() / pairs.max(1) as f64;
        let middle = median(changes);
        let depths = if parity == 1 { "odd" } else { "even" };
        println!(
            "signed change into {depths} depths ({pairs} pairs): mean {mean:.0}, median {middle:.0}"
        );
    }

    let c = &total;
    let main = c.main();
    println!("\nall nodes {all_nodes}");
    println!(
        "tree search (negamax) {main} ({:.1}%)",
        pct(main, all_nodes)
    );
    println!(
        "horizon (quiesce) {} ({:.1}%)",
        c.quiesce,
        pct(c.quiesce, all_nodes)
    );
    println!(
        "horizon VCF {} ({:.1}%): {} tried, {:.1}% won, {:.1} nodes a try",
        c.horizon_vcf,
        pct(c.horizon_vcf, all_nodes),
        c.horizon_vcf_tries,
        pct(c.horizon_vcf_wins, c.horizon_vcf_tries),
        c.horizon_vcf as f64 / c.horizon_vcf_tries.max(1) as f64
    );
    println!(
        "root threat searches {} ({:.1}%)",
        c.root_threats,
        pct(c.root_threats, all_nodes)
    );
    let rest = all_nodes.saturating_sub(main + c.quiesce + c.horizon_vcf + c.root_threats);
    println!("other {rest} ({:.1}%)", pct(rest, all_nodes));
    println!(
        "re-searches (outermost, share of all nodes): LMR {:.1}%, PVS {:.1}%, aspiration {:.1}%; {} started",
        pct(c.lmr_research, all_nodes),
        pct(c.pvs_research, all_nodes),
        pct(c.aspiration_research, all_nodes),
        c.researches
    );
    println!(
        "aspiration: {} iterations with a window, {} fails low, {} fails high",
        c.aspirated, c.fails_low, c.fails_high
    );
    println!(
        "TT: {} probes, {:.1}% found, {:.1}% cut",
        c.tt_probes,
        pct(c.tt_hits, c.tt_probes),
        pct(c.tt_cuts, c.tt_probes)
    );
    println!(
        "decided by threat counts: {:.1}% of tree nodes; reverse futility {:.1}%",
        pct(c.threat_decided, main),
        pct(c.reverse_futility, main)
    );
    println!(
        "singular extensions: {} tried, {:.1}% extended",
        c.singular_tries,
        pct(c.singular, c.singular_tries)
    );
    println!(
        "expanded nodes {} ({:.1}% of tree nodes): {:.1} moves generated, {:.2} searched on average",
        c.expanded,
        pct(c.expanded, main),
        c.moves_generated as f64 / c.expanded.max(1) as f64,
        c.moves_searched as f64 / c.expanded.max(1) as f64
    );
    println!(
        "pruned moves: late-move {} futility {}; reduced {} of which {:.1}% searched again",
        c.lmp_skips,
        c.futility_skips,
        c.reduced,
        pct(c.reduced_failed, c.reduced)
    );
    println!(
        "cut-offs: {} ({:.1}% of expanded nodes), {:.1}% on the first move, cutting move {:.2} on average",
        c.cut_nodes,
        pct(c.cut_nodes, c.expanded),
        pct(c.first_move_cuts, c.cut_nodes),
        c.cut_move_sum as f64 / c.cut_nodes.max(1) as f64
    );
    println!("\nply  tree nodes  share");
    for (ply, &k) in c.main_by_ply.iter().enumerate().take(PLIES) {
        if k > 0 {
            println!("{ply:>3}  {k:>10}  {:>5.1}%", pct(k, main));
        }
    }
}
