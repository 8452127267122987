//! The learnt evaluation's speed cost: the 80 undecided 15×15 middle-game positions of
//! `mnk bench --turn-ms`, each searched from an empty table to a fixed node count on one
//! thread, by the freestyle weight table's sums and by a network, alternately (so that the
//! machine's load falls on both alike):
//!
//! ```text
//! cargo run -p mnk-engine --release --example net_speed -- NET_FILE [NODES] [ROUNDS]
//! ```
//!
//! NODES defaults to 150,000 (some 200 ms of a turn), ROUNDS to 3. Prints each side's nodes
//! per second (the best round, the least disturbed) and the median depth reached. A fourth
//! argument, `tables` or `network`, runs that side alone (to count its instructions, which
//! the machine's load does not change, with `valgrind --tool=callgrind`; build it with
//! `RUSTFLAGS="-C target-cpu=x86-64-v3"`, as Valgrind does not know every instruction of the
//! default build for this machine's CPU: docs/benchmarks.md).

use std::time::Instant;

use mnk_engine::bench::undecided::undecided_positions;
use mnk_engine::bench::BENCH_HASH_MB;
use mnk_engine::search::net::Net;
use mnk_engine::search::weight_table::{Variant, WeightTable};
use mnk_engine::search::Engine;
use mnk_engine::Limits;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: net_speed NET_FILE [NODES] [ROUNDS]");
    let nodes: u64 = args
        .next()
        .map_or(150_000, |a| a.parse().expect("NODES: a number"));
    let rounds: usize = args
        .next()
        .map_or(3, |a| a.parse().expect("ROUNDS: a number"));
    let only = args.next();
    let text = std::fs::read_to_string(&path).expect("a readable network file");
    let net: &'static Net = Box::leak(Box::new(Net::parse(&text).expect("a network file")));
    let sums = WeightTable::shipped(Variant::Freestyle).weights().clone();
    let tables: [(&str, &'static WeightTable); 2] = [
        (
            "tables",
            Box::leak(Box::new(WeightTable::new(sums.clone()))),
        ),
        (
            "network",
            Box::leak(Box::new(WeightTable::new(sums).with_net(Some(net)))),
        ),
    ];
    let positions = undecided_positions();
    let mut best = [0f64; 2];
    let mut depths = [Vec::new(), Vec::new()];
    for _ in 0..rounds {
        for (i, &(name, table)) in tables.iter().enumerate() {
            if only.as_deref().is_some_and(|o| o != name) {
                continue;
            }
            let (mut total, started) = (0u64, Instant::now());
            depths[i].clear();
            for pos in &positions {
                let mut engine = Engine::new(BENCH_HASH_MB);
                engine.set_weights(Some(table));
                let found = engine
                    .analyse(pos, &Limits::nodes(nodes), &mut |_| {})
                    .expect("a search");
                total += found.nodes;
                depths[i].push(found.depth);
            }
            best[i] = best[i].max(total as f64 / started.elapsed().as_secs_f64());
        }
    }
    for (i, (name, _)) in tables.iter().enumerate() {
        if depths[i].is_empty() {
            continue;
        }
        depths[i].sort_unstable();
        println!(
            "{name:>8}: {:>9.0} nodes/s, median depth {} at {nodes} nodes",
            best[i],
            depths[i][depths[i].len() / 2]
        );
    }
    println!("network/tables speed: {:.3}", best[1] / best[0]);
}
