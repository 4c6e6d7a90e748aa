//! Ratings on PostgreSQL: the rating period of a rated game's end, inside its write, and
//! the reads of ratings and their log.

use postgres::Row;

use super::super::ratings::{RatedEnd, Rating, RatingChange, RatingRow, rating_period};
use super::super::rows::WriteError;
use super::super::{StoreError, to_i64, to_usize};
use super::Postgres;

const RATING_COLUMNS: &str =
    "userid::text, game, size, rating, deviation, volatility, games, updated_at";

fn rating_row(r: &Row) -> Result<RatingRow, StoreError> {
    let size: i64 = r.get(2);
    Ok(RatingRow {
        userid: r.get(0),
        game: r.get(1),
        size: u32::try_from(size).map_err(|_| StoreError::Corrupt(format!("size {size}")))?,
        rating: Rating {
            rating: r.get(3),
            deviation: r.get(4),
            volatility: r.get(5),
        },
        games: to_usize(r.get(6))?,
        updated_at: r.get(7),
    })
}

/// As SQLite's `apply_rating`: the rating period of the rated game `game_id` that the
/// write in `tx` ends. The players' rows are locked first (in one order), so that two
/// games ending at once for one player apply one after the other.
pub(super) fn apply_rating(
    tx: &mut postgres::Transaction<'_>,
    game_id: i64,
    end: &RatedEnd,
    now: i64,
) -> Result<(), WriteError> {
    let corrupt = |m: String| WriteError::Store(StoreError::Corrupt(m));
    let head = tx.query_one("SELECT rated, status FROM games WHERE id = $1", &[&game_id])?;
    let (rated, status): (bool, String) = (head.get(0), head.get(1));
    if !rated || status == "over" {
        return Err(corrupt(format!(
            "game {game_id} is {}; its rating cannot change",
            if rated { "over" } else { "unrated" }
        )));
    }
    let players: Vec<String> = tx
        .query(
            "SELECT userid::text FROM seats WHERE game_id = $1 ORDER BY seat",
            &[&game_id],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let [first, second] = players.as_slice() else {
        return Err(corrupt(format!(
            "rated game {game_id} seats {} players, not 2",
            players.len()
        )));
    };
    tx.execute(
        "SELECT 1 FROM users WHERE userid IN ($1::citext, $2::citext)
         ORDER BY userid FOR UPDATE",
        &[first, second],
    )?;
    let size = i64::from(end.size);
    let mut current = |userid: &str| -> Result<Rating, WriteError> {
        let found = tx.query_opt(
            "SELECT rating, deviation, volatility FROM ratings
             WHERE userid = $1 AND game = $2 AND size = $3",
            &[&userid, &end.game, &size],
        )?;
        Ok(found.map_or(Rating::START, |r| Rating {
            rating: r.get(0),
            deviation: r.get(1),
            volatility: r.get(2),
        }))
    };
    let before = [current(first)?, current(second)?];
    let (a, b) = rating_period(before[0], before[1], end.outcome);
    let after = [a, b];
    for (seat, userid) in [first, second].into_iter().enumerate() {
        let (old, new) = (before[seat], after[seat]);
        tx.execute(
            "INSERT INTO ratings(userid, game, size, rating, deviation, volatility, games,
                updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7)
             ON CONFLICT(userid, game, size) DO UPDATE SET rating = excluded.rating,
                deviation = excluded.deviation, volatility = excluded.volatility,
                games = ratings.games + 1, updated_at = excluded.updated_at",
            &[
                userid,
                &end.game,
                &size,
                &new.rating,
                &new.deviation,
                &new.volatility,
                &now,
            ],
        )?;
        tx.execute(
            "INSERT INTO rating_changes(game_id, seat, userid, score, before_rating,
                before_deviation, before_volatility, after_rating, after_deviation,
                after_volatility, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            &[
                &game_id,
                &to_i64(seat),
                userid,
                &end.outcome.score(seat),
                &old.rating,
                &old.deviation,
                &old.volatility,
                &new.rating,
                &new.deviation,
                &new.volatility,
                &now,
            ],
        )?;
    }
    Ok(())
}

impl Postgres {
    pub(in super::super) fn ratings_of(&self, userid: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = self.conn()?.query(
            &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE userid = $1 ORDER BY game, size"),
            &[&userid],
        )?;
        rows.iter().map(rating_row).collect()
    }

    pub(in super::super) fn leaderboard(
        &self,
        game: &str,
        size: u32,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let rows = self.conn()?.query(
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE game = $1 AND size = $2
                 ORDER BY rating DESC, userid LIMIT $3 OFFSET $4"
            ),
            &[&game, &i64::from(size), &to_i64(limit), &to_i64(offset)],
        )?;
        rows.iter().map(rating_row).collect()
    }

    pub(in super::super) fn all_ratings(&self) -> Result<Vec<RatingRow>, StoreError> {
        let rows = self.conn()?.query(
            &format!("SELECT {RATING_COLUMNS} FROM ratings ORDER BY userid, game, size"),
            &[],
        )?;
        rows.iter().map(rating_row).collect()
    }

    pub(in super::super) fn rating_changes(&self) -> Result<Vec<RatingChange>, StoreError> {
        let rows = self.conn()?.query(
            "SELECT game_id, seat, userid::text, score, before_rating, before_deviation,
                before_volatility, after_rating, after_deviation, after_volatility
             FROM rating_changes ORDER BY seq",
            &[],
        )?;
        let rating = |r: &Row, i: usize| Rating {
            rating: r.get(i),
            deviation: r.get(i + 1),
            volatility: r.get(i + 2),
        };
        rows.iter()
            .map(|r| {
                Ok(RatingChange {
                    game_id: r.get(0),
                    seat: to_usize(r.get(1))?,
                    userid: r.get(2),
                    score: r.get(3),
                    before: rating(r, 4),
                    after: rating(r, 7),
                })
            })
            .collect()
    }
}
