//! The command `GAME ratings [SIZE] [PAGE]`: a page of a leaderboard.

use super::{Reply, plural, usage};
use crate::game::excerpt;
use crate::service::{ApiError, Service};

/// A positive whole number of a command, or 400 naming `what` it should be.
fn number(word: &str, what: &str) -> Result<usize, ApiError> {
    match word.parse::<usize>() {
        Ok(n) if n > 0 && word.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ApiError::bad_request(format!(
            "`{}` is not {what}",
            excerpt(word)
        ))),
    }
}

/// `GAME ratings [SIZE] [PAGE]`: the ratings of `game` on boards of side SIZE (the game's
/// default board when left out), best first, one line each: rank, userid, rating,
/// deviation, volatility and rated games.
pub(super) fn leaderboard(service: &Service, game: &str, args: &[&str]) -> Result<Reply, ApiError> {
    let (size, page) = match args {
        [] => (None, 1),
        [size] => (Some(number(size, "a board size")?), 1),
        [size, page] => (
            Some(number(size, "a board size")?),
            number(page, "a page number (1, 2, ...)")?,
        ),
        _ => return Err(usage(&format!("{game} ratings [SIZE] [PAGE]"))),
    };
    let size = size.map(|s| u32::try_from(s).unwrap_or(u32::MAX));
    let board = service.leaderboard(game, size, page)?;
    let mut reply = Reply::ok(format!(
        "{} size {} ratings, page {}: {}",
        board.game,
        board.size,
        board.page,
        plural(board.ratings.len(), "player", "players")
    ));
    let first = (board.page - 1) * crate::service::ratings::RATINGS_PAGE;
    for (i, r) in board.ratings.iter().enumerate() {
        reply.body.push(format!(
            "{:>4}. {}  {:.1} (deviation {:.1}, volatility {:.4}, {})",
            first + i + 1,
            r.userid,
            r.rating.rating,
            r.rating.deviation,
            r.rating.volatility,
            plural(r.games, "game", "games")
        ));
    }
    if let Some(next) = board.next_page {
        reply.body.push(format!(
            "more: `{} ratings {} {next}`",
            board.game, board.size
        ));
    }
    Ok(reply)
}
