//! What several `ployd` processes on one PostgreSQL database share beyond the games: the
//! bot queue (claimed with `FOR UPDATE SKIP LOCKED`), the limits counted inside a write's
//! transaction, the notifications (`LISTEN`) that wake the other processes, and the
//! advisory locks under which one process at a time sweeps the timers or sends the mail.
//!
//! # The bot queue
//!
//! Every write of a game brings its row in `bot_queue` up to date in the same transaction
//! ([`sync_bot_queue`]): a game whose seat to move is the bot's has a row (a new one counted
//! for the [`Quotas::bot_owner`], at the back of the line), any other game none. So a move
//! that leaves the bot to move is queued if and only if it is committed, whichever process
//! wrote it and whatever happens to that process afterwards. A process claims the next row
//! ([`Postgres::claim_bot`]) in a short transaction: the row of the user served least
//! recently (a user never served first), the oldest of his, skipping rows other claimers
//! hold locked at that instant; it writes its presence (the backend pid and start time of
//! the connection it listens on) into the row and stamps the user as served, then computes
//! the move with no transaction open. The bot's write of that game updates the row again:
//! deleted, or (the bot to move again) unclaimed and sent to the back of the line. A row
//! whose claimer's connection is gone (its process died or lost the database) is claimable
//! again: the claim's query finds no such session in `pg_stat_activity`.

use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls, Transaction};

use super::super::StoreError;
use super::super::rows::{Quota, Quotas};
use super::super::to_usize;
use super::Postgres;

/// The advisory lock of a user's count of games waiting for the bot (with the user's
/// name hashed in the second key).
const BOT_OWNER_LOCK: i32 = 0x706c_6f79;
/// The advisory lock of a challenger's count of open invitations.
const INVITATIONS_LOCK: i32 = 0x706c_6f7a;

/// The connection of a process that listens for notifications, and names the process in
/// the bot queue while it lives.
pub(in super::super) struct PgListener {
    client: Client,
    pid: i32,
    start: String,
}

impl std::fmt::Debug for PgListener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgListener")
            .field("pid", &self.pid)
            .finish_non_exhaustive()
    }
}

impl PgListener {
    /// Waits up to `timeout` for a notification on the channels listened to; `true` when
    /// one came (and every other already arrived is taken too).
    pub(in super::super) fn wait(&mut self, timeout: Duration) -> Result<bool, StoreError> {
        let mut notifications = self.client.notifications();
        let got = notifications.timeout_iter(timeout).next()?.is_some();
        if got {
            let mut pending = notifications.iter();
            while pending.next()?.is_some() {}
        }
        Ok(got)
    }

    /// The name of this connection's process in the bot queue's claims.
    pub(in super::super) fn claimer(&self) -> PgClaimer {
        PgClaimer {
            pid: self.pid,
            start: self.start.clone(),
        }
    }
}

/// A process in the bot queue's claims: the backend pid and start time of its listening
/// connection (a claim stands while that connection lives).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in super::super) struct PgClaimer {
    pid: i32,
    start: String,
}

impl Postgres {
    /// A connection of its own (not the pool's) that listens on `channels`.
    pub(in super::super) fn listen(&self, channels: &[&str]) -> Result<PgListener, StoreError> {
        let mut client = self.config.connect(NoTls)?;
        for channel in channels {
            // Channel names are the server's own identifiers, never a client's text.
            client.batch_execute(&format!("LISTEN {channel}"))?;
        }
        let row = client.query_one(
            "SELECT pg_backend_pid(), COALESCE(
                 (SELECT backend_start::text FROM pg_stat_activity
                  WHERE pid = pg_backend_pid()), '')",
            &[],
        )?;
        Ok(PgListener {
            pid: row.get(0),
            start: row.get(1),
            client,
        })
    }

    /// Claims the next game waiting for the bot for the process of `claimer` (see the
    /// module's documentation); `None` when there is none to claim.
    pub(in super::super) fn claim_bot(
        &self,
        claimer: &PgClaimer,
    ) -> Result<Option<i64>, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let row = tx.query_opt(
            "WITH pick AS (
                 SELECT q.game_id FROM bot_queue q
                 LEFT JOIN bot_owners o ON o.owner = q.owner
                 WHERE q.claimed_by IS NULL OR NOT EXISTS (
                     SELECT 1 FROM pg_stat_activity a
                     WHERE a.pid = q.claimed_by
                       AND (a.backend_start IS NULL
                            OR a.backend_start::text = q.claimer_start))
                 ORDER BY COALESCE(o.served, 0), q.line
                 LIMIT 1
                 FOR UPDATE OF q SKIP LOCKED)
             UPDATE bot_queue q SET claimed_by = $1, claimer_start = $2
             FROM pick WHERE q.game_id = pick.game_id
             RETURNING q.game_id, q.owner::text",
            &[&i64::from(claimer.pid), &claimer.start],
        )?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (id, owner): (i64, String) = (row.get(0), row.get(1));
        tx.execute(
            "INSERT INTO bot_owners(owner, served) VALUES ($1, nextval('bot_line'))
             ON CONFLICT (owner) DO UPDATE SET served = excluded.served",
            &[&owner],
        )?;
        tx.commit()?;
        Ok(Some(id))
    }

    /// Gives up the claim of `claimer` on game `id`: the row is deleted when the game no
    /// longer waits for the bot (the bot's write did that already when it moved), or
    /// unclaimed for another try.
    pub(in super::super) fn release_bot(
        &self,
        id: i64,
        claimer: &PgClaimer,
        done: bool,
    ) -> Result<(), StoreError> {
        let c = &mut self.conn()?;
        let sql = if done {
            "DELETE FROM bot_queue WHERE game_id = $1 AND claimed_by = $2 AND claimer_start = $3"
        } else {
            "UPDATE bot_queue SET claimed_by = NULL, claimer_start = NULL
             WHERE game_id = $1 AND claimed_by = $2 AND claimer_start = $3"
        };
        c.execute(sql, &[&id, &i64::from(claimer.pid), &claimer.start])?;
        Ok(())
    }

    /// Queues every game waiting for the bot that has no row (a database copied by `ployd
    /// migrate`, or written by an older `ployd`), for its first person. Returns how many.
    pub(in super::super) fn queue_waiting_games(&self) -> Result<usize, StoreError> {
        let n = self.conn()?.execute(
            "INSERT INTO bot_queue(game_id, owner)
             SELECT g.id, COALESCE(
                 (SELECT h.userid FROM seats h
                  WHERE h.game_id = g.id AND h.userid <> 'bot' ORDER BY h.seat LIMIT 1),
                 'bot')
             FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.to_move_seat
             WHERE g.status = 'active' AND s.userid = 'bot'
             ORDER BY g.id
             ON CONFLICT (game_id) DO NOTHING",
            &[],
        )?;
        to_usize(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// Runs `f` if no other process runs the job of advisory lock `key` now (a session lock
    /// on a connection held meanwhile, released if this process dies); `None` when another
    /// holds it.
    pub(in super::super) fn exclusive<T>(
        &self,
        key: i64,
        f: impl FnOnce() -> T,
    ) -> Result<Option<T>, StoreError> {
        let mut c = self.conn()?;
        let got: bool = c
            .query_one("SELECT pg_try_advisory_lock($1)", &[&key])?
            .get(0);
        if !got {
            return Ok(None);
        }
        let out = f();
        c.query_one("SELECT pg_advisory_unlock($1)", &[&key])?;
        Ok(Some(out))
    }
}

/// Brings the bot queue's row of game `id` up to date inside the transaction that just
/// wrote the game (its `games` row updated, locked by the transaction): see the module's
/// documentation. Refuses with [`StoreError::TooMany`] a new row beyond
/// [`Quotas::bot_games`].
pub(super) fn sync_bot_queue(
    tx: &mut Transaction<'_>,
    id: i64,
    quotas: &Quotas,
) -> Result<(), StoreError> {
    let bot_next = tx
        .query_opt(
            "SELECT 1 FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = g.to_move_seat
             WHERE g.id = $1 AND g.status = 'active' AND s.userid = 'bot'",
            &[&id],
        )?
        .is_some();
    if !bot_next {
        tx.execute("DELETE FROM bot_queue WHERE game_id = $1", &[&id])?;
        return Ok(());
    }
    let queued = tx.execute(
        "UPDATE bot_queue SET claimed_by = NULL, claimer_start = NULL,
             line = nextval('bot_line')
         WHERE game_id = $1",
        &[&id],
    )?;
    if queued > 0 {
        return Ok(());
    }
    let owner: String = match &quotas.bot_owner {
        Some(o) => o.clone(),
        None => tx
            .query_opt(
                "SELECT userid::text FROM seats WHERE game_id = $1 AND userid <> 'bot'
                 ORDER BY seat LIMIT 1",
                &[&id],
            )?
            .map_or_else(|| "bot".to_owned(), |r| r.get(0)),
    };
    if let Some(limit) = quotas.bot_games {
        // One counting transaction per user at a time, whatever the process.
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext(lower($2)))",
            &[&BOT_OWNER_LOCK, &owner],
        )?;
        let held = to_usize(
            tx.query_one(
                "SELECT COUNT(*) FROM bot_queue WHERE owner = $1::citext",
                &[&owner],
            )?
            .get(0),
        )?;
        if held >= limit {
            return Err(StoreError::TooMany {
                quota: Quota::BotGames,
                user: owner,
                held,
            });
        }
    }
    tx.execute(
        "INSERT INTO bot_queue(game_id, owner) VALUES ($1, $2)",
        &[&id, &owner],
    )?;
    Ok(())
}

/// Refuses with [`StoreError::TooMany`] a new game of `challenger` with invitations when he
/// has [`Quotas::invitations`] open already; counted under a lock of his, so that racing
/// challenges on any process cannot pass the limit together.
pub(super) fn check_invitations(
    tx: &mut Transaction<'_>,
    challenger: &str,
    quotas: &Quotas,
) -> Result<(), StoreError> {
    let Some(limit) = quotas.invitations else {
        return Ok(());
    };
    tx.execute(
        "SELECT pg_advisory_xact_lock($1, hashtext(lower($2)))",
        &[&INVITATIONS_LOCK, &challenger],
    )?;
    let held = to_usize(
        tx.query_one(
            "SELECT COUNT(*) FROM games WHERE challenger = $1 AND status = 'invited'",
            &[&challenger],
        )?
        .get(0),
    )?;
    if held >= limit {
        return Err(StoreError::TooMany {
            quota: Quota::Invitations,
            user: challenger.to_owned(),
            held,
        });
    }
    Ok(())
}
