//! Endings by the players: resignations and draw offers.

use super::accounts::Credentials;
use super::error::ApiError;
use super::replay::{Replayed, derive, turn_since};
use super::view::GameView;
use super::{Service, settle};
use crate::auth::BOT;
use crate::game::excerpt;
use crate::store::{
    EndKind, Ending, GameRow, MoveRow, OfferChange, Quotas, Source, StoreError, Write, WriteError,
};

impl Service {
    /// Resigns for the user (his one seat, or the seat to move if he holds several).
    ///
    /// # Errors
    /// 404, 403, 409 (game over, or not started: decline instead), 422 when the rules do
    /// not let the seat leave (a
    /// free-for-all game with several opponents left).
    pub fn resign(&self, id: i64, credentials: &Credentials) -> Result<GameView, ApiError> {
        self.with_game(id, credentials, |row, user, seats, r| {
            self.check_active(row, &r)?;
            self.check_started(row, &r)?;
            let seat = match r.derived.to_move_seat {
                Some(s) if seats.contains(&s) => s,
                _ => seats.first().copied().ok_or_else(|| {
                    ApiError::internal(format!("{user} holds no seat on board {id}"))
                })?,
            };
            if let Err(e) = r.state.winners_without(seat) {
                // Nobody wins by his leaving: he withdraws if the rules let him (Ploy's
                // free-for-all), and the others play on.
                let mut test = r.state.boxed_clone();
                if test.withdraw(seat, "resignation").is_err() {
                    return Err(ApiError::new(422, "illegal_move", e));
                }
                return settle(
                    id,
                    self.commit_withdrawal(row, r, seat, "resignation", user),
                );
            }
            let ending = Ending {
                ply: row.moves.len(),
                kind: EndKind::Resignation,
                seat: Some(seat),
                at: self.now(),
            };
            let summary = format!(
                "{} ({}) resigned",
                row.players[seat],
                r.game.seat_name(&r.options, seat)
            );
            settle(id, self.commit_ending(row, r, ending, &summary, user))
        })
    }

    /// Writes an ending of `row` decided by a player (or by the clock), with the notes to
    /// the other players.
    pub(super) fn commit_ending(
        &self,
        row: &GameRow,
        mut r: Replayed,
        ending: Ending,
        summary: &str,
        actor: &str,
    ) -> Result<GameView, WriteError> {
        r.derived = derive(r.state.as_ref(), Some(&ending))
            .map_err(|e| WriteError::Store(StoreError::Corrupt(e)))?;
        r.derived.invitations(row);
        let status = self.status_line(row, &r);
        let notes = self.notes_for(row, actor, summary, &status, &r);
        let w = Write {
            game_id: row.id,
            expected_ply: row.moves.len(),
            expected_revision: row.revision,
            moves: Vec::new(),
            ending: Some(ending),
            offers: OfferChange::Clear,
            cache: self.cache_of(&r, &row.players, turn_since(row)),
            notes,
            // A challenger's cancellation is his declining: one event kind for both.
            event: match ending.kind {
                EndKind::Cancelled => "declined",
                kind => kind.as_str(),
            },
            reminded_ply: None,
            now: ending.at,
            rating: self.rated_end(row, &r, Some(&ending)),
            quotas: Quotas::default(),
        };
        self.store.write(&w)?;
        self.after_write(row.id, &r, &row.players, actor);
        let mut new_row = row.clone();
        new_row.ending = Some(ending);
        new_row.revision += 1;
        new_row.offers.clear();
        Ok(self.view_of(&new_row, &r))
    }

    /// Writes `seat`'s withdrawal from `row` (`reason`: `resignation` or `time`), a log
    /// entry of its own; when only bots are left in play, the game ends `abandoned` in the
    /// same write.
    pub(super) fn commit_withdrawal(
        &self,
        row: &GameRow,
        mut r: Replayed,
        seat: usize,
        reason: &str,
        actor: &str,
    ) -> Result<GameView, WriteError> {
        let corrupt = |e: String| WriteError::Store(StoreError::Corrupt(e));
        r.state.withdraw(seat, reason).map_err(corrupt)?;
        let now = self.now();
        let start = row.moves.len();
        let entry = MoveRow {
            ply: start,
            seat,
            text: reason.to_owned(),
            source: Source::Withdrawal,
            at: now,
        };
        r.ply = start + 1;
        let people_left = r
            .state
            .seats_in_play(row.players.len())
            .into_iter()
            .any(|s| row.players[s] != BOT);
        let ending = (!people_left).then_some(Ending {
            ply: start + 1,
            kind: EndKind::Abandoned,
            seat: None,
            at: now,
        });
        r.derived = derive(r.state.as_ref(), ending.as_ref()).map_err(corrupt)?;
        r.derived.invitations(row);
        let mut summary = format!(
            "{} ({}) {}",
            row.players[seat],
            r.game.seat_name(&r.options, seat),
            if reason == "time" {
                "ran out of time and withdrew: his pieces leave the board"
            } else {
                "resigned and withdrew: his pieces leave the board"
            }
        );
        if ending.is_some() {
            summary.push_str("; only bots are left, and the game is abandoned");
        }
        let status = self.status_line(row, &r);
        let notes = self.notes_for(row, actor, &summary, &status, &r);
        let w = Write {
            game_id: row.id,
            expected_ply: start,
            expected_revision: row.revision,
            moves: vec![entry.clone()],
            ending,
            offers: OfferChange::Clear,
            cache: self.cache_of(&r, &row.players, now),
            notes,
            event: if ending.is_some() {
                "abandoned"
            } else {
                "withdrawal"
            },
            reminded_ply: None,
            now,
            rating: self.rated_end(row, &r, ending.as_ref()),
            quotas: Quotas::default(),
        };
        self.store.write(&w)?;
        self.after_write(row.id, &r, &row.players, actor);
        let mut new_row = row.clone();
        new_row.moves.push(entry);
        new_row.ending = ending;
        new_row.revision += 1;
        new_row.offers.clear();
        Ok(self.view_of(&new_row, &r))
    }

    /// `propose`, `accept` or `reject` a draw.
    ///
    /// A draw is agreed when every person holding a seat has proposed or accepted it at the
    /// current move number; a move withdraws every offer. The bot never agrees to a draw.
    ///
    /// # Errors
    /// 404, 403, 409 (game over; nothing to accept or reject; a bot in the game), 400 for
    /// another action.
    pub fn draw(
        &self,
        id: i64,
        credentials: &Credentials,
        action: &str,
    ) -> Result<GameView, ApiError> {
        if !matches!(action, "propose" | "accept" | "reject") {
            return Err(ApiError::bad_request(format!(
                "`{}`: expected propose, accept or reject",
                excerpt(action)
            )));
        }
        self.with_game(id, credentials, |row, user, seats, r| {
            self.check_active(row, &r)?;
            self.check_started(row, &r)?;
            let others_offer = row.offers.iter().any(|s| !seats.contains(s));
            if row.players.iter().any(|p| p == BOT) && action != "reject" {
                return Err(ApiError::conflict(
                    "declined",
                    "the bot does not agree to draws",
                ));
            }
            if matches!(action, "accept" | "reject") && !others_offer {
                return Err(ApiError::conflict(
                    "no_offer",
                    format!("nobody offers a draw on board {id} now"),
                ));
            }
            let now = self.now();
            let mut agreed: Vec<usize> = row.offers.clone();
            agreed.extend(seats);
            let (summary, offers, event) = if action == "reject" {
                agreed.clear();
                (
                    format!("{user} rejected the draw offer"),
                    OfferChange::Clear,
                    "draw_rejected",
                )
            } else if (0..row.players.len()).all(|s| agreed.contains(&s)) {
                let ending = Ending {
                    ply: row.moves.len(),
                    kind: EndKind::Agreement,
                    seat: None,
                    at: now,
                };
                let summary = format!("{user} accepted the draw");
                return settle(id, self.commit_ending(row, r, ending, &summary, user));
            } else {
                (
                    format!("{user} offers a draw (accept or reject)"),
                    OfferChange::Add(seats.to_vec()),
                    "draw_offer",
                )
            };
            let status = self.status_line(row, &r);
            let notes = self.notes_for(row, user, &summary, &status, &r);
            let w = self.write_without_move(row, &r, offers, notes, event, now);
            let written = self.store.write(&w).map(|_| {
                self.changed();
                let mut new_row = row.clone();
                new_row.offers = agreed;
                new_row.offers.sort_unstable();
                new_row.offers.dedup();
                new_row.revision += 1;
                self.view_of(&new_row, &r)
            });
            settle(id, written)
        })
    }
}
