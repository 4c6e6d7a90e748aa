//! The line protocols of `ploy pente moves` and `ploy pente analyze`: one game a line in, one JSON
//! object a line out. Other tools drive these programs; the formats are a contract.
//!
//! **Input**: the moves of a game from the empty board, in the notation (`K10`, either
//! case), separated by spaces or tabs; an empty line is the start. A line ending `\r\n`
//! loses its `\r`. The bytes must be UTF-8.
//!
//! **`moves`** answers
//!
//! ```text
//! {"legal": ["A1", "B1", ...], "to_move": "white", "captures": {"white": 0, "black": 2},
//!  "outcome": "ongoing", "reason": null, "plies": 5, "position": "<position string>"}
//! ```
//!
//! on one line: `legal` the legal moves row by row from row 1, each row from column A
//! (empty when the game is over); `to_move` `"white"`, `"black"`, or `null` when the game
//! is over; `captures` the stones each player has captured; `outcome` `"ongoing"`,
//! `"white"`, `"black"` or `"draw"`; `reason` `null` while the game goes on, else `"five"`,
//! `"captures"`, `"five and captures"` or `"full board"`; `plies` the moves played;
//! `position` the position string. A line that cannot be played answers
//! `{"error": "move 3 (K10): the point is occupied"}`: the first bad move, counted from 1,
//! as written, and why (a move after the end of the game is an error too).
//!
//! **`analyze`** answers `{"bestmove": "K10", "score": 35, "depth": 7, "nodes": 123456,
//! "time_ms": 250, "pv": ["K10", "L11"], "threat_search": false}`: `score` for the player to
//! move, an integer or `"win N"` / `"loss N"` (the result `N` plies away); `threat_search`
//! true when the threat search proved the win. A finished game answers `{"bestmove": null,
//! "outcome": "white", "reason": "five"}`; a bad line the same error object as `moves`.

use crate::engine::Engine;
use crate::position::Position;
use crate::types::{Color, Move, Outcome, Rules};
use ploy_search::Limits;

/// Writes `s` as a JSON string.
#[must_use]
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn moves_array(moves: &[Move]) -> String {
    let mut s = String::from("[");
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push('"');
        s.push_str(&m.to_string());
        s.push('"');
    }
    s.push(']');
    s
}

fn error_json(message: &str) -> String {
    format!("{{\"error\": {}}}", json_string(message))
}

/// A short, printable form of a bad token for error messages.
fn shown(token: &str) -> String {
    let mut s: String = token.chars().take(12).collect();
    if token.chars().count() > 12 {
        s.push('…');
    }
    s
}

/// Plays the moves of one input line from the empty board of `rules`.
///
/// # Errors
/// A message naming the first bad move (counted from 1, as written) and why; or that the
/// line is not UTF-8.
pub fn play_line(line: &[u8], rules: Rules) -> Result<Position, String> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = core::str::from_utf8(line).map_err(|_| "the line is not UTF-8".to_owned())?;
    let mut pos = Position::new(rules);
    for (i, token) in text.split_ascii_whitespace().enumerate() {
        let mv: Move = token
            .parse()
            .map_err(|e| format!("move {} ({}): {e}", i + 1, shown(token)))?;
        pos.play(mv)
            .map_err(|e| format!("move {} ({}): {}", i + 1, shown(token), e.reason))?;
    }
    Ok(pos)
}

fn reason_name(o: Option<Outcome>) -> &'static str {
    match o {
        None => "null",
        Some(Outcome::Draw) => "\"full board\"",
        Some(Outcome::Win { reason, .. }) => match reason {
            crate::WinReason::Five => "\"five\"",
            crate::WinReason::Captures => "\"captures\"",
            crate::WinReason::FiveAndCaptures => "\"five and captures\"",
        },
    }
}

/// The `moves` answer for `pos`.
#[must_use]
pub fn moves_json(pos: &Position) -> String {
    let to_move = match pos.side_to_move() {
        Some(c) => json_string(c.name()),
        None => "null".to_owned(),
    };
    let outcome = pos.outcome().map_or("ongoing", |o| o.name());
    format!(
        "{{\"legal\": {}, \"to_move\": {to_move}, \"captures\": {{\"white\": {}, \"black\": {}}}, \"outcome\": \"{outcome}\", \"reason\": {}, \"plies\": {}, \"position\": {}}}",
        moves_array(&pos.legal_moves()),
        pos.captures(Color::White),
        pos.captures(Color::Black),
        reason_name(pos.outcome()),
        pos.plies(),
        json_string(&pos.to_string()),
    )
}

/// The `moves` answer to one input line.
#[must_use]
pub fn moves_line(line: &[u8], rules: Rules) -> String {
    match play_line(line, rules) {
        Ok(pos) => moves_json(&pos),
        Err(e) => error_json(&e),
    }
}

/// The `analyze` answer to one input line: the engine searches within `limits` (its table
/// is cleared first, so that answers do not depend on earlier lines).
pub fn analyze_line(line: &[u8], rules: Rules, engine: &mut Engine, limits: &Limits) -> String {
    let pos = match play_line(line, rules) {
        Ok(pos) => pos,
        Err(e) => return error_json(&e),
    };
    if let Some(o) = pos.outcome() {
        return format!(
            "{{\"bestmove\": null, \"outcome\": \"{}\", \"reason\": {}}}",
            o.name(),
            reason_name(Some(o))
        );
    }
    engine.clear();
    let a = engine.search(&pos, limits, |_| {});
    let best = a
        .best_move
        .map_or("null".to_owned(), |m| format!("\"{m}\""));
    let score = if a.score.plies_to_result().is_some() {
        json_string(&a.score.to_string())
    } else {
        a.score.raw().to_string()
    };
    format!(
        "{{\"bestmove\": {best}, \"score\": {score}, \"depth\": {}, \"nodes\": {}, \"time_ms\": {}, \"pv\": {}, \"threat_search\": {}}}",
        a.depth,
        a.nodes,
        a.time.as_millis(),
        moves_array(&a.pv),
        a.by_threats
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Size;

    #[test]
    fn lines() {
        let r = Rules::new(Size::S9);
        let start = moves_line(b"", r);
        assert!(start.starts_with("{\"legal\": [\"E5\"], \"to_move\": \"white\""));
        assert_eq!(
            moves_line(b"E5 E5", r),
            "{\"error\": \"move 2 (E5): the point is occupied\"}"
        );
        assert_eq!(
            moves_line(b"E5 Z9", r),
            "{\"error\": \"move 2 (Z9): bad column 'Z' (columns are A to T without I)\"}"
        );
        assert_eq!(
            moves_line(b"\xff", r),
            "{\"error\": \"the line is not UTF-8\"}"
        );
        assert!(moves_line(b"e5\tf6  \r", r).contains("\"plies\": 2"));
        assert_eq!(json_string("a\"b\\c\u{1}"), "\"a\\\"b\\\\c\\u0001\"");
    }
}
