//! `analyze` answers every line as a fresh engine would: its table is cleared between
//! lines. A kept table would change answers at a fixed depth (the search is selective:
//! the table's moves and deeper bounds from other lines change which moves are searched
//! and how deep), so the lines of one game, forward and back, are answered one by one.

use pente::{Engine, Limits, Rules, Size, Strength, json_lines::analyze_line};

/// The answer without its time.
fn timeless(answer: &str) -> String {
    let start = answer.find("\"time_ms\"").expect("a search's answer");
    let end = start + answer[start..].find(',').unwrap();
    format!("{}{}", &answer[..start], &answer[end..])
}

#[test]
fn analyze_answers_each_line_as_a_fresh_engine_does() {
    let rules = Rules::new(Size::S19);
    let game: Vec<&str> = "K10 J10 H7 J12 J13 G12 H11 H12 K12 J8 L11 J9 J11 L9"
        .split_whitespace()
        .collect();
    let mut lines: Vec<String> = (3..=game.len()).map(|n| game[..n].join(" ")).collect();
    let back: Vec<String> = lines.iter().rev().cloned().collect();
    lines.extend(back);
    for limits in [Limits::depth(4), Limits::nodes(20_000)] {
        let mut kept = Engine::new(Strength::Full);
        for line in &lines {
            let answer = analyze_line(line.as_bytes(), rules, &mut kept, &limits);
            let fresh = analyze_line(
                line.as_bytes(),
                rules,
                &mut Engine::new(Strength::Full),
                &limits,
            );
            assert_eq!(timeless(&answer), timeless(&fresh), "{limits:?}: {line}");
        }
    }
}
