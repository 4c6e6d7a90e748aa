//! Reading games: the state of a board for clients, its history, lists and the inbox.

use serde_json::{Value, json};

use super::error::ApiError;
use super::replay::{Replayed, turn_since};
use super::{Service, plural};
use crate::game::{RecordFile, ServerEnding, excerpt};
use crate::store::{EndKind, GameQuery, GameRow, NoteRow, Source, Summary};

/// Games a page of [`Service::games_page`] (`GET /api/games`).
pub const GAMES_PAGE: usize = 50;

/// The state of a game for clients (the JSON of `GET /api/games/{id}`).
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    /// The board number.
    pub id: i64,
    /// The game type.
    pub game: String,
    /// Canonical options.
    pub options: Vec<String>,
    /// Userids in seat order.
    pub players: Vec<String>,
    /// Seat names in seat order.
    pub seats: Vec<String>,
    /// Canonical move texts in order (up to the move number asked for).
    pub moves: Vec<String>,
    /// The seat that played each of [`GameView::moves`].
    pub move_seats: Vec<usize>,
    /// Moves shown.
    pub ply: usize,
    /// Moves in the whole game.
    pub moves_played: usize,
    /// Whether the game is over (at the move number shown).
    pub over: bool,
    /// Whether it waits for invited players to join.
    pub invited: bool,
    /// The invited players who have not joined, in seat order.
    pub waiting_for: Vec<String>,
    /// Who started it (`None` for games stored before invitations).
    pub challenger: Option<String>,
    /// The userid to move.
    pub to_move: Option<String>,
    /// The seat to move.
    pub to_move_seat: Option<usize>,
    /// Legal moves.
    pub legal: Vec<String>,
    /// Winners' userids.
    pub winners: Vec<String>,
    /// The result for people (empty while the game goes on).
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// Userids offering a draw.
    pub draw_offers: Vec<String>,
    /// When the player to move runs out of time (seconds since 1970).
    pub deadline_at: Option<i64>,
    /// The level of the bot seats (1 to 8), `None` in a game without a bot seat.
    pub bot_level: Option<u8>,
    /// Whether the game is rated (`-rated`): its end changes both players' ratings.
    pub rated: bool,
    /// The rules version.
    pub rules_version: u32,
    /// The game's own JSON of the position.
    pub position: Value,
    /// The board for people.
    pub board: String,
}

impl GameView {
    /// The JSON of the state.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seats": self.seats,
            "moves": self.moves,
            "move_seats": self.move_seats,
            "ply": self.ply,
            "moves_played": self.moves_played,
            "status": crate::store::status_word(self.over, self.invited),
            "waiting_for": self.waiting_for,
            "challenger": self.challenger,
            "to_move": self.to_move,
            "to_move_seat": self.to_move_seat,
            "legal": self.legal,
            "winners": self.winners,
            "result": self.result,
            "reason": self.reason,
            "draw_offers": self.draw_offers,
            "deadline_at": self.deadline_at,
            "bot_level": self.bot_level,
            "rated": self.rated,
            "rules_version": self.rules_version,
            "position": self.position,
            "board": self.board,
        })
    }
}

/// One move of a game's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryLine {
    /// Moves before it.
    pub ply: usize,
    /// The seat.
    pub seat: usize,
    /// The seat's name.
    pub seat_name: String,
    /// The seat's userid.
    pub userid: String,
    /// The canonical text.
    pub text: String,
    /// Who played it.
    pub source: Source,
    /// When.
    pub at: i64,
}

impl Service {
    pub(super) fn view_of(&self, row: &GameRow, r: &Replayed) -> GameView {
        let full = r.ply == row.moves.len();
        let seat_user = |s: usize| row.players.get(s).cloned();
        let deadline_at = match (row.deadline, full && !r.derived.over && !r.derived.invited) {
            (Some(d), true) => Some(turn_since(row) + d),
            _ => None,
        };
        GameView {
            id: row.id,
            game: row.game.clone(),
            options: row.options.clone(),
            players: row.players.clone(),
            seats: (0..row.players.len())
                .map(|s| r.game.seat_name(&r.options, s))
                .collect(),
            moves: row.moves[..r.ply].iter().map(|m| m.text.clone()).collect(),
            move_seats: row.moves[..r.ply].iter().map(|m| m.seat).collect(),
            ply: r.ply,
            moves_played: row.moves.len(),
            over: r.derived.over,
            invited: r.derived.invited,
            waiting_for: if r.derived.invited {
                r.derived
                    .waiting
                    .iter()
                    .filter_map(|&s| seat_user(s))
                    .collect()
            } else {
                Vec::new()
            },
            challenger: row.challenger.clone(),
            to_move: r.derived.to_move_seat.and_then(seat_user),
            to_move_seat: r.derived.to_move_seat,
            legal: if r.derived.over || r.derived.invited {
                Vec::new()
            } else {
                r.state.legal_moves()
            },
            winners: r
                .derived
                .winners
                .iter()
                .filter_map(|&s| seat_user(s))
                .collect(),
            result: self.result_text(r, &row.players),
            reason: r.derived.reason.clone(),
            draw_offers: if full {
                row.offers.iter().filter_map(|&s| seat_user(s)).collect()
            } else {
                Vec::new()
            },
            deadline_at,
            bot_level: row
                .players
                .iter()
                .any(|p| p == crate::auth::BOT)
                .then(|| r.bot_level.get()),
            rated: row.rated,
            rules_version: row.rules_version,
            position: r.state.render_json(),
            board: r.state.render_text(),
        }
    }

    /// The state of game `id` after `ply` moves (all by default).
    ///
    /// # Errors
    /// 404 for an unknown game, 400 for a move number beyond the moves played.
    pub fn view(&self, id: i64, ply: Option<usize>) -> Result<GameView, ApiError> {
        let row = self.load(id)?;
        if let Some(n) = ply
            && n > row.moves.len()
        {
            return Err(ApiError::bad_request(format!(
                "board {id} has {}, not {n}",
                plural(row.moves.len(), "move", "moves")
            )));
        }
        let r = self.replay(&row, ply)?;
        Ok(self.view_of(&row, &r))
    }

    /// The record of game `id` in its game's record format (the game crate's writer), the
    /// players named by userid, and a file name for it (`ploy-101.ploy`).
    ///
    /// # Errors
    /// 404 for an unknown game; 500 when the game's writer refuses it.
    pub fn record(&self, id: i64) -> Result<(RecordFile, String), ApiError> {
        let row = self.load(id)?;
        let r = self.replay(&row, None)?;
        let ending = row.ending.as_ref().and_then(|e| match (e.kind, e.seat) {
            (EndKind::Resignation, Some(s)) => Some(ServerEnding::Resigned(s)),
            (EndKind::Time, Some(s)) => Some(ServerEnding::OutOfTime(s)),
            (EndKind::Agreement, _) => Some(ServerEnding::Agreed),
            // A game that never started has no ending in its record.
            _ => None,
        });
        let file = r
            .state
            .record(&row.players, ending)
            .map_err(|e| ApiError::internal(format!("board {id}: the record: {e}")))?;
        let name = format!("{}-{id}.{}", row.game, file.extension);
        Ok((file, name))
    }

    /// The moves of game `id` with who played them.
    ///
    /// # Errors
    /// 404 for an unknown game.
    pub fn history(&self, id: i64) -> Result<(GameView, Vec<HistoryLine>), ApiError> {
        let row = self.load(id)?;
        let r = self.replay(&row, None)?;
        let lines = row
            .moves
            .iter()
            .map(|m| HistoryLine {
                ply: m.ply,
                seat: m.seat,
                seat_name: r.game.seat_name(&r.options, m.seat),
                userid: row.players.get(m.seat).cloned().unwrap_or_default(),
                text: m.text.clone(),
                source: m.source,
                at: m.at,
            })
            .collect();
        Ok((self.view_of(&row, &r), lines))
    }

    /// Games of `userid` (every game with `None`): `active` (not over, invitations
    /// included), `next` (active and the user is to move, or an invitation waiting for him
    /// to join) or `all`, newest first.
    ///
    /// # Errors
    /// 400 for another filter.
    pub fn games(&self, userid: Option<&str>, filter: &str) -> Result<Vec<Summary>, ApiError> {
        let (active, next) = match filter {
            "active" => (true, false),
            "next" => (true, true),
            "all" => (false, false),
            other => {
                return Err(ApiError::bad_request(format!(
                    "`{}`: expected active, next or all",
                    excerpt(other)
                )));
            }
        };
        if next && userid.is_none() {
            return Err(ApiError::bad_request("`next` needs a userid"));
        }
        Ok(self
            .store
            .list_games(userid, active, next, self.config.list_limit)?)
    }

    /// One page of the games to find and watch (`GET /api/games`): those of `userid`
    /// (everybody's with `None`), by `filter` (`all`, `active`, `next` as
    /// [`Service::games`], or `over`), of game type `game` if given, newest first,
    /// [`GAMES_PAGE`] a page from page 1; with the number of the next page if there is one.
    ///
    /// # Errors
    /// 400 for another filter, `next` without a userid, an unknown game type or a page
    /// that is not a number from 1.
    pub fn games_page(
        &self,
        userid: Option<&str>,
        filter: &str,
        game: Option<&str>,
        page: usize,
    ) -> Result<(Vec<Summary>, Option<usize>), ApiError> {
        let mut query = GameQuery {
            userid,
            game,
            limit: GAMES_PAGE + 1,
            ..GameQuery::default()
        };
        match filter {
            "all" => {}
            "active" => query.active_only = true,
            "next" => query.next = true,
            "over" => query.over_only = true,
            other => {
                return Err(ApiError::bad_request(format!(
                    "`filter={}`: expected all, active, next or over",
                    excerpt(other)
                )));
            }
        }
        if query.next && userid.is_none() {
            return Err(ApiError::bad_request("`next` needs a userid"));
        }
        if let Some(g) = game {
            self.game_type(g)?;
        }
        if page == 0 {
            return Err(ApiError::bad_request("pages are numbered from 1"));
        }
        query.offset = (page - 1).saturating_mul(GAMES_PAGE);
        let mut games = self.store.find_games(&query)?;
        let next = (games.len() > GAMES_PAGE).then_some(page + 1);
        games.truncate(GAMES_PAGE);
        Ok((games, next))
    }

    /// The notifications for a user after note number `after`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn inbox(&self, userid: &str, after: i64) -> Result<Vec<NoteRow>, ApiError> {
        Ok(self.store.inbox(userid, after)?)
    }

    /// The invitations waiting for `userid` to join or decline, newest first.
    ///
    /// # Errors
    /// Storage failure.
    pub fn invitations_for(&self, userid: &str) -> Result<Vec<Summary>, ApiError> {
        Ok(self
            .store
            .list_games(Some(userid), true, true, self.config.list_limit)?
            .into_iter()
            .filter(|g| g.invited)
            .collect())
    }
}
