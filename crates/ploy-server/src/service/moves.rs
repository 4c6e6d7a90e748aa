//! Moves: a player's move, the bot's move, and writing a move with those the rules force.

use super::accounts::Credentials;
use super::error::ApiError;
use super::replay::{Replayed, derive, play_forced};
use super::view::GameView;
use super::{ATTEMPTS, Service, plural, settle};
use crate::auth::BOT;
use crate::game::{BotPlay, MoveError};
use crate::store::{GameRow, MoveRow, OfferChange, Source, StoreError, Write, WriteError};

impl Service {
    /// Plays a move for the user. `ply`, if given, must be the number of moves played.
    ///
    /// Checks, in this order: 404 unknown game; 403 bad credentials or no seat; 409 game
    /// over, not started (`not_started`: an invited player has not joined), stale move
    /// number, or not the user's turn; 422 a move that does not parse or is not legal; 429
    /// `too_many_bot_games` when the move would leave the bot to move while the user has
    /// as many games waiting for the bot as allowed.
    ///
    /// # Errors
    /// As above.
    pub fn play(
        &self,
        id: i64,
        credentials: &Credentials,
        text: &str,
        ply: Option<usize>,
    ) -> Result<GameView, ApiError> {
        self.with_game(id, credentials, |row, user, seats, mut r| {
            self.check_active(row, &r)?;
            self.check_started(row, &r)?;
            if let Some(n) = ply
                && n != row.moves.len()
            {
                return Err(stale(id, n, row.moves.len()));
            }
            let seat = r
                .derived
                .to_move_seat
                .ok_or_else(|| ApiError::internal("an active game without a seat to move"))?;
            if !seats.contains(&seat) {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!(
                        "it is {} ({})'s turn on board {id}, not {user}'s",
                        row.players[seat],
                        r.game.seat_name(&r.options, seat)
                    ),
                ));
            }
            let canonical = r.state.play(text).map_err(|e| match e {
                MoveError::Malformed(m) | MoveError::Illegal(m) => {
                    ApiError::new(422, "illegal_move", m)
                }
            })?;
            let moves = self.advance(row, &mut r, seat, canonical, Source::Player)?;
            // A place in the bot queue, before anything is written.
            let _ticket = self.bot_ticket(user, &r, &row.players)?;
            let written = self.write_moves(row, &mut r, moves, Source::Player, user);
            match written {
                // A move that named its number is refused when the game moved on.
                Err(WriteError::Stale { ply: now, ended }) if ply.is_some() => Err(if ended {
                    ApiError::conflict("game_over", format!("board {id} is over"))
                } else {
                    stale(id, row.moves.len(), now)
                }),
                written => settle(id, written),
            }
        })
    }

    /// Writes a move just played on `r` (and the moves the rules force after it).
    pub(super) fn commit_move(
        &self,
        row: &GameRow,
        r: &mut Replayed,
        seat: usize,
        canonical: String,
        source: Source,
        actor: &str,
    ) -> Result<GameView, WriteError> {
        let moves = self
            .advance(row, r, seat, canonical, source)
            .map_err(|e| WriteError::Store(StoreError::Corrupt(e.message)))?;
        self.write_moves(row, r, moves, source, actor)
    }

    /// The rows of a move just played on `r` by `seat` and of the moves the rules force
    /// after it (played on `r` too), with `r`'s status after them.
    pub(super) fn advance(
        &self,
        row: &GameRow,
        r: &mut Replayed,
        seat: usize,
        canonical: String,
        source: Source,
    ) -> Result<Vec<MoveRow>, ApiError> {
        let now = self.now();
        let start = row.moves.len();
        let mut moves = vec![MoveRow {
            ply: start,
            seat,
            text: canonical,
            source,
            at: now,
        }];
        play_forced(r.state.as_mut(), &mut moves, start + 1, now)?;
        r.ply = start + moves.len();
        r.derived = derive(r.state.as_ref(), None)
            .map_err(|e| ApiError::internal(format!("the game does not replay: {e}")))?;
        r.derived.invitations(row);
        Ok(moves)
    }

    /// Writes `moves` ([`Service::advance`]) as one change by `actor`.
    pub(super) fn write_moves(
        &self,
        row: &GameRow,
        r: &mut Replayed,
        moves: Vec<MoveRow>,
        source: Source,
        actor: &str,
    ) -> Result<GameView, WriteError> {
        let start = row.moves.len();
        // The time the moves were played at (the new turn starts then).
        let now = moves[0].at;
        let (seat, canonical) = (moves[0].seat, moves[0].text.clone());
        let seat_name = r.game.seat_name(&r.options, seat);
        let mut summary = format!(
            "{} ({seat_name}) played {canonical}{}",
            row.players[seat],
            if source == Source::Bot && row.players[seat] != BOT {
                " (by the bot, on time)"
            } else {
                ""
            }
        );
        for m in &moves[1..] {
            summary.push_str(&format!(
                "; {} ({}) had to play {}",
                row.players[m.seat],
                r.game.seat_name(&r.options, m.seat),
                m.text
            ));
        }
        let status_line = self.status_line(row, r);
        let notes = self.notes_for(row, actor, &summary, &status_line, r);
        let w = Write {
            game_id: row.id,
            expected_ply: start,
            expected_revision: row.revision,
            moves,
            ending: None,
            offers: OfferChange::Clear,
            cache: self.cache_of(r, &row.players, now),
            notes,
            event: "move",
            reminded_ply: None,
            now,
            rating: self.rated_end(row, r, None),
            quotas: self.quotas(actor),
        };
        self.store.write(&w)?;
        self.after_write(row.id, r, &row.players, actor);
        let mut new_row = row.clone();
        new_row.moves.extend(w.moves);
        new_row.revision += 1;
        new_row.offers.clear();
        Ok(self.view_of(&new_row, r))
    }

    /// Searches the bot's move in `r` and plays it there; its canonical text, or `None`
    /// when the game gives the bot nothing to play.
    ///
    /// # Errors
    /// 500 when the game refuses the move its own search found.
    pub(super) fn bot_plays(&self, r: &mut Replayed, id: i64) -> Result<Option<String>, ApiError> {
        let play = BotPlay {
            level: r.bot_level,
            seed: bot_seed(id),
        };
        let Some(text) = r.state.bot_move(&self.config.bot_budget, play) else {
            return Ok(None);
        };
        r.state
            .play(&text)
            .map(Some)
            .map_err(|e| ApiError::internal(format!("the bot's move {text}: {e}")))
    }

    /// Plays one bot move on game `id` if the bot is to move there. Returns whether it
    /// moved. The search runs before the write transaction.
    ///
    /// # Errors
    /// Storage failure, or a game that does not replay.
    pub fn bot_turn(&self, id: i64) -> Result<bool, ApiError> {
        for _ in 0..ATTEMPTS {
            let row = self.load(id)?;
            let mut r = self.replay(&row, None)?;
            let Some(seat) = r.derived.to_move_seat.filter(|_| !r.derived.over) else {
                return Ok(false);
            };
            if row.players[seat] != BOT {
                return Ok(false);
            }
            let Some(canonical) = self.bot_plays(&mut r, id)? else {
                return Ok(false);
            };
            let written = self.commit_move(&row, &mut r, seat, canonical, Source::Bot, BOT);
            if settle(id, written)?.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The seed of the bot's choices on board `id`: the same board replays the same bot moves.
fn bot_seed(id: i64) -> u64 {
    // The board number spread over the bits (the engines mix in the position and the ply).
    id.cast_unsigned().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

pub(super) fn stale(id: i64, given: usize, actual: usize) -> ApiError {
    ApiError::conflict(
        "stale",
        format!(
            "board {id} has {} played; a move numbered #{given} is stale",
            plural(actual, "move", "moves")
        ),
    )
}
