//! Invitations: a challenge that seats other people waits for each of them to join.
//!
//! The challenger and the bot's seats count as joined, so a game against the bot starts
//! at once. Until every invited player has joined the game has the status `invited`:
//! nobody is to move, moves (and resignations and draw offers) are refused with 409
//! `not_started`, and the bot waits. An invited player joins or declines; the challenger
//! cancels by declining; an invitation that nobody declined lapses [`INVITATION_LAPSE`]
//! seconds after the challenge, by the server's clock, when the timers are swept. A
//! declined, cancelled or lapsed game is over with no winners. Deadlines count from the
//! start (when the last one joined).

use super::accounts::Credentials;
use super::error::ApiError;
use super::replay::{Replayed, derive, turn_since};
use super::timers::format_duration;
use super::view::GameView;
use super::{Service, settle};
use crate::store::{EndKind, Ending, GameRow, Join, WriteError};

/// Seconds after the challenge when an invitation not taken up lapses: 7 days.
pub const INVITATION_LAPSE: i64 = 7 * 24 * 3600;

/// The shortest `-deadline` of a game that seats another person: 1 hour.
pub const MIN_DEADLINE_WITH_PEOPLE: i64 = 3600;

impl Service {
    /// 409 `not_started` while the game waits for invited players.
    pub(super) fn check_started(&self, row: &GameRow, r: &Replayed) -> Result<(), ApiError> {
        if r.derived.invited {
            let waiting = row.waiting_for();
            return Err(ApiError::conflict(
                "not_started",
                format!(
                    "board {} has not started: it waits for {} to join",
                    row.id,
                    waiting.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// Joins game `id` for the user, who must hold a seat in it. When he is the last one
    /// the game waited for, it starts (and the bot moves if it is to). Joining a game one
    /// has joined already, or started, changes nothing and answers its state.
    ///
    /// # Errors
    /// 404 unknown game; 403 bad credentials or no seat; 409 `game_over` when it is over
    /// (declined, cancelled, lapsed, or played to its end).
    pub fn join(&self, id: i64, credentials: &Credentials) -> Result<GameView, ApiError> {
        self.with_game(id, credentials, |row, user, _seats, mut r| {
            self.check_active(row, &r)?;
            let invited = row
                .invitations
                .iter()
                .any(|i| i.joined_at.is_none() && i.userid.eq_ignore_ascii_case(user));
            if !invited {
                return Ok(Some(self.view_of(row, &r)));
            }
            let now = self.now();
            let mut new_row = row.clone();
            for i in &mut new_row.invitations {
                if i.userid.eq_ignore_ascii_case(user) {
                    i.joined_at = Some(now);
                }
            }
            new_row.revision += 1;
            r.derived = derive(r.state.as_ref(), None).map_err(ApiError::internal)?;
            r.derived.invitations(&new_row);
            let starts = !r.derived.invited;
            let summary = if starts {
                format!("{user} joined; the game starts")
            } else {
                format!("{user} joined")
            };
            let status = self.status_line(&new_row, &r);
            let notes = self.notes_for(&new_row, user, &summary, &status, &r);
            let join = Join {
                game_id: id,
                expected_revision: row.revision,
                userid: user.to_owned(),
                cache: self.cache_of(&r, &row.players, turn_since(&new_row)),
                notes,
                starts,
                now,
            };
            let written = self.store.join(&join).map(|_| {
                let owner = row.challenger.as_deref().unwrap_or(user).to_owned();
                self.after_write(id, &r, &row.players, &owner);
                self.view_of(&new_row, &r)
            });
            settle(id, written)
        })
    }

    /// Declines game `id` for the user while it waits for people to join: the game is
    /// over, `declined by USER`, or `cancelled by USER` when he is the challenger.
    ///
    /// # Errors
    /// 404 unknown game; 403 bad credentials or no seat; 409 `game_over` when it is over,
    /// `started` when it has started (resign instead).
    pub fn decline(&self, id: i64, credentials: &Credentials) -> Result<GameView, ApiError> {
        self.with_game(id, credentials, |row, user, seats, r| {
            self.check_active(row, &r)?;
            if !r.derived.invited {
                return Err(ApiError::conflict(
                    "started",
                    format!("board {id} has started; resign instead"),
                ));
            }
            let challenger = row
                .challenger
                .as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case(user));
            let (kind, summary) = if challenger {
                (EndKind::Cancelled, format!("{user} cancelled the game"))
            } else {
                (EndKind::Declined, format!("{user} declined to play"))
            };
            let ending = Ending {
                ply: row.moves.len(),
                kind,
                seat: seats.first().copied(),
                at: self.now(),
            };
            settle(id, self.commit_ending(row, r, ending, &summary, user))
        })
    }

    /// Ends `row`, an invitation, when it has lapsed. Returns whether it did.
    pub(super) fn lapse_if_due(&self, row: &GameRow) -> Result<bool, ApiError> {
        let now = self.now();
        if now < row.created_at + INVITATION_LAPSE {
            return Ok(false);
        }
        let r = self.replay(row, None)?;
        if !r.derived.invited {
            return Ok(false);
        }
        let ending = Ending {
            ply: row.moves.len(),
            kind: EndKind::Lapsed,
            seat: None,
            at: now,
        };
        let summary = format!(
            "the invitation lapsed: {} did not join within {}",
            row.waiting_for().join(", "),
            format_duration(INVITATION_LAPSE)
        );
        match self.commit_ending(row, r, ending, &summary, "") {
            Ok(_) | Err(WriteError::Stale { .. } | WriteError::Changed) => Ok(true),
            Err(WriteError::Missing) => Err(ApiError::no_game(row.id)),
            Err(WriteError::Store(e)) => Err(e.into()),
        }
    }
}
