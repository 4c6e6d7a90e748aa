//! The game's texts: moves, lines, scores, clocks, rules, the history and endings, as
//! the session writes them.

use std::fmt::Write as _;
use std::time::Duration;

use super::{seat_char, title};
use ploy_core::{
    BareCommander, Elimination, Ending, Game, Move, Outcome, PartnerElimination, Piece, Position,
    Rotation, Rules, Seat, Variant, WinReason,
};
use ploy_notation::AlgebraicMove;
use ploy_search::Score;
use ploy_sheet::ResultText;

/// `1 move`, `2 moves`: a count of moves in a message.
pub(super) fn count_moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_owned()
    } else {
        format!("{n} moves")
    }
}

pub(super) fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// One move of the game, for messages: algebraic text and what it captured.
pub(super) fn describe(before: &Position, mv: Move) -> (String, Option<Piece>) {
    let text = AlgebraicMove::from_move(before, mv).to_string();
    let captured = if mv.is_direction_move() {
        None
    } else {
        before.board().piece_at(mv.to())
    };
    (text, captured)
}

/// A principal variation in algebraic notation, played out from `pos`.
pub(super) fn line_text(pos: &Position, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        words.push(AlgebraicMove::from_move(&p, mv).to_string());
        if p.play(mv).is_err() {
            break;
        }
    }
    words.join(" ")
}

pub(super) fn score_text(score: Score) -> String {
    if score.is_win() || score.is_loss() {
        score.to_string()
    } else {
        format!("{:+}", score.raw())
    }
}

pub(super) fn rate(nps: u64) -> String {
    if nps >= 1_000_000 {
        format!("{:.1}M", nps as f64 / 1e6)
    } else if nps >= 1_000 {
        format!("{:.0}k", nps as f64 / 1e3)
    } else {
        nps.to_string()
    }
}

pub(super) fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
}

pub(super) fn is_time_forfeit_of(outcome: Outcome, seat: Seat) -> bool {
    matches!(
        outcome,
        Outcome::Win { winners, reason: WinReason::TimeForfeit }
            if !winners.contains(seat)
    )
}

pub(super) fn rules_text(rules: &Rules, variant: Variant) -> String {
    let mut t = format!(
        "{}; elimination {}; rotation {}; repetition draw {}; no-capture limit {}",
        variant.name(),
        match rules.elimination {
            Elimination::Strict => "strict",
            _ => "relaxed",
        },
        match rules.rotation {
            Rotation::Any => "any",
            _ => "single-step",
        },
        if rules.repetition_draw { "on" } else { "off" },
        rules
            .no_capture_limit
            .map_or("none".to_owned(), |n| format!("{n} plies")),
    );
    if variant.is_four_player() {
        let _ = write!(
            t,
            "; eliminated partner {}; bare commander {}",
            match rules.partner_elimination {
                PartnerElimination::Absorbed => "absorbed",
                _ => "plays on",
            },
            match rules.bare_commander {
                BareCommander::Stays => "stays",
                _ => "removed",
            }
        );
    }
    t
}

/// `items` joined by `, ` into lines of at most `width` columns, each line starting with
/// `indent` (an item longer than a line gets a line of its own).
pub(super) fn wrap_items(items: &[String], indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        let piece = format!("{item}{sep}");
        let fresh = line.len() == indent.len();
        let needed = if fresh { piece.len() } else { piece.len() + 1 };
        if !fresh && line.chars().count() + needed > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(&line);
    out
}

/// The number of characters of `valid`, UTF-8 text.
pub(super) fn char_count(valid: &[u8]) -> usize {
    std::str::from_utf8(valid).map_or(valid.len(), |t| t.chars().count())
}

/// What `undo` says it took back.
pub(super) fn ending_text(e: Ending) -> String {
    match e {
        Ending::Result(Outcome::Draw { .. }) => "the agreed draw".into(),
        Ending::Result(Outcome::Win { reason, .. }) => match reason {
            WinReason::TimeForfeit => "the time forfeit".into(),
            _ => "the resignation".into(),
        },
        Ending::Withdrawal(w) => match w.reason {
            WinReason::TimeForfeit => format!("{}'s time forfeit", title(w.seat)),
            _ => format!("{}'s resignation", title(w.seat)),
        },
    }
}

/// The game's moves, numbered by round (a round ends when the turn comes back round), the
/// seat's letter before each move in four-player games, players who left, and the result.
pub(super) fn history_text(game: &Game) -> String {
    let variant = game.position().variant();
    let four = variant.is_four_player();
    let mut rounds: Vec<Vec<String>> = Vec::new();
    let mut last: Option<usize> = None;
    let left: Vec<_> = game.withdrawals().collect();
    let n = game.moves().len();
    for i in 0..=n {
        let mut cells: Vec<(Seat, String)> = left
            .iter()
            .filter(|w| w.ply == i)
            .map(|w| {
                let what = if w.reason == WinReason::TimeForfeit {
                    "out of time"
                } else {
                    "resigns"
                };
                (w.seat, format!("({} {what})", title(w.seat)))
            })
            .collect();
        if let (Some(pos), Some(&mv)) = (game.positions().get(i), game.moves().get(i)) {
            let text = AlgebraicMove::from_move(pos, mv).to_string();
            let text = if four {
                format!("{} {text}", seat_char(pos.turn()).to_ascii_uppercase())
            } else {
                text
            };
            cells.push((pos.turn(), text));
        }
        for (seat, text) in cells {
            if last.is_none_or(|l| seat.index() <= l) {
                rounds.push(Vec::new());
            }
            last = Some(seat.index());
            rounds.last_mut().expect("just pushed").push(text);
        }
    }
    let mut out = String::new();
    if rounds.is_empty() {
        out.push_str("No moves yet.");
    }
    for (i, r) in rounds.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = write!(out, "{:>3}. {}", i + 1, r.join("  "));
    }
    if let Some(o) = game.outcome() {
        let _ = write!(out, "\nResult: {}.", ResultText(Some(o)));
    }
    out
}

/// A search score with whose view it is: the player's (two players), his team's
/// (partnership), his against all the others (free-for-all, the paranoid search).
///
/// In a free-for-all game the mover's expected share of the win follows
/// ([`ploy_engine::win_share`]): `for Green against all, share 31%`. `pos` is the position
/// searched, `seat` its mover.
pub(super) fn score_label(score: Score, pos: &Position) -> String {
    let seat = pos.mover();
    let variant = pos.variant();
    if variant == Variant::FreeForAll {
        return format!(
            "{} for {} against all, share {:.0}%",
            score_text(score),
            title(seat),
            ploy_engine::win_share(pos, score)
        );
    }
    let whose = match variant {
        Variant::TwoPlayer => format!("for {}", title(seat)),
        Variant::Partnership => format!("for {} and {}", title(seat), title(seat.partner())),
        _ => format!("for {} against all", title(seat)),
    };
    format!("{} {whose}", score_text(score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_wrap_at_the_width() {
        let items: Vec<String> = (0..20).map(|i| format!("item number {i}")).collect();
        let text = wrap_items(&items, "   ", 40);
        assert!(text.lines().count() > 5, "{text}");
        for line in text.lines() {
            assert!(line.len() <= 40 && line.starts_with("   item"), "{text}");
        }
        assert_eq!(text.replace("\n   ", " ").trim_start(), items.join(", "));
    }
}
