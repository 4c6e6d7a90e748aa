//! Ratings: the `-rated` option, the rating period a rated game's end makes, a user's
//! public profile, the leaderboards and their check.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::Service;
use super::error::ApiError;
use super::replay::Replayed;
use crate::auth;
use crate::game::{Match, Options, RATED_OPTION, excerpt};
use crate::store::{
    EndKind, Ending, GameRow, RatedEnd, RatedOutcome, Rating, RatingRow, rating_period,
};

/// Ratings a page of [`Service::leaderboard`] (`GET /api/ratings`).
pub const RATINGS_PAGE: usize = 50;

/// The fewest moves (log entries, as `moves_played` counts them) a rated game must have
/// to change ratings; shorter games are unrated.
pub const MIN_RATED_MOVES: usize = 2;

/// The difference two stored ratings may show from a recomputation (floating point noise).
const CHECK_TOLERANCE: f64 = 1e-6;

/// Takes the server's flag `-rated` out of `rest` (the options that are not the game's).
///
/// # Errors
/// 400 for `-rated` given twice or with a value.
pub(super) fn take_rated(rest: &mut Vec<(String, Option<String>)>) -> Result<bool, ApiError> {
    let mut rated = false;
    let mut i = 0;
    while i < rest.len() {
        if rest[i].0 != RATED_OPTION.name {
            i += 1;
            continue;
        }
        let (_, value) = rest.remove(i);
        if rated {
            return Err(ApiError::bad_request("option -rated is given twice"));
        }
        if let Some(v) = value {
            return Err(ApiError::bad_request(format!(
                "option -rated takes no value, not `{}`",
                excerpt(&v)
            )));
        }
        rated = true;
    }
    Ok(rated)
}

/// Refuses `-rated` for a game that does not seat exactly two people.
///
/// # Errors
/// 400 with the reason.
pub(super) fn check_rated_seats(seats: &[String]) -> Result<(), ApiError> {
    if seats.iter().any(|s| s == auth::BOT) {
        return Err(ApiError::bad_request(
            "-rated is for games between two people: this game has a bot seat",
        ));
    }
    if seats.len() != 2 {
        return Err(ApiError::bad_request(format!(
            "-rated is for games between two people: this game seats {}",
            seats.len()
        )));
    }
    Ok(())
}

/// The board's side of a game, the size its ratings are kept for: the `size` of the
/// game's JSON (Pente, Pyloff), 9 for Ploy's board.
#[must_use]
pub fn board_size(state: &dyn Match) -> u32 {
    state
        .render_json()
        .get("size")
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(9)
}

fn rating_json(r: &RatingRow) -> Value {
    json!({
        "userid": r.userid,
        "game": r.game,
        "size": r.size,
        "rating": r.rating.rating,
        "deviation": r.rating.deviation,
        "volatility": r.rating.volatility,
        "games": r.games,
        "updated_at": r.updated_at,
    })
}

/// A page of a leaderboard ([`Service::leaderboard`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Leaderboard {
    /// The game type.
    pub game: String,
    /// The board's side.
    pub size: u32,
    /// The page (from 1).
    pub page: usize,
    /// The ratings of the page, best first.
    pub ratings: Vec<RatingRow>,
    /// The next page, if there are more ratings.
    pub next_page: Option<usize>,
}

impl Leaderboard {
    /// The JSON of `GET /api/ratings`: each rating with its rank (1 for the best).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let first = (self.page - 1) * RATINGS_PAGE;
        let ratings: Vec<Value> = self
            .ratings
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut v = rating_json(r);
                v["rank"] = json!(first + i + 1);
                v
            })
            .collect();
        json!({
            "game": self.game,
            "size": self.size,
            "page": self.page,
            "ratings": ratings,
            "next_page": self.next_page,
        })
    }
}

impl Service {
    /// What the end of `row` written now changes in ratings: `None` unless the game is
    /// rated, over after `r.ply` log entries, at least [`MIN_RATED_MOVES`] long and ended
    /// by its rules, a resignation, a time-out or an agreed draw (an invitation declined,
    /// cancelled or lapsed, or an abandoned game, is unrated).
    pub(super) fn rated_end(
        &self,
        row: &GameRow,
        r: &Replayed,
        ending: Option<&Ending>,
    ) -> Option<RatedEnd> {
        if !row.rated || !r.derived.over || r.ply < MIN_RATED_MOVES || row.players.len() != 2 {
            return None;
        }
        if ending.is_some_and(|e| e.kind.is_invitation() || e.kind == EndKind::Abandoned) {
            return None;
        }
        let outcome = match r.derived.winners.as_slice() {
            [w] => RatedOutcome::Win(*w),
            _ => RatedOutcome::Draw,
        };
        Some(RatedEnd {
            game: row.game.clone(),
            size: board_size(r.state.as_ref()),
            outcome,
        })
    }

    /// The public profile of `userid` (`GET /api/users/{id}`): the userid as stored, when
    /// he signed up, and his ratings per game type and board size. Nothing private.
    ///
    /// # Errors
    /// 404 `no_user` for an unknown userid.
    pub fn user_profile(&self, userid: &str) -> Result<Value, ApiError> {
        let unknown = || {
            ApiError::new(
                404,
                "no_user",
                format!("there is no user `{}`", excerpt(userid)),
            )
        };
        if auth::check_userid(userid).is_err() {
            return Err(unknown());
        }
        let Some((stored, created_at)) = self.store.user_public(userid)? else {
            return Err(unknown());
        };
        let ratings: Vec<Value> = self
            .store
            .ratings_of(&stored)?
            .iter()
            .map(|r| {
                json!({
                    "game": r.game,
                    "size": r.size,
                    "rating": r.rating.rating,
                    "deviation": r.rating.deviation,
                    "volatility": r.rating.volatility,
                    "games": r.games,
                    "updated_at": r.updated_at,
                })
            })
            .collect();
        Ok(json!({"id": stored, "created_at": created_at, "ratings": ratings}))
    }

    /// The default board side of game type `game`: that of a game with no options.
    fn default_size(&self, game: &str) -> Result<u32, ApiError> {
        let g = self.game_type(game)?;
        let players = *g.players(&Options::default()).start();
        let state = g
            .start(&Options::default(), players)
            .map_err(ApiError::internal)?;
        Ok(board_size(state.as_ref()))
    }

    /// Page `page` (from 1) of the ratings of game type `game` on boards of side `size`
    /// (the game's default board when `None`), best first, [`RATINGS_PAGE`] a page.
    ///
    /// # Errors
    /// 400 for an unknown game type or page 0.
    pub fn leaderboard(
        &self,
        game: &str,
        size: Option<u32>,
        page: usize,
    ) -> Result<Leaderboard, ApiError> {
        let name = self.game_type(game)?.name().to_owned();
        if page == 0 {
            return Err(ApiError::bad_request("pages are numbered from 1"));
        }
        let size = match size {
            Some(s) => s,
            None => self.default_size(&name)?,
        };
        let offset = (page - 1).saturating_mul(RATINGS_PAGE);
        let mut ratings = self
            .store
            .leaderboard(&name, size, RATINGS_PAGE + 1, offset)?;
        let next_page = (ratings.len() > RATINGS_PAGE).then_some(page + 1);
        ratings.truncate(RATINGS_PAGE);
        Ok(Leaderboard {
            game: name,
            size,
            page,
            ratings,
            next_page,
        })
    }

    /// Checks the ratings against the games (`ployd check`): each game's `rated` flag
    /// against its `-rated` option; every rated game that ended with a rating period has
    /// exactly its two changes and no other game has any; each change is the Glicko-2
    /// period of the ratings before it, which are the ratings after the player's previous
    /// change (or the start); and the stored ratings are the last changes, with their
    /// counts. Returns the problems found, each with its board (0 for a stored rating that
    /// no game's change explains).
    ///
    /// # Errors
    /// Storage failure.
    pub fn check_ratings(&self) -> Result<Vec<(i64, String)>, ApiError> {
        let mut problems = Vec::new();
        let changes = self.store.rating_changes()?;
        // The games whose end is a rating period: their players and that end.
        let mut rated = BTreeMap::new();
        for id in self.store.game_ids()? {
            // A game that does not load or replay is reported by the replay check.
            let Ok(row) = self.load(id) else { continue };
            let flagged = row.options.iter().any(|o| o == "-rated");
            if flagged != row.rated {
                problems.push((
                    id,
                    format!("rated flag {} but options {:?}", row.rated, row.options),
                ));
            }
            let Ok(r) = self.replay(&row, None) else {
                continue;
            };
            if let Some(end) = self.rated_end(&row, &r, row.ending.as_ref()) {
                rated.insert(id, (row.players, end));
            }
        }
        // The periods in the order they were written; rated games without changes after.
        let mut order: Vec<i64> = Vec::new();
        for c in &changes {
            if !order.contains(&c.game_id) {
                order.push(c.game_id);
            }
        }
        for id in rated.keys() {
            if !order.contains(id) {
                order.push(*id);
            }
        }
        // (userid, game, size) -> (the latest rating, rated games)
        let mut latest: BTreeMap<(String, String, u32), (Rating, usize)> = BTreeMap::new();
        for id in order {
            let mine: Vec<_> = changes.iter().filter(|c| c.game_id == id).collect();
            let Some((players, end)) = rated.get(&id) else {
                problems.push((id, "rating changes of a game that is not rated".into()));
                continue;
            };
            if mine.len() != 2 {
                problems.push((id, format!("{} rating changes, not 2", mine.len())));
                continue;
            }
            let key = |seat: usize| {
                let user = players[seat].to_ascii_lowercase();
                (user, end.game.clone(), end.size)
            };
            let before: Vec<Rating> = (0..2)
                .map(|s| latest.get(&key(s)).map_or(Rating::START, |l| l.0))
                .collect();
            let (a, b) = rating_period(before[0], before[1], end.outcome);
            for (seat, expected) in [a, b].into_iter().enumerate() {
                let Some(c) = mine.iter().find(|c| c.seat == seat) else {
                    problems.push((id, format!("no rating change for seat {seat}")));
                    continue;
                };
                if !close(c.before, before[seat]) || !close(c.after, expected) {
                    problems.push((
                        id,
                        format!(
                            "seat {seat}: rating change {:?} -> {:?}, but the games before give \
                             {:?} -> {expected:?}",
                            c.before, c.after, before[seat]
                        ),
                    ));
                }
                if (c.score - end.outcome.score(seat)).abs() > CHECK_TOLERANCE {
                    problems.push((id, format!("seat {seat}: score {}", c.score)));
                }
                let entry = latest.entry(key(seat)).or_insert((Rating::START, 0));
                *entry = (expected, entry.1 + 1);
            }
        }
        let stored = self.store.all_ratings()?;
        for s in &stored {
            let key = (s.userid.to_ascii_lowercase(), s.game.clone(), s.size);
            match latest.get(&key) {
                Some((r, n)) if close(*r, s.rating) && *n == s.games => {}
                found => problems.push((
                    0,
                    format!(
                        "rating of {} for {} size {}: stored {:?} after {} games, the games \
                         give {found:?}",
                        s.userid, s.game, s.size, s.rating, s.games
                    ),
                )),
            }
        }
        if stored.len() != latest.len() {
            problems.push((
                0,
                format!(
                    "{} ratings stored, the rated games give {}",
                    stored.len(),
                    latest.len()
                ),
            ));
        }
        Ok(problems)
    }
}

fn close(a: Rating, b: Rating) -> bool {
    (a.rating - b.rating).abs() < CHECK_TOLERANCE
        && (a.deviation - b.deviation).abs() < CHECK_TOLERANCE
        && (a.volatility - b.volatility).abs() < CHECK_TOLERANCE
}
