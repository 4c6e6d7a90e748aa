//! Defects of the full-strength search, pinned: a search answers with at
//! least depth 1 completed, whatever the budget.

use std::time::Duration;

use crate::common::line;
use pente::{Engine, Limits, Position, Rules, Size, Strength};

/// The blind-spot position after White's `L11` (Black to move, a win for
/// Black), and two positions where the move is decided: White can make five on row 10
/// (`O10` or `J10`), and Black must stop White's five at `O10` (`J10` is Black's).
fn positions() -> Vec<(Position, &'static str)> {
    let free = Rules::new(Size::S19).without_tournament_rule();
    vec![
        (
            line(
                Rules::new(Size::S19),
                "K10 J10 H7 J12 J13 G12 H11 H12 K12 J8 L11",
            ),
            "",
        ),
        (line(free, "K10 A1 L10 A3 M10 A5 N10 A7"), "O10 J10"),
        (line(free, "K10 J10 L10 A3 M10 A5 N10"), "O10"),
    ]
}

fn budgets() -> Vec<Limits> {
    vec![
        Limits::nodes(1),
        Limits::nodes(10),
        Limits::move_time(Duration::ZERO),
    ]
}

#[test]
fn every_search_completes_depth_one_whatever_the_budget() {
    for (pos, decisive) in positions() {
        for limits in budgets() {
            for threat_nodes in [0, 200_000] {
                let mut engine = Engine::new(Strength::Full).with_threat_nodes(threat_nodes);
                let mut reported = Vec::new();
                let a = engine.search(&pos, &limits, |info| reported.push(info.depth));
                assert!(a.depth >= 1, "{limits:?}: depth {} at {pos}", a.depth);
                assert!(
                    !reported.is_empty(),
                    "the observer saw a completed iteration"
                );
                let mv = a.best_move.expect("a move while the game goes on");
                assert!(pos.is_legal(mv));
                if !decisive.is_empty() {
                    assert!(
                        decisive.split_whitespace().any(|d| d == mv.to_string()),
                        "{limits:?}, threat nodes {threat_nodes}: {mv} instead of {decisive}"
                    );
                }
            }
        }
    }
}

/// The blind spot of issue 24: `L11` here looked best to the main search (+2,624 at depth
/// 15), yet after it Black's own search proves a win (`J9`). A search with a node budget
/// big enough for that proof must not play `L11`. (With the evaluation of before the
/// tuning, 250,000 nodes were the least: the check of the move found the proof. With the
/// tuned one the main search turns to `J9` itself from about 500,000 nodes; below that,
/// from 300,000 to 450,000, neither it nor the check's quarter finds the proof:
/// docs/pente.md.)
#[test]
fn a_move_the_opponents_search_proves_lost_is_not_played() {
    const NODES: u64 = 600_000;
    let rules = Rules::new(Size::S19);
    let before = "K10 J10 H7 J12 J13 G12 H11 H12 K12 J8";
    let after = line(rules, &format!("{before} L11"));
    let a = Engine::new(Strength::Full).search(&after, &Limits::nodes(NODES), |_| {});
    assert!(a.score.is_win(), "after L11 Black wins: {a:?}");
    let pos = line(rules, before);
    let a = Engine::new(Strength::Full).search(&pos, &Limits::nodes(NODES), |_| {});
    assert_ne!(a.best_move, Some("L11".parse().unwrap()), "{a:?}");
    assert!(
        a.nodes <= NODES,
        "the check stays within the budget: {}",
        a.nodes
    );
}
