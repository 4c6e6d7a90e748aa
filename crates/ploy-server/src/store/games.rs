//! Games: creation, the log, the one write of a change, lists, timers due and the cache.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::inbox::insert_notes;
use super::invitations::read_invitations;
use super::ratings::apply_rating;
use super::rows::{
    Cache, EndKind, Ending, GameRow, MoveRow, NewGame, OfferChange, Quota, Source, Summary, Write,
    WriteError, status_word,
};
use super::{Store, StoreError, insert_rows, json_list, to_i64, to_json, to_usize};

/// Which games [`Store::find_games`] lists; every condition given must hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameQuery<'a> {
    /// Games where this user holds a seat (`None`: everybody's).
    pub userid: Option<&'a str>,
    /// Games not over (invitations included).
    pub active_only: bool,
    /// Games over.
    pub over_only: bool,
    /// Active games where `userid` is to move, and invitations waiting for him.
    pub next: bool,
    /// Games of this type.
    pub game: Option<&'a str>,
    /// At most this many.
    pub limit: usize,
    /// Skipping this many of the newest first.
    pub offset: usize,
}

impl Store {
    /// Whether game `id` exists.
    ///
    /// # Errors
    /// Storage failure.
    pub fn game_exists(&self, id: i64) -> Result<bool, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.game_exists(id);
        }
        self.with(|c| {
            Ok(
                c.query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(()))
                    .optional()?
                    .is_some(),
            )
        })
    }

    /// The game type of game `id`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn game_kind(&self, id: i64) -> Result<Option<String>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.game_kind(id);
        }
        self.with(|c| {
            Ok(
                c.query_row("SELECT game FROM games WHERE id = ?1", params![id], |r| {
                    r.get(0)
                })
                .optional()?,
            )
        })
    }

    /// Creates a game, its seats, its first (forced) moves and notifications in one
    /// transaction; returns its number.
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_game(&self, new: &NewGame, now: i64) -> Result<i64, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.create_game(new, now);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            if let Some(limit) = new.quotas.invitations.filter(|_| !new.invited.is_empty()) {
                // Counted inside the write's transaction (one writer at a time), so that
                // racing challenges cannot pass the limit together.
                let held: i64 = tx.query_row(
                    "SELECT COUNT(*) FROM games WHERE challenger = ?1 AND status = 'invited'",
                    params![new.challenger],
                    |r| r.get(0),
                )?;
                let held = to_usize(held)?;
                if held >= limit {
                    return Err(StoreError::TooMany {
                        quota: Quota::Invitations,
                        user: new.challenger.clone(),
                        held,
                    });
                }
            }
            tx.execute(
                "INSERT INTO games(game, options, rules_version, deadline, reminder, created_at,
                    ply, status, to_move_seat, winners, result, turn_since, challenger, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    new.game,
                    to_json(&new.options),
                    new.rules_version,
                    new.deadline,
                    new.reminder,
                    now,
                    to_i64(new.cache.ply),
                    status_word(new.cache.over, new.cache.invited),
                    new.cache.to_move_seat.map(to_i64),
                    to_json(&new.cache.winners),
                    new.cache.result,
                    new.cache.turn_since,
                    new.challenger,
                    new.rated,
                ],
            )?;
            let id = tx.last_insert_rowid();
            insert_rows(
                &tx,
                "INSERT INTO invitations(game_id, userid, joined_at) VALUES (?1, ?2, NULL)",
                new.invited.iter().map(|u| (id, u.as_str())),
            )?;
            for (seat, user) in new.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO seats(game_id, seat, userid) VALUES (?1, ?2, ?3)",
                    params![id, to_i64(seat), user],
                )?;
            }
            insert_moves(&tx, id, &new.moves)?;
            insert_notes(&tx, id, &new.notes, now)?;
            tx.execute(
                "INSERT INTO events(game_id, ply, kind, at) VALUES (?1, ?2, 'new', ?3)",
                params![id, to_i64(new.cache.ply), now],
            )?;
            tx.commit()?;
            Ok(id)
        })
    }

    /// Reads a whole game in one read transaction (a consistent snapshot).
    ///
    /// # Errors
    /// Storage failure or a corrupt row.
    pub fn load_game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.load_game(id);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Deferred)?;
            let row = read_game(&tx, id)?;
            tx.commit()?;
            Ok(row)
        })
    }

    /// Writes one change of a game in a `BEGIN IMMEDIATE` transaction, after checking that
    /// the log still has `expected_ply` moves and no ending, and that the revision is
    /// unchanged. Returns the new revision.
    ///
    /// # Errors
    /// [`WriteError::Stale`] or [`WriteError::Changed`] when the game moved on (nothing is
    /// written), [`WriteError::Missing`], or a storage failure.
    pub fn write(&self, w: &Write) -> Result<i64, WriteError> {
        if let Some(pg) = &self.postgres {
            return pg.write(w);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let revision: Option<i64> = tx
                .query_row(
                    "SELECT revision FROM games WHERE id = ?1",
                    params![w.game_id],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(revision) = revision else {
                return Err(WriteError::Missing);
            };
            let ply = to_usize(tx.query_row(
                "SELECT COUNT(*) FROM moves WHERE game_id = ?1",
                params![w.game_id],
                |r| r.get(0),
            )?)?;
            let ended = tx
                .query_row(
                    "SELECT 1 FROM endings WHERE game_id = ?1",
                    params![w.game_id],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if ply != w.expected_ply || ended {
                return Err(WriteError::Stale { ply, ended });
            }
            if revision != w.expected_revision {
                return Err(WriteError::Changed);
            }
            insert_moves(&tx, w.game_id, &w.moves)?;
            if let Some(e) = &w.ending {
                tx.execute(
                    "INSERT INTO endings(game_id, ply, kind, seat, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        w.game_id,
                        to_i64(e.ply),
                        e.kind.as_str(),
                        e.seat.map(to_i64),
                        e.at
                    ],
                )?;
            }
            match w.offers {
                OfferChange::Keep => {}
                OfferChange::Add(ref seats) => {
                    for &seat in seats {
                        tx.execute(
                            "INSERT OR REPLACE INTO draw_offers(game_id, seat, ply, at)
                             VALUES (?1, ?2, ?3, ?4)",
                            params![w.game_id, to_i64(seat), to_i64(w.cache.ply), w.now],
                        )?;
                    }
                }
                OfferChange::Clear => {
                    tx.execute(
                        "DELETE FROM draw_offers WHERE game_id = ?1",
                        params![w.game_id],
                    )?;
                }
            }
            if !w.moves.is_empty() || w.ending.is_some() {
                tx.execute(
                    "DELETE FROM draw_offers WHERE game_id = ?1 AND ply < ?2",
                    params![w.game_id, to_i64(w.cache.ply)],
                )?;
            }
            if let Some(end) = &w.rating {
                apply_rating(&tx, w.game_id, end, w.now)?;
            }
            let cache = &w.cache;
            tx.execute(
                "UPDATE games SET revision = revision + 1, ply = ?2, status = ?3,
                    to_move_seat = ?4, winners = ?5, result = ?6, turn_since = ?7,
                    reminded_ply = COALESCE(?8, reminded_ply)
                 WHERE id = ?1",
                params![
                    w.game_id,
                    to_i64(cache.ply),
                    status_word(cache.over, cache.invited),
                    cache.to_move_seat.map(to_i64),
                    to_json(&cache.winners),
                    cache.result,
                    cache.turn_since,
                    w.reminded_ply.map(to_i64),
                ],
            )?;
            insert_notes(&tx, w.game_id, &w.notes, w.now)?;
            tx.execute(
                "INSERT INTO events(game_id, ply, kind, at) VALUES (?1, ?2, ?3, ?4)",
                params![w.game_id, to_i64(cache.ply), w.event, w.now],
            )?;
            tx.commit()?;
            Ok(revision + 1)
        })
    }

    /// Games where `userid` holds a seat (`None`: every game), newest first, at most
    /// `limit`. With `active_only`, games not over (invitations included); with `next`,
    /// only active games where `userid` is to move and invitations waiting for him.
    ///
    /// # Errors
    /// Storage failure.
    pub fn list_games(
        &self,
        userid: Option<&str>,
        active_only: bool,
        next: bool,
        limit: usize,
    ) -> Result<Vec<Summary>, StoreError> {
        self.find_games(&GameQuery {
            userid,
            active_only,
            next,
            limit,
            ..GameQuery::default()
        })
    }

    /// The games `query` asks for, newest first.
    ///
    /// # Errors
    /// Storage failure.
    pub fn find_games(&self, query: &GameQuery<'_>) -> Result<Vec<Summary>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.find_games(query);
        }
        let GameQuery {
            userid,
            active_only,
            over_only,
            next,
            game,
            limit,
            offset,
        } = *query;
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT g.id, g.game, g.options, g.ply, g.status, g.to_move_seat, g.result,
                    (SELECT json_group_array(userid) FROM
                        (SELECT userid FROM seats WHERE game_id = g.id ORDER BY seat)),
                    (SELECT json_group_array(userid) FROM
                        (SELECT s.userid FROM seats s JOIN invitations i
                            ON i.game_id = s.game_id AND i.userid = s.userid
                         WHERE s.game_id = g.id AND i.joined_at IS NULL ORDER BY s.seat))
                 FROM games g
                 WHERE (?1 IS NULL OR g.id IN (SELECT game_id FROM seats WHERE userid = ?1))
                   AND (?2 = 0 OR g.status <> 'over')
                   AND (?5 = 0 OR g.status = 'over')
                   AND (?6 IS NULL OR g.game = ?6)
                   AND (?3 = 0
                        OR (g.status = 'active' AND (SELECT userid FROM seats
                            WHERE game_id = g.id AND seat = g.to_move_seat) = ?1)
                        OR (g.status = 'invited' AND EXISTS (SELECT 1 FROM invitations
                            WHERE game_id = g.id AND userid = ?1 AND joined_at IS NULL)))
                 ORDER BY g.id DESC LIMIT ?4 OFFSET ?7",
            )?;
            let rows = stmt.query_map(
                params![
                    userid,
                    active_only || next,
                    next,
                    to_i64(limit),
                    over_only,
                    game,
                    to_i64(offset)
                ],
                |r| {
                    <(
                        i64,
                        String,
                        String,
                        i64,
                        String,
                        Option<i64>,
                        String,
                        String,
                        String,
                    )>::try_from(r)
                },
            )?;
            let mut out = Vec::new();
            for row in rows {
                let (id, game, options, ply, status, seat, result, players, waiting) = row?;
                out.push(Summary {
                    id,
                    game,
                    options: json_list(&options)?,
                    players: json_list(&players)?,
                    ply: to_usize(ply)?,
                    over: status == "over",
                    invited: status == "invited",
                    // Who never joined a game that ended is told by its result.
                    waiting_for: if status == "invited" {
                        json_list(&waiting)?
                    } else {
                        Vec::new()
                    },
                    to_move_seat: seat.map(to_usize).transpose()?,
                    result,
                });
            }
            Ok(out)
        })
    }

    /// Every game number, in order.
    ///
    /// # Errors
    /// Storage failure.
    pub fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.game_ids();
        }
        self.with(|c| {
            let mut stmt = c.prepare("SELECT id FROM games ORDER BY id")?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    /// Active games whose seat to move is held by `userid` (the bot).
    ///
    /// # Errors
    /// Storage failure.
    pub fn games_waiting_for(&self, userid: &str) -> Result<Vec<i64>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.games_waiting_for(userid);
        }
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT g.id FROM games g JOIN seats s
                    ON s.game_id = g.id AND s.seat = g.to_move_seat
                 WHERE g.status = 'active' AND s.userid = ?1 ORDER BY g.id",
            )?;
            let ids = stmt.query_map(params![userid], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    /// Games with a timer that is due at `now`: active games with a reminder not yet sent
    /// or the deadline passed, and invitations created `lapse` seconds ago or more.
    ///
    /// # Errors
    /// Storage failure.
    pub fn games_due(&self, now: i64, lapse: i64) -> Result<Vec<i64>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.games_due(now, lapse);
        }
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id FROM games WHERE (status = 'active' AND (
                    (deadline IS NOT NULL AND turn_since + deadline <= ?1) OR
                    (reminder IS NOT NULL AND turn_since + reminder <= ?1
                        AND (reminded_ply IS NULL OR reminded_ply < ply))))
                    OR (status = 'invited' AND created_at + ?2 <= ?1)
                 ORDER BY id",
            )?;
            let ids = stmt.query_map(params![now, lapse], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    /// Counts the rows of the move log (for checks).
    ///
    /// # Errors
    /// Storage failure.
    pub fn move_count(&self) -> Result<usize, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.move_count();
        }
        self.with(|c| to_usize(c.query_row("SELECT COUNT(*) FROM moves", [], |r| r.get(0))?))
    }

    /// The cache columns of game `id`, as stored (for checks).
    ///
    /// # Errors
    /// Storage failure.
    pub fn cache(&self, id: i64) -> Result<Option<Cache>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.cache(id);
        }
        self.with(|c| {
            let row = c
                .query_row(
                    "SELECT ply, status, to_move_seat, winners, result, turn_since
                     FROM games WHERE id = ?1",
                    params![id],
                    |r| <(i64, String, Option<i64>, String, String, i64)>::try_from(r),
                )
                .optional()?;
            row.map(|(ply, status, seat, winners, result, turn_since)| {
                Ok(Cache {
                    ply: to_usize(ply)?,
                    over: status == "over",
                    invited: status == "invited",
                    to_move_seat: seat.map(to_usize).transpose()?,
                    winners: json_list(&winners)?,
                    result,
                    turn_since,
                })
            })
            .transpose()
        })
    }
}

pub(super) fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    moves: &[MoveRow],
) -> Result<(), StoreError> {
    insert_rows(
        tx,
        "INSERT INTO moves(game_id, ply, seat, text, source, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        moves.iter().map(|m| {
            let (ply, seat) = (to_i64(m.ply), to_i64(m.seat));
            (id, ply, seat, m.text.as_str(), m.source.as_str(), m.at)
        }),
    )
}

pub(super) fn read_game(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
) -> Result<Option<GameRow>, StoreError> {
    let head = tx
        .query_row(
            "SELECT game, options, rules_version, deadline, reminder, created_at, revision,
                reminded_ply, status, challenger, rated
             FROM games WHERE id = ?1",
            params![id],
            |r| {
                <(
                    String,
                    String,
                    u32,
                    Option<i64>,
                    Option<i64>,
                    i64,
                    i64,
                    Option<i64>,
                    String,
                    Option<String>,
                    bool,
                )>::try_from(r)
            },
        )
        .optional()?;
    let Some((
        game,
        options,
        rules_version,
        deadline,
        reminder,
        created_at,
        revision,
        reminded,
        status,
        challenger,
        rated,
    )) = head
    else {
        return Ok(None);
    };
    let mut stmt =
        tx.prepare_cached("SELECT userid FROM seats WHERE game_id = ?1 ORDER BY seat")?;
    let players = stmt
        .query_map(params![id], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let mut stmt = tx.prepare_cached(
        "SELECT ply, seat, text, source, at FROM moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let raw = stmt
        .query_map(params![id], |r| {
            <(i64, i64, String, String, i64)>::try_from(r)
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut moves = Vec::with_capacity(raw.len());
    for (i, (ply, seat, text, source, at)) in raw.into_iter().enumerate() {
        let ply = to_usize(ply)?;
        if ply != i {
            return Err(StoreError::Corrupt(format!(
                "game {id}: move {i} is missing"
            )));
        }
        moves.push(MoveRow {
            ply,
            seat: to_usize(seat)?,
            text,
            source: Source::parse(&source)?,
            at,
        });
    }
    let ending = tx
        .query_row(
            "SELECT ply, kind, seat, at FROM endings WHERE game_id = ?1",
            params![id],
            |r| <(i64, String, Option<i64>, i64)>::try_from(r),
        )
        .optional()?;
    let ending = match ending {
        Some((ply, kind, seat, at)) => Some(Ending {
            ply: to_usize(ply)?,
            kind: EndKind::parse(&kind)?,
            seat: seat.map(to_usize).transpose()?,
            at,
        }),
        None => None,
    };
    let mut stmt = tx.prepare_cached(
        "SELECT seat FROM draw_offers WHERE game_id = ?1 AND ply = ?2 ORDER BY seat",
    )?;
    let offers = stmt
        .query_map(params![id, to_i64(moves.len())], |r| r.get::<_, i64>(0))?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(to_usize)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(GameRow {
        id,
        game,
        options: json_list(&options)?,
        rules_version,
        deadline,
        reminder,
        created_at,
        revision,
        players,
        moves,
        ending,
        offers,
        reminded_ply: reminded.map(to_usize).transpose()?,
        status,
        challenger,
        invitations: read_invitations(tx, id)?,
        rated,
    }))
}
