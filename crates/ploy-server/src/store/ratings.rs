//! Ratings: each person's Glicko-2 rating per game type and board size, updated in the
//! write that ends a rated game, with the log of changes that `ployd check` recomputes.

use rusqlite::{OptionalExtension, params};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use super::rows::WriteError;
use super::{Store, StoreError, to_i64, to_usize};

/// A Glicko-2 rating on the usual scale (a new player's is [`Rating::START`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation (how uncertain the rating is).
    pub deviation: f64,
    /// The volatility (how erratic the player's results are).
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, deviation 350, volatility 0.06.
    pub const START: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::START
    }
}

/// The system constant τ of the Glicko-2 volatility update (how fast volatility may
/// change; the paper suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;

/// How a rated two-player game ended, for its ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatedOutcome {
    /// The player of this seat (0 or 1) won.
    Win(usize),
    /// A draw.
    Draw,
}

impl RatedOutcome {
    /// The score of `seat`: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn score(self, seat: usize) -> f64 {
        match self {
            RatedOutcome::Win(w) if w == seat => 1.0,
            RatedOutcome::Win(_) => 0.0,
            RatedOutcome::Draw => 0.5,
        }
    }
}

/// One rating period of two players who played one game: their ratings after it.
/// `first` scored [`RatedOutcome::score`] of seat 0, `second` the rest.
#[must_use]
pub fn rating_period(first: Rating, second: Rating, outcome: RatedOutcome) -> (Rating, Rating) {
    let to = |r: Rating| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let from = |r: Glicko2Rating| Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let result = match outcome {
        RatedOutcome::Win(0) => Outcomes::WIN,
        RatedOutcome::Win(_) => Outcomes::LOSS,
        RatedOutcome::Draw => Outcomes::DRAW,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (a, b) = glicko2(&to(first), &to(second), &result, &config);
    (from(a), from(b))
}

/// The end of a rated game, written with it ([`super::Write::rating`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedEnd {
    /// The game type.
    pub game: String,
    /// The board's side (Ploy's 9, a Pente or Pyloff game's size).
    pub size: u32,
    /// The result.
    pub outcome: RatedOutcome,
}

/// A person's rating for one game type and board size.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// The userid.
    pub userid: String,
    /// The game type.
    pub game: String,
    /// The board's side.
    pub size: u32,
    /// The rating.
    pub rating: Rating,
    /// Rated games played.
    pub games: usize,
    /// When it last changed (seconds since 1970).
    pub updated_at: i64,
}

/// One player's rating before and after one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The game.
    pub game_id: i64,
    /// The player's seat.
    pub seat: usize,
    /// The userid.
    pub userid: String,
    /// His score: 1, 0.5 or 0.
    pub score: f64,
    /// Before the game.
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// The columns of a rating row as read ([`RATING_COLUMNS`]).
type RawRating = (String, String, i64, f64, f64, f64, i64, i64);

fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRating> {
    RawRating::try_from(r)
}

fn to_rating_row(
    (userid, game, size, rating, deviation, volatility, games, updated_at): RawRating,
) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        userid,
        game,
        size: u32::try_from(size).map_err(|_| StoreError::Corrupt(format!("size {size}")))?,
        rating: Rating {
            rating,
            deviation,
            volatility,
        },
        games: to_usize(games)?,
        updated_at,
    })
}

const RATING_COLUMNS: &str = "userid, game, size, rating, deviation, volatility, games, updated_at";

/// Applies the rating period of the rated game `game_id`, which the write in `tx` ends:
/// reads its two players' ratings (a new player's is [`Rating::START`]), writes the new
/// ones and logs both changes. Called before the game's row is marked over.
///
/// # Errors
/// [`StoreError::Corrupt`] for a game that is not rated, already over, or does not seat
/// two people; a storage failure.
pub(super) fn apply_rating(
    tx: &rusqlite::Transaction<'_>,
    game_id: i64,
    end: &RatedEnd,
    now: i64,
) -> Result<(), WriteError> {
    let corrupt = |m: String| WriteError::Store(StoreError::Corrupt(m));
    let (rated, status): (bool, String) = tx.query_row(
        "SELECT rated, status FROM games WHERE id = ?1",
        params![game_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if !rated || status == "over" {
        return Err(corrupt(format!(
            "game {game_id} is {}; its rating cannot change",
            if rated { "over" } else { "unrated" }
        )));
    }
    let mut stmt =
        tx.prepare_cached("SELECT userid FROM seats WHERE game_id = ?1 ORDER BY seat")?;
    let players = stmt
        .query_map(params![game_id], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let [first, second] = players.as_slice() else {
        return Err(corrupt(format!(
            "rated game {game_id} seats {} players, not 2",
            players.len()
        )));
    };
    let current = |userid: &str| -> Result<Rating, WriteError> {
        let found = tx
            .query_row(
                "SELECT rating, deviation, volatility FROM ratings
                 WHERE userid = ?1 AND game = ?2 AND size = ?3",
                params![userid, end.game, end.size],
                |r| {
                    Ok(Rating {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        volatility: r.get(2)?,
                    })
                },
            )
            .optional()?;
        Ok(found.unwrap_or(Rating::START))
    };
    let before = [current(first)?, current(second)?];
    let (a, b) = rating_period(before[0], before[1], end.outcome);
    let after = [a, b];
    for (seat, userid) in [first, second].into_iter().enumerate() {
        let (old, new) = (before[seat], after[seat]);
        tx.execute(
            "INSERT INTO ratings(userid, game, size, rating, deviation, volatility, games,
                updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7)
             ON CONFLICT(userid, game, size) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = games + 1, updated_at = excluded.updated_at",
            params![
                userid,
                end.game,
                end.size,
                new.rating,
                new.deviation,
                new.volatility,
                now
            ],
        )?;
        tx.execute(
            "INSERT INTO rating_changes(game_id, seat, userid, score, before_rating,
                before_deviation, before_volatility, after_rating, after_deviation,
                after_volatility, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                game_id,
                to_i64(seat),
                userid,
                end.outcome.score(seat),
                old.rating,
                old.deviation,
                old.volatility,
                new.rating,
                new.deviation,
                new.volatility,
                now
            ],
        )?;
    }
    Ok(())
}

impl Store {
    /// The stored spelling of `userid` and when he signed up, if he exists (the public
    /// part of his account).
    ///
    /// # Errors
    /// Storage failure.
    pub fn user_public(&self, userid: &str) -> Result<Option<(String, i64)>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.user_public(userid);
        }
        self.with(|c| {
            Ok(c.query_row(
                "SELECT userid, created_at FROM users WHERE userid = ?1",
                params![userid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
        })
    }

    /// The ratings of `userid`, by game type and board size.
    ///
    /// # Errors
    /// Storage failure.
    pub fn ratings_of(&self, userid: &str) -> Result<Vec<RatingRow>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.ratings_of(userid);
        }
        self.with(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE userid = ?1 ORDER BY game, size"
            ))?;
            let rows = stmt.query_map(params![userid], rating_row)?;
            rows.map(|r| to_rating_row(r?)).collect()
        })
    }

    /// The ratings of game type `game` on boards of side `size`, best first (highest
    /// rating; equal ratings by userid), at most `limit` after skipping `offset`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn leaderboard(
        &self,
        game: &str,
        size: u32,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.leaderboard(game, size, limit, offset);
        }
        self.with(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE game = ?1 AND size = ?2
                 ORDER BY rating DESC, userid LIMIT ?3 OFFSET ?4"
            ))?;
            let rows = stmt.query_map(
                params![game, size, to_i64(limit), to_i64(offset)],
                rating_row,
            )?;
            rows.map(|r| to_rating_row(r?)).collect()
        })
    }

    /// Every rating (for checks), by userid, game type and size.
    ///
    /// # Errors
    /// Storage failure.
    pub fn all_ratings(&self) -> Result<Vec<RatingRow>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.all_ratings();
        }
        self.with(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings ORDER BY userid, game, size"
            ))?;
            let rows = stmt.query_map([], rating_row)?;
            rows.map(|r| to_rating_row(r?)).collect()
        })
    }

    /// Every rating change, in the order they were made (for checks).
    ///
    /// # Errors
    /// Storage failure.
    pub fn rating_changes(&self) -> Result<Vec<RatingChange>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.rating_changes();
        }
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT game_id, seat, userid, score, before_rating, before_deviation,
                    before_volatility, after_rating, after_deviation, after_volatility
                 FROM rating_changes ORDER BY seq",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, f64>(3)?,
                    [r.get::<_, f64>(4)?, r.get(5)?, r.get(6)?],
                    [r.get::<_, f64>(7)?, r.get(8)?, r.get(9)?],
                ))
            })?;
            let rating = |[rating, deviation, volatility]: [f64; 3]| Rating {
                rating,
                deviation,
                volatility,
            };
            rows.map(|r| {
                let (game_id, seat, userid, score, before, after) = r?;
                Ok(RatingChange {
                    game_id,
                    seat: to_usize(seat)?,
                    userid,
                    score,
                    before: rating(before),
                    after: rating(after),
                })
            })
            .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_win_between_new_players_moves_both_by_glicko2() {
        let (w, l) = rating_period(Rating::START, Rating::START, RatedOutcome::Win(0));
        assert!((w.rating - 1662.3).abs() < 0.05, "{w:?}");
        assert!((l.rating - 1337.7).abs() < 0.05, "{l:?}");
        assert!((w.deviation - 290.3).abs() < 0.05, "{w:?}");
        assert!((l.deviation - 290.3).abs() < 0.05, "{l:?}");
        let (d1, d2) = rating_period(Rating::START, Rating::START, RatedOutcome::Draw);
        assert!((d1.rating - 1500.0).abs() < 1e-9 && (d2.rating - 1500.0).abs() < 1e-9);
        let (l2, w2) = rating_period(Rating::START, Rating::START, RatedOutcome::Win(1));
        assert_eq!((l2, w2), (l, w));
    }
}
