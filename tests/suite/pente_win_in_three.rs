//! When the player to move can force a win with his second move from now (his move, any
//! reply, his winning move; established by brute force over every move and every reply),
//! `analyze --movetime 1000` answers one of the first moves that force it.
//!
//! The bounded test below runs a few positions; the full run is ignored:
//! `cargo test --release -p ploy --test pente_win_in_three -- --ignored --nocapture`.

use crate::pente_common as common;

use common::programs::json_lines;
use common::{RULE_SETS, forced_wins_in_three, random_game};
use pente::{Move, Position, Rules, Size};

/// Up to `count` positions of rule set `rules` with a forced win in three, from random
/// games: the moves leading there and the winning first moves.
fn positions(rules: Rules, count: usize, seed: u64) -> Vec<(Vec<Move>, Vec<Move>)> {
    let mut found = Vec::new();
    let mut s = seed;
    while found.len() < count && s < seed + 2000 {
        let (moves, _) = random_game(s, rules, 300);
        s += 1;
        let mut pos = Position::new(rules);
        for (i, &m) in moves.iter().enumerate() {
            if i >= 6 {
                if let Some(wins) = forced_wins_in_three(&pos) {
                    if !wins.is_empty() {
                        found.push((moves[..i].to_vec(), wins));
                        break;
                    }
                }
            }
            pos.play(m).unwrap();
        }
    }
    found
}

fn check(rules: Rules, count: usize, seed: u64) -> usize {
    let cases = positions(rules, count, seed);
    let input: Vec<String> = cases
        .iter()
        .map(|(line, _)| {
            line.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let size = rules.size.to_string();
    let mut args = vec!["--size", size.as_str(), "--movetime", "1000"];
    if !rules.tournament_rule {
        args.push("--no-tournament-rule");
    }
    let out = json_lines("analyze", &args, &input.join("\n"));
    assert_eq!(out.len(), cases.len());
    for ((line, wins), answer) in cases.iter().zip(&out) {
        let best: Move = answer["bestmove"]
            .as_str()
            .unwrap_or_else(|| panic!("no move: {answer}"))
            .parse()
            .unwrap();
        let names: Vec<String> = wins.iter().map(ToString::to_string).collect();
        assert!(
            wins.contains(&best),
            "{size}x{size} {}: {best} is not one of {names:?} (answer {answer}) after {}",
            if rules.tournament_rule {
                "tournament"
            } else {
                "free"
            },
            line.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    cases.len()
}

#[test]
fn analyze_finds_forced_wins_in_three() {
    let mut n = 0;
    n += check(Rules::new(Size::S9), 2, 1);
    n += check(Rules::new(Size::S13).without_tournament_rule(), 1, 2);
    n += check(Rules::new(Size::S19), 2, 3);
    assert!(n >= 4, "only {n} positions found");
}

#[test]
#[ignore = "slow: cargo test --release -p ploy --test pente_win_in_three -- --ignored --nocapture"]
fn analyze_finds_forced_wins_in_three_everywhere() {
    let mut total = 0;
    for (i, &(size, t)) in RULE_SETS.iter().enumerate() {
        let n = check(
            Rules::new(size).with_tournament_rule(t),
            25,
            1000 * (i as u64 + 1),
        );
        eprintln!("{size}x{size} tournament rule {t}: {n} positions, all answered");
        total += n;
    }
    eprintln!("{total} positions");
}
