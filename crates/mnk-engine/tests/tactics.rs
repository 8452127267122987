//! Tactics suite (work in progress).

use mnk_core::{Position, Rules};
use mnk_engine::search::Engine;
use mnk_engine::Limits;
use std::time::Duration;

#[test]
#[ignore]
fn speed_report() {
    let rules: Rules = "15x15x5".parse().unwrap();
    let moves = "h8 i9 h10 h9 j9 i8 i10 g10 j7 j10 k8 i6 i7 g9 f10";
    let cells: Vec<_> = moves
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    let pos = Position::from_moves(rules, &cells).unwrap();
    println!("{pos}");
    let mut e = Engine::new(16);
    let a = e
        .analyse(&pos, &Limits::time(Duration::from_millis(1000)), &mut |i| {
            println!(
                "depth {} value {} nodes {} ms {} pv {:?}",
                i.depth,
                i.value,
                i.nodes,
                i.elapsed_ms,
                i.pv.iter().map(|c| c.to_string()).collect::<Vec<_>>()
            );
        })
        .unwrap();
    println!("{a:?} nps {}", a.nodes * 1000 / a.elapsed_ms.max(1));
}
