//! Games and invitations on PostgreSQL: creation, the log, the one write of a change, a
//! join, lists, timers due and the cache.

use postgres::Transaction;

use super::super::games::GameQuery;
use super::super::invitations::Join;
use super::super::rows::{
    Cache, EndKind, Ending, GameRow, Invitation, MoveRow, NewGame, OfferChange, Quotas, Source,
    Summary, Write, WriteError, status_word,
};
use super::super::{StoreError, json_list, to_i64, to_json, to_usize};
use super::accounts::insert_notes;
use super::ratings::apply_rating;
use super::shared::{check_invitations, sync_bot_queue};
use super::{Postgres, insert_event};

impl From<postgres::Error> for WriteError {
    fn from(e: postgres::Error) -> WriteError {
        WriteError::Store(StoreError::Postgres(e))
    }
}

fn ids(rows: &[postgres::Row]) -> Vec<i64> {
    rows.iter().map(|r| r.get(0)).collect()
}

impl Postgres {
    pub(in super::super) fn game_exists(&self, id: i64) -> Result<bool, StoreError> {
        Ok(self
            .conn()?
            .query_opt("SELECT 1 FROM games WHERE id = $1", &[&id])?
            .is_some())
    }

    pub(in super::super) fn game_kind(&self, id: i64) -> Result<Option<String>, StoreError> {
        let row = self
            .conn()?
            .query_opt("SELECT game FROM games WHERE id = $1", &[&id])?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(in super::super) fn create_game(&self, new: &NewGame, now: i64) -> Result<i64, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        if !new.invited.is_empty() {
            check_invitations(&mut tx, &new.challenger, &new.quotas)?;
        }
        let row = tx.query_one(
            "INSERT INTO games(game, options, rules_version, deadline, reminder, created_at,
                ply, status, to_move_seat, winners, result, turn_since, challenger, rated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             RETURNING id",
            &[
                &new.game,
                &to_json(&new.options),
                &i64::from(new.rules_version),
                &new.deadline,
                &new.reminder,
                &now,
                &to_i64(new.cache.ply),
                &status_word(new.cache.over, new.cache.invited),
                &new.cache.to_move_seat.map(to_i64),
                &to_json(&new.cache.winners),
                &new.cache.result,
                &new.cache.turn_since,
                &new.challenger,
                &new.rated,
            ],
        )?;
        let id: i64 = row.get(0);
        for u in &new.invited {
            tx.execute(
                "INSERT INTO invitations(game_id, userid, joined_at) VALUES ($1, $2, NULL)",
                &[&id, u],
            )?;
        }
        for (seat, user) in new.players.iter().enumerate() {
            tx.execute(
                "INSERT INTO seats(game_id, seat, userid) VALUES ($1, $2, $3)",
                &[&id, &to_i64(seat), user],
            )?;
        }
        insert_moves(&mut tx, id, &new.moves)?;
        insert_notes(&mut tx, id, &new.notes, now)?;
        sync_bot_queue(&mut tx, id, &new.quotas)?;
        insert_event(&mut tx, id, new.cache.ply, "new", now)?;
        tx.commit()?;
        Ok(id)
    }

    pub(in super::super) fn load_game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let mut c = self.conn()?;
        // One snapshot for the several reads.
        let mut tx = c
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let row = read_game(&mut tx, id)?;
        tx.commit()?;
        Ok(row)
    }

    pub(in super::super) fn write(&self, w: &Write) -> Result<i64, WriteError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        // The game's row lock serializes the writes of one game: a racer waits here, then
        // counts the winner's moves below.
        let revision = tx.query_opt(
            "SELECT revision FROM games WHERE id = $1 FOR UPDATE",
            &[&w.game_id],
        )?;
        let Some(revision) = revision.map(|r| r.get::<_, i64>(0)) else {
            return Err(WriteError::Missing);
        };
        let ply = to_usize(
            tx.query_one(
                "SELECT COUNT(*) FROM moves WHERE game_id = $1",
                &[&w.game_id],
            )?
            .get(0),
        )?;
        let ended = tx
            .query_opt("SELECT 1 FROM endings WHERE game_id = $1", &[&w.game_id])?
            .is_some();
        if ply != w.expected_ply || ended {
            return Err(WriteError::Stale { ply, ended });
        }
        if revision != w.expected_revision {
            return Err(WriteError::Changed);
        }
        insert_moves(&mut tx, w.game_id, &w.moves)?;
        if let Some(e) = &w.ending {
            tx.execute(
                "INSERT INTO endings(game_id, ply, kind, seat, at) VALUES ($1, $2, $3, $4, $5)",
                &[
                    &w.game_id,
                    &to_i64(e.ply),
                    &e.kind.as_str(),
                    &e.seat.map(to_i64),
                    &e.at,
                ],
            )?;
        }
        match w.offers {
            OfferChange::Keep => {}
            OfferChange::Add(ref seats) => {
                for &seat in seats {
                    tx.execute(
                        "INSERT INTO draw_offers(game_id, seat, ply, at) VALUES ($1, $2, $3, $4)
                         ON CONFLICT(game_id, seat) DO UPDATE SET ply = excluded.ply,
                             at = excluded.at",
                        &[&w.game_id, &to_i64(seat), &to_i64(w.cache.ply), &w.now],
                    )?;
                }
            }
            OfferChange::Clear => {
                tx.execute("DELETE FROM draw_offers WHERE game_id = $1", &[&w.game_id])?;
            }
        }
        if !w.moves.is_empty() || w.ending.is_some() {
            tx.execute(
                "DELETE FROM draw_offers WHERE game_id = $1 AND ply < $2",
                &[&w.game_id, &to_i64(w.cache.ply)],
            )?;
        }
        if let Some(end) = &w.rating {
            apply_rating(&mut tx, w.game_id, end, w.now)?;
        }
        let cache = &w.cache;
        tx.execute(
            "UPDATE games SET revision = revision + 1, ply = $2, status = $3,
                to_move_seat = $4, winners = $5, result = $6, turn_since = $7,
                reminded_ply = COALESCE($8, reminded_ply)
             WHERE id = $1",
            &[
                &w.game_id,
                &to_i64(cache.ply),
                &status_word(cache.over, cache.invited),
                &cache.to_move_seat.map(to_i64),
                &to_json(&cache.winners),
                &cache.result,
                &cache.turn_since,
                &w.reminded_ply.map(to_i64),
            ],
        )?;
        insert_notes(&mut tx, w.game_id, &w.notes, w.now)?;
        sync_bot_queue(&mut tx, w.game_id, &w.quotas)?;
        insert_event(&mut tx, w.game_id, cache.ply, w.event, w.now)?;
        tx.commit()?;
        Ok(revision + 1)
    }

    pub(in super::super) fn join(&self, join: &Join) -> Result<i64, WriteError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let revision = tx.query_opt(
            "SELECT revision FROM games WHERE id = $1 FOR UPDATE",
            &[&join.game_id],
        )?;
        let Some(revision) = revision.map(|r| r.get::<_, i64>(0)) else {
            return Err(WriteError::Missing);
        };
        if revision != join.expected_revision {
            return Err(WriteError::Changed);
        }
        let joined = tx.execute(
            "UPDATE invitations SET joined_at = $3
             WHERE game_id = $1 AND userid = $2 AND joined_at IS NULL",
            &[&join.game_id, &join.userid, &join.now],
        )?;
        if joined != 1 {
            return Err(WriteError::Changed);
        }
        let cache = &join.cache;
        tx.execute(
            "UPDATE games SET revision = revision + 1, ply = $2, status = $3,
                to_move_seat = $4, winners = $5, result = $6, turn_since = $7
             WHERE id = $1",
            &[
                &join.game_id,
                &to_i64(cache.ply),
                &status_word(cache.over, cache.invited),
                &cache.to_move_seat.map(to_i64),
                &to_json(&cache.winners),
                &cache.result,
                &cache.turn_since,
            ],
        )?;
        insert_notes(&mut tx, join.game_id, &join.notes, join.now)?;
        sync_bot_queue(&mut tx, join.game_id, &Quotas::default())?;
        insert_event(&mut tx, join.game_id, cache.ply, "joined", join.now)?;
        if join.starts {
            insert_event(&mut tx, join.game_id, cache.ply, "started", join.now)?;
        }
        tx.commit()?;
        Ok(revision + 1)
    }

    pub(in super::super) fn open_invitations(&self, challenger: &str) -> Result<usize, StoreError> {
        let n: i64 = self
            .conn()?
            .query_one(
                "SELECT COUNT(*) FROM games WHERE challenger = $1 AND status = 'invited'",
                &[&challenger],
            )?
            .get(0);
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    pub(in super::super) fn find_games(
        &self,
        query: &GameQuery<'_>,
    ) -> Result<Vec<Summary>, StoreError> {
        let GameQuery {
            userid,
            active_only,
            over_only,
            next,
            game,
            limit,
            offset,
        } = *query;
        let rows = self.conn()?.query(
            "SELECT g.id, g.game, g.options, g.ply, g.status, g.to_move_seat, g.result,
                ARRAY(SELECT userid::text FROM seats WHERE game_id = g.id ORDER BY seat),
                ARRAY(SELECT s.userid::text FROM seats s JOIN invitations i
                        ON i.game_id = s.game_id AND i.userid = s.userid
                      WHERE s.game_id = g.id AND i.joined_at IS NULL ORDER BY s.seat)
             FROM games g
             WHERE ($1::citext IS NULL
                    OR g.id IN (SELECT game_id FROM seats WHERE userid = $1::citext))
               AND (NOT $2 OR g.status <> 'over')
               AND (NOT $5 OR g.status = 'over')
               AND ($6::text IS NULL OR g.game = $6::text)
               AND (NOT $3
                    OR (g.status = 'active' AND (SELECT userid FROM seats
                        WHERE game_id = g.id AND seat = g.to_move_seat) = $1::citext)
                    OR (g.status = 'invited' AND EXISTS (SELECT 1 FROM invitations
                        WHERE game_id = g.id AND userid = $1::citext AND joined_at IS NULL)))
             ORDER BY g.id DESC LIMIT $4 OFFSET $7",
            &[
                &userid,
                &(active_only || next),
                &next,
                &to_i64(limit),
                &over_only,
                &game,
                &to_i64(offset),
            ],
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let status: String = r.get(4);
            let options: String = r.get(2);
            let seat: Option<i64> = r.get(5);
            out.push(Summary {
                id: r.get(0),
                game: r.get(1),
                options: json_list(&options)?,
                players: r.get(7),
                ply: to_usize(r.get(3))?,
                over: status == "over",
                invited: status == "invited",
                waiting_for: if status == "invited" {
                    r.get(8)
                } else {
                    Vec::new()
                },
                to_move_seat: seat.map(to_usize).transpose()?,
                result: r.get(6),
            });
        }
        Ok(out)
    }

    pub(in super::super) fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        Ok(ids(&self
            .conn()?
            .query("SELECT id FROM games ORDER BY id", &[])?))
    }

    pub(in super::super) fn games_waiting_for(&self, userid: &str) -> Result<Vec<i64>, StoreError> {
        Ok(ids(&self.conn()?.query(
            "SELECT g.id FROM games g JOIN seats s
                ON s.game_id = g.id AND s.seat = g.to_move_seat
             WHERE g.status = 'active' AND s.userid = $1::citext ORDER BY g.id",
            &[&userid],
        )?))
    }

    pub(in super::super) fn games_due(&self, now: i64, lapse: i64) -> Result<Vec<i64>, StoreError> {
        Ok(ids(&self.conn()?.query(
            "SELECT id FROM games WHERE (status = 'active' AND (
                (deadline IS NOT NULL AND turn_since + deadline <= $1) OR
                (reminder IS NOT NULL AND turn_since + reminder <= $1
                    AND (reminded_ply IS NULL OR reminded_ply < ply))))
                OR (status = 'invited' AND created_at + $2 <= $1)
             ORDER BY id",
            &[&now, &lapse],
        )?))
    }

    pub(in super::super) fn move_count(&self) -> Result<usize, StoreError> {
        to_usize(
            self.conn()?
                .query_one("SELECT COUNT(*) FROM moves", &[])?
                .get(0),
        )
    }

    pub(in super::super) fn cache(&self, id: i64) -> Result<Option<Cache>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT ply, status, to_move_seat, winners, result, turn_since
             FROM games WHERE id = $1",
            &[&id],
        )?;
        row.map(|r| {
            let status: String = r.get(1);
            let seat: Option<i64> = r.get(2);
            let winners: String = r.get(3);
            Ok(Cache {
                ply: to_usize(r.get(0))?,
                over: status == "over",
                invited: status == "invited",
                to_move_seat: seat.map(to_usize).transpose()?,
                winners: json_list(&winners)?,
                result: r.get(4),
                turn_since: r.get(5),
            })
        })
        .transpose()
    }
}

fn insert_moves(tx: &mut Transaction<'_>, id: i64, moves: &[MoveRow]) -> Result<(), StoreError> {
    if moves.is_empty() {
        return Ok(());
    }
    let stmt = tx.prepare(
        "INSERT INTO moves(game_id, ply, seat, text, source, at) VALUES ($1, $2, $3, $4, $5, $6)",
    )?;
    for m in moves {
        tx.execute(
            &stmt,
            &[
                &id,
                &to_i64(m.ply),
                &to_i64(m.seat),
                &m.text,
                &m.source.as_str(),
                &m.at,
            ],
        )?;
    }
    Ok(())
}

fn read_game(tx: &mut Transaction<'_>, id: i64) -> Result<Option<GameRow>, StoreError> {
    let Some(head) = tx.query_opt(
        "SELECT game, options, rules_version, deadline, reminder, created_at, revision,
            reminded_ply, status, challenger::text, rated
         FROM games WHERE id = $1",
        &[&id],
    )?
    else {
        return Ok(None);
    };
    let players: Vec<String> = tx
        .query(
            "SELECT userid::text FROM seats WHERE game_id = $1 ORDER BY seat",
            &[&id],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let raw = tx.query(
        "SELECT ply, seat, text, source, at FROM moves WHERE game_id = $1 ORDER BY ply",
        &[&id],
    )?;
    let mut moves = Vec::with_capacity(raw.len());
    for (i, r) in raw.iter().enumerate() {
        let ply = to_usize(r.get(0))?;
        if ply != i {
            return Err(StoreError::Corrupt(format!(
                "game {id}: move {i} is missing"
            )));
        }
        let source: String = r.get(3);
        moves.push(MoveRow {
            ply,
            seat: to_usize(r.get(1))?,
            text: r.get(2),
            source: Source::parse(&source)?,
            at: r.get(4),
        });
    }
    let ending = match tx.query_opt(
        "SELECT ply, kind, seat, at FROM endings WHERE game_id = $1",
        &[&id],
    )? {
        Some(r) => {
            let kind: String = r.get(1);
            let seat: Option<i64> = r.get(2);
            Some(Ending {
                ply: to_usize(r.get(0))?,
                kind: EndKind::parse(&kind)?,
                seat: seat.map(to_usize).transpose()?,
                at: r.get(3),
            })
        }
        None => None,
    };
    let offers = tx
        .query(
            "SELECT seat FROM draw_offers WHERE game_id = $1 AND ply = $2 ORDER BY seat",
            &[&id, &to_i64(moves.len())],
        )?
        .iter()
        .map(|r| to_usize(r.get(0)))
        .collect::<Result<Vec<_>, _>>()?;
    // In the order of SQLite's primary key (game, userid in any case of letters).
    let invitations = tx
        .query(
            "SELECT userid::text, joined_at FROM invitations WHERE game_id = $1 ORDER BY userid",
            &[&id],
        )?
        .iter()
        .map(|r| Invitation {
            userid: r.get(0),
            joined_at: r.get(1),
        })
        .collect();
    let options: String = head.get(1);
    let rules_version: i64 = head.get(2);
    let reminded: Option<i64> = head.get(7);
    Ok(Some(GameRow {
        id,
        game: head.get(0),
        options: json_list(&options)?,
        rules_version: u32::try_from(rules_version)
            .map_err(|_| StoreError::Corrupt(format!("rules version {rules_version}")))?,
        deadline: head.get(3),
        reminder: head.get(4),
        created_at: head.get(5),
        revision: head.get(6),
        players,
        moves,
        ending,
        offers,
        reminded_ply: reminded.map(to_usize).transpose()?,
        status: head.get(8),
        challenger: head.get(9),
        invitations,
        rated: head.get(10),
    }))
}
