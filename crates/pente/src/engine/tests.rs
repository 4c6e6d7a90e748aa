//! The engine's unit tests: the shares of a budget, and a kept announced win.

use super::budget::*;
use super::*;

/// The check after a timed main search keeps its own share of the time: the whole
/// budget's soft time, spent by the main search, does not cut it to nothing.
#[test]
fn the_checks_share_of_a_time_budget_survives_the_main_search() {
    let whole = Limits::move_time(Duration::from_secs(8));
    let part = scaled(&whole, VERIFY_SHARE_CHECK, VERIFY_PARTS);
    let after_main = remaining(&part, Duration::from_secs(5), &whole);
    assert_eq!(after_main.hard_time, Some(Duration::from_secs(2)));
    assert_eq!(after_main.soft_time, Some(Duration::from_secs(1)));
    let late = remaining(&part, Duration::from_millis(7_500), &whole);
    assert_eq!(late.hard_time, Some(Duration::from_millis(500)));
    assert_eq!(late.soft_time, Some(Duration::from_millis(500)));
    assert_eq!(scaled(&Limits::nodes(3), 1, 8).nodes, Some(1));
}

/// With a time budget the check spends what the main search left, up to seven eighths of
/// the hard time (the last eighth kept for the other moves), and the search of the other
/// moves the rest; a node budget keeps its fixed shares.
#[test]
fn the_check_and_the_other_moves_spend_what_is_left() {
    let whole = Limits::move_time(Duration::from_secs(8));
    let secs = Duration::from_secs;
    assert_eq!(check_share(&whole, secs(3)).hard_time, Some(secs(4)));
    assert_eq!(check_share(&whole, secs(5)).hard_time, Some(secs(2)));
    assert_eq!(
        check_share(&whole, Duration::from_millis(7_500)).hard_time,
        Some(Duration::from_millis(500))
    );
    assert_eq!(research_share(&whole, secs(6)).hard_time, Some(secs(2)));
    assert_eq!(
        research_share(&whole, secs(9)).hard_time,
        Some(Duration::ZERO)
    );
    // On a clock the time aimed at is the move's share (1 s of 30 s left), not the hard
    // time (6 s).
    let clock = Limits::clock(Duration::from_millis(30_010), Duration::ZERO);
    let ms = Duration::from_millis;
    let check = check_share(&clock, ms(500));
    assert_eq!(
        (check.hard_time, check.soft_time),
        (Some(ms(375)), Some(ms(187) + Duration::from_micros(500)))
    );
    assert_eq!(research_share(&clock, ms(900)).hard_time, Some(ms(100)));
    let nodes = Limits::nodes(8_000);
    assert_eq!(check_share(&nodes, secs(3)).nodes, Some(2_000));
    assert_eq!(research_share(&nodes, secs(3)).nodes, Some(1_000));
}

fn line(moves: &str) -> Position {
    let moves: Vec<Move> = moves
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    Position::from_moves(crate::Rules::new(crate::Size::S19), &moves)
        .map_err(|(_, e)| e)
        .unwrap()
}

/// When the table has lost what proved the win announced with the last move, the
/// engine still keeps the win: its search for a forced win within the bound finds one
/// (the stored line's move first) where a search without the announcement does not.
#[test]
fn an_announced_win_is_kept_when_the_table_has_lost_it() {
    let start = line("K10 J10 H7 J12 J13 G12 H11 H12 K12 J8 L11");
    let mut engine = Engine::new(Strength::Full);
    let a = engine.search(&start, &Limits::nodes(300_000), |_| {});
    assert!(a.score.is_win(), "{a:?}");
    let announced = a.score.plies_to_result().unwrap();
    let mut pos = start.clone();
    pos.play(a.best_move.unwrap()).unwrap();
    pos.play(a.pv[1]).unwrap();
    engine.searcher.clear();
    let kept = engine.search(&pos, &Limits::nodes(10_000), |_| {});
    assert!(
        kept.score.is_win() && kept.score.plies_to_result().unwrap() <= announced - 2,
        "{kept:?}"
    );
    assert!(kept.nodes <= 10_000, "within the budget: {}", kept.nodes);
    let fresh = Engine::new(Strength::Full).search(&pos, &Limits::nodes(10_000), |_| {});
    assert!(!fresh.score.is_win(), "without the announcement: {fresh:?}");
    // The announcement is of the position one reply after the move only.
    let mut other = Engine::new(Strength::Full);
    other.search(&start, &Limits::nodes(300_000), |_| {});
    other.searcher.clear();
    other.forget_proven_win();
    let forgotten = other.search(&pos, &Limits::nodes(10_000), |_| {});
    assert_eq!(forgotten.score, fresh.score);
}
