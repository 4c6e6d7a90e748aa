//! The line protocols of the `moves` and `analyze` programs: one game a line in, one JSON
//! object a line out. Other tools drive these programs: the output is a contract.
//!
//! # Input
//!
//! A line holds the moves of one game from the empty board, separated by whitespace: cells
//! (`c3`, case-insensitive), `swap` and `pass` (forced passes are written like any move). An
//! empty line is the empty board. Bytes that are not UTF-8 are read as replacement
//! characters (and so name a bad move).
//!
//! # `moves`
//!
//! ```text
//! {"legal": ["a1", "a3", ..., "swap"], "to_move": 2, "outcome": "ongoing", "winners": [], "score": {"1": 1, "2": 0}}
//! ```
//!
//! - `legal`: the legal placements as cells, sorted by column letter then row number; or
//!   `["pass"]` when the player to move must pass; `"swap"` last when allowed; empty when
//!   the game is over.
//! - `to_move`: the player to move (1 to 4), `null` when the game is over.
//! - `outcome`: `"ongoing"` or `"over"`.
//! - `winners`: the players with the highest score once the game is over (several on a tie
//!   for the lead); empty while the game goes on and for a draw (every score equal).
//! - `score`: each player's pieces on the board, keyed by player number.
//!
//! A move that cannot be read or is not legal (including any move after the end, a
//! placement when the player must pass, a voluntary pass, a late swap) gives
//! `{"error": "move N `text`...: reason"}` instead, naming the move by its number and text.
//!
//! # `analyze`
//!
//! `{"bestmove": "c3", "score": 35, "depth": 4}`: the best move (`"pass"` when it is the
//! only move), the score for the player to move (an integer, or `"win N"` / `"loss N"`
//! with `N` plies to the end), and the depth searched. A finished game gives
//! `{"bestmove": null, "outcome": "over", "winners": [1]}`; a bad line the error object of
//! `moves`.

use core::fmt::Write;

use crate::record::Game;
use crate::types::{Move, Options, Status};

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The error object.
pub fn error_json(message: &str) -> String {
    format!("{{\"error\": {}}}", json_string(message))
}

/// Reads one input line (bytes, with or without its line ending) as a game.
///
/// # Errors
///
/// The error object of a bad move, ready to print.
pub fn read_game(line: &[u8], options: Options) -> Result<Game, String> {
    let text = String::from_utf8_lossy(line);
    Game::from_moves(options, &text).map_err(|e| error_json(&e.to_string()))
}

/// The `moves` answer for a game.
#[must_use]
pub fn moves_json(game: &Game) -> String {
    let pos = game.position();
    let mut out = String::from("{\"legal\": [");
    for (n, mv) in pos.legal_moves().iter().enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        out.push('"');
        let _ = write!(out, "{mv}");
        out.push('"');
    }
    out.push_str("], \"to_move\": ");
    let over = pos.status() == Status::Over;
    if over {
        out.push_str("null");
    } else {
        let _ = write!(out, "{}", pos.to_move());
    }
    out.push_str(", \"outcome\": ");
    out.push_str(if over { "\"over\"" } else { "\"ongoing\"" });
    out.push_str(", \"winners\": ");
    push_winners(&mut out, game);
    out.push_str(", \"score\": {");
    for (n, score) in pos.scores().iter().enumerate() {
        if n > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "\"{}\": {score}", n + 1);
    }
    out.push_str("}}");
    out
}

fn push_winners(out: &mut String, game: &Game) {
    out.push('[');
    if let Some(o) = game.position().outcome() {
        for (n, p) in o.winners().iter().enumerate() {
            if n > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{p}");
        }
    }
    out.push(']');
}

/// The `moves` answer for one input line: the JSON object, or the error object.
#[must_use]
pub fn moves_line(line: &[u8], options: Options) -> String {
    match read_game(line, options) {
        Ok(game) => moves_json(&game),
        Err(e) => e,
    }
}

/// The `analyze` answer for a finished game.
#[must_use]
pub fn finished_json(game: &Game) -> String {
    let mut out = String::from("{\"bestmove\": null, \"outcome\": \"over\", \"winners\": ");
    push_winners(&mut out, game);
    out.push('}');
    out
}

/// The `analyze` answer for a search result.
#[must_use]
pub fn bestmove_json(best: Move, score: ploy_search::Score, depth: u32) -> String {
    let score = if score.is_win() || score.is_loss() {
        json_string(&score.to_string())
    } else {
        score.raw().to_string()
    };
    format!("{{\"bestmove\": \"{best}\", \"score\": {score}, \"depth\": {depth}}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn start_and_errors() {
        let o = Options::new(2, 2, crate::RuleSet::Default).unwrap();
        assert_eq!(
            moves_line(b"", o),
            "{\"legal\": [\"a1\", \"a3\", \"c1\", \"c3\"], \"to_move\": 1, \"outcome\": \"ongoing\", \"winners\": [], \"score\": {\"1\": 0, \"2\": 0}}"
        );
        assert_eq!(
            moves_line(b"a1", o),
            "{\"legal\": [\"a3\", \"c1\", \"c3\", \"swap\"], \"to_move\": 2, \"outcome\": \"ongoing\", \"winners\": [], \"score\": {\"1\": 1, \"2\": 0}}"
        );
        assert_eq!(
            moves_line(b"a1 a1", o),
            "{\"error\": \"move 2 `a1` by player 2: the cell is full\"}"
        );
        assert_eq!(
            moves_line(b"a1 b1", o),
            "{\"error\": \"move 2 `b1`: `b1` is not a point: column and row differ in parity\"}"
        );
    }
}
