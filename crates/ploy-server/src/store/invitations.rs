//! Invitations: the people a challenger seated, their joining, and the count of a
//! challenger's open invitations.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::inbox::insert_notes;
use super::rows::{Cache, Invitation, Note, WriteError, status_word};
use super::{Store, StoreError, to_i64, to_json};

/// One invited player joining a game, written atomically ([`Store::join`]).
#[derive(Clone, Debug)]
pub struct Join {
    /// The game.
    pub game_id: i64,
    /// The revision the change was computed on.
    pub expected_revision: i64,
    /// Who joins.
    pub userid: String,
    /// The new cache (the game started when he was the last one).
    pub cache: Cache,
    /// Notifications.
    pub notes: Vec<Note>,
    /// Whether the game starts with this join (a `started` event follows the `joined`).
    pub starts: bool,
    /// When.
    pub now: i64,
}

impl Store {
    /// Records that `join.userid` joined, in a `BEGIN IMMEDIATE` transaction that first
    /// checks the revision and that he was still invited. Returns the new revision.
    ///
    /// # Errors
    /// [`WriteError::Changed`] when the game changed since it was read, or he is not
    /// waiting to join (nothing is written); [`WriteError::Missing`]; a storage failure.
    pub fn join(&self, join: &Join) -> Result<i64, WriteError> {
        if let Some(pg) = &self.postgres {
            return pg.join(join);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let revision: Option<i64> = tx
                .query_row(
                    "SELECT revision FROM games WHERE id = ?1",
                    params![join.game_id],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(revision) = revision else {
                return Err(WriteError::Missing);
            };
            if revision != join.expected_revision {
                return Err(WriteError::Changed);
            }
            let joined = tx.execute(
                "UPDATE invitations SET joined_at = ?3
                 WHERE game_id = ?1 AND userid = ?2 AND joined_at IS NULL",
                params![join.game_id, join.userid, join.now],
            )?;
            if joined != 1 {
                return Err(WriteError::Changed);
            }
            let cache = &join.cache;
            tx.execute(
                "UPDATE games SET revision = revision + 1, ply = ?2, status = ?3,
                    to_move_seat = ?4, winners = ?5, result = ?6, turn_since = ?7
                 WHERE id = ?1",
                params![
                    join.game_id,
                    to_i64(cache.ply),
                    status_word(cache.over, cache.invited),
                    cache.to_move_seat.map(to_i64),
                    to_json(&cache.winners),
                    cache.result,
                    cache.turn_since,
                ],
            )?;
            insert_notes(&tx, join.game_id, &join.notes, join.now)?;
            let kinds: &[&str] = if join.starts {
                &["joined", "started"]
            } else {
                &["joined"]
            };
            for kind in kinds {
                tx.execute(
                    "INSERT INTO events(game_id, ply, kind, at) VALUES (?1, ?2, ?3, ?4)",
                    params![join.game_id, to_i64(cache.ply), kind, join.now],
                )?;
            }
            tx.commit()?;
            Ok(revision + 1)
        })
    }

    /// The number of games `challenger` started that still wait for someone to join.
    ///
    /// # Errors
    /// Storage failure.
    pub fn open_invitations(&self, challenger: &str) -> Result<usize, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.open_invitations(challenger);
        }
        self.with(|c| {
            let n: i64 = c.query_row(
                "SELECT COUNT(*) FROM games WHERE challenger = ?1 AND status = 'invited'",
                params![challenger],
                |r| r.get(0),
            )?;
            Ok(usize::try_from(n).unwrap_or(usize::MAX))
        })
    }
}

/// The invitations of game `id`, in the order they were stored.
pub(super) fn read_invitations(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
) -> Result<Vec<Invitation>, StoreError> {
    let mut stmt =
        tx.prepare_cached("SELECT userid, joined_at FROM invitations WHERE game_id = ?1")?;
    let rows = stmt.query_map(params![id], |r| {
        Ok(Invitation {
            userid: r.get(0)?,
            joined_at: r.get(1)?,
        })
    })?;
    Ok(rows.collect::<Result<Vec<_>, _>>()?)
}
