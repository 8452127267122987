//! `mnk match` with external engines: pbrain-mnk through the protocol, and engines that break
//! the rules in every way the referee must catch.

use mnk_gomocup::arena::{Ending, FaultKind};
use mnk_gomocup::{run_match, MatchArgs, MatchError};

fn pbrain() -> String {
    env!("CARGO_BIN_EXE_pbrain-mnk").to_string()
}

/// An engine written as a shell script: it answers START with OK and every move request with
/// `on_move` (shell code).
fn script(on_move: &str) -> String {
    format!(
        "sh -c 'while read l; do case \"$l\" in START*|RECTSTART*) echo OK;; BEGIN*|BOARD*|TURN*) {on_move};; END*) exit 0;; esac; done'"
    )
}

fn against_weights(engine: String) -> mnk_gomocup::MatchReport {
    let mut args = MatchArgs::new("engine:0", "weights");
    args.engines = vec![engine];
    args.games = 2;
    args.time_ms = 100;
    args.quiet = true;
    run_match(&args).unwrap()
}

#[test]
fn pbrain_mnk_plays_our_bots_through_the_protocol() {
    let dir = std::env::temp_dir().join(format!("mnk-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("games.txt");
    let mut args = MatchArgs::new("engine:0", "weights");
    args.engines = vec![pbrain()];
    args.games = 2;
    args.time_ms = 100;
    args.game_ms = 30_000;
    args.quiet = true;
    args.save = Some(save.clone());
    let report = run_match(&args).unwrap();
    println!("{report}");
    for kind in [
        FaultKind::Illegal,
        FaultKind::Timeout,
        FaultKind::Crash,
        FaultKind::Protocol,
    ] {
        assert_eq!(report.faults(kind), 0, "{report}");
    }
    let saved = std::fs::read_to_string(&save).unwrap();
    let lines: Vec<&str> = saved.lines().collect();
    assert_eq!(lines.len(), 2);
    for (line, game) in lines.iter().zip(&report.games) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 6, "{line}");
        assert_eq!(fields[5].split(' ').count(), game.moves.len());
    }
    assert!(
        lines[0].contains("engine:0 (pbrain-mnk)\tweights"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("weights\tengine:0 (pbrain-mnk)"),
        "{}",
        lines[1]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pbrain_mnk_opens_and_chooses_through_swap2board() {
    let mut args = MatchArgs::new("engine:0", "level3");
    args.engines = vec![pbrain()];
    args.opening = mnk_core::Opening::Swap2;
    args.games = 2;
    args.time_ms = 100;
    args.quiet = true;
    let report = run_match(&args).unwrap();
    println!("{report}");
    for (i, g) in report.games.iter().enumerate() {
        assert!(!matches!(g.ending, Ending::Fault(..)), "{g}");
        let story = g.opening_story.as_deref().unwrap();
        let opener = if i == 0 { "A" } else { "B" };
        assert!(
            story.starts_with(&format!("{opener} placed three")),
            "{story}"
        );
        assert!(
            mnk_core::Position::from_moves(args.rules, &g.moves).is_ok(),
            "{g}"
        );
    }
}

#[test]
fn an_engine_that_answers_swap2board_with_nonsense_loses_by_protocol_error() {
    let engine = "sh -c 'while read l; do case \"$l\" in START*) echo OK;; DONE*) echo SWAP;; END*) exit 0;; esac; done'";
    let mut args = MatchArgs::new("engine:0", "weights");
    args.engines = vec![engine.to_string()];
    args.opening = mnk_core::Opening::Swap2;
    args.games = 1;
    args.time_ms = 100;
    args.quiet = true;
    let report = run_match(&args).unwrap();
    let g = &report.games[0];
    assert!(
        matches!(&g.ending, Ending::Fault(_, f) if f.kind == FaultKind::Protocol && f.detail.contains("SWAP")),
        "{g}"
    );
}

#[test]
fn an_engine_that_plays_off_the_board_loses_by_illegal_move() {
    let report = against_weights(script("echo 99,99"));
    assert_eq!(report.faults(FaultKind::Illegal), 2, "{report}");
    assert_eq!(report.wdl(), (0, 0, 2));
    assert!(report
        .to_string()
        .contains("99,99, which is not on the board"));
}

/// What an external engine hears in a one-game match with `nodes` as the node cap: the engine
/// writes every line to a file, then plays off the board (the game ends at once).
fn lines_heard(nodes: Option<u64>) -> String {
    let heard = std::env::temp_dir().join(format!(
        "mnk-heard-{}-{}.txt",
        std::process::id(),
        nodes.unwrap_or(0)
    ));
    let engine = format!(
        "sh -c 'while read l; do echo \"$l\" >> {}; case \"$l\" in START*) echo OK;; BEGIN*|BOARD*|TURN*) echo 99,99;; END*) exit 0;; esac; done'",
        heard.display()
    );
    let mut args = MatchArgs::new("engine:0", "weights");
    args.engines = vec![engine];
    args.games = 1;
    args.nodes = nodes;
    args.quiet = true;
    run_match(&args).unwrap();
    let text = std::fs::read_to_string(&heard).unwrap();
    std::fs::remove_file(&heard).ok();
    text
}

#[test]
fn a_node_cap_is_sent_to_external_engines_as_max_node() {
    let capped = lines_heard(Some(4321));
    assert!(
        capped.lines().any(|l| l.trim() == "INFO max_node 4321"),
        "{capped}"
    );
    assert!(capped.contains("INFO timeout_turn"), "{capped}");
    let uncapped = lines_heard(None);
    assert!(uncapped.contains("INFO timeout_turn"), "{uncapped}");
    assert!(!uncapped.contains("max_node"), "{uncapped}");
}

#[test]
fn an_engine_that_plays_on_a_taken_cell_loses_by_illegal_move() {
    // Always the centre: taken by the opening or by its own first move.
    let report = against_weights(script("echo 7,7"));
    assert_eq!(report.faults(FaultKind::Illegal), 2, "{report}");
}

#[test]
fn an_engine_that_does_not_answer_loses_on_time() {
    let report = against_weights(script("sleep 3"));
    assert_eq!(report.faults(FaultKind::Timeout), 2, "{report}");
    assert_eq!(report.wdl(), (0, 0, 2));
}

#[test]
fn an_engine_that_exits_loses_by_crash() {
    let report = against_weights(script("exit 3"));
    assert_eq!(report.faults(FaultKind::Crash), 2, "{report}");
}

#[test]
fn an_engine_that_talks_nonsense_loses_by_protocol_error() {
    let report = against_weights(script("echo MESSAGE thinking; echo HELLO"));
    assert_eq!(report.faults(FaultKind::Protocol), 2, "{report}");
    assert!(report
        .to_string()
        .contains("answered 'HELLO' instead of a move"));
    let report = against_weights(script("echo ERROR cannot"));
    assert_eq!(report.faults(FaultKind::Protocol), 2, "{report}");
}

#[test]
fn an_engine_that_refuses_the_board_is_refused_before_the_match() {
    let mut args = MatchArgs::new("engine:0", "weights");
    args.engines = vec!["sh -c 'read l; echo ERROR no such board'".into()];
    let e = run_match(&args).unwrap_err();
    assert!(matches!(e, MatchError::EngineStart { .. }), "{e}");
    assert!(e.to_string().contains("ERROR no such board"), "{e}");
}

#[test]
fn suggest_is_answered_with_play() {
    // SUGGEST x,y: the manager answers PLAY x,y and the engine then plays it.
    let engine = "sh -c 'while read l; do case \"$l\" in START*) echo OK;; BEGIN*|BOARD*|TURN*) echo SUGGEST 99,99;; PLAY*) echo 98,98;; END*) exit 0;; esac; done'";
    let report = against_weights(engine.into());
    // The engine's final answer 98,98 is off the board: proof that PLAY was sent and heard.
    assert_eq!(report.faults(FaultKind::Illegal), 2, "{report}");
    assert!(report.to_string().contains("98,98"), "{report}");
}

/// The acceptance test of the issue: pbrain-mnk against itself through the protocol, 20 games
/// at 100 ms per move, without a single protocol error, timeout or illegal move. Two games at a
/// time (an engine a core on two cores; this binary's other tests take some 3 seconds), 32 to 47
/// seconds of play in CI, so it is left to optimised runs: `cargo test --release -- --ignored`.
#[test]
#[ignore = "release-only: 20 games at 100 ms per move"]
fn pbrain_mnk_against_itself_20_games_at_100_ms() {
    let save = std::env::temp_dir().join(format!("mnk-selfplay-{}.txt", std::process::id()));
    let mut args = MatchArgs::new("engine:0", "engine:0");
    args.engines = vec![pbrain()];
    args.games = 20;
    args.time_ms = 100;
    args.concurrency = 2;
    args.quiet = false;
    args.save = Some(save.clone());
    let report = run_match(&args).unwrap();
    println!("{report}");
    let saved = std::fs::read_to_string(&save).unwrap();
    println!("saved games:\n{saved}");
    std::fs::remove_file(&save).unwrap();
    assert_eq!(saved.lines().count(), 20);
    assert_eq!(report.games.len(), 20);
    for kind in [
        FaultKind::Illegal,
        FaultKind::Timeout,
        FaultKind::Crash,
        FaultKind::Protocol,
    ] {
        assert_eq!(report.faults(kind), 0, "{report}");
    }
    assert!(report
        .games
        .iter()
        .all(|g| !matches!(g.ending, Ending::Fault(..))));
}
