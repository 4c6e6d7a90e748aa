//! Replaying what a sheet or record says through ploy-core.

use ploy_core::{Game, GameError, Move, Outcome, Position, Rules, Seat, Variant, WinReason};
use ploy_notation::{
    IllegalMoveError, ParseMoveError, PositionString, ReadMoveError, ReadPositionError,
    check_legal, read_position,
};

use crate::error::{ReadError, ReadErrorKind};
use crate::text::{At, Claim, column, quote};
use crate::{Header, SavedGame};

/// The start position from its text (`None`: the variant's standard start).
pub(crate) fn start_from_text(
    variant: Variant,
    rules: Rules,
    text: Option<&str>,
) -> Result<Position, ReadErrorKind> {
    start_position(variant, rules, text.map(|t| read_position(t, rules)))
}

/// The start position as read (`None`: the variant's standard start), if it was read and
/// belongs to `variant`.
fn start_position(
    variant: Variant,
    rules: Rules,
    read: Option<Result<Position, ReadPositionError>>,
) -> Result<Position, ReadErrorKind> {
    let Some(read) = read else {
        return Ok(Position::start(variant, rules));
    };
    let pos = read.map_err(ReadErrorKind::Start)?;
    if pos.variant() == variant {
        Ok(pos)
    } else {
        Err(ReadErrorKind::StartVariant {
            variant,
            start: pos.variant(),
        })
    }
}

/// A game from the start position a header names: its text and where that stands (`None`:
/// the variant's standard start). An unreadable or wrong start position is reported where
/// its text stands. Score sheets and game records start their games alike.
pub(crate) fn start_game(
    variant: Variant,
    rules: Rules,
    start: Option<(&str, At)>,
) -> Result<Game, ReadError> {
    let position = start_from_text(variant, rules, start.map(|s| s.0)).map_err(|k| {
        let (line, col) = start.map_or((1, 1), |s| s.1);
        ReadError::new(line, col, k)
    })?;
    Ok(Game::from_position(position))
}

/// The start position from a parsed position string (`None`: the standard start).
pub(crate) fn start_from_string(
    variant: Variant,
    rules: Rules,
    start: Option<&PositionString>,
) -> Result<Position, ReadErrorKind> {
    let read = start.map(|s| s.to_position(rules).map_err(ReadPositionError::Invalid));
    start_position(variant, rules, read)
}

/// The error for move text that is malformed.
pub(crate) fn malformed(game: &Game, text: &str, e: ParseMoveError) -> ReadErrorKind {
    ReadErrorKind::Move {
        ply: game.moves().len() + 1,
        seat: game.position().turn(),
        text: quote(text),
        source: ReadMoveError::Malformed(e),
    }
}

/// Plays `mv`, written as `text`, or says why it cannot be played.
pub(crate) fn play(game: &mut Game, mv: Move, text: &str) -> Result<(), ReadErrorKind> {
    let ply = game.moves().len() + 1;
    match game.play(mv) {
        Ok(()) => Ok(()),
        Err(GameError::GameOver(outcome)) => Err(ReadErrorKind::AfterEnd {
            ply,
            text: quote(text),
            outcome,
        }),
        Err(_) => {
            let pos = game.position();
            let why = check_legal(pos, mv)
                .err()
                .unwrap_or(IllegalMoveError::GameOver);
            Err(ReadErrorKind::Move {
                ply,
                seat: pos.turn(),
                text: quote(text),
                source: ReadMoveError::Illegal(why),
            })
        }
    }
}

/// Checks the claimed result against the moves, recording a resignation, time forfeit or
/// agreed draw.
pub(crate) fn finish(game: &mut Game, claim: Claim) -> Result<(), ReadErrorKind> {
    let Claim::Stated(stated) = claim else {
        return Ok(());
    };
    let mismatch = |game: &Game| ReadErrorKind::ResultMismatch {
        stated,
        actual: game.outcome(),
    };
    if game.outcome().is_none() {
        if let Some(o) = stated {
            let recorded = match o {
                Outcome::Win {
                    winners,
                    reason: reason @ (WinReason::Resignation | WinReason::TimeForfeit),
                } => {
                    let losers = game
                        .position()
                        .in_play()
                        .iter()
                        .filter(|&s| !winners.contains(s))
                        .collect::<Vec<_>>();
                    // Two players and free-for-all: the one opponent left; partnership: any
                    // player in play of the losing team resigns for it (same outcome).
                    let Some(&loser) = losers.first() else {
                        return Err(mismatch(game));
                    };
                    Some(if reason == WinReason::Resignation {
                        game.resign(loser)
                    } else {
                        game.forfeit_on_time(loser)
                    })
                }
                Outcome::Draw {
                    reason: ploy_core::DrawReason::Agreement,
                } => Some(game.agree_draw()),
                _ => None,
            };
            if let Some(r) = recorded {
                r.map_err(ReadErrorKind::Ending)?;
            }
        }
    }
    if game.outcome() == stated {
        Ok(())
    } else {
        Err(mismatch(game))
    }
}

/// The word a sheet cell or record token uses for a free-for-all player's leaving.
pub(crate) fn leaving_word(reason: WinReason) -> &'static str {
    if reason == WinReason::TimeForfeit {
        "out of time"
    } else {
        "resigns"
    }
}

/// Reads the word of a leaving (`resigns`, `resigned`, `out of time`, `time forfeit`,
/// any case, spaces or `-` between words).
pub(crate) fn parse_leaving(text: &str) -> Option<WinReason> {
    let squashed: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_'))
        .collect::<String>()
        .to_ascii_lowercase();
    match squashed.as_str() {
        "resigns" | "resigned" | "resignation" => Some(WinReason::Resignation),
        "outoftime" | "timeforfeit" => Some(WinReason::TimeForfeit),
        _ => None,
    }
}

/// `seat` leaves a free-for-all game that goes on, or says why he cannot.
pub(crate) fn leave(
    game: &mut Game,
    seat: Seat,
    reason: WinReason,
    text: &str,
) -> Result<(), ReadErrorKind> {
    let in_play = game.position().in_play();
    if game.position().variant() != Variant::FreeForAll
        || game.outcome().is_some()
        || !in_play.contains(seat)
        || in_play.without(seat).count() < 2
    {
        return Err(ReadErrorKind::Leaving {
            ply: game.moves().len(),
            seat,
            text: text.to_owned(),
        });
    }
    let r = if reason == WinReason::TimeForfeit {
        game.forfeit_on_time(seat)
    } else {
        game.resign(seat)
    };
    r.map_err(ReadErrorKind::Ending)
}

/// Plays the move `text`, which starts at `(line, column)` (1-based) of the input, as its
/// reader `parsed` it: a malformed move is reported at the character where the reader
/// stopped, an illegal one at the move's start. Score sheets and game records read their
/// moves alike but for the notation.
pub(crate) fn play_text(
    game: &mut Game,
    (line, col): (usize, usize),
    text: &str,
    parsed: Result<Move, ParseMoveError>,
) -> Result<(), ReadError> {
    let mv = parsed.map_err(|e| {
        let at = column(text, e.offset().min(text.len()));
        ReadError::new(line, col + at - 1, malformed(game, text, e))
    })?;
    play(game, mv, text).map_err(|k| ReadError::new(line, col, k))
}

/// The game read, once the claimed result, written at `result_at` (line, column), is checked
/// against its moves ([`finish`]).
pub(crate) fn finish_at(
    mut game: Game,
    claim: Claim,
    result_at: (usize, usize),
    header: Header,
) -> Result<SavedGame, ReadError> {
    finish(&mut game, claim).map_err(|k| ReadError::new(result_at.0, result_at.1, k))?;
    Ok(SavedGame { header, game })
}
